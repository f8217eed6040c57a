package kernlog

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// split is what splitLine makes of one (logical) line.
type split struct {
	ts  Timestamp
	msg string
	// kernel is false for a line that a log format attributes to a program
	// other than the kernel (a syslog or journal line of systemd, say), a
	// journal record of another transport, or a line of journalctl's own.
	kernel bool
	// bootID is the _BOOT_ID of a journal JSON record; boot says the line
	// is journalctl's "-- Boot 0123... --" (or "-- Reboot --") separator.
	bootID string
	boot   bool
	// relative says the line's time is dmesg -H's "[  +0.000009]", the
	// time since the line before (Read keeps the running time); json that
	// the line is a journal JSON record.
	relative bool
	json     bool
	// program and relayed are, for a syslog or journal line of a program
	// other than the kernel ("host smartd[912]: ..."), the program's name
	// and its message, which may repeat a kernel message.
	program, relayed string
	// afterTime is what followed the line's time when a host, program
	// or facility may follow it (fromProgram): the line's head up to it
	// is the time's own.
	afterTime string
}

// splitLine removes the quoting, indentation and time stamp of one line and
// returns the kernel message (kernel-apst.md §15 lists the messages; the
// shapes are those of dmesg, journalctl, syslog and /dev/kmsg).
func splitLine(line string) split {
	s := cleanLine(line)
	if s == "" {
		return split{}
	}
	switch s[0] {
	case '{':
		return journalRecord(s)
	case '-':
		if strings.HasPrefix(s, "-- ") && strings.HasSuffix(s, " --") {
			// journalctl's "-- Boot 3f0c... --", "-- Reboot --", "-- Logs
			// begin at ... --", "-- No entries --".
			return split{boot: strings.HasPrefix(s, "-- Boot ") || s == "-- Reboot --"}
		}
	}
	// /dev/kmsg: "PRI,SEQ,USEC,FLAGS[,caller=T64];message".
	if r, ok := kmsgRecord(s); ok {
		return split{ts: r.ts, msg: afterCaller(r.msg), kernel: true}
	}
	s = stripLevel(s)
	if s == "" {
		return split{}
	}
	var ts Timestamp
	switch c := s[0]; {
	case c == '[':
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return split{msg: s, kernel: true}
		}
		inner := strings.TrimSpace(s[1:end])
		if lt := strings.IndexByte(inner, '<'); lt >= 0 && strings.HasSuffix(inner, ">") {
			// dmesg -d (--show-delta): "[  812.104211 <    0.000123>]", the
			// time since the line before after the time; --time-format=delta
			// alone: "[<    0.000123>]", no time at all.
			inner = strings.TrimSpace(inner[:lt])
			if inner == "" {
				return split{msg: afterKernel(afterCaller(strings.TrimLeft(s[end+1:], " \t"))), kernel: true}
			}
		}
		if d, ok := parseSeconds(inner); ok {
			ts.Mono, ts.HasMono = d, true
		} else if t, err := time.Parse("Mon Jan _2 15:04:05 2006", collapseSpaces(inner)); err == nil {
			ts.Wall, ts.HasWall, ts.NoZone = t, true, true
		} else if lt, ok := parseLocalCtime(inner); ok {
			// dmesg -T under another locale: "[Ter Set 19 06:01:41 2017]".
			ts = lt
		} else if _, ok := parseDelta(inner); ok {
			// dmesg -H: "[  +0.000009] ...", after the line before.
			sp := fromProgram(ts, afterCaller(strings.TrimLeft(s[end+1:], " \t")), false)
			sp.relative = true
			return sp
		} else if h, ok := parseHumanStamp(inner); ok {
			// dmesg -H: "[Sep12 13:16] ..." at each new minute.
			ts = h
		} else if d, n, ok := parseClock(inner); ok && n == len(inner) && !strings.HasPrefix(strings.TrimLeft(s[end+1:], " \t"), "[") {
			// A time of day alone, as a terminal's or a logger's
			// time-stamping of dmesg's lines writes it ("[18:14:04] usb
			// 2-6: ..."); before a dmesg time, a serial console's host
			// time, which the else branch below reads.
			ts.Wall, ts.HasWall, ts.NoYear, ts.NoDate = time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC).Add(d), true, true, true
		} else if t, n, zoned, ok := parseISO(inner); ok && n == len(inner) && strings.HasPrefix(s[end+1:], ": ") {
			// talosctl dmesg's time after its facility and level, which
			// stripLevel took ("kern:    info: [2026-05-05T21:50:52Z]:
			// ...").
			ts.Wall, ts.HasWall, ts.NoZone = t, true, !zoned
			return split{ts: ts, msg: afterCaller(strings.TrimLeft(s[end+3:], " \t")), kernel: true}
		} else {
			// "[   T64] nvme ..." (a caller id without the time) or a "[...]"
			// that is no time: the message itself.
			return split{msg: afterKernel(afterCaller(s)), kernel: true}
		}
		// dmesg with printk caller ids: "[   81.448128][   T64] ..." and
		// "[   81.448128] [    C3] ...".
		rest := afterCaller(strings.TrimLeft(s[end+1:], " \t"))
		return fromProgram(ts, rest, false)
	case isDigit(c):
		// The syslog protocol's "1 2026-12-05T04:55:59Z host kernel - - -".
		if ts, rest, ok := syslog5424(s); ok {
			return fromProgram(ts, rest, true)
		}
		// journalctl -o short-iso, rsyslog's RFC 3339 or dmesg
		// --time-format=iso.
		if t, n, zoned, ok := parseISO(s); ok {
			ts.Wall, ts.HasWall, ts.NoZone = t, true, !zoned
			return fromProgram(ts, afterLabels(strings.TrimLeft(s[n:], " \t")), false)
		}
		// A dmesg time whose "[" a mail lost ("1424.464958] nvme ...").
		if n := bracketless(s); n > 0 {
			if d, ok := parseSeconds(s[:n-1]); ok {
				ts.Mono, ts.HasMono = d, true
				return fromProgram(ts, afterCaller(strings.TrimLeft(s[n:], " \t")), false)
			}
		}
		// "07:45:58 kernel: nvme ..." (a time of day alone).
		if d, n, ok := parseClock(s); ok && n < len(s) && s[n] == ' ' {
			ts.Wall, ts.HasWall, ts.NoYear, ts.NoDate = time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC).Add(d), true, true, true
			return fromProgram(ts, strings.TrimLeft(s[n:], " \t"), false)
		}
		// A localised journal or syslog time: "3月 13 18:33:21 host kernel:".
		if t, n, ok := parseLocalSyslogTime(s); ok {
			return fromProgram(t, strings.TrimLeft(s[n:], " \t"), true)
		}
		// journalctl -o short-unix: "1714723872.123456 host kernel: ...".
		if t, n, ok := parseUnixStamp(s); ok {
			ts.Wall, ts.HasWall = t, true
			return fromProgram(ts, strings.TrimLeft(s[n:], " \t"), true)
		}
	case len(s) > 15 && isMonth(s[:3]) && s[3] == ' ':
		// syslog and journalctl short: "Dec  1 10:00:00[.123456] host kernel: ...".
		if t, n, ok := parseLocalSyslogTime(s); ok {
			return fromProgram(t, strings.TrimLeft(s[n:], " \t"), true)
		}
	case len(s) > 24 && isWeekday(s[:3]) && s[3] == ' ' && isMonth(s[4:7]):
		// OpenWrt's logread: "Sat Dec  5 04:55:59 2026 kern.err kernel: ...".
		if ts, rest, ok := logreadLine(s); ok {
			return fromProgram(ts, rest, false)
		}
	case len(s) > 24 && isWeekday(s[:3]) && s[3] == ' ' && isDigit(s[4]):
		// journalctl -o short-full: "Tue 2026-12-01 10:00:00 UTC host kernel: ...".
		if t, n, zoned, ok := parseISO(s[4:]); ok {
			ts.Wall, ts.HasWall, ts.NoZone = t, true, !zoned
			rest := strings.TrimLeft(s[4+n:], " \t")
			if z, after, ok := strings.Cut(rest, " "); ok && isZone(z) {
				// A zone's name ("CET") gives no offset Read knows; UTC's
				// does.
				ts.NoZone = ts.NoZone && z != "UTC" && z != "GMT"
				rest = strings.TrimLeft(after, " \t")
			}
			return fromProgram(ts, rest, true)
		}
	case c >= 0x80 || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		// talosctl dmesg asking several nodes: "k8s-3: kern: warning:
		// [2026-05-05T21:49:51.885Z]: nvme nvme1: ...", the node's name
		// before the line one node's output has (stripLevel takes its
		// facility and level, the bracketed time is read as dmesg's).
		if i := strings.Index(s[:min(len(s), 80)], ": kern:"); i > 0 && !strings.ContainsAny(s[:i], " \t") {
			return splitLine(s[i+2:])
		}
		// journalctl -o verbose's and -o export's MESSAGE field (a record's
		// other fields, its time and transport, are not read).
		if m, ok := strings.CutPrefix(s, "MESSAGE="); ok {
			return split{msg: m, kernel: true}
		}
		// A bare "kernel: nvme ...", as grep or a copy from a journal viewer
		// leaves it.
		if m, ok := cutKernel(s); ok {
			ts, m = withInnerMono(ts, afterRepeated(strings.TrimLeft(m, " \t")))
			return split{ts: ts, msg: afterCaller(m), kernel: true}
		}
		// "host kernel: nvme ...": a journal or syslog line with its time
		// cut off (cut -d' ' -f4-, or a viewer's column).
		if m, prog, hasProg := afterProgram(s); hasProg && prog == "kernel" {
			ts, m = withInnerMono(ts, afterRepeated(strings.TrimLeft(m, " \t")))
			return split{ts: ts, msg: afterCaller(m), kernel: true}
		}
		// A localised syslog or journal month: "Mär 21 22:57:44 host kernel:".
		if t, n, ok := parseLocalSyslogTime(s); ok {
			return fromProgram(t, strings.TrimLeft(s[n:], " \t"), true)
		}
	}
	// A date in an order of its own before the time of day ("12/05/2026
	// 10:00:00 host kernel: ...", "2026 Dec  5 10:00:00 ..."): a kernel
	// line only with the kernel's name after it, a host's before that or
	// not; what else follows such a time is read as the lines without
	// one are.
	if ts, n, ok := datedClock(s); ok {
		if sp := fromProgram(ts, strings.TrimLeft(s[n:], " \t"), true); sp.kernel {
			return sp
		}
	}
	if programTag(s) {
		// "smartd[912]: ...": a program's line with its time cut off.
		prog, msg, _ := strings.Cut(s, " ")
		return split{program: programName(prog), relayed: msg}
	}
	return split{msg: afterCaller(s), kernel: true}
}

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

