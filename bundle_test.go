package nvmeapst_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/ioctl"
	"github.com/nvmeapst/nvmeapst/ioctl/ioctltest"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

var update = flag.Bool("update", false, "rewrite testdata/bundle from testdata/sys and the fakes")

// sameReport checks that two reports are equal. (Their text and JSON are
// views of these values, written by apstctl and tested there.)
func sameReport(t *testing.T, want, got *nvmeapst.Report) {
	t.Helper()
	assert.Equal(t, want, got)
}

func collectAndInspect(t *testing.T, live *nvmeapst.System) (*nvmeapst.Manifest, *nvmeapst.Report, *nvmeapst.Report) {
	t.Helper()
	ctx := context.Background()
	want, err := live.Inspect(ctx)
	require.NoError(t, err)
	dir := filepath.Join(t.TempDir(), "bundle")
	man, err := live.Collect(ctx, dir)
	require.NoError(t, err)
	b, m2, err := nvmeapst.OpenBundle(dir)
	require.NoError(t, err)
	assert.Equal(t, man, m2)
	got, err := b.Inspect(ctx)
	require.NoError(t, err)
	return man, want, got
}

func TestCollectThenInspectGivesTheSameReport(t *testing.T) {
	d := consistentDrives(t)
	d["nvme2"] = fake(samsung990Image(t), apst.Feature{APSTE: apst.APSTEEnabled, Table: samsung100000Table}, ioctl.PowerManagement{State: 2}, nil)
	man, want, got := collectAndInspect(t, system(t, fixtureRoot, d))
	sameReport(t, want, got)
	assert.Equal(t, nvmeapst.StatusMismatch, got.Controllers[2].Verdict.Status)

	assert.Equal(t, nvmeapst.BundleFormat, man.Format)
	assert.Equal(t, fixtureRelease, man.KernelRelease)
	assert.Equal(t, "2026-11-30T12:00:00Z", man.Created.Format("2006-01-02T15:04:05Z07:00"))
	assert.Contains(t, man.Files, "class/nvme/nvme0/power/pm_qos_latency_tolerance_us")
	assert.Contains(t, man.Files, "class/nvme/nvme0/device/vendor")
	assert.Contains(t, man.Files, "module/nvme_core/parameters/apst_primary_timeout_ms")
	assert.Contains(t, man.Files, "class/dmi/id/board_name")
	assert.Contains(t, man.Files, "block/nvme1n1/cpu_lat_limit_us")
	assert.NotContains(t, man.Files, "class/nvme/nvme1/power/pm_qos_latency_tolerance_us")
	require.Len(t, man.Controllers, 3)
	assert.Equal(t, "ioctl/nvme0/identify.bin", man.Controllers[0].Identify)
	assert.True(t, man.Controllers[0].APSTE)
	assert.False(t, man.Controllers[1].APSTE)
}

func TestCollectRecordsFailures(t *testing.T) {
	d := consistentDrives(t)
	d["nvme2"] = fake(samsung990Image(t), apst.Feature{}, ioctl.PowerManagement{}, map[string]error{
		ioctl.OpGetAPST:            ioctltest.PermissionError(ioctl.OpGetAPST),
		ioctl.OpGetPowerManagement: ioctltest.PermissionError(ioctl.OpGetPowerManagement),
	})
	d["nvme1"] = fake(samsung960Image(t), apst.Feature{}, ioctl.PowerManagement{}, map[string]error{
		ioctl.OpIdentifyController: fmt.Errorf("ioctl: identify: %w", ioctl.ErrUnsupported),
	})
	delete(d, "nvme0")
	live := system(t, fixtureRoot, d)
	live.KernelRelease = func() (string, error) { return "", os.ErrPermission }
	man, want, got := collectAndInspect(t, live)
	sameReport(t, want, got)
	assert.Empty(t, got.KernelRelease)
	assert.NotEmpty(t, man.KernelReleaseError)
	require.NotNil(t, got.Controllers[0].DeviceProblem)
	assert.ErrorIs(t, got.Controllers[0].DeviceProblem, os.ErrNotExist)
	assert.ErrorIs(t, got.Controllers[1].IdentifyProblem, ioctl.ErrUnsupported)
	assert.ErrorIs(t, got.Controllers[2].DriveProblem, os.ErrPermission)
	assert.Empty(t, man.Controllers[2].APST)
}

