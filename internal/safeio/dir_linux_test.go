package safeio_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// A Dir reads regular files by name, refuses links, FIFOs, devices,
// directories and names that are not one element, says absent without
// allocating, and opens sub-directories without following links.
func TestDir(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "secret"), []byte("secret\n"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(root, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "sub", "model"), []byte("Samsung\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "big"), make([]byte, 100), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "link")))
	require.NoError(t, os.Symlink(outside, filepath.Join(root, "linkdir")))
	require.NoError(t, syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644))

	d, err := safeio.OpenDir(root)
	require.NoError(t, err)
	defer d.Close()
	s, err := d.Sub("sub")
	require.NoError(t, err)
	b, err := s.ReadFileInto(nil, "model", 4096)
	require.NoError(t, err)
	assert.Equal(t, "Samsung\n", string(b))
	require.NoError(t, s.Close())

	_, err = d.ReadFileInto(nil, "link", 4096)
	assert.ErrorIs(t, err, safeio.ErrLink)
	_, err = d.Sub("linkdir")
	assert.ErrorIs(t, err, safeio.ErrLink)
	_, err = d.ReadFileInto(nil, "fifo", 4096) // refused before it is opened: no hang
	assert.ErrorIs(t, err, safeio.ErrNotRegular)
	_, err = d.ReadFileInto(nil, "sub", 4096)
	assert.ErrorIs(t, err, safeio.ErrNotRegular)
	_, err = d.ReadFileInto(nil, "big", 10)
	assert.ErrorIs(t, err, safeio.ErrTooLarge)
	for _, bad := range []string{"", ".", "..", "sub/model", "a\x00b"} {
		_, err = d.ReadFileInto(nil, bad, 4096)
		assert.Error(t, err, "%q", bad)
		_, err = d.Sub(bad)
		assert.Error(t, err, "%q", bad)
	}
	_, err = d.ReadFileInto(nil, "missing", 4096)
	assert.ErrorIs(t, err, fs.ErrNotExist)
	_, err = d.Sub("missing")
	assert.ErrorIs(t, err, fs.ErrNotExist)
	if _, serr := os.Stat("/dev/null"); serr == nil {
		dev, err := safeio.OpenDir("/dev")
		require.NoError(t, err)
		_, err = dev.ReadFileInto(nil, "null", 4096)
		assert.ErrorIs(t, err, safeio.ErrNotRegular)
		dev.Close()
	}

	var names []string
	nbuf, err := d.Names(nil, 100, func(n []byte) { names = append(names, string(n)) })
	require.NoError(t, err)
	slices.Sort(names)
	assert.Equal(t, []string{"big", "fifo", "link", "linkdir", "sub"}, names)
	names = nil
	_, err = d.Names(nbuf, 100, func(n []byte) { names = append(names, string(n)) })
	require.NoError(t, err)
	assert.Len(t, names, 5, "read again from the start")
	_, err = d.Names(nbuf, 3, func([]byte) {})
	assert.ErrorIs(t, err, safeio.ErrTooLarge)

	buf := make([]byte, 0, 4097)
	allocs := testing.AllocsPerRun(50, func() {
		s, _ := d.Sub("sub")
		buf, _ = s.ReadFileInto(buf, "model", 4096)
		_, err := d.ReadFileInto(buf, "missing", 4096)
		if !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
		s.Close()
	})
	assert.Zero(t, allocs)
	assert.False(t, safeio.Dir{}.Valid())
	assert.NoError(t, safeio.Dir{}.Close())
}
