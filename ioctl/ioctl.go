package ioctl

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Controller is the command path to one NVMe controller: the seam between
// code that needs a controller's data and the device that answers. *Device
// implements it on Linux; ioctltest.Device is a fake for tests.
//
// Implementations must be safe for concurrent use. A cancelled or expired
// ctx stops a command from being sent; it does not interrupt one already
// sent to the controller.
type Controller interface {
	// IdentifyController returns the 4096-byte Identify Controller data
	// structure (CNS 01h), to decode with powerstate.DecodeIdentify.
	IdentifyController(ctx context.Context) ([]byte, error)
	// GetAPST returns the Autonomous Power State Transition feature
	// (Get Features FID 0Ch, current value): APSTE from completion dword 0
	// and the 256-byte table.
	GetAPST(ctx context.Context) (apst.Feature, error)
	// GetPowerManagement returns the Power Management feature (FID 02h,
	// current value): the power state the controller is in and its workload
	// hint.
	GetPowerManagement(ctx context.Context) (PowerManagement, error)
	// Close releases the controller.
	Close() error
}

// PowerManagement is the Power Management feature (FID 02h), decoded by
// package apst ([apst.DecodePowerManagement]); the name stays so that
// callers of the transport keep compiling.
type PowerManagement = apst.PowerManagement

// Names of the commands, as CommandError.Op reports them.
const (
	OpIdentifyController = "identify controller"             // Identify, CNS 01h
	OpGetAPST            = "get features (APST)"             // Get Features, FID 0Ch
	OpGetPowerManagement = "get features (power management)" // Get Features, FID 02h
	OpGetHealthLog       = "get log page (SMART / health)"   // Get Log Page, LID 02h
)

// HealthLogSize is the size of the SMART / Health Information log page.
const HealthLogSize = 512

// HealthLogger is implemented by controllers that can read the SMART /
// Health Information log page (Get Log Page, LID 02h): *Device and
// ioctltest.Device. It is separate from Controller so that other
// implementations of Controller keep compiling; callers test for it.
type HealthLogger interface {
	// HealthLog returns the 512-byte log page, for the whole controller
	// (NSID FFFFFFFFh). Decode it with diagnose.DecodeHealthLog.
	HealthLog(ctx context.Context) ([]byte, error)
}

// Admin command encodings (NVMe Base Specification).
const (
	opcodeGetLogPage   = 0x02
	lidHealth          = 0x02
	nsidAll            = 0xffffffff
	opcodeIdentify     = 0x06
	opcodeGetFeatures  = 0x0a
	cnsController      = 0x01 // Identify CDW10 bits 7:0
	fidPowerManagement = 0x02 // Get Features CDW10 bits 7:0
	fidAPST            = 0x0c
	selCurrent         = 0 // Get Features CDW10 bits 10:8
)

// command is one admin command as the OS side submits it.
type command struct {
	op     string
	opcode uint8
	nsid   uint32
	cdw10  uint32
	cdw11  uint32
}

// submitter is the OS side of a Device.
type submitter interface {
	// submit sends c with data as the controller-to-host buffer. errno is
	// the error of a failed ioctl (nil on success); status is the NVMe
	// status when the ioctl returned one; err is any other failure (a
	// closed device).
	submit(c *command, data []byte) (result uint32, status uint16, errno, err error)
	close() error
}

// Device is an open NVMe controller character device. Its methods are safe
// for concurrent use.
//
// The zero Device is not open: Path returns "" and every command, and
// Close, fail with an error (wrapping os.ErrInvalid on Linux,
// ErrUnsupported elsewhere).
type Device struct {
	path string
	s    submitter
}

var _ Controller = (*Device)(nil)

// Open opens the NVMe controller character device at path (/dev/nvmeN)
// read-only. Anything else is refused with an error wrapping
// ErrNotController that says what the path is (a namespace gets a hint to
// use its controller); a path that cannot be opened gives the *fs.PathError
// wrapped (os.ErrNotExist, os.ErrPermission). On systems other than Linux it
// returns an error matching ErrUnsupported.
func Open(path string) (*Device, error) {
	s, err := open(path)
	if err != nil {
		return nil, err
	}
	return &Device{path: path, s: s}, nil
}

// Path returns the path the Device was opened with ("" for a nil or zero
// Device).
func (d *Device) Path() string {
	if d == nil {
		return ""
	}
	return d.path
}

