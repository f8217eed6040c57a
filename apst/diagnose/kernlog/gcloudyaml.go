package kernlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
)

// gcloud logging read prints Google Cloud Logging's entries as YAML by
// default: a "---" line before each entry, its fields a line each in
// the order of their names, a field of fields indented under its name,
// a long value wrapped over lines indented further:
//
//	---
//	insertId: 1x2y3z0000
//	jsonPayload:
//	  message: 'Dec  5 04:55:52 web-1 kernel: nvme nvme0: controller is down;
//	    will reset: CSTS=0xffffffff, PCI_STATUS=0x10'
//	labels:
//	  compute.googleapis.com/resource_name: web-1
//	logName: projects/acme/logs/syslog
//	receiveTimestamp: '2024-12-05T04:55:54.481516230Z'
//	timestamp: '2024-12-05T04:55:52.123Z'
//
// Read reads each entry's textPayload or jsonPayload.message, timestamp
// and resource_name label, as it reads the entry printed as JSON, at the
// line its message starts on.

// gcloudKeys are field names an entry's top level holds.
var gcloudKeys = [...]string{"insertId: ", "logName: ", "receiveTimestamp: ", "timestamp: ", "textPayload: ", "jsonPayload:", "severity: ", "resource:"}

// gcloudYAMLStart reports whether br starts with gcloud logging read's
// YAML: an entry's field (after a "---" line or not), and two more of an
// entry's fields at the start of later lines.
func gcloudYAMLStart(br *bufio.Reader) bool {
	head, _ := br.Peek(4 << 10)
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\ufeff")), " \t\r\n")
	if rest, ok := bytes.CutPrefix(head, []byte("---")); ok {
		head = bytes.TrimLeft(rest, "\r\n")
	}
	first, seen := false, 0
	for _, k := range gcloudKeys {
		first = first || bytes.HasPrefix(head, []byte(k))
		if bytes.Contains(head, []byte("\n"+k)) {
			seen++
		}
	}
	return first && seen >= 2
}

// gcloudYAML reads buf as gcloud logging read's YAML, handing each entry
// with a message to st.line as the JSON record it stands for; false,
// with nothing handed on, for one that holds none.
func (st *state) gcloudYAML(buf []byte) bool {
	lines := strings.Split(strings.ReplaceAll(string(buf), "\r\n", "\n"), "\n")
	var e gcloudEntry
	n := 0
	flush := func() {
		if rec, line, ok := e.record(); ok {
			st.line(rec, line, line)
			n++
		}
		e = gcloudEntry{}
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if l == "---" {
			flush()
			if st.docCancelled(n) {
				break
			}
			continue
		}
		indent := len(l) - len(strings.TrimLeft(l, " "))
		key, val, ok := strings.Cut(strings.TrimLeft(l, " "), ":")
		if !ok || strings.ContainsAny(key, " '\"") {
			continue
		}
		if indent == 0 {
			e.parent = key
		}
		val = strings.TrimPrefix(val, " ")
		keyLine := i + 1
		// A value wrapped over the lines after it, each indented beyond
		// its key (inside an open quote, whatever they look like).
		for i+1 < len(lines) && val != "" && lineIndent(lines[i+1]) > indent && (openQuote(val) || !yamlKeyLine(lines[i+1], indent)) {
			i++
			val += " " + strings.TrimSpace(lines[i])
		}
		field := key
		if indent > 0 {
			field = e.parent + "." + key
		}
		switch field {
		case "textPayload", "jsonPayload.message":
			e.msg, e.line = yamlScalar(val), keyLine
		case "timestamp":
			e.time = yamlScalar(val)
		case "labels.compute.googleapis.com/resource_name":
			e.host = yamlScalar(val)
		}
	}
	flush()
	if n > 0 {
		st.log.Lines = int64(len(lines))
		if len(buf) > 0 && buf[len(buf)-1] == '\n' {
			st.log.Lines--
		}
	}
	return n > 0
}

// lineIndent is the blanks a line starts with; -1 for a blank line.
func lineIndent(l string) int {
	t := strings.TrimLeft(l, " ")
	if t == "" {
		return -1
	}
	return len(l) - len(t)
}

// yamlKeyLine reports whether l is a field's line one level below a key
// indented by indent ("  message: ..." under "jsonPayload:").
func yamlKeyLine(l string, indent int) bool {
	t := strings.TrimLeft(l, " ")
	key, _, ok := strings.Cut(t, ":")
	return ok && len(l)-len(t) <= indent+2 && key != "" && !strings.ContainsAny(key, " '\"")
}

// openQuote reports whether v starts a quoted scalar that has not ended.
func openQuote(v string) bool {
	if v == "" || v[0] != '\'' && v[0] != '"' {
		return false
	}
	q := v[:1]
	return len(v) == 1 || !strings.HasSuffix(v, q) || q == `"` && strings.HasSuffix(v, `\"`)
}

// yamlScalar is a YAML scalar's text: a single-quoted one's (” a
// quote), a double-quoted one's (its escapes read as JSON's), a plain
// one's.
func yamlScalar(v string) string {
	v = strings.TrimSpace(v)
	switch {
	case len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'':
		return strings.ReplaceAll(v[1:len(v)-1], "''", "'")
	case len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"':
		var s string
		if json.Unmarshal([]byte(v), &s) == nil {
			return s
		}
		return v[1 : len(v)-1]
	}
	return v
}

// gcloudEntry is an entry of gcloud's YAML being read.
type gcloudEntry struct {
	parent          string // the top-level key the lines below belong to
	msg, time, host string
	line            int
}

// record is the entry as the JSON record gcloud --format=json prints for
// it, and the line its message starts on; false for an entry without a
// message.
func (e *gcloudEntry) record() ([]byte, int, bool) {
	if e.msg == "" {
		return nil, 0, false
	}
	quote := func(s string) json.RawMessage {
		b, _ := json.Marshal(s) // a string always marshals
		return b
	}
	r := shipperFields{"textPayload": quote(e.msg)}
	if e.time != "" {
		r["timestamp"] = quote(e.time)
	}
	if e.host != "" {
		r["labels"] = json.RawMessage(`{"compute.googleapis.com/resource_name":` + string(quote(e.host)) + `}`)
	}
	b, err := json.Marshal(r)
	return b, e.line, err == nil
}
