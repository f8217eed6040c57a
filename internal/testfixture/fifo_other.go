//go:build !unix

package testfixture

import "testing"

// Mkfifo makes a named pipe at path, or skips the test where the system has
// none.
func Mkfifo(tb testing.TB, path string) {
	tb.Helper()
	tb.Skip("testfixture: no named pipes in this file system")
}
