//go:build unix

package safeio_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// Replacing an existing file keeps its mode (whatever perm and the umask
// say) and, where the process may set it, its owner and group; a new file
// gets perm less the umask.
func TestWriteFileKeepsOwnerAndMode(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "rules")
	require.NoError(t, os.WriteFile(p, []byte("old\n"), 0o600))
	require.NoError(t, os.Chmod(p, 0o640))
	asRoot := os.Geteuid() == 0
	if asRoot {
		require.NoError(t, os.Chown(p, 12345, 54321))
	}
	require.NoError(t, safeio.WriteFile(p, 0o666, writeString("new\n")))
	fi, err := os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, fs.FileMode(0o640), fi.Mode().Perm(), "mode kept")
	if asRoot {
		st := fi.Sys().(*syscall.Stat_t)
		assert.Equal(t, []uint32{12345, 54321}, []uint32{st.Uid, st.Gid}, "owner kept")
	}
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "new\n", string(b))

	// A file through a symbolic link: the target's mode is kept, the link stays.
	target := filepath.Join(dir, "target")
	require.NoError(t, os.WriteFile(target, []byte("x"), 0o600))
	require.NoError(t, os.Chmod(target, 0o604))
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink("target", link))
	require.NoError(t, safeio.WriteFile(link, 0o666, writeString("y")))
	fi, err = os.Stat(target)
	require.NoError(t, err)
	assert.Equal(t, fs.FileMode(0o604), fi.Mode().Perm())
	li, err := os.Lstat(link)
	require.NoError(t, err)
	assert.NotZero(t, li.Mode()&fs.ModeSymlink, "the link stays")
}
