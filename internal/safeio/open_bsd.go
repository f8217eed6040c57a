//go:build unix && !linux

package safeio

import "syscall"

// openRead opens path read-only, non-blocking, close-on-exec, retrying on
// EINTR.
func openRead(path string) (int, error) { return openReadSlow(path, 0) }

// openReadWith is openRead with extra open flags (O_NOFOLLOW).
func openReadWith(path string, extra int) (int, error) { return openReadSlow(path, extra) }

// statPath is stat(2) of path, following symbolic links.
func statPath(path string, st *syscall.Stat_t) error { return statSlow(path, st) }