// programTag reports whether a message starts with a program's tag,
// "mount[353]:": a line of a program, not of the kernel.
func programTag(s string) bool {
	w, _, _ := strings.Cut(s, " ")
	open := strings.IndexByte(w, '[')
	return open > 0 && strings.HasSuffix(w, "]:") && allDigits(w[open+1:len(w)-2]) && len(w) > open+3
}

// fromProgram takes the message after a time stamp: "host kernel: ..." of
// journalctl and syslog (needed when needHost), a bare "kernel: ...", or
// the message itself (dmesg). A "host program:" line of another program is
// no kernel line.
func fromProgram(ts Timestamp, rest string, needHost bool) split {
	sp := programSplit(ts, rest, needHost)
	sp.afterTime = rest
	return sp
}

// programSplit is fromProgram but for afterTime.
func programSplit(ts Timestamp, rest string, needHost bool) split {
	if len(rest) > 0 && (rest[0] == '{' || rest[0] == '[') && !needHost && ghesRecord(rest) {
		// A CPER record's line ("{1}[Hardware Error]: ..."), whose
		// bracketed words are no program's tag (ghesLine).
		return split{ts: ts, msg: rest, kernel: true}
	}
	rest = skipFacility(rest)
	if m, ok := cutKernel(rest); ok {
		ts, m = withInnerMono(ts, afterRepeated(strings.TrimLeft(m, " \t")))
		return split{ts: ts, msg: afterCaller(m), kernel: true}
	}
	m, prog, hasProg := afterProgram(rest)
	switch {
	case hasProg && prog == "kernel":
		ts, m = withInnerMono(ts, afterRepeated(strings.TrimLeft(m, " \t")))
		return split{ts: ts, msg: afterCaller(m), kernel: true}
	case needHost && deviceMessage(rest):
		// A syslog time and then the message itself, host and program
		// left out ("Apr 12 06:23:38  nvme nvme0: I/O tag 588 ..."), as a
		// report's timeline shows the lines: "nvme nvme0:" is no host and
		// program.
		return split{ts: ts, msg: rest, kernel: true}
	case needHost || hasProg && programWord(rest) || programTag(rest):
		sp := split{ts: ts}
		if hasProg {
			sp.program, sp.relayed = prog, m
		} else if programTag(rest) {
			tag, msg, _ := strings.Cut(rest, " ")
			sp.program, sp.relayed = programName(tag), msg
		}
		return sp
	}
	return split{ts: ts, msg: rest, kernel: true}
}

