package safeio_test

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/safeio"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
)

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

// entries lists a directory's names.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.json")
	require.NoError(t, safeio.WriteFile(p, 0o640, writeString("new\n")))
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "new\n", string(b))
	if runtime.GOOS != "windows" {
		fi, err := os.Stat(p)
		require.NoError(t, err)
		assert.Equal(t, fs.FileMode(0o640), fi.Mode().Perm())
	}

	require.NoError(t, safeio.WriteFile(p, 0o644, writeString("replaced\n")))
	b, err = os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "replaced\n", string(b))
	assert.Equal(t, []string{"out.json"}, entries(t, dir), "no temporary file left")
}

func TestWriteFileFailureKeepsTheOldFile(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name  string
		write func(io.Writer) error
	}{
		{"write returns an error", func(w io.Writer) error {
			io.WriteString(w, "partial")
			return boom
		}},
		{"write panics are not caught, errors are", func(w io.Writer) error {
			return fmt.Errorf("wrapped: %w", boom)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "f")
			require.NoError(t, os.WriteFile(p, []byte("old\n"), 0o644))
			err := safeio.WriteFile(p, 0o644, tt.write)
			require.ErrorIs(t, err, boom)
			assert.Contains(t, err.Error(), p)
			b, rerr := os.ReadFile(p)
			require.NoError(t, rerr)
			assert.Equal(t, "old\n", string(b))
			assert.Equal(t, []string{"f"}, entries(t, dir))
		})
	}
}

func TestWriteFileRefusals(t *testing.T) {
	dir := t.TempDir()
	err := safeio.WriteFile("", 0o644, writeString("x"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "empty file name")

	err = safeio.WriteFile(dir, 0o644, writeString("x"))
	require.ErrorIs(t, err, safeio.ErrNotRegular)
	assert.Contains(t, err.Error(), "a directory")

	err = safeio.WriteFile(filepath.Join(dir, "no", "such", "dir"), 0o644, writeString("x"))
	require.ErrorIs(t, err, fs.ErrNotExist)
	assert.Contains(t, err.Error(), "cannot create a file in directory "+filepath.Join(dir, "no", "such")+": ")
	assert.NotContains(t, err.Error(), ".tmp-", "the temporary file's name is not the user's")

	if _, serr := os.Stat("/dev/null"); serr == nil {
		err = safeio.WriteFile("/dev/null", 0o644, writeString("x"))
		require.ErrorIs(t, err, safeio.ErrNotRegular, "renaming over /dev/null would replace the device")
		fi, serr := os.Stat("/dev/null")
		require.NoError(t, serr)
		assert.NotZero(t, fi.Mode()&fs.ModeCharDevice)
	}
	if runtime.GOOS != "windows" {
		fifo := mkfifo(t, t.TempDir())
		testfixture.Within(t, 5*time.Second, func() {
			err = safeio.WriteFile(fifo, 0o644, writeString("x"))
		})
		require.ErrorIs(t, err, safeio.ErrNotRegular)
	}
}

func TestWriteFileFollowsSymlinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	require.NoError(t, os.WriteFile(target, []byte("old"), 0o644))
	link := filepath.Join(dir, "link")
	if err := os.Symlink("target", link); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
	require.NoError(t, safeio.WriteFile(link, 0o644, writeString("new")))
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode()&fs.ModeSymlink, "the link stays a link")
	b, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "new", string(b))

	dangling := filepath.Join(dir, "dangling")
	require.NoError(t, os.Symlink("created", dangling))
	require.NoError(t, safeio.WriteFile(dangling, 0o644, writeString("made")))
	b, err = os.ReadFile(filepath.Join(dir, "created"))
	require.NoError(t, err)
	assert.Equal(t, "made", string(b))
}

func TestWriteFileNoSpace(t *testing.T) {
	dir := smallTmpfs(t) // skips where mounting is not allowed
	p := filepath.Join(dir, "report.svg")
	require.NoError(t, os.WriteFile(p, []byte("old report\n"), 0o644))

	err := safeio.WriteFile(p, 0o644, writeString(strings.Repeat("x", 1<<20)))
	require.Error(t, err)
	assert.True(t, isNoSpace(err), "want ENOSPC, got %v", err)
	// The message names the file asked for, not the temporary one.
	assert.Equal(t, "write "+p+": no space left on device", err.Error())
	b, rerr := os.ReadFile(p)
	require.NoError(t, rerr)
	assert.Equal(t, "old report\n", string(b), "the old file survives")
	assert.Equal(t, []string{"report.svg"}, entries(t, dir), "the temporary file is removed")

	// A callback that ignores the write errors is caught too.
	err = safeio.WriteFile(p, 0o644, func(w io.Writer) error {
		for range 1 << 8 {
			w.Write(make([]byte, 8<<10)) // error ignored on purpose
		}
		return nil
	})
	require.Error(t, err)
	assert.True(t, isNoSpace(err), "want ENOSPC, got %v", err)
	assert.Equal(t, "write "+p+": no space left on device", err.Error())
	b, rerr = os.ReadFile(p)
	require.NoError(t, rerr)
	assert.Equal(t, "old report\n", string(b))
	assert.Equal(t, []string{"report.svg"}, entries(t, dir))
}
