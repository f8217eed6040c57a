package kernlog

import "bytes"

// logStart reports whether a cleaned physical line starts as a line of a
// kernel log does, which tells a log from other text (state.stamped):
// stampedBytes, except that a line of JSON counts only as a journal record
// (journalctl -o json: it has a MESSAGE field or a journal time; an
// nvme-cli or smartctl report in JSON, a tool's own output, does not), and
// a start of digits and a comma only as a whole /dev/kmsg prefix
// ("6,1234,5678901,-;"), not blkparse's device ("259,0    0        1
// 0.000000000  4242  Q   R 0 + 8 [fio]").
func logStart(c []byte) bool {
	switch {
	case !stampedBytes(c):
		return false
	case c[0] == '{':
		return journalLike(c)
	case kmsgLike(c):
		_, ok := kmsgRecord(string(c[:min(len(c), 96)]))
		return ok || syslogLike(c) || unixLike(c) || datedLike(c)
	}
	return true
}

// journalFieldNames are the fields of which one tells a journal record;
// journalctl -o json writes __CURSOR and __REALTIME_TIMESTAMP first.
var journalFieldNames = [...][]byte{[]byte(`"MESSAGE"`), []byte(`"__REALTIME_TIMESTAMP"`), []byte(`"__CURSOR"`), []byte(`"_BOOT_ID"`), []byte(`"__MONOTONIC_TIMESTAMP"`)}

// journalLike reports whether a line of JSON names a journal field.
func journalLike(c []byte) bool {
	c = c[:min(len(c), MaxLineLength)]
	for _, f := range journalFieldNames {
		if bytes.Contains(c, f) {
			return true
		}
	}
	return false
}
