package analysis

import (
	"fmt"
	"iter"
	"slices"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Reach is what an APST table does to a controller that goes idle in power
// state 0: the states it passes through and the worst exit latency a command
// can then meet.
//
// The zero Reach is not one Reachability returns (its States always hold
// state 0, and WorstExitState is -1 when the table makes no transition): it
// reaches no state, and every other field is 0.
type Reach struct {
	// States is Table.Reachable(0): bit n is set when the table can move the
	// controller from state 0 to state n (state 0 itself included).
	States apst.States
	// Deepest is the highest-numbered state in States, where the controller
	// ends up after a long enough idle period (0 when the table makes no
	// transition).
	Deepest uint8
	// WorstExitState is the state in States, other than the starting state 0,
	// with the largest EXLAT (the shallower one on a tie); -1 when the table
	// makes no transition.
	WorstExitState int
	// WorstExitLatency is that state's EXLAT: the worst wake stall the
	// controller advertises under this table. It is 0 when the table makes no
	// transition, since a controller that stays in state 0 has nothing to
	// leave.
	WorstExitLatency apst.Microseconds
	// DeepestExitLatency and DeepestMaxPower are the EXLAT and the maximum
	// power (MP) of Deepest, where the controller ends up: ps0's when the
	// table makes no transition, whose exit latency is then 0 (state 0 is
	// never left, so nothing is exited), not ps0's advertised EXLAT. Read
	// these rather than indexing c.PowerStates with Deepest.
	DeepestExitLatency apst.Microseconds
	DeepestMaxPower    powerstate.Power
}

// Reachability follows table t from state 0 (Table.Reachable) and reports the
// deepest state reached and the largest exit latency (EXLAT, from c's power
// state descriptors) among the states it can reach besides state 0. Targets
// beyond NPSS are looked up in c.PowerStates all the same; a nil c counts
// every exit latency as 0, and a nil t is no table (state 0 only).
func Reachability(c *powerstate.Controller, t *apst.Table) Reach {
	r := Reach{States: t.Reachable(0), WorstExitState: -1}
	for s := range apst.Entries {
		if r.States&(1<<s) == 0 {
			continue
		}
		r.Deepest = uint8(s)
		if s == 0 {
			continue
		}
		var exit apst.Microseconds
		if c != nil {
			exit = apst.Microseconds(c.PowerStates[s].ExitLatency)
		}
		if r.WorstExitState < 0 || exit > r.WorstExitLatency {
			r.WorstExitState, r.WorstExitLatency = s, exit
		}
	}
	if c != nil {
		d := &c.PowerStates[r.Deepest]
		r.DeepestMaxPower = d.MaxPower
		if r.Deepest != 0 {
			r.DeepestExitLatency = apst.Microseconds(d.ExitLatency)
		}
	}
	return r
}

// Interval is a maximal range of bounds (ps_max_latency_us values) that give
// the same plan: the same table, APSTE, max PS and max round-trip latency.
//
// The zero Interval is not one Sweep returns: it is the range of bound 0
// alone (Contains(0) is true) with the zero apst.Plan, whose MaxPS is 0.
type Interval struct {
	// Min and Max are the smallest and largest bound of the range, both
	// included.
	Min, Max apst.Microseconds
	// Plan is what Build returns for every bound in the range; its
	// Params.Bound is Min. (The per-state Reasons may differ inside the
	// range, e.g. exit-latency-above-bound versus band-used; the table does
	// not.)
	Plan apst.Plan
	// Reach is where the table takes an idle controller (Reachability).
	Reach Reach
}

// Contains reports whether bound b lies in the interval.
func (iv *Interval) Contains(b apst.Microseconds) bool { return iv.Min <= b && b <= iv.Max }

// MaxPS is the kernel's max_ps for the interval: the deepest selected state,
// -1 when none.
func (iv *Interval) MaxPS() int { return iv.Plan.MaxPS }

// BoundSweep is the exact partition of the whole bound range [0, NoLimit]
// into maximal intervals of identical plans.
//
// The zero BoundSweep holds no interval, so At returns nil for every bound;
// a sweep Sweep returns without error is never so.
type BoundSweep struct {
	// Params are the inputs of the sweep; Bound is what varies and is
	// ignored.
	Params apst.Params
	// Intervals cover [0, NoLimit] in increasing order, without gaps or
	// overlaps, and neighbours differ. Bound 0 (APST disabled, APSTE=0) is
	// an interval of its own, unless no bound changes anything (APSTA 0,
	// NPSS above 31, or NO_APST without force_apst).
	Intervals []Interval
}

// At returns the interval that holds bound b (never nil for a sweep Sweep
// returned).
func (s *BoundSweep) At(b apst.Microseconds) *Interval {
	i, _ := slices.BinarySearchFunc(s.Intervals, b, func(iv Interval, b apst.Microseconds) int {
		switch {
		case iv.Max < b:
			return -1
		case iv.Min > b:
			return 1
		}
		return 0
	})
	if i >= len(s.Intervals) {
		return nil
	}
	return &s.Intervals[i]
}

// gateLatency is the latency the bound is compared with in mode m: EXLAT, or
// ENLAT+EXLAT for the v4.11 gate.
func gateLatency(d *powerstate.Descriptor, m apst.Mode) uint64 {
	if m == apst.ModeHeuristicTotalGate {
		return d.TotalLatency()
	}
	return uint64(d.ExitLatency)
}

// breakpoints returns, sorted and without repeats, the bounds at which the
// plan can change: 0 (APST off), 1, and the gate latency (EXLAT, or
// ENLAT+EXLAT for v4.11) of every non-operational state. It uses buf's
// storage and does not allocate.
func breakpoints(c *powerstate.Controller, mode apst.Mode, buf *[apst.Entries + 2]uint64) []uint64 {
	starts := append(buf[:0], 0, 1)
	for i := range c.States() {
		d := &c.PowerStates[i]
		if !d.NonOperational {
			continue
		}
		if g := gateLatency(d, mode); g > 1 {
			starts = append(starts, g)
		}
	}
	// At most 34 values: an insertion sort that drops duplicates, rather
	// than slices.Sort and Compact, whose uint64 instantiation costs the
	// page's wasm some 12 KB.
	n := 0
	for _, v := range starts {
		i := n
		for i > 0 && starts[i-1] > v {
			i--
		}
		if i > 0 && starts[i-1] == v {
			continue
		}
		copy(starts[i+1:n+1], starts[i:n])
		starts[i] = v
		n++
	}
	return starts[:n]
}

// Intervals yields, in increasing order, the maximal intervals of bounds
// (ps_max_latency_us values) that give identical plans for controller c under
// parameters p, whose bound is ignored: the partition that Sweep collects.
//
// The bound enters nvme_configure_apst() only through "bound == 0" (APST
// disabled) and "gate latency > bound" for each non-operational state, where
// the gate latency is EXLAT (ENLAT+EXLAT for V4_11), kernel-apst.md §4.3
// step 4. So the plan can change only where a bound reaches a gate latency:
// the candidate interval starts are 0, 1 and every gate latency (the
// interval before it ends at its predecessor). Intervals builds the plan once
// per candidate (at most 34 Build calls, not one per bound), merges
// neighbours with equal plans and allocates nothing.
//
// It returns an error, and no sequence, only when Build would (nil
// controller, invalid parameters): Build's error, wrapped.
func Intervals(c *powerstate.Controller, p apst.Params) (iter.Seq[Interval], error) {
	if c == nil {
		return nil, fmt.Errorf("analysis: %w", apst.ErrNilController)
	}
	if _, err := apst.Build(c, p); err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	return func(yield func(Interval) bool) {
		var buf [apst.Entries + 2]uint64
		starts := breakpoints(c, p.Mode(), &buf)
		var cur Interval
		have := false
		for i, start := range starts {
			q := p
			q.Bound = apst.Microseconds(start)
			var plan apst.Plan
			_ = apst.BuildTo(&plan, c, q) // cannot fail: p was checked above
			end := apst.NoLimit
			if i+1 < len(starts) {
				end = apst.Microseconds(starts[i+1] - 1)
			}
			if have && samePlan(&cur.Plan, &plan) {
				cur.Max = end
				continue
			}
			if have && !yield(cur) {
				return
			}
			cur = Interval{Min: apst.Microseconds(start), Max: end, Plan: plan, Reach: Reachability(c, &plan.Table)}
			have = true
		}
		if have {
			yield(cur)
		}
	}, nil
}

// Sweep partitions the whole bound range [0, 2^64-1] for controller c under
// parameters p (whose bound is ignored) into maximal intervals that give
// identical plans, each with its plan, max PS and worst-case exit latency.
// It collects Intervals.
//
// It returns an error only when Build does (nil controller, invalid
// parameters).
func Sweep(c *powerstate.Controller, p apst.Params) (BoundSweep, error) {
	out := BoundSweep{Params: p}
	seq, err := Intervals(c, p)
	if err != nil {
		return out, err
	}
	out.Intervals = make([]Interval, 0, 4)
	for iv := range seq {
		out.Intervals = append(out.Intervals, iv)
	}
	return out, nil
}

// samePlan reports whether two plans program the controller identically and
// report the same max PS and max round-trip latency.
func samePlan(a, b *apst.Plan) bool {
	return a.Sent == b.Sent && a.Enabled == b.Enabled && a.Outcome == b.Outcome &&
		a.MaxPS == b.MaxPS && a.MaxRoundTrip == b.MaxRoundTrip && a.Table == b.Table
}
