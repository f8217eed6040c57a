package powerstate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxCaptureSize is the largest capture the parsers accept, 1 MiB. A real
// capture is far smaller (an Identify image is 4096 bytes, a full
// "smartctl -x" report a few kilobytes); a larger input is refused with
// ErrTooLarge after reading at most MaxCaptureSize+1 bytes.
const MaxCaptureSize = 1 << 20

// Sentinel errors of the capture parsers. Every error the parsers return is a
// *ParseError whose Err wraps one of these, so callers can test with
// errors.Is.
var (
	// ErrUnknownFormat: the content is none of the formats Parse knows (a
	// 4096-byte Identify image, nvme-cli id-ctrl text or JSON, smartctl text
	// or JSON).
	ErrUnknownFormat = errors.New("powerstate: unknown capture format")
	// ErrTooLarge: the capture is larger than MaxCaptureSize.
	ErrTooLarge = errors.New("powerstate: capture too large")
	// ErrTruncated: the capture ends before its power state table is
	// complete (a report cut mid-table, fewer "ps" blocks than NPSS+1, JSON
	// that stops mid-value).
	ErrTruncated = errors.New("powerstate: capture truncated")
	// ErrSyntax: a line or value does not have the form the format prints
	// there, or a value is out of the range of its Identify field.
	ErrSyntax = errors.New("powerstate: malformed capture")
	// ErrNoPowerStates: the capture is of a known format but holds no power
	// state table (e.g. "smartctl -i", a SATA drive, or "smartctl -j" before
	// 7.5, which prints the table only as text).
	ErrNoPowerStates = errors.New("powerstate: capture has no power state table")
)

// ParseError describes why a capture could not be parsed: the format it was
// read as, the 1-based line where the problem is, what the format prints
// there, and the cause, which wraps one of the package's sentinel errors.
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
	// Err is the cause; it wraps ErrUnknownFormat, ErrTooLarge,
	// ErrTruncated, ErrSyntax or ErrNoPowerStates, or is the error of the
	// reader the capture was read from.
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

// truncErr builds a ParseError for a capture that ends too early.
func truncErr(f Format, line int, expected string) *ParseError {
	return &ParseError{Format: f, Line: line, Expected: expected, Err: ErrTruncated}
}

// readCapture reads r up to MaxCaptureSize bytes, refusing a larger input
// without reading more than MaxCaptureSize+1 bytes.
func readCapture(r io.Reader, f Format) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxCaptureSize+1))
	if err != nil {
		return nil, &ParseError{Format: f, Expected: "a readable capture", Err: err}
	}
	if len(b) > MaxCaptureSize {
		return nil, &ParseError{Format: f, Expected: "at most " + strconv.Itoa(MaxCaptureSize) + " bytes", Err: ErrTooLarge}
	}
	return b, nil
}

// decodeText returns the capture as UTF-8 text: a UTF-8 byte order mark is
// dropped, and UTF-16 with a byte order mark (what Windows PowerShell's ">"
// writes) is converted. Anything else is returned as is (invalid UTF-8 is
// kept byte for byte).
func decodeText(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte{0xef, 0xbb, 0xbf}):
		return string(b[3:])
	case len(b) >= 2 && len(b)%2 == 0 && (b[0] == 0xff && b[1] == 0xfe || b[0] == 0xfe && b[1] == 0xff):
		le := b[0] == 0xff
		u := make([]uint16, 0, len(b)/2-1)
		for i := 2; i+1 < len(b); i += 2 {
			if le {
				u = append(u, uint16(b[i])|uint16(b[i+1])<<8)
			} else {
				u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
			}
		}
		var out []byte
		for _, r := range utf16.Decode(u) {
			out = utf8.AppendRune(out, r)
		}
		return string(out)
	}
	return string(b)
}

// hasUTF16BOM reports whether b starts with a UTF-16 byte order mark.
func hasUTF16BOM(b []byte) bool {
	return len(b) >= 2 && (b[0] == 0xff && b[1] == 0xfe || b[0] == 0xfe && b[1] == 0xff)
}

// Parse reads a capture and returns the controller it describes. The format
// is detected from the content (see DetectFormat): a 4096-byte Identify
// Controller image, "nvme id-ctrl" text (any nvme-cli generation, with or
// without -H), "nvme id-ctrl -o json", "smartctl -a/-x/-c" text, or
// "smartctl -j" JSON (7.5 and later).
//
// The returned Controller's Format names the format and Known holds exactly
// the fields the capture carried; see the format's parser for what each one
// records. At most MaxCaptureSize bytes are read; a larger capture returns
// ErrTooLarge. Every error is a *ParseError. Parse is safe for concurrent use.
func Parse(r io.Reader) (Controller, error) {
	b, err := readCapture(r, FormatUnknown)
	if err != nil {
		return Controller{}, err
	}
	return parseBytes(b)
}