func TestCollectWithoutDeviceAccess(t *testing.T) {
	live := system(t, fixtureRoot, nil)
	live.Opener = nil
	_, want, got := collectAndInspect(t, live)
	sameReport(t, want, got)
	assert.Equal(t, nvmeapst.StatusUnknown, got.Controllers[0].Verdict.Status)
}

func TestCollectLeavesNoPartialBundle(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "bundle")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := system(t, fixtureRoot, consistentDrives(t)).Collect(ctx, dir)
	require.ErrorIs(t, err, context.Canceled)
	ents, err := os.ReadDir(parent)
	require.NoError(t, err)
	assert.Empty(t, ents, "no bundle and no temporary directory left")
}

func TestCollectRefusesANonEmptyDestination(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "x"), nil, 0o644))
	_, err := system(t, fixtureRoot, consistentDrives(t)).Collect(context.Background(), dir)
	assert.ErrorIs(t, err, os.ErrExist)

	file := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	_, err = system(t, fixtureRoot, consistentDrives(t)).Collect(context.Background(), file)
	assert.ErrorIs(t, err, os.ErrExist)

	// An empty directory is replaced.
	empty := t.TempDir()
	_, err = system(t, fixtureRoot, consistentDrives(t)).Collect(context.Background(), empty)
	require.NoError(t, err)
	assert.FileExists(t, filepath.Join(empty, nvmeapst.ManifestName))
}

func TestOpenBundleErrors(t *testing.T) {
	_, _, err := nvmeapst.OpenBundle(t.TempDir())
	assert.ErrorIs(t, err, nvmeapst.ErrBundle)

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, nvmeapst.ManifestName), []byte(`{"format":"other","version":1}`), 0o644))
	_, _, err = nvmeapst.OpenBundle(dir)
	assert.ErrorIs(t, err, nvmeapst.ErrBundle)

	// A manifest pointing outside the bundle is refused.
	live := system(t, fixtureRoot, consistentDrives(t))
	b := filepath.Join(t.TempDir(), "b")
	man, err := live.Collect(context.Background(), b)
	require.NoError(t, err)
	man.Controllers[0].Identify = "../../etc/passwd"
	js, err := json.Marshal(man)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(b, nvmeapst.ManifestName), js, 0o644))
	s, _, err := nvmeapst.OpenBundle(b)
	require.NoError(t, err)
	r, err := s.Inspect(context.Background(), "nvme0")
	require.NoError(t, err)
	require.NotNil(t, r.Controllers[0].IdentifyProblem)
	assert.Contains(t, r.Controllers[0].IdentifyProblem.Message, "leaves the bundle")
}

// What collect writes is read back: a manifest past the 1 MiB the readers
// once allowed (about 1,300 controllers' worth) is a bundle, and one past
// MaxManifestSize is refused by Collect before anything stays.
func TestManifestSizes(t *testing.T) {
	b := collectFixture(t)
	raw, err := os.ReadFile(filepath.Join(b, nvmeapst.ManifestName))
	require.NoError(t, err)
	var man nvmeapst.Manifest
	require.NoError(t, json.Unmarshal(raw, &man))
	for i := range 20000 {
		man.Skipped = append(man.Skipped, nvmeapst.SkippedFile{Path: fmt.Sprintf("class/nvme/nvme%d/model", 100+i), Error: "permission denied"})
	}
	big, err := json.MarshalIndent(&man, "", "  ")
	require.NoError(t, err)
	require.Greater(t, len(big), 1<<20)
	require.Less(t, len(big), nvmeapst.MaxManifestSize)
	require.NoError(t, os.WriteFile(filepath.Join(b, nvmeapst.ManifestName), big, 0o644))
	_, got, err := nvmeapst.OpenBundle(b)
	require.NoError(t, err)
	assert.Len(t, got.Skipped, len(man.Skipped))

	require.NoError(t, nvmeapst.CheckManifestSize(nvmeapst.MaxManifestSize, 20000))
	err = nvmeapst.CheckManifestSize(nvmeapst.MaxManifestSize+1, 22000)
	require.ErrorIs(t, err, nvmeapst.ErrManifestTooLarge)
	assert.Contains(t, err.Error(), "16777217 bytes for 22000 controllers, at most 16777216")
}

