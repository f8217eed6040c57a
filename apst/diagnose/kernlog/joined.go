package kernlog

import (
	"cmp"
	"strings"
	"time"
)

// joinedAt returns where a second message starts in line, a log whose
// line ends a copy lost ("[ 1.0] nvme nvme0: ... [ 1.1] nvme nvme0:
// ...", as some web forms and chat clients paste): the index of the blank
// before a time stamp of the shape the line starts with, or -1. dmesg's
// "[  12.345678]", a journal's or syslog's "Dec  5 04:55:59" and an ISO
// time are looked for as such; every other shape a line of its own reads
// in (dmesg -T and -d, a printk level or syslog PRI, the syslog protocol,
// a localised or full journal time, logread, a bare "kernel: ") through
// sameShapeAt. Only the same shape again splits a line: a message does
// not hold another message's time stamp.
func joinedAt(line string) int {
	c := cleanLine(line)
	if len(c) < 40 {
		return -1
	}
	off := strings.Index(line, c) // cleanLine trims quoting and blanks at the ends
	if off < 0 {
		return -1
	}
	var find func(s string) bool
	switch {
	case c[0] == '[' && dmesgStamp(c):
		find = dmesgStamp
	case len(c) > 15 && isMonth(c[:3]) && c[3] == ' ':
		// A syslog time, or Kibana's ("Dec 5, 2024 @ 04:55:59.123").
		stamp := parseLocalSyslogTime
		if _, _, ok := stamp(c); !ok {
			stamp = kibanaPrefix
			if _, _, ok := stamp(c); !ok {
				return -1
			}
		}
		month := c[:4]
		find = func(s string) bool {
			if !strings.HasPrefix(s, month) {
				return false
			}
			_, _, ok := stamp(s)
			return ok
		}
	case isDigit(c[0]) && isISO(c):
		year := c[:5]
		find = func(s string) bool { return strings.HasPrefix(s, year) && isISO(s) }
	case hostKernelTag(c) != "":
		// "host kernel: ...", the time cut off: the same host and
		// "kernel: " again.
		mark := hostKernelTag(c)
		find = func(s string) bool { return strings.HasPrefix(s, mark) }
	default:
		if i := sameShapeAt(c); i > 0 {
			return off + i
		}
		return -1
	}
	if !strings.Contains(c[1:], "[") {
		for i := 1; i+1 < len(c); i++ {
			if (c[i] == ' ' || c[i] == '\t') && find(c[afterQuotes(c, i+1):]) {
				return off + i
			}
		}
		return -1
	}
	depth := 0 // of brackets: a time inside them ("kernel: [Wed May  1 12:00:00 2024] nvme ...") starts no message
	for i := 1; i+1 < len(c); i++ {
		switch c[i] {
		case '[':
			depth++
		case ']':
			depth = max(depth-1, 0)
		case ' ', '\t':
			if depth == 0 && find(c[afterQuotes(c, i+1):]) {
				return off + i
			}
		}
	}
	return -1
}

// hostKernelTag returns "host kernel: " when c starts with a host's name
// (not a time: it starts with no digit) and the kernel's tag, else "".
func hostKernelTag(c string) string {
	h, rest, ok := strings.Cut(c, " ")
	if !ok || h == "" || isDigit(h[0]) || h == "kernel:" || !strings.HasPrefix(rest, "kernel: ") {
		return ""
	}
	return c[:len(h)+len(" kernel: ")]
}

// isISO reports whether s starts with an ISO time.
func isISO(s string) bool {
	_, _, _, ok := parseISO(s)
	return ok
}

// afterQuotes returns the index after the quoting that starts at i in c
// ("> ", "> > ", "# "): a quoted log joined into one line keeps each
// message's quote marks.
func afterQuotes(c string, i int) int {
	for i < len(c) && (c[i] == '>' || c[i] == '#') && i+1 < len(c) && (c[i+1] == ' ' || c[i+1] == '>') {
		i++
		for i < len(c) && c[i] == ' ' {
			i++
		}
	}
	return i
}

