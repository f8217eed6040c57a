package capture

import (
	"bytes"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// DetectFormat tells which capture format b is in, from its content alone.
// The formats and what marks each are:
//
//   - FormatBinary: exactly IdentifySize (4096) bytes that are not text
//     (they contain a NUL byte before their last ones, as every real
//     image does; text padded with NUL bytes is text), 4096 bytes
//     that match no text format, or a hex dump of any size but 256 bytes
//     in the layout of hexdump -C, xxd, od -A x -t x1z or nvme-cli (which
//     ParseBytes reads when it holds 4096 bytes);
//   - FormatNVMeCLIJSON / FormatSmartctlJSON: a JSON object (possibly after
//     a few non-JSON lines such as a shell prompt); smartctl's has the keys
//     "smartctl", "json_format_version" or "nvme_power_states", nvme-cli's
//     the keys "psds", "npss" or "mn";
//   - FormatSmartctlText: the smartctl banner, "=== START OF INFORMATION
//     SECTION ===", "Supported Power States" or the "St Op     Max" table
//     header, or a "Model Number:" line;
//   - FormatNVMeCLIText: "NVME Identify Controller:", a "ps    0 : mp:" line
//     or an id-ctrl key line such as "vid       : 0x144d" or "npss    : 4";
//
// The first marker found decides; markers are found on lines indented or
// quoted with "> " too, and in a quoted-printable mail body (decoded
// first). Text in UTF-16 with a byte order mark is recognised.
// FormatUnknown is returned when nothing matches, and for an APST feature
// capture, whose form DetectFeatureFormat tells.
func DetectFormat(b []byte) powerstate.Format { return detect(b).format }

// DetectFeatureFormat tells which APST feature capture form b is in (which
// ParseFeatureCapture reads), from its content alone. It does so as
// DetectFormat does for the Identify Controller forms: 256 bytes that are
// not text (FeatureBinary), a "get-feature:" line or the -H APSTE line
// (FeatureText; FeatureTextTable when its fields are nvme-cli's "name :
// value" tables; FeatureHexDump when no -H field follows, or a hex dump of
// 256 bytes without the header), a JSON object with a "feature: 0x0c" key
// (FeatureJSON). FeatureUnknown is returned when nothing matches, and for
// an Identify Controller capture.
func DetectFeatureFormat(b []byte) FeatureFormat { return detect(b).feature }

// detect finds the format of b, and for text where its first marker is.
func detect(b []byte) input {
	utf16 := hasUTF16BOM(b)
	// Text padded with NUL bytes to 4096 (a file a crash or a copy extended
	// with zeros) holds no NUL before them: it is read as text first.
	if !utf16 && len(b) == powerstate.IdentifySize && nulBeforePadding(b) {
		return input{format: powerstate.FormatBinary}
	}
	// A 256-byte APST table holds NUL bytes (the high bytes of its entries)
	// and text never does; 256 bytes of text with a control character (a
	// model with an ESC) is text when a format's marker is in it.
	if !utf16 && len(b) == featureSize && bytes.IndexByte(b, 0) >= 0 {
		return input{feature: FeatureBinary}
	}
	s, qp := decodeQuotedPrintable(textOf(b))
	if in := detectText(s); in.known() {
		in.decoded = qp
		return in
	}
	if !utf16 && len(b) == powerstate.IdentifySize {
		return input{format: powerstate.FormatBinary}
	}
	if !utf16 && len(b) == featureSize && !isText(b, false) {
		return input{feature: FeatureBinary}
	}
	return detectHexDump(s, qp)
}

// detectHexDump finds a hex dump of a binary capture in s: a dump of 256
// bytes is the APST feature buffer, any other the Identify image (whose
// size ParseBytes checks).
func detectHexDump(s string, qp bool) input {
	d, err := readHexDump(s, powerstate.IdentifySize)
	if d.Layout == hexNone {
		return input{}
	}
	in := input{format: powerstate.FormatBinary, text: s, decoded: qp, dump: &d, dumpErr: err}
	if err == nil && len(d.Data) == featureSize {
		in.format, in.feature = powerstate.FormatUnknown, FeatureHexDump
		in.marker = d.First
	}
	return in
}

// featureSize is the size of the APST feature buffer.
const featureSize = apst.TableSize

// maxDetectLines bounds how many lines DetectFormat looks at.
const maxDetectLines = 4096

// detectText finds the first format marker in s.
func detectText(s string) input {
	l := newLineReader(s)
	for l.N() < maxDetectLines {
		line, _, ok := l.Next()
		if !ok {
			break
		}
		p := pastePrefix(line)
		t := strings.TrimRight(line[len(p):], " \t")
		if t == "" {
			continue
		}
		in := input{text: s, marker: l.N(), prefix: p}
		if t[0] == '{' {
			in.format, in.feature = detectJSON(s[l.Start():])
			if !in.known() {
				continue
			}
			return in
		}
		in.format, in.feature = detectLine(t, l)
		if in.known() {
			return in
		}
	}
	return input{}
}

// detectLine tells the format a line of text (without its indentation)
// marks (an Identify form or a feature form); l is positioned after it.
func detectLine(t string, l lineReader) (powerstate.Format, FeatureFormat) {
	switch {
	case strings.HasPrefix(t, "smartctl ") && len(t) > 9 && isDigit(t[9]),
		strings.HasPrefix(t, "=== START OF INFORMATION SECTION ==="),
		t == "Supported Power States",
		strings.HasPrefix(t, "St Op ") && strings.Contains(t, "Ex_Lat"),
		strings.HasPrefix(t, "Model Number:"):
		return powerstate.FormatSmartctlText, FeatureUnknown
	case strings.HasPrefix(t, "NVME Identify Controller"):
		return powerstate.FormatNVMeCLIText, FeatureUnknown
	case strings.HasPrefix(t, "get-feature:"):
		return powerstate.FormatUnknown, detectFeatureBody(l)
	case strings.HasPrefix(t, "Autonomous Power State Transition Enable"):
		if featureTextForm(t) == FeatureTextTable {
			return powerstate.FormatUnknown, FeatureTextTable
		}
		return powerstate.FormatUnknown, detectFeatureBody(l)
	case strings.HasPrefix(t, "Auto PST Entries"):
		return powerstate.FormatUnknown, detectFeatureBody(l)
	}
	if _, _, ok := cutPSLine(t); ok {
		return powerstate.FormatNVMeCLIText, FeatureUnknown
	}
	if key, _, ok := cutNVMeKey(t); ok {
		switch key {
		case "vid", "ssvid", "mn", "sn", "fr", "npss", "apsta", "ver", "cntlid", "ieee":
			return powerstate.FormatNVMeCLIText, FeatureUnknown
		}
	}
	return powerstate.FormatUnknown, FeatureUnknown
}

// detectFeatureBody tells the -H text of a get-feature capture from its
// hex dump by the lines after the header, and the -H layouts apart by the
// first ITPT line (or an APSTE line in the table layout).
func detectFeatureBody(l lineReader) FeatureFormat {
	text := false
	for range 8 {
		line, _, ok := l.Next()
		if !ok {
			break
		}
		t := strings.TrimSpace(strings.TrimLeft(line, " \t>"))
		switch {
		case strings.HasPrefix(t, "Idle Time Prior to Transition"):
			return featureTextForm(t)
		case strings.Contains(t, "(APSTE)"):
			if featureTextForm(t) == FeatureTextTable {
				return FeatureTextTable
			}
			text = true
		case strings.HasPrefix(t, "Auto PST Entries"):
			text = true
		case !text && len(t) > 5 && t[4] == ':' && isHexDigits(t[:4]):
			return FeatureHexDump
		}
	}
	return FeatureText
}

// isHexDigits reports whether s is all hexadecimal digits.
func isHexDigits(s string) bool {
	for i := range len(s) {
		if c := s[i]; !isDigit(c) && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') {
			return false
		}
	}
	return s != ""
}

