//go:build !linux

package safeio

import "errors"

// Dir is an open directory read one path element at a time (see the Linux
// implementation); elsewhere OpenDir fails with errors.ErrUnsupported and
// callers read the slower way.
type Dir struct{}

// ErrLink is matched by the error for an entry that is a symbolic link.
var ErrLink = errors.New("safeio: symbolic link not followed")

// OpenDir fails with errors.ErrUnsupported.
func OpenDir(path string) (Dir, error) { return Dir{}, errors.ErrUnsupported }

// Valid reports false.
func (d Dir) Valid() bool { return false }

// Close does nothing.
func (d Dir) Close() error { return nil }

// Sub fails with errors.ErrUnsupported.
func (d Dir) Sub(name string) (Dir, error) { return Dir{}, errors.ErrUnsupported }

// ReadFileInto fails with errors.ErrUnsupported.
func (d Dir) ReadFileInto(buf []byte, name string, limit int64) ([]byte, error) {
	return buf[:0], errors.ErrUnsupported
}

// Names fails with errors.ErrUnsupported.
func (d Dir) Names(buf []byte, max int, fn func(name []byte)) ([]byte, error) {
	return buf, errors.ErrUnsupported
}