// dmesgStamp reports whether s starts with dmesg's time, seconds and six
// decimals ("[  132.247414]"): not AER's "[ 0] RxErr" or a caller id.
func dmesgStamp(s string) bool {
	if len(s) == 0 || s[0] != '[' {
		return false
	}
	e := strings.IndexByte(s[:min(len(s), 21)], ']')
	if e < 9 {
		return false
	}
	in := strings.TrimLeft(s[1:e], " ")
	dot := strings.IndexByte(in, '.')
	if dot < 1 || len(in)-dot != 7 {
		return false
	}
	_, ok := parseSeconds(in)
	return ok
}

// headScan is how much of a line's start sameShapeAt reads for its time
// stamp and program: the longest prefix of the shapes read (the syslog
// protocol's, with its structured data) fits.
const headScan = 256

// sameShapeAt returns the index of the blank before a second message in
// c, a cleaned line, whose head reads as c's does (splitLine: a time of
// the same kind, or the same bare "kernel: "), or -1. Only a blank
// followed by c's first byte (or, for a digit or letter, one of its
// class) is tried, on headScan bytes, so a long line costs at most that
// for each of its blanks.
//
// A head is taken only where it is laid out as c's own (sameLayout): a
// message's "[ 0] RxErr" reads as a time too, and heads of one shape may
// nest ("... prio class 2 2026 Dec  1 10:01:01 host kernel: ..." reads as
// a dated head from the "2", from the "2026" and from the "10:01:01").
// So a line of another program ("host systemd[1]: ...") is not split off
// a kernel line in these shapes: it stays in the message before it.
func sameShapeAt(c string) int {
	if layoutClass(c[0]) == 0 && strings.IndexByte(c[1:], c[0]) < 0 {
		return -1 // "[Tue Dec  1 ...]" or "<3>" starts no second head
	}
	var want shape
	tEnd := -1
	for i := 1; i+1 < len(c); i++ {
		if c[i] != ' ' && c[i] != '\t' {
			continue
		}
		if from := afterQuotes(c, i+1); from >= len(c) || !sameClass(c[from], c[0]) || !layoutPrefix(c[from:], c, 3) {
			continue // cheaply: no head like c's starts here
		}
		if tEnd < 0 {
			// c's own head, read once a blank may start another.
			var ok bool
			if want, _, tEnd, ok = headShape(c); !ok {
				return -1
			}
		}
		if i < tEnd {
			continue
		}
		h, ok := headAt(c, i, want)
		if !ok {
			continue
		}
		if sameLayout(c[h.from:h.timeEnd], c[:tEnd]) {
			return i
		}
		for k := i + 1; k < h.msg-1; k++ {
			if g, ok := headAt(c, k, want); ok && g.msg == h.msg && sameLayout(c[g.from:g.timeEnd], c[:tEnd]) {
				return k
			}
		}
	}
	return -1
}

// head is where a head found in a line starts, where its time's part
// ends and where its message starts.
type head struct{ from, timeEnd, msg int }

// headAt reports whether a head of shape want follows the blank at i in
// c (after quote marks), and where.
func headAt(c string, i int, want shape) (head, bool) {
	if c[i] != ' ' && c[i] != '\t' {
		return head{}, false
	}
	from := afterQuotes(c, i+1)
	if from >= len(c) || !sameClass(c[from], c[0]) {
		return head{}, false
	}
	got, n, t, ok := headShape(c[from:])
	return head{from, from + t, from + n}, ok && got == want
}

// sameLayout reports whether two heads are laid out alike: the same
// bytes, but that a run of digits matches any run of digits, a run of
// letters (or of bytes of multi-byte characters) any such run, and blanks
// are not compared ("Dec  1 09:00:05 host kernel: " and "Dec 11 10:01:01
// host kernel: " are; "2 2026 Dec  1 ..." and "2026 Dec  1 ..." are not).
func sameLayout(a, b string) bool {
	same, ia, ib := layoutWalk(a, b, -1)
	return same && ia == len(a) && ib == len(b)
}

// layoutPrefix reports whether a and b are laid out alike (sameLayout)
// over their first n units, or until one ends.
func layoutPrefix(a, b string, n int) bool {
	same, _, _ := layoutWalk(a, b, n)
	return same
}

