package apst

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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

// featureLines splits text into lines ended by "\n", "\r\n" or "\r".
type featureLines struct {
	s   string
	pos int
	n   int
}

func (l *featureLines) next() (string, bool) {
	if l.pos >= len(l.s) {
		return "", false
	}
	rest := l.s[l.pos:]
	l.n++
	i := strings.IndexAny(rest, "\r\n")
	if i < 0 {
		l.pos = len(l.s)
		return rest, true
	}
	adv := i + 1
	if rest[i] == '\r' && i+1 < len(rest) && rest[i+1] == '\n' {
		adv++
	}
	l.pos += adv
	return rest[:i], true
}

// featureHeader is what the "get-feature:" line says.
type featureHeader struct {
	line   int
	sel    string
	dword0 uint32
}

// parseFeatureHeader parses "get-feature:0x0c (NAME), SELECT value:VALUE".
func parseFeatureHeader(t string, line int) (featureHeader, error) {
	const expected = `"get-feature:0x0c (Autonomous Power State Transition), Current value:0x00000001"`
	bad := func(what string) error {
		return &FeatureParseError{Format: FeatureFormatText, Line: line, Expected: what,
			Err: fmt.Errorf("%w: found %q", ErrFeatureSyntax, clip(t))}
	}
	rest, _ := strings.CutPrefix(t, "get-feature:")
	fid, rest, ok := strings.Cut(strings.TrimLeft(rest, " "), " ")
	if !ok {
		return featureHeader{}, bad(expected)
	}
	if v, ok := parseHex32(fid); !ok || v != 0x0c {
		return featureHeader{}, bad("feature 0x0c (Autonomous Power State Transition)")
	}
	_, rest, ok = strings.Cut(rest, "), ")
	if !ok {
		return featureHeader{}, bad(expected)
	}
	sel, val, ok := strings.Cut(rest, " value:")
	if !ok {
		return featureHeader{}, bad(expected)
	}
	switch sel {
	case "Current", "Default", "Saved":
	default:
		return featureHeader{}, bad(`the select "Current", "Default" or "Saved" (supported capabilities carry no table)`)
	}
	v, ok := parseHex32(strings.TrimSpace(val))
	if !ok {
		return featureHeader{}, bad("a hexadecimal 32-bit value after \"value:\"")
	}
	return featureHeader{line: line, sel: sel, dword0: v}, nil
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

// clip shortens a quoted value for an error message.
func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
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

func parseFeatureText(s string) (FeatureCapture, error) {
	var (
		hdr       *featureHeader
		apste     = -1 // from the APSTE line
		apsteLn   int
		fields    [Entries]struct{ itps, itpt uint32 }
		entry     = 0  // entries seen in the -H body
		field     = 0  // 0: want Entry[n], 1: want ITPT, 2: want ITPS
		inBody    bool // "Auto PST Entries" seen
		dump      []byte
		dumpStart int
		recog     bool
	)
	format := FeatureFormatText
	fail := func(line int, expected string, err error) (FeatureCapture, error) {
		return FeatureCapture{}, &FeatureParseError{Format: format, Line: line, Expected: expected, Err: err}
	}
	l := featureLines{s: s}
	syntax := func(line int, expected, found string) (FeatureCapture, error) {
		if line == l.n && l.pos >= len(s) && !strings.HasSuffix(s, "\n") && !strings.HasSuffix(s, "\r") {
			// The last line, without its terminator: the capture was cut.
			return fail(line, expected+" (the capture ends inside the line)", ErrFeatureTruncated)
		}
		return fail(line, expected, fmt.Errorf("%w: found %q", ErrFeatureSyntax, clip(found)))
	}
	for {
		raw, ok := l.next()
		if !ok {
			break
		}
		t := strings.TrimSpace(raw)
		if t == "" {
			continue
		}
		switch {
		case strings.HasPrefix(t, "get-feature:"):
			if hdr != nil {
				continue // a second capture: ignore
			}
			h, err := parseFeatureHeader(t, l.n)
			if err != nil {
				return FeatureCapture{}, err
			}
			hdr, recog = &h, true
			continue
		case strings.HasPrefix(normSpace(t), lnAPSTE):
			v := strings.TrimSpace(strings.TrimPrefix(normSpace(t), lnAPSTE))
			switch v {
			case "Enabled":
				apste = 1
			case "Disabled":
				apste = 0
			default:
				return syntax(l.n, `"Enabled" or "Disabled" after "`+lnAPSTE+`"`, v)
			}
			apsteLn, recog = l.n, true
			continue
		case strings.HasPrefix(t, lnEntries):
			inBody, recog = true, true
			continue
		case strings.Trim(t, ".") == "":
			continue // separator line
		}
		if len(dump) < TableSize && !inBody {
			if off, bs, ok := hexDumpLine(t); ok {
				if off != len(dump) {
					format = FeatureFormatHexDump
					return syntax(l.n, "the hex dump line at offset "+fmt.Sprintf("%04x", len(dump)), t)
				}
				if dump == nil {
					dumpStart = l.n
				}
				dump = append(dump, bs...)
				if len(dump) > TableSize {
					dump = dump[:TableSize]
				}
				recog = true
				continue
			}
			if isHexDumpRuler(t) {
				continue
			}
		}
		if !inBody || entry >= Entries {
			continue // other lines (a prompt, other features) are ignored
		}
		n := normSpace(t)
		switch field {
		case 0:
			idx, ok := entryIndex(n)
			if !ok || idx != entry {
				return syntax(l.n, fmt.Sprintf(`"Entry[%2d]"`, entry), t)
			}
			field = 1
		case 1:
			v, ok := strings.CutPrefix(n, lnITPT)
			ms, ok2 := strings.CutSuffix(strings.TrimSpace(v), " ms")
			x, err := strconv.ParseUint(ms, 10, 32)
			if !ok || !ok2 || err != nil || x > 0xffffff {
				return syntax(l.n, `"`+lnITPT+` N ms" with N below 2^24`, t)
			}
			fields[entry].itpt = uint32(x)
			field = 2
		case 2:
			v, ok := strings.CutPrefix(n, lnITPS)
			x, err := strconv.ParseUint(strings.TrimSpace(v), 10, 8)
			if !ok || err != nil || x > 31 {
				return syntax(l.n, `"Idle Transition Power State   (ITPS): N" with N from 0 to 31`, t)
			}
			fields[entry].itps = uint32(x)
			field = 0
			entry++
		}
	}
	if !recog {
		return FeatureCapture{}, &FeatureParseError{
			Expected: "the raw 256-byte APST buffer or nvme get-feature -f 0x0c output (text, hex dump or JSON)",
			Err:      ErrFeatureFormat}
	}
	fc := FeatureCapture{Format: FeatureFormatText}
	switch {
	case len(dump) > 0 && len(dump) < TableSize:
		format = FeatureFormatHexDump
		return fail(l.n+1, fmt.Sprintf("the hex dump line at offset %04x (256 bytes)", len(dump)), ErrFeatureTruncated)
	case len(dump) == TableSize:
		fc.Format, fc.Exact = FeatureFormatHexDump, true
		t, _ := DecodeTable(dump)
		fc.Table = t
		if inBody {
			fc.Format = FeatureFormatText
		}
	}
	if inBody {
		if entry < Entries {
			what := [...]string{fmt.Sprintf(`"Entry[%2d]"`, entry), `"` + lnITPT + ` N ms"`, `"Idle Transition Power State   (ITPS): N"`}[field]
			return fail(l.n+1, what+" (32 entries)", ErrFeatureTruncated)
		}
		for i, f := range fields {
			e := NewEntry(uint8(f.itps), Milliseconds(f.itpt))
			if fc.Exact {
				if got := fc.Table[i]; got.TargetState() != e.TargetState() || got.IdleTime() != e.IdleTime() {
					return fail(dumpStart, fmt.Sprintf("entry %d of the hex dump to agree with the decoded fields (%v)", i, e),
						fmt.Errorf("%w: found %v", ErrFeatureSyntax, got))
				}
				continue
			}
			fc.Table[i] = e
		}
	}
	if !inBody && len(dump) == 0 {
		line := l.n + 1
		return fail(line, "the APST table (the -H fields or the hex dump of the 256-byte buffer)", ErrFeatureTruncated)
	}
	if hdr != nil {
		fc.Select = hdr.sel
		fc.Enabled, fc.EnabledKnown = hdr.dword0&1 != 0, true
	}
	if apste >= 0 {
		if fc.EnabledKnown && fc.Enabled != (apste == 1) {
			return syntax(apsteLn, "APSTE to agree with bit 0 of the value in the header line "+strconv.Itoa(hdr.line),
				lnAPSTE+" "+map[bool]string{true: "Enabled", false: "Disabled"}[apste == 1])
		}
		fc.Enabled, fc.EnabledKnown = apste == 1, true
	}
	return fc, nil
}

// entryIndex parses "Entry[ 3]" (blanks collapsed: "Entry[ 3]" or "Entry[3]").
func entryIndex(n string) (int, bool) {
	rest, ok := strings.CutPrefix(n, "Entry[")
	if !ok {
		return 0, false
	}
	num, ok := strings.CutSuffix(rest, "]")
	if !ok {
		return 0, false
	}
	v, err := strconv.Atoi(strings.TrimSpace(num))
	return v, err == nil && v >= 0 && v < Entries
}

// hexDumpLine parses a line of nvme-cli's hex dump, "0010: 18 64 00 ...
// "ascii"", returning the offset and the bytes.
func hexDumpLine(t string) (int, []byte, bool) {
	off, rest, ok := strings.Cut(t, ":")
	if !ok || len(off) < 4 || len(off) > 8 {
		return 0, nil, false
	}
	o, err := strconv.ParseUint(off, 16, 32)
	if err != nil {
		return 0, nil, false
	}
	var bs []byte
	for _, tok := range strings.Fields(rest) {
		if strings.HasPrefix(tok, `"`) {
			break
		}
		if len(tok) != 2 || len(bs) >= 16 {
			return 0, nil, false
		}
		v, err := strconv.ParseUint(tok, 16, 8)
		if err != nil {
			return 0, nil, false
		}
		bs = append(bs, byte(v))
	}
	if len(bs) == 0 {
		return 0, nil, false
	}
	return int(o), bs, true
}

// isHexDumpRuler reports whether t is the dump's column ruler "0 1 2 ... f".
func isHexDumpRuler(t string) bool {
	fs := strings.Fields(t)
	if len(fs) != 16 {
		return false
	}
	for i, f := range fs {
		if f != strconv.FormatInt(int64(i), 16) {
			return false
		}
	}
	return true
}

// parseFeatureJSON reads the JSON form: one or more top-level objects.
func parseFeatureJSON(s string) (FeatureCapture, error) {
	const format = FeatureFormatJSON
	fc := FeatureCapture{Format: format}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	lineAt := func(off int64) int {
		if off > int64(len(s)) {
			off = int64(len(s))
		}
		return 1 + strings.Count(s[:off], "\n")
	}
	var entries []any
	entriesLine := 0
	apste, apsteLine := -1, 0
	dword0Known := false
	var dword0 uint32
	found := false
	for {
		start := dec.InputOffset()
		var v any
		err := dec.Decode(&v)
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *json.SyntaxError
			line := lineAt(start)
			if errors.As(err, &se) {
				line = lineAt(start + se.Offset)
			}
			if found {
				break // trailing text after the objects
			}
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return FeatureCapture{}, &FeatureParseError{Format: format, Line: lineAt(int64(len(strings.TrimRight(s, " \t\r\n")))),
					Expected: "the rest of the JSON object", Err: ErrFeatureTruncated}
			}
			return FeatureCapture{}, &FeatureParseError{Format: format, Line: line, Expected: "a JSON object", Err: fmt.Errorf("%w: %v", ErrFeatureSyntax, err)}
		}
		line := lineAt(start + int64(len(s[start:])-len(strings.TrimLeft(s[start:], " \t\r\n"))))
		top, ok := v.(map[string]any)
		if !ok {
			continue
		}
		for k, inner := range top {
			if !isAPSTKey(k) {
				continue
			}
			obj, ok := inner.(map[string]any)
			if !ok {
				return FeatureCapture{}, &FeatureParseError{Format: format, Line: line, Expected: "an object as the value of " + strconv.Quote(k),
					Err: fmt.Errorf("%w: found %T", ErrFeatureSyntax, inner)}
			}
			found = true
			for ik, iv := range obj {
				switch nk := normSpace(ik); {
				case nk == "Current" || nk == "Default" || nk == "Saved":
					x, ok := jsonUint(iv, 32)
					if !ok {
						return FeatureCapture{}, &FeatureParseError{Format: format, Line: line, Expected: "a hexadecimal value for " + strconv.Quote(ik),
							Err: fmt.Errorf("%w: found %v", ErrFeatureSyntax, iv)}
					}
					dword0, dword0Known, fc.Select = uint32(x), true, nk
				case nk == strings.TrimSuffix(lnAPSTE, ":") || nk == "APSTE":
					switch iv {
					case "Enabled", true, json.Number("1"):
						apste = 1
					case "Disabled", false, json.Number("0"):
						apste = 0
					default:
						return FeatureCapture{}, &FeatureParseError{Format: format, Line: line, Expected: `"Enabled" or "Disabled" for APSTE`,
							Err: fmt.Errorf("%w: found %v", ErrFeatureSyntax, iv)}
					}
					apsteLine = line
				case nk == lnEntries:
					arr, ok := iv.([]any)
					if !ok {
						return FeatureCapture{}, &FeatureParseError{Format: format, Line: line, Expected: `an array for "Auto PST Entries"`,
							Err: fmt.Errorf("%w: found %T", ErrFeatureSyntax, iv)}
					}
					entries, entriesLine = arr, line
				}
			}
		}
	}
	if !found {
		return FeatureCapture{}, &FeatureParseError{Format: format, Line: 1, Expected: `a "feature: 0x0c" or "Feature: 0x0c" object`, Err: ErrFeatureFormat}
	}
	if entries == nil {
		return FeatureCapture{}, &FeatureParseError{Format: format, Line: lineAt(int64(len(s))), Expected: `the "Auto PST Entries" array`, Err: ErrFeatureTruncated}
	}
	var seen [Entries]bool
	for i, ev := range entries {
		obj, ok := ev.(map[string]any)
		bad := func(what string, v any) (FeatureCapture, error) {
			return FeatureCapture{}, &FeatureParseError{Format: format, Line: entriesLine,
				Expected: fmt.Sprintf("%s in Auto PST Entries[%d]", what, i), Err: fmt.Errorf("%w: found %v", ErrFeatureSyntax, v)}
		}
		if !ok {
			return bad("an object", ev)
		}
		idx, itps, itpt := i, uint64(0), uint64(0)
		var haveS, haveT bool
		for k, v := range obj {
			switch nk := normSpace(k); nk {
			case "entry", "Entry":
				x, ok := jsonUint(v, 8)
				if !ok || x >= Entries {
					return bad("an entry number 0 to 31", v)
				}
				idx = int(x)
			case strings.TrimSuffix(lnITPT, ":"), "ITPT":
				if sv, ok := v.(string); ok {
					v = strings.TrimSuffix(strings.TrimSpace(sv), " ms")
				}
				x, ok := jsonUint(v, 24)
				if !ok {
					return bad(`an idle time "N ms" below 2^24`, v)
				}
				itpt, haveT = x, true
			case strings.TrimSuffix(lnITPS, ":"), "ITPS":
				x, ok := jsonUint(v, 8)
				if !ok || x > 31 {
					return bad("a power state 0 to 31", v)
				}
				itps, haveS = x, true
			}
		}
		if !haveS || !haveT {
			return bad("ITPT and ITPS", obj)
		}
		if seen[idx] {
			return bad("each entry once", idx)
		}
		seen[idx] = true
		fc.Table[idx] = NewEntry(uint8(itps), Milliseconds(itpt))
	}
	if len(entries) < Entries {
		return FeatureCapture{}, &FeatureParseError{Format: format, Line: entriesLine, Expected: "32 Auto PST Entries", Err: ErrFeatureTruncated}
	}
	if dword0Known {
		fc.Enabled, fc.EnabledKnown = dword0&1 != 0, true
	}
	if apste >= 0 {
		if fc.EnabledKnown && fc.Enabled != (apste == 1) {
			return FeatureCapture{}, &FeatureParseError{Format: format, Line: apsteLine, Expected: "APSTE to agree with bit 0 of the value",
				Err: ErrFeatureSyntax}
		}
		fc.Enabled, fc.EnabledKnown = apste == 1, true
	}
	return fc, nil
}

// isAPSTKey reports whether k names feature 0x0c, as nvme-cli's JSON does
// ("feature: 0x0c", "Feature: 0x0c", "feature:0xc").
func isAPSTKey(k string) bool {
	rest, ok := strings.CutPrefix(strings.ToLower(strings.TrimSpace(k)), "feature:")
	if !ok {
		return false
	}
	v, ok := parseHex32(strings.TrimSpace(rest))
	return ok && v == 0x0c
}

// jsonUint reads an unsigned value of at most bits bits from a JSON number
// or a string (decimal, or hexadecimal with 0x, possibly space-padded).
func jsonUint(v any, bits int) (uint64, bool) {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = string(x)
	case string:
		s = strings.TrimSpace(x)
		if h, ok := strings.CutPrefix(strings.ToLower(s), "0x"); ok {
			n, err := strconv.ParseUint(h, 16, bits)
			return n, err == nil && h != "" && !strings.ContainsAny(h, "+-_")
		}
	default:
		return 0, false
	}
	if s == "" || s[0] == '+' || s[0] == '-' || strings.Contains(s, "_") {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, bits)
	return n, err == nil
}
