package sysfs

import (
	"errors"
	"os"

	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// Sentinel errors of the package; returned errors wrap them so that callers
// can test with errors.Is. Errors from the filesystem additionally wrap the
// *fs.PathError, so os.ErrNotExist and os.ErrPermission match too.
var (
	// ErrInvalidName: a controller or disk name that is not a single path
	// element (empty, ".", "..", or containing a separator).
	ErrInvalidName = errors.New("sysfs: invalid controller or disk name")
	// ErrInvalidAttribute: an attribute whose content is not what the kernel
	// prints for it (for example a cntlid that is not a number).
	ErrInvalidAttribute = errors.New("sysfs: malformed attribute value")
	// ErrAPSTDisabled: a latency tolerance write to a controller without
	// power/pm_qos_latency_tolerance_us, which the kernel removes while it
	// has APST disabled for the controller. Errors wrapping it also wrap
	// os.ErrNotExist.
	ErrAPSTDisabled = errors.New("sysfs: the kernel has APST disabled for this controller")
	// ErrInvalidCPULatency: a CPU latency value outside what SetCPULatency,
	// SetDiskCPULatencyLimit or SetDiskCPULatencyTimeout accept. Nothing was
	// written.
	ErrInvalidCPULatency = errors.New("sysfs: invalid CPU latency value")
	// ErrReadBack: the value read back after a write is not the value
	// written (the kernel ignored or changed it).
	ErrReadBack = errors.New("sysfs: value read back differs from the value written")
	// ErrZeroFS: a method called on the zero FS, which has no root. Build
	// one with NewFS or NewDefaultFS.
	ErrZeroFS = errors.New("sysfs: zero FS has no root; build one with sysfs.NewFS or sysfs.NewDefaultFS")
	// ErrNotRegular: a path of the tree that is not a regular file where an
	// attribute file is read or written (a named pipe, a socket, a device, a
	// directory). Such a file is unreadable, not absent.
	ErrNotRegular = safeio.ErrNotRegular
	// ErrIncomplete: NewFS given a directory that a collect had not finished
	// writing (see IncompleteMarker).
	ErrIncomplete = errors.New("sysfs: incomplete snapshot")
	// ErrUnreadableInSnapshot: a file the snapshot records as existing but
	// unreadable, when it was taken or in the bundle now (see
	// FS.WithSnapshot). It is unreadable, never absent.
	ErrUnreadableInSnapshot = errors.New("sysfs: file unreadable in the snapshot")
	// ErrMissingController: a controller the snapshot lists that the tree
	// does not hold. Errors wrapping it also wrap os.ErrNotExist.
	ErrMissingController = errors.New("sysfs: controller listed in the snapshot is missing from the tree")

	// ErrNoControllers: class/nvme exists and lists no controller (the
	// driver is loaded and every drive is gone, or a tree or bundle of
	// none). Errors wrapping it also wrap os.ErrNotExist, as a missing
	// class/nvme does: an empty scope is refused, never an empty answer.
	ErrNoControllers error = noControllersError{}

	// ErrNotSysfs is wrapped by the error of a tree that is no sysfs at
	// all (no class directory): a --root given the wrong directory, or a
	// machine whose /sys is not mounted.
	ErrNotSysfs = errors.New("sysfs: not a sysfs tree")
)

// noControllersError is ErrNoControllers: it is os.ErrNotExist too.
type noControllersError struct{}

func (noControllersError) Error() string     { return "sysfs: class/nvme lists no controller" }
func (noControllersError) Is(err error) bool { return err == os.ErrNotExist }
