package kernlog

import (
	"strings"
)

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
