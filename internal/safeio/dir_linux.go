package safeio

import (
	"bytes"
	"errors"
	"io/fs"
	"strings"
	"syscall"
	"unsafe"
)

// Dir is an open directory whose entries are opened relative to it, one
// path element at a time and never through a symbolic link, so that what is
// read stays inside the directory it was opened from whatever the tree
// holds. It is the allocation-free path of a reader that reads the same few
// dozen small files again and again (apstctl metrics on every scrape):
// each read is fstatat, openat, fstat, read and close on a name passed from
// the stack. The zero Dir is not open. A Dir is a value; Close it once.
type Dir struct {
	fd int
}

// ErrLink is matched by the error for an entry that is a symbolic link,
// which Dir never follows: the caller resolves it (inside its tree) and
// opens the result.
var ErrLink = errors.New("safeio: symbolic link not followed")

// OpenDir opens the directory path (following symbolic links on it: the
// caller names its own root). Where the system has no Dir (other systems,
// Linux architectures without fstatat) it fails with an error matching
// errors.ErrUnsupported, and the caller reads the slower way.
func OpenDir(path string) (Dir, error) {
	if sysFstatat < 0 {
		return Dir{}, errors.ErrUnsupported
	}
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return Dir{}, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return Dir{fd: fd + 1}, nil
}

// Valid reports whether d is open.
func (d Dir) Valid() bool { return d.fd > 0 }

func (d Dir) raw() int { return d.fd - 1 }

// Close closes d; closing the zero Dir does nothing.
func (d Dir) Close() error {
	if d.fd <= 0 {
		return nil
	}
	return syscall.Close(d.raw())
}

// pathBuf holds a NUL-terminated name on the stack.
type pathBuf [256]byte

// element copies name into b, refusing what is not one path element.
func (b *pathBuf) element(name string) bool {
	if name == "" || name == "." || name == ".." || len(name) >= len(b) || strings.IndexByte(name, '/') >= 0 || strings.IndexByte(name, 0) >= 0 {
		return false
	}
	copy(b[:], name)
	b[len(name)] = 0
	return true
}

// errNotElement is the error for a name that is not one path element.
var errNotElement = errors.New("safeio: not one path element")

// Sub opens the directory name inside d (one path element) without
// following a symbolic link: an entry that is a link is an error matching
// ErrLink, one that does not exist syscall.ENOENT (fs.ErrNotExist), and
// anything else that is not a directory *NotRegularError. The errors
// allocate nothing for the two common answers (absent, a link) and carry no
// path: the caller knows which name it asked.
func (d Dir) Sub(name string) (Dir, error) {
	var b pathBuf
	if !b.element(name) {
		return Dir{}, errNotElement
	}
	for {
		r, _, errno := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(d.raw()), uintptr(unsafe.Pointer(&b[0])),
			uintptr(syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC), 0, 0, 0)
		switch errno {
		case 0:
			return Dir{fd: int(r) + 1}, nil
		case syscall.EINTR:
			continue
		case syscall.ELOOP, syscall.ENOTDIR:
			var st syscall.Stat_t
			if err := d.lstat(&b, &st); err == nil {
				if t := uint32(st.Mode) & syscall.S_IFMT; t == syscall.S_IFLNK {
					return Dir{}, ErrLink
				} else if t != syscall.S_IFDIR {
					return Dir{}, &NotRegularError{Path: name, Mode: modeType(t), WantDir: true}
				}
			}
		}
		return Dir{}, errno
	}
}

// lstat is fstatat(d, name, AT_SYMLINK_NOFOLLOW).
func (d Dir) lstat(b *pathBuf, st *syscall.Stat_t) error {
	const atSymlinkNofollow = 0x100
	if sysFstatat < 0 {
		return syscall.ENOSYS // loong64 has statx only: OpenDir refuses there
	}
	nr := sysFstatat // a variable: the constant may be negative on other architectures
	for {
		_, _, errno := syscall.Syscall6(uintptr(nr), uintptr(d.raw()), uintptr(unsafe.Pointer(&b[0])),
			uintptr(unsafe.Pointer(st)), atSymlinkNofollow, 0, 0)
		switch errno {
		case 0:
			return nil
		case syscall.EINTR:
			continue
		}
		return errno
	}
}

// ReadFileInto reads the regular file name inside d (one path element) into
// buf's storage, as [ReadFileInto] reads a path: checked with fstatat
// before it is opened (a device, a FIFO or a socket is refused unopened, a
// symbolic link refused with ErrLink), opened without blocking and without
// following a link, checked again with fstat, read to its end or refused
// past limit bytes. A file that does not exist is syscall.ENOENT (which
// matches fs.ErrNotExist) and allocates nothing; other errors name
// the file as name.
func (d Dir) ReadFileInto(buf []byte, name string, limit int64) ([]byte, error) {
	var b pathBuf
	if !b.element(name) {
		return buf[:0], errNotElement
	}
	var st syscall.Stat_t
	if err := d.lstat(&b, &st); err != nil {
		if err == syscall.ENOENT || err == syscall.ENOTDIR {
			return buf[:0], syscall.ENOENT
		}
		return buf[:0], &fs.PathError{Op: "open", Path: name, Err: err}
	}
	switch t := uint32(st.Mode) & syscall.S_IFMT; t {
	case syscall.S_IFREG:
	case syscall.S_IFLNK:
		return buf[:0], ErrLink
	default:
		return buf[:0], &NotRegularError{Path: name, Mode: modeType(t)}
	}
	for {
		r, _, errno := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(d.raw()), uintptr(unsafe.Pointer(&b[0])),
			uintptr(syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_LARGEFILE|syscall.O_NOFOLLOW|openFlags), 0, 0, 0)
		switch errno {
		case 0:
			return readOpened(int(r), buf, name, limit)
		case syscall.EINTR:
			continue
		case syscall.ENOENT:
			return buf[:0], syscall.ENOENT
		}
		return buf[:0], &fs.PathError{Op: "open", Path: name, Err: errno}
	}
}

// Names calls fn with the name of every entry of d but . and .., reading
// the directory from its start with getdents into buf's storage (grown as
// needed and returned, to pass back in). The name passed to fn is valid
// during the call only. More than max entries is an error matching
// ErrTooLarge, after max calls of fn.
func (d Dir) Names(buf []byte, max int, fn func(name []byte)) ([]byte, error) {
	if cap(buf) < 8192 {
		buf = make([]byte, 8192)
	}
	buf = buf[:cap(buf)]
	if _, err := syscall.Seek(d.raw(), 0, 0); err != nil {
		return buf, &fs.PathError{Op: "seek", Path: "directory", Err: err}
	}
	n := 0
	for {
		got, err := syscall.ReadDirent(d.raw(), buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return buf, &fs.PathError{Op: "readdirent", Path: "directory", Err: err}
		}
		if got <= 0 {
			return buf, nil
		}
		for rec := buf[:got]; len(rec) >= 19; {
			// struct linux_dirent64: ino u64, off s64, reclen u16,
			// type u8, name NUL-terminated.
			reclen := int(rec[16]) | int(rec[17])<<8
			if reclen < 19 || reclen > len(rec) {
				return buf, &fs.PathError{Op: "readdirent", Path: "directory", Err: syscall.EIO}
			}
			name := rec[19:reclen]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			rec = rec[reclen:]
			if string(name) == "." || string(name) == ".." {
				continue
			}
			if n++; n > max {
				return buf, &dirTooLargeError{path: "directory", limit: max}
			}
			fn(name)
		}
	}
}