// programName is a syslog tag's program: "smartd" of "smartd[912]:".
func programName(tag string) string {
	tag = strings.TrimSuffix(tag, ":")
	if i := strings.IndexByte(tag, '['); i > 0 {
		tag = tag[:i]
	}
	return tag
}

// afterLabels removes the label set Grafana Loki's logcli prints between
// a line's time and its text ("{host=\"node3\", unit=\"kernel\"} nvme
// ..."), which a fleet's kernel logs are pasted from.
func afterLabels(s string) string {
	if len(s) == 0 || s[0] != '{' || !strings.Contains(s[:min(len(s), 512)], "=") {
		return s
	}
	if end := strings.Index(s, "} "); end > 0 {
		return strings.TrimLeft(s[end+2:], " \t")
	}
	return s
}

// cutKernel removes a bare "kernel: " from the start of s, or the
// program and level a log collector's template writes there
// ("kernel:warning: [10419813.132359]  nvme_wait_freeze+0x33/0x50
// [nvme_core]", "kernel:info: ..."), and reports whether it did.
func cutKernel(s string) (string, bool) {
	if m, ok := strings.CutPrefix(s, "kernel: "); ok {
		return m, true
	}
	rest, ok := strings.CutPrefix(s, "kernel:")
	if !ok {
		return s, false
	}
	i := strings.Index(rest[:min(len(rest), 10)], ": ")
	if i < 0 || !slices.Contains(syslogLevels, rest[:i]) {
		return s, false
	}
	return rest[i+2:], true
}

