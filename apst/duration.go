package apst

import (
	"fmt"
	"math"
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

// unitNanos is one of time.ParseDuration's units in nanoseconds, 0 for
// none.
func unitNanos(u string) uint64 {
	switch u {
	case "ns":
		return 1
	case "us", "µs", "μs":
		return 1e3
	case "ms":
		return 1e6
	case "s":
		return 1e9
	case "m":
		return 60e9
	case "h":
		return 3600e9
	}
	return 0
}

// subNanosecond reports whether a duration time.ParseDuration read holds a
// fraction of a nanosecond, which it drops: a number's fraction f of k
// digits (trailing zeros aside) in a unit of S nanoseconds is whole when
// 10^k divides f*S, that is when f*S has k factors 2 and k factors 5.
func subNanosecond(t string) bool {
	for i := 0; i < len(t); {
		for i < len(t) && (t[i] < '0' || t[i] > '9') && t[i] != '.' {
			i++ // a sign
		}
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		var f uint64
		k, zeros := 0, 0
		if i < len(t) && t[i] == '.' {
			for i++; i < len(t) && t[i] >= '0' && t[i] <= '9'; i++ {
				if t[i] == '0' {
					zeros++
					continue
				}
				if k+zeros+1 > 19 {
					return true // 10^k beyond 64 bits: below a nanosecond in any unit
				}
				for ; zeros > 0; zeros-- {
					f, k = f*10, k+1
				}
				f, k = f*10+uint64(t[i]-'0'), k+1
			}
		}
		u := i
		for u < len(t) && (t[u] < '0' || t[u] > '9') && t[u] != '.' {
			u++
		}
		scale := unitNanos(t[i:u])
		i = u
		if k > 0 && scale != 0 && (factors(f, 2)+factors(scale, 2) < k || factors(f, 5)+factors(scale, 5) < k) {
			return true
		}
	}
	return false
}

// factors is how many times p divides n (n > 0).
func factors(n, p uint64) int {
	c := 0
	for n != 0 && n%p == 0 {
		n /= p
		c++
	}
	return c
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
		unit := len(rest) - len(strings.TrimLeft(rest, "nsuµμmh"))
		if unitNanos(rest[:unit]) == 0 {
			return false
		}
		t = rest[unit:]
	}
	return true
}
