package safeio_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
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

// readFuncs are the ways of reading a whole file; each must behave the same.
var readFuncs = []struct {
	name string
	read func(path string, limit int64) ([]byte, error)
}{
	{"ReadFile", safeio.ReadFile},
	{"ReadFileInto", func(p string, l int64) ([]byte, error) {
		return safeio.ReadFileInto(make([]byte, 3, 5), p, l)
	}},
	{"Reader", func(p string, l int64) ([]byte, error) {
		r := safeio.Reader{Limit: l}
		if _, err := r.ReadFile(p); err != nil {
			return nil, err
		}
		return r.ReadFile(p) // the second read reuses the buffer
	}},
	{"ReadRegularFile", readRegular},
	{"ReadFileInRoot", func(p string, l int64) ([]byte, error) {
		root, err := os.OpenRoot(filepath.Dir(p))
		if err != nil {
			return nil, err
		}
		defer root.Close()
		return safeio.ReadFileInRoot(root, filepath.Base(p), l)
	}},
	{"Open", func(p string, l int64) ([]byte, error) {
		f, _, err := safeio.Open(p)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		b, err := io.ReadAll(io.LimitReader(f, l+1))
		if int64(len(b)) > l {
			return nil, safeio.ErrTooLarge
		}
		return b, err
	}},
}

// readRegular reads p twice with Reader.ReadRegularFile, as a walk reads
// a file it listed as regular (the second read reuses the buffer).
func readRegular(p string, l int64) ([]byte, error) {
	r := safeio.Reader{Limit: l}
	if _, err := r.ReadRegularFile(p); err != nil {
		return nil, err
	}
	return r.ReadRegularFile(p)
}

func mksocket(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", p)
	if err != nil {
		t.Skipf("no unix sockets: %v", err)
	}
	t.Cleanup(func() { l.Close() })
	return p
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		return p
	}
	small := write("small", "100000\n")
	empty := write("empty", "")
	exact := write("exact", strings.Repeat("x", 4096))
	over := write("over", strings.Repeat("x", 4097))
	big := write("big", strings.Repeat("y", 100000))
	tests := []struct {
		name  string
		path  func(t *testing.T) string
		limit int64
		want  string
		err   error
		kind  string
	}{
		{"small", func(*testing.T) string { return small }, 4096, "100000\n", nil, ""},
		{"empty", func(*testing.T) string { return empty }, 4096, "", nil, ""},
		{"exactly the limit", func(*testing.T) string { return exact }, 4096, strings.Repeat("x", 4096), nil, ""},
		{"one over the limit", func(*testing.T) string { return over }, 4096, "", safeio.ErrTooLarge, ""},
		{"much larger", func(*testing.T) string { return big }, 10, "", safeio.ErrTooLarge, ""},
		{"limit above the size", func(*testing.T) string { return big }, 1 << 20, strings.Repeat("y", 100000), nil, ""},
		{"missing", func(*testing.T) string { return filepath.Join(dir, "nope") }, 4096, "", fs.ErrNotExist, ""},
		{"directory", func(*testing.T) string { return dir }, 4096, "", safeio.ErrNotRegular, "a directory"},
		{"fifo", func(t *testing.T) string { return mkfifo(t, t.TempDir()) }, 4096, "", safeio.ErrNotRegular, "a named pipe (FIFO)"},
		{"socket", func(t *testing.T) string { return mksocket(t, t.TempDir()) }, 4096, "", safeio.ErrNotRegular, "a socket"},
		{"device", func(t *testing.T) string {
			if _, err := os.Stat("/dev/null"); err != nil {
				t.Skip("no /dev/null")
			}
			return "/dev/null"
		}, 4096, "", safeio.ErrNotRegular, "a character device"},
	}
	for _, tt := range tests {
		for _, rf := range readFuncs {
			t.Run(tt.name+"/"+rf.name, func(t *testing.T) {
				p := tt.path(t)
				var b []byte
				var err error
				testfixture.Within(t, 5*time.Second, func() { b, err = rf.read(p, tt.limit) })
				if tt.err != nil {
					require.ErrorIs(t, err, tt.err)
					if rf.name != "Open" || tt.err != safeio.ErrTooLarge {
						assert.Contains(t, err.Error(), filepath.Base(p), "the error names the path")
					}
					if tt.kind != "" {
						assert.Contains(t, err.Error(), tt.kind)
						var nr *safeio.NotRegularError
						require.ErrorAs(t, err, &nr)
						assert.Equal(t, "not a regular file: "+tt.kind, safeio.Reason(err))
					}
					assert.Empty(t, b)
					return
				}
				require.NoError(t, err)
				assert.Equal(t, tt.want, string(b))
			})
		}
	}
}

