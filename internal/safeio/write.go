package safeio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// WriteFile replaces the file path with what write writes, atomically: the
// content goes to a temporary file in the same directory (".NAME.tmp-*"),
// created with perm less the process's umask, as os.WriteFile and a shell's
// redirection create a file (pass 0o666 for an ordinary output file: under
// umask 077 it is private to its owner; on Windows only the read-only bit
// applies), which is flushed, fsynced and renamed over path, and the
// directory is fsynced where the system allows it. When path exists, the
// temporary file takes its owner, group and mode before the rename (see
// [KeepOwnerMode]), so that replacing a file does not reset them; a file
// whose owner cannot be kept (another user's, in a directory this user may
// write) is an error and is left as it was. write gets
// a buffered writer whose errors are checked for it (it may ignore them; see
// [Writer]).
//
// On any error (write's own, a failed write such as ENOSPC, fsync, rename)
// the temporary file is removed and the file at path, if there was one, is
// untouched. A symbolic link at path is followed, so the file it points to
// is replaced and the link stays. An existing path that is not a regular
// file (a device such as /dev/stdout, a named pipe, a directory) is refused
// with an error matching [ErrNotRegular]: renaming over it would replace the
// node, not write to it.
func WriteFile(path string, perm fs.FileMode, write func(io.Writer) error) (err error) {
	if path == "" {
		return &fs.PathError{Op: "write", Path: path, Err: errors.New("empty file name")}
	}
	target, old, err := writeTarget(path)
	if err != nil {
		return err
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	f, err := createTemp(dir, "."+base+".tmp-", perm)
	if err != nil {
		// The temporary file's name is ours, not the caller's: say which
		// directory it could not be made in.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("write %s: cannot create a file in directory %s: %w", path, filepath.Dir(target), err)
	}
	tmp := f.Name()
	closed := false
	defer func() {
		if err != nil {
			if !closed {
				f.Close()
			}
			os.Remove(tmp)
		}
	}()
	// Errors name path, the file asked for: the temporary file is ours.
	t := tempFile{f, path}
	if old != nil {
		if err := KeepOwnerMode(f, old); err != nil {
			return t.fail(fmt.Errorf("%w; the file is left as it was", err))
		}
	}
	bw := bufio.NewWriterSize(t, 64<<10)
	cw := NewWriter(bw)
	if err := write(cw); err != nil {
		return t.fail(err)
	}
	if err := cw.Err(); err != nil {
		return t.fail(err)
	}
	if err := bw.Flush(); err != nil {
		return t.fail(err)
	}
	if err := f.Sync(); err != nil {
		return t.fail(err)
	}
	closed = true
	if err := f.Close(); err != nil {
		return t.fail(err)
	}
	if err := os.Rename(tmp, target); err != nil {
		var le *os.LinkError
		if errors.As(err, &le) {
			err = le.Err
		}
		return fmt.Errorf("write %s: renaming the temporary file %s over it: %w", path, filepath.Base(tmp), err)
	}
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("write %s: renamed, but syncing directory %s: %w", path, dir, err)
	}
	return nil
}

// tempFile is the temporary file WriteFile writes for path: its errors
// name path.
type tempFile struct {
	f    *os.File
	path string
}

// Write writes to the file; a failed write names path.
func (t tempFile) Write(p []byte) (int, error) {
	n, err := t.f.Write(p)
	if err != nil {
		err = t.fail(err)
	}
	return n, err
}

// fail is err as the error of writing path: "write PATH: ..." once, the
// temporary file's name replaced by path. It wraps err.
func (t tempFile) fail(err error) error {
	if pe, ok := err.(*fs.PathError); ok && pe.Path == t.path && pe.Op == "write" {
		return err // already said (by Write)
	}
	if pe, ok := err.(*fs.PathError); ok && pe.Path == t.f.Name() {
		if pe.Op == "write" {
			return &fs.PathError{Op: "write", Path: t.path, Err: pe.Err}
		}
		return Reworded("write "+t.path+": "+pe.Op+": "+pe.Err.Error(), err)
	}
	msg := strings.ReplaceAll(err.Error(), t.f.Name(), t.path)
	if p := "write " + t.path + ": "; !strings.HasPrefix(msg, p) {
		msg = p + msg
	}
	return Reworded(msg, err)
}

// Reworded returns err with the message msg: errors.Is and errors.As see
// err through it.
func Reworded(msg string, err error) error { return &rewordedError{msg, err} }

// rewordedError is an error with another message.
type rewordedError struct {
	msg string
	err error
}

// Error returns the message.
func (e *rewordedError) Error() string { return e.msg }

// Unwrap returns the error.
func (e *rewordedError) Unwrap() error { return e.err }

// writeTarget follows symbolic links at path and refuses a target that
// exists and is not a regular file. It returns the target and, when it
// exists, its FileInfo (nil otherwise).
func writeTarget(path string) (string, fs.FileInfo, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return path, nil, nil
	}
	if err != nil {
		return "", nil, err
	}
	target := path
	if fi.Mode()&fs.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(path); err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				return "", nil, err
			}
			// A dangling link: write where it points.
			link, lerr := os.Readlink(path)
			if lerr != nil {
				return "", nil, lerr
			}
			if !filepath.IsAbs(link) {
				link = filepath.Join(filepath.Dir(path), link)
			}
			return link, nil, nil
		}
		if fi, err = os.Stat(target); err != nil {
			return "", nil, err
		}
	}
	if err := checkRegular(path, fi); err != nil {
		return "", nil, err
	}
	return target, fi, nil
}

// KeepOwnerMode gives f, a new file about to replace the file old
// describes, old's owner, group and permission bits (setuid, setgid and
// sticky included), so that an atomic replacement keeps them as writing in
// place would. The owner is changed only where it differs (changing it
// needs the right to, as root has); an error says which could not be kept.
// Where the system has no owners (Windows) only the mode is kept.
func KeepOwnerMode(f *os.File, old fs.FileInfo) error {
	if err := keepOwner(f, old); err != nil {
		return err
	}
	mode := old.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	if err := f.Chmod(mode); err != nil {
		return fmt.Errorf("keeping mode %v: %w", mode, err)
	}
	return nil
}

// tempTries bounds the names createTemp and MkdirTemp try.
const tempTries = 10000

// tempName is prefix followed by a random number.
func tempName(dir, prefix string) string {
	return filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10))
}

// createTemp creates a new file dir/prefixNNN with perm less the umask
// (os.CreateTemp always uses 0600).
func createTemp(dir, prefix string, perm fs.FileMode) (*os.File, error) {
	for range tempTries {
		f, err := os.OpenFile(tempName(dir, prefix), os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, &fs.PathError{Op: "createtemp", Path: filepath.Join(dir, prefix+"*"), Err: fs.ErrExist}
}

// MkdirTemp creates a new directory in dir whose name starts with prefix
// and ends with a random number, with perm less the umask (os.MkdirTemp
// always uses 0700), and returns its path. Pass 0o777 for a directory that
// is renamed into place as an output: it then has the mode mkdir(1) would
// give it.
func MkdirTemp(dir, prefix string, perm fs.FileMode) (string, error) {
	for range tempTries {
		name := tempName(dir, prefix)
		err := os.Mkdir(name, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		return name, nil
	}
	return "", &fs.PathError{Op: "mkdirtemp", Path: filepath.Join(dir, prefix+"*"), Err: fs.ErrExist}
}
