package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/survey"
)

// The survey's JSON report is one document,
//
//	{"configs":[...],"kernel_quirks":B,"drives":[ROW,...],"summary":{...},"unreadable":[...]}
//
// written as the drives come (one row a line), so that memory does not grow
// with the report; with --format ndjson it is one JSON object a line:
// {"configs":[...],"kernel_quirks":B} first, then {"drive":ROW} and
// {"unreadable":{...}} in the walk's order, and {"summary":{...}} last.
// Each row is encoding/json of a surveyDriveJSON: per configuration only the
// drive's outcome (the tables, mode and params with --full), and the
// drive's bound sweep, so that --merge can rebuild the survey from the rows.

// surveyEntryJSON is one table entry, as plan prints it.
type surveyEntryJSON struct {
	State       int    `json:"state"`
	Value       string `json:"value"`
	TargetState uint8  `json:"target_state"`
	IdleTimeMS  uint32 `json:"idle_time_ms"`
}

// surveyConfigJSON is a drive's outcome under one configuration: compare's
// keys, those of the whole result only with --full.
type surveyConfigJSON struct {
	Name                  string            `json:"name,omitempty"`
	Sent                  bool              `json:"sent"`
	Enabled               bool              `json:"enabled"`
	MaxPS                 int               `json:"max_ps"`
	MaxRoundTripUS        uint64            `json:"max_round_trip_us"`
	Entries               []surveyEntryJSON `json:"entries,omitempty"`
	DeepestState          int               `json:"deepest_state"`
	WorstExitLatencyUS    uint64            `json:"worst_exit_latency_us"`
	DeepestStateMaxPowerW float64           `json:"deepest_state_max_power_w"`
	ReachableStates       []int             `json:"reachable_states"`
	Outcome               string            `json:"outcome"`
	Mode                  string            `json:"mode,omitempty"`
	Params                *apst.Params      `json:"params,omitempty"`
}

type surveyChangeJSON struct {
	Config           int     `json:"config"`
	Changed          bool    `json:"changed"`
	StallReductionUS int64   `json:"stall_reduction_us"`
	IdlePowerDeltaMW float64 `json:"idle_power_delta_mw"`
	Bars             string  `json:"bars"`
	BarredStates     []int   `json:"barred_states"`
	GainedStates     []int   `json:"gained_states"`
}

// surveyStepJSON is one step of a drive's bound sweep (survey.Step).
type surveyStepJSON struct {
	MinUS                 uint64  `json:"min_us"`
	WorstExitLatencyUS    uint64  `json:"worst_exit_latency_us"`
	DeepestStateMaxPowerW float64 `json:"deepest_state_max_power_w"`
	ReachableStates       []int   `json:"reachable_states"`
	Same                  bool    `json:"same"`
}

type surveyDriveJSON struct {
	Path     string `json:"path"`
	Model    string `json:"model"`
	Firmware string `json:"firmware"`
	Vendor   string `json:"vendor"`
	VendorID string `json:"vendor_id"`
	Format   string `json:"format"`
	Quirks   string `json:"quirks"`
	// What the quirks rest on, when the kernel's lookup had to infer or
	// could not check a PCI ID (no capture records it).
	QuirksInferredFrom string   `json:"quirks_inferred_from,omitempty"`
	QuirksUncheckedPCI []string `json:"quirks_unchecked_pci,omitempty"`
	// Assumed names the other kinds of assumption the drive's answers
	// made (survey_assumptions.go); the summary counts them.
	Assumed          []string           `json:"assumed,omitempty"`
	Changed          bool               `json:"changed"`
	Configs          []surveyConfigJSON `json:"configs"`
	IdlePowerDeltaMW float64            `json:"idle_power_delta_mw"`
	Changes          []surveyChangeJSON `json:"changes"`
	BoundSweep       []surveyStepJSON   `json:"bound_sweep"`
	// Bundle describes the machine of a bundle's controller (format
	// "bundle"); absent for a capture.
	Bundle *surveyBundleJSON `json:"bundle,omitempty"`
}

// watts converts µW to W as the JSON reports write powers; microWatts is
// its exact inverse on every power a drive can have.
func watts(uw uint64) float64 { return float64(uw) / 1e6 }