// IdentifyController sends Identify with CNS 01h and returns the 4096-byte
// Identify Controller data structure.
func (d *Device) IdentifyController(ctx context.Context) ([]byte, error) {
	buf := make([]byte, powerstate.IdentifySize)
	c := command{op: OpIdentifyController, opcode: opcodeIdentify, cdw10: cnsController}
	if _, err := d.do(ctx, &c, buf); err != nil {
		return nil, err
	}
	return buf, nil
}

// GetAPST sends Get Features for FID 0Ch with SEL 0 (current) and a 256-byte
// buffer, and decodes APSTE from completion dword 0 and the table.
func (d *Device) GetAPST(ctx context.Context) (apst.Feature, error) {
	buf := make([]byte, apst.TableSize)
	c := command{op: OpGetAPST, opcode: opcodeGetFeatures, cdw10: fidAPST | selCurrent<<8}
	dw0, err := d.do(ctx, &c, buf)
	if err != nil {
		return apst.Feature{}, err
	}
	return apst.DecodeFeature(dw0, buf)
}

// GetPowerManagement sends Get Features for FID 02h with SEL 0 (current) and
// decodes completion dword 0.
func (d *Device) GetPowerManagement(ctx context.Context) (PowerManagement, error) {
	c := command{op: OpGetPowerManagement, opcode: opcodeGetFeatures, cdw10: fidPowerManagement | selCurrent<<8}
	dw0, err := d.do(ctx, &c, nil)
	if err != nil {
		return PowerManagement{}, err
	}
	return apst.DecodePowerManagement(dw0), nil
}

// HealthLog sends Get Log Page for LID 02h (SMART / Health Information) over
// the whole controller and returns the 512-byte page.
func (d *Device) HealthLog(ctx context.Context) ([]byte, error) {
	buf := make([]byte, HealthLogSize)
	numdl := uint32(HealthLogSize/4 - 1)
	c := command{op: OpGetHealthLog, opcode: opcodeGetLogPage, nsid: nsidAll, cdw10: lidHealth | numdl<<16}
	if _, err := d.do(ctx, &c, buf); err != nil {
		return nil, err
	}
	return buf, nil
}

var _ HealthLogger = (*Device)(nil)

// Close closes the device. Commands sent after Close fail with an error
// wrapping os.ErrClosed.
func (d *Device) Close() error {
	if d == nil || d.s == nil {
		return errNotOpen("close")
	}
	return d.s.close()
}

// do checks ctx, submits c and turns a failure into an error.
func (d *Device) do(ctx context.Context, c *command, data []byte) (uint32, error) {
	if d == nil || d.s == nil {
		return 0, errNotOpen(c.op)
	}
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("ioctl: %s: %w", c.op, err)
	}
	result, status, errno, err := d.s.submit(c, data)
	switch {
	case err != nil:
		return 0, fmt.Errorf("ioctl: %s %s: %w", c.op, d.path, err)
	case errno != nil:
		return 0, &CommandError{Op: c.op, Errno: errno}
	case status != 0:
		return 0, &CommandError{Op: c.op, Status: status}
	}
	return result, nil
}

// ErrUnsupported is returned (wrapped) where this package cannot send NVMe
// admin commands: by Open on every system but Linux, and by a command whose
// ioctls the device does not know (ENOTTY from both). errors.Is(err,
// errors.ErrUnsupported) is true for it too. Its message is "ioctl: not
// supported on GOOS/GOARCH".
var ErrUnsupported error = unsupportedError{}

type unsupportedError struct{}

func (unsupportedError) Error() string {
	return "ioctl: not supported on " + runtime.GOOS + "/" + runtime.GOARCH
}

func (unsupportedError) Is(target error) bool { return target == errors.ErrUnsupported }

// ErrNotController is wrapped by the error Open returns for a path that is
// not an NVMe controller character device.
var ErrNotController = errors.New("ioctl: not an NVMe controller character device")

// CommandError reports a command that failed: either the ioctl failed (Errno
// is set) or the controller completed the command with a non-zero NVMe
// status (Status is set).
//
// The zero CommandError names no command and reports NVMe status 0
// (Successful Completion) with no Errno: Unwrap returns nil and Is matches
// nothing.
type CommandError struct {
	// Op names the command, e.g. OpGetAPST.
	Op string
	// Status is the NVMe status field as the kernel returns it (the
	// completion queue entry's status without the phase bit): SC in bits
	// 7:0, SCT in 10:8, CRD in 12:11, More in 13, DNR in 14. See Status.
	Status uint16
	// Errno is the error of the failed ioctl, a syscall.Errno on Linux; nil
	// when the controller returned a status.
	Errno error
}