func TestReadFileLyingSize(t *testing.T) {
	// procfs reports size 0, sysfs 4096, whatever the content.
	for _, p := range []string{"/proc/self/status", "/sys/kernel/mm/transparent_hugepage/enabled", "/sys/power/state"} {
		want, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		t.Run(p, func(t *testing.T) {
			got, err := safeio.ReadFile(p, 1<<20)
			require.NoError(t, err)
			if !strings.HasPrefix(p, "/proc/self") {
				assert.Equal(t, string(want), string(got))
			} else {
				assert.Contains(t, string(got), "Name:")
			}
			if len(got) > 3 {
				_, err = safeio.ReadFile(p, 3)
				require.ErrorIs(t, err, safeio.ErrTooLarge)
				assert.Equal(t, "larger than 3 bytes", safeio.Reason(err))
			}
		})
	}
}

func TestReadFileInRootStaysInside(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret")
	require.NoError(t, os.WriteFile(outside, []byte("secret\n"), 0o644))
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sub", "ok"), []byte("ok\n"), 0o644))
	if err := os.Symlink(outside, filepath.Join(dir, "abs")); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
	require.NoError(t, os.Symlink("../"+filepath.Base(filepath.Dir(outside))+"/secret", filepath.Join(dir, "rel")))
	require.NoError(t, os.Symlink("sub/ok", filepath.Join(dir, "inside")))
	root, err := os.OpenRoot(dir)
	require.NoError(t, err)
	defer root.Close()

	b, err := safeio.ReadFileInRoot(root, "inside", 100)
	require.NoError(t, err)
	assert.Equal(t, "ok\n", string(b))
	for _, name := range []string{"abs", "rel", "../secret", "sub/../../x"} {
		b, err := safeio.ReadFileInRoot(root, name, 100)
		require.Error(t, err, name)
		assert.NotErrorIs(t, err, fs.ErrNotExist, "%s: escaping is not absence", name)
		assert.Empty(t, b)
		assert.Contains(t, err.Error(), dir, "the error names the full path")
	}
	_, err = safeio.ReadFileInRoot(root, "missing", 100)
	require.ErrorIs(t, err, fs.ErrNotExist)
	assert.Contains(t, err.Error(), filepath.Join(dir, "missing"))
}

func TestOpenClearsNonblock(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(p, []byte("abc"), 0o644))
	f, fi, err := safeio.Open(p)
	require.NoError(t, err)
	defer f.Close()
	assert.Equal(t, int64(3), fi.Size())
	b, err := io.ReadAll(f)
	require.NoError(t, err)
	assert.Equal(t, "abc", string(b))
}

func TestReaderReusesItsBuffer(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	require.NoError(t, os.WriteFile(a, bytes.Repeat([]byte("a"), 100), 0o644))
	require.NoError(t, os.WriteFile(b, []byte("bb"), 0o644))
	r := safeio.Reader{Limit: 4096}
	got, err := r.ReadFile(a)
	require.NoError(t, err)
	assert.Len(t, got, 100)
	got2, err := r.ReadFile(b)
	require.NoError(t, err)
	assert.Equal(t, "bb", string(got2))
	assert.Same(t, &got[0], &got2[0], "the second file is read into the first one's buffer")

	allocs := testing.AllocsPerRun(100, func() {
		if _, err := r.ReadFile(b); err != nil {
			panic(err)
		}
	})
	if runtime.GOOS == "linux" && testing.CoverMode() == "" {
		assert.Zero(t, allocs, "a reused buffer and a path opened from the stack")
	}
}

func TestKindAndReason(t *testing.T) {
	assert.Equal(t, "a block device", safeio.Kind(fs.ModeDevice))
	assert.Equal(t, "a symbolic link", safeio.Kind(fs.ModeSymlink))
	assert.Equal(t, "an irregular file", safeio.Kind(fs.ModeIrregular))
	assert.Equal(t, "a regular file", safeio.Kind(0))
	assert.Equal(t, "boom", safeio.Reason(errors.New("boom")))
	_, err := safeio.ReadFile(filepath.Join(t.TempDir(), "x"), 1)
	var pe *fs.PathError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, pe.Err.Error(), safeio.Reason(err))
}

