package safeio

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ErrNotRegular is matched (errors.Is) by every error for a path that is not
// a regular file where one is needed: a named pipe, a socket, a device, a
// directory. The error itself is a [*NotRegularError].
var ErrNotRegular = errors.New("safeio: not a regular file")

// ErrTooLarge is matched by the error for a file longer than the limit a
// read was given.
var ErrTooLarge = errors.New("safeio: file larger than the read limit")

// NotRegularError reports a path that is not a regular file (or, from
// [ReadDirInRoot], not a directory), and what it is instead. It matches
// [ErrNotRegular] with errors.Is.
type NotRegularError struct {
	// Path is the path as given to the function that refused it.
	Path string
	// Mode is the file's type bits (fs.ModeNamedPipe, fs.ModeSocket, ...).
	Mode fs.FileMode
	// WantDir is set when a directory was wanted.
	WantDir bool
}

// Error says which path it is and what kind of file it is.
func (e *NotRegularError) Error() string {
	if e.WantDir {
		return e.Path + " is " + Kind(e.Mode) + ", not a directory"
	}
	return e.Path + " is " + Kind(e.Mode) + ", not a regular file"
}

// Is reports whether target is ErrNotRegular.
func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// Kind describes a file type in a few words, for messages: "a named pipe
// (FIFO)", "a socket", "a character device", "a directory", "a regular
// file".
func Kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeDir != 0:
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	case m.IsRegular():
		return "a regular file"
	}
	return "an unknown kind of file"
}