var _ interface{ Unwrap() error } = (*CommandError)(nil)

// Error says which command failed and why, with what privilege is needed
// for a permission error.
func (e *CommandError) Error() string {
	switch {
	case e.Errno != nil && errors.Is(e.Errno, os.ErrPermission):
		return fmt.Sprintf("ioctl: %s: %v: %s", e.Op, e.Errno, privilegeHint(e.Op))
	case e.Errno != nil && isNotTTY(e.Errno):
		return fmt.Sprintf("ioctl: %s: %v: the device takes neither NVMe admin passthrough ioctl", e.Op, e.Errno)
	case e.Errno != nil:
		return fmt.Sprintf("ioctl: %s: %v", e.Op, e.Errno)
	}
	return fmt.Sprintf("ioctl: %s: NVMe status %#04x: %s", e.Op, e.Status, Status(e.Status))
}

func privilegeHint(op string) string {
	if op == OpIdentifyController {
		return "NVMe admin commands need CAP_SYS_ADMIN (run as root); kernels since v6.2 allow Identify without it"
	}
	return "Get Features needs CAP_SYS_ADMIN (run as root); without it kernels allow Identify only, and only since v6.2"
}

// Unwrap returns Errno.
func (e *CommandError) Unwrap() error { return e.Errno }

// Is makes errors.Is(err, os.ErrPermission) true for EACCES and EPERM, and
// errors.Is(err, ErrUnsupported) and errors.Is(err, errors.ErrUnsupported)
// true for ENOTTY (a device that knows neither passthrough ioctl).
func (e *CommandError) Is(target error) bool {
	if e.Errno == nil {
		return false
	}
	switch target {
	case os.ErrPermission:
		return errors.Is(e.Errno, os.ErrPermission)
	case ErrUnsupported, errors.ErrUnsupported:
		return isNotTTY(e.Errno)
	}
	return false
}

// Status is an NVMe completion status field as the Linux passthrough ioctls
// return it: the 15 bits above the phase tag of completion dword 3.
type Status uint16

// Status code types (SCT).
const (
	SCTGeneric         = 0x0 // Generic Command Status
	SCTCommandSpecific = 0x1 // Command Specific Status
	SCTMediaError      = 0x2 // Media and Data Integrity Errors
	SCTPath            = 0x3 // Path Related Status
	SCTVendor          = 0x7 // Vendor Specific
)

// SC returns the Status Code, bits 7:0.
func (s Status) SC() uint8 { return uint8(s) }

// SCT returns the Status Code Type, bits 10:8.
func (s Status) SCT() uint8 { return uint8(s>>8) & 0x7 }

// Code returns SCT and SC together (bits 10:0), the key for Name.
func (s Status) Code() uint16 { return uint16(s) & 0x7ff }

// CRD returns the Command Retry Delay index, bits 12:11.
func (s Status) CRD() uint8 { return uint8(s>>11) & 0x3 }

// More reports the More bit (13): more status in the Error Information log.
func (s Status) More() bool { return s&(1<<13) != 0 }

// DNR reports the Do Not Retry bit (14).
func (s Status) DNR() bool { return s&(1<<14) != 0 }

// Name returns the specification's name for the status code, or "" for a
// code the table does not know.
func (s Status) Name() string { return statusNames[s.Code()] }

// String formats the status as its name, code type and code, and flags:
// "Invalid Field in Command (generic, SC 02h, DNR)".
func (s Status) String() string {
	name := s.Name()
	if name == "" {
		name = "unknown status"
	}
	parts := []string{sctNames[s.SCT()], fmt.Sprintf("SC %02Xh", s.SC())}
	if s.CRD() != 0 {
		parts = append(parts, fmt.Sprintf("CRD %d", s.CRD()))
	}
	if s.More() {
		parts = append(parts, "More")
	}
	if s.DNR() {
		parts = append(parts, "DNR")
	}
	return name + " (" + strings.Join(parts, ", ") + ")"
}

