//go:build linux

package ioctl

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// The admin ioctl a device has been found to take.
const (
	modeUnknown uint32 = iota // not tried yet: try the 64-bit one
	mode64                    // NVME_IOCTL_ADMIN64_CMD works
	mode32                    // the kernel lacks it: NVME_IOCTL_ADMIN_CMD
)

// device is an open controller character device.
type device struct {
	f      *os.File
	rc     syscall.RawConn
	mode   atomic.Uint32
	closed atomic.Bool
}

var (
	controllerNode = regexp.MustCompile(`^nvme[0-9]+$`)
	namespaceNode  = regexp.MustCompile(`^(?:nvme|ng)([0-9]+)n[0-9]+(?:p[0-9]+)?$`)
)

// sysDevChar is where sysfs maps character device numbers to devices.
const sysDevChar = "/sys/dev/char"

// open checks that path is an NVMe controller character device, opens it
// read-only and checks that it opened the device it checked.
func open(path string) (submitter, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return nil, fmt.Errorf("ioctl: %w", &fs.PathError{Op: "stat", Path: path, Err: err})
	}
	rdev := uint64(st.Rdev) // Rdev is uint32 on some architectures
	if err := checkController(path, st.Mode, rdev); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, os.ErrPermission) {
			return nil, fmt.Errorf("ioctl: %w (NVMe device nodes are usually accessible to root only)", err)
		}
		return nil, fmt.Errorf("ioctl: %w", err)
	}
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("ioctl: %s: %w", path, err)
	}
	var fst unix.Stat_t
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = unix.Fstat(int(fd), &fst) }); err != nil {
		ferr = err
	}
	if ferr != nil {
		f.Close()
		return nil, fmt.Errorf("ioctl: %w", &fs.PathError{Op: "fstat", Path: path, Err: ferr})
	}
	if fst.Mode&unix.S_IFMT != unix.S_IFCHR || uint64(fst.Rdev) != rdev {
		f.Close()
		return nil, fmt.Errorf("%w: %s changed while it was being opened", ErrNotController, path)
	}
	return &device{f: f, rc: rc}, nil
}

// checkController refuses anything but an NVMe controller character device,
// saying what path is instead.
func checkController(path string, mode uint32, rdev uint64) error {
	base := filepath.Base(path)
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		base = filepath.Base(resolved)
	}
	switch mode & unix.S_IFMT {
	case unix.S_IFCHR:
	case unix.S_IFDIR:
		return fmt.Errorf("%w: %s is a directory; give a controller such as /dev/nvme0", ErrNotController, path)
	case unix.S_IFREG:
		return fmt.Errorf("%w: %s is a regular file; give a controller such as /dev/nvme0", ErrNotController, path)
	case unix.S_IFBLK:
		if m := namespaceNode.FindStringSubmatch(base); m != nil {
			return fmt.Errorf("%w: %s is an NVMe namespace (a block device); admin commands go to its controller: use the controller /dev/nvme%s",
				ErrNotController, path, m[1])
		}
		return fmt.Errorf("%w: %s is a block device, not an NVMe controller", ErrNotController, path)
	default:
		return fmt.Errorf("%w: %s is not a device", ErrNotController, path)
	}

	major, minor := unix.Major(rdev), unix.Minor(rdev)
	link := filepath.Join(sysDevChar, fmt.Sprintf("%d:%d", major, minor), "subsystem")
	target, err := os.Readlink(link)
	if err != nil {
		// No sysfs to ask (a container, say): go by the name alone.
		if controllerNode.MatchString(base) {
			return nil
		}
		if m := namespaceNode.FindStringSubmatch(base); m != nil {
			return fmt.Errorf("%w: %s looks like an NVMe namespace; use the controller /dev/nvme%s", ErrNotController, path, m[1])
		}
		return fmt.Errorf("%w: %s is a character device that is not named nvmeN, and its class cannot be read from %s (%v)",
			ErrNotController, path, link, err)
	}
	switch class := filepath.Base(target); class {
	case "nvme":
		return nil
	case "nvme-generic":
		hint := "its controller"
		if m := namespaceNode.FindStringSubmatch(base); m != nil {
			hint = "the controller /dev/nvme" + m[1]
		}
		return fmt.Errorf("%w: %s is an NVMe namespace generic device; admin commands go to its controller: use %s",
			ErrNotController, path, hint)
	default:
		return fmt.Errorf("%w: %s is a character device of class %q, not NVMe", ErrNotController, path, class)
	}
}

// submit sends c, with the 64-bit admin ioctl unless the device has been
// found not to take it.
func (d *device) submit(c *command, data []byte) (result uint32, status uint16, errno, err error) {
	if d.closed.Load() {
		return 0, 0, nil, os.ErrClosed
	}
	cerr := d.rc.Control(func(fd uintptr) {
		result, status, errno = d.send(fd, c, data)
	})
	if cerr != nil {
		if d.closed.Load() {
			cerr = os.ErrClosed
		}
		return 0, 0, nil, cerr
	}
	return result, status, errno, nil
}

// send tries NVME_IOCTL_ADMIN64_CMD first and falls back to
// NVME_IOCTL_ADMIN_CMD when the kernel does not know it (ENOTTY), remembering
// which one worked.
func (d *device) send(fd uintptr, c *command, data []byte) (uint32, uint16, error) {
	if d.mode.Load() != mode32 {
		result, status, errno := admin64(fd, c, data)
		if !errors.Is(errno, unix.ENOTTY) || d.mode.Load() == mode64 {
			d.mode.CompareAndSwap(modeUnknown, mode64)
			return result, status, errno
		}
		d.mode.Store(mode32)
	}
	return admin32(fd, c, data)
}

func (d *device) close() error {
	d.closed.Store(true)
	if err := d.f.Close(); err != nil {
		return fmt.Errorf("ioctl: %w", err)
	}
	return nil
}

// isNotTTY reports whether err is ENOTTY.
func isNotTTY(err error) bool { return errors.Is(err, unix.ENOTTY) }

// errNotOpen is the error of a command sent to a Device that Open did not
// return.
func errNotOpen(op string) error {
	return fmt.Errorf("ioctl: %s: device not open: %w", op, os.ErrInvalid)
}
