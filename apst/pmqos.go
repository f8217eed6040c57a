package apst

import (
	"fmt"
	"strconv"
	"strings"
)

// PM QoS constants from include/linux/pm_qos.h.
const (
	// LatencyAny is PM_QOS_LATENCY_ANY (S32_MAX), what "any" stores; the
	// driver maps it to NoLimit.
	LatencyAny = 1<<31 - 1
)

// ToleranceKind says what a pm_qos_latency_tolerance_us value is. The zero
// value is unset: no value was read or parsed; it is none of the three
// kinds the attribute can hold.
type ToleranceKind uint8

const (
	toleranceUnset ToleranceKind = iota
	// ToleranceAuto is "auto": no user constraint (PM QoS -1). The kernel
	// then stores NoLimit, not the module default.
	ToleranceAuto
	// ToleranceAny is "any" (S32_MAX), also written as 2147483647: NoLimit.
	ToleranceAny
	// ToleranceValue is a number of microseconds from 0 to 2147483646; 0
	// disables APST.
	ToleranceValue

	endToleranceKinds
)

var toleranceKindNames = [...]string{toleranceUnset: "", ToleranceAuto: "auto", ToleranceAny: "any", ToleranceValue: "value"}

// String names the kind: "auto", "any", "value"; "unset" for the zero value.
func (k ToleranceKind) String() string {
	switch {
	case k == toleranceUnset:
		return "unset"
	case k < endToleranceKinds:
		return toleranceKindNames[k]
	}
	return "ToleranceKind(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText implements encoding.TextMarshaler with String; the zero
// (unset) kind and other invalid values are an error.
func (k ToleranceKind) MarshalText() ([]byte, error) {
	if k == toleranceUnset || k >= endToleranceKinds {
		return nil, fmt.Errorf("%w: kind %s is not auto, any or value", ErrInvalidTolerance, k)
	}
	return []byte(k.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler for "auto", "any" and
// "value".
func (k *ToleranceKind) UnmarshalText(b []byte) error {
	v, err := parseName(toleranceKindNames[:], string(b), "ToleranceKind")
	if err != nil {
		return err
	}
	*k = ToleranceKind(v)
	return nil
}

// Tolerance is a value of the per-controller sysfs attribute
// power/pm_qos_latency_tolerance_us.
//
// The zero value is unset (Kind toleranceUnset): it is not "auto", its
// Bound is 0 (never NoLimit), Valid reports false and MarshalText refuses
// it; obtain a Tolerance from ParseTolerance.
type Tolerance struct {
	// Kind says whether the value is auto, any or a number.
	Kind ToleranceKind
	// Value is the number of microseconds when Kind is ToleranceValue.
	Value uint32
}

// Valid reports whether t is auto, any, or a value from 0 to 2147483646.
func (t Tolerance) Valid() bool {
	switch t.Kind {
	case ToleranceAuto, ToleranceAny:
		return t.Value == 0
	case ToleranceValue:
		return t.Value < LatencyAny
	}
	return false
}

// Bound returns the ps_max_latency_us the driver stores for the tolerance
// (nvme_set_latency_tolerance): NoLimit for auto and any, the value for a
// number. An unset or invalid Tolerance gives 0 (see Valid).
func (t Tolerance) Bound() Microseconds {
	switch t.Kind {
	case ToleranceAuto, ToleranceAny:
		return NoLimit
	case ToleranceValue:
		return Microseconds(t.Value)
	}
	return 0
}

// String returns the value as the attribute reads back: "auto", "any" or the
// decimal number; "unset" for the zero Tolerance.
func (t Tolerance) String() string {
	switch t.Kind {
	case ToleranceAuto:
		return "auto"
	case ToleranceAny:
		return "any"
	case ToleranceValue:
		return strconv.FormatUint(uint64(t.Value), 10)
	}
	return "unset"
}

// MarshalText implements encoding.TextMarshaler with String; an invalid
// Tolerance (the zero value included) is an error wrapping
// ErrInvalidTolerance.
func (t Tolerance) MarshalText() ([]byte, error) {
	if !t.Valid() {
		return nil, fmt.Errorf("%w: %s (kind %s, value %d): obtain one from apst.ParseTolerance", ErrInvalidTolerance, t, t.Kind, t.Value)
	}
	return []byte(t.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler with ParseTolerance.
func (t *Tolerance) UnmarshalText(b []byte) error {
	v, err := ParseTolerance(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// ParseTolerance parses a string written to pm_qos_latency_tolerance_us
// exactly as the kernel's store handler does (drivers/base/power/sysfs.c).
// It reads s:
//
//   - first as a signed 32-bit integer with base auto-detection (decimal, 0x
//     hex, leading-0 octal), an optional sign and at most one trailing
//     newline; a negative number is rejected;
//   - otherwise "auto" or "any", each optionally followed by one newline;
//   - anything else is rejected (EINVAL), including numbers outside the s32
//     range, spaces, and two keywords.
//
// 2147483647 parses as ToleranceAny, because that is the value "any" stores
// and reads back as. A rejected string returns an error wrapping
// ErrInvalidTolerance that says why.
func ParseTolerance(s string) (Tolerance, error) {
	if v, ok := parseS32(s); ok {
		if v < 0 {
			return Tolerance{}, fmt.Errorf("%w %q: negative values are rejected (EINVAL)", ErrInvalidTolerance, s)
		}
		if v == LatencyAny {
			return Tolerance{Kind: ToleranceAny}, nil
		}
		return Tolerance{Kind: ToleranceValue, Value: uint32(v)}, nil
	}
	switch strings.TrimSuffix(s, "\n") {
	case "auto":
		return Tolerance{Kind: ToleranceAuto}, nil
	case "any":
		return Tolerance{Kind: ToleranceAny}, nil
	}
	return Tolerance{}, fmt.Errorf("%w %q: want auto, any or an integer from 0 to 2147483647 (EINVAL)", ErrInvalidTolerance, s)
}

// ModuleDefaultBound returns the bound a controller gets at probe time from
// nvme_core.default_ps_max_latency_us = v: the driver creates the user
// tolerance request with min(v, S32_MAX), so 0 disables APST and any value
// of 2147483647 or more means NoLimit (and reads back as "any").
func ModuleDefaultBound(v uint64) Microseconds {
	if v >= LatencyAny {
		return NoLimit
	}
	return Microseconds(v)
}

// ParseBound parses a ps_max_latency_us value as a decimal u64 (a 0x prefix
// selects hex); "unlimited", "max" and "inf" mean NoLimit. A number with a
// leading zero ("010") is refused: the kernel reads it as octal (8) in a
// module parameter or a tolerance file, a reader of decimal as 10.
func ParseBound(s string) (Microseconds, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "unlimited", "max", "inf", "u64max":
		return NoLimit, nil
	}
	if OctalLooking(s) {
		return 0, fmt.Errorf("%w: latency bound %q: a leading 0 is octal to the kernel (%s) and decimal to a reader: write it without", ErrInvalidConfig, s, octalNote(s))
	}
	v, err := parseU64(s)
	if err != nil {
		return 0, fmt.Errorf("%w: latency bound %q: want a number of microseconds from 0 to 18446744073709551615, or unlimited", ErrInvalidConfig, s)
	}
	return Microseconds(v), nil
}

// OctalLooking reports whether s (spaces and a sign aside) is a number of
// two or more digits with a leading 0 ("010"). The kernel's base-0 parsers
// (kstrtoul and kstrtos32 with base 0, which module parameters and
// pm_qos_latency_tolerance_us use) read it as octal, a person as decimal.
func OctalLooking(s string) bool {
	t := strings.TrimSpace(s)
	if t != "" && (t[0] == '+' || t[0] == '-') {
		t = t[1:]
	}
	return len(t) > 1 && t[0] == '0' && t[1] >= '0' && t[1] <= '9'
}

// octalNote says what the kernel makes of an octal-looking number.
func octalNote(s string) string {
	t := strings.TrimLeft(strings.TrimSpace(s), "+-")
	if v, err := strconv.ParseUint(t, 8, 64); err == nil {
		return "it reads " + strconv.FormatUint(v, 10)
	}
	return "it refuses it: a digit 8 or 9 is no octal digit"
}

// parseU64 parses a decimal or 0x-prefixed hexadecimal u64.
func parseU64(s string) (uint64, error) {
	s = strings.TrimSpace(s)
	if h, ok := strings.CutPrefix(strings.ToLower(s), "0x"); ok {
		return strconv.ParseUint(h, 16, 64)
	}
	return strconv.ParseUint(s, 10, 64)
}

// parseS32 replicates kstrtos32(s, 0, &v): optional '+' or '-', base
// detection (0x/0X followed by a hex digit = 16, leading 0 = 8, else 10), at
// least one digit, at most one trailing newline, and the result in s32 range.
func parseS32(s string) (int32, bool) {
	neg := false
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	base := uint64(10)
	if len(s) >= 3 && s[0] == '0' && (s[1]|0x20) == 'x' && isHex(s[2]) {
		base, s = 16, s[2:]
	} else if len(s) > 0 && s[0] == '0' {
		base = 8
	}
	var v uint64
	n := 0
	for n < len(s) {
		d, ok := digit(s[n])
		if !ok || d >= base {
			break
		}
		v = v*base + d
		if v > 1<<32 { // far outside s32 either way; stop before overflow
			v = 1 << 32
		}
		n++
	}
	if n == 0 {
		return 0, false
	}
	rest := s[n:]
	if rest != "" && rest != "\n" {
		return 0, false
	}
	if neg {
		if v > 1<<31 {
			return 0, false
		}
		return int32(-int64(v)), true
	}
	if v > 1<<31-1 {
		return 0, false
	}
	return int32(v), true
}

func isHex(c byte) bool {
	_, ok := digit(c)
	return ok
}

func digit(c byte) (uint64, bool) {
	switch {
	case c >= '0' && c <= '9':
		return uint64(c - '0'), true
	case c >= 'a' && c <= 'f':
		return uint64(c-'a') + 10, true
	case c >= 'A' && c <= 'F':
		return uint64(c-'A') + 10, true
	}
	return 0, false
}