func TestOpenRoot(t *testing.T) {
	// A bare sysfs tree: no admin commands.
	s, err := nvmeapst.OpenRoot(fixtureRoot)
	require.NoError(t, err)
	r, err := s.Inspect(context.Background(), "nvme0")
	require.NoError(t, err)
	require.NotNil(t, r.Controllers[0].DeviceProblem)
	assert.True(t, r.Controllers[0].DeviceProblem.Unsupported)

	// The committed bundle: the same report as the fixture machine.
	s, err = nvmeapst.OpenRoot(bundleFixture)
	require.NoError(t, err)
	got, err := s.Inspect(context.Background())
	require.NoError(t, err)
	want, err := bundleMachine(t).Inspect(context.Background())
	require.NoError(t, err)
	sameReport(t, want, got)
}

// bundleFixture is a bundle of the fixture machine, whose nvme2 holds the
// table of the module default bound; the Example reads it.
const bundleFixture = "testdata/bundle"

func bundleMachine(t *testing.T) *nvmeapst.System {
	d := consistentDrives(t)
	d["nvme2"] = fake(samsung990Image(t), apst.Feature{APSTE: apst.APSTEEnabled, Table: samsung100000Table}, ioctl.PowerManagement{State: 3}, nil)
	return system(t, fixtureRoot, d)
}

func TestUpdateBundleFixture(t *testing.T) {
	if !*update {
		t.Skip("run with -update to rewrite " + bundleFixture)
	}
	require.NoError(t, os.RemoveAll(bundleFixture))
	_, err := bundleMachine(t).Collect(context.Background(), bundleFixture)
	require.NoError(t, err)
}

// collectFixture collects the fixture machine into a new bundle.
func collectFixture(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "bundle")
	_, err := system(t, fixtureRoot, consistentDrives(t)).Collect(context.Background(), dir)
	require.NoError(t, err)
	return dir
}

// A destination whose parent does not exist is said of the path given,
// not of the temporary directory beside it.
func TestCollectMissingParent(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "missing", "deep", "b")
	_, err := system(t, fixtureRoot, consistentDrives(t)).Collect(context.Background(), dir)
	require.ErrorIs(t, err, os.ErrNotExist)
	assert.Contains(t, err.Error(), "create "+dir+" in "+filepath.Dir(dir)+": no such file or directory")
	assert.NotContains(t, err.Error(), ".tmp-")
}

func TestCollectEmptyName(t *testing.T) {
	_, err := system(t, fixtureRoot, consistentDrives(t)).Collect(context.Background(), "")
	require.Error(t, err)
	assert.Equal(t, "nvmeapst: collect: empty bundle directory name", err.Error())
}

func TestCollectFillsASymlinkedEmptyDirectory(t *testing.T) {
	parent := t.TempDir()
	target := filepath.Join(parent, "target")
	require.NoError(t, os.Mkdir(target, 0o750))
	link := filepath.Join(parent, "link")
	require.NoError(t, os.Symlink("target", link))

	_, err := system(t, fixtureRoot, consistentDrives(t)).Collect(context.Background(), link)
	require.NoError(t, err)
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode()&os.ModeSymlink, "the link stays a link")
	assert.FileExists(t, filepath.Join(target, nvmeapst.ManifestName), "its target is filled")
	assert.NoFileExists(t, filepath.Join(target, sysfs.IncompleteMarker))
	fi, err = os.Stat(target)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o750), fi.Mode().Perm(), "the directory is filled in place, not replaced")
	_, _, err = nvmeapst.OpenBundle(link)
	require.NoError(t, err)

	dangling := filepath.Join(parent, "dangling")
	require.NoError(t, os.Symlink("nowhere", dangling))
	_, err = system(t, fixtureRoot, consistentDrives(t)).Collect(context.Background(), dangling)
	require.ErrorIs(t, err, os.ErrNotExist)
}

