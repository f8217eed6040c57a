package capture

import "strings"

// pastePrefix returns the indentation and quoting a pasted line starts with: the
// leading run of spaces, tabs and '>' (an email or markdown quote, "> " or
// "> > "). A capture line itself never starts with '>'.
func pastePrefix(line string) string {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '>') {
		i++
	}
	return line[:i]
}

// dedent removes prefix from the block of lines around line number marker
// (1-based): the lines before and after it that start with prefix, or are
// blank once the quote marks of prefix are removed (a quoted blank line
// ">"), up to the first line that does neither. Lines outside the block are
// emptied, so that line numbers stay those of s and what surrounds the
// paste (prose, a code fence) is not read as part of it. With an empty
// prefix s is returned unchanged.
//
// A line inside the block keeps what it has beyond prefix, so the
// continuation lines of nvme-cli's power state blocks keep their own
// indentation. A line without prefix after a line of the block that a mail
// client wrapped (see wrapsAfter), with the block going on after it, is
// the end of that line: it stays in the block as it is, for the reader to
// name the wrap.
func dedent(s string, marker int, prefix string) string {
	if prefix == "" {
		return s
	}
	quote := strings.TrimRight(prefix, " \t")
	inBlock := func(line string) bool {
		return strings.HasPrefix(line, prefix) || strings.TrimSpace(line) == "" ||
			quote != "" && strings.TrimRight(line, " \t") == quote
	}
	// Find the block: walk back from the marker, then forward. A line is
	// in the block (1), the end of a line of the block a mail client
	// wrapped (2), or neither (0).
	type span struct {
		start, end int // byte offsets of a line, without terminator
		kind       int8
	}
	var spans []span
	l := newLineReader(s)
	for {
		line, _, ok := l.Next()
		if !ok {
			break
		}
		sp := span{start: l.Start(), end: l.Start() + len(line)}
		if inBlock(line) {
			sp.kind = 1
		} else if n := len(spans); n > 0 && (spans[n-1].kind == 2 || strings.HasPrefix(s[spans[n-1].start:spans[n-1].end], prefix)) &&
			wrapsAfter(s[spans[n-1].start:spans[n-1].end], line, wrapMin) {
			sp.kind = 2
		}
		spans = append(spans, sp)
	}
	if marker < 1 || marker > len(spans) {
		return s
	}
	first, last := marker-1, marker-1
	for first > 0 && spans[first-1].kind != 0 {
		first--
	}
	for last+1 < len(spans) && spans[last+1].kind != 0 {
		last++
	}
	for last > marker-1 && spans[last].kind == 2 {
		last-- // the block does not go on after the wrapped line
	}
	var b strings.Builder
	b.Grow(len(s))
	prev := 0
	for i, sp := range spans {
		b.WriteString(s[prev:sp.start]) // the terminator of the line before
		line := s[sp.start:sp.end]
		switch {
		case strings.HasPrefix(line, prefix) && i >= first && i <= last:
			b.WriteString(line[len(prefix):])
		case sp.kind == 2 && i > first && i < last:
			// A wrapped line's end, kept for the reader to name.
			b.WriteString(line)
		case sp.start > 0 && s[sp.start-1] == '\r' && sp.end < len(s) && (s[sp.end] == '\n' || strings.HasPrefix(s[sp.end:], "\r\n")):
			// Emptied between a lone "\r" and a "\n" (or "\r\n"), the
			// line would make the two one "\r\n" (or "\r\r\n") and the
			// lines after it move up one: a blank keeps the numbering the
			// marker counts in.
			b.WriteByte(' ')
		default:
			// outside the paste, or a blank or quoted blank line: emptied
		}
		prev = sp.end
	}
	b.WriteString(s[prev:])
	return b.String()
}

// wrapMin is the narrowest column a mail client or a forum wraps lines
// at; 72 to 80 are common.
const wrapMin = 64

// wrapsAfter reports whether next can be the end of line that a wrap at
// min columns or more moved: line and next are not blank, and line with
// the first word of next would pass min columns (a hard wrap leaves line
// min long or longer, a wrap at words leaves the word that did not fit).
// A reader, which sees the lines without the quoting a wrap counted, asks
// with a smaller min.
func wrapsAfter(line, next string, min int) bool {
	t := strings.TrimLeft(next, " \t")
	if strings.TrimSpace(line) == "" || t == "" {
		return false
	}
	word := len(t)
	if i := strings.IndexAny(t, " \t"); i >= 0 {
		word = i
	}
	return len(line)+1+word > min
}
