package apst

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
)

// MaxFeatureCaptureSize is the largest feature capture ParseFeature accepts,
// 1 MiB; a larger input is refused after reading MaxFeatureCaptureSize+1
// bytes.
const MaxFeatureCaptureSize = 1 << 20

// Sentinel errors of the feature capture parser; every error ParseFeature
// returns is a *FeatureParseError whose Err wraps one of them.
var (
	// ErrFeatureFormat: the capture is not an APST feature capture.
	ErrFeatureFormat = errors.New("apst: unknown APST feature capture format")
	// ErrFeatureTooLarge: the capture is larger than MaxFeatureCaptureSize.
	ErrFeatureTooLarge = errors.New("apst: feature capture too large")
	// ErrFeatureTruncated: the capture ends before the table is complete.
	ErrFeatureTruncated = errors.New("apst: feature capture truncated")
	// ErrFeatureSyntax: a line or value is not what nvme-cli prints there.
	ErrFeatureSyntax = errors.New("apst: malformed feature capture")
)

// FeatureFormat names the form of a Get Features (FID 0Ch) capture.
type FeatureFormat uint8

// The forms ParseFeature reads.
const (
	FeatureFormatUnknown FeatureFormat = iota // not recognised
	FeatureFormatBinary                       // the raw 256-byte data buffer
	FeatureFormatText                         // nvme get-feature -f 0x0c -H
	FeatureFormatHexDump                      // nvme get-feature -f 0x0c (hex dump of the buffer)
	FeatureFormatJSON                         // nvme get-feature -f 0x0c -o json
)

var featureFormatNames = [...]string{"unknown", "binary", "nvme-cli-text", "nvme-cli-hexdump", "nvme-cli-json"}

// String returns the form's name, e.g. "nvme-cli-text".
func (f FeatureFormat) String() string {
	if int(f) < len(featureFormatNames) {
		return featureFormatNames[f]
	}
	return "FeatureFormat(" + strconv.Itoa(int(f)) + ")"
}

// FeatureParseError describes why a feature capture could not be parsed:
// the form it was read as, the 1-based line, what nvme-cli prints there,
// and the cause (wrapping one of the ErrFeature sentinels or
// ErrTableSize).
type FeatureParseError struct {
	// Format is the form the capture was read as.
	Format FeatureFormat
	// Line is the 1-based line of the problem, 0 when not tied to a line;
	// for a truncated capture the line after the last one.
	Line int
	// Expected says what the form has at that place.
	Expected string
	// Err is the cause.
	Err error
}

// Error formats the error as "apst: nvme-cli-text feature capture, line 7:
// expected ...: cause".
func (e *FeatureParseError) Error() string {
	var b strings.Builder
	b.WriteString("apst: ")
	if e.Format != FeatureFormatUnknown {
		b.WriteString(e.Format.String())
		b.WriteByte(' ')
	}
	b.WriteString("feature capture")
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
		b.WriteString(strings.TrimPrefix(e.Err.Error(), "apst: "))
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *FeatureParseError) Unwrap() error { return e.Err }

// FeatureCapture is a parsed APST feature capture: the feature and what the
// capture said about it.
type FeatureCapture struct {
	// Feature is APSTE and the table.
	Feature
	// Format is the form of the capture.
	Format FeatureFormat
	// EnabledKnown reports whether the capture gave APSTE. The raw 256-byte
	// buffer does not (completion dword 0 is not part of it); Enabled is
	// then false.
	EnabledKnown bool
	// Select is the select nvme-cli printed ("Current", "Default" or
	// "Saved"), empty when the capture has no header.
	Select string
	// Exact reports whether the entries hold all 64 bits (the raw buffer and
	// the hex dump). The -H text and JSON print only ITPS and ITPT, so
	// reserved bits are lost (and nvme-cli v1.x decoded only the low 32 bits
	// of each entry, which hold both fields).
	Exact bool
}

// ParseFeature reads an APST feature capture and returns APSTE and the
// table; see ParseFeatureCapture for the forms read. A raw 256-byte buffer
// does not say whether APST is enabled, and reads as disabled; use
// ParseFeatureCapture to tell.
func ParseFeature(r io.Reader) (Feature, error) {
	fc, err := ParseFeatureCapture(r)
	return fc.Feature, err
}