// afterKernel removes a bare "kernel: " before a message.
func afterKernel(m string) string {
	if r, ok := strings.CutPrefix(m, "kernel: "); ok {
		return strings.TrimLeft(r, " \t")
	}
	return m
}

// afterCaller removes a printk caller id ("[   T64] ", "[    C3] ",
// "[T64]", extended netconsole's "T5971;"), which kernels built with
// CONFIG_PRINTK_CALLER print after the time, and a dynamic-debug
// decoration after it (afterDynDebug).
func afterCaller(m string) string {
	if len(m) > 2 && (m[0] == 'T' || m[0] == 'C') && isDigit(m[1]) {
		// Extended netconsole's caller id before its message, as a
		// syslog receiver keeps it without the record's other fields
		// ("T5971;pcieport 0000:00:01.1: ...").
		if i := strings.IndexByte(m[:min(len(m), 10)], ';'); i > 1 && allDigits(m[1:i]) {
			return afterDynDebug(m[i+1:])
		}
	}
	if len(m) < 4 || m[0] != '[' {
		return afterDynDebug(m)
	}
	end := strings.IndexByte(m[:min(len(m), 16)], ']')
	if end < 0 {
		return m
	}
	in := strings.TrimLeft(m[1:end], " \t")
	if len(in) < 2 || len(in) > 9 || in[0] != 'T' && in[0] != 'C' || !allDigits(in[1:]) {
		return afterDynDebug(m)
	}
	return afterDynDebug(strings.TrimLeft(m[end+1:], " \t"))
}

// afterDynDebug removes the prefix dynamic debug adds to a message whose
// call site has decoration flags on (the kernel's
// Documentation/admin-guide/dynamic-debug-howto.rst: 't' the thread id,
// "[222] " or "<intr> "; 'm', 'f', 's' and 'l' the module, function,
// source file and line, each followed by ':', then a space), as in
// "[222] pcie_do_recovery:201: pcieport 0000:00:01.1: ...". A run of
// names is taken for a decoration only when it ends in a line number (a
// line number alone only after a thread id), so a message's own first
// word ("ACPI: ...") is kept; a thread id alone is kept too (an AER
// detail's "[21] ACSViol" starts the same way). Only pr_debug and dev_dbg
// call sites are decorated.
func afterDynDebug(m string) string {
	s, tid := m, false
	if r, ok := strings.CutPrefix(s, "<intr> "); ok {
		s, tid = r, true
	} else if len(s) > 3 && s[0] == '[' {
		if end := strings.IndexByte(s[:min(len(s), 12)], ']'); end > 1 && allDigits(s[1:end]) && end+1 < len(s) && s[end+1] == ' ' {
			s, tid = s[end+2:], true
		}
	}
	sp := strings.IndexByte(s, ' ')
	if sp < 2 || s[sp-1] != ':' {
		return m
	}
	run := s[:sp-1]
	last := strings.LastIndexByte(run, ':')
	named := last > 0 && last < len(run)-1 && allDigits(run[last+1:]) && decorationNames(run[:last])
	if !named && !(tid && allDigits(run)) && !funcBeforeDevice(run, s[sp+1:]) {
		return m
	}
	return strings.TrimLeft(s[sp+1:], " \t")
}

