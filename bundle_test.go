package nvmeapst_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/ioctl"
	"github.com/nvmeapst/nvmeapst/ioctl/ioctltest"
)

var update = flag.Bool("update", false, "rewrite testdata/bundle from testdata/sys and the fakes")

// sameReport checks that two reports are equal, as values and as text and
// JSON output.
func sameReport(t *testing.T, want, got *nvmeapst.Report) {
	t.Helper()
	assert.Equal(t, want, got)
	var wt, gt bytes.Buffer
	require.NoError(t, want.WriteText(&wt))
	require.NoError(t, got.WriteText(&gt))
	assert.Equal(t, wt.String(), gt.String())
	wj, err := json.Marshal(want)
	require.NoError(t, err)
	gj, err := json.Marshal(got)
	require.NoError(t, err)
	assert.JSONEq(t, string(wj), string(gj))
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
	d["nvme2"] = fake(samsung990Image(t), apst.Feature{Enabled: true, Table: samsung100000Table}, ioctl.PowerManagement{State: 2}, nil)
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
	d["nvme2"] = fake(samsung990Image(t), apst.Feature{Enabled: true, Table: samsung100000Table}, ioctl.PowerManagement{State: 3}, nil)
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
