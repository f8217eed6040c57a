package kernlog

import (
	"bufio"
	"bytes"
	"context"
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
			_, rec := docRecordOf(first)
			return !rec && bytes.Contains(first, []byte("[{"))
		}
		return !journalNamed(head[:min(len(head), 2048)]) && !bytes.Contains(head[:min(len(head), 64)], []byte(`"dmesg"`))
	}
	return false
}

// jsonDocument reads buf as a JSON document, handing each record to
// st.line as a one-line record at the line it starts on, as it is found;
// false, with nothing handed on, for a document that is no valid JSON or
// holds no record.
func (st *state) jsonDocument(buf []byte) bool {
	if !json.Valid(buf) {
		return false
	}
	lines := bytes.Count(buf, []byte("\n"))
	if len(buf) > 0 && buf[len(buf)-1] != '\n' {
		lines++
	}
	// A document on one line (a response printed so) numbers its records
	// one a line, as jq -c '.events[]' prints them, so that their order
	// is their lines'.
	oneLine := lines <= 1
	n, line, at := 0, 1, 0
	walkJSON(buf, 0, 0, func(rec []byte, off int) {
		if st.docCancelled(n) {
			return
		}
		n++
		if oneLine {
			line = n
		} else {
			line += bytes.Count(buf[at:off], []byte("\n"))
			at = off
		}
		st.line(rec, line, line)
	})
	if n == 0 {
		return false
	}
	st.log.Lines = int64(max(lines, line))
	return true
}

// walkJSON hands emit the records of JSON value v, which starts at
// offset off of the document, in their order. v is valid JSON (the document was checked whole),
// so its members and elements are found by skipping values (skipJSON),
// without a decoder's machinery.
func walkJSON(v []byte, off, depth int, emit func(rec []byte, off int)) {
	if depth > maxJSONDepth || len(v) == 0 || v[0] != '{' && v[0] != '[' {
		return
	}
	if v[0] == '{' {
		if rec, ok := docRecordOf(v); ok {
			emit(rec, off)
			return
		}
	}
	for i := 1; i < len(v); {
		i = skipBlank(v, i)
		if i >= len(v) || v[i] == '}' || v[i] == ']' {
			return
		}
		if v[0] == '{' {
			i = skipBlank(v, skipJSON(v, i)) + 1 // the key and its ':'
			i = skipBlank(v, i)
		}
		end := skipJSON(v, i)
		m := v[i:end]
		if rec, ok := fieldValueRow(m); v[0] == '[' && ok {
			emit(rec, off+i)
		} else {
			walkJSON(m, off+i, depth+1, emit)
		}
		i = skipBlank(v, end)
		if i < len(v) && v[i] == ',' {
			i++
		}
	}
}

// skipBlank is the offset of the first byte at or after i that is no
// JSON blank.
func skipBlank(v []byte, i int) int {
	for i < len(v) && (v[i] == ' ' || v[i] == '\t' || v[i] == '\r' || v[i] == '\n') {
		i++
	}
	return i
}

// skipJSON is the offset just after the valid JSON value that starts at
// offset i of v.
func skipJSON(v []byte, i int) int {
	depth := 0
	for ; i < len(v); i++ {
		switch c := v[i]; c {
		case '"':
			for i++; i < len(v) && v[i] != '"'; i++ {
				if v[i] == '\\' {
					i++
				}
			}
			if depth == 0 {
				return i + 1
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth <= 0 {
				return i + 1
			}
		case ',', ' ', '\t', '\r', '\n':
			if depth == 0 {
				return i // the end of a number or a literal
			}
		}
	}
	return i
}

// docRecordOf returns object v compact when it is a record: a journal's
// or a log shipper's, with a message.
func docRecordOf(v []byte) ([]byte, bool) {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return nil, false
	}
	sp := journalRecord(b.String())
	if sp.msg == "" && sp.relayed == "" {
		return nil, false
	}
	return b.Bytes(), true
}

// fieldValueRow reads a row of CloudWatch Logs Insights' results, an
// array of {"field": ..., "value": ...} pairs, as the object of those
// fields, compact; false for anything else.
func fieldValueRow(v []byte) ([]byte, bool) {
	if len(v) == 0 || v[0] != '[' {
		return nil, false
	}
	row := shipperFields{}
	for i := skipBlank(v, 1); i < len(v) && v[i] == '{'; {
		end := skipJSON(v, i)
		var pair shipperFields
		if json.Unmarshal(v[i:end], &pair) != nil || len(pair) != 2 || len(pair["field"]) == 0 || len(pair["value"]) == 0 {
			return nil, false
		}
		f := jsonText(pair["field"])
		if f == "" {
			return nil, false
		}
		row[f] = pair["value"]
		if i = skipBlank(v, end); i < len(v) && v[i] == ',' {
			i = skipBlank(v, i+1)
		}
	}
	if len(row) == 0 {
		return nil, false
	}
	b, err := json.Marshal(row)
	if err != nil {
		return nil, false
	}
	return docRecordOf(b)
}

// readJSONDoc reads src whole when it starts with a JSON document over
// lines (jsonDocStart), or with gcloud logging read's YAML
// (gcloudYAMLStart), and reads its records (jsonDocument, gcloudYAML):
// true then;
// else, or for a document too long or that is no JSON, the reader to
// read line by line, from src's start.
//
// ctx is looked at every docCheckEvery records: once it is done, the
// records left are not read and Read returns its error (st.ctxErr).
func (st *state) readJSONDoc(ctx context.Context, src io.Reader) (io.Reader, bool) {
	br := bufio.NewReaderSize(src, 8<<10)
	yaml := gcloudYAMLStart(br)
	if !yaml && !jsonDocStart(br) {
		return br, false
	}
	buf, err := io.ReadAll(io.LimitReader(br, maxJSONDoc+1))
	st.ctx = ctx
	defer func() { st.ctx = nil }()
	if err == nil && len(buf) <= maxJSONDoc && (yaml && st.gcloudYAML(buf) || !yaml && st.jsonDocument(buf)) {
		return nil, true
	}
	return io.MultiReader(bytes.NewReader(buf), &errReader{err}, br), false
}

// docCheckEvery is how many records of a document are read between two
// looks at Read's ctx.
const docCheckEvery = 1024

// docCancelled reports whether reading a document's records stops: Read's
// ctx was found done (looked at before every docCheckEvery-th record, n
// being the records read so far), its error then kept in st.ctxErr.
func (st *state) docCancelled(n int) bool {
	if st.ctxErr != nil {
		return true
	}
	if n%docCheckEvery != 0 || st.ctx == nil {
		return false
	}
	st.ctxErr = st.ctx.Err()
	return st.ctxErr != nil
}

// errReader returns err (or io.EOF when nil) from every Read.
type errReader struct{ err error }

func (r *errReader) Read([]byte) (int, error) {
	if r.err == nil {
		return 0, io.EOF
	}
	return 0, r.err
}
