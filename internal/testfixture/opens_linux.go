package testfixture

import (
	"os"
	"syscall"
	"testing"
	"unsafe"
)

// WatchOpens watches paths for being opened (inotify IN_OPEN; adding the
// watch opens nothing) and returns a function that reports which of them
// were opened since, each path once. It is how a test proves that a device
// node, a FIFO or a socket was refused without being opened. A path that is
// a symbolic link is watched where it points. The test is skipped where
// inotify is unavailable.
func WatchOpens(tb testing.TB, paths ...string) func() []string {
	tb.Helper()
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		tb.Skipf("testfixture: no inotify: %v", err)
	}
	tb.Cleanup(func() { syscall.Close(fd) })
	byWD := map[int32]string{}
	for _, p := range paths {
		wd, err := syscall.InotifyAddWatch(fd, p, syscall.IN_OPEN)
		if err != nil {
			tb.Fatalf("testfixture: inotify watch %s: %v", p, err)
		}
		byWD[int32(wd)] = p
	}
	return func() []string {
		var opened []string
		seen := map[string]bool{}
		buf := make([]byte, 64<<10)
		for {
			n, err := syscall.Read(fd, buf)
			if err == syscall.EINTR {
				continue
			}
			if n <= 0 || err != nil {
				return opened
			}
			for off := 0; off+syscall.SizeofInotifyEvent <= n; {
				ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[off]))
				if p, ok := byWD[ev.Wd]; ok && ev.Mask&syscall.IN_OPEN != 0 && !seen[p] {
					seen[p] = true
					opened = append(opened, p)
				}
				off += syscall.SizeofInotifyEvent + int(ev.Len)
			}
		}
	}
}

// Mknod makes a character device node at path with the given major and
// minor numbers, or skips the test when the process may not (it is not
// root, or the file system refuses device nodes).
func Mknod(tb testing.TB, path string, major, minor uint32) {
	tb.Helper()
	if os.Geteuid() != 0 {
		tb.Skip("testfixture: mknod needs root")
	}
	dev := int(major<<8 | minor&0xff | (minor&^0xff)<<12)
	if err := syscall.Mknod(path, syscall.S_IFCHR|0o666, dev); err != nil {
		tb.Skipf("testfixture: mknod %s: %v", path, err)
	}
}
