package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/survey"
	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// "apstctl survey --merge SHARD..." reads the JSON or NDJSON reports of
// surveys of shards of a fleet and reports the survey of the whole fleet.
// Each report's drive rows carry the drive's survey.Record (the vendor, per
// configuration the reach, the worst stall and the deepest state's power,
// whether the command changes, and the bound sweep), and a survey's summary
// and stall budget are functions of its records only, so the merged report
// is exactly the report of one survey of every shard's captures: the same
// summary and stall budget, the rows of the shards in the order given, the
// unreadable files of all of them.

// surveyMaxPowerUW is the largest deepest-state power a drive can have: MP
// 65535 in units of 0.01 W.
const surveyMaxPowerUW = 65535 * 10000

// microWatts converts a power in W, as the reports write it, back to µW,
// refusing what watts cannot have written.
func microWatts(w float64) (apst.MicroWatts, error) {
	uw := math.Round(w * 1e6)
	if !(uw >= 0 && uw <= surveyMaxPowerUW) || watts(uint64(uw)) != w {
		return 0, fmt.Errorf("power %v W is not a drive's maximum power", w)
	}
	return apst.MicroWatts(uw), nil
}

// statesOf converts a list of state indices to a set.
func statesOf(list []int, key string) (apst.States, error) {
	if list == nil {
		return 0, fmt.Errorf("no %s", key)
	}
	var s apst.States
	for _, i := range list {
		if i < 0 || i > 31 {
			return 0, fmt.Errorf("%s: state %d", key, i)
		}
		s |= 1 << i
	}
	return s, nil
}

// surveyMergeRowJSON is what --merge reads of a drive's row.
type surveyMergeRowJSON struct {
	Path               *string  `json:"path"`
	Vendor             *string  `json:"vendor"`
	QuirksInferredFrom string   `json:"quirks_inferred_from"`
	QuirksUncheckedPCI []string `json:"quirks_unchecked_pci"`
	Assumed            []string `json:"assumed"`
	VendorID           string   `json:"vendor_id"`
	Configs            []struct {
		MaxPS                 *int              `json:"max_ps"`
		DeepestState          *int              `json:"deepest_state"`
		WorstExitLatencyUS    uint64            `json:"worst_exit_latency_us"`
		DeepestStateMaxPowerW float64           `json:"deepest_state_max_power_w"`
		ReachableStates       []int             `json:"reachable_states"`
		Entries               []surveyEntryJSON `json:"entries"`
	} `json:"configs"`
	Changes []struct {
		Config       int   `json:"config"`
		Changed      bool  `json:"changed"`
		BarredStates []int `json:"barred_states"`
		GainedStates []int `json:"gained_states"`
	} `json:"changes"`
	BoundSweep []surveyStepJSON `json:"bound_sweep"`
	// Bundle is set on the row of a bundle's controller.
	Bundle json.RawMessage `json:"bundle"`
}

