//go:build unix

package testfixture

import (
	"syscall"
	"testing"
)

// Mkfifo makes a named pipe at path, or skips the test where the system has
// none.
func Mkfifo(tb testing.TB, path string) {
	tb.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		tb.Fatalf("testfixture: mkfifo %s: %v", path, err)
	}
}