// funcBeforeDevice reports whether run is the function name alone that
// dynamic debug's 'f' flag puts before a dev_dbg message, which names its
// device next: "pcie_do_recovery: pcieport 0000:97:02.0: AER: broadcast
// error_detected message". A function's name has an underscore and no
// other punctuation; a message's own first word ("nvme:", "ACPI:") has no
// driver and device after it.
func funcBeforeDevice(run, rest string) bool {
	if !strings.Contains(run, "_") || !decorationNames(run) || strings.ContainsAny(run, ".-/") {
		return false
	}
	drv, dev, _ := splitDevice(rest)
	return drv != "" && (isPCIAddr(dev) || isCtrlName(dev))
}

// decorationNames reports whether s is one or more names joined by ':'
// (a module, a function, a source file): letters, digits, '_', '.', '-'
// and '/', none empty, none all digits.
func decorationNames(s string) bool {
	digits := true // the name so far is all digits
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ':' {
			if digits { // empty, or a number
				return false
			}
			digits = true
			continue
		}
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '_' || c == '.' || c == '-' || c == '/') {
			return false
		}
		digits = digits && isDigit(c)
	}
	return true
}

// afterRepeated takes the message out of rsyslog's reduction of repeated
// messages ("message repeated 3 times: [ nvme nvme0: ...]", on in the
// rsyslog.conf of Debian and Ubuntu): the message, read once.
func afterRepeated(m string) string {
	rest, ok := strings.CutPrefix(m, "message repeated ")
	if !ok {
		return m
	}
	n, rest := digitsPrefix(rest)
	inner, ok := strings.CutPrefix(rest, " times: [")
	if n == "" || !ok {
		return m
	}
	return strings.TrimLeft(strings.TrimSuffix(inner, "]"), " \t")
}

// withInnerMono takes the dmesg time a syslog line may keep after
// "kernel:" ("kernel: [   12.345678] nvme ...").
func withInnerMono(ts Timestamp, m string) (Timestamp, string) {
	if len(m) > 0 && m[0] == '[' {
		if end := strings.IndexByte(m, ']'); end > 0 {
			if d, ok := parseSeconds(strings.TrimSpace(m[1:end])); ok {
				ts.Mono, ts.HasMono = d, true
				return ts, strings.TrimLeft(m[end+1:], " \t")
			}
		}
	}
	return ts, m
}

// cleanLine strips indentation, e-mail and Markdown quoting ("> ", ">> >"),
// Markdown emphasis around a pasted line ("**...**", "`...`"), a Markdown
// table row's bars ("| ... |") and the surrounding whitespace.
func cleanLine(s string) string {
	if s != "" {
		// The common line: nothing to clean.
		switch first, last := s[0], s[len(s)-1]; {
		case quoteByte(first) || first == '`' || first == '*' || first == '-' || first == '+':
		case last == ' ' || last == '\t' || last == '\r' || last == '\n' || last == '`' || last == '*' || last == '\\' || last == '|':
		case first == '[' && len(s) > 3 && bbOpen(s) > 0, last == ']' && bbClose(s) > 0:
		default:
			return s
		}
	}
	s = unquote(s)
	// A forum's BBCode around a pasted block: "[code][   12.3] nvme ..."
	// and "...[/code]", "[FONT=courier new]kernel: ..." and "...[/FONT]".
	for n := bbOpen(s); n > 0; n = bbOpen(s) {
		s = s[n:]
	}
	for n := bbClose(s); n > 0; n = bbClose(s) {
		s = s[:len(s)-n]
	}
	s = afterListMark(s)
	bold, row := false, false
	for len(s) > 0 && (s[0] == '`' || s[0] == '*' && len(s) > 1 && s[1] == '*') {
		if s[0] == '*' {
			s, bold = s[2:], true
		} else {
			s = s[1:]
		}
	}
	s = strings.TrimRight(s, " \t\r\n")
	for {
		switch {
		case bold && strings.HasSuffix(s, "**"):
			// The end of Markdown's bold, not a line's own "****" (the
			// PM core's "**** DPM device timeout ****").
			s, bold = s[:len(s)-2], false
		case strings.HasSuffix(s, "`"), strings.HasSuffix(s, " \\"), strings.HasSuffix(s, " |"):
			// A Markdown table's row ("| [  12.3] nvme ... |") ends in a
			// bar, as its start is quoting.
			row = row || s[len(s)-1] == '|'
			s = s[:len(s)-1]
		default:
			s = strings.TrimRight(s, " \t")
			if row {
				s = tableRow(s)
			}
			return s
		}
	}
}

