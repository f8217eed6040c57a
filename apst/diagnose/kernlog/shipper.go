package kernlog

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// shipperFields are the fields Read uses of a log shipper's JSON record,
// a JSON object a line that is no journal record (it has none of the
// journal's own fields), by their names:
//   - the message: "message" (Elasticsearch's and Filebeat's documents,
//     Vector's, Logstash's, CloudWatch Logs' and Papertrail's events),
//     "line" (Grafana Loki's logcli --output jsonl), "_raw" (a Splunk
//     export), "msg" (Fluent Bit's kmsg input), "log" (Fluent Bit's tail
//     input), "short_message" (GELF), "textPayload" or
//     "jsonPayload.message" (Google Cloud Logging), "@message"
//     (CloudWatch Logs Insights), "SyslogMessage" (Azure Monitor);
//   - its time: "@timestamp", "timestamp", "_time", "time", "date",
//     "generated_at" (Papertrail), "TimeGenerated" (Azure); Fluent Bit's
//     kmsg "sec" and "usec" since boot;
//   - its host: "host" (a string, or Elastic's object with "name"),
//     "hostname", "host.name", Loki's "labels", Google's
//     "compute.googleapis.com/resource_name" label, CloudWatch's
//     "logStreamName" or "@logStream" (an instance's by default), Azure's
//     "Computer";
//   - the program that logged it: Elastic's "process" object or
//     "process.name", rsyslog's "programname", Papertrail's "program",
//     Azure's "ProcessName", "appname", "ident".
//
// A Splunk export's "result" and an Elasticsearch dump's "_source" hold
// such a record. The message field "message" is journalFields.Message,
// whose name matches it too.
type shipperFields map[string]json.RawMessage

// journalOwn reports whether f holds a field only the journal writes:
// the record is journalctl's (or a relay that kept the journal's fields,
// as Vector's journald source does), read by recordSplit.
func (f *journalFields) journalOwn() bool {
	return len(f.Monotonic) > 0 || len(f.SourceMono) > 0 || len(f.Realtime) > 0 || len(f.Transport) > 0 ||
		len(f.Identifier) > 0 || len(f.Comm) > 0 || len(f.BootID) > 0 || len(f.Hostname) > 0
}

// shipperRecord reads a log shipper's record s (shipperFields), whose
// journal fields are f; nested says it is a Splunk "result" or an
// Elasticsearch "_source" already, which holds no other record. Its
// message, when it carries a log line's own time stamp and prefix (a
// syslog line, Splunk's _raw, Loki's line), is read as that line is;
// a bare message is the kernel's unless a program field names another
// program, as journalctl -o cat's lines are. The record's time, host and
// boot time fill what the message's own prefix does not give.
func shipperRecord(s []byte, f *journalFields, nested bool) split {
	var g shipperFields
	if json.Unmarshal(s, &g) != nil {
		return split{}
	}
	msg := firstText(f.Message, g["line"], g["_raw"], g["msg"], g["log"], g["short_message"], g["textPayload"], g.inner("jsonPayload", "message"),
		g["@message"], g["SyslogMessage"])
	if msg == "" {
		for _, inner := range []json.RawMessage{g["result"], g["_source"]} {
			if len(inner) > 0 && inner[0] == '{' && !nested {
				var f2 journalFields
				if json.Unmarshal(inner, &f2) == nil {
					return shipperRecord(inner, &f2, true)
				}
			}
		}
		return split{json: true}
	}
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	msg = strings.TrimRight(msg, " \r")
	return recordFields{
		msg:  msg,
		prog: firstText(g["process.name"], g["programname"], g["program"], g["appname"], g["ident"], g.inner("process", "name"), g["ProcessName"]),
		host: g.host(),
		time: jsonNumber(firstRaw(g["@timestamp"], g["timestamp"], g["_time"], g["time"], g["date"], g["generated_at"], g["received_at"], g["TimeGenerated"])),
		sec:  jsonNumber(g["sec"]),
		usec: jsonNumber(g["usec"]),
	}.split()
}

// recordFields are what a log shipper's record or a log store's exported
// row gives of one line: its message (one line), the program that logged
// it, its host, its time as text, and Fluent Bit's seconds and
// microseconds since boot.
type recordFields struct {
	msg, prog, host, time, sec, usec string
}

