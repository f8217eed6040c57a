package trace

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors; the errors the Reader returns wrap them.
var (
	// ErrUnknownFormat: the content matches no format, or a format name
	// is not known.
	ErrUnknownFormat = errors.New("trace: unknown trace format")
	// ErrFioV2: a fio iolog of version 2, which records no timestamps.
	ErrFioV2 = errors.New("trace: fio iolog version 2 has no timestamps; a version 3 iolog is needed")
	// ErrSyntax: a line that cannot be read (see SyntaxError).
	ErrSyntax = errors.New("trace: malformed line")
	// ErrLineTooLong: a line longer than Options.MaxLineLength.
	ErrLineTooLong = errors.New("trace: line too long")
	// ErrOutOfOrder: an event earlier than one already returned, further
	// out of place than the reorder window allows.
	ErrOutOfOrder = errors.New("trace: event out of time order beyond the reorder window")
	// ErrDevice: no device, or several, match the selection (see
	// DeviceError).
	ErrDevice = errors.New("trace: device selection")
	// ErrOptions: invalid Options.
	ErrOptions = errors.New("trace: invalid options")
	// ErrClosed: Next on a Reader after Close.
	ErrClosed = errors.New("trace: Reader closed")
	// ErrNotInitialized: a Reader that NewReader did not create.
	ErrNotInitialized = errors.New("trace: Reader not created with NewReader")
)

// SyntaxError is a line of a trace that cannot be read.
//
// The zero SyntaxError wraps no sentinel (Unwrap returns nil), so errors.Is
// finds neither ErrSyntax, ErrLineTooLong nor ErrOutOfOrder in it; its
// Error names line 0.
type SyntaxError struct {
	// Format is the trace's format.
	Format Format
	// Line is the 1-based line number.
	Line int
	// Expected says what the line should have been.
	Expected string
	// Text is the start of the offending line (at most 80 bytes).
	Text string
	// Err is the sentinel: ErrSyntax, ErrLineTooLong or ErrOutOfOrder.
	Err error
}

// Error formats the error as
// `trace: blkparse line 12: expected ...: got "..."`.
func (e *SyntaxError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "trace: %s line %d: ", e.Format, e.Line)
	switch {
	case e.Err == ErrLineTooLong:
		b.WriteString("line too long")
		if e.Expected != "" {
			b.WriteString(": " + e.Expected)
		}
		return b.String()
	case e.Err == ErrOutOfOrder:
		b.WriteString("event out of time order beyond the reorder window")
		if e.Expected != "" {
			b.WriteString(": " + e.Expected)
		}
		return b.String()
	}
	b.WriteString("expected " + e.Expected)
	if e.Text != "" || e.Err == ErrSyntax {
		fmt.Fprintf(&b, ": got %q", e.Text)
	}
	return b.String()
}

// Unwrap returns the sentinel (ErrSyntax, ErrLineTooLong or ErrOutOfOrder).
func (e *SyntaxError) Unwrap() error { return e.Err }

// DeviceError says that the device selection does not give one device:
// several devices and none selected, or the selected one absent.
//
// The zero DeviceError still wraps ErrDevice; its Error reports a trace
// with no device found and none selected.
type DeviceError struct {
	// Format is the trace's format.
	Format Format
	// Selected is the device asked for, "" when none was.
	Selected string
	// Found lists the devices the trace has events for, sorted, at most
	// MaxDevicesListed of them.
	Found []string
	// More reports that the trace has more devices than Found lists.
	More bool
}

// MaxDevicesListed bounds DeviceError.Found, so that memory stays bounded
// whatever the trace.
const MaxDevicesListed = 64

// Error formats the error, e.g. "trace: blkparse trace has events for 2
// devices (259,0, 8,0): select one device (MAJ,MIN)" or "trace: disk (NAME)
// sdb not in the biosnoop trace; found: nvme0n1, sda".
func (e *DeviceError) Error() string {
	list := strings.Join(e.Found, ", ")
	if e.More {
		list += ", ..."
	}
	what := "device (MAJ,MIN)"
	switch e.Format {
	case FormatBiosnoop, FormatBiosnoopBpftrace:
		what = "disk (NAME)"
	case FormatFioIolog:
		what = "file (NAME)"
	}
	if e.Selected != "" {
		if len(e.Found) == 0 {
			return fmt.Sprintf("trace: %s %s not in the %s trace, which has no events", what, e.Selected, e.Format)
		}
		return fmt.Sprintf("trace: %s %s not in the %s trace; found: %s", what, e.Selected, e.Format, list)
	}
	n := fmt.Sprint(len(e.Found))
	if e.More {
		n = "more than " + n
	}
	return fmt.Sprintf("trace: %s trace has events for %s devices (%s): select one %s", e.Format, n, list, what)
}

// Unwrap returns ErrDevice.
func (e *DeviceError) Unwrap() error { return ErrDevice }
