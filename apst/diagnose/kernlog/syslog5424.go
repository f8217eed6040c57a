package kernlog

import "strings"

// syslog5424 reads a line in the syslog protocol's format (RFC 5424 §6:
// rsyslog's RSYSLOG_SyslogProtocol23Format, syslog-ng's and journald's
// forwarding to a remote collector), s without its "<PRI>" (stripLevel
// took it):
//
//	1 2026-12-05T04:55:59.123456+00:00 host kernel - - - nvme nvme0: ...
//
// VERSION, TIMESTAMP (or "-"), HOSTNAME, APP-NAME, PROCID, MSGID, then
// STRUCTURED-DATA ("-", or elements "[id key=\"value\" ...]") and the
// message. It gives the time and the message as fromProgram reads "host
// APP: message"; ok is false for anything else.
func syslog5424(s string) (ts Timestamp, rest string, ok bool) {
	s, ok = strings.CutPrefix(s, "1 ")
	if !ok {
		return ts, "", false
	}
	if t, n, zoned, iso := parseISO(s); iso && n < len(s) && s[n] == ' ' {
		ts.Wall, ts.HasWall, ts.NoZone = t, true, !zoned
		s = s[n+1:]
	} else if r, nilTime := strings.CutPrefix(s, "- "); nilTime {
		s = r
	} else {
		return ts, "", false
	}
	var f [4]string // HOSTNAME, APP-NAME, PROCID, MSGID
	for i := range f {
		var found bool
		if f[i], s, found = strings.Cut(s, " "); !found || f[i] == "" {
			return ts, "", false
		}
	}
	msg, ok := afterStructuredData(s)
	if !ok {
		return ts, "", false
	}
	return ts, f[0] + " " + f[1] + ": " + msg, true
}

// afterStructuredData returns what follows RFC 5424's STRUCTURED-DATA at
// the start of s: "-", or one or more "[...]" elements whose quoted
// values may hold "]" escaped as "\]".
func afterStructuredData(s string) (string, bool) {
	if r, ok := strings.CutPrefix(s, "-"); ok {
		return strings.TrimPrefix(r, " "), r == "" || r[0] == ' '
	}
	i := 0
	for i < len(s) && s[i] == '[' {
		quoted := false
		for i++; i < len(s); i++ {
			switch c := s[i]; {
			case c == '\\' && quoted:
				i++
			case c == '"':
				quoted = !quoted
			case c == ']' && !quoted:
				goto next
			}
		}
		return "", false
	next:
		i++
	}
	if i == 0 || i < len(s) && s[i] != ' ' {
		return "", false
	}
	return strings.TrimPrefix(s[i:], " "), true
}