// benchFile is a small attribute-sized file.
func benchFile(b *testing.B) string {
	p := filepath.Join(b.TempDir(), "attr")
	if err := os.WriteFile(p, []byte("100000\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	return p
}

func BenchmarkReadSmall(b *testing.B) {
	paths := map[string]string{"tmp": benchFile(b)}
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err == nil {
		paths["sysfs"] = "/sys/kernel/mm/transparent_hugepage/enabled"
	}
	for _, where := range []string{"tmp", "sysfs"} {
		p, ok := paths[where]
		if !ok {
			continue
		}
		b.Run(where+"/os.ReadFile", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := os.ReadFile(p); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(where+"/safeio.ReadFile", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := safeio.ReadFile(p, 4096); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(where+"/safeio.Reader", func(b *testing.B) {
			b.ReportAllocs()
			r := safeio.Reader{Limit: 4096}
			for b.Loop() {
				if _, err := r.ReadFile(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestOpenFileInRoot(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "attr"), []byte("100000\n"), 0o644))
	fifo := mkfifo(t, dir)
	root, err := os.OpenRoot(dir)
	require.NoError(t, err)
	defer root.Close()

	f, err := safeio.OpenFileInRoot(root, "attr", os.O_WRONLY|os.O_TRUNC)
	require.NoError(t, err)
	_, err = f.WriteString("25000")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	b, err := os.ReadFile(filepath.Join(dir, "attr"))
	require.NoError(t, err)
	assert.Equal(t, "25000", string(b))

	testfixture.Within(t, 5*time.Second, func() { _, err = safeio.OpenFileInRoot(root, filepath.Base(fifo), os.O_WRONLY) })
	require.ErrorIs(t, err, safeio.ErrNotRegular, "a FIFO without a reader fails at once")
	assert.Contains(t, err.Error(), fifo)

	_, err = safeio.OpenFileInRoot(root, "missing", os.O_WRONLY)
	require.ErrorIs(t, err, fs.ErrNotExist)
	_, err = safeio.OpenFileInRoot(root, "new", os.O_WRONLY|os.O_CREATE)
	require.Error(t, err)
}

func TestReadDirInRoot(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "class", "nvme", "nvme1"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "class", "nvme", "nvme0"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "file"), nil, 0o644))
	fifo := mkfifo(t, dir)
	root, err := os.OpenRoot(dir)
	require.NoError(t, err)
	defer root.Close()

	ents, err := safeio.ReadDirInRoot(root, filepath.Join("class", "nvme"), 0)
	require.NoError(t, err)
	require.Len(t, ents, 2)
	assert.Equal(t, "nvme0", ents[0].Name())

	for name, kind := range map[string]string{filepath.Base(fifo): "a named pipe (FIFO)", "file": "a regular file"} {
		testfixture.Within(t, 5*time.Second, func() { _, err = safeio.ReadDirInRoot(root, name, 0) })
		require.ErrorIs(t, err, safeio.ErrNotRegular)
		assert.Contains(t, err.Error(), kind+", not a directory")
		assert.Equal(t, "not a directory: "+kind, safeio.Reason(err))
	}
	_, err = safeio.ReadDirInRoot(root, "missing", 0)
	require.ErrorIs(t, err, fs.ErrNotExist)
	assert.Contains(t, err.Error(), filepath.Join(dir, "missing"))
}

// A directory holding more entries than the limit is refused, naming the
// directory and the limit, whether the excess is in the first batch read
// or a later one; the limit itself is accepted.
func TestReadDirInRootLimit(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "d")
	require.NoError(t, os.Mkdir(dir, 0o755))
	for i := range 600 {
		require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("e%03d", i)), nil, 0o644))
	}
	root, err := os.OpenRoot(top)
	require.NoError(t, err)
	defer root.Close()
	for _, max := range []int{1, 10, 599} {
		_, err := safeio.ReadDirInRoot(root, "d", max)
		require.ErrorIs(t, err, safeio.ErrTooLarge, "max %d", max)
		assert.Equal(t, fmt.Sprintf("%s holds more than %d entries", dir, max), err.Error())
		assert.Equal(t, fmt.Sprintf("more than %d entries", max), safeio.Reason(err))
	}
	for _, max := range []int{600, 601, 0} {
		ents, err := safeio.ReadDirInRoot(root, "d", max)
		require.NoError(t, err, "max %d", max)
		require.Len(t, ents, 600)
		assert.Equal(t, "e000", ents[0].Name())
		assert.Equal(t, "e599", ents[599].Name())
	}
}

// mkfifo makes a named pipe in dir and returns its path (the test is skipped
// where the file system has none).
func mkfifo(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "fifo")
	testfixture.Mkfifo(t, p)
	return p
}
