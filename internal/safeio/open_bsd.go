//go:build unix && !linux

package safeio

import "syscall"

// openRead opens path read-only, non-blocking, close-on-exec, retrying on
// EINTR.
func openRead(path string) (int, error) { return openReadSlow(path) }

// statPath is stat(2) of path, following symbolic links.
func statPath(path string, st *syscall.Stat_t) error { return statSlow(path, st) }