// record converts a row to the drive's record.
func (m *surveyMergeRowJSON) record() (survey.Record, error) {
	if m.Path == nil || m.Vendor == nil {
		return survey.Record{}, errors.New("no path or vendor")
	}
	if len(*m.Path) > surveyMergePathMax || len(*m.Vendor) > surveyMergeVendorMax {
		return survey.Record{Name: "(too long)"}, fmt.Errorf("a path of %d bytes or a vendor of %d: the limits are %d and %d bytes", len(*m.Path), len(*m.Vendor), surveyMergePathMax, surveyMergeVendorMax)
	}
	rec := survey.Record{Name: *m.Path, Vendor: *m.Vendor, Outcomes: make([]survey.Outcome, len(m.Configs))}
	if len(m.Configs) < 2 || len(m.Changes) != len(m.Configs)-1 {
		return rec, fmt.Errorf("%d configurations and %d changes", len(m.Configs), len(m.Changes))
	}
	if !vendorIDForm.MatchString(m.VendorID) {
		return rec, fmt.Errorf("vendor_id %s: want 0x and 4 hexadecimal digits", strconv.Quote(safeio.EscapeTerminal(m.VendorID)))
	}
	for i, c := range m.Configs {
		o := &rec.Outcomes[i]
		var err error
		if o.Reach, err = statesOf(c.ReachableStates, "reachable_states"); err != nil {
			return rec, fmt.Errorf("configuration %d: %w", i+1, err)
		}
		if err := checkConfigStates(c.MaxPS, c.DeepestState, c.ReachableStates, c.Entries); err != nil {
			return rec, fmt.Errorf("configuration %d: %w", i+1, err)
		}
		if o.DeepestMaxPower, err = microWatts(c.DeepestStateMaxPowerW); err != nil {
			return rec, fmt.Errorf("configuration %d: %w", i+1, err)
		}
		o.WorstExitLatency = apst.Microseconds(c.WorstExitLatencyUS)
		if i > 0 {
			if m.Changes[i-1].Config != i {
				return rec, fmt.Errorf("change %d is for configuration %d", i, m.Changes[i-1].Config)
			}
			if _, err := statesOf(append([]int{}, m.Changes[i-1].BarredStates...), "barred_states"); err != nil && m.Changes[i-1].BarredStates != nil {
				return rec, fmt.Errorf("change %d: %w", i, err)
			}
			if _, err := statesOf(append([]int{}, m.Changes[i-1].GainedStates...), "gained_states"); err != nil && m.Changes[i-1].GainedStates != nil {
				return rec, fmt.Errorf("change %d: %w", i, err)
			}
			o.Changed = m.Changes[i-1].Changed
		}
	}
	rec.Sweep = make([]survey.Step, len(m.BoundSweep))
	for i, st := range m.BoundSweep {
		s := &rec.Sweep[i]
		var err error
		if s.Reach, err = statesOf(st.ReachableStates, "reachable_states"); err != nil {
			return rec, fmt.Errorf("bound sweep step %d: %w", i, err)
		}
		if s.DeepestMaxPower, err = microWatts(st.DeepestStateMaxPowerW); err != nil {
			return rec, fmt.Errorf("bound sweep step %d: %w", i, err)
		}
		s.Min, s.WorstExitLatency, s.Same = apst.Microseconds(st.MinUS), apst.Microseconds(st.WorstExitLatencyUS), st.Same
	}
	return rec, nil
}

// vendorIDForm is how a row writes the PCI vendor ID.
var vendorIDForm = regexp.MustCompile(`^0x[0-9a-f]{4}$`)

// checkConfigStates refuses a configuration's state numbers that no survey
// writes: max_ps is a power state (0 to 31, -1 when none is used),
// deepest_state the deepest of reachable_states, and each entry of --full's
// table names a state within 0 to 31.
func checkConfigStates(maxPS, deepest *int, reach []int, entries []surveyEntryJSON) error {
	if maxPS == nil || *maxPS < -1 || *maxPS > 31 {
		return fmt.Errorf("max_ps %s: want a power state, 0 to 31, or -1", intOrMissing(maxPS))
	}
	want := 0
	for _, s := range reach {
		want = max(want, s)
	}
	if deepest == nil || *deepest != want {
		return fmt.Errorf("deepest_state %s: want the deepest of reachable_states (%d)", intOrMissing(deepest), want)
	}
	if len(entries) > 32 {
		return fmt.Errorf("entries: %d, want at most 32", len(entries))
	}
	for i, e := range entries {
		if e.State != i || e.TargetState > 31 {
			return fmt.Errorf("entries[%d]: state %d, target_state %d: want state %d and a target 0 to 31", i, e.State, e.TargetState, i)
		}
	}
	return nil
}

// intOrMissing writes *p, or "missing".
func intOrMissing(p *int) string {
	if p == nil {
		return "missing"
	}
	return strconv.Itoa(*p)
}