// layoutWalk compares a and b unit by unit as sameLayout does, at most n
// units (n < 0: all), and returns whether they agreed and where it
// stopped in each.
func layoutWalk(a, b string, n int) (same bool, i, j int) {
	for ; n != 0; n-- {
		for i < len(a) && (a[i] == ' ' || a[i] == '\t') {
			i++
		}
		for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
			j++
		}
		if i == len(a) || j == len(b) {
			return true, i, j // sameLayout asks whether both ended
		}
		ca, cb := layoutClass(a[i]), layoutClass(b[j])
		if ca != cb || ca == 0 && a[i] != b[j] {
			return false, i, j
		}
		i, j = i+1, j+1
		if ca != 0 {
			for i < len(a) && layoutClass(a[i]) == ca {
				i++
			}
			for j < len(b) && layoutClass(b[j]) == cb {
				j++
			}
		}
	}
	return true, i, j
}

// layoutClass is 1 for a digit, 2 for a letter or a byte of a multi-byte
// character, 0 for the rest (compared as itself).
func layoutClass(c byte) int {
	switch {
	case isDigit(c):
		return 1
	case c >= 0x80 || 'a' <= c|0x20 && c|0x20 <= 'z':
		return 2
	}
	return 0
}

// shape is what sameShapeAt compares of two lines' heads.
type shape struct {
	ts               Timestamp
	relative, kernel bool
}

// headShape reads the head of s as splitLine does and returns its shape
// without the times' values, the length of the head (where its message
// starts) and of its time's part; ok is false for a head with no time and no program
// (a message alone, which gives nothing to split on) other than a bare
// "kernel: ".
func headShape(s string) (sh shape, headLen, timeEnd int, ok bool) {
	h := s[:min(len(s), headScan)]
	sp := splitLine(h)
	if sp.ts.IsZero() && !sp.relative && !strings.HasPrefix(s, "kernel: ") {
		return shape{}, 0, 0, false
	}
	msg := cmp.Or(sp.relayed, sp.msg)
	if msg == "" {
		return shape{}, 0, 0, false
	}
	// The message is the head's tail, but for what splitLine rewrote of
	// it (collapsed blanks, entities): then where its first word is.
	n := len(h) - len(msg)
	if !strings.HasSuffix(h, msg) {
		w, _, _ := strings.Cut(msg, " ")
		if n = strings.Index(h, w); n < 0 {
			n = 0
		}
	}
	t := sp.ts
	t.Mono, t.Wall = 0, time.Time{}
	// The time's own part of the head, where sameLayout looks: what
	// follows it (a host, a program, a facility) is another program's on
	// another program's line.
	// (cleanLine may have trimmed the head's end: where what followed
	// the time starts is looked up by its first bytes).
	// The syslog protocol's "host app: " is made, not found: its time's
	// part is the version and the time, two words.
	timeEnd = n
	if sp.afterTime != "" {
		if i := strings.Index(h, sp.afterTime[:min(len(sp.afterTime), 16)]); i >= 0 {
			timeEnd = min(n, i)
		} else if i := wordsEnd(h, 2); i > 0 {
			timeEnd = min(n, i)
		}
	}
	if t.HasWall {
		// A syslog line's inner dmesg time ("kernel: [    1.000000]")
		// is the kernel's, not the head's: other programs' lines have
		// none.
		t.HasMono = false
	}
	return shape{ts: t, relative: sp.relative, kernel: sp.kernel || sp.program != ""}, n, timeEnd, true
}

// wordsEnd returns the index after the nth blank-separated word of s
// (leading blanks and quote marks skipped), or -1.
func wordsEnd(s string, n int) int {
	i := afterQuotes(s, 0)
	for range n {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		j := strings.IndexByte(s[i:], ' ')
		if j < 0 {
			return -1
		}
		i += j
	}
	return i
}

// sameClass reports whether b may start a line of the shape whose line
// starts with a: the same byte, or for a digit another digit, for a letter
// another letter (a month's or weekday's name), for a byte of a multi-byte
// character another such byte (a localised month).
func sameClass(b, a byte) bool {
	switch {
	case b == a:
		return true
	case isDigit(a):
		return isDigit(b)
	case a >= 0x80:
		return b >= 0x80
	case 'a' <= a|0x20 && a|0x20 <= 'z':
		return 'a' <= b|0x20 && b|0x20 <= 'z'
	}
	return false
}
