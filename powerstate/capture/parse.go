package capture

import (
	"bytes"
	"errors"
	"io"
	"strconv"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// readCapture reads r up to MaxSize bytes.
func readCapture(r io.Reader, f powerstate.Format) ([]byte, error) {
	b, expected, err := readBounded(r)
	if err != nil {
		return nil, &ParseError{Format: f, Expected: expected, Err: err}
	}
	return b, nil
}

// Parse reads a capture and returns the controller it describes. The format
// is detected from the content (see DetectFormat): a 4096-byte Identify
// Controller image, "nvme id-ctrl" text (any nvme-cli generation, with or
// without -H), "nvme id-ctrl -o json", "smartctl -a/-x/-c" text, or
// "smartctl -j" JSON (7.5 and later). Text pasted indented or quoted (a
// markdown or reST code block, an email quote with "> ") reads as the
// capture itself, and so does a quoted-printable mail body (decoded, with
// a note saying so). A hex dump of the image ("nvme id-ctrl --raw-binary |
// hexdump -C", xxd or "od -A x -t x1z": offsets checked, "*" lines
// expanded) reads as the image, with a note naming the layout and lines.
// See ParseBytes for what else is checked.
//
// At most MaxSize bytes are read; a larger capture returns
// ErrTooLarge. Every error is a *ParseError. Parse is safe for concurrent
// use.
func Parse(r io.Reader) (powerstate.Controller, error) {
	b, err := readCapture(r, powerstate.FormatUnknown)
	if err != nil {
		return powerstate.Controller{}, err
	}
	return ParseBytes(b)
}

// ParseBytes parses the capture b as Parse does, reading it in place: b is
// not copied and not retained (every string of the result is its own), and
// must not change during the call. A 4096-byte image decodes with at most
// one allocation.
//
// The returned Controller's Format names the format, Missing holds exactly
// the fields the capture did not carry, and Notes what it kept as unknown
// instead of refusing the capture (a field APST does not use that does not
// fit). Errors, all *ParseError: ErrUnknownFormat; ErrFeatureCapture for
// a get-feature capture; an *ImageSizeError (errors.Is ErrImageSize) for
// binary data, or a hex dump, that is not 4096 bytes (ErrSyntax for a dump
// line at the wrong offset, ErrTruncated for a dump cut after a "*"); ErrTooLarge above MaxSize;
// ErrMultipleCaptures when b holds more than one device's capture;
// ErrTrailingData when a JSON capture's document is followed by text on
// the line it ends on, or by a bracket or another value (a line of text
// after it, such as nvme-cli 3.0's deprecation warning or a shell prompt,
// is read past);
// ErrDuplicateKey, ErrTruncated, ErrSyntax and ErrNoPowerStates from the
// format's reader.
func ParseBytes(b []byte) (powerstate.Controller, error) {
	if len(b) > MaxSize {
		return powerstate.Controller{}, &ParseError{Expected: "at most " + strconv.Itoa(MaxSize) + " bytes", Err: ErrTooLarge}
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return powerstate.Controller{}, &ParseError{Expected: "an identify controller capture (nvme id-ctrl, smartctl -a or -j, or a 4096-byte image)", Err: ErrEmpty}
	}
	in := detect(b)
	switch in.format {
	case powerstate.FormatBinary:
		if in.dump != nil {
			return parseHexDump(in)
		}
		c, err := decodeChecked(b)
		if err != nil {
			return powerstate.Controller{}, &ParseError{Format: powerstate.FormatBinary, Err: err}
		}
		return c, nil
	case powerstate.FormatNVMeCLIText, powerstate.FormatNVMeCLIJSON, powerstate.FormatSmartctlText, powerstate.FormatSmartctlJSON:
		return parseText(in)
	case powerstate.FormatUnknown:
		if in.feature != FeatureUnknown {
			return powerstate.Controller{}, &ParseError{Feature: in.feature, Line: in.marker,
				Expected: "an identify controller capture (nvme id-ctrl, smartctl -a or -j)", Err: ErrFeatureCapture}
		}
		if bytes.IndexByte(b, 0) >= 0 || !isText(b, true) {
			// Binary (text with a terminal's ESC is text) and not 4096
			// bytes: CheckIdentify names another kind of file by its magic
			// bytes.
			var ne *powerstate.NotIdentifyError
			if err := powerstate.CheckIdentify(b); errors.As(err, &ne) {
				return powerstate.Controller{}, &ParseError{Format: powerstate.FormatBinary, Err: err}
			}
			return powerstate.Controller{}, &ParseError{Format: powerstate.FormatBinary, Expected: "a 4096-byte Identify Controller image",
				Err: &powerstate.ImageSizeError{Got: len(b)}}
		}
		return powerstate.Controller{}, &ParseError{
			Expected: "a 4096-byte Identify Controller image, nvme id-ctrl text or JSON, or smartctl text or JSON",
			Err:      ErrUnknownFormat,
			Looks:    lookalike(textOf(b)),
		}
	}
	return powerstate.Controller{}, &ParseError{Format: in.format, Expected: "a capture format this reader knows", Err: ErrUnknownFormat}
}

// expectHexDump is what a hex dump of the image holds.
const expectHexDump = "a hex dump of the 4096-byte Identify Controller image (hexdump -C, xxd or od -A x -t x1z)"

// parseHexDump decodes the image a hex dump holds.
func parseHexDump(in input) (powerstate.Controller, error) {
	d := in.dump
	if in.dumpErr != nil {
		var he *hexDumpError
		if errors.As(in.dumpErr, &he) {
			err := foundErr(ErrSyntax, he.Found)
			if he.Cut {
				err = ErrTruncated
			}
			return powerstate.Controller{}, &ParseError{Format: powerstate.FormatBinary, Line: he.Line, Expected: he.Expected + " in " + expectHexDump, Err: err}
		}
		return powerstate.Controller{}, &ParseError{Format: powerstate.FormatBinary, Expected: expectHexDump, Err: in.dumpErr}
	}
	c, err := decodeChecked(d.Data)
	if err != nil {
		return powerstate.Controller{}, &ParseError{Format: powerstate.FormatBinary, Line: d.First,
			Expected: expectHexDump + " (lines " + strconv.Itoa(d.First) + " to " + strconv.Itoa(d.Last) + " hold " + strconv.Itoa(len(d.Data)) + " bytes)", Err: err}
	}
	c.Notes = append(c.Notes, "read from a hex dump of the image ("+d.Layout.String()+", lines "+strconv.Itoa(d.First)+" to "+strconv.Itoa(d.Last)+")")
	if in.decoded {
		c.Notes = append([]string{quotedPrintableNote}, c.Notes...)
	}
	return c, nil
}

// decodeChecked decodes the Identify Controller image b after
// CheckIdentify; a *NotIdentifyError carries the image decoded anyway.
func decodeChecked(b []byte) (powerstate.Controller, error) {
	c, err := powerstate.DecodeIdentify(b)
	if err != nil {
		return powerstate.Controller{}, err
	}
	if err := powerstate.CheckIdentify(b); err != nil {
		if ne, ok := err.(*powerstate.NotIdentifyError); ok {
			ne.Controller = c
		}
		return powerstate.Controller{}, err
	}
	return c, nil
}

// parseText parses a detected text capture with its format's reader.
func parseText(in input) (powerstate.Controller, error) {
	c, err := parseDedented(in, dedent(in.text, in.marker, in.prefix))
	if err != nil && in.prefix != "" {
		// An indented first marker over a capture that is not indented
		// (a stray blank before the first line): the text as it is.
		if c2, err2 := parseDedented(in, in.text); err2 == nil {
			c, err = c2, nil
		}
	}
	if err == nil && in.decoded {
		c.Notes = append([]string{quotedPrintableNote}, c.Notes...)
	}
	return c, err
}

// parseDedented parses s, the capture in without its indentation.
func parseDedented(in input, s string) (powerstate.Controller, error) {
	var (
		c   powerstate.Controller
		end int
		err error
	)
	switch in.format {
	case powerstate.FormatNVMeCLIText:
		c, end, err = parseNVMeCLIText(s)
	case powerstate.FormatNVMeCLIJSON:
		c, end, err = parseNVMeCLIJSON(s)
	case powerstate.FormatSmartctlText:
		c, end, err = parseSmartctlText(s)
	default:
		c, end, err = parseSmartctlJSON(s)
	}
	if err != nil {
		return powerstate.Controller{}, err
	}
	if err := moreCaptures(in.format, s, end); err != nil {
		return powerstate.Controller{}, err
	}
	if in.format == powerstate.FormatNVMeCLIJSON || in.format == powerstate.FormatSmartctlJSON {
		if err := jsonTrailing(in.format, FeatureUnknown, s, end); err != nil {
			return powerstate.Controller{}, err
		}
	}
	return c, nil
}

// parseAs reads r and parses it as format f (a text or JSON format),
// whatever DetectFormat would say.
func parseAs(r io.Reader, f powerstate.Format) (powerstate.Controller, error) {
	b, err := readCapture(r, f)
	if err != nil {
		return powerstate.Controller{}, err
	}
	if len(bytes.TrimSpace(b)) == 0 {
		// Nothing is empty whatever the form asked for, as ParseBytes
		// says it.
		return powerstate.Controller{}, &ParseError{Format: f, Expected: "a capture in the form " + f.String(), Err: ErrEmpty}
	}
	s, qp := decodeQuotedPrintable(textOf(b))
	in := detectText(s)
	in.format, in.text, in.decoded = f, s, qp
	return parseText(in)
}

// input is a capture with its detected format: the text, the line of the
// first format marker and the indentation or quoting it is pasted with.
type input struct {
	// format is the Identify form, feature the APST feature form: at most
	// one is known.
	format  powerstate.Format
	feature FeatureFormat
	text    string
	marker  int
	prefix  string
	// decoded says the text was decoded from quoted-printable.
	decoded bool
	// dump is the hex dump of a binary capture the text holds, dumpErr
	// the error of a line of it.
	dump    *hexDump
	dumpErr error
}

// known reports whether the input is of a known form, Identify or feature.
func (in input) known() bool {
	return in.format != powerstate.FormatUnknown || in.feature != FeatureUnknown
}

// isText reports whether b looks like text: no NUL and no control
// characters other than tab, CR, LF and form feed, or UTF-16 with a byte
// order mark. With term, the ones a terminal's text carries (ESC of a
// colour, bell, backspace, vertical tab) are text too.
func isText(b []byte, term bool) bool {
	if hasUTF16BOM(b) {
		return true
	}
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\r' && c != '\n' && c != '\f' && !(term && (c == 0x1b || c >= '\a' && c <= '\v')) || c == 0x7f {
			return false
		}
	}
	return true
}
