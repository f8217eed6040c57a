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
	parts := bytes.Split(bytes.TrimRight(b, "\r\n"), esc)
	if len(parts[len(parts)-1]) == 0 {
		parts = parts[:len(parts)-1] // the last line's own "\n"
	} else if !stampedParts(parts[1:]) {
		st.physical(b) // a "\n" inside a message, not line ends
		return
	}
	for _, p := range parts {
		st.physical(p)
	}
}

// escapedRecord reports whether a line is a JSON record (journalctl -o
// json's, dmesg --json's), whose strings escape their own line ends.
func escapedRecord(b []byte) bool {
	c := cleanBytes(b)
	return len(c) > 0 && (c[0] == '{' || c[0] == '"')
}

// stampedParts reports whether every part starts with a time stamp or a
// log prefix of its own: lines, not a message that holds a "\n".
func stampedParts(parts [][]byte) bool {
	for _, p := range parts {
		if !stampedBytes(cleanBytes(p)) {
			return false
		}
	}
	return true
}