// parseBytes detects the format of b and parses it.
func parseBytes(b []byte) (Controller, error) {
	switch f := DetectFormat(b); f {
	case FormatBinary:
		c, err := DecodeIdentify(b)
		if err != nil {
			return Controller{}, &ParseError{Format: FormatBinary, Expected: "a 4096-byte Identify Controller image", Err: err}
		}
		return c, nil
	case FormatNVMeCLIText:
		return parseNVMeCLIText(decodeText(b))
	case FormatNVMeCLIJSON:
		return parseNVMeCLIJSON(decodeText(b))
	case FormatSmartctlText:
		return parseSmartctlText(decodeText(b))
	case FormatSmartctlJSON:
		return parseSmartctlJSON(decodeText(b))
	}
	return Controller{}, &ParseError{
		Expected: "a 4096-byte Identify Controller image, nvme id-ctrl text or JSON, or smartctl text or JSON",
		Err:      ErrUnknownFormat,
	}
}

// DetectFormat tells which capture format b is in, from its content alone:
//
//   - FormatBinary: exactly IdentifySize (4096) bytes that are not text
//     (they contain a NUL byte, as every real image does), or 4096 bytes
//     that match no text format;
//   - FormatNVMeCLIJSON / FormatSmartctlJSON: a JSON object (possibly after
//     a few non-JSON lines such as a shell prompt); smartctl's has the keys
//     "smartctl", "json_format_version" or "nvme_power_states", nvme-cli's
//     the keys "psds", "npss" or "mn";
//   - FormatSmartctlText: the smartctl banner, "=== START OF INFORMATION
//     SECTION ===", "Supported Power States" or the "St Op     Max" table
//     header, or a "Model Number:" line;
//   - FormatNVMeCLIText: "NVME Identify Controller:", a "ps    0 : mp:" line
//     or an id-ctrl key line such as "vid       : 0x144d" or "npss    : 4".
//
// The first marker found decides. Text in UTF-16 with a byte order mark is
// recognised too. FormatUnknown is returned when nothing matches.
func DetectFormat(b []byte) Format {
	if hasUTF16BOM(b) {
		if f := detectText(decodeText(b)); f != FormatUnknown {
			return f
		}
	}
	if len(b) == IdentifySize && bytes.IndexByte(b, 0) >= 0 {
		return FormatBinary
	}
	if f := detectText(decodeText(b)); f != FormatUnknown {
		return f
	}
	if len(b) == IdentifySize {
		return FormatBinary
	}
	return FormatUnknown
}

// maxDetectLines bounds how many lines DetectFormat looks at.
const maxDetectLines = 4096

// detectText finds the first format marker in s.
func detectText(s string) Format {
	l := lineReader{s: s}
	for l.n < maxDetectLines {
		line, _, ok := l.next()
		if !ok {
			break
		}
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		if t[0] == '{' {
			return detectJSON(s[l.start:])
		}
		switch {
		case strings.HasPrefix(t, "smartctl ") && len(t) > 9 && isDigit(t[9]),
			strings.HasPrefix(t, "=== START OF INFORMATION SECTION ==="),
			t == "Supported Power States",
			strings.HasPrefix(t, "St Op ") && strings.Contains(t, "Ex_Lat"),
			strings.HasPrefix(line, "Model Number:"):
			return FormatSmartctlText
		case strings.HasPrefix(t, "NVME Identify Controller"):
			return FormatNVMeCLIText
		}
		if _, _, ok := cutPSLine(line); ok {
			return FormatNVMeCLIText
		}
		if key, _, ok := cutNVMeKey(line); ok {
			switch key {
			case "vid", "ssvid", "mn", "sn", "fr", "npss", "apsta", "ver", "cntlid", "ieee":
				return FormatNVMeCLIText
			}
		}
	}
	return FormatUnknown
}

// detectJSON tells the two JSON formats apart by their keys.
func detectJSON(s string) Format {
	switch {
	case strings.Contains(s, `"nvme_power_states"`), strings.Contains(s, `"json_format_version"`),
		strings.Contains(s, `"smartctl"`):
		return FormatSmartctlJSON
	case strings.Contains(s, `"psds"`), strings.Contains(s, `"npss"`), strings.Contains(s, `"mn"`):
		return FormatNVMeCLIJSON
	}
	return FormatUnknown
}

// lineReader splits text into lines ended by "\n", "\r\n" or a lone "\r"
// (Windows and old Mac line endings); the terminators are not returned.
type lineReader struct {
	s     string
	pos   int // offset of the next line
	start int // offset of the line last returned
	n     int // number of the line last returned (1-based)
}

