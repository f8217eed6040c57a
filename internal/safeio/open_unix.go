//go:build unix

package safeio

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// openFlags are added to O_RDONLY: a named pipe without a writer cannot block
// the open, and a terminal does not become the controlling one.
const openFlags = syscall.O_NONBLOCK | syscall.O_NOCTTY

// preOpenCheckRoot refuses a name in root that is not a regular file before
// it is opened: a device is never opened (opening some has side effects: a
// watchdog starts, a tape rewinds), even without blocking. root.Stat is
// fstatat within the root, following links that stay inside it.
func preOpenCheckRoot(root *os.Root, name string) error {
	fi, err := root.Stat(name)
	if err != nil {
		return err
	}
	return checkRegular(rootJoin(root, name), fi)
}

// clearNonblock puts f back in blocking mode.
func clearNonblock(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = syscall.SetNonblock(int(fd), false) }); err != nil {
		return err
	}
	if serr != nil {
		return &fs.PathError{Op: "fcntl", Path: f.Name(), Err: serr}
	}
	return nil
}

// isUnopenable reports whether an open failed because of the kind of file:
// ENXIO for a socket or a device without a driver, ENODEV, EOPNOTSUPP.
func isUnopenable(err error) bool {
	return errors.Is(err, syscall.ENXIO) || errors.Is(err, syscall.ENODEV) || errors.Is(err, syscall.EOPNOTSUPP)
}

// isAgain reports whether err is EAGAIN.
func isAgain(err error) bool { return errors.Is(err, syscall.EAGAIN) }

// readFile checks, opens, checks again and reads path with direct system
// calls: no *os.File and no poller registration. The stat before the open
// means a device, a socket or a FIFO (or a link to one) is refused without
// being opened; the fstat after it catches a path swapped in between. On
// Linux a path shorter than 256 bytes is checked and opened without
// allocating (see openRead), so a loop that reuses buf allocates nothing.
func readFile(buf []byte, path string, limit int64) ([]byte, error) {
	var st syscall.Stat_t
	if err := statPath(path, &st); err != nil {
		// "open", as the open would have said: the message users see for a
		// missing file stays "open PATH: no such file or directory".
		return buf[:0], &fs.PathError{Op: "open", Path: path, Err: err}
	}
	if t := uint32(st.Mode) & syscall.S_IFMT; t != syscall.S_IFREG {
		return buf[:0], &NotRegularError{Path: path, Mode: modeType(t)}
	}
	fd, err := openRead(path)
	if err != nil {
		return buf[:0], classifyOpenError(&fs.PathError{Op: "open", Path: path, Err: err},
			func() (fs.FileInfo, error) { return os.Stat(path) }, path)
	}
	return readOpened(fd, buf, path, limit)
}

// readRegular is readFile for a path a directory walk has just listed as a
// regular file: the stat before the open is left out (the walk's listing
// is as recent as it would be), the open refuses a symbolic link swapped
// in since (O_NOFOLLOW; such a path, and one that fails to open, is then
// read as readFile reads it), and
// the fstat after the open still refuses anything but a regular file. One
// system call fewer per file than readFile: open, fstat, read (a second
// read only when the first did not end at the size fstat gave), close.
func readRegular(buf []byte, path string, limit int64) ([]byte, error) {
	fd, err := openReadWith(path, syscall.O_NOFOLLOW)
	if err != nil {
		// A link swapped in (ELOOP; EMLINK or EFTYPE on some BSDs), or a
		// file that cannot be opened: read as readFile reads it, which
		// follows the link after its checks and words the error.
		return readFile(buf, path, limit)
	}
	return readOpened(fd, buf, path, limit)
}

// readOpened checks that descriptor fd, opened from path, is a regular
// file, reads it into buf's storage and closes it.
func readOpened(fd int, buf []byte, path string, limit int64) ([]byte, error) {
	defer syscall.Close(fd)
	var st syscall.Stat_t
	var err error
	for {
		err = syscall.Fstat(fd, &st)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return buf[:0], &fs.PathError{Op: "fstat", Path: path, Err: err}
	}
	if t := uint32(st.Mode) & syscall.S_IFMT; t != syscall.S_IFREG {
		return buf[:0], &NotRegularError{Path: path, Mode: modeType(t)}
	}
	return readLoop(fdReader(fd), buf, int64(st.Size), limit, path)
}

// fdReader reads a descriptor, retrying on EINTR and, once, on EAGAIN
// after clearing O_NONBLOCK.
type fdReader int

func (fd fdReader) read(p []byte) (int, error) {
	cleared := false
	for {
		n, err := syscall.Read(int(fd), p)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN && !cleared:
			if err := syscall.SetNonblock(int(fd), false); err != nil {
				return 0, err
			}
			cleared = true
			continue
		case err != nil:
			return 0, err
		}
		return n, nil
	}
}

// modeType converts the S_IFMT bits of a stat mode to fs.FileMode type bits.
func modeType(t uint32) fs.FileMode {
	switch t {
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		return fs.ModeDevice
	case syscall.S_IFDIR:
		return fs.ModeDir
	case syscall.S_IFLNK:
		return fs.ModeSymlink
	}
	return fs.ModeIrregular
}

// syncDir flushes a directory's entries (a rename in it) to stable storage.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	serr := d.Sync()
	cerr := d.Close()
	if serr != nil {
		// Some file systems cannot sync a directory; the rename itself has
		// happened, so that is not worth failing the write for.
		if errors.Is(serr, syscall.EINVAL) || errors.Is(serr, syscall.ENOTSUP) {
			return cerr
		}
		return serr
	}
	return cerr
}

// statSlow is statPath through syscall.Stat, which copies the path.
func statSlow(path string, st *syscall.Stat_t) error {
	for {
		err := syscall.Stat(path, st)
		if err != syscall.EINTR {
			return err
		}
	}
}

// openReadSlow is openRead through syscall.Open, which copies the path.
func openReadSlow(path string, extra int) (int, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|openFlags|extra, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}