var sctNames = [8]string{
	SCTGeneric:         "generic",
	SCTCommandSpecific: "command specific",
	SCTMediaError:      "media error",
	SCTPath:            "path related",
	4:                  "SCT 4h",
	5:                  "SCT 5h",
	6:                  "SCT 6h",
	SCTVendor:          "vendor specific",
}

// statusNames holds the status codes of the NVMe Base Specification, keyed
// by SCT<<8 | SC.
var statusNames = map[uint16]string{
	// Generic Command Status (SCT 0h).
	0x000: "Successful Completion",
	0x001: "Invalid Command Opcode",
	0x002: "Invalid Field in Command",
	0x003: "Command ID Conflict",
	0x004: "Data Transfer Error",
	0x005: "Commands Aborted due to Power Loss Notification",
	0x006: "Internal Error",
	0x007: "Command Abort Requested",
	0x008: "Command Aborted due to SQ Deletion",
	0x009: "Command Aborted due to Failed Fused Command",
	0x00a: "Command Aborted due to Missing Fused Command",
	0x00b: "Invalid Namespace or Format",
	0x00c: "Command Sequence Error",
	0x00d: "Invalid SGL Segment Descriptor",
	0x00e: "Invalid Number of SGL Descriptors",
	0x00f: "Data SGL Length Invalid",
	0x010: "Metadata SGL Length Invalid",
	0x011: "SGL Descriptor Type Invalid",
	0x012: "Invalid Use of Controller Memory Buffer",
	0x013: "PRP Offset Invalid",
	0x014: "Atomic Write Unit Exceeded",
	0x015: "Operation Denied",
	0x016: "SGL Offset Invalid",
	0x018: "Host Identifier Inconsistent Format",
	0x019: "Keep Alive Timer Expired",
	0x01a: "Keep Alive Timeout Invalid",
	0x01b: "Command Aborted due to Preempt and Abort",
	0x01c: "Sanitize Failed",
	0x01d: "Sanitize In Progress",
	0x01e: "SGL Data Block Granularity Invalid",
	0x01f: "Command Not Supported for Queue in CMB",
	0x020: "Namespace is Write Protected",
	0x021: "Command Interrupted",
	0x022: "Transient Transport Error",
	0x024: "Admin Command Media Not Ready",
	0x080: "LBA Out of Range",
	0x081: "Capacity Exceeded",
	0x082: "Namespace Not Ready",
	0x083: "Reservation Conflict",
	0x084: "Format In Progress",

	// Command Specific Status (SCT 1h).
	0x100: "Completion Queue Invalid",
	0x101: "Invalid Queue Identifier",
	0x102: "Invalid Queue Size",
	0x103: "Abort Command Limit Exceeded",
	0x105: "Asynchronous Event Request Limit Exceeded",
	0x106: "Invalid Firmware Slot",
	0x107: "Invalid Firmware Image",
	0x108: "Invalid Interrupt Vector",
	0x109: "Invalid Log Page",
	0x10a: "Invalid Format",
	0x10b: "Firmware Activation Requires Conventional Reset",
	0x10c: "Invalid Queue Deletion",
	0x10d: "Feature Identifier Not Saveable",
	0x10e: "Feature Not Changeable",
	0x10f: "Feature Not Namespace Specific",
	0x110: "Firmware Activation Requires NVM Subsystem Reset",
	0x111: "Firmware Activation Requires Controller Level Reset",
	0x112: "Firmware Activation Requires Maximum Time Violation",
	0x113: "Firmware Activation Prohibited",
	0x114: "Overlapping Range",

	// Media and Data Integrity Errors (SCT 2h).
	0x280: "Write Fault",
	0x281: "Unrecovered Read Error",
	0x282: "End-to-end Guard Check Error",
	0x283: "End-to-end Application Tag Check Error",
	0x284: "End-to-end Reference Tag Check Error",
	0x285: "Compare Failure",
	0x286: "Access Denied",
	0x287: "Deallocated or Unwritten Logical Block",

	// Path Related Status (SCT 3h).
	0x300: "Internal Path Error",
	0x301: "Asymmetric Access Persistent Loss",
	0x302: "Asymmetric Access Inaccessible",
	0x303: "Asymmetric Access Transition",
	0x360: "Controller Pathing Error",
	0x370: "Host Pathing Error",
	0x371: "Command Aborted By Host",
}
