package sysfs

import (
	"errors"
	"fmt"
	iofs "io/fs"
	"math"
	"path"
	"strconv"

	"github.com/nvmeapst/nvmeapst/apst"
)

// SetLatencyTolerance writes value to the controller's
// power/pm_qos_latency_tolerance_us and returns the tolerance before and
// after.
//
// The value is validated first, by the rules of the kernel's store handler
// (apst.ParseTolerance): a value the kernel would reject (a negative number,
// one above 2147483647, trailing garbage, two keywords) is refused with an
// error wrapping apst.ErrInvalidTolerance that says why, and nothing is
// written. A valid value is written in its canonical form (Tolerance.String:
// "auto", "any" or the decimal number, so "0x10" is written as "16"), then
// read back: the kernel normalises 2147483647 to "any", which counts as the
// same value, and any other difference is an error wrapping ErrReadBack.
//
// A controller without the attribute (the kernel has APST disabled for it)
// is an error wrapping ErrAPSTDisabled and os.ErrNotExist; a controller that
// does not exist is an error wrapping os.ErrNotExist; writing without the
// right gives an error wrapping os.ErrPermission.
func (fs FS) SetLatencyTolerance(name, value string) (old, new apst.Tolerance, err error) {
	fs = fs.outsideSession()
	rel := path.Join(controllerDir(name), attrTolerance)
	want, err := apst.ParseTolerance(value)
	if err != nil {
		return old, new, fmt.Errorf("sysfs: %s: nothing written: %w", fs.path(rel), err)
	}
	if err := fs.checkController(name); err != nil {
		return old, new, err
	}
	cur, err := fs.read(rel)
	if isNotExist(err) {
		return old, new, fmt.Errorf("%w: %s has no %s (APSTA is 0, or a NO_APST quirk applies without nvme_core.force_apst): %w",
			ErrAPSTDisabled, name, attrTolerance, pathError(err))
	}
	if err != nil {
		return old, new, attrError(err, "; nothing written")
	}
	if old, err = apst.ParseTolerance(cur); err != nil {
		return old, new, fmt.Errorf("%w: %s: nothing written: %w", ErrInvalidAttribute, fs.path(rel), err)
	}
	if err := fs.write(rel, want.String()); err != nil {
		return old, new, err
	}
	back, err := fs.read(rel)
	if err != nil {
		return old, new, err
	}
	if new, err = apst.ParseTolerance(back); err != nil {
		return old, new, fmt.Errorf("%w: %s: wrote %q, reads back %q", ErrReadBack, fs.path(rel), want.String(), back)
	}
	if new != want {
		return old, new, fmt.Errorf("%w: %s: wrote %q, reads back %q", ErrReadBack, fs.path(rel), want.String(), back)
	}
	return old, new, nil
}

// SetCPULatency writes us to the controller's cpu_latency_us, the knob of the
// proposed nvme-pci CPU latency QoS patch, and returns the values before and
// after. us must be -1 (off) or 0 to 2147483647 µs; anything else is refused
// with an error wrapping ErrInvalidCPULatency and nothing is written (the
// patched kernel also takes other negative numbers as off, but -1 is the
// value it starts with and the only one this package writes for off).
//
// On a kernel without the patch the attribute does not exist and the error
// says "not supported by this kernel", wrapping errors.ErrUnsupported and
// os.ErrNotExist. The value is read back as SetLatencyTolerance does.
func (fs FS) SetCPULatency(name string, us int64) (old, new int64, err error) {
	if err := checkLatency(us, true); err != nil {
		return 0, 0, err
	}
	if err := fs.checkController(name); err != nil {
		return 0, 0, err
	}
	return fs.setInt(path.Join(controllerDir(name), attrCPULatency), us,
		"the nvme-pci CPU latency QoS patch")
}

