package shard

import (
	"encoding/json"
	"fmt"
	"github.com/nvmeapst/nvmeapst/apst/survey"
	"math"

	"github.com/nvmeapst/nvmeapst/apst"
)

// Row is one drive's row of a survey shard (see Head for the
// report around it): its Record, and what a reader shows of the drive. It
// is the row's JSON, key for key: encoding/json of a Row is the row
// (AppendRow writes the same bytes by hand). Name, Mode, Params and
// Entries of each configuration are set only in a full report; Bundle is
// the JSON a survey's caller says of the machine of a bundle's drive
// (absent for a capture), which this package does not read.
//
// The zero Row is not one a survey writes: it has no configurations, so
// DecodeRow refuses its JSON with a *RowError (matching ErrNotShard).
type Row struct {
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
	// made (Assumed.Names).
	Assumed          []string        `json:"assumed,omitempty"`
	Changed          bool            `json:"changed"`
	Configs          []Config        `json:"configs"`
	IdlePowerDeltaMW float64         `json:"idle_power_delta_mw"`
	Changes          []Change        `json:"changes"`
	BoundSweep       []Step          `json:"bound_sweep"`
	Bundle           json.RawMessage `json:"bundle,omitempty"`
}

// Entry is one entry of a configuration's table in a full report.
//
// The zero Entry has no Value, which DecodeRow refuses in a row (it wants
// 0x and 16 hexadecimal digits).
type Entry struct {
	State       int    `json:"state"`
	Value       string `json:"value"`
	TargetState uint8  `json:"target_state"`
	IdleTimeMS  uint32 `json:"idle_time_ms"`
}

// Config is a drive's outcome under one configuration.
//
// The zero Config lists no reachable states (null in its JSON), which
// DecodeRow refuses in a row.
type Config struct {
	Name                  string       `json:"name,omitempty"`
	Sent                  bool         `json:"sent"`
	Enabled               bool         `json:"enabled"`
	MaxPS                 int          `json:"max_ps"`
	MaxRoundTripUS        uint64       `json:"max_round_trip_us"`
	Entries               []Entry      `json:"entries,omitempty"`
	DeepestState          int          `json:"deepest_state"`
	WorstExitLatencyUS    uint64       `json:"worst_exit_latency_us"`
	DeepestStateMaxPowerW float64      `json:"deepest_state_max_power_w"`
	ReachableStates       []int        `json:"reachable_states"`
	Outcome               string       `json:"outcome"`
	Mode                  string       `json:"mode,omitempty"`
	Params                *apst.Params `json:"params,omitempty"`
}

// Change is what the change to one configuration does to the drive.
//
// The zero Change is for configuration 0, the first itself, which DecodeRow
// refuses in a row (a change is for configuration 1 or more).
type Change struct {
	Config           int     `json:"config"`
	Changed          bool    `json:"changed"`
	StallReductionUS int64   `json:"stall_reduction_us"`
	IdlePowerDeltaMW float64 `json:"idle_power_delta_mw"`
	Bars             string  `json:"bars"`
	BarredStates     []int   `json:"barred_states"`
	GainedStates     []int   `json:"gained_states"`
}

// Step is one step of a drive's bound sweep (Step).
//
// The zero Step lists no reachable states (null in its JSON), which
// DecodeRow refuses in a row.
type Step struct {
	MinUS                 uint64  `json:"min_us"`
	WorstExitLatencyUS    uint64  `json:"worst_exit_latency_us"`
	DeepestStateMaxPowerW float64 `json:"deepest_state_max_power_w"`
	ReachableStates       []int   `json:"reachable_states"`
	Same                  bool    `json:"same"`
}

// NewRow returns the row of a drive's Row: format is the capture
// format the caller names, full adds each configuration's name, mode,
// params and table. Bundle is left empty.
func NewRow(row *survey.Row, format string, full bool) Row {
	d := Row{
		Path: row.Name, Model: row.Model, Firmware: row.Firmware, Vendor: row.Vendor,
		VendorID: fmt.Sprintf("0x%04x", row.VendorID), Format: format,
		Quirks: row.Quirks.String(), Changed: row.Changed,
		Configs:    make([]Config, len(row.Results)),
		Changes:    make([]Change, len(row.Changes)),
		BoundSweep: make([]Step, len(row.Sweep)),
	}
	d.QuirksInferredFrom = row.QuirksInferredFrom
	d.Assumed = row.Assumed.Names()
	for _, id := range row.QuirksUncheckedPCI {
		d.QuirksUncheckedPCI = append(d.QuirksUncheckedPCI, id.String())
	}
	for i := range row.Results {
		r := &row.Results[i]
		c := Config{
			Sent: r.Plan.Sent, Enabled: r.Plan.Enabled, MaxPS: r.Plan.MaxPS,
			MaxRoundTripUS: uint64(r.Plan.MaxRoundTrip),
			DeepestState:   int(r.Reach.Deepest), WorstExitLatencyUS: uint64(r.Reach.WorstExitLatency),
			DeepestStateMaxPowerW: watts(r.DeepestMaxPower.MicroWatts()),
			ReachableStates:       stateList(r.Reach.States),
			Outcome:               r.Plan.Outcome.String(),
		}
		if full {
			c.Name, c.Mode, c.Params = r.Config.Name, r.Plan.Mode.String(), &r.Config.Params
			c.Entries = make([]Entry, len(r.Plan.Table))
			for s, e := range r.Plan.Table {
				c.Entries[s] = Entry{State: s, Value: fmt.Sprintf("0x%016x", uint64(e)),
					TargetState: e.TargetState(), IdleTimeMS: uint32(e.IdleTime())}
			}
		}
		d.Configs[i] = c
	}
	for i, ch := range row.Changes {
		d.Changes[i] = Change{
			Config: ch.Config, Changed: ch.Changed, StallReductionUS: ch.StallReduction,
			IdlePowerDeltaMW: ch.PowerDelta.MilliWatts(), Bars: ch.Bars.String(),
			BarredStates: stateList(ch.Barred), GainedStates: stateList(ch.Gained),
		}
	}
	if len(d.Changes) > 0 {
		d.IdlePowerDeltaMW = d.Changes[0].IdlePowerDeltaMW
	}
	for i, st := range row.Sweep {
		d.BoundSweep[i] = Step{
			MinUS: uint64(st.Min), WorstExitLatencyUS: uint64(st.WorstExitLatency),
			DeepestStateMaxPowerW: watts(uint64(st.DeepestMaxPower)),
			ReachableStates:       stateList(st.Reach), Same: st.Same,
		}
	}
	return d
}

// stateList returns a state set as a sorted list of indices (never nil,
// so that JSON writes [] for none).
func stateList(set apst.States) []int {
	out := []int{}
	for s := range set.All() {
		out = append(out, int(s))
	}
	return out
}

// watts converts µW to W as a shard writes powers; DecodeRow reads
// them back exactly, on every power a drive can have.
func watts(uw uint64) float64 { return float64(uw) / 1e6 }

// maxPowerUW is the largest deepest-state power a drive can have: MP 65535
// in units of 0.01 W.
const maxPowerUW = 65535 * 10000

// microWatts converts a power in W, as a shard writes it, back to µW,
// refusing what Watts cannot have written.
func microWatts(w float64) (apst.MicroWatts, error) {
	uw := math.Round(w * 1e6)
	if !(uw >= 0 && uw <= maxPowerUW) || watts(uint64(uw)) != w {
		return 0, fmt.Errorf("power %v W is not a drive's maximum power", w)
	}
	return apst.MicroWatts(uw), nil
}
