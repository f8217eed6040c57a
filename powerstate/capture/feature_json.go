package capture

import (
	"fmt"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
)

// featureJSON is what the JSON form's objects have said so far.
type featureJSON struct {
	w                    *jsonWalker
	fail                 failFn
	fc                   FeatureCapture
	dword0               uint32
	selLine              int // line of the select's value, 0 when none
	apste                apst.APSTE
	apsteLine            int
	entriesLine, entries int
	seen                 [apst.Entries]bool
}

// parseFeatureJSON reads the JSON form: one or more top-level objects, each
// with a feature 0x0c key, the first on line marker; anything but white
// space after the last of them (text, a bracket, another object) is
// refused (jsonTrailing).
func parseFeatureJSON(s string, marker int) (FeatureCapture, error) {
	const format = FeatureJSON
	fail := func(line int, expected string, err error) error {
		return &ParseError{Feature: format, Line: line, Expected: expected, Err: err}
	}
	l := newLineReader(s)
	for l.N() < marker {
		if _, _, ok := l.Next(); !ok {
			break // no such line: the walk below finds no object
		}
	}
	base := l.Start() + strings.IndexByte(s[l.Start():], '{')
	st := featureJSON{w: newJSONWalker(s, base, fail), fail: fail}
	st.fc = FeatureCapture{Format: format, Feature: apst.Feature{Masked: true}}
	w := st.w
	found, end := false, 0
	for w.Peek() == '{' {
		start, has := w.Pos(), false
		err := w.Object("a get-feature object", func(key string, _ int) error {
			if !isAPSTKey(key) {
				return w.Skip("the value of " + strconv.Quote(key))
			}
			found, has = true, true
			if w.Peek() != '{' {
				line := w.Line()
				v, ok, text, err := w.UintOK(key, 64)
				if err != nil {
					return err
				}
				if ok {
					text = strconv.FormatUint(v, 10)
				}
				return fail(line, "an object as the value of "+strconv.Quote(key), foundErr(ErrSyntax, text))
			}
			return w.Object(key, st.key)
		})
		if err != nil {
			return FeatureCapture{}, err
		}
		if has {
			end = w.Pos()
		}
		if found && !has {
			// An object after the capture's that is none of nvme-cli's.
			return FeatureCapture{}, jsonTrailing(powerstate.FormatUnknown, format, s, start)
		}
	}
	if found {
		if err := jsonTrailing(powerstate.FormatUnknown, format, s, end); err != nil {
			return FeatureCapture{}, err
		}
	}
	switch {
	case !found:
		return FeatureCapture{}, fail(marker, `a "feature: 0x0c" or "Feature: 0x0c" object`, ErrUnknownFormat)
	case st.entriesLine == 0:
		return FeatureCapture{}, fail(lineOf(s, w.Pos()), `the "Auto PST Entries" array`, ErrTruncated)
	case st.entries < apst.Entries:
		return FeatureCapture{}, fail(st.entriesLine, "32 Auto PST Entries", ErrTruncated)
	}
	if st.selLine != 0 {
		st.fc.APSTE = apst.APSTEOf(st.dword0&1 != 0)
	}
	if st.apsteLine != 0 {
		if st.fc.APSTE.Known() && st.fc.APSTE != st.apste {
			return FeatureCapture{}, fail(st.apsteLine, "APSTE to agree with bit 0 of the value on line "+strconv.Itoa(st.selLine),
				foundErr(ErrSyntax, st.apste.String()))
		}
		st.fc.APSTE = st.apste
	}
	return st.fc, nil
}

// key reads one key of a feature 0x0c object.
func (st *featureJSON) key(ik string, line int) error {
	w := st.w
	switch nk := normSpace(ik); {
	case nk == "Current" || nk == "Default" || nk == "Saved":
		if st.selLine != 0 {
			return st.fail(line, "one capture", fmt.Errorf("%w: a second select value (line %d), the second capture starting on line %d",
				ErrMultipleCaptures, st.selLine, line))
		}
		v, ok, found, err := st.loose(nk, 32)
		if err != nil {
			return err
		}
		if !ok {
			return st.fail(line, "a hexadecimal value for "+strconv.Quote(ik), foundErr(ErrSyntax, found))
		}
		st.dword0, st.selLine, st.fc.Select = uint32(v), line, nk
	case nk == strings.TrimSuffix(lnAPSTE, ":") || nk == "APSTE":
		if st.apsteLine != 0 {
			return st.fail(line, "each key once (APSTE is on line "+strconv.Itoa(st.apsteLine)+" already)",
				fmt.Errorf("%w: APSTE on lines %d and %d", ErrDuplicateKey, st.apsteLine, line))
		}
		v, err := st.apsteValue(line)
		if err != nil {
			return err
		}
		st.apste, st.apsteLine = v, line
	case nk == lnEntries:
		if st.entriesLine != 0 {
			return st.fail(line, "one capture", fmt.Errorf("%w: a second \"Auto PST Entries\" array (line %d), the second capture starting on line %d",
				ErrMultipleCaptures, st.entriesLine, line))
		}
		st.entriesLine = line
		return w.Array(`"Auto PST Entries"`, st.entry)
	default:
		return w.Skip("the value of " + strconv.Quote(ik))
	}
	return nil
}

