package kernlog

import "bytes"

// prettyRecord is a record of journalctl -o json-pretty being read: one
// JSON object over lines, a field a line, as systemd's pretty printer
// writes it (a tab or eight blanks, then "KEY" : value):
//
//	{
//		"__REALTIME_TIMESTAMP" : "1601471260802301",
//		"_TRANSPORT" : "kernel",
//		"MESSAGE" : "nvme nvme0: controller is down; will reset: ...",
//		"_SOURCE_MONOTONIC_TIMESTAMP" : "1805611354"
//	}
//
// The fields come in any order (the kernel's transport may follow its
// message), so the record is read whole and then as the one-line record
// of -o json is.
type prettyRecord struct {
	// pending is set by a line holding "{" alone, at line start: a record
	// starts if the next line is a journal field.
	pending bool
	start   int
	on      bool
	buf     []byte
	// msg is the line of the record's MESSAGE field, the line its event
	// is quoted from; lines counts the record's lines.
	msg, lines int
	// quote is the MESSAGE field as it appears (over the lines a mail
	// client wrapped it to, joined), inMsg set while it may continue;
	// quotes keeps it by line for the event read from the joined record
	// (Event.Raw), until that line is read.
	quote  []byte
	inMsg  bool
	quotes map[int]string
}

// maxPrettyLines bounds a record: a journal record has some thirty
// fields; more is no record of journalctl's, and what was held is let go.
const maxPrettyLines = 512

// journalPretty takes line n of the log for a json-pretty record. It
// returns ok false for a line that is not part of one (read it as any
// other); ok with rec nil for a line it kept; and, at the record's closing
// brace, the record joined into one line (rec), with the number of its
// MESSAGE line (or its first). Lines inside a record are joined with a
// blank: a mail client that wrapped a long MESSAGE broke it at one.
func (st *state) journalPretty(b []byte, n int) (rec []byte, line int, ok bool) {
	p := &st.pretty
	c := bytes.TrimSpace(cleanBytes(b))
	switch {
	case p.on:
		if len(c) == 1 && c[0] == '}' || len(c) == 2 && c[0] == '}' && c[1] == ',' {
			p.on = false
			rec = append(bytes.TrimSuffix(p.buf, []byte(",")), '}')
			line = p.msg
			if line == 0 {
				return rec, p.start, true
			}
			if p.quotes == nil || len(p.quotes) > 8 {
				p.quotes = map[int]string{} // quotes of records never read as events
			}
			p.quotes[line] = string(p.quote)
			return rec, line, true
		}
		if p.lines++; p.lines > maxPrettyLines || len(p.buf)+len(c) > MaxLineLength {
			p.on = false
			return nil, 0, false
		}
		p.message(c, n)
		p.buf = append(append(p.buf, ' '), c...)
		return nil, 0, true
	case p.pending:
		p.pending = false
		if !prettyField(c) {
			return nil, 0, false
		}
		st.flush()
		p.on, p.lines, p.msg, p.inMsg = true, 2, 0, false
		p.message(c, n)
		p.buf = append(append(p.buf[:0], "{ "...), c...)
		return nil, 0, true
	case len(c) == 1 && c[0] == '{':
		p.pending, p.start = true, n
		return nil, 0, true
	}
	return nil, 0, false
}

// message keeps line n of a record, c, when it is the MESSAGE field or
// the rest of it that a mail client wrapped.
func (p *prettyRecord) message(c []byte, n int) {
	switch {
	case bytes.HasPrefix(c, []byte(`"MESSAGE" : `)):
		p.msg, p.inMsg = n, true
		p.quote = append(p.quote[:0], c...)
	case p.inMsg && !prettyField(c):
		p.quote = append(append(p.quote, ' '), c...)
	default:
		p.inMsg = false
	}
}

// prettyField reports whether c is a field as json-pretty writes it:
// "KEY" : (and its value, unless a mail client wrapped it to the next
// line) with a journal field's name (capitals, digits and underscores,
// systemd.journal-fields(7)) and the blanks around the colon that the
// one-line -o json and dmesg --json ("pri": 6) do not have.
func prettyField(c []byte) bool {
	if len(c) < 6 || c[0] != '"' {
		return false
	}
	end := bytes.IndexByte(c[1:], '"') + 1
	if after := c[end+1:]; end < 2 || !bytes.HasPrefix(after, []byte(" : ")) && !bytes.Equal(after, []byte(" :")) {
		return false // ("KEY" : at the end: a mail client wrapped the value)
	}
	return fieldName(c[1:end])
}
