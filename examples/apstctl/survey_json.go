package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/survey"
	"github.com/nvmeapst/nvmeapst/apst/survey/shard"
	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// The survey's JSON report is one document,
//
//	{"configs":[...],"kernel_quirks":B,"drives":[ROW,...],"summary":{...},"unreadable":[...]}
//
// written as the drives come (one row a line), so that memory does not grow
// with the report; with --format ndjson it is one JSON object a line:
// {"configs":[...],"kernel_quirks":B} first, then {"drive":ROW} and
// {"unreadable":{...}} in the walk's order, and {"summary":{...}} last.
// The report is a survey shard (apst/survey's interchange format): each
// row is a shard.Row, per configuration only the drive's outcome (the
// tables, mode and params with --full), and the drive's bound sweep, so
// that --merge can rebuild the survey from the rows.

// surveyConfigNameJSON is a configuration of the survey.
type surveyConfigNameJSON struct {
	Name   string      `json:"name"`
	Params apst.Params `json:"params"`
}

func surveyConfigNames(configs []analysis.Config) []surveyConfigNameJSON {
	out := make([]surveyConfigNameJSON, len(configs))
	for i, c := range configs {
		out[i] = surveyConfigNameJSON{Name: c.Name, Params: c.Params}
	}
	return out
}

// surveyHeadJSON is what the report says before its drives: what --merge
// needs to know first.
type surveyHeadJSON struct {
	Configs      []surveyConfigNameJSON `json:"configs"`
	KernelQuirks bool                   `json:"kernel_quirks"`
}

// surveyJSON writes the JSON or NDJSON report.
type surveyJSON struct {
	w      *bufio.Writer
	full   bool
	ndjson bool
	n      int
	// row and rowEnc encode a row before it is written; id is the
	// survey's identity, from its rows and unreadable files.
	row    bytes.Buffer
	rowEnc *json.Encoder
	id     shard.ID
	// line is the hand-written row (shard.AppendRow), reused from
	// drive to drive; safe the row with its bidirectional and C1
	// controls escaped, as written and hashed.
	line, safe []byte
}

func newSurveyJSON(w *bufio.Writer, full, ndjson bool) *surveyJSON {
	j := &surveyJSON{w: w, full: full, ndjson: ndjson}
	j.rowEnc = json.NewEncoder(&j.row)
	return j
}

func (j *surveyJSON) begin(configs []analysis.Config, kernelQuirks bool) error {
	return j.head(surveyHeadJSON{Configs: surveyConfigNames(configs), KernelQuirks: kernelQuirks})
}

// head writes the report's first line.
func (j *surveyJSON) head(h surveyHeadJSON) error {
	b, err := json.Marshal(h)
	if err != nil {
		return err
	}
	if j.ndjson {
		j.w.Write(b)
		_, err = j.w.WriteString("\n")
		return err
	}
	// The head's keys, then the drives' array.
	j.w.Write(b[:len(b)-1])
	_, err = j.w.WriteString(",\"drives\":[\n")
	return err
}

func (j *surveyJSON) drive(row *survey.Row, src *surveySource) error {
	if !j.full && src.bundle == nil {
		// A capture's row, written by hand: no reflection, no row
		// structs, one buffer for every drive.
		j.line = shard.AppendRow(j.line[:0], row, src.format)
		return j.writeRow(j.line, true)
	}
	d := shard.NewRow(row, src.format, j.full)
	if src.bundle != nil {
		b, err := json.Marshal(src.bundle)
		if err != nil {
			return err
		}
		d.Bundle = b
	}
	return j.rawDrive(d)
}

// rawDrive writes one row: a shard.Row, or a row of a shard's report
// as it was read (json.RawMessage).
func (j *surveyJSON) rawDrive(v any) error {
	j.row.Reset()
	if err := j.rowEnc.Encode(v); err != nil {
		return err
	}
	b := j.row.Bytes() // with its newline
	return j.writeRow(b[:len(b)-1], false)
}

// writeRow writes a row's JSON b (without a newline); compact says that
// it is compact already (written by shard.AppendRow), as the shard's
// identity hashes it.
func (j *surveyJSON) writeRow(b []byte, compact bool) error {
	// The same value, which a terminal shows as it is (as every JSON
	// report of apstctl); hashed as written, as --merge reads it.
	j.safe = safeio.AppendJSONSafe(j.safe[:0], b)
	b = j.safe
	if compact {
		j.id.CompactRow(b)
	} else {
		j.id.Row(b)
	}
	if j.ndjson {
		j.w.WriteString(`{"drive":`)
		j.w.Write(b)
		_, err := j.w.WriteString("}\n")
		return err
	}
	if j.n > 0 {
		j.w.WriteByte(',')
	}
	j.n++
	j.w.Write(b)
	return j.w.WriteByte('\n')
}

