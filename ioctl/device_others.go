//go:build !linux

package ioctl

// open is not available: NVMe passthrough is a Linux interface.
func open(string) (submitter, error) { return nil, ErrUnsupported }

// isNotTTY is false: no errno here comes from an NVMe ioctl.
func isNotTTY(error) bool { return false }

// errNotOpen is the error of a command sent to a Device; there are none to
// open on this system.
func errNotOpen(string) error { return ErrUnsupported }
