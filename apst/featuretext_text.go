package apst

import (
	"fmt"
	"strconv"
	"strings"
)

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

// clip shortens a quoted value for an error message.
func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

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
