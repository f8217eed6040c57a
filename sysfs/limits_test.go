package sysfs_test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/safeio"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

// A tree whose class/nvme, or a controller's folder, holds more entries than
// the limit (a hostile bundle or copy) is refused, naming the directory and
// the limit; at the limit it is read. The limit stands in for MaxDirEntries
// (65536 files would make a slow test).
func TestDirectoryEntriesLimit(t *testing.T) {
	assert.Equal(t, 65536, sysfs.MaxDirEntries, "docs/spec/cli.md's limits table says 65536")
	root := sysfs.CopyFixture(t, "../testdata/sys")
	base, err := sysfs.NewFS(root)
	require.NoError(t, err)
	names, err := base.ControllerNames()
	require.NoError(t, err)
	require.NotEmpty(t, names)
	class := filepath.Join(root, "class", "nvme")
	ents, err := os.ReadDir(class)
	require.NoError(t, err)
	n := len(ents)

	fs := sysfs.WithMaxDirEntries(base, n)
	got, err := fs.ControllerNames()
	require.NoError(t, err, "the limit itself is read")
	assert.Equal(t, names, got)

	require.NoError(t, os.WriteFile(filepath.Join(class, "extra"+strconv.Itoa(n)), nil, 0o644))
	_, err = fs.Controllers()
	require.ErrorIs(t, err, safeio.ErrTooLarge)
	assert.Contains(t, err.Error(), class+" holds more than "+strconv.Itoa(n)+" entries")
	_, err = base.Controllers()
	assert.NotErrorIs(t, err, safeio.ErrTooLarge, "within MaxDirEntries")

	// A controller's folder past the limit (class/nvme, n+1 entries, within it).
	dir, err := filepath.EvalSymlinks(filepath.Join(class, names[0]))
	require.NoError(t, err)
	folder, err := os.ReadDir(dir)
	require.NoError(t, err)
	limit := max(n+1, len(folder))
	for i := len(folder); i <= limit; i++ {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "pad"+strconv.Itoa(i)), nil, 0o644))
	}
	fs = sysfs.WithMaxDirEntries(base, limit)
	_, err = fs.ControllerNames()
	require.NoError(t, err)
	_, err = fs.Controller(names[0])
	require.ErrorIs(t, err, safeio.ErrTooLarge)
	assert.Contains(t, err.Error(), filepath.Join(class, names[0])+" holds more than "+strconv.Itoa(limit)+" entries")
}