// surveyShardHeadJSON is what --merge reads of a report's head.
type surveyShardHeadJSON struct {
	Configs []struct {
		Name   string          `json:"name"`
		Params json.RawMessage `json:"params"`
	} `json:"configs"`
	KernelQuirks *bool `json:"kernel_quirks"`
}

// surveyShardSummaryJSON is what --merge reads of a report's summary.
type surveyShardSummaryJSON struct {
	Drives              int      `json:"drives"`
	UnreadableFiles     int      `json:"unreadable_files"`
	UnreadableNotListed int      `json:"unreadable_not_listed"`
	SkippedFiles        int      `json:"skipped_files"`
	Shards              []string `json:"shards"`
}

// merge reports the survey of the shards' reports.
func (r *surveyRun) merge(ctx context.Context, shards []string) error {
	for _, path := range shards {
		if err := context.Cause(ctx); err != nil {
			return err
		}
		f, _, err := safeio.Open(path)
		if err != nil {
			return inputErr(err)
		}
		err = r.mergeShard(ctx, path, bufio.NewReaderSize(f, 64<<10))
		f.Close()
		if err != nil {
			return err
		}
	}
	return r.out.end(r)
}

// mergeShard reads one shard's report.
func (r *surveyRun) mergeShard(ctx context.Context, path string, in io.Reader) error {
	fail := func(format string, args ...any) error {
		return inputErr(fmt.Errorf("--merge %s: %s", safeio.EscapeTerminal(path), fmt.Sprintf(format, args...)))
	}
	lim := &budgetReader{r: in}
	lim.reset()
	dec := json.NewDecoder(lim)
	// Each value the report holds is read within its own budget
	// (surveyMergeValueMax): next resets it before a token or value.
	token := func() (json.Token, error) { lim.reset(); return dec.Token() }
	decode := func(v any) error { lim.reset(); return dec.Decode(v) }
	id := newShardID()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fail("not a survey report (JSON or NDJSON): %v", tokenErr(t, err))
	}
	var head surveyShardHeadJSON
	rows, unreadable := 0, r.unreadable.len()
	var sum *surveyShardSummaryJSON
	if r.mergedRows == nil {
		r.mergedRows = map[[16]byte]string{}
	}
	dupOf, dupRow := "", 0 // the first drive an earlier argument holds too
	addUnreadable := func(u surveyUnreadable) error {
		id.unreadable(u)
		r.unreadable.add(u)
		return r.out.unreadable(u)
	}
	row := func(raw json.RawMessage) error {
		if r.survey == nil {
			return fail("a drive before the configurations: not a report of this apstctl")
		}
		var m surveyMergeRowJSON
		if err := json.Unmarshal(raw, &m); err != nil {
			return fail("drive %d: %v", rows+1, err)
		}
		canonical := id.row(raw)
		if dupOf == "" {
			k := rowKey(canonical)
			if prev, ok := r.mergedRows[k]; ok && prev != path {
				dupOf, dupRow = prev, rows+1
			} else if !ok {
				r.mergedRows[k] = path
			}
		}
		rec, err := m.record()
		if err == nil {
			err = r.survey.AddRecord(rec)
		}
		if err != nil {
			return fail("drive %d (%s): %v", rows+1, safeio.EscapeTerminal(rec.Name), err)
		}
		rows++
		r.countQuirkNotes(m.QuirksInferredFrom != "", len(m.QuirksUncheckedPCI) > 0)
		r.assumed.add(assumedOfNames(m.Assumed))
		if len(m.Bundle) > 0 && string(m.Bundle) != "null" {
			r.bundleDrives++
		}
		if j, ok := r.out.(*surveyJSON); ok {
			if err := j.rawDrive(raw); err != nil {
				return err
			}
		}
		r.drives++
		r.tick()
		if rows%1024 == 0 {
			return context.Cause(ctx)
		}
		return nil
	}
	// The head's keys, then either the document's other keys or, for
	// NDJSON, the end of the first object and one object a line.
	ndjson, document := false, false
	for {
		t, err := token()
		if err != nil {
			return fail("%v", err)
		}
		if t == json.Delim('}') {
			ndjson = !document
			break
		}
		key, _ := t.(string)
		switch key {
		case "configs":
			if err := decode(&head.Configs); err != nil {
				return fail("configs: %v", err)
			}
		case "kernel_quirks":
			if err := decode(&head.KernelQuirks); err != nil {
				return fail("kernel_quirks: %v", err)
			}
		case "drives":
			document = true
			if err := r.mergeHead(path, &head); err != nil {
				return err
			}
			if t, err := token(); err != nil || t != json.Delim('[') {
				return fail("drives: want a list: %v", tokenErr(t, err))
			}
			for dec.More() {
				var raw json.RawMessage
				if err := decode(&raw); err != nil {
					return fail("drive %d: %v", rows+1, err)
				}
				if err := row(raw); err != nil {
					return err
				}
			}
			if _, err := token(); err != nil {
				return fail("drives: %v", err)
			}
		case "summary":
			sum = &surveyShardSummaryJSON{}
			if err := decode(sum); err != nil {
				return fail("summary: %v", err)
			}
		case "unreadable":
			// The document lists them after its drives: an NDJSON report
			// made from it has them after the shard's drives. One at a
			// time: the list may be long.
			if t, err := token(); err != nil || t != json.Delim('[') {
				return fail("unreadable: want a list: %v", tokenErr(t, err))
			}
			for dec.More() {
				var u surveyUnreadable
				if err := decode(&u); err != nil {
					return fail("unreadable: %v", err)
				}
				if err := addUnreadable(u); err != nil {
					return err
				}
			}
			if _, err := token(); err != nil {
				return fail("unreadable: %v", err)
			}
		default:
			var skip json.RawMessage
			if err := decode(&skip); err != nil {
				return fail("%s: %v", key, err)
			}
		}
	}
	if ndjson {
		if err := r.mergeHead(path, &head); err != nil {
			return err
		}
		for dec.More() {
			var line struct {
				Drive      json.RawMessage         `json:"drive"`
				Unreadable *surveyUnreadable       `json:"unreadable"`
				Summary    *surveyShardSummaryJSON `json:"summary"`
			}
			if err := decode(&line); err != nil {
				return fail("%v", err)
			}
			switch {
			case line.Drive != nil:
				if err := row(line.Drive); err != nil {
					return err
				}
			case line.Unreadable != nil:
				if err := addUnreadable(*line.Unreadable); err != nil {
					return err
				}
			case line.Summary != nil:
				sum = line.Summary
			}
		}
	} else if dec.More() {
		return fail("more after the end of the report")
	}
	switch {
	case sum == nil:
		return fail("no summary: the report is incomplete")
	case sum.SkippedFiles < 0:
		return fail("summary: skipped_files %d: want 0 or more", sum.SkippedFiles)
	case sum.Drives != rows:
		return fail("%d drives, but its summary counts %d: the report is incomplete or was edited", rows, sum.Drives)
	case sum.UnreadableNotListed < 0 || sum.UnreadableFiles != r.unreadable.len()-unreadable+sum.UnreadableNotListed:
		return fail("%d unreadable files listed and %d not listed, but its summary counts %d", r.unreadable.len()-unreadable, sum.UnreadableNotListed, sum.UnreadableFiles)
	}
	r.unreadable.addUnlisted(sum.UnreadableNotListed)
	r.skipped += sum.SkippedFiles
	if err := r.addShards(path, sum.Shards, id.sum()); err != nil {
		return err
	}
	if dupOf != "" {
		// Not the same survey, but overlapping ones: a drive (the same
		// path and the same answers) both hold.
		return fail("drive %d is a drive %s holds too (the same path and answers): shards that overlap would count it twice; survey disjoint sets of files", dupRow, safeio.EscapeTerminal(dupOf))
	}
	return nil
}

