package kernlog

import "strings"

// csvTable is a log store's CSV export being read: Kibana's CSV report of
// a Discover search (a header of the columns chosen, "@timestamp",
// message,"host.name"; the time as Kibana shows it) or Splunk's export of
// a search's events ("_time","host","source","_raw"). Its header names
// the columns; each row after it is one line of the log, read for its
// message, time, host and program as a shipper's JSON record is
// (recordFields). Columns are numbered from 0; -1 is a column the export
// does not have.
type csvTable struct {
	on                    bool
	msg, time, host, prog int
	cols                  int
	utc                   bool // the time's header says it is UTC ("TimeGenerated [UTC]")
}

// csvMaxCols bounds the columns of a header: an export has a handful.
const csvMaxCols = 64

// csvColumns are the names of the columns a csvTable reads, as Kibana
// (the fields' names), Splunk, log shippers, CloudWatch Logs Insights
// (@timestamp, @message, @logStream: the instance's stream), Azure
// Monitor's Syslog table (TimeGenerated, Computer, ProcessName,
// SyslogMessage) and Synology's Log Center (Level, Log, Time, User,
// Event, after a title line) write them.
var csvColumns = [...]struct {
	name string
	col  int // 0 message, 1 time, 2 host, 3 program
}{
	{"message", 0}, {"_raw", 0}, {"line", 0}, {"msg", 0}, {"@message", 0}, {"SyslogMessage", 0},
	{"Event", 0}, {"log", 0}, {"short_message", 0},
	{"@timestamp", 1}, {"timestamp", 1}, {"_time", 1}, {"time", 1}, {"date", 1}, {"TimeGenerated", 1},
	{"host", 2}, {"host.name", 2}, {"hostname", 2}, {"host.hostname", 2}, {"Computer", 2}, {"@logStream", 2},
	{"process.name", 3}, {"programname", 3}, {"appname", 3}, {"ident", 3}, {"log.syslog.appname", 3}, {"ProcessName", 3},
}

// csvHeader reads the first line of a log as a CSV export's header: two
// columns or more, each a field's name (letters, digits, '@', '.', '_',
// '-'), quoted or not, one of them a message's (csvColumns).
func csvHeader(line string) (csvTable, bool) {
	t := csvTable{msg: -1, time: -1, host: -1, prog: -1}
	if strings.IndexByte(line, ',') < 0 {
		return t, false
	}
	fields := csvFields(strings.TrimRight(line, "\r"), csvMaxCols+1)
	if len(fields) < 2 || len(fields) > csvMaxCols {
		return t, false
	}
	utc := make([]bool, len(fields))
	for i, f := range fields {
		// Kibana escapes a cell that starts as a spreadsheet formula
		// would ("@", "=", "+", "-") with a quote before it, its header's
		// too when so set ("'@timestamp"); Azure's portal names a time
		// column's zone after it ("TimeGenerated [UTC]").
		fields[i], utc[i] = strings.CutSuffix(strings.TrimPrefix(f, "'"), " [UTC]")
		if !headerName(fields[i]) {
			return t, false
		}
	}
	// Each role's column is the one whose name comes first in csvColumns
	// (Synology's "Event" holds the message, its "Log" the log's name).
	for _, c := range csvColumns {
		p := [...]*int{&t.msg, &t.time, &t.host, &t.prog}[c.col]
		for i, f := range fields {
			if *p < 0 && strings.EqualFold(f, c.name) {
				*p = i
				t.utc = t.utc || c.col == 1 && utc[i]
			}
		}
	}
	t.cols, t.on = len(fields), t.msg >= 0
	return t, t.on
}

// headerName reports whether a header's cell is a field's name.
func headerName(f string) bool {
	if f == "" || len(f) > 64 {
		return false
	}
	for i := 0; i < len(f); i++ {
		c := f[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '@' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// split reads one row of the export.
func (t *csvTable) split(line string) split {
	f := csvFields(strings.TrimRight(line, "\r"), t.cols)
	cell := func(i int) string {
		if i < 0 || i >= len(f) {
			return ""
		}
		return f[i]
	}
	msg := cell(t.msg)
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	sp := recordFields{msg: strings.TrimRight(msg, " \r"), prog: cell(t.prog), host: cell(t.host), time: cell(t.time)}.split()
	if t.utc && sp.ts.HasWall && sp.ts.NoZone && !sp.ts.NoDate {
		sp.ts.NoZone = false // its header said the zone
	}
	return sp
}

// csvFields splits a CSV row (RFC 4180) into at most max cells (a row of
// more has the rest dropped): a cell in double quotes may hold commas and
// doubled quotes.
func csvFields(row string, max int) []string {
	var out []string
	for len(out) < max-1 {
		cell, rest, more := csvCell(row)
		out = append(out, cell)
		if !more {
			return out
		}
		row = rest
	}
	cell, _, _ := csvCell(row)
	return append(out, cell)
}

// csvCell reads the first cell of row and returns it, the row after its
// comma, and whether a comma followed it.
func csvCell(row string) (cell, rest string, more bool) {
	if row == "" || row[0] != '"' {
		cell, rest, more = strings.Cut(row, ",")
		return cell, rest, more
	}
	var b strings.Builder
	i := 1
	for i < len(row) {
		j := strings.IndexByte(row[i:], '"')
		if j < 0 {
			// An unclosed quote: the rest of the row is the cell.
			b.WriteString(row[i:])
			return b.String(), "", false
		}
		b.WriteString(row[i : i+j])
		i += j + 1
		if i < len(row) && row[i] == '"' {
			b.WriteByte('"') // a doubled quote
			i++
			continue
		}
		break
	}
	// After the closing quote: up to the next comma (anything there is
	// not CSV's, and is dropped).
	_, rest, more = strings.Cut(row[i:], ",")
	return b.String(), rest, more
}
