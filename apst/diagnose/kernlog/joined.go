package kernlog

import "strings"

// joinedAt returns where a second message starts in line, a log whose
// line ends a copy lost ("[ 1.0] nvme nvme0: ... [ 1.1] nvme nvme0:
// ...", as some web forms and chat clients paste): the index of the blank
// before a time stamp of the shape the line starts with (dmesg's
// "[  12.345678]", a journal's or syslog's "Dec  5 04:55:59", an ISO
// time), or -1. Only those three shapes, and only the same shape again,
// split a line: a message does not hold another message's time stamp.
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
	var mark string
	switch {
	case c[0] == '[':
		if !dmesgStamp(c) {
			return -1
		}
		mark, find = " [", dmesgStamp
	case len(c) > 15 && isMonth(c[:3]) && c[3] == ' ':
		if _, _, ok := parseLocalSyslogTime(c); !ok {
			return -1
		}
		mark = " " + c[:4]
		find = func(s string) bool {
			_, _, ok := parseLocalSyslogTime(s)
			return ok
		}
	case isDigit(c[0]):
		if _, _, _, ok := parseISO(c); !ok {
			return -1
		}
		mark = " " + c[:5]
		find = func(s string) bool {
			_, _, _, ok := parseISO(s)
			return ok
		}
	default:
		return -1
	}
	for i := 1; i < len(c); {
		j := strings.Index(c[i:], mark)
		if j < 0 {
			return -1
		}
		at := i + j
		if find(c[at+1:]) {
			return off + at
		}
		i = at + 1
	}
	return -1
}

// dmesgStamp reports whether s starts with dmesg's time, seconds and six
// decimals ("[  132.247414]"): not AER's "[ 0] RxErr" or a caller id.
func dmesgStamp(s string) bool {
	e := strings.IndexByte(s, ']')
	if e < 9 || e > 20 {
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