// Reason is the short text a log or a manifest records for why a read
// failed: "not a regular file: a named pipe (FIFO)", the system's error text
// ("permission denied") for a failed system call, "larger than N bytes" for
// [ErrTooLarge] ("more than N entries" for a directory), and err.Error()
// otherwise. It names no path.
func Reason(err error) string {
	var nr *NotRegularError
	if errors.As(err, &nr) {
		if nr.WantDir {
			return "not a directory: " + Kind(nr.Mode)
		}
		return "not a regular file: " + Kind(nr.Mode)
	}
	var tl *tooLargeError
	if errors.As(err, &tl) {
		return fmt.Sprintf("larger than %d bytes", tl.limit)
	}
	var dl *dirTooLargeError
	if errors.As(err, &dl) {
		return fmt.Sprintf("more than %d entries", dl.limit)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// tooLargeError is the error of a read past its limit.
type tooLargeError struct {
	path  string
	limit int64
}

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %d bytes", e.path, e.limit)
}

func (e *tooLargeError) Is(target error) bool { return target == ErrTooLarge }

// dirTooLargeError is the error of a directory listing past its limit.
type dirTooLargeError struct {
	path  string
	limit int
}

func (e *dirTooLargeError) Error() string {
	return fmt.Sprintf("%s holds more than %d entries", e.path, e.limit)
}

func (e *dirTooLargeError) Is(target error) bool { return target == ErrTooLarge }

// classifyOpenError turns an open that failed because of what the path is
// (a socket cannot be opened at all: ENXIO) into a *NotRegularError; stat
// says what it is. Other errors are returned as they are.
func classifyOpenError(err error, stat func() (fs.FileInfo, error), path string) error {
	if !isUnopenable(err) {
		return err
	}
	fi, serr := stat()
	if serr != nil || fi.Mode().IsRegular() {
		return err
	}
	return &NotRegularError{Path: path, Mode: fi.Mode().Type()}
}

// checkRegular returns a *NotRegularError unless fi is a regular file.
func checkRegular(path string, fi fs.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	return &NotRegularError{Path: path, Mode: fi.Mode().Type()}
}

// Open opens path for reading and returns it with its FileInfo, after making
// sure that it is a regular file; anything else is an error matching
// [ErrNotRegular]. The path is checked with os.Stat before it is opened, so
// a device is never opened (opening some has side effects: a watchdog
// starts, a tape rewinds), and where the system has O_NONBLOCK the open uses
// it (with O_NOCTTY) and the file is checked again with fstat, so that a
// path swapped for a named pipe in between cannot block the open either.
// O_NONBLOCK is cleared before the file is returned, so reads from it behave
// as usual. Use [ReadFile] where the whole content is wanted: it is bounded.
func Open(path string) (*os.File, fs.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if err := checkRegular(path, fi); err != nil {
		return nil, nil, err
	}
	return openChecked(path)
}

// openChecked opens path non-blocking and checks with fstat that it is a
// regular file.
func openChecked(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, nil, classifyOpenError(err, func() (fs.FileInfo, error) { return os.Stat(path) }, path)
	}
	fi, err := f.Stat()
	if err == nil {
		err = checkRegular(path, fi)
	}
	if err == nil {
		err = clearNonblock(f)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// OpenInRoot is [Open] for the path name inside root (os.Root): name and
// every symbolic link on the way are resolved within root, and a path that
// would leave it is an error. Errors name the path as root's name joined
// with name.
func OpenInRoot(root *os.Root, name string) (*os.File, fs.FileInfo, error) {
	f, fi, err := openInRoot(root, name)
	if err != nil {
		return nil, nil, err
	}
	if err := clearNonblock(f); err != nil {
		f.Close()
		return nil, nil, rootPathError(root, name, err)
	}
	return f, fi, nil
}

// openInRoot opens name in root non-blocking and checks it is a regular
// file; the file keeps O_NONBLOCK.
func openInRoot(root *os.Root, name string) (*os.File, fs.FileInfo, error) {
	if err := preOpenCheckRoot(root, name); err != nil {
		return nil, nil, rootPathError(root, name, err)
	}
	f, err := root.OpenFile(name, os.O_RDONLY|openFlags, 0)
	if err != nil {
		err = classifyOpenError(err, func() (fs.FileInfo, error) { return root.Stat(name) }, rootJoin(root, name))
		return nil, nil, rootPathError(root, name, err)
	}
	fi, err := f.Stat()
	if err == nil {
		err = checkRegular(rootJoin(root, name), fi)
	}
	if err != nil {
		f.Close()
		return nil, nil, rootPathError(root, name, err)
	}
	return f, fi, nil
}

// rootJoin is the path of name in root for messages, not cleaned, so that
// a name that climbs out of root shows as such.
func rootJoin(root *os.Root, name string) string {
	return root.Name() + string(filepath.Separator) + name
}

// rootPathError makes the path of a *fs.PathError from an os.Root call the
// full path, so that messages say which file of which tree failed.
func rootPathError(root *os.Root, name string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == name {
		return &fs.PathError{Op: pe.Op, Path: rootJoin(root, name), Err: pe.Err}
	}
	return err
}

// ReadFile reads the regular file path, which must hold at most limit bytes,
// without ever opening a path that is not a regular file: the path is
// checked with stat first (a named pipe, a socket, a device, or a symbolic
// link to one is refused before anything is opened, since opening some
// devices has side effects: a watchdog starts, a pseudo-terminal is made),
// then opened with O_NONBLOCK where the system has it and checked again
// with fstat, so that a path swapped in between cannot block the read.
// A longer file is an error matching [ErrTooLarge] and nothing of it is
// returned; at most limit+1 bytes are read whatever the file's size.
//
// The buffer is sized from fstat so that a file whose size is right is read
// in one read plus the read that sees end of file; a size that lies (sysfs
// reports 4096 for every attribute, procfs 0) costs at most a few more reads,
// never a wrong result.
func ReadFile(path string, limit int64) ([]byte, error) {
	return readFile(nil, path, limit)
}

// ReadFileInto is [ReadFile] that reads into buf's storage: it returns
// buf[:n] holding the content when cap(buf) is enough, and a new slice
// otherwise, as append does. Pass the returned slice back in to reuse it; a
// loop over many small files then allocates nothing once the buffer has
// grown to the largest of them. On Unix the path is checked, opened, checked
// and read with direct system calls (stat, open, fstat, read, close; a
// second read only when the first did not end at the size fstat gave) and
// no *os.File.
func ReadFileInto(buf []byte, path string, limit int64) ([]byte, error) {
	return readFile(buf, path, limit)
}

// Reader reads many files with one reused buffer ([ReadFileInto]). The zero
// value reads with limit 0; set Limit first. A Reader is for one goroutine.
type Reader struct {
	// Limit is the most a file may hold.
	Limit int64
	buf   []byte
}

// ReadFile reads path as [ReadFile] does. The returned slice is the Reader's
// buffer: it is valid until the next call.
func (r *Reader) ReadFile(path string) ([]byte, error) {
	b, err := readFile(r.buf, path, r.Limit)
	if cap(b) > cap(r.buf) {
		r.buf = b[:0]
	}
	return b, err
}

// ReadRegularFile is ReadFile for a path that a directory walk has just
// listed as a regular file (fs.DirEntry.Type().IsRegular()), as a survey of
// a tree reads each file it meets: the check before the open, which only
// repeats the walk's, is left out, so the file costs one system call fewer.
// What is opened is still never a symbolic link (one swapped in since the
// walk is followed only after the checks of ReadFile), and anything but a
// regular file is refused after the open as ReadFile refuses it.
func (r *Reader) ReadRegularFile(path string) ([]byte, error) {
	b, err := readRegular(r.buf, path, r.Limit)
	if cap(b) > cap(r.buf) {
		r.buf = b[:0]
	}
	return b, err
}

// ReadFileInRoot is [ReadFile] for the path name inside root: symbolic links
// are followed only while they stay within root (see [OpenInRoot]).
func ReadFileInRoot(root *os.Root, name string, limit int64) ([]byte, error) {
	f, fi, err := openInRoot(root, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := readLoop(fileReader{f}, nil, fi.Size(), limit, rootJoin(root, name))
	return b, rootPathError(root, name, err)
}

// fileReader reads an *os.File that may still have O_NONBLOCK set: a read
// that fails with EAGAIN (a regular file never does on Linux, a FUSE file
// might) clears the flag and is retried once.
type fileReader struct{ f *os.File }

func (r fileReader) read(p []byte) (int, error) {
	n, err := r.f.Read(p)
	if err != nil && isAgain(err) {
		if cerr := clearNonblock(r.f); cerr != nil {
			return n, cerr
		}
		n, err = r.f.Read(p)
	}
	if errors.Is(err, io.EOF) {
		return n, nil
	}
	return n, err
}

// reader is what readLoop reads from; n == 0 with a nil error is end of file.
type reader interface {
	read(p []byte) (int, error)
}

// minBuffer is the first buffer of a file whose size says nothing (0).
const minBuffer = 512

// readLoop reads r to end of file into buf's storage, sizing the buffer from
// size (which may lie) and failing once more than limit bytes are read.
func readLoop(r reader, buf []byte, size, limit int64, path string) ([]byte, error) {
	if limit < 0 {
		limit = 0
	}
	want := limit + 1
	if size > 0 && size < limit {
		want = size + 1
	} else if size <= 0 && want > minBuffer {
		want = minBuffer
	}
	buf = buf[:0]
	if int64(cap(buf)) < want {
		buf = make([]byte, 0, want)
	}
	for {
		if len(buf) == cap(buf) {
			grow := max(int64(cap(buf)), minBuffer)
			grow = min(grow, limit+1-int64(len(buf)))
			buf = slices.Grow(buf, int(grow))
		}
		asked := cap(buf) - len(buf)
		n, err := r.read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return buf[:0], &tooLargeError{path: path, limit: limit}
		}
		if err != nil {
			return buf[:0], &fs.PathError{Op: "read", Path: path, Err: unwrapPathError(err)}
		}
		if n == 0 {
			return buf, nil
		}
		if n < asked && int64(len(buf)) == size {
			// A regular file's read that gives less than asked is at
			// its end; here exactly at the size fstat gave, so the read
			// that would return 0 is left out (one system call of five
			// a file). A file that grew fills the buffer, one that lies
			// about its size (sysfs, procfs) stops short of it or gives
			// more: both read on to a read of 0.
			return buf, nil
		}
	}
}

// unwrapPathError returns the error inside a *fs.PathError, so that
// readLoop's own PathError does not nest another.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// OpenFileInRoot opens the existing file name inside root with flag (as
// os.OpenFile: os.O_WRONLY, os.O_RDWR, os.O_TRUNC...) and returns it after
// making sure it is a regular file, as [OpenInRoot] does for reading: the
// open cannot block (a named pipe without a reader fails at once instead of
// waiting for one), and O_NONBLOCK is cleared before the file is returned.
// Flags that create a file are for other functions: a missing file is an
// error matching fs.ErrNotExist.
func OpenFileInRoot(root *os.Root, name string, flag int) (*os.File, error) {
	if flag&os.O_CREATE != 0 {
		return nil, &fs.PathError{Op: "open", Path: rootJoin(root, name), Err: errors.New("O_CREATE is not supported")}
	}
	if err := preOpenCheckRoot(root, name); err != nil {
		return nil, rootPathError(root, name, err)
	}
	f, err := root.OpenFile(name, flag|openFlags, 0)
	if err != nil {
		err = classifyOpenError(err, func() (fs.FileInfo, error) { return root.Stat(name) }, rootJoin(root, name))
		return nil, rootPathError(root, name, err)
	}
	fi, err := f.Stat()
	if err == nil {
		err = checkRegular(rootJoin(root, name), fi)
	}
	if err == nil {
		err = clearNonblock(f)
	}
	if err != nil {
		f.Close()
		return nil, rootPathError(root, name, err)
	}
	return f, nil
}

// ReadDirInRoot lists the directory name inside root, sorted by name, without
// blocking: a named pipe (or anything else that is not a directory) where
// the directory should be is an error matching [ErrNotRegular], found with
// a stat before anything is opened. A directory holding more than max
// entries is an error matching [ErrTooLarge], found after reading at most
// max+256 of them (max <= 0: no limit).
func ReadDirInRoot(root *os.Root, name string, max int) ([]fs.DirEntry, error) {
	fi, err := root.Stat(name)
	if err != nil {
		return nil, rootPathError(root, name, err)
	}
	if !fi.IsDir() {
		return nil, &NotRegularError{Path: rootJoin(root, name), Mode: fi.Mode().Type(), WantDir: true}
	}
	d, err := root.OpenFile(name, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, rootPathError(root, name, err)
	}
	defer d.Close()
	if fi, err = d.Stat(); err != nil {
		return nil, rootPathError(root, name, err)
	}
	if !fi.IsDir() {
		return nil, &NotRegularError{Path: rootJoin(root, name), Mode: fi.Mode().Type(), WantDir: true}
	}
	var ents []fs.DirEntry
	for {
		batch, err := d.ReadDir(256)
		ents = append(ents, batch...)
		if max > 0 && len(ents) > max {
			return nil, &dirTooLargeError{path: rootJoin(root, name), limit: max}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, rootPathError(root, name, err)
		}
	}
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, nil
}
