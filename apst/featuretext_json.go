package apst

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

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