func (j *surveyJSON) unreadable(u surveyUnreadable) error {
	j.id.Unreadable(u)
	if !j.ndjson {
		return nil // listed at the end
	}
	b, err := json.Marshal(struct {
		Unreadable surveyUnreadable `json:"unreadable"`
	}{u})
	if err != nil {
		return err
	}
	j.w.Write(safeio.AppendJSONSafe(nil, b))
	_, err = j.w.WriteString("\n")
	return err
}

// listSentinel stands for the i-th list of paths in a marshaled summary:
// a string no path holds (a NUL), encoded as "\u0000survey-list-I\u0000".
func listSentinel(i int) string { return "\x00survey-list-" + strconv.Itoa(i) + "\x00" }

// pathLists replaces each comparison's lists of paths (bars_none,
// bars_all) by a one-element list of its sentinel, and returns the lists
// in sentinel order.
func (s *surveySummaryJSON) pathLists() [][]string {
	var lists [][]string
	swap := func(l *[]string) {
		lists = append(lists, *l)
		*l = []string{listSentinel(len(lists) - 1)}
	}
	for i := range s.Comparisons {
		swap(&s.Comparisons[i].BarsNone)
		swap(&s.Comparisons[i].BarsAll)
	}
	return lists
}

// writeWithLists writes b, encoding/json's compact or indented output of a
// summary whose lists pathLists replaced, with each sentinel's array
// written as encoding/json would write its list: null, [], or its
// strings one at a time, in the array's own layout. Bidirectional and C1
// controls are escaped (safeio.AppendJSONSafe).
func writeWithLists(w *bufio.Writer, b []byte, lists [][]string) {
	b = safeio.AppendJSONSafe(nil, b)
	for i, list := range lists {
		tok := jsonString(listSentinel(i))
		// The sentinel's array: the first occurrence that is the only
		// element of an array (a string of the data could hold the
		// sentinel's text, never as an array of its own).
		at, open := -1, -1
		for from := 0; ; {
			k := bytes.Index(b[from:], tok)
			if k < 0 {
				w.Write(b) // cannot happen: pathLists put it there
				return
			}
			at = from + k
			open = bytes.LastIndexByte(b[:at], '[')
			if open >= 0 && len(bytes.TrimLeft(b[open+1:at], "\n ")) == 0 {
				break
			}
			from = at + len(tok)
		}
		close := at + len(tok) + bytes.IndexByte(b[at+len(tok):], ']')
		before, after := b[open+1:at], b[at+len(tok):close] // "" or a newline and indentation
		w.Write(b[:open])
		switch {
		case list == nil:
			w.WriteString("null")
		case len(list) == 0:
			w.WriteString("[]")
		default:
			w.WriteByte('[')
			for k, p := range list {
				if k > 0 {
					w.WriteByte(',')
				}
				w.Write(before)
				w.Write(safeio.AppendJSONSafe(nil, jsonString(p)))
			}
			w.Write(after)
			w.WriteByte(']')
		}
		b = b[close+1:]
	}
	w.Write(b)
}

func (j *surveyJSON) end(r *surveyRun) error {
	sum := newSurveySummaryJSON(r)
	if sum.Shards = r.shards.Shards(); r.shards.Len() == 0 { // not a merge
		sum.Shards = []string{j.id.Sum()}
	}
	// The lists of paths (a drive each) are written element by element,
	// not encoded into one buffer with the rest (bounded memory a drive).
	lists := sum.pathLists()
	if j.ndjson {
		b, err := json.Marshal(struct {
			Summary surveySummaryJSON `json:"summary"`
		}{sum})
		if err != nil {
			return err
		}
		writeWithLists(j.w, b, lists)
		_, err = j.w.WriteString("\n")
		return err
	}
	b, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		return err
	}
	j.w.WriteString("],\n\"summary\":")
	writeWithLists(j.w, b, lists)
	j.w.WriteString(",\n\"unreadable\":")
	// The list entry by entry, as json.MarshalIndent would write it, so
	// that no second copy of it is made.
	if len(r.unreadable.listed) == 0 {
		j.w.WriteString("[]")
	}
	for i, u := range r.unreadable.listed {
		if i == 0 {
			j.w.WriteString("[\n  ")
		} else {
			j.w.WriteString(",\n  ")
		}
		ub, err := json.MarshalIndent(u, "  ", "  ")
		if err != nil {
			return err
		}
		j.w.Write(safeio.AppendJSONSafe(nil, ub))
		if i == len(r.unreadable.listed)-1 {
			j.w.WriteString("\n]")
		}
	}
	_, err = j.w.WriteString("}\n")
	return err
}

// jsonString is s as encoding/json writes a string (HTML-safe).
func jsonString(s string) []byte {
	b, _ := json.Marshal(s) // a string always marshals
	return b
}
