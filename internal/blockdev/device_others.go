//go:build !linux

package blockdev

import "errors"

// sysDevice has nothing to hold where Open is unsupported.
type sysDevice struct{}

// Open fails on systems other than Linux with an error wrapping
// errors.ErrUnsupported.
func Open(path string) (*Device, error) { return nil, errUnsupported }

func (sysDevice) readAt(string, int64) error { return errUnsupported }

func (sysDevice) close(string) error { return nil }

// errUnsupported is returned by Open on systems other than Linux.
var errUnsupported = unsupportedError{}

type unsupportedError struct{}

func (unsupportedError) Error() string {
	return "blockdev: O_DIRECT block device reads are supported on Linux only"
}

func (unsupportedError) Is(target error) bool { return target == errors.ErrUnsupported }