// afterListMark removes a Markdown list's mark ("- ", "* ", "+ ") before
// a pasted line, when what follows starts as a kernel line does: a time,
// "kernel: " or a driver's message about a device ("* nvme nvme0: failed
// to set APST feature (2)", a forum's list of boot errors). A diff's "+"
// and a line's own "- " before anything else stay.
func afterListMark(s string) string {
	if len(s) < 3 || s[1] != ' ' || s[0] != '-' && s[0] != '*' && s[0] != '+' {
		return s
	}
	rest := strings.TrimLeft(s[2:], " \t")
	if strings.HasPrefix(rest, "kernel: ") || deviceMessage(rest) || stampedBytes([]byte(rest)) {
		return rest
	}
	return s
}

// tableRow reads a Markdown table's row of several cells, s without its
// outer bars, whose first cell is a time stamp ("12.345678" alone, "[
// 12.345678]", "Dec 05 10:00:00", an ISO time) and last the message, as
// the line of one: the cell before the message is the program ("kernel")
// or the device's prefix ("nvme nvme0"), which the message follows after
// a colon; a host's cell before it is left out. Any other row is left as
// it is.
func tableRow(s string) string {
	cells := strings.Split(s, " | ")
	n := len(cells)
	first := strings.TrimSpace(cells[0])
	if _, bare := parseSeconds(first); bare && strings.IndexByte(first, '.') > 0 {
		first = "[" + first + "]"
	}
	if n < 2 || !stampedBytes([]byte(first)) {
		return s
	}
	msg := cells[n-1]
	if dev := strings.TrimSpace(cells[n-2]); n > 2 && dev != "" {
		msg = dev + ": " + msg
	}
	return first + " " + msg
}

// bbTags are the BBCode tags forums wrap a pasted log in: "[code]", the
// formatting of "[font=...]", "[color=...]", "[size=...]", "[b]", "[i]".
var bbTags = []string{"code", "font", "color", "size", "b", "i"}

// bbOpen returns the length of the BBCode opening tag s starts with
// ("[code]", "[FONT=courier new]", in either case), 0 for none. It looks
// at a few bytes of every line that starts with "[" (a dmesg time's
// "[   12.3]" stops it at the second).
func bbOpen[T string | []byte](s T) int {
	if len(s) < 3 || s[0] != '[' {
		return 0
	}
	i := 1
	for i < len(s) && i < 7 && (s[i]|0x20 >= 'a' && s[i]|0x20 <= 'z') {
		i++
	}
	if i == 1 || i == len(s) || s[i] != ']' && s[i] != '=' {
		return 0
	}
	if !bbTag(s[1:i]) {
		return 0
	}
	if s[i] == ']' {
		return i + 1
	}
	if i == 2 {
		return 0 // "[b=...]" is no tag
	}
	for j := i; j < len(s) && j < 40; j++ {
		if s[j] == ']' {
			return j + 1
		}
	}
	return 0
}

// bbTag reports whether name is one of bbTags, in either case.
func bbTag[T string | []byte](name T) bool {
	for _, t := range bbTags {
		if len(t) != len(name) {
			continue
		}
		i := 0
		for i < len(t) && name[i]|0x20 == t[i] {
			i++
		}
		if i == len(t) {
			return true
		}
	}
	return false
}

