package blockdev

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"unsafe"
)

// blkSSZGet is BLKSSZGET, _IO(0x12, 104): the logical block size as an int.
const blkSSZGet = 0x1268

// sysDevice is the open file descriptor and the page-aligned read buffer.
type sysDevice struct {
	fd  int // -1 once closed
	buf []byte
}

// Open opens the block device at path (e.g. /dev/nvme0n1) with
// O_RDONLY|O_DIRECT and reads its size and logical block size. A path that
// is not a block device is an error wrapping ErrNotBlockDevice; a missing
// right an error wrapping os.ErrPermission.
func Open(path string) (*Device, error) {
	fd, err := openRetry(path)
	if err != nil {
		return nil, &os.PathError{Op: "blockdev: open O_RDONLY|O_DIRECT", Path: path, Err: err}
	}
	d := &Device{path: path, sys: sysDevice{fd: fd}}
	if err := d.init(); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	return d, nil
}

func openRetry(path string) (int, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECT|syscall.O_CLOEXEC|syscall.O_NOCTTY, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

func (d *Device) init() error {
	fd := d.sys.fd
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return &os.PathError{Op: "blockdev: fstat", Path: d.path, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFBLK {
		return fmt.Errorf("%w: %s (mode %#o; want a namespace such as /dev/nvme0n1, not the controller /dev/nvme0)", ErrNotBlockDevice, d.path, st.Mode&syscall.S_IFMT)
	}
	size, err := syscall.Seek(fd, 0, io.SeekEnd)
	if err != nil {
		return &os.PathError{Op: "blockdev: seek to end", Path: d.path, Err: err}
	}
	var lbs int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), blkSSZGet, uintptr(unsafe.Pointer(&lbs))); e != 0 {
		return &os.PathError{Op: "blockdev: BLKSSZGET", Path: d.path, Err: e}
	}
	if lbs < 512 || lbs&(lbs-1) != 0 || lbs > 1<<16 {
		return fmt.Errorf("blockdev: %s: logical block size %d, want a power of two from 512 to 65536", d.path, lbs)
	}
	d.size, d.lbs = size, int(lbs)
	if size < int64(d.ReadLength()) {
		return fmt.Errorf("blockdev: %s: %d bytes, smaller than one read of %d", d.path, size, d.ReadLength())
	}
	// An anonymous mapping is page-aligned, as O_DIRECT wants its buffer.
	buf, err := syscall.Mmap(-1, 0, d.ReadLength(), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return fmt.Errorf("blockdev: %s: read buffer: %w", d.path, err)
	}
	d.sys.buf = buf
	return nil
}

func (s *sysDevice) readAt(path string, off int64) error {
	if s.fd < 0 {
		return &os.PathError{Op: "blockdev: read", Path: path, Err: os.ErrClosed}
	}
	for {
		n, err := syscall.Pread(s.fd, s.buf, off)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return &os.PathError{Op: fmt.Sprintf("blockdev: read %d bytes at %d", len(s.buf), off), Path: path, Err: err}
		}
		if n != len(s.buf) {
			return fmt.Errorf("blockdev: %s: read %d bytes at %d, got %d: %w", path, len(s.buf), off, n, io.ErrUnexpectedEOF)
		}
		return nil
	}
}

func (s *sysDevice) close(path string) error {
	if s.fd < 0 {
		return nil
	}
	err := syscall.Close(s.fd)
	s.fd = -1
	if s.buf != nil {
		err = errors.Join(err, syscall.Munmap(s.buf))
		s.buf = nil
	}
	if err != nil {
		return fmt.Errorf("blockdev: close %s: %w", path, err)
	}
	return nil
}
