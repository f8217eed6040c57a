package apst

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// entryJSON is the stable JSON form of an entry (apstctl contract, cli.md).
type entryJSON struct {
	State       int    `json:"state"`
	Value       string `json:"value"`
	TargetState uint8  `json:"target_state"`
	IdleTimeMS  uint64 `json:"idle_time_ms"`
}

// MarshalJSON encodes the table as the 32 objects of the apstctl contract:
// {"state":N,"value":"0x%016x","target_state":N,"idle_time_ms":N}, entry 0
// first; value is the full 64-bit entry, target_state bits 7:3 and
// idle_time_ms bits 31:8.
func (t Table) MarshalJSON() ([]byte, error) {
	out := make([]entryJSON, Entries)
	for i, e := range t {
		out[i] = entryJSON{
			State:       i,
			Value:       fmt.Sprintf("0x%016x", uint64(e)),
			TargetState: e.TargetState(),
			IdleTimeMS:  uint64(e.IdleTime()),
		}
	}
	return json.Marshal(out)
}

// UnmarshalJSON decodes the form MarshalJSON writes. The value key is
// authoritative; entries not listed stay zero.
func (t *Table) UnmarshalJSON(b []byte) error {
	var in []entryJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return fmt.Errorf("apst: table JSON: %w", err)
	}
	var nt Table
	for i, e := range in {
		if e.State < 0 || e.State >= Entries {
			return fmt.Errorf("apst: table JSON entry %d: state %d out of range 0..31", i, e.State)
		}
		v, err := strconv.ParseUint(strings.TrimPrefix(e.Value, "0x"), 16, 64)
		if err != nil {
			return fmt.Errorf("apst: table JSON entry %d: value %q: want 0x and 16 hex digits", i, e.Value)
		}
		nt[e.State] = Entry(v)
	}
	*t = nt
	return nil
}

// paramsJSON is the JSON form of Params.
type paramsJSON struct {
	Kernel                    string `json:"kernel"`
	PSMaxLatencyUS            uint64 `json:"ps_max_latency_us"`
	APSTPrimaryTimeoutMS      uint64 `json:"apst_primary_timeout_ms"`
	APSTSecondaryTimeoutMS    uint64 `json:"apst_secondary_timeout_ms"`
	APSTPrimaryLatencyTolUS   uint64 `json:"apst_primary_latency_tol_us"`
	APSTSecondaryLatencyTolUS uint64 `json:"apst_secondary_latency_tol_us"`
	Quirks                    string `json:"quirks"`
	ForceAPST                 bool   `json:"force_apst"`
}

// MarshalJSON encodes the parameters with the kernel's names.
func (p Params) MarshalJSON() ([]byte, error) {
	return json.Marshal(paramsJSON{
		Kernel:                    p.Generation.String(),
		PSMaxLatencyUS:            uint64(p.Bound),
		APSTPrimaryTimeoutMS:      uint64(p.PrimaryTimeout),
		APSTSecondaryTimeoutMS:    uint64(p.SecondaryTimeout),
		APSTPrimaryLatencyTolUS:   uint64(p.PrimaryTolerance),
		APSTSecondaryLatencyTolUS: uint64(p.SecondaryTolerance),
		Quirks:                    p.Quirks.APST().String(),
		ForceAPST:                 p.ForceAPST,
	})
}

type decisionJSON struct {
	State      uint8  `json:"state"`
	Reason     string `json:"reason"`
	Selected   bool   `json:"selected"`
	IdleTimeMS uint64 `json:"idle_time_ms,omitempty"`
}

// planJSON is the JSON form of a Plan; the first five keys are the stable
// apstctl plan contract (cli.md).
type planJSON struct {
	Sent           bool           `json:"sent"`
	Enabled        bool           `json:"enabled"`
	MaxPS          int            `json:"max_ps"`
	MaxRoundTripUS uint64         `json:"max_round_trip_us"`
	Entries        Table          `json:"entries"`
	Outcome        string         `json:"outcome"`
	Mode           string         `json:"mode"`
	AssumedAPSTA   bool           `json:"assumed_apsta"`
	Params         Params         `json:"params"`
	Decisions      []decisionJSON `json:"decisions"`
	KernelLog      string         `json:"kernel_log"`
	Warnings       []string       `json:"warnings"`
}

// MarshalJSON encodes the plan with the keys of the apstctl plan contract
// (sent, enabled, max_ps, max_round_trip_us, entries) followed by outcome,
// mode, assumed_apsta, params, decisions (per state 0..NPSS), kernel_log and
// warnings.
func (p Plan) MarshalJSON() ([]byte, error) {
	ds := p.Decisions()
	dj := make([]decisionJSON, len(ds))
	for i, d := range ds {
		dj[i] = decisionJSON{State: d.State, Reason: d.Reason.String(), Selected: d.Reason.Selected()}
		if d.Reason.Selected() {
			dj[i].IdleTimeMS = uint64(d.Idle)
		}
	}
	w := p.Warnings()
	if w == nil {
		w = []string{}
	}
	return json.Marshal(planJSON{
		Sent:           p.Sent,
		Enabled:        p.Enabled,
		MaxPS:          p.MaxPS,
		MaxRoundTripUS: uint64(p.MaxRoundTrip),
		Entries:        p.Table,
		Outcome:        p.Outcome.String(),
		Mode:           p.Mode.String(),
		AssumedAPSTA:   p.AssumedAPSTA,
		Params:         p.Params,
		Decisions:      dj,
		KernelLog:      p.KernelLog(),
		Warnings:       w,
	})
}
