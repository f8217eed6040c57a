package capture

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// MaxSize is the largest capture the readers accept, 1 MiB. A real capture
// is far smaller (an Identify image is 4096 bytes, a full "smartctl -x"
// report a few kilobytes, a feature capture 256 bytes or a few hundred
// lines); a larger input is refused with ErrTooLarge after reading at most
// MaxSize+1 bytes.
const MaxSize = 1 << 20

// ErrUnrepresentable is returned (wrapped) by the writers when a controller
// holds something the target format cannot carry: unknown power states, a
// string with a line break (text formats) or invalid UTF-8 (JSON), or a
// string longer than its Identify field.
var ErrUnrepresentable = errors.New("capture: controller cannot be written in this format")

// Sentinel errors of the readers, the Identify Controller and the APST
// feature readers alike. Every error they return is a *ParseError whose
// Err wraps one of these (or a powerstate error about the image), so
// callers can test with errors.Is. Every sentinel of the package is
// declared in this file.
var (
	// ErrUnknownFormat: the content is none of the formats the reader
	// knows (for Parse: a 4096-byte Identify image, nvme-cli id-ctrl text
	// or JSON, smartctl text or JSON).
	ErrUnknownFormat = errors.New("capture: unknown capture format")
	// ErrTooLarge: the capture is larger than MaxSize.
	ErrTooLarge = errors.New("capture: capture too large")
	// ErrTruncated: the capture ends before what it must hold is complete
	// (a report cut mid-table, fewer "ps" blocks than NPSS+1, JSON that
	// stops mid-value, a feature table cut short).
	ErrTruncated = errors.New("capture: capture truncated")
	// ErrSyntax: a line or value does not have the form the tool prints
	// there, or a value is out of the range of its field.
	ErrSyntax = errors.New("capture: malformed capture")
	// ErrNoPowerStates: the capture is of a known format but holds no power
	// state table (e.g. "smartctl -i", a SATA drive, or "smartctl -j" before
	// 7.5, which prints the table only as text).
	ErrNoPowerStates = errors.New("capture: capture has no power state table")
	// ErrDuplicateKey: a key the reader uses appears twice (nvme-cli
	// prints each once); the error names both lines.
	ErrDuplicateKey = errors.New("capture: duplicate key")
	// ErrMultipleCaptures: the input holds more than one device's capture
	// (two reports concatenated); the error says how many and on which
	// line the second starts.
	ErrMultipleCaptures = errors.New("capture: more than one capture")
	// ErrNilController: a writer given no controller to write.
	ErrNilController = errors.New("capture: nil controller to write")
	// ErrEmpty: the capture holds nothing, or only white space.
	ErrEmpty = errors.New("capture: the capture is empty")
	// ErrFeatureCapture: the input given to an Identify Controller reader
	// is an APST feature capture (nvme get-feature -f 0x0c), which
	// ParseFeatureCapture reads.
	ErrFeatureCapture = errors.New("capture: an APST feature capture, not an identify controller capture (read it with capture.ParseFeatureCapture)")
	// ErrIdentifyCapture: the input given to a feature reader is an
	// Identify Controller capture (nvme id-ctrl or smartctl output, a
	// 4096-byte image), which Parse reads.
	ErrIdentifyCapture = errors.New("capture: an identify controller capture, not an APST feature capture (read it with capture.Parse)")
	// ErrNotAPSTTable: 256 bytes read as the raw APST buffer have reserved
	// bits set that no APST table has (random bytes, another file); the
	// error is a *NotAPSTTableError, which carries the buffer decoded
	// anyway.
	ErrNotAPSTTable = errors.New("capture: not an APST table")
	// ErrTrailingData: a JSON capture's document is followed by text on
	// the line it ends on, or by a bracket or another value on a later
	// line; the error names the line.
	ErrTrailingData = errors.New("capture: more after the end of the JSON document")
)