func newSurveyDriveJSON(row *survey.Row, format string, full bool) surveyDriveJSON {
	d := surveyDriveJSON{
		Path: row.Name, Model: row.Model, Firmware: row.Firmware, Vendor: row.Vendor,
		VendorID: fmt.Sprintf("0x%04x", row.VendorID), Format: format,
		Quirks: row.Quirks.String(), Changed: row.Changed,
		Configs:    make([]surveyConfigJSON, len(row.Results)),
		Changes:    make([]surveyChangeJSON, len(row.Changes)),
		BoundSweep: make([]surveyStepJSON, len(row.Sweep)),
	}
	d.QuirksInferredFrom = row.QuirksInferredFrom
	d.Assumed = rowAssumed(row)
	for _, id := range row.QuirksUncheckedPCI {
		d.QuirksUncheckedPCI = append(d.QuirksUncheckedPCI, id.String())
	}
	for i := range row.Results {
		r := &row.Results[i]
		c := surveyConfigJSON{
			Sent: r.Plan.Sent, Enabled: r.Plan.Enabled, MaxPS: r.Plan.MaxPS,
			MaxRoundTripUS: uint64(r.Plan.MaxRoundTrip),
			DeepestState:   int(r.Reach.Deepest), WorstExitLatencyUS: uint64(r.Reach.WorstExitLatency),
			DeepestStateMaxPowerW: watts(r.DeepestMaxPower.MicroWatts()),
			ReachableStates:       stateList(r.Reach.States),
			Outcome:               r.Plan.Outcome.String(),
		}
		if full {
			c.Name, c.Mode, c.Params = r.Config.Name, r.Plan.Mode.String(), &r.Config.Params
			c.Entries = make([]surveyEntryJSON, len(r.Plan.Table))
			for s, e := range r.Plan.Table {
				c.Entries[s] = surveyEntryJSON{State: s, Value: fmt.Sprintf("0x%016x", uint64(e)),
					TargetState: e.TargetState(), IdleTimeMS: uint32(e.IdleTime())}
			}
		}
		d.Configs[i] = c
	}
	for i, ch := range row.Changes {
		d.Changes[i] = surveyChangeJSON{
			Config: ch.Config, Changed: ch.Changed, StallReductionUS: ch.StallReduction,
			IdlePowerDeltaMW: ch.PowerDelta.MilliWatts(), Bars: ch.Bars.String(),
			BarredStates: stateList(ch.Barred), GainedStates: stateList(ch.Gained),
		}
	}
	d.IdlePowerDeltaMW = d.Changes[0].IdlePowerDeltaMW
	for i, st := range row.Sweep {
		d.BoundSweep[i] = surveyStepJSON{
			MinUS: uint64(st.Min), WorstExitLatencyUS: uint64(st.WorstExitLatency),
			DeepestStateMaxPowerW: watts(uint64(st.DeepestMaxPower)),
			ReachableStates:       stateList(st.Reach), Same: st.Same,
		}
	}
	return d
}

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
	enc    *json.Encoder
	full   bool
	ndjson bool
	n      int
	// row and rowEnc encode a row before it is written; id is the
	// survey's identity, from its rows and unreadable files.
	row    bytes.Buffer
	rowEnc *json.Encoder
	id     *shardID
	// line is the hand-written row (appendDriveRow), reused from drive
	// to drive.
	line []byte
}

func newSurveyJSON(w *bufio.Writer, full, ndjson bool) *surveyJSON {
	j := &surveyJSON{w: w, enc: json.NewEncoder(w), full: full, ndjson: ndjson, id: newShardID()}
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
		j.line = appendDriveRow(j.line[:0], row, src.format)
		return j.writeRow(j.line, true)
	}
	d := newSurveyDriveJSON(row, src.format, j.full)
	d.Bundle = src.bundle
	return j.rawDrive(d)
}

// rawDrive writes one row: a surveyDriveJSON, or a row of a shard's report
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
// it is compact already (written by appendDriveRow), as the shard's
// identity hashes it.
func (j *surveyJSON) writeRow(b []byte, compact bool) error {
	if compact {
		j.id.compactRow(b)
	} else {
		j.id.row(b)
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
	j.id.unreadable(u)
	if !j.ndjson {
		return nil // listed at the end
	}
	return j.enc.Encode(struct {
		Unreadable surveyUnreadable `json:"unreadable"`
	}{u})
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
// strings one at a time, in the array's own layout.
func writeWithLists(w *bufio.Writer, b []byte, lists [][]string) {
	var elem []byte
	for i, list := range lists {
		tok := appendJSONString(nil, listSentinel(i))
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
				elem = appendJSONString(elem[:0], p)
				w.Write(elem)
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
	if sum.Shards = r.shards; r.shardFiles == nil { // not a merge
		sum.Shards = []string{j.id.sum()}
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
		j.w.Write(ub)
		if i == len(r.unreadable.listed)-1 {
			j.w.WriteString("\n]")
		}
	}
	_, err = j.w.WriteString("}\n")
	return err
}
