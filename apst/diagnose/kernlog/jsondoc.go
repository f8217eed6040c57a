package kernlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
)

// A JSON document over lines is how the clouds' command-line tools print
// a log by default: aws logs filter-log-events ({"events": [{...}, ...]},
// each event's message, timestamp and logStreamName), gcloud logging
// read --format=json ([{...}, ...], each entry's textPayload or
// jsonPayload.message, timestamp and labels), az monitor log-analytics
// query ([{...}, ...], a row's columns) and aws logs get-query-results
// ({"results": [[{"field": "@timestamp", "value": ...}, ...], ...]}).
// Read reads such a document whole and reads each record in it (an
// element of an array that holds a message, or a row of field and value
// pairs) as the one-line record of a log shipper is, at the line the
// record starts on (a document printed on one line numbers its records
// one a line, as jq -c would print them). journalctl -o json-pretty and dmesg --json, whose
// records Read reads line by line, are not such documents.

// maxJSONDoc bounds a JSON document read whole; a longer one is read
// line by line.
const maxJSONDoc = 64 << 20

// maxJSONDepth bounds how deep in a document records are looked for.
const maxJSONDepth = 16

// jsonDocStart reports whether br starts with a JSON document over lines:
// an array of objects or arrays ("[{", "[["), or an object whose first
// line is not a whole JSON value (a JSON line), nor journalctl -o
// json-pretty's record or dmesg --json's.
func jsonDocStart(br *bufio.Reader) bool {
	head, _ := br.Peek(8 << 10)
	head = bytes.TrimPrefix(head, []byte("\ufeff"))
	head = bytes.TrimLeft(head, " \t\r\n")
	if len(head) < 2 {
		return false
	}
	switch head[0] {
	case '[':
		t := bytes.TrimLeft(head[1:], " \t\r\n")
		return len(t) > 0 && (t[0] == '{' || t[0] == '[')
	case '{':
		first, _, _ := bytes.Cut(head, []byte("\n"))
		if first = bytes.TrimSpace(first); json.Valid(first) {
			// A JSON line: a record, or a whole response printed on one
			// line ({"events": [...]}) that holds records.
			return !docRecordOf(first, 0, new([]docRecord)) && bytes.Contains(first, []byte("[{"))
		}
		return !journalNamed(head[:min(len(head), 2048)]) && !bytes.Contains(head[:min(len(head), 64)], []byte(`"dmesg"`))
	}
	return false
}

// jsonDocument reads buf as a JSON document, handing each record to
// st.line as a one-line record at the line it starts on; false, with
// nothing handed on, for a document that is no valid JSON or holds no
// record.
func (st *state) jsonDocument(buf []byte) bool {
	if !json.Valid(buf) {
		return false
	}
	var recs []docRecord
	walkJSON(buf, 0, 0, &recs)
	if len(recs) == 0 {
		return false
	}
	lines := make([]int, len(recs))
	line, at, shared := 1, 0, false
	for i, r := range recs {
		line += bytes.Count(buf[at:r.off], []byte("\n"))
		at = r.off
		lines[i] = line
		shared = shared || i > 0 && lines[i-1] == line
	}
	st.log.Lines = int64(bytes.Count(buf, []byte("\n")))
	if len(buf) > 0 && buf[len(buf)-1] != '\n' {
		st.log.Lines++
	}
	if shared {
		// Records on one line (a response printed on one line): each is
		// numbered as a line of its own, as jq -c '.events[]' prints
		// them, so that their order is their lines'.
		for i := range lines {
			lines[i] = i + 1
		}
		st.log.Lines = int64(len(recs))
	}
	for i, r := range recs {
		st.line(r.text, lines[i], lines[i])
	}
	return true
}

// docRecord is a record of a JSON document: its compact text and the
// offset it starts at.
type docRecord struct {
	text []byte
	off  int
}

// walkJSON collects the records of JSON value v, which starts at offset
// off of the document.
func walkJSON(v []byte, off, depth int, recs *[]docRecord) {
	if depth > maxJSONDepth || len(v) == 0 {
		return
	}
	switch v[0] {
	case '{':
		if docRecordOf(v, off, recs) {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(v))
		if _, err := dec.Token(); err != nil { // '{'
			return
		}
		for dec.More() {
			if _, err := dec.Token(); err != nil { // the key
				return
			}
			at := int(dec.InputOffset())
			var m json.RawMessage
			if dec.Decode(&m) != nil {
				return
			}
			walkJSON(m, off+valueAt(v, at), depth+1, recs)
		}
	case '[':
		dec := json.NewDecoder(bytes.NewReader(v))
		if _, err := dec.Token(); err != nil { // '['
			return
		}
		for dec.More() {
			at := int(dec.InputOffset())
			var m json.RawMessage
			if dec.Decode(&m) != nil {
				return
			}
			at = valueAt(v, at)
			if rec, ok := fieldValueRow(m); ok {
				*recs = append(*recs, docRecord{rec, off + at})
				continue
			}
			walkJSON(m, off+at, depth+1, recs)
		}
	}
}

// valueAt is the offset in v of the value that starts after offset at,
// past blanks and the ':' or ',' before it.
func valueAt(v []byte, at int) int {
	for at < len(v) && (v[at] == ' ' || v[at] == '\t' || v[at] == '\r' || v[at] == '\n' || v[at] == ':' || v[at] == ',') {
		at++
	}
	return at
}

// docRecordOf adds object v to recs when it is a record: a journal's or
// a log shipper's, with a message.
func docRecordOf(v []byte, off int, recs *[]docRecord) bool {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return false
	}
	sp := journalRecord(b.String())
	if sp.msg == "" && sp.relayed == "" {
		return false
	}
	*recs = append(*recs, docRecord{b.Bytes(), off})
	return true
}

// fieldValueRow reads a row of CloudWatch Logs Insights' results, an
// array of {"field": ..., "value": ...} pairs, as the object of those
// fields, compact; false for anything else.
func fieldValueRow(v []byte) ([]byte, bool) {
	if len(v) == 0 || v[0] != '[' {
		return nil, false
	}
	var pairs []struct {
		Field *string `json:"field"`
		Value *string `json:"value"`
	}
	if json.Unmarshal(v, &pairs) != nil || len(pairs) == 0 {
		return nil, false
	}
	row := make(map[string]string, len(pairs))
	for _, p := range pairs {
		if p.Field == nil || p.Value == nil {
			return nil, false
		}
		row[*p.Field] = *p.Value
	}
	b, err := json.Marshal(row)
	if err != nil || !docRecordOf(b, 0, new([]docRecord)) {
		return nil, false
	}
	return b, true
}

// readJSONDoc reads src whole when it starts with a JSON document over
// lines (jsonDocStart) and reads its records (jsonDocument): true then;
// else, or for a document too long or that is no JSON, the reader to
// read line by line, from src's start.
func (st *state) readJSONDoc(src io.Reader) (io.Reader, bool) {
	br := bufio.NewReaderSize(src, 8<<10)
	if !jsonDocStart(br) {
		return br, false
	}
	buf, err := io.ReadAll(io.LimitReader(br, maxJSONDoc+1))
	if err == nil && len(buf) <= maxJSONDoc && st.jsonDocument(buf) {
		return nil, true
	}
	return io.MultiReader(bytes.NewReader(buf), &errReader{err}, br), false
}

// errReader returns err (or io.EOF when nil) from every Read.
type errReader struct{ err error }

func (r *errReader) Read([]byte) (int, error) {
	if r.err == nil {
		return 0, io.EOF
	}
	return 0, r.err
}
