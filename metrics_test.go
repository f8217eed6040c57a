package nvmeapst_test

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/ioctl"
	"github.com/nvmeapst/nvmeapst/ioctl/ioctltest"
)

// A scrape says what Inspect says: APST enabled, the bound, the deepest
// state of the kernel's table and whether the drive holds it, controller
// by controller, on the fixture machine with consistent drives, with the
// 990 holding the 100 ms table, and on the bundle.
func TestMetricsAgreeWithInspect(t *testing.T) {
	mismatched := consistentDrives(t)
	mismatched["nvme2"] = fake(samsung990Image(t), apst.Feature{APSTE: apst.APSTEEnabled, Table: samsung100000Table}, ioctl.PowerManagement{}, nil)
	bundle, _, err := nvmeapst.OpenBundle(testfixture.Path("bundle"))
	require.NoError(t, err)
	for name, sys := range map[string]*nvmeapst.System{
		"consistent": system(t, testfixture.Path("sys"), consistentDrives(t)),
		"mismatch":   system(t, testfixture.Path("sys"), mismatched),
		"bundle":     bundle,
		"no-ioctl":   {FS: bundle.FS},
	} {
		t.Run(name, func(t *testing.T) {
			rep, err := sys.Inspect(context.Background())
			require.NoError(t, err)
			snap, err := sys.Metrics(context.Background())
			require.NoError(t, err)
			require.Len(t, snap.Controllers, len(rep.Controllers))
			assert.Equal(t, rep.KernelRelease, snap.KernelRelease)
			for i, cr := range rep.Controllers {
				cm := snap.Controllers[i]
				assert.Equal(t, cr.Name, cm.Name)
				assert.Equal(t, nvmeapst.Reading{Value: b2f(!cr.APSTDisabled && cr.Bound != 0), Present: true}, cm.APSTEnabled, cr.Name)
				if cr.APSTDisabled {
					assert.False(t, cm.ToleranceSeconds.Present, cr.Name)
				} else {
					assert.Equal(t, float64(cr.Bound)/1e6, cm.ToleranceSeconds.Value, cr.Name)
				}
				if cr.ExpectedReach == nil {
					assert.False(t, cm.DeepestState.Present, cr.Name)
				} else {
					assert.Equal(t, float64(cr.ExpectedReach.Deepest), cm.DeepestState.Value, cr.Name)
					assert.Equal(t, float64(cr.ExpectedReach.DeepestExitLatency)/1e6, cm.DeepestExitLatencySeconds.Value, cr.Name)
					assert.Equal(t, cr.ExpectedReach.DeepestMaxPower.Watts(), cm.DeepestMaxPowerWatts.Value, cr.Name)
				}
				switch cr.Verdict.Status {
				case nvmeapst.StatusMatch:
					assert.Equal(t, nvmeapst.Reading{Value: 1, Present: true}, cm.HoldsKernelTable, cr.Name)
					assert.Equal(t, nvmeapst.HoldsMatch, cm.Holding)
				case nvmeapst.StatusMismatch:
					assert.Equal(t, nvmeapst.Reading{Value: 0, Present: true}, cm.HoldsKernelTable, cr.Name)
					assert.Equal(t, nvmeapst.HoldsMismatch, cm.Holding)
				default:
					assert.False(t, cm.HoldsKernelTable.Present, cr.Name)
				}
				if cr.Plan != nil {
					assert.Equal(t, cr.Plan.Quirks.Applied.APST(), cm.Quirks, cr.Name)
				}
				for _, s := range cm.Sources {
					assert.True(t, s.OK, "%s %s: %v", cr.Name, s.Source, s.Err)
				}
			}
		})
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// The fixture's nvme2 holds the 100 ms table under a 25 ms bound: the
// scrape says mismatch, and each controller's sources are in the
// documented order.
func TestMetricsBundle(t *testing.T) {
	sys, _, err := nvmeapst.OpenBundle(testfixture.Path("bundle"))
	require.NoError(t, err)
	snap, err := sys.Metrics(context.Background())
	require.NoError(t, err)
	require.Len(t, snap.Controllers, 3)
	var got []nvmeapst.Holding
	for _, c := range snap.Controllers {
		got = append(got, c.Holding)
		var names []string
		for _, s := range c.Sources {
			names = append(names, s.Source)
		}
		assert.Equal(t, nvmeapst.ControllerSources(), names)
	}
	assert.Equal(t, []nvmeapst.Holding{nvmeapst.HoldsMatch, nvmeapst.HoldsMatch, nvmeapst.HoldsMismatch}, got)
	var names []string
	for _, s := range snap.Sources {
		names = append(names, s.Source)
	}
	assert.Equal(t, nvmeapst.MachineSources(), names)
	assert.Equal(t, 0.025, snap.Controllers[2].ToleranceSeconds.Value)
	assert.Equal(t, "0000:01:00.0", snap.Controllers[2].PCIAddress)
}

// The health log gives unsafe shutdowns and error-log entries; a failed
// command is a failed source, never a missing value taken for zero.
func TestMetricsHealthLog(t *testing.T) {
	d := consistentDrives(t)
	page := diagnose.EncodeHealthLog(diagnose.HealthLog{UnsafeShutdowns: 37, ErrorLogEntries: 1204})
	d["nvme0"] = func() ioctl.Controller {
		dev := ioctltest.New(intelImage(t), apst.Feature{APSTE: apst.APSTEEnabled, Table: intelTable}, ioctl.PowerManagement{})
		dev.SetHealthLog(page)
		return dev
	}
	d["nvme1"] = func() ioctl.Controller {
		dev := ioctltest.New(samsung960Image(t), apst.Feature{APSTE: apst.APSTEDisabled}, ioctl.PowerManagement{})
		dev.SetError(ioctl.OpGetHealthLog, &ioctl.CommandError{Op: ioctl.OpGetHealthLog, Errno: os.ErrPermission})
		return dev
	}
	snap, err := system(t, testfixture.Path("sys"), d).Metrics(context.Background())
	require.NoError(t, err)
	c0, c1, c2 := snap.Controllers[0], snap.Controllers[1], snap.Controllers[2]
	assert.Equal(t, nvmeapst.Reading{Value: 37, Present: true}, c0.UnsafeShutdowns)
	assert.Equal(t, nvmeapst.Reading{Value: 1204, Present: true}, c0.ErrorLogEntries)
	assert.True(t, c0.Sources[5].OK)
	assert.False(t, c1.UnsafeShutdowns.Present)
	assert.False(t, c1.Sources[5].OK, "a refused Get Log Page is a failed source")
	assert.ErrorIs(t, c1.Sources[5].Err, os.ErrPermission)
	assert.False(t, c2.UnsafeShutdowns.Present)
	assert.True(t, c2.Sources[5].OK, "a fake without a health log does not have one: not exposed")
}

// The diag/ counters and the PCI function's files of the laptop tree are
// read; a counter that exists but is not a file is a failed diag source,
// the others still read.
func TestMetricsPowerFiles(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sys")
	require.NoError(t, os.CopyFS(root, os.DirFS(filepath.Join("sysfs", "testdata", "laptop-tlp"))))
	sys, err := nvmeapst.OpenRoot(root)
	require.NoError(t, err)
	snap, err := sys.Metrics(context.Background())
	require.NoError(t, err)
	c := snap.Controllers[0]
	assert.Equal(t, "powersupersave", snap.ASPMPolicy)
	assert.Equal(t, nvmeapst.Reading{Value: 3, Present: true}, c.Resets)
	assert.Equal(t, nvmeapst.Reading{Value: 12, Present: true}, c.CommandErrors)
	assert.Equal(t, nvmeapst.Reading{Value: 1, Present: true}, c.D3coldAllowed)
	assert.Equal(t, nvmeapst.Reading{Value: 1, Present: true}, c.RuntimePMAuto)

	reset := filepath.Join(root, "class/nvme/nvme0/diag/reset_count")
	require.NoError(t, os.Remove(reset))
	require.NoError(t, os.Mkdir(reset, 0o755))
	snap, err = sys.Metrics(context.Background())
	require.NoError(t, err)
	c = snap.Controllers[0]
	assert.False(t, c.Resets.Present)
	assert.False(t, c.Sources[4].OK)
	assert.Equal(t, nvmeapst.Reading{Value: 12, Present: true}, c.CommandErrors)

	// Gone altogether (a kernel before 7.2): not exposed, not a failure.
	require.NoError(t, os.RemoveAll(filepath.Join(root, "class/nvme/nvme0/diag")))
	snap, err = sys.Metrics(context.Background())
	require.NoError(t, err)
	c = snap.Controllers[0]
	assert.False(t, c.Resets.Present)
	assert.True(t, c.Sources[4].OK)
}

// A MetricsReader refills the snapshot it is given: a second scrape equals
// the first, and a cancelled context stops it.
func TestMetricsReader(t *testing.T) {
	sys, _, err := nvmeapst.OpenBundle(testfixture.Path("bundle"))
	require.NoError(t, err)
	r := sys.NewMetricsReader()
	var a, b nvmeapst.MetricsSnapshot
	require.NoError(t, r.Read(context.Background(), &a))
	require.NoError(t, r.Read(context.Background(), &b))
	assert.Equal(t, a, b)
	require.NoError(t, r.Read(context.Background(), &b))
	assert.Equal(t, a, b)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.True(t, errors.Is(r.Read(ctx, &b), context.Canceled))
}

// An unlimited bound is +Inf seconds.
func TestMetricsUnlimitedTolerance(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sys")
	require.NoError(t, os.CopyFS(root, os.DirFS(testfixture.Path("sys"))))
	require.NoError(t, os.WriteFile(filepath.Join(root, "class/nvme/nvme2/power/pm_qos_latency_tolerance_us"), []byte("auto\n"), 0o644))
	snap, err := system(t, root, consistentDrives(t)).Metrics(context.Background())
	require.NoError(t, err)
	assert.True(t, math.IsInf(snap.Controllers[2].ToleranceSeconds.Value, 1))
}

func TestParsePCILocation(t *testing.T) {
	for in, want := range map[string]nvmeapst.PCILocation{
		"0000:04:00.0":  {"0000", "04", "00", "0"},
		"0001:3D:1f.7":  {"0001", "3d", "1f", "7"},
		"10000:00:00.1": {"10000", "00", "00", "1"},
	} {
		got, ok := nvmeapst.ParsePCILocation(in)
		assert.True(t, ok, in)
		assert.Equal(t, want, got, in)
	}
	for _, bad := range []string{"", "04:00.0", "0000:04:00", "0000:04:20.0", "0000:04:00.8", "0000:100:00.0", "zz:04:00.0", "traddr=10.0.0.1"} {
		_, ok := nvmeapst.ParsePCILocation(bad)
		assert.False(t, ok, bad)
	}
}

// The fast path (a MetricsReader on Linux) gives the snapshot the scrape
// through controllerRead gives, on every fixture tree and on the
// fixture machine with fakes (a health log, a failed command, a mismatch),
// twice in a row (the second from what it kept).
func TestMetricsFastMatchesInspect(t *testing.T) {
	d := consistentDrives(t)
	d["nvme0"] = func() ioctl.Controller {
		dev := ioctltest.New(intelImage(t), apst.Feature{APSTE: apst.APSTEEnabled, Table: intelNoQuirkTable}, ioctl.PowerManagement{})
		dev.SetHealthLog(diagnose.EncodeHealthLog(diagnose.HealthLog{UnsafeShutdowns: 5, ErrorLogEntries: 9}))
		return dev
	}
	d["nvme1"] = fake(samsung960Image(t), apst.Feature{}, ioctl.PowerManagement{}, map[string]error{ioctl.OpGetAPST: &ioctl.CommandError{Op: ioctl.OpGetAPST, Errno: os.ErrPermission}})
	systems := map[string]*nvmeapst.System{"sys+fakes": system(t, testfixture.Path("sys"), d)}
	bundle, _, err := nvmeapst.OpenBundle(testfixture.Path("bundle"))
	require.NoError(t, err)
	systems["bundle"] = bundle
	// A bundle missing a controller it lists, and one missing a file it
	// lists (read as unreadable, never as absent).
	for name, remove := range map[string]string{"bundle-no-nvme1": "class/nvme/nvme1", "bundle-no-model": "class/nvme/nvme0/model", "bundle-no-identify": "ioctl/nvme2/identify.bin"} {
		dir := filepath.Join(t.TempDir(), "bundle")
		require.NoError(t, os.CopyFS(dir, os.DirFS(testfixture.Path("bundle"))))
		require.NoError(t, os.RemoveAll(filepath.Join(dir, remove)))
		s, _, err := nvmeapst.OpenBundle(dir)
		require.NoError(t, err)
		systems[name] = s
	}
	for _, tree := range []string{"laptop-tlp", "v7", "v5.10"} {
		s, err := nvmeapst.OpenRoot(filepath.Join("sysfs", "testdata", tree))
		require.NoError(t, err)
		systems[tree] = s
	}
	for name, sys := range systems {
		t.Run(name, func(t *testing.T) {
			want, err := nvmeapst.ScrapeAsInspect(context.Background(), sys)
			require.NoError(t, err)
			r := sys.NewMetricsReader()
			defer r.Close()
			var got nvmeapst.MetricsSnapshot
			for range 2 {
				require.NoError(t, r.Read(context.Background(), &got))
				assert.Equal(t, comparable(want), comparable(&got))
			}
			failedSources := 0
			for _, c := range got.Controllers {
				for _, s := range c.Sources {
					if !s.OK {
						failedSources++
					}
				}
			}
			assert.Equal(t, strings.HasPrefix(name, "bundle-no") || name == "sys+fakes", failedSources > 0, "failed sources: %d", failedSources)
			if name == "bundle-no-nvme1" {
				// The controller whose folder is gone: its sysfs source
				// failed, and those read through the folder were never
				// tried, so they have no status rather than a success.
				i := slices.IndexFunc(got.Controllers, func(c nvmeapst.ControllerMetrics) bool { return c.Name == "nvme1" })
				require.GreaterOrEqual(t, i, 0)
				assert.Equal(t, []nvmeapst.SourceStatus{{Source: nvmeapst.SourceSysfs}}, comparable(&got).Controllers[i].Sources)
				assert.Equal(t, nvmeapst.HoldsNoSysfs, got.Controllers[i].Holding, "not no-identify: its identify.bin is there")
			}
		})
	}
}

// comparable is a snapshot with each source's error reduced to whether
// there is one (the two paths word them differently).
func comparable(s *nvmeapst.MetricsSnapshot) nvmeapst.MetricsSnapshot {
	c := *s
	strip := func(ss []nvmeapst.SourceStatus) []nvmeapst.SourceStatus {
		out := make([]nvmeapst.SourceStatus, len(ss))
		for i, x := range ss {
			out[i] = nvmeapst.SourceStatus{Source: x.Source, OK: x.OK}
		}
		return out
	}
	c.Sources = strip(s.Sources)
	c.Controllers = make([]nvmeapst.ControllerMetrics, len(s.Controllers))
	for i, cm := range s.Controllers {
		cm.Sources = strip(cm.Sources)
		c.Controllers[i] = cm
	}
	return c
}