// rowKey identifies a drive's row from its canonical form (shardID.row's:
// compacted, without what only --full writes).
func rowKey(canonical []byte) [16]byte {
	sum := sha256.Sum256(canonical)
	var k [16]byte
	copy(k[:], sum[:])
	return k
}

// addShards records the identities of the surveys a report holds (its
// summary's "shards"; a report without them holds the one survey whose
// identity is computed from its rows), refusing one that an earlier report
// holds: its drives would be counted twice.
func (r *surveyRun) addShards(path string, declared []string, computed string) error {
	if len(declared) == 0 {
		declared = []string{computed}
	}
	if r.shardFiles == nil {
		r.shardFiles = map[string]string{}
	}
	for _, s := range declared {
		if !validShardID(s) {
			return inputErr(fmt.Errorf("--merge %s: shard identity %s: want %q and 32 hexadecimal digits", safeio.EscapeTerminal(path), strconv.Quote(safeio.EscapeTerminal(s)), shardIDPrefix))
		}
		if prev, ok := r.shardFiles[s]; ok {
			if prev == path {
				return inputErr(fmt.Errorf("--merge %s: given twice: its drives would be counted twice", safeio.EscapeTerminal(path)))
			}
			return inputErr(fmt.Errorf("--merge %s and %s both hold the survey %s: its drives would be counted twice (a shard given twice, or a shard and a merged report that holds it)", safeio.EscapeTerminal(prev), safeio.EscapeTerminal(path), s))
		}
		r.shardFiles[s] = path
		r.shards = append(r.shards, s)
	}
	return nil
}

