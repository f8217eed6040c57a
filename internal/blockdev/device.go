package blockdev

import "fmt"

// ReadSize is the size of one read: 4 KiB, or the logical block size when
// that is larger (O_DIRECT reads must be whole logical blocks).
const ReadSize = 4096

// Device is a block device opened read-only with O_DIRECT by Open. The
// zero value is not usable; every method of a closed Device fails.
type Device struct {
	path string
	size int64 // bytes
	lbs  int   // logical block size in bytes
	sys  sysDevice
}

// Path returns the path the device was opened with.
func (d *Device) Path() string { return d.path }

// Size returns the size of the device in bytes.
func (d *Device) Size() int64 { return d.size }

// LogicalBlockSize returns the logical block size in bytes (BLKSSZGET).
func (d *Device) LogicalBlockSize() int { return d.lbs }

// ReadLength returns the number of bytes ReadAt reads: ReadSize, or the
// logical block size when that is larger.
func (d *Device) ReadLength() int { return max(ReadSize, d.lbs) }

// ReadAt reads ReadLength bytes at byte offset off into the device's own
// aligned buffer and returns when the read has completed; the data are
// discarded. off must be a multiple of the logical block size with the
// whole read inside the device, or the error wraps ErrUnaligned and
// nothing is read.
func (d *Device) ReadAt(off int64) error {
	n := int64(d.ReadLength())
	if d.lbs <= 0 || off < 0 || off%int64(d.lbs) != 0 || off > d.size-n {
		return fmt.Errorf("%w: %s: offset %d, want a multiple of %d from 0 to %d", ErrUnaligned, d.path, off, d.lbs, d.size-n)
	}
	return d.sys.readAt(d.path, off)
}

// Close releases the file and the buffer. It is safe to call twice.
func (d *Device) Close() error { return d.sys.close(d.path) }
