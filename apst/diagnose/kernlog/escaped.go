package kernlog

import "bytes"

// escapedLines hands physical one line of the log, or, for a line whose
// line ends a program wrote as the two characters "\n" (a JSON string's
// or a script's repr of a log, copied: "[  100.1] nvme nvme0: ...\n[
// 100.2] nvme nvme0: ...\n"), each of the lines it holds, under its
// number. A journal JSON record, whose MESSAGE may hold an escaped line
// end of its own, is handed whole.
func (st *state) escapedLines(b []byte) {
	esc := []byte(`\n`)
	if !bytes.Contains(b, esc) || escapedRecord(b) {
		st.physical(b)
		return
	}
	b = bytes.TrimRight(b, "\r\n")
	if !bytes.HasSuffix(b, esc) && !stampedParts(b[bytes.Index(b, esc)+2:], esc) {
		st.physical(b) // a "\n" inside a message, not line ends
		return
	}
	for len(b) > 0 {
		line, rest, _ := bytes.Cut(b, esc)
		st.physical(line)
		b = rest
	}
}

// escapedRecord reports whether a line is a JSON record (journalctl -o
// json's, dmesg --json's) or starts a quoted string (a CSV row), whose
// strings escape their own line ends.
func escapedRecord(b []byte) bool {
	c := cleanBytes(b)
	return len(c) > 0 && (c[0] == '{' || c[0] == '"')
}

// stampedParts reports whether every part of b between the escaped line
// ends esc starts with a time stamp or a log prefix of its own: lines, not
// a message that holds a "\n".
func stampedParts(b, esc []byte) bool {
	for {
		p, rest, more := bytes.Cut(b, esc)
		if !stampedBytes(cleanBytes(p)) {
			return false
		}
		if !more {
			return true
		}
		b = rest
	}
}