// cancelOnOpen returns a system whose Opener cancels the collect's context
// on its second controller, and calls probe first.
func cancelOnOpen(t *testing.T, probe func()) (*nvmeapst.System, context.Context) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	live := system(t, fixtureRoot, consistentDrives(t))
	inner := live.Opener
	n := 0
	live.Opener = nvmeapst.OpenerFunc(func(ctx context.Context, name string) (ioctl.Controller, error) {
		if probe != nil {
			probe()
		}
		if n++; n == 2 {
			cancel()
		}
		return inner.OpenController(ctx, name)
	})
	return live, ctx
}

func TestCollectCancelledMidwayLeavesNothing(t *testing.T) {
	for _, existing := range []bool{false, true} {
		t.Run(fmt.Sprintf("existing=%v", existing), func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, "bundle")
			if existing {
				require.NoError(t, os.Mkdir(dir, 0o755))
			}
			var probed []error
			live, ctx := cancelOnOpen(t, func() {
				// While the collect runs, its directory is no bundle and
				// no sysfs tree.
				ents, err := os.ReadDir(parent)
				require.NoError(t, err)
				require.Len(t, ents, 1)
				_, err = nvmeapst.OpenRoot(filepath.Join(parent, ents[0].Name()))
				probed = append(probed, err)
			})
			_, err := live.Collect(ctx, dir)
			require.ErrorIs(t, err, context.Canceled)
			require.NotEmpty(t, probed)
			for _, err := range probed {
				require.ErrorIs(t, err, sysfs.ErrIncomplete, "an unfinished bundle is refused")
			}
			ents, err := os.ReadDir(parent)
			require.NoError(t, err)
			if existing {
				require.Len(t, ents, 1)
				inside, err := os.ReadDir(dir)
				require.NoError(t, err)
				assert.Empty(t, inside, "what the collect wrote is removed")
			} else {
				assert.Empty(t, ents, "no bundle and no temporary directory left")
			}
		})
	}
}

func TestTemporaryDirectoryIsNotABundle(t *testing.T) {
	b := collectFixture(t)
	// What a killed collect leaves: the files without the manifest, under
	// the temporary name, or with the marker.
	tmp := filepath.Join(t.TempDir(), ".bundle.tmp-123456")
	require.NoError(t, os.CopyFS(tmp, os.DirFS(b)))
	require.NoError(t, os.Remove(filepath.Join(tmp, nvmeapst.ManifestName)))
	_, err := nvmeapst.OpenRoot(tmp)
	require.ErrorIs(t, err, sysfs.ErrIncomplete)

	marked := filepath.Join(t.TempDir(), "bundle")
	require.NoError(t, os.CopyFS(marked, os.DirFS(b)))
	require.NoError(t, os.WriteFile(filepath.Join(marked, sysfs.IncompleteMarker), nil, 0o644))
	_, err = nvmeapst.OpenRoot(marked)
	require.ErrorIs(t, err, sysfs.ErrIncomplete)
	_, _, err = nvmeapst.OpenBundle(marked)
	require.ErrorIs(t, err, nvmeapst.ErrBundle)
	require.ErrorIs(t, err, sysfs.ErrIncomplete)

	_, _, err = nvmeapst.OpenBundle(filepath.Join(t.TempDir()))
	require.ErrorIs(t, err, nvmeapst.ErrBundle)
	assert.Contains(t, err.Error(), "has no manifest.json")
}

