//go:build unix

package nvmeapst_test

import "syscall"

// mkfifo makes a named pipe at p, a file that exists but is not regular.
func mkfifo(p string) error { return syscall.Mkfifo(p, 0o644) }
