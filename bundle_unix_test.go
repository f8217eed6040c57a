//go:build unix

package nvmeapst_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

// fifoAt replaces the file rel of a tree (its symbolic links followed) by a
// named pipe.
func fifoAt(t *testing.T, root, rel string) {
	t.Helper()
	p, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(rel)))
	require.NoError(t, err)
	require.NoError(t, os.Remove(p))
	testfixture.Mkfifo(t, p)
}

func TestCollectRecordsUnreadableFiles(t *testing.T) {
	root := testfixture.CopyTree(t, fixtureRoot)
	tol := "class/nvme/nvme0/power/pm_qos_latency_tolerance_us"
	fifoAt(t, root, tol)
	fifoAt(t, root, "module/nvme_core/parameters/force_apst")
	live := system(t, root, consistentDrives(t))
	dir := filepath.Join(t.TempDir(), "bundle")
	var man *nvmeapst.Manifest
	var err error
	testfixture.Within(t, 5*time.Second, func() { man, err = live.Collect(context.Background(), dir) })
	require.NoError(t, err)
	assert.Contains(t, man.Skipped, nvmeapst.SkippedFile{Path: tol, Error: "not a regular file: a named pipe (FIFO)"})
	assert.Contains(t, man.Skipped, nvmeapst.SkippedFile{Path: "module/nvme_core/parameters/force_apst", Error: "not a regular file: a named pipe (FIFO)"})
	assert.NotContains(t, man.Files, tol)

	b, _, err := nvmeapst.OpenBundle(dir)
	require.NoError(t, err)
	c, err := b.FS.Controller("nvme0")
	require.ErrorIs(t, err, sysfs.ErrUnreadableInSnapshot, "unreadable when collected, not absent")
	assert.Contains(t, err.Error(), "named pipe")
	assert.False(t, c.HasTolerance)
	require.Len(t, c.Unreadable, 1)
	m, err := b.FS.ModuleParams()
	require.ErrorIs(t, err, sysfs.ErrUnreadableInSnapshot)
	assert.Equal(t, []string{"force_apst"}, m.Unreadable)
	assert.NotNil(t, m.DefaultPSMaxLatencyUS, "one bad parameter costs only itself")

	// Collecting the bundle again keeps what was unreadable.
	again := filepath.Join(t.TempDir(), "again")
	man2, err := b.Collect(context.Background(), again)
	require.NoError(t, err)
	var paths []string
	for _, s := range man2.Skipped {
		paths = append(paths, s.Path)
	}
	assert.Contains(t, paths, tol)
}

func TestOpenBundleManifestFIFO(t *testing.T) {
	b := collectFixture(t)
	require.NoError(t, os.Remove(filepath.Join(b, nvmeapst.ManifestName)))
	require.NoError(t, syscall.Mkfifo(filepath.Join(b, nvmeapst.ManifestName), 0o644))
	testfixture.Within(t, 5*time.Second, func() {
		_, _, err := nvmeapst.OpenBundle(b)
		require.ErrorIs(t, err, nvmeapst.ErrBundle)
		require.ErrorIs(t, err, sysfs.ErrNotRegular)
		_, err = nvmeapst.OpenRoot(b)
		require.ErrorIs(t, err, sysfs.ErrNotRegular)
	})
	id := filepath.Join(collectFixture(t), "ioctl/nvme0/identify.bin")
	require.NoError(t, os.Remove(id))
	require.NoError(t, syscall.Mkfifo(id, 0o644))
	s, _, err := nvmeapst.OpenBundle(filepath.Dir(filepath.Dir(filepath.Dir(id))))
	require.NoError(t, err)
	testfixture.Within(t, 5*time.Second, func() {
		r, err := s.Inspect(context.Background(), "nvme0")
		require.NoError(t, err)
		require.NotNil(t, r.Controllers[0].IdentifyProblem)
		assert.Contains(t, r.Controllers[0].IdentifyProblem.Message, "named pipe")
	})
}