// bbClose returns the length of the BBCode closing tag s ends with
// ("[/code]", "[/FONT]"), 0 for none.
func bbClose(s string) int {
	i := strings.LastIndex(s, "[/")
	if i < 0 || s[len(s)-1] != ']' || len(s)-i > 9 {
		return 0
	}
	if !bbTag(s[i+2 : len(s)-1]) {
		return 0
	}
	return len(s) - i
}

// unquote strips indentation and e-mail or Markdown quoting ("> ", ">>",
// and the "  |  " some commit messages quote a log with).
func unquote(s string) string {
	i := 0
	for i < len(s) && quoteByte(s[i]) {
		i++
	}
	return s[i:]
}

// quoteByte reports whether a byte at the start of a line is indentation
// or quoting: a blank, a tab, a mail's '>', a commit message's '|' or the
// '#' of a log pasted as comments (in a shell script, a Nix file: "#
// Oct 03 15:29:12 host kernel: nvme nvme0: ..."); no kernel message
// starts with one.
func quoteByte(c byte) bool { return c == ' ' || c == '\t' || c == '>' || c == '|' || c == '#' }

// stripLevel removes a serial console's level ("CRIT: "), a printk level
// ("<4>") and dmesg -x's facility and level ("kern  :err   : ").
func stripLevel(s string) string {
	if i := strings.IndexByte(s[:min(len(s), 7)], ':'); i > 0 && i+1 < len(s) && s[i+1] == ' ' && consoleLevel(s[:i], s[i+2:]) {
		s = strings.TrimLeft(s[i+2:], " \t")
	}
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
		return strings.TrimLeft(rest, " \t")
	}
	return s
}

// consoleLevel reports whether word, before a colon at the start of a
// line, is the level a serial-console capture put before each kernel
// line ("CRIT: kernel BUG at ...", "WARN: Workqueue: ...", "INFO: nvme
// nvme77: ..."). The kernel's own messages that start with "INFO: " (a
// hung task, an RCU stall, lockdep) keep it.
func consoleLevel(word, rest string) bool {
	switch word {
	case "EMERG", "ALERT", "CRIT", "ERR", "WARN", "NOTICE", "DEBUG":
		return true
	case "INFO":
		return !strings.HasPrefix(rest, "task ") && !strings.HasPrefix(rest, "rcu") && !strings.HasPrefix(rest, "lockdep") &&
			!strings.HasPrefix(rest, "trying to register")
	}
	return false
}

// kmsg is one /dev/kmsg record.
type kmsg struct {
	ts  Timestamp
	msg string
}