func TestBundleSymlinksStayInside(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret")
	require.NoError(t, os.WriteFile(secret, []byte("EVIL MODEL\n"), 0o644))
	b := collectFixture(t)
	model := filepath.Join(b, "class/nvme/nvme0/model")
	require.NoError(t, os.Remove(model))
	require.NoError(t, os.Symlink(secret, model))
	id := filepath.Join(b, "ioctl/nvme2/identify.bin")
	require.NoError(t, os.Remove(id))
	require.NoError(t, os.Symlink("../../../"+filepath.Base(filepath.Dir(secret))+"/secret", id))

	s, _, err := nvmeapst.OpenBundle(b)
	require.NoError(t, err)
	c, err := s.FS.Controller("nvme0")
	require.Error(t, err)
	assert.NotErrorIs(t, err, os.ErrNotExist)
	assert.Empty(t, c.Model, "no byte from outside the bundle")
	r, err := s.Inspect(context.Background())
	require.NoError(t, err)
	for _, cr := range r.Controllers {
		assert.NotContains(t, cr.Sysfs.Model, "EVIL")
		if cr.Name == "nvme2" {
			require.NotNil(t, cr.IdentifyProblem)
			assert.Contains(t, cr.IdentifyProblem.Message, "escapes")
		}
	}
	require.NotEmpty(t, r.Problems, "nvme0 is reported, not dropped")
	assert.Contains(t, r.Problems[0].Message, "model")
	assert.Contains(t, r.Problems[0].Message, "unreadable in the bundle", "a link out of it is there, not missing")
	assert.NotContains(t, r.Problems[0].Message, "missing")
}

// A bundle's admin command files may hold anything by the time they are
// read: random bytes as Identify data or as the APST table are refused as
// what they look like, by inspect and by metrics alike, never decoded
// into a drive with 238 power states or a table that moves to ps30.
func TestBundleRandomAdminDataIsAProblem(t *testing.T) {
	b := collectFixture(t)
	rnd := rand.New(rand.NewPCG(1, 2))
	random := func(n int) []byte {
		out := make([]byte, n)
		for i := range out {
			out[i] = byte(rnd.Uint32() | 1) // bits 2:0 of every table entry not all clear
		}
		return out
	}
	require.NoError(t, os.WriteFile(filepath.Join(b, "ioctl/nvme0/apst.bin"), random(256), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(b, "ioctl/nvme1/identify.bin"), random(4096), 0o644))
	s, _, err := nvmeapst.OpenBundle(b)
	require.NoError(t, err)
	r, err := s.Inspect(context.Background())
	require.NoError(t, err)
	for _, cr := range r.Controllers {
		switch cr.Name {
		case "nvme0":
			require.NotNil(t, cr.DriveProblem, "nvme0's table")
			assert.Nil(t, cr.Drive)
			assert.Contains(t, cr.DriveProblem.Message, "ioctl/nvme0/apst.bin: not an APST table")
		case "nvme1":
			require.NotNil(t, cr.IdentifyProblem, "nvme1's Identify data")
			assert.Nil(t, cr.Identify)
			assert.Contains(t, cr.IdentifyProblem.Message, "ioctl/nvme1/identify.bin")
			assert.Contains(t, cr.IdentifyProblem.Message, "not an identify controller image")
		}
	}
	snap, err := s.Metrics(context.Background())
	require.NoError(t, err)
	failed := map[string]bool{}
	for _, c := range snap.Controllers {
		for _, st := range c.Sources {
			if !st.OK {
				failed[c.Name+" "+st.Source] = true
			}
		}
	}
	assert.True(t, failed["nvme0 "+nvmeapst.SourceAPSTFeature], "%v", failed)
	assert.True(t, failed["nvme1 "+nvmeapst.SourceIdentify], "%v", failed)
}