// SetDiskCPULatencyLimit writes us to block/disk/cpu_lat_limit_us, the limit
// of the proposed block-layer CPU latency QoS patch, and returns the values
// before and after: -1 turns the limit off, 0 to 2147483647 is a limit in µs,
// anything else is refused (ErrInvalidCPULatency) with nothing written. The
// patched kernel ignores a value it cannot parse without an error, which the
// read-back catches (ErrReadBack). A kernel without the patch gives an error
// wrapping errors.ErrUnsupported and os.ErrNotExist.
func (fs FS) SetDiskCPULatencyLimit(disk string, us int64) (old, new int64, err error) {
	if err := checkLatency(us, true); err != nil {
		return 0, 0, err
	}
	if err := fs.checkDisk(disk); err != nil {
		return 0, 0, err
	}
	return fs.setInt(path.Join(diskDir(disk), attrDiskLimit), us, "the block-layer CPU latency QoS patch")
}

// SetDiskCPULatencyTimeout writes ms to block/disk/cpu_lat_timeout_ms, how
// long after the last block I/O the limit is dropped, and returns the values
// before and after. ms must be 0 to 2147483647; otherwise it behaves as
// SetDiskCPULatencyLimit.
func (fs FS) SetDiskCPULatencyTimeout(disk string, ms int64) (old, new int64, err error) {
	if err := checkLatency(ms, false); err != nil {
		return 0, 0, err
	}
	if err := fs.checkDisk(disk); err != nil {
		return 0, 0, err
	}
	return fs.setInt(path.Join(diskDir(disk), attrDiskTime), ms, "the block-layer CPU latency QoS patch")
}

// checkLatency validates a CPU latency value: an s32, and -1 only when off is
// allowed.
func checkLatency(v int64, offAllowed bool) error {
	if v >= 0 && v <= math.MaxInt32 {
		return nil
	}
	if offAllowed {
		if v == -1 {
			return nil
		}
		return fmt.Errorf("%w %d: want -1 (off) or 0 to %d; nothing written", ErrInvalidCPULatency, v, math.MaxInt32)
	}
	return fmt.Errorf("%w %d: want 0 to %d; nothing written", ErrInvalidCPULatency, v, math.MaxInt32)
}

// checkController validates name and makes sure the controller exists.
func (fs FS) checkController(name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	if _, err := fs.stat(controllerDir(name)); err != nil {
		return fmt.Errorf("sysfs: controller %s: %w", name, stripPrefix(err))
	}
	return nil
}

// checkDisk validates name and makes sure the disk exists.
func (fs FS) checkDisk(name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	if _, err := fs.stat(diskDir(name)); err != nil {
		return fmt.Errorf("sysfs: disk %s: %w", name, stripPrefix(err))
	}
	return nil
}

// outsideSession is fs for a write: its reads, of the value before and of
// the value after, are the tree's now, not a session's earlier view (a
// session still returns that view to later reads; see FS.Session).
func (fs FS) outsideSession() FS {
	fs.sess = nil
	return fs
}

// setInt is the read, write, read-back discipline for a decimal s32
// attribute; patch names what a kernel lacks when the attribute is absent.
func (fs FS) setInt(rel string, v int64, patch string) (old, new int64, err error) {
	fs = fs.outsideSession()
	p := fs.path(rel)
	cur, err := fs.read(rel)
	if isNotExist(err) {
		return 0, 0, fmt.Errorf("sysfs: %s not supported by this kernel (it lacks %s): %w: %w",
			path.Base(rel), patch, errors.ErrUnsupported, pathError(err))
	}
	if err != nil {
		return 0, 0, attrError(err, "; nothing written")
	}
	if old, err = parseInt(p, cur, 32); err != nil {
		return 0, 0, fmt.Errorf("%w; nothing written", err)
	}
	want := strconv.FormatInt(v, 10)
	if err := fs.write(rel, want); err != nil {
		return old, 0, err
	}
	back, err := fs.read(rel)
	if err != nil {
		return old, 0, err
	}
	new, perr := strconv.ParseInt(back, 10, 32)
	if perr != nil || new != v {
		return old, new, fmt.Errorf("%w: %s: wrote %q, reads back %q", ErrReadBack, p, want, back)
	}
	return old, new, nil
}

// pathError returns the *fs.PathError inside err, so that a message built
// around it does not repeat the "sysfs: " prefix; err itself otherwise.
func pathError(err error) error {
	var pe *iofs.PathError
	if errors.As(err, &pe) {
		return pe
	}
	return err
}
