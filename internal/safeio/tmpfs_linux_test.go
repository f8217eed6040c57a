package safeio_test

import (
	"errors"
	"os"
	"syscall"
	"testing"
)

// smallTmpfs mounts a 64 KiB tmpfs on a temporary directory and returns it,
// or skips the test where mounting is not permitted.
func smallTmpfs(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=64k"); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v)", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}

func isNoSpace(err error) bool { return errors.Is(err, syscall.ENOSPC) }

// devFull is a writer whose every write fails with ENOSPC.
func devFull(t *testing.T) *os.File {
	f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
