package main

import (
	"strconv"
	"strings"
	"time"
)

// durationText writes a duration in the units the specification uses:
// whole microseconds below a millisecond (150us), milliseconds below a
// second (33.5ms), seconds above (3s, 99396.42s), never Go's 27h36m59.4s;
// no time at all is "0".
func durationText(d time.Duration) string {
	neg := d < 0
	if neg {
		d = -d
	}
	var s string
	switch {
	case d == 0:
		return "0"
	case d < time.Millisecond:
		s = strconv.FormatInt(int64(d.Round(time.Microsecond)/time.Microsecond), 10) + "us"
	case d < time.Second:
		s = trimDecimals(strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 3, 64)) + "ms"
	default:
		s = trimDecimals(strconv.FormatFloat(float64(d)/float64(time.Second), 'f', 3, 64)) + "s"
	}
	if neg {
		return "-" + s
	}
	return s
}

// trimDecimals drops the trailing zeros of a decimal number, and its point
// when nothing follows it.
func trimDecimals(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}

// plural writes n and the noun, with an s when n is not 1: "1 drive",
// "2 drives".
func plural(n int, noun string) string { return plural64(int64(n), noun) }

// plural64 is plural of a count kept in an int64 (a log's lines).
func plural64(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.FormatInt(n, 10) + " " + noun + "s"
}
