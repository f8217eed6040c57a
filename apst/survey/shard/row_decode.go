package shard

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/nvmeapst/nvmeapst/apst/survey"
	"regexp"
	"strconv"

	"github.com/nvmeapst/nvmeapst/apst"
)

// DecodedRow is what DecodeRow reads of a drive's row: its Record,
// and what a merged report counts of it.
//
// The zero DecodedRow is what DecodeRow returns for input that is not a
// row's JSON: the zero survey.Record (which AddRecord refuses) and nothing
// counted.
type DecodedRow struct {
	Record survey.Record
	// Assumed holds the kinds the row's "assumed" names.
	Assumed survey.Assumed
	// QuirksInferred and QuirksUnchecked say the row has a
	// quirks_inferred_from or a quirks_unchecked_pci.
	QuirksInferred, QuirksUnchecked bool
	// Bundle says the row describes a bundle's machine.
	Bundle bool
}

// DecodeRow reads a drive's row and checks it is one a survey writes. Such
// a row has a path and a vendor within PathMax and VendorMax bytes, two
// or more configurations each with its reachable states, max_ps, deepest
// state and power, the changes between them, and the bound sweep; every
// number within what a descriptor's fields can give (latencies of 32
// bits, powers of MP), and each change's stall reduction, power delta and
// barred and gained states, and the row's power delta, what the survey
// computes from the configurations' outcomes. Its error is a *RowError
// (Drive 0: the caller knows the row's place).
func DecodeRow(raw []byte) (DecodedRow, error) {
	out, jsonErr, err := decodeRow(raw)
	if jsonErr != nil {
		return DecodedRow{}, &RowError{Err: jsonErr}
	}
	if err != nil {
		return out, &RowError{Name: out.Record.Name, Err: err}
	}
	return out, nil
}

// decodeRow is DecodeRow: jsonErr when raw is not the JSON of a row,
// err when the row is not one a survey writes.
func decodeRow(raw []byte) (out DecodedRow, jsonErr, err error) {
	var m shardRowIn
	if err := json.Unmarshal(raw, &m); err != nil {
		return DecodedRow{}, err, nil
	}
	rec, err := m.record()
	out = DecodedRow{Record: rec, Assumed: survey.AssumedOfNames(m.Assumed),
		QuirksInferred: m.QuirksInferredFrom != "", QuirksUnchecked: len(m.QuirksUncheckedPCI) > 0,
		Bundle: len(m.Bundle) > 0 && string(m.Bundle) != "null"}
	return out, nil, err
}

// shardRowIn is what DecodeRow reads of a drive's row.
type shardRowIn struct {
	Path               *string         `json:"path"`
	Vendor             *string         `json:"vendor"`
	QuirksInferredFrom string          `json:"quirks_inferred_from"`
	QuirksUncheckedPCI []string        `json:"quirks_unchecked_pci"`
	Assumed            []string        `json:"assumed"`
	VendorID           string          `json:"vendor_id"`
	IdlePowerDeltaMW   json.RawMessage `json:"idle_power_delta_mw"`
	Configs            []struct {
		MaxPS                 *int            `json:"max_ps"`
		MaxRoundTripUS        json.RawMessage `json:"max_round_trip_us"`
		DeepestState          *int            `json:"deepest_state"`
		WorstExitLatencyUS    uint64          `json:"worst_exit_latency_us"`
		DeepestStateMaxPowerW float64         `json:"deepest_state_max_power_w"`
		ReachableStates       []int           `json:"reachable_states"`
		Entries               []Entry         `json:"entries"`
	} `json:"configs"`
	Changes []struct {
		Config           int             `json:"config"`
		Changed          bool            `json:"changed"`
		StallReductionUS json.RawMessage `json:"stall_reduction_us"`
		IdlePowerDeltaMW json.RawMessage `json:"idle_power_delta_mw"`
		BarredStates     []int           `json:"barred_states"`
		GainedStates     []int           `json:"gained_states"`
	} `json:"changes"`
	BoundSweep []Step          `json:"bound_sweep"`
	Bundle     json.RawMessage `json:"bundle"`
}

// record converts a row to the drive's record.
func (m *shardRowIn) record() (survey.Record, error) {
	if m.Path == nil || m.Vendor == nil {
		return survey.Record{}, errors.New("no path or vendor")
	}
	if len(*m.Path) > PathMax || len(*m.Vendor) > VendorMax {
		return survey.Record{Name: "(too long)"}, fmt.Errorf("a path of %d bytes or a vendor of %d: the limits are %d and %d bytes", len(*m.Path), len(*m.Vendor), PathMax, VendorMax)
	}
	rec := survey.Record{Name: *m.Path, Vendor: *m.Vendor, Outcomes: make([]survey.Outcome, len(m.Configs))}
	if len(m.Configs) < 2 || len(m.Changes) != len(m.Configs)-1 {
		return rec, fmt.Errorf("%d configurations and %d changes", len(m.Configs), len(m.Changes))
	}
	if !vendorIDForm.MatchString(m.VendorID) {
		return rec, &VendorIDError{VendorID: m.VendorID}
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
			ch := &m.Changes[i-1]
			if ch.Config != i {
				return rec, fmt.Errorf("change %d is for configuration %d", i, ch.Config)
			}
			if _, err := statesOf(ch.BarredStates, "barred_states"); err != nil && ch.BarredStates != nil {
				return rec, fmt.Errorf("change %d: %w", i, err)
			}
			if _, err := statesOf(ch.GainedStates, "gained_states"); err != nil && ch.GainedStates != nil {
				return rec, fmt.Errorf("change %d: %w", i, err)
			}
			o.Changed = ch.Changed
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
	return rec, m.checkValues(&rec)
}

// VendorIDError is the cause of a RowError for a row whose
// vendor_id is not "0x" and 4 lower-case hexadecimal digits; VendorID is
// the untrusted text as read (Error quotes it).
//
// The zero VendorIDError is that of an empty vendor_id, which Error quotes.
type VendorIDError struct{ VendorID string }

// Error quotes the vendor_id and says what a row writes.
func (e *VendorIDError) Error() string {
	return "vendor_id " + strconv.Quote(e.VendorID) + ": want 0x and 4 hexadecimal digits"
}

// vendorIDForm is how a row writes the PCI vendor ID.
var vendorIDForm = regexp.MustCompile(`^0x[0-9a-f]{4}$`)

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

// checkConfigStates refuses a configuration's state numbers that no survey
// writes: max_ps is a power state (0 to 31, -1 when none is used),
// deepest_state the deepest of reachable_states, and each entry of a full
// report's table names a state within 0 to 31.
func checkConfigStates(maxPS, deepest *int, reach []int, entries []Entry) error {
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