// apsteValue reads APSTE as nvme-cli prints it ("Enabled", "Disabled"),
// or as a boolean or 0/1.
func (st *featureJSON) apsteValue(line int) (apst.APSTE, error) {
	w := st.w
	expected := `"Enabled" or "Disabled" for APSTE`
	switch w.Peek() {
	case '"':
		v, err := w.String("APSTE")
		if err != nil {
			return 0, err
		}
		switch v {
		case "Enabled":
			return apst.APSTEEnabled, nil
		case "Disabled":
			return apst.APSTEDisabled, nil
		}
		return 0, st.fail(line, expected, foundErr(ErrSyntax, v))
	case 't', 'f':
		v, err := w.Bool("APSTE")
		return apst.APSTEOf(v), err
	}
	v, ok, found, err := w.UintOK("APSTE", 1)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, st.fail(line, expected, foundErr(ErrSyntax, found))
	}
	return apst.APSTEOf(v == 1), nil
}

// entry reads one element of "Auto PST Entries".
func (st *featureJSON) entry(i, line int) error {
	w := st.w
	bad := func(what, found string) error {
		return st.fail(line, fmt.Sprintf("%s in Auto PST Entries[%d]", what, i), foundErr(ErrSyntax, found))
	}
	if i >= apst.Entries {
		return bad("at most 32 entries", "entry "+strconv.Itoa(i))
	}
	if w.Peek() != '{' {
		v, ok, text, err := w.UintOK("an entry", 64)
		if err != nil {
			return err
		}
		if ok {
			text = strconv.FormatUint(v, 10)
		}
		return bad("an object", text)
	}
	idx, itps, itpt := i, uint64(0), uint64(0)
	var haveS, haveT bool
	err := w.Object(fmt.Sprintf("Auto PST Entries[%d]", i), func(k string, _ int) error {
		switch nk := normSpace(k); nk {
		case "entry", "Entry":
			x, ok, found, err := st.loose("entry", 8)
			if err != nil {
				return err
			}
			if !ok || x >= apst.Entries {
				if ok {
					found = strconv.FormatUint(x, 10)
				}
				return bad("an entry number 0 to 31", found)
			}
			idx = int(x)
		case strings.TrimSuffix(lnITPT, ":"), "ITPT":
			x, ok, found, err := st.loose("ITPT", 24)
			if err != nil {
				return err
			}
			if !ok {
				return bad(`an idle time "N ms" below 2^24`, found)
			}
			itpt, haveT = x, true
		case strings.TrimSuffix(lnITPS, ":"), "ITPS":
			x, ok, found, err := st.loose("ITPS", 8)
			if err != nil {
				return err
			}
			if !ok || x > 31 {
				if ok {
					found = strconv.FormatUint(x, 10)
				}
				return bad("a power state 0 to 31", found)
			}
			itps, haveS = x, true
		default:
			return w.Skip("the value of " + strconv.Quote(k))
		}
		return nil
	})
	if err != nil {
		return err
	}
	if !haveS || !haveT {
		return bad("ITPT and ITPS", "an entry without them")
	}
	if st.seen[idx] {
		return bad("each entry once", "entry "+strconv.Itoa(idx))
	}
	st.seen[idx] = true
	st.entries++
	st.fc.Table[idx] = apst.NewEntry(uint8(itps), apst.Milliseconds(itpt))
	return nil
}

// loose reads an unsigned value of at most bits bits from a JSON number or
// a string (decimal, or hexadecimal with 0x, possibly space-padded, with
// " ms" after an idle time).
func (st *featureJSON) loose(what string, bits int) (v uint64, ok bool, found string, err error) {
	w := st.w
	if w.Peek() != '"' {
		return w.UintOK(what, bits)
	}
	s, err := w.String(what)
	if err != nil {
		return 0, false, "", err
	}
	t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), " ms"))
	if h, isHex := strings.CutPrefix(strings.ToLower(t), "0x"); isHex {
		n, err := strconv.ParseUint(h, 16, bits)
		return n, err == nil && h != "" && !strings.ContainsAny(h, "+-_"), s, nil
	}
	if t == "" || t[0] == '+' || t[0] == '-' || strings.Contains(t, "_") {
		return 0, false, s, nil
	}
	n, perr := strconv.ParseUint(t, 10, bits)
	return n, perr == nil, s, nil
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