// split reads the fields as splitLine reads a line. A message that
// carries a log line's own time stamp and prefix (a syslog line, Splunk's
// _raw, Loki's line) is read as that line; a bare message is the
// kernel's unless prog names another program, whose message is relayed.
// The record's time, host and time since boot fill what the message's own
// prefix does not give.
func (r recordFields) split() split {
	var sp split
	if t := strings.TrimLeft(r.msg, " \t"); t != "" && t[0] != '{' {
		sp = splitLine(r.msg)
	}
	sp.json = true
	bare := sp.kernel && sp.ts.IsZero() && sp.afterTime == "" && sp.host == ""
	if bare && r.prog != "" && r.prog != "kernel" {
		// Another program's message: it may repeat the kernel's.
		return split{json: true, program: r.prog, relayed: r.msg}
	}
	if !sp.ts.HasWall || sp.ts.NoYear || sp.ts.NoDate || sp.ts.NoZone {
		if ts, ok := recordWall(r.time); ok {
			ts.Mono, ts.HasMono = sp.ts.Mono, sp.ts.HasMono
			sp.ts = ts
		}
	}
	if !sp.ts.HasMono {
		sec, err1 := strconv.ParseInt(r.sec, 10, 64)
		usec, err2 := strconv.ParseInt(r.usec, 10, 64)
		if err1 == nil && err2 == nil && sec >= 0 && usec >= 0 && usec < 1e6 && sec <= int64(maxUptime/time.Second) {
			sp.ts.Mono, sp.ts.HasMono = time.Duration(sec)*time.Second+time.Duration(usec)*time.Microsecond, true
		}
	}
	if validHost(r.host) {
		sp.host = r.host
	}
	return sp
}

// firstText is the first of fields that holds text (jsonText).
func firstText(fields ...json.RawMessage) string {
	for _, f := range fields {
		if s := jsonText(f); s != "" {
			return s
		}
	}
	return ""
}

// firstRaw is the first of fields the record has.
func firstRaw(fields ...json.RawMessage) json.RawMessage {
	for _, f := range fields {
		if len(f) > 0 && string(f) != "null" {
			return f
		}
	}
	return nil
}

// jsonNumber is a JSON number, or a string that holds one, as text.
func jsonNumber(raw json.RawMessage) string {
	if len(raw) > 0 && raw[0] == '"' {
		return jsonText(raw)
	}
	return string(raw)
}

// recordWall reads a record's time: an RFC 3339 time with its offset
// (Elastic's, Splunk's, Loki's, Vector's) or without (CloudWatch Logs
// Insights': NoZone), Kibana's "Dec 5, 2024 @ 04:55:59.123" (in the
// exporting browser's zone, which it does not say), the US English
// locale's "12/5/2024, 4:55:59.123 AM" (Azure's portal), or the seconds
// since 1970 (GELF's, Fluent Bit's "date": ten
// digits, a fraction after them), or their thousandths, millionths or
// billionths (13, 16 or 19 digits).
func recordWall(s string) (Timestamp, bool) {
	if len(s) >= 19 && s[4] == '/' && s[7] == '/' && s[10] == ' ' {
		// Year first with slashes, as Synology's Log Center writes it
		// ("2025/03/14 03:22:41"): no order of its own.
		s = s[:4] + "-" + s[5:7] + "-" + s[8:]
	}
	if t, n, zoned, ok := parseISO(s); ok && n == len(s) {
		return Timestamp{Wall: t.UTC(), HasWall: true, NoZone: !zoned}, true
	}
	if ts, ok := kibanaTime(s); ok {
		return ts, true
	}
	if ts, ok := usTime(s); ok {
		return ts, true
	}
	whole, frac, _ := strings.Cut(s, ".")
	if !allDigits(whole) || !allDigits(frac) || len(frac) > 9 {
		return Timestamp{}, false
	}
	v, err := strconv.ParseInt(whole, 10, 64)
	var t time.Time
	switch {
	case err != nil:
		return Timestamp{}, false
	case len(whole) == 10:
		ns, _ := strconv.ParseInt((frac + "000000000")[:9], 10, 64)
		t = time.Unix(v, ns)
	case frac != "":
		return Timestamp{}, false
	case len(whole) == 13:
		t = time.UnixMilli(v)
	case len(whole) == 16:
		t = time.UnixMicro(v)
	case len(whole) == 19:
		t = time.Unix(0, v)
	default:
		return Timestamp{}, false
	}
	return Timestamp{Wall: t.UTC(), HasWall: true}, true
}

// usTime reads a time as the US English locale writes it, "12/5/2024,
// 4:55:59.123 AM" (Azure's portal exports so): the month first, the
// comma and the AM or PM telling the locale. The zone is not said
// (NoZone).
func usTime(s string) (Timestamp, bool) {
	date, clock, ok := strings.Cut(s, ", ")
	mo, rest, ok2 := strings.Cut(date, "/")
	day, year, ok3 := strings.Cut(rest, "/")
	hms, half, ok4 := strings.Cut(clock, " ")
	if !ok || !ok2 || !ok3 || !ok4 || half != "AM" && half != "PM" || len(year) != 4 || !allDigits(year) ||
		len(mo) < 1 || len(mo) > 2 || !allDigits(mo) || len(day) < 1 || len(day) > 2 || !allDigits(day) {
		return Timestamp{}, false
	}
	if len(hms) > 1 && hms[1] == ':' {
		hms = "0" + hms
	}
	d, n, ok := parseClock(hms)
	m, dd, h := atoi(mo), atoi(day), d/time.Hour
	if !ok || n != len(hms) || m < 1 || m > 12 || dd < 1 || dd > 31 || h < 1 || h > 12 {
		return Timestamp{}, false
	}
	switch {
	case half == "AM" && h == 12:
		d -= 12 * time.Hour
	case half == "PM" && h < 12:
		d += 12 * time.Hour
	}
	t := time.Date(atoi(year), time.Month(m), dd, 0, 0, 0, 0, time.UTC).Add(d)
	return Timestamp{Wall: t, HasWall: true, NoZone: true}, true
}

