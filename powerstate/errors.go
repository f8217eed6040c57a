package powerstate

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/internal/capture"
)

// ErrImageSize is returned (wrapped in an *ImageSizeError) when an Identify
// Controller image is not exactly IdentifySize bytes long.
var ErrImageSize = errors.New("powerstate: identify controller image has the wrong size")

// ErrEnumText is wrapped by the errors of the enumerations' text
// marshalling (Format, Scale, Workload): a name that is none of the type's,
// or a value that has none. Every sentinel of the package is declared in
// this file.
var ErrEnumText = errors.New("powerstate: invalid enumeration text")

// ErrUnrepresentable is returned (wrapped) by the writers when a controller
// holds something the target format cannot carry: unknown power states, a
// string with a line break (text formats) or invalid UTF-8 (JSON), or a
// string longer than its Identify field.
var ErrUnrepresentable = errors.New("powerstate: controller cannot be written in this format")

// ImageSizeError reports an Identify Controller image of the wrong length.
type ImageSizeError struct {
	// Got is the number of bytes that came.
	Got int
}

// Error says how many bytes came and how many were expected.
func (e *ImageSizeError) Error() string {
	return fmt.Sprintf("powerstate: identify controller image is %d bytes, want exactly %d", e.Got, IdentifySize)
}

// Is makes errors.Is(err, ErrImageSize) true.
func (e *ImageSizeError) Is(target error) bool { return target == ErrImageSize }

// MaxCaptureSize is the largest capture the parsers accept, 1 MiB. A real
// capture is far smaller (an Identify image is 4096 bytes, a full
// "smartctl -x" report a few kilobytes); a larger input is refused with
// ErrTooLarge after reading at most MaxCaptureSize+1 bytes.
const MaxCaptureSize = capture.MaxSize

// Sentinel errors of the capture readers, powerstate's and apst's feature
// readers alike. Every error they return is a *ParseError whose Err wraps
// one of these (or apst.ErrIdentifyCapture), so callers can test with
// errors.Is.
var (
	// ErrUnknownFormat: the content is none of the formats Parse knows (a
	// 4096-byte Identify image, nvme-cli id-ctrl text or JSON, smartctl text
	// or JSON).
	ErrUnknownFormat = capture.ErrUnknownFormat
	// ErrTooLarge: the capture is larger than MaxCaptureSize.
	ErrTooLarge = capture.ErrTooLarge
	// ErrTruncated: the capture ends before its power state table is
	// complete (a report cut mid-table, fewer "ps" blocks than NPSS+1, JSON
	// that stops mid-value).
	ErrTruncated = capture.ErrTruncated
	// ErrSyntax: a line or value does not have the form the format prints
	// there, or a value is out of the range of its Identify field.
	ErrSyntax = capture.ErrSyntax
	// ErrNoPowerStates: the capture is of a known format but holds no power
	// state table (e.g. "smartctl -i", a SATA drive, or "smartctl -j" before
	// 7.5, which prints the table only as text).
	ErrNoPowerStates = errors.New("powerstate: capture has no power state table")
	// ErrDuplicateKey: a key the reader uses appears twice (nvme-cli
	// prints each once); the error names both lines.
	ErrDuplicateKey = capture.ErrDuplicateKey
	// ErrMultipleCaptures: the input holds more than one device's capture
	// (two reports concatenated); the error says how many and on which
	// line the second starts.
	ErrMultipleCaptures = capture.ErrMultipleCaptures
	// ErrEmpty: the capture holds nothing, or only white space.
	ErrEmpty = errors.New("powerstate: the capture is empty")
	// ErrNotIdentify: 4096 bytes (or a hex dump of them, or another
	// binary file) that are not an Identify Controller image; a
	// *NotIdentifyError says what they look like instead (CheckIdentify).
	ErrNotIdentify = errors.New("powerstate: not an identify controller image")
	// ErrFeatureCapture: the input is an APST feature capture (nvme
	// get-feature -f 0x0c), which apst.ParseFeatureCapture reads, not an
	// Identify Controller capture.
	ErrFeatureCapture = errors.New("powerstate: an APST feature capture, not an identify controller capture (read it with apst.ParseFeatureCapture)")
)

// ParseError describes why a capture could not be parsed: the format it was
// read as, the 1-based line where the problem is, what the format prints
// there, and the cause, which wraps one of the package's sentinel errors.
// It is the one parse error of the module: apst's feature capture readers
// return it too, with a feature Format.
type ParseError struct {
	// Format is the format the capture was read as (FormatUnknown when it
	// was not recognised).
	Format Format
	// Line is the 1-based line number of the problem; 0 when the problem is
	// not tied to a line (a binary image, an input that is too large). For
	// truncated captures it is the line after the last one present.
	Line int
	// Expected says what the format has at that place.
	Expected string
	// Err is the cause; it wraps one of the sentinels above (or
	// apst.ErrIdentifyCapture, or an *ImageSizeError), or is the error of
	// the reader the capture was read from.
	Err error
}

// Error formats the error as
// "powerstate: smartctl-text capture, line 31: expected ...: cause".
func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString("powerstate: ")
	if e.Format != FormatUnknown {
		b.WriteString(e.Format.String())
		b.WriteByte(' ')
	}
	b.WriteString("capture")
	if e.Line > 0 {
		b.WriteString(", line ")
		b.WriteString(strconv.Itoa(e.Line))
	}
	if e.Expected != "" {
		b.WriteString(": expected ")
		b.WriteString(e.Expected)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(strings.TrimPrefix(e.Err.Error(), "powerstate: "))
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *ParseError) Unwrap() error { return e.Err }

// maxFound bounds how much of an offending value an error quotes.
const maxFound = 60

// syntaxErr builds a ParseError for a value that is not what was expected.
func syntaxErr(f Format, line int, expected, found string) *ParseError {
	if len(found) > maxFound {
		found = found[:maxFound] + "..."
	}
	return &ParseError{Format: f, Line: line, Expected: expected,
		Err: fmt.Errorf("%w: found %q", ErrSyntax, found)}
}

// parseTextLines runs parse, the parser of a text format, on s, with
// cutAtEnd applied to its error.
func parseTextLines(s string, parse func(string) (Controller, int, error)) (Controller, int, error) {
	c, end, err := parse(s)
	if err != nil {
		return Controller{}, 0, cutAtEnd(s, err)
	}
	return c, end, nil
}

// cutAtEnd turns a syntax error on the last line of s into ErrTruncated
// when that line has no terminator: the capture was cut inside it.
func cutAtEnd(s string, err error) error {
	var pe *ParseError
	if !errors.As(err, &pe) || !errors.Is(pe.Err, ErrSyntax) || s == "" || s[len(s)-1] == '\n' || s[len(s)-1] == '\r' {
		return err
	}
	if pe.Line != capture.LineOf(s, len(s)) {
		return err
	}
	return &ParseError{Format: pe.Format, Line: pe.Line, Expected: pe.Expected + " (the capture ends inside the line)", Err: ErrTruncated}
}

// truncErr builds a ParseError for a capture that ends too early.
func truncErr(f Format, line int, expected string) *ParseError {
	return &ParseError{Format: f, Line: line, Expected: expected, Err: ErrTruncated}
}
