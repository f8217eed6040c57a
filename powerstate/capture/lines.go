package capture

import "strings"

// lineReader splits text into lines ended by "\n", "\r\n" or a lone "\r"
// (Windows and old Mac line endings), or "\r\r\n" (a Windows file whose
// line ends were converted a second time, as a paste from Windows mail
// or an editor leaves them); the terminators are not returned.
// The zero value reads nothing; set S (with newLineReader) to start.
type lineReader struct {
	s     string
	pos   int // offset of the next line
	start int // offset of the line last returned
	n     int // number of the line last returned (1-based)
	// nl is the offset of the first "\n" at or after pos, len(s) when
	// there is none; it is valid when nlOK. Caching it keeps a text of
	// lone "\r" line ends linear.
	nl   int
	nlOK bool
	// cr is likewise the offset of the first "\r" at or after pos: a text
	// without one is searched for it once, not once a line.
	cr   int
	crOK bool
}

// newLineReader returns a reader of the lines of s.
func newLineReader(s string) lineReader { return lineReader{s: s} }

// Next returns the next line, whether a line terminator ended it, and false
// at the end of the text.
func (l *lineReader) Next() (line string, terminated, ok bool) {
	if l.pos >= len(l.s) {
		return "", false, false
	}
	rest := l.s[l.pos:]
	l.start = l.pos
	l.n++
	if !l.nlOK || l.nl < l.pos {
		l.nl, l.nlOK = len(l.s), true
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			l.nl = l.pos + i
		}
	}
	nl := l.nl - l.pos // relative; len(rest) when there is none
	seg := rest[:nl]
	if nl == len(rest) {
		nl = -1
	}
	if !l.crOK || l.cr < l.pos {
		l.cr, l.crOK = len(l.s), true
		if i := strings.IndexByte(rest, '\r'); i >= 0 {
			l.cr = l.pos + i
		}
	}
	if cr := l.cr - l.pos; cr < len(seg) {
		if cr == nl-1 || cr == nl-2 && rest[cr+1] == '\r' {
			l.pos += nl + 1 // "\r\n" or "\r\r\n"
		} else {
			l.pos += cr + 1 // a lone "\r"
		}
		return rest[:cr], true, true
	}
	if nl < 0 {
		l.pos = len(l.s)
		return rest, false, true
	}
	l.pos += nl + 1
	return seg, true, true
}

// Peek returns the next line without consuming it, with the number it has
// (the number it would have at the end of the text).
func (l *lineReader) Peek() (line string, n int, ok bool) {
	c := *l
	line, _, ok = c.Next()
	if !ok {
		return "", l.n + 1, false
	}
	return line, c.n, true
}

// N returns the 1-based number of the line last returned, 0 before the
// first.
func (l *lineReader) N() int { return l.n }

// Start returns the offset of the line last returned.
func (l *lineReader) Start() int { return l.start }

// Pos returns the offset of the next line (the length of the text at its
// end).
func (l *lineReader) Pos() int { return l.pos }

// Done reports whether every line has been returned.
func (l *lineReader) Done() bool { return l.pos >= len(l.s) }

// Text returns the text being read.
func (l *lineReader) Text() string { return l.s }

// lineOf returns the 1-based line number of byte offset off in s, counting
// line terminators as Lines does.
func lineOf(s string, off int) int {
	off = max(0, min(off, len(s)))
	n := 1
	for i := 0; i < off; i++ {
		switch s[i] {
		case '\n':
			n++
		case '\r':
			if crEnds(s, i) {
				n++
			}
		}
	}
	return n
}

// crEnds reports whether the "\r" at offset i of s ends a line by itself:
// it is not the start of a "\r\n" or "\r\r\n" line end.
func crEnds(s string, i int) bool {
	switch {
	case i+1 < len(s) && s[i+1] == '\n':
		return false
	case i+2 < len(s) && s[i+1] == '\r' && s[i+2] == '\n':
		return false
	}
	return true
}

// lastLine returns the line of the last non-blank character of s: where a
// truncated document stops.
func lastLine(s string) int {
	return lineOf(s, len(strings.TrimRight(s, " \t\r\n"))-1)
}

// endsInside reports whether a problem on line is on the last line of s
// and that line has no terminator: the capture was cut inside it.
func endsInside(s string, line int) bool {
	if s == "" || s[len(s)-1] == '\n' || s[len(s)-1] == '\r' {
		return false
	}
	return line == lineOf(s, len(s))
}