// ParseFeatureCapture reads the programmed APST table from a capture of Get
// Features FID 0Ch, detecting its form from the content:
//
//   - the raw 256-byte data buffer (32 little-endian 64-bit entries, e.g.
//     "nvme get-feature -f 0x0c -b");
//   - "nvme get-feature -f 0x0c -H" text of every generation: the header
//     "get-feature:0xc (Autonomous Power State Transition), Current
//     value:0x000001" of v1.0 to v1.14 (v0.9 with a space after "value:"),
//     "get-feature:0x0c (...), Current value:0x00000001" from v1.15, then
//     "Autonomous Power State Transition Enable (APSTE): Enabled", "Auto PST
//     Entries" and 32 blocks of "Entry[ 0]" (with three trailing spaces up
//     to v2.8), "Idle Time Prior to Transition (ITPT): 100 ms" and "Idle
//     Transition Power State   (ITPS): 3", every line starting with a tab;
//   - the same without -H: the header and a hex dump of the buffer
//     ("0000: 18 64 00 00 ..."), which keeps all 64 bits of each entry;
//   - the JSON of "-o json": the "feature: 0x0c" object with the select's
//     value and the "Feature: 0x0c" object with the APSTE string and the
//     "Auto PST Entries" array.
//
// APSTE comes from the APSTE line or bit 0 of the value in the header; the
// two must agree. Entries decoded from ITPS/ITPT fields are rebuilt as
// NewEntry(ITPS, ITPT). Every error is a *FeatureParseError naming the form
// and the line. At most MaxFeatureCaptureSize bytes are read.
func ParseFeatureCapture(r io.Reader) (FeatureCapture, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxFeatureCaptureSize+1))
	if err != nil {
		return FeatureCapture{}, &FeatureParseError{Expected: "a readable capture", Err: err}
	}
	if len(b) > MaxFeatureCaptureSize {
		return FeatureCapture{}, &FeatureParseError{Expected: "at most " + strconv.Itoa(MaxFeatureCaptureSize) + " bytes", Err: ErrFeatureTooLarge}
	}
	if len(b) == TableSize && !isText(b) {
		t, err := DecodeTable(b)
		if err != nil {
			return FeatureCapture{}, &FeatureParseError{Format: FeatureFormatBinary, Err: err}
		}
		return FeatureCapture{Feature: Feature{Table: t}, Format: FeatureFormatBinary, Exact: true}, nil
	}
	s := string(bytes.TrimPrefix(b, []byte{0xef, 0xbb, 0xbf}))
	var fc FeatureCapture
	if t := strings.TrimLeft(s, " \t\r\n"); strings.HasPrefix(t, "{") {
		fc, err = parseFeatureJSON(s)
	} else {
		fc, err = parseFeatureText(s)
	}
	if errors.Is(err, ErrFeatureFormat) && len(b) == TableSize {
		// 256 bytes that happen to look like text and are no capture:
		// the raw buffer after all.
		t, _ := DecodeTable(b)
		return FeatureCapture{Feature: Feature{Table: t}, Format: FeatureFormatBinary, Exact: true}, nil
	}
	return fc, err
}

// isText reports whether b looks like text: no NUL and no control
// characters other than tab, CR and LF.
func isText(b []byte) bool {
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\r' && c != '\n' || c == 0x7f {
			return false
		}
	}
	return true
}

// parseHex32 parses hexadecimal digits with an optional 0x prefix.
func parseHex32(s string) (uint32, bool) {
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		s = s[2:]
	}
	if s == "" || s[0] == '+' || s[0] == '-' || strings.Contains(s, "_") {
		return 0, false
	}
	v, err := strconv.ParseUint(s, 16, 32)
	return uint32(v), err == nil
}

// normSpace collapses runs of blanks.
func normSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// The -H field lines, with blanks collapsed.
const (
	lnAPSTE   = "Autonomous Power State Transition Enable (APSTE):"
	lnEntries = "Auto PST Entries"
	lnITPT    = "Idle Time Prior to Transition (ITPT):"
	lnITPS    = "Idle Transition Power State (ITPS):"
)