// tokenErr describes what was read instead of the token wanted.
func tokenErr(t json.Token, err error) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("found %v", t)
}

// mergeHead makes the survey from the first shard's configurations and
// checks that every other shard's are the same.
func (r *surveyRun) mergeHead(path string, head *surveyShardHeadJSON) error {
	fail := func(format string, args ...any) error {
		return inputErr(fmt.Errorf("--merge %s: %s", safeio.EscapeTerminal(path), fmt.Sprintf(format, args...)))
	}
	if len(head.Configs) < 2 || head.KernelQuirks == nil {
		return fail("no configurations at the start: not a survey report of this apstctl")
	}
	if len(head.Configs) > maxConfigs {
		return fail("%d configurations: want 2 to %d (a survey takes --with at most %d times)", len(head.Configs), maxConfigs, maxConfigs)
	}
	names := make([]string, len(head.Configs))
	for i, c := range head.Configs {
		names[i] = c.Name
	}
	var configs []analysis.Config
	if r.survey != nil {
		configs = r.survey.Configs()
		same := len(configs) == len(names) && r.survey.Options().KernelQuirks == *head.KernelQuirks
		for i := 0; same && i < len(configs); i++ {
			same = configs[i].Name == names[i]
		}
		if !same {
			return fail("surveyed with other configurations or kernel quirks than the first shard: %q, kernel quirks %v", names, *head.KernelQuirks)
		}
	} else {
		var err error
		if configs, err = surveyConfigs(names); err != nil {
			return fail("%v", err)
		}
	}
	// The configurations' parameters as this apstctl reads the names must
	// be the ones the shard was surveyed with.
	for i, c := range configs {
		want, err := json.Marshal(c.Params)
		if err != nil {
			return err
		}
		var got bytes.Buffer
		if err := json.Compact(&got, head.Configs[i].Params); err != nil || !bytes.Equal(got.Bytes(), want) {
			return fail("configuration %q: params %s, but this apstctl reads it as %s", names[i], head.Configs[i].Params, want)
		}
	}
	if r.survey != nil {
		return nil
	}
	var err error
	r.survey, err = survey.NewWithOptions(survey.Options{KernelQuirks: *head.KernelQuirks}, configs...)
	if err != nil {
		return fail("%v", err)
	}
	return r.out.begin(configs, *head.KernelQuirks)
}
