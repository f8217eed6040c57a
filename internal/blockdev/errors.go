package blockdev

import "errors"

// Sentinel errors, for errors.Is.
var (
	// ErrNotBlockDevice: Open was given a path that is not a block device
	// (a regular file, a character device such as /dev/nvme0).
	ErrNotBlockDevice = errors.New("blockdev: not a block device")
	// ErrUnaligned: ReadAt was given an offset that is not a multiple of
	// the logical block size, or one whose read would pass the end of the
	// device.
	ErrUnaligned = errors.New("blockdev: offset not aligned or out of range")
	// ErrInvalidStat: ParseStat was given text that is not a
	// /sys/block/NAME/stat line.
	ErrInvalidStat = errors.New("blockdev: invalid block device stat")
)