// kibanaPrefix reads Kibana's time (kibanaTime) at the start of s, before
// a blank, and returns it and its length.
func kibanaPrefix(s string) (Timestamp, int, bool) {
	at := strings.Index(s[:min(len(s), 16)], " @ ")
	if at < 0 {
		return Timestamp{}, 0, false
	}
	_, n, ok := parseClock(s[at+3:])
	if n = at + 3 + n; !ok || n >= len(s) || s[n] != ' ' && s[n] != '\t' {
		return Timestamp{}, 0, false
	}
	ts, ok := kibanaTime(s[:n])
	return ts, n, ok
}

// kibanaTime reads Kibana's default date format, "MMM D, YYYY @
// HH:mm:ss.SSS" ("Dec 5, 2024 @ 04:55:59.123"), as its Discover table
// and CSV reports write it: a clock reading without its zone (NoZone).
func kibanaTime(s string) (Timestamp, bool) {
	date, clock, ok := strings.Cut(s, " @ ")
	mon, rest, ok2 := strings.Cut(date, " ")
	day, year, ok3 := strings.Cut(rest, ", ")
	m := monthOf(mon)
	if !ok || !ok2 || !ok3 || m == 0 || len(day) < 1 || len(day) > 2 || !allDigits(day) || len(year) != 4 || !allDigits(year) {
		return Timestamp{}, false
	}
	d, n, ok := parseClock(clock)
	if !ok || n != len(clock) || atoi(day) < 1 || atoi(day) > 31 {
		return Timestamp{}, false
	}
	t := time.Date(atoi(year), m, atoi(day), 0, 0, 0, 0, time.UTC).Add(d)
	return Timestamp{Wall: t, HasWall: true, NoZone: true}, true
}

// host is the host a record names: "host" (a string, or an object with
// "name" or "hostname"), "hostname", "host.name", or a host label of
// Loki's ("host", "hostname", "nodename", "instance"); "" for none, or for
// a value no syslog line could hold (validHost).
func (g shipperFields) host() string {
	h := firstText(g["host"], g["hostname"], g["host.name"], g.inner("host", "name"), g.inner("host", "hostname"),
		g.inner("labels", "compute.googleapis.com/resource_name"), g["logStreamName"], g["@logStream"], g["Computer"])
	for _, k := range []string{"host", "hostname", "nodename", "instance"} {
		if h == "" {
			h = jsonText(g.inner("labels", k))
		}
	}
	if validHost(h) {
		return h
	}
	return ""
}

// inner is field k of the object that is field obj of g; nil when g has
// no such object or the object no such field.
func (g shipperFields) inner(obj, k string) json.RawMessage {
	v := g[obj]
	if len(v) == 0 || v[0] != '{' {
		return nil
	}
	var o shipperFields
	if json.Unmarshal(v, &o) != nil {
		return nil
	}
	return o[k]
}

// afterStream reads a message that a log stream's name precedes, as aws
// logs tail prints CloudWatch's events ("2024-12-05T04:55:52.123000+00:00
// i-0a1b2c3d4e5f60718 nvme nvme0: ..."; the message may be a whole syslog
// line, and --format short drops the name): the message after the name,
// its event, and the name (a host's or an instance's: a digit, '-' or
// '.' in it), when the message reads as an NVMe or PCIe event.
func afterStream(msg string) (split, Event, string, bool) {
	if syslogLike([]byte(msg[:min(len(msg), 32)])) {
		// A syslog line's time after the stream's (aws logs tail
		// --format short).
		if sp := splitLine(msg); sp.kernel && !sp.ts.IsZero() {
			if e, ok := nvmeEvent(sp.msg); ok {
				return sp, e, "", true
			}
		}
	}
	w, rest, ok := strings.Cut(msg, " ")
	if !ok || !validHost(w) || !strings.ContainsAny(w, "0123456789-.") || strings.HasSuffix(w, ":") ||
		!strings.HasPrefix(rest, "nvme") && !strings.HasPrefix(rest, "pci") && !syslogLike([]byte(rest[:min(len(rest), 32)])) {
		return split{}, Event{}, "", false
	}
	sp := splitLine(rest)
	if !sp.kernel {
		return split{}, Event{}, "", false
	}
	e, ok := nvmeEvent(sp.msg)
	return sp, e, w, ok
}

// nvmeEvent reads msg as an event of the nvme or PCIe port driver, the
// PCI core or an NVMe disk; false for any other.
func nvmeEvent(msg string) (Event, bool) {
	e, ok := parseKernelMessage(msg)
	return e, ok && (e.Driver == "nvme" || e.Driver == "pcieport" || e.Driver == "pci" || strings.HasPrefix(e.Disk, "nvme"))
}
