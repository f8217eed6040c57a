//go:build unix && !linux

package safeio

// openRead opens path read-only, non-blocking, close-on-exec, retrying on
// EINTR.
func openRead(path string) (int, error) { return openReadSlow(path) }