// ParseError describes why a capture could not be parsed: the format it was
// read as, the 1-based line where the problem is, what the format prints
// there, and the cause, which wraps one of the package's sentinel errors.
// It is the one parse error of every reader, the feature readers included
// (with Feature set instead of Format).
//
// The zero ParseError has no cause (Unwrap returns nil), so it matches none
// of the sentinels; its Error reads "capture: input".
type ParseError struct {
	// Format is the Identify Controller format the capture was read as
	// (FormatUnknown when it was not recognised, or read as a feature
	// capture).
	Format powerstate.Format
	// Feature is the APST feature form the capture was read as
	// (FeatureUnknown when it was not, or read as an Identify capture).
	Feature FeatureFormat
	// Line is the 1-based line number of the problem; 0 when the problem is
	// not tied to a line (a binary image, an input that is too large). For
	// truncated captures it is the line after the last one present.
	Line int
	// Expected says what the format has at that place.
	Expected string
	// Err is the cause; it wraps one of the sentinels above (or is a
	// *powerstate.ImageSizeError or *powerstate.NotIdentifyError), or is
	// the error of the reader the capture was read from.
	Err error
	// Looks says what the input looks like instead, as a noun phrase
	// ("a kernel log (dmesg or journalctl -k)", "lspci output"), when it
	// is an output users paste in a capture's place; "" otherwise.
	Looks string
}

// Error formats the error as
// "capture: smartctl-text capture, line 31: expected ...: cause" ("capture:
// input: ...: cause; it looks like ... instead" for an input of no known format). The
// cause is written without the "capture: " or "powerstate: " its own
// message starts with, so that the package is named once.
func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString("capture: ")
	if e.Format != powerstate.FormatUnknown {
		b.WriteString(e.Format.String())
		b.WriteByte(' ')
	} else if e.Feature != FeatureUnknown {
		b.WriteString(e.Feature.String())
		b.WriteByte(' ')
	}
	if e.Format == powerstate.FormatUnknown && e.Feature == FeatureUnknown {
		b.WriteString("input") // not read as any capture: "capture: capture" says nothing
	} else {
		b.WriteString("capture")
	}
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
		msg := e.Err.Error()
		if m, ok := strings.CutPrefix(msg, "capture: "); ok {
			msg = m
		} else {
			msg = strings.TrimPrefix(msg, "powerstate: ")
		}
		b.WriteString(msg)
	}
	if e.Looks != "" {
		b.WriteString("; it looks like ")
		b.WriteString(e.Looks)
		b.WriteString(" instead")
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *ParseError) Unwrap() error { return e.Err }

// failFn builds the error a reader returns for a problem at a 1-based
// line: what the format has there, and the cause (wrapping a sentinel).
type failFn func(line int, expected string, err error) error

// maxFound bounds how much of an offending value an error quotes.
const maxFound = 60

// syntaxErr builds a ParseError for a value that is not what was expected.
func syntaxErr(f powerstate.Format, line int, expected, found string) *ParseError {
	if len(found) > maxFound {
		found = found[:maxFound] + "..."
	}
	return &ParseError{Format: f, Line: line, Expected: expected,
		Err: fmt.Errorf("%w: found %q", ErrSyntax, found)}
}

// wrapErr is the error of line, the end of line `of` that a mail client or
// a forum wrapped: a reader names both lines rather than read the first cut
// short or refuse it without saying why.
func wrapErr(f powerstate.Format, line, of int, expected, found string) *ParseError {
	return syntaxErr(f, line, expected+" after line "+strconv.Itoa(of)+
		" (this line continues it: the capture was wrapped; give it with its lines whole)", found)
}

// parseTextLines runs parse, the parser of a text format, on s, with
// cutAtEnd applied to its error.
func parseTextLines(s string, parse func(string) (powerstate.Controller, int, error)) (powerstate.Controller, int, error) {
	c, end, err := parse(s)
	if err != nil {
		return powerstate.Controller{}, 0, cutAtEnd(s, err)
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
	if pe.Line != lineOf(s, len(s)) {
		return err
	}
	return &ParseError{Format: pe.Format, Line: pe.Line, Expected: pe.Expected + " (the capture ends inside the line)", Err: ErrTruncated}
}

// truncErr builds a ParseError for a capture that ends too early. It is
// not inlined (go:noinline): its copies at its calls took 1.4 KB of the
// page's wasm.
//
//go:noinline
func truncErr(f powerstate.Format, line int, expected string) *ParseError {
	return &ParseError{Format: f, Line: line, Expected: expected, Err: ErrTruncated}
}
