package main

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/nvmeapst/nvmeapst/apst"
)

// boundUnits are the units a bound may carry, as people write them.
var boundUnits = map[string]string{
	"": "", "us": "us", "µs": "us", "μs": "us", "usec": "us",
	"ms": "ms", "msec": "ms", "s": "s", "sec": "s",
}

// errBoundSyntax is what a bound may look like, in the user's terms.
const errBoundSyntax = "want microseconds (25000, 25,000 or 25 000), a duration (25ms, 25 ms, 1.5 s), 0 for APST off, or unlimited"

// normalizeBound reads a latency bound as people type it: microseconds with
// or without thousands separators (25000, 25,000, 25 000, 25_000), a
// duration with a unit, spaced or not (25ms, 25 ms, 1.5 s, 100 µs), 0x hex,
// 0 or off (APST off), or unlimited; and returns it as the kernel
// parameter's text (microseconds, or unlimited). A comma is a thousands
// separator only before groups of three digits: 1,5 is refused rather than
// read as 15 or 1.5.
func normalizeBound(s string) (string, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	switch {
	case t == "unlimited" || t == "off":
		if t == "off" {
			return "0", nil
		}
		return t, nil
	case strings.HasPrefix(t, "0x"):
		return t, nil
	}
	num := strings.TrimRightFunc(t, func(r rune) bool { return !isNumberRune(r) })
	unit, ok := boundUnits[strings.TrimSpace(t[len(num):])]
	num = strings.TrimSpace(num)
	if !ok || num == "" {
		return "", fmt.Errorf("latency bound %q: %s", s, errBoundSyntax)
	}
	digits, err := stripSeparators(num)
	if err != nil {
		return "", fmt.Errorf("latency bound %q: %w", s, err)
	}
	if unit == "" {
		if strings.Contains(digits, ".") {
			return "", fmt.Errorf("latency bound %q: a fraction of a microsecond: give a unit (1.5ms) or whole microseconds", s)
		}
		return digits, nil
	}
	us, err := apst.ParseMicroseconds(digits + unit)
	if err != nil {
		return "", fmt.Errorf("latency bound %q: not a whole number of microseconds (%s)", s, errBoundSyntax)
	}
	return fmt.Sprint(uint64(us)), nil
}

func isNumberRune(r rune) bool {
	return r >= '0' && r <= '9' || r == '.' || r == ',' || r == '_' || r == '\'' || unicode.IsSpace(r)
}

// stripSeparators removes thousands separators (comma, blank, underscore,
// apostrophe) from a number, each before a group of exactly three digits.
func stripSeparators(num string) (string, error) {
	isSep := func(r rune) bool { return r == ',' || r == '_' || r == '\'' || unicode.IsSpace(r) }
	if strings.IndexFunc(num, isSep) == 0 {
		return "", fmt.Errorf("%s", errBoundSyntax)
	}
	groups := strings.FieldsFunc(num, isSep)
	for i, g := range groups {
		whole, frac, hasFrac := strings.Cut(g, ".")
		if hasFrac && i != len(groups)-1 || strings.Contains(frac, ".") {
			return "", fmt.Errorf("a decimal point in the wrong place: %s", errBoundSyntax)
		}
		if strings.Trim(whole, "0123456789") != "" || strings.Trim(frac, "0123456789") != "" || whole == "" && i > 0 {
			return "", fmt.Errorf("%s", errBoundSyntax)
		}
		if i > 0 && len(whole) != 3 || i == 0 && len(groups) > 1 && len(whole) > 3 {
			return "", fmt.Errorf("a separator must come before a group of three digits (a decimal is written with a point: 1.5 ms): %s", errBoundSyntax)
		}
	}
	return strings.Join(groups, ""), nil
}
