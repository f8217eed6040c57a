package nvmeapst_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/measure"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

const statLine = "187411 3546 12419098 43710 119215 86311 8290922 101396 0 95400 152812 0 0 0 0 4322 7690\n"

// measureFixture is a writable copy of the fixture machine with I/O
// counters for nvme2n1 (the 990 EVO Plus, tolerance 25000).
func measureFixture(t *testing.T) (*nvmeapst.System, string) {
	t.Helper()
	root := testfixture.CopyTree(t, fixtureRoot)
	require.NoError(t, os.WriteFile(filepath.Join(root, "block/nvme2n1/stat"), []byte(statLine), 0o644))
	return system(t, root, consistentDrives(t)), root
}

// simulation is the 990 EVO Plus at factor 0.78 with the tolerance at
// 100000: a drive for the target, on a virtual clock.
func simulation(t testing.TB, seed uint64, foreign float64) *measure.Simulation {
	t.Helper()
	c, err := powerstate.DecodeIdentify(testfixture.ReadFile(t, testfixture.Samsung990EVOPlus))
	require.NoError(t, err)
	f, err := analysis.ParseFactor("0.78")
	require.NoError(t, err)
	sim, err := measure.NewSimulation(&c, apst.DefaultParams(apst.Current), measure.SimulationOptions{
		ExitFactor: f, Seed: seed, Noise: 0.005, ForeignIO: foreign,
		Initial: apst.Tolerance{Kind: apst.ToleranceValue, Value: 100000},
	})
	require.NoError(t, err)
	return sim
}

func readTolerance(t *testing.T, root string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "class/nvme/nvme2/power/pm_qos_latency_tolerance_us"))
	require.NoError(t, err)
	return strings.TrimSpace(string(b))
}

func TestOpenTargetMeasuresAndRestores(t *testing.T) {
	sys, root := measureFixture(t)
	sim := simulation(t, 1, 0)
	var opened string
	target, err := sys.OpenTarget(context.Background(), "/dev/nvme2n1", nvmeapst.TargetOptions{
		DevDir: "/devices",
		OpenDrive: func(p string) (measure.Drive, error) {
			opened = p
			return sim, nil
		},
	})
	require.NoError(t, err)
	defer target.Close()
	assert.Equal(t, "/devices/nvme2n1", opened)
	assert.Equal(t, "nvme2n1", target.Disk)
	assert.Equal(t, "nvme2", target.Controller)
	assert.Equal(t, filepath.Join(root, "class/nvme/nvme2/power/pm_qos_latency_tolerance_us"), target.TolerancePath)
	require.NotNil(t, target.Report.Identify)

	_, err = target.Config("apst-primary-timeout-ms=50")
	require.ErrorIs(t, err, measure.ErrSetup)
	assert.Contains(t, err.Error(), "changes more than the bound")

	s := target.Setup()
	s.Clock = sim // the simulated drive's virtual time
	for _, text := range []string{"pm-qos=100000", "ps-max-latency-us=25000"} {
		cfg, err := target.Config(text)
		require.NoError(t, err)
		s.Configs = append(s.Configs, cfg)
	}
	s.Idle, s.Trials = []time.Duration{3 * time.Second}, 3
	var announced string
	s.OnOriginal = func(v apst.Tolerance) { announced = v.String() }
	res, err := measure.Run(context.Background(), s)
	require.NoError(t, err)
	assert.Equal(t, "25000", announced)
	assert.True(t, res.Restored)
	assert.True(t, res.CountersChecked)
	assert.Zero(t, res.Discarded, "the counters did not move")
	assert.Equal(t, "25000", readTolerance(t, root), "the original value is back")
}

func TestOpenTargetRefusals(t *testing.T) {
	permission := func(p string) (measure.Drive, error) {
		return nil, &os.PathError{Op: "open", Path: p, Err: os.ErrPermission}
	}
	tests := []struct {
		name, disk string
		open       func(string) (measure.Drive, error)
		is         error
		err        string
	}{
		{name: "no root", disk: "nvme2n1", open: permission, is: nvmeapst.ErrNeedsRoot, err: "cannot read /dev/nvme2n1"},
		{name: "APST disabled", disk: "nvme1n1", is: sysfs.ErrAPSTDisabled, err: "nothing to measure"},
		{name: "no such namespace", disk: "nvme7n1", is: nvmeapst.ErrNoController, err: "serves namespace nvme7n1"},
		{name: "not a namespace", disk: "nvme2", err: `"nvme2" is not an NVMe namespace`},
		{name: "not NVMe", disk: "sda", err: "want nvmeNnM"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sys, root := measureFixture(t)
			open := tt.open
			if open == nil {
				open = func(string) (measure.Drive, error) { return simulation(t, 1, 0), nil }
			}
			_, err := sys.OpenTarget(context.Background(), tt.disk, nvmeapst.TargetOptions{OpenDrive: open})
			require.Error(t, err)
			if tt.is != nil {
				require.ErrorIs(t, err, tt.is)
			}
			assert.Contains(t, err.Error(), tt.err)
			if tt.is == nvmeapst.ErrNeedsRoot {
				assert.ErrorIs(t, err, os.ErrPermission)
				assert.Contains(t, err.Error(), "nothing changed")
			}
			assert.Equal(t, "25000", readTolerance(t, root))
		})
	}
}

// TestMeasureRealDevice runs a short measurement of the first namespace of
// the controller NVMEAPST_TEST_DEVICE names (e.g. /dev/nvme0), as root.
func TestMeasureRealDevice(t *testing.T) {
	dev := os.Getenv("NVMEAPST_TEST_DEVICE")
	if dev == "" {
		t.Skip("set NVMEAPST_TEST_DEVICE=/dev/nvmeN to measure its first namespace (needs root)")
	}
	sys, err := nvmeapst.Live()
	require.NoError(t, err)
	ctx := context.Background()
	target, err := sys.OpenTarget(ctx, filepath.Base(dev)+"n1", nvmeapst.TargetOptions{})
	require.NoError(t, err)
	defer target.Close()
	s := target.Setup()
	for _, text := range []string{"ps-max-latency-us=100000", "ps-max-latency-us=25000"} {
		cfg, err := target.Config(text)
		require.NoError(t, err)
		s.Configs = append(s.Configs, cfg)
	}
	s.Idle, s.Trials = []time.Duration{300 * time.Millisecond}, 2
	before, err := target.Tolerance.Tolerance()
	require.NoError(t, err)
	res, err := measure.Run(ctx, s)
	require.NoError(t, err)
	after, err := target.Tolerance.Tolerance()
	require.NoError(t, err)
	assert.Equal(t, before, after)
	assert.True(t, res.Restored)
	for _, r := range res.Rows {
		t.Logf("%s idle %s: ps%d p50 %s max %s (%d of %d kept)", r.ConfigText, r.Idle, r.State, r.Latency.P50, r.Latency.Max, r.Kept, r.Trials)
	}
	t.Logf("warm p50 %s", res.Warm.P50)
}
