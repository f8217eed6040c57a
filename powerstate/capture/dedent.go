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
// indentation.
func dedent(s string, marker int, prefix string) string {
	if prefix == "" {
		return s
	}
	quote := strings.TrimRight(prefix, " \t")
	inBlock := func(line string) bool {
		return strings.HasPrefix(line, prefix) || strings.TrimSpace(line) == "" ||
			quote != "" && strings.TrimRight(line, " \t") == quote
	}
	// Find the block: walk back from the marker, then forward.
	type span struct{ start, end int } // byte offsets of a line, without terminator
	var spans []span
	l := newLineReader(s)
	for {
		line, _, ok := l.Next()
		if !ok {
			break
		}
		spans = append(spans, span{l.Start(), l.Start() + len(line)})
	}
	if marker < 1 || marker > len(spans) {
		return s
	}
	first, last := marker-1, marker-1
	for first > 0 && inBlock(s[spans[first-1].start:spans[first-1].end]) {
		first--
	}
	for last+1 < len(spans) && inBlock(s[spans[last+1].start:spans[last+1].end]) {
		last++
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