// kmsgRecord parses "PRI,SEQ,USEC,FLAGS[,...];message".
func kmsgRecord(s string) (kmsg, bool) {
	if !isDigit(s[0]) {
		return kmsg{}, false
	}
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

// afterProgram recognises "host program: message" (journal and syslog:
// "host kernel: ...", "host smartd[912]: ...") and returns the message and
// the program ("kernel", "smartd"). hasProg is false when the text does
// not have that shape.
func afterProgram(s string) (msg, program string, hasProg bool) {
	host, rest, ok := strings.Cut(s, " ")
	if !ok || host == "" || strings.HasSuffix(host, ":") {
		return "", "", false
	}
	prog, msg, ok := strings.Cut(skipFacility(rest), " ")
	if !ok {
		prog, msg = rest, ""
	}
	if !strings.HasSuffix(prog, ":") {
		return "", "", false
	}
	return msg, programName(prog), true
}

// programWord reports whether the second word of s looks like a syslog
// program tag ("systemd[1]:") rather than a kernel device ("nvme0:",
// "0000:04:00.0:").
func programWord(s string) bool {
	_, rest, _ := strings.Cut(s, " ")
	prog, _, _ := strings.Cut(rest, " ")
	return strings.HasSuffix(prog, "]:")
}

// deviceMessage reports whether s starts as a driver's message about a
// device the kernel names: the driver's name, then an NVMe controller or
// disk ("nvme0:", "nvme1n1:") or a PCI function ("0000:02:00.0:") and a
// colon.
func deviceMessage(s string) bool {
	drv, rest, ok := strings.Cut(s, " ")
	if !ok || drv == "" || strings.IndexFunc(drv, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-')
	}) >= 0 {
		return false
	}
	dev, _, _ := strings.Cut(rest, " ")
	dev, ok = strings.CutSuffix(dev, ":")
	return ok && (isCtrlName(dev) || isDiskName(dev) || isPCIAddr(dev))
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

// quotedMessages returns the spans of line between backticks or double
// quotes that read as kernel events of their own (a message quoted in a
// sentence of a bug report, or alone with the sentence's full stop after
// it), or nil. Typographic quotes count: “...” (a forum's editor curls a
// typed pair), „...“ and «...». A sentence may chain several, as
// incident notes do ("`nvme nvme0: I/O ... timeout` → `reset controller`
// → `Device not ready; aborting reset, CSTS=0x1`"): each that reads as an
// event is returned, with the controller the spans before it named
// (ctrl[i], "" for none), which a span naming no device is taken to be
// of. A span is never completed with words it does not have.
func quotedMessages(line string) (spans, ctrl []string) {
	typographic := strings.IndexByte(line, 0xe2) >= 0 || strings.IndexByte(line, 0xc2) >= 0 // the lead bytes of “ „ and «
	for k, q := range quotePairs {
		if k >= 2 && !typographic || k < 2 && strings.IndexByte(line, q[0][0]) < 0 {
			continue
		}
		last := "" // the controller the last span named
		for off := 0; off < len(line); {
			i := strings.Index(line[off:], q[0])
			if i < 0 {
				break
			}
			i += off + len(q[0])
			j := strings.Index(line[i:], q[1])
			if j < 0 {
				break
			}
			span := line[i : i+j]
			off = i + j + len(q[1])
			sp := splitLine(span)
			if !sp.kernel || sp.json || sp.msg == "" {
				continue
			}
			if _, ok := parseKernelMessage(sp.msg); !ok {
				continue
			}
			spans, ctrl = append(spans, span), append(ctrl, last)
			switch _, dev, _ := splitDevice(sp.msg); {
			case isCtrlName(dev):
				last = dev
			case isDiskName(dev):
				last = pathController(dev)
			}
		}
		if len(spans) > 0 {
			return spans, ctrl
		}
	}
	return nil, nil
}

// cutAnnotation returns a message without the note its poster wrote
// after it, set off by blanks and an arrow ("... device inaccessible   <-
// TB tree already gone at suspend_noirq", "... timeout  <== here"), and
// whether there was one. A message's own arrow ("0:8 <-> 1:3 (PCI)") has
// a single blank before it.
func cutAnnotation(msg string) (string, bool) {
	for off := 0; ; {
		i := strings.Index(msg[off:], "<")
		if i < 0 {
			return msg, false
		}
		i += off
		off = i + 1
		if i >= 2 && (msg[i-1] == ' ' || msg[i-1] == '\t') && (msg[i-2] == ' ' || msg[i-2] == '\t') &&
			(strings.HasPrefix(msg[i:], "<-") && !strings.HasPrefix(msg[i:], "<->") || strings.HasPrefix(msg[i:], "<=")) {
			return strings.TrimRight(msg[:i], " \t"), true
		}
	}
}

// quotePairs are the quotes, opening and closing, a message is quoted in
// within a sentence.
var quotePairs = [...][2]string{{"`", "`"}, {`"`, `"`}, {"\u201c", "\u201d"}, {"\u201e", "\u201c"}, {"\u00ab", "\u00bb"}} // ASCII pairs first (quotedMessages)

// stripHTML removes the HTML tags a message was pasted in, when it starts
// with one ("<font color=\"#C01C28\"><b>firewire_ohci 0000:98:00.0: ...
// </b></font>", a terminal's colours saved as HTML): a tag is "<", a
// letter or "/", and the rest up to ">". A printk level ("<3>") is no tag.
func stripHTML(msg string) string {
	if len(msg) < 3 || msg[0] != '<' || !(msg[1] >= 'a' && msg[1] <= 'z' || msg[1] >= 'A' && msg[1] <= 'Z') {
		return msg
	}
	var b strings.Builder
	for rest := msg; ; {
		i := strings.IndexByte(rest, '<')
		if i < 0 || i+1 >= len(rest) {
			b.WriteString(rest)
			break
		}
		c := rest[i+1]
		end := strings.IndexByte(rest[i:], '>')
		if end < 0 || !(c == '/' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			b.WriteString(rest[:i+1])
			rest = rest[i+1:]
			continue
		}
		b.WriteString(rest[:i])
		rest = rest[i+end+1:]
	}
	return b.String()
}
