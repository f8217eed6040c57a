package analysis

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// ErrTooFewConfigs is returned when Compare (or survey.New) is given fewer than two configurations.
var ErrTooFewConfigs = errors.New("analysis: at least two configurations are needed")

// Config is one side of a comparison: a name to show and the parameters
// (bound, generation, module parameters, quirks), e.g. from ParseConfig,
// apst.ParseConfig (policy= for the presets).
//
// The zero Config has no name and the zero apst.Params, which Build rejects
// (apst.ErrUnknownGeneration): Compare refuses it.
type Config struct {
	// Name labels the configuration, e.g. "ps-max-latency-us=25000" or
	// "windows-balanced-dc".
	Name string
	// Params are the inputs of Build.
	Params apst.Params
}

// ConfigResult is one configuration's plan and what it means for an idle
// controller.
//
// The zero ConfigResult is not one Compare returns: its Config has no name
// and the zero Params (which Build rejects), and its Plan is the zero
// apst.Plan.
type ConfigResult struct {
	// Config is the configuration as given.
	Config Config
	// Plan is what Build returns.
	Plan apst.Plan
	// Reach is where the table takes a controller idle in state 0: the
	// deepest reachable state and the worst wake stall (the largest EXLAT
	// among the states the table can reach).
	Reach Reach
	// DeepestMaxPower is the maximum power (MP with its MXPS scale, exact) of
	// Reach.Deepest, the state the controller settles in when idle.
	DeepestMaxPower powerstate.Power
}

// StateRow is one power state across the configurations.
//
// The zero StateRow is state 0 under no configuration: no entry, no reason
// and Differs false.
type StateRow struct {
	// State is the power state index.
	State uint8
	// Entries holds the state's table entry under each configuration, in the
	// order of Comparison.Configs: target (ITPS) and idle time (ITPT).
	Entries []apst.Entry
	// Reasons holds Build's verdict on the state under each configuration.
	Reasons []apst.Reason
	// Differs reports whether the entries are not all equal.
	Differs bool
}

// Difference is one way a configuration's outcome differs from the first
// configuration's.
//
// The zero Difference is none that Compare lists: its Config 0 is the first
// configuration itself and its Field names no quantity.
type Difference struct {
	// Config is the index in Comparison.Configs of the configuration
	// compared with Configs[0] (1 or more).
	Config int
	// Field names the quantity: "sent", "enabled", "max-ps",
	// "max-round-trip-latency", "deepest-state", "deepest-state-max-power",
	// "worst-exit-latency" or "entry".
	Field string
	// State is the entry's state for Field "entry", -1 otherwise.
	State int
	// From and To are the values under Configs[0] and under Configs[Config],
	// formatted for people (entries as Entry.String, powers as nvme-cli does,
	// latencies as "4600us").
	From, To string
}

// String formats the difference as "max-ps: 4 -> 3" or "entry 3: ... -> ...".
func (d Difference) String() string {
	f := d.Field
	if d.State >= 0 {
		f += " " + strconv.Itoa(d.State)
	}
	return f + ": " + d.From + " -> " + d.To
}

// Comparison is the result of Compare.
//
// The zero Comparison compares nothing (no configuration, state or
// difference, and PowerDelta 0): it is what Compare returns with an error.
type Comparison struct {
	// Configs holds each configuration's result, in the order given.
	Configs []ConfigResult
	// States lists states 0..NPSS (at most 32) side by side.
	States []StateRow
	// Differences lists, for each configuration after the first, what
	// differs from the first: the plan's summary, the reach and every entry.
	Differences []Difference
	// PowerDelta is, in microwatts, the maximum power of the second
	// configuration's deepest reachable state minus that of the first's: the
	// idle power the second configuration costs (positive) or saves
	// (negative) once the controller has settled. It is exact.
	PowerDelta apst.MicroWatts
}

// Compare builds the plan of controller c under each configuration (two or
// more) and sets them side by side. It gives per state the target and idle
// time under each; for each configuration the deepest reachable state, its maximum
// power and the worst wake stall; the differences from the first
// configuration; and the idle power delta between the first two.
//
// Power is the descriptor's MP (maximum power), the only power figure every
// controller reports; a state whose MP is not reported counts as 0 W.
func Compare(c *powerstate.Controller, configs ...Config) (Comparison, error) {
	var out Comparison
	if c == nil {
		return out, fmt.Errorf("analysis: compare: %w", apst.ErrNilController)
	}
	if len(configs) < 2 {
		return out, fmt.Errorf("%w: got %d", ErrTooFewConfigs, len(configs))
	}
	out.Configs = make([]ConfigResult, len(configs))
	for i, cfg := range configs {
		plan, err := apst.Build(c, cfg.Params)
		if err != nil {
			return Comparison{}, fmt.Errorf("analysis: configuration %d (%s): %w", i+1, cfg.Name, err)
		}
		r := &out.Configs[i]
		r.Config, r.Plan = cfg, plan
		r.Reach = Reachability(c, &plan.Table)
		r.DeepestMaxPower = c.PowerStates[r.Reach.Deepest].MaxPower
	}

	n := c.StateCount()
	out.States = make([]StateRow, n)
	for s := range out.States {
		row := &out.States[s]
		row.State = uint8(s)
		row.Entries = make([]apst.Entry, len(configs))
		row.Reasons = make([]apst.Reason, len(configs))
		for i := range out.Configs {
			row.Entries[i] = out.Configs[i].Plan.Table[s]
			row.Reasons[i] = out.Configs[i].Plan.Reasons[s]
			if row.Entries[i] != row.Entries[0] {
				row.Differs = true
			}
		}
	}

	a := &out.Configs[0]
	for i := 1; i < len(out.Configs); i++ {
		out.Differences = appendDifferences(out.Differences, i, a, &out.Configs[i], n)
	}
	out.PowerDelta = apst.MicroWatts(out.Configs[1].DeepestMaxPower.MicroWatts()) - apst.MicroWatts(a.DeepestMaxPower.MicroWatts())
	return out, nil
}

func appendDifferences(ds []Difference, i int, a, b *ConfigResult, n int) []Difference {
	add := func(field string, state int, from, to string) {
		if from != to {
			ds = append(ds, Difference{Config: i, Field: field, State: state, From: from, To: to})
		}
	}
	add("sent", -1, strconv.FormatBool(a.Plan.Sent), strconv.FormatBool(b.Plan.Sent))
	add("enabled", -1, strconv.FormatBool(a.Plan.Enabled), strconv.FormatBool(b.Plan.Enabled))
	add("max-ps", -1, strconv.Itoa(a.Plan.MaxPS), strconv.Itoa(b.Plan.MaxPS))
	add("max-round-trip-latency", -1, a.Plan.MaxRoundTrip.String(), b.Plan.MaxRoundTrip.String())
	add("deepest-state", -1, "ps"+strconv.Itoa(int(a.Reach.Deepest)), "ps"+strconv.Itoa(int(b.Reach.Deepest)))
	if a.DeepestMaxPower.MicroWatts() != b.DeepestMaxPower.MicroWatts() {
		add("deepest-state-max-power", -1, a.DeepestMaxPower.String(), b.DeepestMaxPower.String())
	}
	add("worst-exit-latency", -1, a.Reach.WorstExitLatency.String(), b.Reach.WorstExitLatency.String())
	for s := range n {
		add("entry", s, a.Plan.Table[s].String(), b.Plan.Table[s].String())
	}
	return ds
}
