package capture

import (
	"bytes"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// DetectFormat tells which capture format b is in, from its content alone:
//
//   - FormatBinary: exactly IdentifySize (4096) bytes that are not text
//     (they contain a NUL byte, as every real image does), 4096 bytes
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
//   - the feature formats (which ParseFeatureCapture reads): 256
//     bytes that are not text (FormatFeatureBinary), a "get-feature:" line
//     or the -H APSTE line (FormatFeatureText, or FormatFeatureHexDump when
//     no -H field follows, or a hex dump of 256 bytes without the
//     header), a JSON object with a "feature: 0x0c" key
//     (FormatFeatureJSON).
//
// The first marker found decides; markers are found on lines indented or
// quoted with "> " too, and in a quoted-printable mail body (decoded
// first). Text in UTF-16 with a byte order mark is recognised.
// FormatUnknown is returned when nothing matches.
func DetectFormat(b []byte) powerstate.Format { return detect(b).format }

// detect finds the format of b, and for text where its first marker is.
func detect(b []byte) input {
	utf16 := hasUTF16BOM(b)
	if !utf16 && len(b) == powerstate.IdentifySize && bytes.IndexByte(b, 0) >= 0 {
		return input{format: powerstate.FormatBinary}
	}
	// A 256-byte APST table holds NUL bytes (the high bytes of its entries)
	// and text never does; 256 bytes of text with a control character (a
	// model with an ESC) is text when a format's marker is in it.
	if !utf16 && len(b) == featureSize && bytes.IndexByte(b, 0) >= 0 {
		return input{format: powerstate.FormatFeatureBinary}
	}
	s, qp := decodeQuotedPrintable(textOf(b))
	if in := detectText(s); in.format != powerstate.FormatUnknown {
		in.decoded = qp
		return in
	}
	if !utf16 && len(b) == powerstate.IdentifySize {
		return input{format: powerstate.FormatBinary}
	}
	if !utf16 && len(b) == featureSize && !isText(b) {
		return input{format: powerstate.FormatFeatureBinary}
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
		in.format = powerstate.FormatFeatureHexDump
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
			in.format = detectJSON(s[l.Start():])
			if in.format == powerstate.FormatUnknown {
				continue
			}
			return in
		}
		in.format = detectLine(t, l)
		if in.format != powerstate.FormatUnknown {
			return in
		}
	}
	return input{}
}

// detectLine tells the format a line of text (without its indentation)
// marks; l is positioned after it.
func detectLine(t string, l lineReader) powerstate.Format {
	switch {
	case strings.HasPrefix(t, "smartctl ") && len(t) > 9 && isDigit(t[9]),
		strings.HasPrefix(t, "=== START OF INFORMATION SECTION ==="),
		t == "Supported Power States",
		strings.HasPrefix(t, "St Op ") && strings.Contains(t, "Ex_Lat"),
		strings.HasPrefix(t, "Model Number:"):
		return powerstate.FormatSmartctlText
	case strings.HasPrefix(t, "NVME Identify Controller"):
		return powerstate.FormatNVMeCLIText
	case strings.HasPrefix(t, "get-feature:"):
		return detectFeatureBody(l)
	case strings.HasPrefix(t, "Autonomous Power State Transition Enable"), strings.HasPrefix(t, "Auto PST Entries"):
		return powerstate.FormatFeatureText
	}
	if _, _, ok := cutPSLine(t); ok {
		return powerstate.FormatNVMeCLIText
	}
	if key, _, ok := cutNVMeKey(t); ok {
		switch key {
		case "vid", "ssvid", "mn", "sn", "fr", "npss", "apsta", "ver", "cntlid", "ieee":
			return powerstate.FormatNVMeCLIText
		}
	}
	return powerstate.FormatUnknown
}

// detectFeatureBody tells the -H text of a get-feature capture from its
// hex dump by the lines after the header.
func detectFeatureBody(l lineReader) powerstate.Format {
	for range 8 {
		line, _, ok := l.Next()
		if !ok {
			break
		}
		t := strings.TrimSpace(strings.TrimLeft(line, " \t>"))
		switch {
		case strings.Contains(t, "(APSTE)"), strings.HasPrefix(t, "Auto PST Entries"):
			return powerstate.FormatFeatureText
		case len(t) > 5 && t[4] == ':' && isHexDigits(t[:4]):
			return powerstate.FormatFeatureHexDump
		}
	}
	return powerstate.FormatFeatureText
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
func detectJSON(s string) powerstate.Format {
	switch firstKey(s) {
	case "json_format_version", "smartctl":
		return powerstate.FormatSmartctlJSON
	case "vid", "ssvid", "sn", "mn", "fr", "npss", "psds":
		return powerstate.FormatNVMeCLIJSON
	}
	if len(s) > 4096 {
		if f := detectJSONKeys(s[:4096]); f != powerstate.FormatUnknown {
			return f
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
func detectJSONKeys(s string) powerstate.Format {
	switch {
	case strings.Contains(s, `"nvme_power_states"`), strings.Contains(s, `"json_format_version"`),
		strings.Contains(s, `"smartctl"`):
		return powerstate.FormatSmartctlJSON
	case strings.Contains(s, `"psds"`), strings.Contains(s, `"npss"`), strings.Contains(s, `"mn"`):
		return powerstate.FormatNVMeCLIJSON
	case isFeatureJSON(s):
		return powerstate.FormatFeatureJSON
	}
	return powerstate.FormatUnknown
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
