package kernlog

import (
	"strconv"
	"strings"
	"time"
)

// parseUnixStamp parses journalctl -o short-unix's time, seconds since
// the epoch with their microseconds ("1714723872.123456"), and a blank
// after it; n is its length.
func parseUnixStamp(s string) (t time.Time, n int, ok bool) {
	sec, rest := digitsPrefix(s)
	if len(sec) < 9 || len(sec) > 11 || len(rest) < 2 || rest[0] != '.' {
		return time.Time{}, 0, false
	}
	frac, rest := digitsPrefix(rest[1:])
	if len(frac) != 6 || len(rest) == 0 || rest[0] != ' ' {
		return time.Time{}, 0, false
	}
	return time.Unix(int64(atoi(sec)), int64(atoi(frac))*1000).UTC(), len(sec) + 1 + len(frac), true
}

// parseDelta parses dmesg -H's "+0.000009" (or, under some locales,
// "+0,000009"): the time since the line before.
func parseDelta(s string) (time.Duration, bool) {
	v, ok := strings.CutPrefix(s, "+")
	if !ok {
		return 0, false
	}
	return parseSeconds(strings.Replace(strings.TrimLeft(v, " "), ",", ".", 1))
}

// parseHumanStamp parses dmesg -H's "Sep12 13:16" (the month as the locale
// spells it).
func parseHumanStamp(s string) (Timestamp, bool) {
	i := 0
	for i < len(s) && !isDigit(s[i]) && s[i] != ' ' {
		i++
	}
	// util-linux prints it with strftime's "%b%e %H:%M": the day is
	// padded with a blank ("Oct 4 06:51", "Oct14 06:51").
	j := i
	if j+1 < len(s) && s[j] == ' ' && isDigit(s[j+1]) && (j+2 >= len(s) || !isDigit(s[j+2])) {
		j++
	}
	day, rest := digitsPrefix(s[j:])
	if i == 0 || day == "" || len(day) > 2 || len(rest) != 6 || rest[0] != ' ' || rest[3] != ':' {
		return Timestamp{}, false
	}
	h, m := rest[1:3], rest[4:6]
	if !allDigits(h) || !allDigits(m) || atoi(h) > 23 || atoi(m) > 59 || atoi(day) < 1 || atoi(day) > 31 {
		return Timestamp{}, false
	}
	ts := Timestamp{HasWall: true, NoYear: true, NoSecond: true}
	clock := time.Duration(atoi(h))*time.Hour + time.Duration(atoi(m))*time.Minute
	if mo := monthOf(s[:i]); mo != 0 {
		ts.Wall = time.Date(0, mo, atoi(day), 0, 0, 0, 0, time.UTC).Add(clock)
	} else {
		ts.Wall, ts.NoDate = time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC).Add(clock), true
	}
	return ts, true
}

// maxUptime bounds a time since boot (100 years), so that a duration never
// overflows.
const maxUptime = 100 * 365 * 24 * time.Hour

// parseSeconds parses the dmesg time "12.345678".
func parseSeconds(s string) (time.Duration, bool) {
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || len(whole) > 10 || !allDigits(whole) || len(frac) > 9 || !allDigits(frac) {
		return 0, false
	}
	sec, _ := strconv.ParseInt(whole, 10, 64)
	d := time.Duration(sec) * time.Second
	if frac != "" {
		n, _ := strconv.ParseInt(frac, 10, 64)
		for i := len(frac); i < 9; i++ {
			n *= 10
		}
		d += time.Duration(n)
	}
	if d > maxUptime {
		return 0, false
	}
	return d, true
}

// parseISO parses "2026-12-01T10:00:00[.,frac][Z|+hh:mm|+hhmm]" at the start
// of s and returns the time, the length it took and whether it gave its
// offset from UTC.
func parseISO(s string) (t time.Time, n int, zoned, ok bool) {
	if len(s) < 19 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != ' ') || s[13] != ':' || s[16] != ':' {
		return time.Time{}, 0, false, false
	}
	n = 19
	if n < len(s) && (s[n] == '.' || s[n] == ',') {
		n++
		for n < len(s) && isDigit(s[n]) {
			n++
		}
	}
	zone := n
	if n < len(s) && s[n] == 'Z' {
		n++
	} else if n < len(s) && (s[n] == '+' || s[n] == '-') {
		n++
		for n < len(s) && n-zone <= 6 && (isDigit(s[n]) || s[n] == ':') {
			n++
		}
	}
	v := s[:19] + strings.ReplaceAll(s[19:zone], ",", ".")
	v = strings.Replace(v, " ", "T", 1)
	layout := "2006-01-02T15:04:05.999999999"
	switch z := s[zone:n]; {
	case z == "":
	case z == "Z":
		v += "Z"
		layout += "Z07:00"
	case strings.Contains(z, ":"):
		v += z
		layout += "Z07:00"
	default:
		v += z
		layout += "Z0700"
	}
	t, err := time.Parse(layout, v)
	if err != nil {
		return time.Time{}, 0, false, false
	}
	return t, n, n > zone, true
}

