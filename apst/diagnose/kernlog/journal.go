package kernlog

import (
	"cmp"
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// journalFields are the fields of a journalctl -o json record Read uses
// (systemd.journal-fields(7)). Each is kept raw: a field the journal holds
// several times is an array, and a MESSAGE that is not valid UTF-8 is an
// array of bytes.
type journalFields struct {
	Message    json.RawMessage `json:"MESSAGE"`
	Monotonic  json.RawMessage `json:"__MONOTONIC_TIMESTAMP"`
	SourceMono json.RawMessage `json:"_SOURCE_MONOTONIC_TIMESTAMP"`
	Realtime   json.RawMessage `json:"__REALTIME_TIMESTAMP"`
	Transport  json.RawMessage `json:"_TRANSPORT"`
	Identifier json.RawMessage `json:"SYSLOG_IDENTIFIER"`
	Comm       json.RawMessage `json:"_COMM"`
	BootID     json.RawMessage `json:"_BOOT_ID"`
	Hostname   json.RawMessage `json:"_HOSTNAME"`
}

// journalRecord reads one line of journalctl -o json (or json-seq without
// its record separator), as recordSplit reads its fields, or a log
// shipper's record (shipperRecord).
func journalRecord(s string) split {
	var f journalFields
	if json.Unmarshal([]byte(s), &f) != nil {
		return split{}
	}
	if !f.journalOwn() {
		return shipperRecord([]byte(s), &f, false)
	}
	return recordSplit(jsonText(f.Message), &[nFields]string{jsonText(f.Transport), jsonText(f.Identifier), jsonText(f.Comm),
		jsonText(f.SourceMono), jsonText(f.Monotonic), jsonText(f.Realtime), jsonText(f.BootID), jsonText(f.Hostname)}, true)
}

// recordSplit reads a journal record: its MESSAGE and the fields f Read
// uses. Only the kernel's records are messages: those of _TRANSPORT
// "kernel" or SYSLOG_IDENTIFIER "kernel"; another program's record keeps
// its MESSAGE as relayed (Log.Relayed). A record that names no program is
// the kernel's unless strict (-o json's; -o export's and -o verbose's are
// read as -o cat's lines are). The time since boot is the kernel's own
// (_SOURCE_MONOTONIC_TIMESTAMP) when the record has it, else the
// journal's; the wall-clock time is __REALTIME_TIMESTAMP; the host is
// _HOSTNAME (a journal gathered from several machines by
// systemd-journal-remote holds theirs).
func recordSplit(msg string, f *[nFields]string, strict bool) split {
	sp := split{bootID: f[fBootID], json: true}
	if validHost(f[fHostname]) {
		sp.host = f[fHostname]
	}
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if f[fTransport] != "kernel" && f[fIdentifier] != "kernel" {
		// Another program's record, which may repeat a kernel message;
		// one that names no program is nobody's to repeat.
		if sp.program = cmp.Or(f[fIdentifier], f[fComm], f[fTransport]); sp.program != "" || strict {
			sp.relayed = msg
			return sp
		}
	}
	sp.msg, sp.kernel = strings.TrimRight(msg, " \r"), true
	if us, err := strconv.ParseInt(cmp.Or(f[fSourceMono], f[fMono]), 10, 64); err == nil && us >= 0 && us <= int64(maxUptime/time.Microsecond) {
		sp.ts.Mono, sp.ts.HasMono = time.Duration(us)*time.Microsecond, true
	}
	if us, err := strconv.ParseInt(f[fRealtime], 10, 64); err == nil && us > 0 && us < 1<<53 {
		sp.ts.Wall, sp.ts.HasWall = time.UnixMicro(us).UTC(), true
	}
	return sp
}

// jsonText is a journal field as text: a string, the first of an array of
// strings, or an array of bytes; "" for anything else.
func jsonText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	case '[':
		var nums []int
		if json.Unmarshal(raw, &nums) == nil {
			b := make([]byte, 0, len(nums))
			for _, n := range nums {
				if n < 0 || n > 255 {
					return ""
				}
				b = append(b, byte(n))
			}
			return strings.ToValidUTF8(string(b), "\uFFFD")
		}
		var strs []string
		if json.Unmarshal(raw, &strs) == nil && len(strs) > 0 {
			return strs[0]
		}
	}
	return ""
}
