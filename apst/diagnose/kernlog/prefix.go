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
	// host is the host a Loki label set named (labelHost); a syslog
	// line's is in afterTime (hostOf).
	host string
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
		} else if t, n, zoned, ok := parseISO(inner); ok && n == len(inner) && !strings.HasPrefix(strings.TrimLeft(s[end+1:], " \t"), "[") {
			// A date and a time of day, as a logger's or a terminal's
			// time-stamping of dmesg's lines writes them ("[2024-12-05
			// 04:55:59] nvme ..."); before a dmesg time, a serial
			// console's host time, which the else branch below reads.
			ts.Wall, ts.HasWall, ts.NoZone = t, true, !zoned
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
		// talosctl dmesg of a node named by its address ("172.20.1.2:
		// kern: err: [...]: nvme ...").
		if sp, ok := talosNode(s); ok {
			return sp
		}
		// The syslog protocol's "1 2026-12-05T04:55:59Z host kernel - - -".
		if ts, rest, ok := syslog5424(s); ok {
			return fromProgram(ts, rest, true)
		}
		// journalctl -o short-iso, rsyslog's RFC 3339 or dmesg
		// --time-format=iso.
		if t, n, zoned, ok := parseISO(s); ok {
			ts.Wall, ts.HasWall, ts.NoZone = t, true, !zoned
			rest := strings.TrimLeft(s[n:], " \t")
			sp := fromProgram(ts, afterLabels(rest), false)
			sp.host = labelHost(rest)
			return sp
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
		// A row of Kibana's Discover table, copied: "Dec 5, 2024 @
		// 04:55:59.123" and the message.
		if t, n, ok := kibanaPrefix(s); ok {
			return fromProgram(t, strings.TrimLeft(s[n:], " \t"), false)
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
		if sp, ok := talosNode(s); ok {
			return sp
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

// talosNode reads talosctl dmesg's line of one node of several: the
// node's name or address, then the line one node's output has ("k8s-3:
// kern: warning: [2026-05-05T21:49:51.885Z]: nvme nvme1: ...",
// "172.20.1.2: kern: err: ..."); the node is the line's host.
func talosNode(s string) (split, bool) {
	i := strings.Index(s[:min(len(s), 80)], ": kern:")
	if i <= 0 || strings.ContainsAny(s[:i], " \t") {
		return split{}, false
	}
	sp := splitLine(s[i+2:])
	if sp.host == "" && validHost(s[:i]) {
		sp.host = s[:i]
	}
	return sp, true
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

// labelHost is the host a Loki label set names (its "host", "hostname",
// "nodename" or "instance" label: {host="node3", unit="kernel"}), "" for
// none.
func labelHost(s string) string {
	if len(s) == 0 || s[0] != '{' {
		return ""
	}
	end := strings.Index(s, "} ")
	if end < 0 {
		return ""
	}
	labels := s[1:end]
	for _, k := range []string{"host", "hostname", "nodename", "instance"} {
		for rest := labels; ; {
			i := strings.Index(rest, k+`="`)
			if i < 0 {
				break
			}
			if i == 0 || rest[i-1] == ' ' || rest[i-1] == ',' {
				v, _, ok := strings.Cut(rest[i+len(k)+2:], `"`)
				if ok && validHost(v) {
					return v
				}
				break
			}
			rest = rest[i+len(k):]
		}
	}
	return ""
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
// "kernel:" ("kernel: [   12.345678] nvme ..."), and drops a dmesg -T time
// there ("kernel: [Wed May  1 12:00:00 2024] nvme ...", dmesg -T's lines
// fed to a logger): the record's own time stands.
func withInnerMono(ts Timestamp, m string) (Timestamp, string) {
	if len(m) > 0 && m[0] == '[' {
		if end := strings.IndexByte(m, ']'); end > 0 {
			inner := strings.TrimSpace(m[1:end])
			if d, ok := parseSeconds(inner); ok {
				ts.Mono, ts.HasMono = d, true
				return ts, strings.TrimLeft(m[end+1:], " \t")
			}
			if _, err := time.Parse("Mon Jan _2 15:04:05 2006", collapseSpaces(inner)); err == nil {
				return ts, strings.TrimLeft(m[end+1:], " \t")
			}
		}
	}
	return ts, m
}

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