// next returns the next line, whether it was ended by a line terminator,
// and false at the end of the text.
func (l *lineReader) next() (line string, terminated, ok bool) {
	if l.pos >= len(l.s) {
		return "", false, false
	}
	rest := l.s[l.pos:]
	l.start = l.pos
	l.n++
	i := strings.IndexAny(rest, "\r\n")
	if i < 0 {
		l.pos = len(l.s)
		return rest, false, true
	}
	adv := i + 1
	if rest[i] == '\r' && i+1 < len(rest) && rest[i+1] == '\n' {
		adv++
	}
	l.pos += adv
	return rest[:i], true, true
}

// peek returns the next line without consuming it, with its line number
// (the number it would have, also at the end of the text).
func (l *lineReader) peek() (line string, n int, ok bool) {
	c := *l
	line, _, ok = c.next()
	if !ok {
		return "", l.n + 1, false
	}
	return line, c.n, true
}

// lineOf returns the 1-based line number of byte offset off in s, counting
// line terminators as lineReader does.
func lineOf(s string, off int) int {
	if off > len(s) {
		off = len(s)
	}
	if off < 0 {
		off = 0
	}
	n := 1
	for i := 0; i < off; i++ {
		switch s[i] {
		case '\n':
			n++
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				continue
			}
			n++
		}
	}
	return n
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// parseDec parses an unsigned decimal that fits in bits bits.
func parseDec(s string, bits int) (uint64, bool) {
	if s == "" || !isDigit(s[0]) {
		return 0, false
	}
	v, err := strconv.ParseUint(s, 10, bits)
	if err != nil {
		return 0, false
	}
	return v, true
}

// parseHex parses hexadecimal digits with an optional 0x prefix.
func parseHex(s string, bits int) (uint64, bool) {
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		s = s[2:]
	}
	if s == "" || s[0] == '+' || s[0] == '-' || s[0] == '_' {
		return 0, false
	}
	v, err := strconv.ParseUint(s, 16, bits)
	if err != nil || strings.Contains(s, "_") {
		return 0, false
	}
	return v, true
}

// parseLatency parses an ENLAT or EXLAT as nvme-cli prints it: "%d" of a
// 32-bit value, so values of 2^31 and more appear negative. Both forms give
// the same 32-bit field.
func parseLatency(s string) (Microseconds, bool) {
	if strings.HasPrefix(s, "-") {
		v, err := strconv.ParseInt(s, 10, 32)
		if err != nil || v >= 0 {
			return 0, false
		}
		return Microseconds(uint32(int32(v))), true
	}
	v, ok := parseDec(s, 32)
	return Microseconds(v), ok
}

// parseWatts parses a power as nvme-cli and smartctl print it: "6.00W"
// (two decimals: 0.01 W units) or "0.0070W" (four decimals: 0.0001 W
// units). The units must fit the 16-bit field.
func parseWatts(s string) (Power, bool) {
	num, ok := strings.CutSuffix(s, "W")
	if !ok {
		return Power{}, false
	}
	ip, fp, ok := strings.Cut(num, ".")
	if !ok || ip == "" {
		return Power{}, false
	}
	var scale Scale
	var mul uint64
	switch len(fp) {
	case 2:
		scale, mul = Scale0_01W, 100
	case 4:
		scale, mul = Scale0_0001W, 10000
	default:
		return Power{}, false
	}
	i, ok1 := parseDec(ip, 16)
	f, ok2 := parseDec(fp, 16)
	if !ok1 || !ok2 {
		return Power{}, false
	}
	u := i*mul + f
	if u > 0xffff {
		return Power{}, false
	}
	return Power{Units: uint16(u), Scale: scale}, true
}

// parseOptionalPower parses an IDLP/ACTP as nvme-cli prints it: "-" (not
// reported), "reserved", or watts.
func parseOptionalPower(s string) (Power, bool) {
	switch s {
	case "-":
		return Power{}, true
	case "reserved":
		return Power{Scale: ScaleReserved}, true
	}
	return parseWatts(s)
}

// Widths of the Identify string fields.
const (
	maxSerial   = lenSN
	maxModel    = lenMN
	maxFirmware = lenFR
)

// cleanString trims the padding a printer keeps (trailing spaces and NULs,
// as DecodeIdentify does) and checks the result fits the Identify field.
func cleanString(s string, width int) (string, bool) {
	s = strings.TrimRight(s, " \x00")
	return s, len(s) <= width
}

// normalizeMaxPower gives MP the unit MXPS selects: 0.0001 W when the
// scale says so, 0.01 W otherwise (as the binary encoding does).
func normalizeMaxPower(p Power) Power {
	if p.Scale != Scale0_0001W {
		p.Scale = Scale0_01W
	}
	return p
}
