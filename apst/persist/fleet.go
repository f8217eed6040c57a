package persist

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/survey"
)

// MaxFleetModels is the most models a Fleet keeps; drives of further models
// are counted in Fleet.Dropped.
const MaxFleetModels = 100000

// Fleet gathers the drives of a survey and answers, per model, which bound
// meets a goal, for FleetRules. The zero Fleet has no goal: its Add refuses
// every drive (an error wrapping ErrGoal) and its Rules are none; build one
// with NewFleet. A Fleet is not safe for concurrent use.
type Fleet struct {
	goal    Goal
	models  map[string]*fleetModel
	order   []string
	Dropped int
}

type fleetModel struct {
	drives   int
	ranges   []analysis.BoundRange // the intersection of the drives' best ranges
	conflict bool                  // two drives of the model have disjoint best ranges
	current  apst.Microseconds
	curPower apst.MicroWatts // at the current bound, summed over drives
	curStall apst.Microseconds
	sweeps   [][]survey.Step // each drive's sweep
	noState  bool            // no bound meets the goal while reaching a non-operational state
}

// NewFleet returns a Fleet for goal g (any kind but GoalBound).
func NewFleet(g Goal) (*Fleet, error) {
	if g.Kind < GoalStall || g.Kind > GoalDeepest {
		return nil, fmt.Errorf("%w: a fleet rule needs a goal (stall=, bar=, power=, deepest), not %s", ErrGoal, g)
	}
	return &Fleet{goal: g, models: map[string]*fleetModel{}}, nil
}

// Add records one drive: its model, the bound it has now (the survey's
// first configuration) and its bound sweep (survey.Row.Sweep, which is
// copied). The zero Fleet, which has no goal to answer, is an error
// wrapping ErrGoal; a sweep that is no partition of the bounds (none, or
// steps that do not start at 0 and rise) is one wrapping ErrNoRange, and
// the drive is not recorded: an empty sweep would read as a drive no bound
// suits, and its rule would turn APST off. A drive beyond MaxFleetModels
// models is counted in Dropped.
func (f *Fleet) Add(model string, current apst.Microseconds, steps []survey.Step) error {
	if f.models == nil {
		return fmt.Errorf("%w: the zero Fleet has no goal: build one with NewFleet", ErrGoal)
	}
	if len(steps) == 0 || steps[0].Min != 0 {
		return fmt.Errorf("%w: %q: a bound sweep must cover every bound from 0 (survey.Row.Sweep; a row without Identify data has none)", ErrNoRange, model)
	}
	for i := 1; i < len(steps); i++ {
		if steps[i].Min <= steps[i-1].Min {
			return fmt.Errorf("%w: %q: the sweep's step %d starts at %d us, not above step %d's %d us", ErrNoRange, model, i, steps[i].Min, i-1, steps[i-1].Min)
		}
	}
	model = strings.TrimSpace(model)
	m := f.models[model]
	if m == nil {
		if len(f.models) >= MaxFleetModels {
			f.Dropped++
			return nil
		}
		m = &fleetModel{current: current}
		f.models[model] = m
		f.order = append(f.order, model)
	}
	m.drives++
	st := slices.Clone(steps)
	m.sweeps = append(m.sweeps, st)
	p, s := stepAt(st, current)
	m.curPower += p
	m.curStall = max(m.curStall, s)
	best, ok := bestSteps(st, f.goal)
	if !ok {
		m.noState = true
		best = acceptableSteps(st, f.goal)
	}
	if m.drives == 1 {
		m.ranges = best
		return nil
	}
	m.ranges = intersect(m.ranges, best)
	if len(m.ranges) == 0 {
		m.conflict = true
	}
	return nil
}

// FleetRule is the setting one model needs under the goal.
//
// The zero FleetRule covers no drive and needs no rule (Needed false, Rule
// empty); its Choice is the zero Choice, whose Tolerance is unset.
type FleetRule struct {
	// Model is the model (exact).
	Model string
	// Drives is how many drives of the fleet it covers.
	Drives int
	// Needed reports whether the drives' current bound misses the goal (or
	// is not the best bound for it); when false no rule is needed and Rule
	// is empty.
	Needed bool
	// Choice is the bound chosen for every drive of the model.
	Choice Choice
	// Rule is the udev rule keyed on the model.
	Rule string
	// PowerCost is the change of the deepest reachable state's max power,
	// summed over the model's drives (positive: the rule costs power).
	PowerCost apst.MicroWatts
	// StallBefore and StallAfter are the worst exit latency among the
	// model's drives at the current bound and at the chosen one.
	StallBefore, StallAfter apst.Microseconds
	// NoState reports that no bound meets the goal while reaching a
	// non-operational state on some drive of the model: the rule keeps it
	// in its operational states.
	NoState bool
	// Conflict reports that drives of the model (firmware revisions) need
	// bounds no single value gives: no rule is made.
	Conflict bool
}

