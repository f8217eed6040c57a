package apst

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseMicroseconds parses a duration as a whole number of microseconds: a
// bare integer is microseconds ("150"); otherwise a Go duration ("25ms",
// "4.6ms", "150us", "150µs", "2s"). Negative durations and fractions of a
// microsecond are errors wrapping ErrInvalidConfig.
func ParseMicroseconds(s string) (Microseconds, error) {
	t := strings.TrimSpace(s)
	if t != "" && strings.Trim(t, "0123456789") == "" {
		v, err := strconv.ParseUint(t, 10, 64)
		if err == nil {
			return Microseconds(v), nil
		}
	}
	d, err := time.ParseDuration(t)
	switch {
	case err != nil:
		return 0, fmt.Errorf("%w: duration %q: want microseconds (150) or a duration (25ms, 4.6ms, 2s)", ErrInvalidConfig, s)
	case d < 0:
		return 0, fmt.Errorf("%w: duration %q: negative", ErrInvalidConfig, s)
	case d%time.Microsecond != 0:
		return 0, fmt.Errorf("%w: duration %q: not a whole number of microseconds", ErrInvalidConfig, s)
	}
	return Microseconds(d / time.Microsecond), nil
}
