package safeio

import (
	"strings"
	"syscall"
	"unsafe"
)

// atFDCWD is AT_FDCWD: openat relative to the working directory.
const atFDCWD = -100

// openRead opens path read-only, non-blocking, close-on-exec, retrying on
// EINTR. A path shorter than 256 bytes is made NUL-terminated in a buffer on
// the stack, so the open allocates nothing (syscall.Open copies every path
// to the heap).
func openRead(path string) (int, error) { return openReadWith(path, 0) }

// openReadWith is openRead with extra open flags (O_NOFOLLOW).
func openReadWith(path string, extra int) (int, error) {
	if len(path) >= 256 || strings.IndexByte(path, 0) >= 0 {
		return openReadSlow(path, extra)
	}
	var buf [256]byte
	copy(buf[:], path)
	dirfd := atFDCWD // a variable: the negative constant does not convert to uintptr
	for {
		r, _, errno := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(dirfd), uintptr(unsafe.Pointer(&buf[0])),
			uintptr(syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_LARGEFILE|openFlags|extra), 0, 0, 0)
		switch errno {
		case 0:
			return int(r), nil
		case syscall.EINTR:
			continue
		}
		return -1, errno
	}
}

// statPath is stat(2) of path, following symbolic links. Where the
// architecture's fstatat system call is known (sysFstatat), a path shorter
// than 256 bytes is passed from the stack, as openRead does, so that the
// check before every open allocates nothing.
func statPath(path string, st *syscall.Stat_t) error {
	if sysFstatat < 0 || len(path) >= 256 || strings.IndexByte(path, 0) >= 0 {
		return statSlow(path, st)
	}
	var buf [256]byte
	copy(buf[:], path)
	dirfd, nr := atFDCWD, sysFstatat // variables: a negative constant does not convert to uintptr
	for {
		_, _, errno := syscall.Syscall6(uintptr(nr), uintptr(dirfd), uintptr(unsafe.Pointer(&buf[0])),
			uintptr(unsafe.Pointer(st)), 0, 0, 0)
		switch errno {
		case 0:
			return nil
		case syscall.EINTR:
			continue
		}
		return errno
	}
}
