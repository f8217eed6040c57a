package nvmeapst_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

// tolerancePath is the fixture bundle's nvme2 tolerance file.
const tolerancePath = "class/nvme/nvme2/power/pm_qos_latency_tolerance_us"

// bundleWith copies the fixture bundle, lets edit change the copy and its
// manifest, and opens it.
func bundleWith(t *testing.T, edit func(dir string, man *nvmeapst.Manifest)) *nvmeapst.System {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "bundle")
	require.NoError(t, os.CopyFS(dir, os.DirFS(testfixture.Path("bundle"))))
	mp := filepath.Join(dir, nvmeapst.ManifestName)
	b, err := os.ReadFile(mp)
	require.NoError(t, err)
	var man nvmeapst.Manifest
	require.NoError(t, json.Unmarshal(b, &man))
	edit(dir, &man)
	b, err = json.Marshal(&man)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(mp, b, 0o644))
	sys, _, err := nvmeapst.OpenBundle(dir)
	require.NoError(t, err)
	return sys
}

// A tolerance file that could not be read leaves the bound, and so the
// kernel's table, unknown: no APST state, no deepest state and no verdict
// on the drive's table are computed from the default put in its place, and
// the sysfs source failed. That holds for a file a bundle's collect could
// not read even when the bundle lacks its folder (it must not read as
// absent, which means "APST disabled", nor imply a NO_APST quirk), and for
// one that does not parse. A bound of 0 is APST disabled (the kernel sends
// APSTE = 0), with the bound published as 0. Both scrapers agree.
func TestMetricsUnknownBound(t *testing.T) {
	for name, tc := range map[string]struct {
		edit    func(dir string, man *nvmeapst.Manifest)
		known   bool
		enabled float64
	}{
		"skipped, folder absent": {edit: func(dir string, man *nvmeapst.Manifest) {
			require.NoError(t, os.RemoveAll(filepath.Join(dir, filepath.Dir(tolerancePath))))
			man.Files = slices.DeleteFunc(man.Files, func(f string) bool { return f == tolerancePath })
			man.Skipped = append(man.Skipped, nvmeapst.SkippedFile{Path: tolerancePath, Error: "not a regular file: a named pipe (FIFO)"})
		}},
		"skipped, file absent": {edit: func(dir string, man *nvmeapst.Manifest) {
			require.NoError(t, os.Remove(filepath.Join(dir, tolerancePath)))
			man.Files = slices.DeleteFunc(man.Files, func(f string) bool { return f == tolerancePath })
			man.Skipped = append(man.Skipped, nvmeapst.SkippedFile{Path: tolerancePath, Error: "permission denied"})
		}},
		"malformed": {edit: func(dir string, _ *nvmeapst.Manifest) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, tolerancePath), []byte("garbage\n"), 0o644))
		}},
		"zero": {known: true, edit: func(dir string, _ *nvmeapst.Manifest) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, tolerancePath), []byte("0\n"), 0o644))
		}},
	} {
		t.Run(name, func(t *testing.T) {
			sys := bundleWith(t, tc.edit)
			slow, err := nvmeapst.ScrapeAsInspect(context.Background(), sys)
			require.NoError(t, err)
			r := sys.NewMetricsReader()
			defer r.Close()
			var fast nvmeapst.MetricsSnapshot
			require.NoError(t, r.Read(context.Background(), &fast))
			assert.Equal(t, comparable(slow), comparable(&fast), "the two scrapers")
			c := fast.Controllers[2]
			require.Equal(t, "nvme2", c.Name)
			assert.Zero(t, c.Quirks, "no quirk inferred from a file that was not read")
			if tc.known {
				assert.Equal(t, nvmeapst.Reading{Value: 0, Present: true}, c.APSTEnabled)
				assert.Equal(t, nvmeapst.Reading{Value: 0, Present: true}, c.ToleranceSeconds)
				assert.True(t, c.Sources[0].OK)
				return
			}
			assert.Equal(t, nvmeapst.HoldsNoBound, c.Holding)
			for what, r := range map[string]nvmeapst.Reading{"apst_enabled": c.APSTEnabled, "tolerance": c.ToleranceSeconds,
				"deepest": c.DeepestState, "exit latency": c.DeepestExitLatencySeconds, "power": c.DeepestMaxPowerWatts, "holds": c.HoldsKernelTable} {
				assert.False(t, r.Present, what)
			}
			assert.Equal(t, nvmeapst.SourceSysfs, c.Sources[0].Source)
			assert.False(t, c.Sources[0].OK)
			assert.Equal(t, nvmeapst.HoldsMatch, fast.Controllers[0].Holding, "the other controllers as they were")
		})
	}
}

// A tree or bundle whose class/nvme lists no controller is refused, as a
// missing class/nvme is: an empty scope, never an empty answer.
func TestEmptyClassRefused(t *testing.T) {
	sys := bundleWith(t, func(dir string, man *nvmeapst.Manifest) {
		require.NoError(t, os.RemoveAll(filepath.Join(dir, "class/nvme")))
		require.NoError(t, os.MkdirAll(filepath.Join(dir, "class/nvme"), 0o755))
		require.NoError(t, os.RemoveAll(filepath.Join(dir, "ioctl")))
		man.Controllers = nil
		man.Files = slices.DeleteFunc(man.Files, func(f string) bool { return len(f) > 11 && f[:11] == "class/nvme/" })
	})
	_, err := sys.Metrics(context.Background())
	assert.ErrorIs(t, err, sysfs.ErrNoControllers)
	assert.ErrorIs(t, err, os.ErrNotExist)
	_, err = nvmeapst.ScrapeAsInspect(context.Background(), sys)
	assert.ErrorIs(t, err, sysfs.ErrNoControllers)
	_, err = sys.Inspect(context.Background())
	assert.ErrorIs(t, err, sysfs.ErrNoControllers)
	_, err = sys.Collect(context.Background(), filepath.Join(t.TempDir(), "out"))
	assert.ErrorIs(t, err, sysfs.ErrNoControllers)
	_, err = sys.Diagnose(context.Background(), nvmeapst.DiagnoseOptions{})
	assert.ErrorIs(t, err, sysfs.ErrNoControllers)
}
