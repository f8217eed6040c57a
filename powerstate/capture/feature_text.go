package capture

import (
	"github.com/nvmeapst/nvmeapst/apst"

	"errors"
	"fmt"
	"strconv"
	"strings"
)

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
		return &ParseError{Feature: FeatureText, Line: line, Expected: what,
			Err: foundErr(ErrSyntax, t)}
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

func parseFeatureText(s string) (FeatureCapture, error) {
	var (
		hdr        *featureHeader
		apste      = -1 // from the APSTE line
		apsteLn    int
		fields     [apst.Entries]struct{ itps, itpt uint32 }
		entry      = 0  // entries seen in the -H body
		field      = 0  // 0: want Entry[n], 1: want ITPT, 2: want ITPS
		inBody     bool // "Auto PST Entries" seen
		hd         = hexDump{Max: apst.TableSize}
		dumpOver   bool // the dump has ended
		bodyOver   bool // a line that is no entry ended the -H entries
		bodyOverLn int
		cutITPS    bool // the last ITPS was cut at the end of the capture
		recog      bool
		layout     fieldLayout // of the ITPT and ITPS lines
	)
	format := FeatureText
	// The error helpers are called at some twenty places: a function each
	// (not a closure the compiler copies into every one) keeps the page's
	// engine small.
	fail := func(line int, expected string, err error) (FeatureCapture, error) {
		return FeatureCapture{}, featureErr(format, &layout, line, expected, err)
	}
	l := newLineReader(s)
	syntax := func(line int, expected, found string) (FeatureCapture, error) {
		return FeatureCapture{}, featureSyntaxErr(s, format, &layout, line, expected, found)
	}
	second := func(line int, what string) (FeatureCapture, error) {
		return FeatureCapture{}, featureErr(format, &layout, line, "one capture", fmt.Errorf("%w: a second %s, the second capture starting on line %d",
			ErrMultipleCaptures, what, line))
	}
	entriesLine := 0
	for {
		raw, _, ok := l.Next()
		if !ok {
			break
		}
		t := strings.TrimSpace(raw)
		if t == "" {
			continue
		}
		switch {
		case strings.HasPrefix(t, "get-feature:"):
			if hdr != nil || inBody || len(hd.Data) > 0 {
				return second(l.N(), "get-feature header")
			}
			h, err := parseFeatureHeader(t, l.N())
			if err != nil {
				return FeatureCapture{}, err
			}
			hdr, recog = &h, true
			continue
		case strings.HasPrefix(apsteLine(t), lnAPSTE):
			if apsteLn != 0 {
				return fail(l.N(), "each key once (APSTE is on line "+strconv.Itoa(apsteLn)+" already)",
					fmt.Errorf("%w: APSTE on lines %d and %d", ErrDuplicateKey, apsteLn, l.N()))
			}
			v := strings.TrimSpace(strings.TrimPrefix(apsteLine(t), lnAPSTE))
			switch v {
			case "Enabled":
				apste = 1
			case "Disabled":
				apste = 0
			default:
				return syntax(l.N(), `"Enabled" or "Disabled" after "`+lnAPSTE+`"`, v)
			}
			apsteLn, recog = l.N(), true
			continue
		case strings.HasPrefix(t, lnEntries):
			if inBody {
				return second(l.N(), `"Auto PST Entries" table`)
			}
			inBody, recog, entriesLine = true, true, l.N()
			continue
		case strings.Trim(t, ".") == "":
			continue // separator line
		}
		if !dumpOver && !inBody {
			ok, err := hd.Add(t, l.N())
			if err != nil {
				format = FeatureHexDump
				var he *hexDumpError
				if errors.As(err, &he) {
					if he.Cut {
						return fail(he.Line, he.Expected+" of the hex dump", ErrTruncated)
					}
					return syntax(he.Line, he.Expected+" of the hex dump", he.Found)
				}
				return fail(l.N(), "the hex dump of the 256-byte buffer", err)
			}
			if ok {
				recog = true
				continue
			}
			if hd.Layout != hexNone {
				dumpOver = true // the line after the dump
			} else if isHexDumpRuler(t) {
				continue
			}
		}
		if !inBody {
			continue // other lines (a prompt, other features) are ignored
		}
		n := normSpace(t)
		if bodyOver {
			if isEntryLine(n) {
				return syntax(l.N(), fmt.Sprintf(`"Entry[%2d]" right after the entry before (line %d ends the entries)`, entry, bodyOverLn), t)
			}
			continue
		}
		if entry >= apst.Entries {
			if isEntryLine(n) {
				return syntax(l.N(), "at most 32 entries (Entry[ 0] to Entry[31]) after line "+strconv.Itoa(entriesLine), t)
			}
			continue
		}
		switch field {
		case 0:
			idx, ok := entryIndex(n)
			if !ok && (!isEntryLine(n) || isEntryRange(n)) {
				// Prose after the entries a paste shows: the rest is
				// unknown.
				bodyOver, bodyOverLn = true, l.N()
				continue
			}
			if !ok || idx != entry {
				return syntax(l.N(), fmt.Sprintf(`"Entry[%2d]"`, entry), t)
			}
			field = 1
		case 1:
			n, same := layout.field(n)
			if !same {
				return syntax(l.N(), layoutExpected(lnITPT+" N ms", layout), t)
			}
			v, ok := strings.CutPrefix(n, lnITPT)
			ms, ok2 := strings.CutSuffix(strings.TrimSpace(v), " ms")
			x, err := strconv.ParseUint(ms, 10, 32)
			if !ok || !ok2 || err != nil || x > 0xffffff {
				return syntax(l.N(), `"`+lnITPT+` N ms" with N below 2^24`, t)
			}
			fields[entry].itpt = uint32(x)
			field = 2
		case 2:
			n, same := layout.field(n)
			if !same {
				return syntax(l.N(), layoutExpected(lnITPS+" N", layout), t)
			}
			v, ok := strings.CutPrefix(n, lnITPS)
			v = strings.TrimSpace(v)
			x, err := strconv.ParseUint(v, 10, 8)
			if !ok || err != nil || x > 31 {
				return syntax(l.N(), `"Idle Transition Power State   (ITPS): N" with N from 0 to 31`, t)
			}
			if endsInside(s, l.N()) && len(v) == 1 && x >= 1 && x <= 3 {
				// The last line, without its terminator: "1" to "3" may be
				// the first digit of 10 to 31. The entry is unknown.
				cutITPS = true
				continue
			}
			fields[entry].itps = uint32(x)
			field = 0
			entry++
		}
	}
	if !recog {
		return FeatureCapture{}, &ParseError{
			Expected: "the raw 256-byte APST buffer or nvme get-feature -f 0x0c output (text, hex dump or JSON)",
			Err:      ErrUnknownFormat}
	}
	fc := FeatureCapture{Format: layout.form()}
	if !dumpOver && hd.Layout != hexNone {
		if err := hd.Finish(l.N() + 1); err != nil {
			format = FeatureHexDump
			var he *hexDumpError
			errors.As(err, &he)
			return fail(he.Line, he.Expected+" of the hex dump", ErrTruncated)
		}
	}
	dump, dumpStart := hd.Data, hd.First
	known := apst.Entries // entries the capture shows, 0 to known-1
	switch {
	case len(dump) > 0 && len(dump) < apst.TableSize:
		// A dump cut short: the whole entries it shows.
		fc.Format = FeatureHexDump
		known = len(dump) / 8
		full := make([]byte, apst.TableSize)
		copy(full, dump[:known*8])
		fc.Table, _ = apst.DecodeTable(full)
		dump = nil
	case len(dump) == apst.TableSize:
		fc.Format = FeatureHexDump
		t, _ := apst.DecodeTable(dump)
		fc.Table = t
		if inBody {
			fc.Format = layout.form()
		}
	}
	if inBody {
		for i, f := range fields[:entry] {
			e := apst.NewEntry(uint8(f.itps), apst.Milliseconds(f.itpt))
			if len(dump) == apst.TableSize {
				if got := fc.Table[i]; got.TargetState() != e.TargetState() || got.IdleTime() != e.IdleTime() {
					return fail(dumpStart, fmt.Sprintf("entry %d of the hex dump to agree with the decoded fields (%v)", i, e),
						fmt.Errorf("%w: found %v", ErrSyntax, got))
				}
				continue
			}
			fc.Table[i] = e
		}
		if len(dump) != apst.TableSize {
			fc.Masked = true
			known = min(known, entry)
		}
	}
	if !inBody && len(hd.Data) == 0 {
		known = 0 // a header, or the APSTE line, without the table
	}
	if l := hd.Layout; l != hexNone && l != hexNVMeCLI {
		fc.Notes = append(fc.Notes, "read from a hex dump of the buffer ("+l.String()+", lines "+strconv.Itoa(hd.First)+" to "+strconv.Itoa(hd.Last)+")")
	}
	if known < apst.Entries {
		for i := known; i < apst.Entries; i++ {
			fc.Unknown |= 1 << i
		}
		fc.Notes = append(fc.Notes, partialNote(known, cutITPS, len(hd.Data) > 0 && len(hd.Data) < apst.TableSize, len(hd.Data)))
	}
	if hdr != nil {
		fc.Select = hdr.sel
		fc.APSTE = apst.APSTEOf(hdr.dword0&1 != 0)
	}
	if apste >= 0 {
		if fc.APSTE.Known() && fc.APSTE != apst.APSTEOf(apste == 1) {
			return syntax(apsteLn, "APSTE to agree with bit 0 of the value in the header line "+strconv.Itoa(hdr.line),
				lnAPSTE+" "+map[bool]string{true: "Enabled", false: "Disabled"}[apste == 1])
		}
		fc.APSTE = apst.APSTEOf(apste == 1)
	}
	return fc, nil
}

