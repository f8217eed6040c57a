package safeio_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/safeio"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
)

// Nothing that is not a regular file is ever opened, not even without
// blocking: a device node (here a copy of /dev/null, c 1 3), a FIFO, and
// symbolic links to them are refused by a stat before the open, by every
// read function and by OpenFileInRoot. inotify proves no open happened.
func TestNodesAreNeverOpened(t *testing.T) {
	dir := t.TempDir()
	fifo := mkfifo(t, dir)
	dev := filepath.Join(dir, "null")
	testfixture.Mknod(t, dev, 1, 3)
	require.NoError(t, os.Symlink("null", filepath.Join(dir, "link-to-dev")))
	require.NoError(t, os.Symlink("fifo", filepath.Join(dir, "link-to-fifo")))
	sock := mksocket(t, dir)
	opened := testfixture.WatchOpens(t, fifo, dev)

	reads := append(readFuncs[:len(readFuncs):len(readFuncs)], struct {
		name string
		read func(path string, limit int64) ([]byte, error)
	}{"OpenFileInRoot", func(p string, _ int64) ([]byte, error) {
		root, err := os.OpenRoot(filepath.Dir(p))
		if err != nil {
			return nil, err
		}
		defer root.Close()
		f, err := safeio.OpenFileInRoot(root, filepath.Base(p), os.O_WRONLY)
		if err == nil {
			f.Close()
		}
		return nil, err
	}})
	for _, name := range []string{"null", "fifo", "link-to-dev", "link-to-fifo", filepath.Base(sock)} {
		for _, rf := range reads {
			if rf.name == "ReadRegularFile" && !strings.HasPrefix(name, "link-") {
				// Its caller's walk listed the path as a regular file: a
				// node is opened only if swapped in since; a link swapped
				// in is caught (below).
				continue
			}
			t.Run(name+"/"+rf.name, func(t *testing.T) {
				var err error
				testfixture.Within(t, 5*time.Second, func() { _, err = rf.read(filepath.Join(dir, name), 4096) })
				require.ErrorIs(t, err, safeio.ErrNotRegular)
				assert.Empty(t, opened(), "refused without being opened")
			})
		}
	}
	// The watch works: an open is seen.
	f, err := os.OpenFile(dev, os.O_RDONLY, 0)
	require.NoError(t, err)
	f.Close()
	assert.Equal(t, []string{dev}, opened())
}

// Files are created with the mode the umask leaves, as a shell redirection
// creates them: 0666 &^ umask, directories 0777 &^ umask.
func TestWriteFileHonoursTheUmask(t *testing.T) {
	for _, umask := range []int{0o022, 0o077, 0o002} {
		old := syscall.Umask(umask)
		dir := t.TempDir()
		p := filepath.Join(dir, "out")
		err := safeio.WriteFile(p, 0o666, writeString("x"))
		d, derr := safeio.MkdirTemp(dir, ".bundle.tmp-", 0o777)
		syscall.Umask(old)
		require.NoError(t, err)
		require.NoError(t, derr)
		fi, err := os.Stat(p)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o666&^umask), fi.Mode().Perm(), "umask %03o", umask)
		fi, err = os.Stat(d)
		require.NoError(t, err)
		assert.True(t, fi.IsDir())
		assert.Equal(t, os.FileMode(0o777&^umask), fi.Mode().Perm(), "umask %03o", umask)
		assert.Contains(t, filepath.Base(d), ".bundle.tmp-")
	}
}
