package apst

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"time"
)

// ParseMicroseconds parses a duration as a whole number of microseconds: a
// bare integer is microseconds ("150"); otherwise a Go duration ("25ms",
// "4.6ms", "150us", "150µs", "2s"). It reads back whatever
// Microseconds.String writes: a whole number of microseconds with its unit
// reads over the full 64-bit range (beyond time.Duration's 292 years), and
// "unlimited" is NoLimit. Negative durations and fractions of a microsecond
// are errors wrapping ErrInvalidConfig.
func ParseMicroseconds(s string) (Microseconds, error) {
	t := strings.TrimSpace(s)
	if t == "unlimited" {
		return NoLimit, nil
	}
	digits := t
	for _, unit := range []string{"us", "µs"} {
		if n, ok := strings.CutSuffix(t, unit); ok && n != "" && strings.Trim(n, "0123456789") == "" {
			digits = n
		}
	}
	if digits != "" && strings.Trim(digits, "0123456789") == "" {
		v, err := strconv.ParseUint(digits, 10, 64)
		if err == nil {
			return Microseconds(v), nil
		}
		return 0, fmt.Errorf("%w: duration %q: out of range: at most %d us", ErrInvalidConfig, s, uint64(NoLimit))
	}
	d, err := time.ParseDuration(t)
	switch {
	case err != nil && durationShaped(t):
		return 0, fmt.Errorf("%w: duration %q: out of range: at most %v", ErrInvalidConfig, s, time.Duration(math.MaxInt64).Truncate(time.Microsecond))
	case err != nil:
		return 0, fmt.Errorf("%w: duration %q: want microseconds (150) or a duration (25ms, 4.6ms, 2s)", ErrInvalidConfig, s)
	case d < 0:
		return 0, fmt.Errorf("%w: duration %q: negative", ErrInvalidConfig, s)
	case d%time.Microsecond != 0 || subNanosecond(t):
		// time.ParseDuration drops what is below a nanosecond ("0.0001us"
		// is 0), which is no whole number of microseconds either.
		return 0, fmt.Errorf("%w: duration %q: not a whole number of microseconds", ErrInvalidConfig, s)
	}
	return Microseconds(d / time.Microsecond), nil
}

// unitNanos are time.ParseDuration's units in nanoseconds.
var unitNanos = map[string]uint64{"ns": 1, "us": 1e3, "µs": 1e3, "μs": 1e3, "ms": 1e6, "s": 1e9, "m": 60e9, "h": 3600e9}

// subNanosecond reports whether a duration time.ParseDuration read holds a
// fraction of a nanosecond, which it drops: a number's fraction f of k
// digits (trailing zeros aside) in a unit of S nanoseconds is whole when
// 10^k divides f*S.
func subNanosecond(t string) bool {
	t = strings.TrimLeft(t, "+-")
	for t != "" {
		n := len(t) - len(strings.TrimLeft(t, "0123456789"))
		t = t[n:]
		frac := ""
		if rest, ok := strings.CutPrefix(t, "."); ok {
			m := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
			frac, t = strings.TrimRight(rest[:m], "0"), rest[m:]
		}
		u := len(t) - len(strings.TrimLeft(t, "nsuµμmh"))
		scale, ok := unitNanos[t[:u]]
		t = t[u:]
		if !ok || frac == "" {
			continue
		}
		if len(frac) > 19 {
			return true // 10^k beyond 64 bits: below a nanosecond for any unit
		}
		f, _ := strconv.ParseUint(frac, 10, 64)
		pow := uint64(1)
		for range frac {
			pow *= 10
		}
		hi, lo := bits.Mul64(f, scale)
		if bits.Rem64(hi, lo, pow) != 0 {
			return true
		}
	}
	return false
}

// durationShaped reports whether t is written as time.ParseDuration wants
// it (numbers, each with a unit: "999999999h", "1h30m"), so that its
// failing to parse means the value is out of range, not misspelt.
func durationShaped(t string) bool {
	t = strings.TrimPrefix(t, "+")
	if t == "" {
		return false
	}
	for t != "" {
		n := len(t) - len(strings.TrimLeft(t, "0123456789"))
		rest := t[n:]
		if strings.HasPrefix(rest, ".") {
			frac := strings.TrimLeft(rest[1:], "0123456789")
			n += len(rest) - len(frac)
			rest = frac
		}
		if n == 0 || n == 1 && t[0] == '.' {
			return false
		}
		unit := len(rest) - len(strings.TrimLeft(rest, "nsuµmh"))
		switch rest[:unit] {
		case "ns", "us", "µs", "ms", "s", "m", "h":
		default:
			return false
		}
		t = rest[unit:]
	}
	return true
}