func TestBundleMissingControllerIsAProblem(t *testing.T) {
	b := collectFixture(t)
	require.NoError(t, os.RemoveAll(filepath.Join(b, "class/nvme/nvme1")))
	s, _, err := nvmeapst.OpenBundle(b)
	require.NoError(t, err)
	r, err := s.Inspect(context.Background())
	require.NoError(t, err)
	require.Len(t, r.Controllers, 2)
	require.Len(t, r.Problems, 1)
	assert.ErrorIs(t, r.Problems[0], os.ErrNotExist)
	assert.Contains(t, r.Problems[0].Message, "nvme1")
	assert.Contains(t, r.Problems[0].Message, "missing")

	_, err = s.FS.Controllers()
	require.ErrorIs(t, err, sysfs.ErrMissingController)
}

func TestBundleListedFileMissingIsUnreadable(t *testing.T) {
	b := collectFixture(t)
	require.NoError(t, os.Remove(filepath.Join(b, "class/nvme/nvme0/power/pm_qos_latency_tolerance_us")))
	s, _, err := nvmeapst.OpenBundle(b)
	require.NoError(t, err)
	c, err := s.FS.Controller("nvme0")
	require.ErrorIs(t, err, sysfs.ErrUnreadableInSnapshot)
	assert.Contains(t, err.Error(), "missing from the bundle")
	require.Len(t, c.Unreadable, 1)
	r, err := s.Inspect(context.Background())
	require.NoError(t, err)
	for _, cr := range r.Controllers {
		if cr.Name == "nvme0" {
			assert.False(t, cr.APSTDisabled, "not reported as a controller with APST disabled")
			assert.Equal(t, nvmeapst.BoundUnreadable, cr.BoundSource)
		}
	}
	require.NotEmpty(t, r.Problems)
}

// A bundle's admin-command file that is missing or damaged is the
// bundle's problem (Problem.Bundle, in Report.Problems: apstctl exits 1),
// and the controller is still reported; a failure the bundle records (no
// root on the machine collected) is a fact, not a problem of the bundle.
func TestBundleDamagedAdminFileIsAProblem(t *testing.T) {
	for _, tc := range []struct {
		name    string
		damage  func(t *testing.T, b string)
		problem func(cr *nvmeapst.ControllerReport) *nvmeapst.Problem
	}{
		{"identify missing", func(t *testing.T, b string) {
			require.NoError(t, os.Remove(filepath.Join(b, "ioctl", "nvme0", "identify.bin")))
		}, func(cr *nvmeapst.ControllerReport) *nvmeapst.Problem { return cr.IdentifyProblem }},
		{"identify cut short", func(t *testing.T, b string) {
			require.NoError(t, os.Truncate(filepath.Join(b, "ioctl", "nvme0", "identify.bin"), 100))
		}, func(cr *nvmeapst.ControllerReport) *nvmeapst.Problem { return cr.IdentifyProblem }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := collectFixture(t)
			tc.damage(t, b)
			s, _, err := nvmeapst.OpenBundle(b)
			require.NoError(t, err)
			r, err := s.Inspect(context.Background())
			require.NoError(t, err)
			require.Len(t, r.Controllers, 3, "every controller is still reported")
			var cr *nvmeapst.ControllerReport
			for i := range r.Controllers {
				if r.Controllers[i].Name == "nvme0" {
					cr = &r.Controllers[i]
				}
			}
			require.NotNil(t, cr)
			p := tc.problem(cr)
			require.NotNil(t, p)
			assert.True(t, p.Bundle, p.Message)
			assert.Contains(t, r.Problems, p)
		})
	}
	// An intact bundle: no problem, none marked Bundle.
	s, _, err := nvmeapst.OpenBundle(collectFixture(t))
	require.NoError(t, err)
	r, err := s.Inspect(context.Background())
	require.NoError(t, err)
	assert.Empty(t, r.Problems)
}