// partialNote says which entries a partial capture shows.
func partialNote(known int, cutITPS, cutDump bool, dumpLen int) string {
	shown := "no entry"
	switch {
	case known == 1:
		shown = "entry 0 only"
	case known > 1:
		shown = "entries 0 to " + strconv.Itoa(known-1) + " only"
	}
	why := ""
	switch {
	case cutDump:
		why = " (its hex dump holds " + strconv.Itoa(dumpLen) + " of the 256 bytes)"
	case cutITPS:
		why = " (the ITPS of entry " + strconv.Itoa(known) + " is on the last line, without its terminator, and may be cut)"
	}
	unknown := "entries " + strconv.Itoa(known) + " to 31 are"
	if known == 31 {
		unknown = "entry 31 is"
	}
	return "the capture shows " + shown + why + ": " + unknown + " unknown, not zero"
}

// isEntryLine reports whether n (blanks collapsed) is a line of an entry
// block: "Entry[N]", the ITPT or the ITPS line.
func isEntryLine(n string) bool {
	return strings.HasPrefix(n, "Entry[") || strings.HasPrefix(n, lnITPT) || strings.HasPrefix(n, lnITPS)
}

// isEntryRange reports a line a paste writes for the entries it leaves out,
// "Entry[4-31] are: ..." or "Entry [ 4 - 31 ] ...": prose, not an entry.
func isEntryRange(n string) bool {
	rest, ok := strings.CutPrefix(n, "Entry[")
	if !ok {
		return false
	}
	i := strings.IndexByte(rest, ']')
	return i > 0 && strings.Contains(rest[:i], "-")
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
	return v, err == nil && v >= 0
}

// featureErr is the *ParseError of a get-feature capture: format, or the
// form the ITPT and ITPS lines' layout gives a text capture.
//
//go:noinline
func featureErr(format FeatureFormat, layout *fieldLayout, line int, expected string, err error) error {
	if format == FeatureText {
		format = layout.form()
	}
	return &ParseError{Feature: format, Line: line, Expected: expected, Err: err}
}

// featureSyntaxErr is featureErr for a line that is not what was
// expected: ErrTruncated when it is the last line of s, cut without its
// terminator, else ErrSyntax naming what was found.
//
//go:noinline
func featureSyntaxErr(s string, format FeatureFormat, layout *fieldLayout, line int, expected, found string) error {
	if endsInside(s, line) {
		// The last line, without its terminator: the capture was cut.
		return featureErr(format, layout, line, expected+" (the capture ends inside the line)", ErrTruncated)
	}
	return featureErr(format, layout, line, expected, foundErr(ErrSyntax, found))
}
