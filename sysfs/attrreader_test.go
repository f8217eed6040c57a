package sysfs_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

// An AttrReader reads what FS reads: through the links of a live tree
// (class/nvme/nvme0 and its device link, resolved inside the tree), absent
// files as absent, and the PCI function's folder.
func TestAttrReader(t *testing.T) {
	fs, err := sysfs.NewFS(testfixture.Path("sys"))
	require.NoError(t, err)
	want, err := fs.Controller("nvme0")
	require.NoError(t, err)
	r, err := fs.NewAttrReader()
	require.NoError(t, err)
	defer r.Close()
	ctrl, ok, err := r.Root().Dir("class/nvme/nvme0")
	require.NoError(t, err)
	require.True(t, ok)
	defer ctrl.Close()
	v, ok, err := ctrl.Read("model")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, want.Model, string(v))
	dev, ok, err := ctrl.Dir("device")
	require.NoError(t, err)
	require.True(t, ok)
	v, ok, err = dev.Read("vendor")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "0x8086", string(v))
	dev.Close()
	_, ok, err = ctrl.Read("no_such_attribute")
	assert.NoError(t, err)
	assert.False(t, ok)
	_, ok, err = ctrl.Dir("no_such_dir")
	assert.NoError(t, err)
	assert.False(t, ok)
	fn, ok, err := r.PCIFunction(ctrl, "nvme0")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, "0000_3d_00.0", filepath.Base(fn.Rel()))
	fn.Close()
}

// A link that leaves the tree is an error, never a way to read another
// file; a file the snapshot records as unreadable is an error.
func TestAttrReaderRefuses(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "model"), []byte("secret\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "class/nvme"), 0o755))
	require.NoError(t, os.Symlink(outside, filepath.Join(root, "class/nvme/nvme0")))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "class/nvme/nvme1"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(outside, "model"), filepath.Join(root, "class/nvme/nvme1/model")))
	require.NoError(t, os.WriteFile(filepath.Join(root, "class/nvme/nvme1/state"), []byte("live\n"), 0o644))
	fs, err := sysfs.NewFS(root)
	require.NoError(t, err)
	r, err := fs.NewAttrReader()
	require.NoError(t, err)
	defer r.Close()
	_, _, err = r.Root().Dir("class/nvme/nvme0")
	assert.Error(t, err, "a link out of the tree")
	d, ok, err := r.Root().Dir("class/nvme/nvme1")
	require.NoError(t, err)
	require.True(t, ok)
	_, _, err = d.Read("model")
	assert.Error(t, err, "a link out of the tree")
	d.Close()

	snap := fs.WithSnapshot(sysfs.Snapshot{Unreadable: map[string]string{"class/nvme/nvme1/state": "permission denied"}})
	r2, err := snap.NewAttrReader()
	require.NoError(t, err)
	defer r2.Close()
	d, ok, err = r2.Root().Dir("class/nvme/nvme1")
	require.NoError(t, err)
	require.True(t, ok)
	_, _, err = d.Read("state")
	assert.ErrorIs(t, err, sysfs.ErrUnreadableInSnapshot)
	d.Close()
}

// A folder a copy lacks reads as absent, unless the snapshot records a file
// below it as unreadable: then what it held is unknown, an error, not the
// absence that means, for power/, that the kernel has APST disabled. A
// class/nvme that lists no controller is refused (ErrNoControllers, also
// os.ErrNotExist), through FS and through an AttrReader alike.
func TestAttrReaderUnknownFolder(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "class/nvme/nvme0"), 0o755))
	fs, err := sysfs.NewFS(root)
	require.NoError(t, err)
	snap := fs.WithSnapshot(sysfs.Snapshot{Unreadable: map[string]string{
		"class/nvme/nvme0/power/pm_qos_latency_tolerance_us": "not a regular file: a named pipe (FIFO)",
		"class/nvme/nvme0/powerless":                         "permission denied",
	}})
	for name, f := range map[string]sysfs.FS{"plain": fs, "snapshot": snap} {
		r, err := f.NewAttrReader()
		require.NoError(t, err)
		d, ok, err := r.Root().Dir("class/nvme/nvme0")
		require.NoError(t, err)
		require.True(t, ok)
		_, ok, err = d.Dir("power")
		assert.False(t, ok, name)
		if name == "plain" {
			assert.NoError(t, err, "absent")
		} else {
			assert.ErrorIs(t, err, sysfs.ErrUnreadableInSnapshot)
			assert.ErrorContains(t, err, "pm_qos_latency_tolerance_us: not a regular file", "says which file")
		}
		_, ok, err = d.Dir("diag")
		assert.NoError(t, err, "%s: nothing recorded below diag/", name)
		assert.False(t, ok)
		d.Close()
		r.Close()
	}

	empty := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(empty, "class/nvme"), 0o755))
	fs, err = sysfs.NewFS(empty)
	require.NoError(t, err)
	_, err = fs.ControllerNames()
	assert.ErrorIs(t, err, sysfs.ErrNoControllers)
	assert.ErrorIs(t, err, os.ErrNotExist)
	r, err := fs.NewAttrReader()
	require.NoError(t, err)
	defer r.Close()
	class, ok, err := r.Root().Dir("class/nvme")
	require.NoError(t, err)
	require.True(t, ok)
	defer class.Close()
	_, err = class.ControllerNames(nil, nil)
	assert.ErrorIs(t, err, sysfs.ErrNoControllers)
}