// parseClock parses a time of day "15:04:05[.frac]" at the start of s.
func parseClock(s string) (time.Duration, int, bool) {
	if len(s) < 8 || s[2] != ':' || s[5] != ':' {
		return 0, 0, false
	}
	for _, i := range []int{0, 1, 3, 4, 6, 7} {
		if !isDigit(s[i]) {
			return 0, 0, false
		}
	}
	h, m, sec := atoi(s[0:2]), atoi(s[3:5]), atoi(s[6:8])
	if h > 23 || m > 59 || sec > 60 {
		return 0, 0, false
	}
	d := time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(sec)*time.Second
	n := 8
	if n < len(s) && (s[n] == '.' || s[n] == ',') {
		j := n + 1
		for j < len(s) && j-n <= 9 && isDigit(s[j]) {
			j++
		}
		if j > n+1 {
			f, _ := strconv.ParseInt(s[n+1:j], 10, 64)
			for k := j - n - 1; k < 9; k++ {
				f *= 10
			}
			d += time.Duration(f)
			n = j
		}
	}
	return d, n, true
}

// bracketless returns the length of a dmesg time at the start of s whose
// opening "[" is gone, seconds with six decimals and the "]"
// ("1424.464958] ", as a mail reached linux-pci), or 0.
func bracketless(s string) int {
	i := 0
	for i < len(s) && i < 10 && isDigit(s[i]) {
		i++
	}
	if i == 0 || i+8 > len(s) || s[i] != '.' || s[i+7] != ']' || !allDigits(s[i+1:i+7]) {
		return 0
	}
	return i + 8
}

// collapseSpaces turns runs of spaces into one, for time layouts.
func collapseSpaces(s string) string {
	if !strings.Contains(s, "  ") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// isMonth reports whether s is an English month's abbreviation. It is not
// inlined (go:noinline): its twelve comparisons, copied at five call
// sites, took 3.1 KB of the page's app-log.wasm.
//
//go:noinline
func isMonth(s string) bool {
	switch s {
	case "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec":
		return true
	}
	return false
}

func isWeekday(s string) bool {
	switch s {
	case "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun":
		return true
	}
	return false
}

// isZone reports whether a word is a time zone of journalctl -o short-full
// ("UTC", "CET", "+0100").
func isZone(z string) bool {
	if len(z) < 1 || len(z) > 6 {
		return false
	}
	if z[0] == '+' || z[0] == '-' {
		return allDigits(z[1:])
	}
	for i := 0; i < len(z); i++ {
		if z[i] < 'A' || z[i] > 'Z' {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// allDigits reports whether s is all ASCII digits (true for ""). It is
// not inlined (go:noinline): its copies at 21 places took 0.9 KB of the
// page's app-log.wasm.
//
//go:noinline
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// embeddedStamp returns the part of line from a dmesg time stamp ("[
// 519.858094]") that does not start it, or "" when it has none.
func embeddedStamp(line string) string {
	for off := 1; off < len(line); {
		i := strings.IndexByte(line[off:], '[')
		if i < 0 {
			return ""
		}
		i += off
		off = i + 1
		end := strings.IndexByte(line[i:min(len(line), i+24)], ']')
		if end < 0 {
			continue
		}
		// dmesg's stamp has its fraction ("[  519.858094]"); a program's
		// tag ("mon[9]:") is a name before a number. A stamp padded as
		// dmesg pads it may follow a word: a progress line that ran into
		// the kernel's ("...[r=0KiB/s[  278.195193] nvme nvme1: ...").
		in := strings.TrimSpace(line[i+1 : i+end])
		if p := line[i-1]; (p >= 'a' && p <= 'z' || p >= 'A' && p <= 'Z' || p >= '0' && p <= '9' || p == '_' || p == '-') && !paddedStamp(line[i+1:i+end]) || !strings.Contains(in, ".") {
			continue
		}
		if _, ok := parseSeconds(in); ok {
			return line[i:]
		}
	}
	return ""
}

// paddedStamp reports whether the text in a stamp's brackets is padded
// as dmesg pads it: spaces before the seconds, six digits after the point.
func paddedStamp(in string) bool {
	sec, frac, ok := strings.Cut(strings.TrimLeft(in, " "), ".")
	return ok && strings.HasPrefix(in, " ") && sec != "" && len(frac) == 6 && allDigits(sec) && allDigits(frac)
}

// namesNVMeDevice reports whether msg names an NVMe device as the nvme
// driver's lines do, inside it: "nvme nvme0" or "nvme 0000:04:00.0".
func namesNVMeDevice(msg string) bool {
	for i := 0; ; {
		j := strings.Index(msg[i:], "nvme ")
		if j < 0 {
			return false
		}
		i += j + len("nvme ")
		if addr, _, _ := strings.Cut(msg[i:], ": "); isPCIAddr(addr) || strings.HasPrefix(msg[i:], "nvme") && i+4 < len(msg) && isDigit(msg[i+4]) {
			return true
		}
	}
}
