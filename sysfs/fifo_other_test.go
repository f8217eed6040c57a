//go:build !unix

package sysfs_test

import "testing"

// mkfifo skips: named pipes do not live in the file system here.
func mkfifo(t *testing.T, p string) { t.Skip("no named pipes in the file system") }