// detectJSON tells the JSON formats apart by their keys, looking at the
// first 4 KiB first (where both tools print their telling keys).
func detectJSON(s string) (powerstate.Format, FeatureFormat) {
	switch firstKey(s) {
	case "json_format_version", "smartctl":
		return powerstate.FormatSmartctlJSON, FeatureUnknown
	case "vid", "ssvid", "sn", "mn", "fr", "npss", "psds":
		return powerstate.FormatNVMeCLIJSON, FeatureUnknown
	}
	if len(s) > 4096 {
		if f, ff := detectJSONKeys(s[:4096]); f != powerstate.FormatUnknown || ff != FeatureUnknown {
			return f, ff
		}
	}
	return detectJSONKeys(s)
}

// firstKey returns the first key of the JSON object s starts with, "" when
// it does not start with a simple one.
func firstKey(s string) string {
	s = strings.TrimLeft(s, " \t\r\n")
	if !strings.HasPrefix(s, "{") {
		return ""
	}
	s = strings.TrimLeft(s[1:], " \t\r\n")
	if !strings.HasPrefix(s, `"`) {
		return ""
	}
	end := strings.IndexAny(s[1:], `"\`)
	if end < 0 || s[1+end] != '"' {
		return ""
	}
	return s[1 : 1+end]
}

// detectJSONKeys tells the JSON formats apart by the keys s holds.
func detectJSONKeys(s string) (powerstate.Format, FeatureFormat) {
	switch {
	case strings.Contains(s, `"nvme_power_states"`), strings.Contains(s, `"json_format_version"`),
		strings.Contains(s, `"smartctl"`):
		return powerstate.FormatSmartctlJSON, FeatureUnknown
	case strings.Contains(s, `"psds"`), strings.Contains(s, `"npss"`), strings.Contains(s, `"mn"`):
		return powerstate.FormatNVMeCLIJSON, FeatureUnknown
	case isFeatureJSON(s):
		return powerstate.FormatUnknown, FeatureJSON
	}
	return powerstate.FormatUnknown, FeatureUnknown
}

// isFeatureJSON reports whether s has a "feature: 0x0c" key, as nvme-cli's
// get-feature JSON does (any case, blanks around the colon).
func isFeatureJSON(s string) bool {
	for {
		i := strings.Index(s, `eature`)
		if i < 1 {
			return false
		}
		if s[i-1] == 'f' || s[i-1] == 'F' {
			rest := strings.TrimLeft(s[i+6:], " ")
			if r, ok := strings.CutPrefix(rest, ":"); ok {
				r = strings.TrimLeft(r, " ")
				if strings.HasPrefix(r, "0x0c") || strings.HasPrefix(r, "0xc\"") || strings.HasPrefix(r, "0x0C") {
					return true
				}
			}
		}
		s = s[i+6:]
	}
}

// nulBeforePadding reports whether b holds a NUL byte followed by a byte
// that is not one: a NUL inside the data, not only the zeros a file was
// padded with. A real image has one in its first bytes (VID's high byte,
// SSVID) with data after it, so this stops early; bytes.TrimRight of its
// trailing zeros first walked them a byte at a time (7% of parsing the
// corpus).
func nulBeforePadding(b []byte) bool {
	i := bytes.IndexByte(b, 0)
	if i < 0 {
		return false
	}
	for _, c := range b[i:] {
		if c != 0 {
			return true
		}
	}
	return false
}
