//go:build !linux

package testfixture

import "testing"

// WatchOpens skips the test: only Linux has inotify.
func WatchOpens(tb testing.TB, paths ...string) func() []string {
	tb.Helper()
	tb.Skip("testfixture: watching opens needs inotify (Linux)")
	return nil
}

// Mknod skips the test outside Linux.
func Mknod(tb testing.TB, path string, major, minor uint32) {
	tb.Helper()
	tb.Skip("testfixture: mknod is tested on Linux")
}
