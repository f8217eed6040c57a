package capture

import (
	"bytes"
	"io"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// FeatureCapture is a parsed APST feature capture: the feature and what the
// capture said about it.
//
// The zero FeatureCapture is what ParseFeatureCapture and ParseFeatureBytes
// return with an error: its Format is FeatureUnknown and its Feature the
// zero apst.Feature (APSTE unknown, an all-zero table).
type FeatureCapture struct {
	// Feature is APSTE (APSTEUnknown for the raw 256-byte buffer, which
	// does not hold completion dword 0) and the table, Masked when the
	// capture printed only ITPS and ITPT (the -H text and JSON; nvme-cli
	// v1.x decoded only the low 32 bits of each entry, which hold both).
	apst.Feature
	// Format is the form of the capture (never FeatureUnknown).
	Format FeatureFormat
	// Select is the select nvme-cli printed ("Current", "Default" or
	// "Saved"), empty when the capture has no header.
	Select string
	// Notes says, one sentence each, what the reader did to read the
	// capture: the entries a partial capture does not show (Unknown), a
	// quoted-printable mail body decoded. It is nil for a whole capture.
	Notes []string
}

// ParseFeature reads an APST feature capture and returns APSTE and the
// table; see ParseFeatureCapture for the forms read. A raw 256-byte buffer
// does not say whether APST is enabled: its APSTE is APSTEUnknown.
func ParseFeature(r io.Reader) (apst.Feature, error) {
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
//   - the -H text of nvme-cli's "name : value" tables
//     (FeatureTextTable, feature_table.go): the same lines with each
//     field's name padded before " : " ("Idle Time Prior to Transition
//     (ITPT) : 100 ms", "Idle Transition Power State (ITPS)   : 3");
//   - the same without -H: the header and a hex dump of the buffer
//     ("0000: 18 64 00 00 ..."), which keeps all 64 bits of each entry;
//   - the JSON of "-o json": the "feature: 0x0c" object with the select's
//     value and the "Feature: 0x0c" object with the APSTE string and the
//     "Auto PST Entries" array.
//
// The text may be UTF-8 with or without a byte order mark or UTF-16 with
// one (what PowerShell's ">" writes), and pasted indented or quoted with
// "> ". APSTE comes from the APSTE line or bit 0 of the value in the
// header; the two must agree. Entries decoded from ITPS/ITPT fields are
// rebuilt as apst.NewEntry(ITPS, ITPT) and the feature is Masked.
//
// Every error is a *ParseError, its message starting "capture:", naming
// the form and the line and wrapping a sentinel (ErrEmpty for nothing or
// white space alone, ErrUnknownFormat, ErrTooLarge, ErrTruncated, ErrSyntax, ErrDuplicateKey,
// ErrMultipleCaptures: a second header, a second table, an Entry[32];
// ErrTrailingData: text run into the end of the JSON form, or a bracket
// or another object after it), ErrIdentifyCapture for an id-ctrl or
// smartctl capture, or ErrNotAPSTTable (a *NotAPSTTableError, which
// carries the buffer decoded anyway) for 256 raw bytes with reserved
// bits 2:0 set in an entry, which no APST table has. At most MaxSize
// bytes are read. It is safe for concurrent use.
func ParseFeatureCapture(r io.Reader) (FeatureCapture, error) {
	b, expected, err := readBounded(r)
	if err != nil {
		return FeatureCapture{}, &ParseError{Expected: expected, Err: err}
	}
	return ParseFeatureBytes(b)
}

// ParseFeatureBytes parses the feature capture b as ParseFeatureCapture
// does, reading it in place: b is not copied and not retained, and must not
// change during the call.
func ParseFeatureBytes(b []byte) (FeatureCapture, error) {
	if len(b) > MaxSize {
		return FeatureCapture{}, &ParseError{Expected: "at most 1048576 bytes", Err: ErrTooLarge}
	}
	if len(b) != apst.TableSize && len(bytes.TrimSpace(b)) == 0 {
		// (256 bytes of white space would be a raw buffer, if an odd one.)
		return FeatureCapture{}, &ParseError{
			Expected: "the raw 256-byte APST buffer or nvme get-feature -f 0x0c output (text, hex dump or JSON)", Err: ErrEmpty}
	}
	switch in := detect(b); {
	case in.feature == FeatureBinary:
		return rawFeatureChecked(b)
	case in.format != powerstate.FormatUnknown:
		return FeatureCapture{}, &ParseError{Format: in.format,
			Expected: "an APST feature capture (nvme get-feature -f 0x0c)", Err: ErrIdentifyCapture}
	}
	s, qp := decodeQuotedPrintable(textOf(b))
	marker, prefix, json := featureMarker(s)
	if marker == 0 {
		if len(b) == apst.TableSize {
			// 256 bytes that happen to look like text and are no capture:
			// the raw buffer after all.
			return rawFeatureChecked(b)
		}
		return FeatureCapture{}, &ParseError{
			Expected: "the raw 256-byte APST buffer or nvme get-feature -f 0x0c output (text, hex dump or JSON)",
			Err:      ErrUnknownFormat, Looks: lookalike(s)}
	}
	s = dedent(s, marker, prefix)
	var fc FeatureCapture
	var err error
	if json {
		fc, err = parseFeatureJSON(s, marker)
	} else {
		fc, err = parseFeatureText(s)
	}
	if err != nil {
		return FeatureCapture{}, err
	}
	fc.Select = strings.Clone(fc.Select)
	if qp {
		fc.Notes = append([]string{quotedPrintableNote}, fc.Notes...)
	}
	return fc, nil
}

// rawFeatureChecked decodes the raw 256-byte buffer and refuses one no
// APST table can be (checkRawTable), with a *ParseError wrapping a
// *NotAPSTTableError.
func rawFeatureChecked(b []byte) (FeatureCapture, error) {
	fc := rawFeature(b)
	if err := checkRawTable(fc); err != nil {
		if ne, ok := err.(*NotAPSTTableError); ok && isText(b, false) {
			ne.Looks = "text that is no get-feature capture"
			if l := lookalike(textOf(b)); l != "" {
				ne.Looks = l
			}
		}
		return FeatureCapture{}, &ParseError{Feature: FeatureBinary, Expected: "the raw 256-byte APST buffer (nvme get-feature -f 0x0c -b)", Err: err}
	}
	return fc, nil
}

// rawFeature decodes the raw 256-byte buffer.
func rawFeature(b []byte) FeatureCapture {
	t, _ := apst.DecodeTable(b)
	return FeatureCapture{Feature: apst.Feature{Table: t}, Format: FeatureBinary}
}

// featureMarker finds the first line of a feature capture in s: a
// get-feature header, the -H APSTE or entries line, the first hex dump
// line, or a JSON object with a feature 0x0c key. It returns its line
// number (0 when there is none), the indentation or quoting it is pasted
// with, and whether it is JSON.
func featureMarker(s string) (line int, prefix string, json bool) {
	l := newLineReader(s)
	for {
		raw, _, ok := l.Next()
		if !ok {
			return 0, "", false
		}
		p := pastePrefix(raw)
		t := strings.TrimSpace(raw[len(p):])
		switch {
		case t == "":
			continue
		case t[0] == '{':
			if isFeatureJSONText(s[l.Start():]) {
				return l.N(), p, true
			}
		case strings.HasPrefix(t, "get-feature:"), strings.HasPrefix(normSpace(t), lnAPSTE), strings.HasPrefix(t, lnEntries):
			return l.N(), p, false
		default:
			if isHexDumpStart(t) {
				return l.N(), p, false
			}
		}
	}
}

// isFeatureJSONText reports whether a JSON text has a key naming feature
// 0x0c.
func isFeatureJSONText(s string) bool {
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			return false
		}
		j := strings.IndexByte(s[i+1:], '"')
		if j < 0 {
			return false
		}
		if isAPSTKey(s[i+1 : i+1+j]) {
			return true
		}
		s = s[i+1+j+1:]
	}
}

// parseHex32 parses hexadecimal digits with an optional 0x prefix.
func parseHex32(s string) (uint32, bool) {
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		s = s[2:]
	}
	if s == "" || s[0] == '+' || s[0] == '-' || strings.Contains(s, "_") {
		return 0, false
	}
	var v uint32
	for i := range len(s) {
		c := s[i]
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		if v>>28 != 0 {
			return 0, false
		}
		v = v<<4 | uint32(d)
	}
	return v, true
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