// Rules returns one FleetRule per model, in the order the models were first
// added; none for a nil or zero Fleet.
func (f *Fleet) Rules() []FleetRule {
	var out []FleetRule
	if f == nil {
		return out
	}
	for _, name := range f.order {
		m := f.models[name]
		r := FleetRule{Model: name, Drives: m.drives, NoState: m.noState, Conflict: m.conflict, StallBefore: m.curStall}
		if m.conflict {
			r.Needed = true
			out = append(out, r)
			continue
		}
		limit := apst.NoLimit
		if f.goal.Kind == GoalStall {
			limit = f.goal.Stall
		}
		ch, err := Choose(m.ranges, m.current, limit)
		if err != nil {
			r.Conflict, r.Needed = true, true
			out = append(out, r)
			continue
		}
		r.Choice = ch
		r.Needed = ch.Rule != RuleCurrent
		var after apst.MicroWatts
		for _, st := range m.sweeps {
			p, s := stepAt(st, ch.Bound)
			after += p
			r.StallAfter = max(r.StallAfter, s)
		}
		r.PowerCost = after - m.curPower
		if rule, err := UdevRule(ExactModelScope(name), toleranceOf(ch.Bound)); r.Needed && err == nil {
			r.Rule = rule
		}
		out = append(out, r)
	}
	return out
}

// stepAt is the power and stall of the step that holds bound b.
func stepAt(steps []survey.Step, b apst.Microseconds) (apst.MicroWatts, apst.Microseconds) {
	i := len(steps) - 1
	for i > 0 && steps[i].Min > b {
		i--
	}
	if i < 0 {
		return 0, 0
	}
	return steps[i].DeepestMaxPower, steps[i].WorstExitLatency
}

// stepRange is step i's range of bounds.
func stepRange(steps []survey.Step, i int) analysis.BoundRange {
	hi := apst.NoLimit
	if i+1 < len(steps) {
		hi = steps[i+1].Min - 1
	}
	return analysis.BoundRange{Min: steps[i].Min, Max: hi}
}

func deepestOf(s apst.States) int { return bits.Len32(uint32(s)) - 1 }

func (g Goal) meetsStep(st *survey.Step) bool {
	switch g.Kind {
	case GoalStall:
		return st.WorstExitLatency <= g.Stall
	case GoalBar:
		return st.Reach&g.Bar == 0
	case GoalPower:
		return st.DeepestMaxPower <= g.Power
	}
	return true
}

// bestSteps is the ranges of the steps that meet the goal, reach a
// non-operational state, and are best: the deepest state (lowest power for
// the power goals), then the smallest worst exit latency.
func bestSteps(steps []survey.Step, g Goal) ([]analysis.BoundRange, bool) {
	lowest := apst.MicroWatts(1<<62 - 1)
	if g.Kind == GoalDeepest {
		for i := range steps {
			if steps[i].Reach&^1 != 0 {
				lowest = min(lowest, steps[i].DeepestMaxPower)
			}
		}
	}
	better := func(a, b *survey.Step) bool {
		switch g.Kind {
		case GoalPower, GoalDeepest:
			return a.WorstExitLatency < b.WorstExitLatency
		}
		if da, db := deepestOf(a.Reach), deepestOf(b.Reach); da != db {
			return da > db
		}
		return a.WorstExitLatency < b.WorstExitLatency
	}
	ok := func(st *survey.Step) bool {
		return st.Reach&^1 != 0 && g.meetsStep(st) && (g.Kind != GoalDeepest || st.DeepestMaxPower <= lowest)
	}
	best := -1
	for i := range steps {
		if ok(&steps[i]) && (best < 0 || better(&steps[i], &steps[best])) {
			best = i
		}
	}
	if best < 0 {
		return nil, false
	}
	var out []analysis.BoundRange
	for i := range steps {
		if ok(&steps[i]) && !better(&steps[best], &steps[i]) && !better(&steps[i], &steps[best]) {
			out = appendBoundRange(out, stepRange(steps, i))
		}
	}
	return out, true
}

// acceptableSteps is the ranges that meet the goal without reaching a
// non-operational state (what is left when no bound reaches one within it).
func acceptableSteps(steps []survey.Step, g Goal) []analysis.BoundRange {
	var out []analysis.BoundRange
	for i := range steps {
		r := stepRange(steps, i)
		if r.Min == 0 {
			r.Min = 1 // bound 0 turns APST off: the last resort, below
		}
		if g.meetsStep(&steps[i]) && r.Min <= r.Max {
			out = appendBoundRange(out, r)
		}
	}
	if len(out) == 0 {
		out = []analysis.BoundRange{{}} // APST off meets every goal
	}
	return out
}

func appendBoundRange(rs []analysis.BoundRange, r analysis.BoundRange) []analysis.BoundRange {
	if n := len(rs); n > 0 && rs[n-1].Max != apst.NoLimit && rs[n-1].Max+1 == r.Min {
		rs[n-1].Max = r.Max
		return rs
	}
	return append(rs, r)
}

// intersect is the bounds in both a and b (each sorted, disjoint).
func intersect(a, b []analysis.BoundRange) []analysis.BoundRange {
	var out []analysis.BoundRange
	for _, x := range a {
		for _, y := range b {
			lo, hi := max(x.Min, y.Min), min(x.Max, y.Max)
			if lo <= hi {
				out = append(out, analysis.BoundRange{Min: lo, Max: hi})
			}
		}
	}
	return out
}
