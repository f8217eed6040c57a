package kernlog

import (
	"bytes"
	"strconv"
)

// The fields of a journal record Read uses (systemd.journal-fields(7)),
// by their index in a record's values.
const (
	fTransport = iota
	fIdentifier
	fComm
	fSourceMono
	fMono
	fRealtime
	fBootID
	fHostname
	nFields
)

var fieldNames = [nFields]string{"_TRANSPORT", "SYSLOG_IDENTIFIER", "_COMM", "_SOURCE_MONOTONIC_TIMESTAMP", "__MONOTONIC_TIMESTAMP", "__REALTIME_TIMESTAMP", "_BOOT_ID", "_HOSTNAME"}

// fieldRecord is a record of journalctl -o export or -o verbose being
// read: a field a line ("KEY=value"; indented in -o verbose), after
// "__CURSOR=..." (export) or a line of the record's time and cursor
// ("Sat 2026-12-05 04:55:59.123456 UTC [s=...;b=...;m=...;t=...;x=...]",
// verbose). Its fields come in any order (journald appends its own after
// a program's MESSAGE), so its MESSAGE line, as the joiner gives it, is
// held until the record ends (a blank line, the next record, a line that
// is no field) and then read as a -o json record is.
type fieldRecord struct {
	on, emit bool
	f        [nFields]string
	msg      string
	from, to int
}

// recordLine notes line c of the log, without its quoting and
// indentation, for the journal record it may be part of.
func (st *state) recordLine(c []byte) {
	r := &st.rec
	key, val, field := bytes.Cut(c, []byte("="))
	field = field && fieldName(key)
	switch {
	case field && string(key) == "__CURSOR":
		st.endRecord()
		r.on = true
	case !field && len(c) > 0 && c[len(c)-1] == ']' && bytes.Contains(c, []byte(" [s=")):
		st.endRecord()
		r.on = true
		cursor := c[bytes.LastIndexByte(c, '[')+1 : len(c)-1]
		for len(cursor) > 0 {
			var kv []byte
			kv, cursor, _ = bytes.Cut(cursor, []byte(";"))
			if len(kv) < 2 || kv[1] != '=' {
				continue
			}
			i := fBootID
			switch kv[0] {
			case 'm':
				i = fMono
			case 't':
				i = fRealtime
			case 'b':
				r.f[i] = string(kv[2:])
				continue
			default:
				continue
			}
			if u, err := strconv.ParseUint(string(kv[2:]), 16, 63); err == nil {
				r.f[i] = strconv.FormatUint(u, 10) // hex in the cursor
			}
		}
	case !field:
		st.endRecord()
	case r.on:
		for i, n := range fieldNames {
			if string(key) == n {
				r.f[i] = string(val)
			}
		}
	}
}

// endRecord reads the MESSAGE of the record that ends, with its fields.
func (st *state) endRecord() {
	r := &st.rec
	if !r.on {
		return
	}
	st.flush() // a MESSAGE the joiner holds
	if r.msg != "" {
		r.emit = true
		st.order.off = true // a record's fields are not kept to read again
		st.logical(r.msg, r.from, r.to, Timestamp{})
	}
	*r = fieldRecord{}
}

// fieldName reports whether b is a journal field's name: capitals,
// digits and underscores.
func fieldName(b []byte) bool {
	for _, r := range b {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return len(b) > 0
}
