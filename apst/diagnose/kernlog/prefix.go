package kernlog

import (
	"strconv"
	"strings"
	"time"
)

// splitLine removes the quoting, indentation and time stamp of one line and
// returns the kernel message. ok is false for a line that a log format
// attributes to a program other than the kernel (a syslog or journal line of
// systemd, say), which is not a kernel event.
func splitLine(line string) (ts Timestamp, msg string, ok bool) {
	s := unquote(line)
	if s == "" {
		return ts, "", false
	}
	// /dev/kmsg: "PRI,SEQ,USEC,FLAGS;message".
	if r, ok := kmsgRecord(s); ok {
		return r.ts, r.msg, true
	}
	s = stripLevel(s)
	switch {
	case s[0] == '[':
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return ts, s, true
		}
		inner := strings.TrimSpace(s[1:end])
		if d, ok := parseSeconds(inner); ok {
			ts.Mono, ts.HasMono = d, true
		} else if t, err := time.Parse("Mon Jan _2 15:04:05 2006", collapseSpaces(inner)); err == nil {
			ts.Wall, ts.HasWall = t, true
		} else {
			return ts, s, true // "[...]" that is no time: the message itself
		}
		rest := strings.TrimLeft(s[end+1:], " ")
		// journalctl -o short-monotonic: "[   12.345678] host kernel: ...".
		if m, isKernel, hasProg := afterProgram(rest); hasProg && isKernel {
			rest = m
		} else if hasProg && programWord(rest) {
			return ts, "", false
		}
		return ts, rest, true
	case isDigit(s[0]):
		// journalctl -o short-iso, rsyslog's RFC 3339 or dmesg --time-format=iso.
		t, n, ok := parseISO(s)
		if !ok {
			return ts, s, true
		}
		ts.Wall, ts.HasWall = t, true
		rest := strings.TrimLeft(s[n:], " ")
		if m, isKernel, hasProg := afterProgram(rest); hasProg && isKernel {
			ts, m = withInnerMono(ts, m)
			return ts, m, true
		} else if hasProg && programWord(rest) {
			return ts, "", false
		}
		return ts, rest, true
	case len(s) > 15 && isMonth(s[:3]) && s[3] == ' ':
		// syslog and journalctl short: "Dec  1 10:00:00[.123456] host kernel: ...".
		t, n, ok := parseSyslogTime(s)
		if !ok {
			return ts, s, true
		}
		ts.Wall, ts.HasWall, ts.NoYear = t, true, true
		m, isKernel, hasProg := afterProgram(strings.TrimLeft(s[n:], " "))
		if !hasProg || !isKernel {
			return ts, "", false
		}
		ts, m = withInnerMono(ts, m)
		return ts, m, true
	}
	return ts, s, true
}

// withInnerMono takes the dmesg time a syslog line may keep after
// "kernel:" ("kernel: [   12.345678] nvme ...").
func withInnerMono(ts Timestamp, m string) (Timestamp, string) {
	if len(m) > 0 && m[0] == '[' {
		if end := strings.IndexByte(m, ']'); end > 0 {
			if d, ok := parseSeconds(strings.TrimSpace(m[1:end])); ok {
				ts.Mono, ts.HasMono = d, true
				return ts, strings.TrimLeft(m[end+1:], " ")
			}
		}
	}
	return ts, m
}

// unquote strips indentation and e-mail or Markdown quoting ("> ", ">>").
func unquote(s string) string {
	for {
		t := strings.TrimLeft(s, " \t")
		if t != "" && t[0] == '>' {
			s = t[1:]
			continue
		}
		return t
	}
}

// stripLevel removes a printk level ("<4>") and dmesg -x's facility and
// level ("kern  :err   : ").
func stripLevel(s string) string {
	if len(s) >= 3 && s[0] == '<' && isDigit(s[1]) {
		if end := strings.IndexByte(s[:min(len(s), 6)], '>'); end > 0 {
			s = s[end+1:]
		}
	}
	if strings.HasPrefix(s, "kern ") || strings.HasPrefix(s, "kern:") {
		// "kern  :warn  : [...]": two colon-terminated fields.
		rest := s
		for range 2 {
			i := strings.IndexByte(rest, ':')
			if i < 0 || i > 10 {
				return s
			}
			rest = rest[i+1:]
		}
		return strings.TrimLeft(rest, " ")
	}
	return s
}

// kmsg is one /dev/kmsg record.
type kmsg struct {
	ts  Timestamp
	msg string
}

// kmsgRecord parses "PRI,SEQ,USEC,FLAGS[,...];message".
func kmsgRecord(s string) (kmsg, bool) {
	semi := strings.IndexByte(s, ';')
	if semi < 5 || semi > 80 {
		return kmsg{}, false
	}
	f := strings.Split(s[:semi], ",")
	if len(f) < 4 {
		return kmsg{}, false
	}
	for _, x := range f[:3] {
		if x == "" || !allDigits(x) {
			return kmsg{}, false
		}
	}
	us, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil || us > int64(maxUptime/time.Microsecond) {
		return kmsg{}, false
	}
	return kmsg{ts: Timestamp{Mono: time.Duration(us) * time.Microsecond, HasMono: true}, msg: s[semi+1:]}, true
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
// of s and returns the time and the length it took.
func parseISO(s string) (time.Time, int, bool) {
	if len(s) < 19 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != ' ') || s[13] != ':' || s[16] != ':' {
		return time.Time{}, 0, false
	}
	n := 19
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
		return time.Time{}, 0, false
	}
	return t, n, true
}

// parseSyslogTime parses "Dec  1 10:00:00[.frac]" (no year).
func parseSyslogTime(s string) (time.Time, int, bool) {
	if len(s) < 15 {
		return time.Time{}, 0, false
	}
	n := 15
	for n < len(s) && (s[n] == '.' || isDigit(s[n])) && n < 25 {
		n++
	}
	t, err := time.Parse("Jan _2 15:04:05.999999999", collapseSpaces(s[:n]))
	if err != nil {
		t, err = time.Parse("Jan 2 15:04:05.999999999", collapseSpaces(s[:n]))
		if err != nil {
			return time.Time{}, 0, false
		}
	}
	return t, n, true
}

// afterProgram recognises "host kernel: message" (journal and syslog) and
// returns the message. hasProg is false when the text does not have the
// "host program:" shape; isKernel says whether the program is the kernel.
func afterProgram(s string) (msg string, isKernel, hasProg bool) {
	host, rest, ok := strings.Cut(s, " ")
	if !ok || host == "" || strings.HasSuffix(host, ":") {
		return "", false, false
	}
	prog, msg, ok := strings.Cut(rest, " ")
	if !ok {
		prog, msg = rest, ""
	}
	if !strings.HasSuffix(prog, ":") {
		return "", false, false
	}
	name := strings.TrimSuffix(prog, ":")
	if i := strings.IndexByte(name, '['); i > 0 {
		name = name[:i]
	}
	return msg, name == "kernel", true
}

// programWord reports whether the second word of s looks like a syslog
// program tag ("systemd[1]:") rather than a kernel device ("nvme0:",
// "0000:04:00.0:").
func programWord(s string) bool {
	_, rest, _ := strings.Cut(s, " ")
	prog, _, _ := strings.Cut(rest, " ")
	return strings.HasSuffix(prog, "]:")
}

// collapseSpaces turns runs of spaces into one, for time layouts.
func collapseSpaces(s string) string {
	if !strings.Contains(s, "  ") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

func isMonth(s string) bool {
	switch s {
	case "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec":
		return true
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}
