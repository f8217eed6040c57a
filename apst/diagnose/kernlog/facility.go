package kernlog

import (
	"slices"
	"strings"
	"time"
)

// syslogFacilities and syslogLevels name a message's facility and level
// as syslog daemons write them before the program ("kern.err",
// "daemon.info"): BusyBox's syslogd does by default, OpenWrt's logread,
// syslog-ng and rsyslog with a template that asks for them.
var (
	syslogFacilities = []string{"kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news", "uucp", "cron", "authpriv", "ftp",
		"local0", "local1", "local2", "local3", "local4", "local5", "local6", "local7"}
	syslogLevels = []string{"emerg", "alert", "crit", "err", "error", "warn", "warning", "notice", "info", "debug"}
)

// facilityLevel reports whether word is a facility and level
// ("kern.err").
func facilityLevel(word string) bool {
	f, l, ok := strings.Cut(word, ".")
	if !ok || len(f) < 3 || len(l) < 3 {
		return false
	}
	return slices.Contains(syslogFacilities, f) && slices.Contains(syslogLevels, l)
}

// skipFacility removes a facility and level and the blank after it from
// the start of s ("kern.err kernel: ..." is "kernel: ..."), or a level
// column ("  !WARNING | kernel: ..." is "kernel: ...").
func skipFacility(s string) string {
	word, rest, ok := strings.Cut(s, " ")
	if ok && facilityLevel(word) {
		return strings.TrimLeft(rest, " ")
	}
	if ok && word == "" {
		// A level column after the host, padded to its width and set off
		// by a bar, as a test harness's log collector writes it
		// (ScyllaDB's SCT: "host  !WARNING | kernel: nvme nvme0: ...").
		word, rest, ok = strings.Cut(strings.TrimLeft(s, " "), " ")
	}
	if ok && levelColumn(word) {
		if r, found := strings.CutPrefix(strings.TrimLeft(rest, " "), "| "); found {
			return strings.TrimLeft(r, " ")
		}
	}
	return s
}

// levelColumn reports whether word is a level in capitals after a "!"
// ("!WARNING", "!INFO", "!ERROR").
func levelColumn(word string) bool {
	l, ok := strings.CutPrefix(word, "!")
	return ok && len(l) >= 3 && len(l) <= 8 && slices.Contains(syslogLevels, strings.ToLower(l))
}

// logreadLine reads OpenWrt's logread: a ctime with its year, then the
// facility and level and the program, with no host:
//
//	Sat Dec  5 04:55:59 2026 kern.err kernel: [   12.345678] nvme ...
//
// It returns the time and what follows the year, or ok false.
func logreadLine(s string) (ts Timestamp, rest string, ok bool) {
	if len(s) < 25 {
		return ts, "", false
	}
	// "Mon Jan _2 15:04:05 2006": 24 bytes whatever the day's digits.
	t, err := time.Parse("Mon Jan _2 15:04:05 2006", s[:24])
	if err != nil || s[24] != ' ' {
		return ts, "", false
	}
	rest = strings.TrimLeft(s[25:], " ")
	if word, _, _ := strings.Cut(rest, " "); !facilityLevel(word) {
		return ts, "", false
	}
	ts.Wall, ts.HasWall, ts.NoZone = t, true, true
	return ts, rest, true
}