func TestBundleKeepsQuirks(t *testing.T) {
	live := system(t, "sysfs/testdata/v7", nil)
	live.Opener = nil
	dir := filepath.Join(t.TempDir(), "bundle")
	man, err := live.Collect(context.Background(), dir)
	require.NoError(t, err)
	assert.Contains(t, man.Files, "module/nvme/parameters/quirks")
	assert.Contains(t, man.Files, "class/nvme/nvme0/quirks")
	assert.Contains(t, man.Files, "class/nvme/nvme1/quirks")
	b, _, err := nvmeapst.OpenBundle(dir)
	require.NoError(t, err)
	wq, err := live.FS.QuirksParam()
	require.NoError(t, err)
	gq, err := b.FS.QuirksParam()
	require.NoError(t, err)
	assert.Equal(t, wq, gq)
	assert.True(t, gq.Present)
	wc, err := live.FS.Controllers()
	require.NoError(t, err)
	gc, err := b.FS.Controllers()
	require.NoError(t, err)
	assert.Equal(t, wc, gc)
	assert.Equal(t, []string{"no_deepest_ps", "medium_prio_sq", "no_temp_thresh_change", "disable_write_zeroes"}, gc[0].Quirks)
}

func TestCollectTrailingSlash(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bundle") + string(filepath.Separator)
	_, err := system(t, fixtureRoot, consistentDrives(t)).Collect(context.Background(), dir)
	require.NoError(t, err)
	assert.FileExists(t, filepath.Join(dir, nvmeapst.ManifestName))
}

// A tree without a kernel release (a sysfs tree, no uname) collects into a
// bundle without one: the release is not exposed there, not a failed
// source, so the bundle's metrics say what the tree's say.
func TestCollectWithoutKernelReleaseIsNotAFailure(t *testing.T) {
	live := system(t, fixtureRoot, consistentDrives(t))
	live.KernelRelease = nil
	man, want, got := collectAndInspect(t, live)
	sameReport(t, want, got)
	assert.Empty(t, man.KernelRelease)
	assert.Empty(t, man.KernelReleaseError, "nothing failed: the tree has no release")

	ctx := context.Background()
	treeSnap, err := live.Metrics(ctx)
	require.NoError(t, err)
	dir := filepath.Join(t.TempDir(), "bundle")
	_, err = live.Collect(ctx, dir)
	require.NoError(t, err)
	bundle, _, err := nvmeapst.OpenBundle(dir)
	require.NoError(t, err)
	bundleSnap, err := bundle.Metrics(ctx)
	require.NoError(t, err)
	assert.Equal(t, treeSnap.Sources, bundleSnap.Sources)
	assert.True(t, bundleSnap.Sources[0].OK, "%+v", bundleSnap.Sources[0])
}

// An error writing a file of the bundle names the file in the destination
// the caller gave, not in the temporary directory beside it (a full disk
// said "write .../.b.tmp-N/.nvmeapst-incomplete: no space left on
// device").
func TestCollectFailedNamesDestination(t *testing.T) {
	parent := t.TempDir()
	dir, work := filepath.Join(parent, "b"), filepath.Join(parent, ".b.tmp-123")
	err := nvmeapst.BundleFileError(dir, work, false, &os.PathError{Op: "write", Path: filepath.Join(work, "class", "nvme", "nvme0", "model"), Err: syscall.ENOSPC})
	assert.Equal(t, "nvmeapst: collect: write "+filepath.Join(dir, "class", "nvme", "nvme0", "model")+": no space left on device", err.Error())
	assert.ErrorIs(t, err, syscall.ENOSPC)
	// A path outside the work directory, and a destination filled in
	// place, are said as they are.
	err = nvmeapst.BundleFileError(dir, work, false, &os.PathError{Op: "open", Path: "/elsewhere", Err: syscall.EACCES})
	assert.Equal(t, "nvmeapst: collect: open /elsewhere: permission denied", err.Error())
	err = nvmeapst.BundleFileError(dir, dir, true, &os.PathError{Op: "write", Path: filepath.Join(dir, "x"), Err: syscall.ENOSPC})
	assert.Equal(t, "nvmeapst: collect: write "+filepath.Join(dir, "x")+": no space left on device", err.Error())
}
