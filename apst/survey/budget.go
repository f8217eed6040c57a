package survey

import (
	"math"
	"slices"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// budgetStep is one piece of a drive's bound sweep under the first
// configuration's parameters: from bound min up to the next step's min.
type budgetStep struct {
	min    uint64
	stall  uint32 // worst wake stall, µs
	power  uint32 // deepest reachable state's max power, µW
	states apst.States // reachable states (Reach.States)
	same   bool   // the plan programs what the first configuration does
}

// budgetSteps is a lean Sweep of c under the parameters of plan ref (whose
// bound is ignored): for each candidate start (0, 1 and every gate latency)
// the worst stall, the deepest state's power, the reach and whether the plan
// programs what ref does; neighbours with equal values are merged. It does
// not allocate beyond out's capacity.
func budgetSteps(c *powerstate.Controller, ref *apst.Plan, out []budgetStep) []budgetStep {
	seq, err := analysis.Intervals(c, ref.Params)
	if err != nil { // not reached: ref was built from these parameters
		return out
	}
	for iv := range seq {
		r := &iv.Reach
		st := budgetStep{
			min:    uint64(iv.Min),
			stall:  uint32(min(uint64(r.WorstExitLatency), math.MaxUint32)),
			power:  uint32(c.PowerStates[r.Deepest].MaxPower.MicroWatts()),
			states: r.States,
			same:   sameCommand(&iv.Plan, ref),
		}
		if n := len(out); n > 0 {
			last := out[n-1]
			if last.stall == st.stall && last.power == st.power && last.states == st.states && last.same == st.same {
				continue
			}
		}
		out = append(out, st)
	}
	return out
}

// BudgetAnswer is the answer of StallBudget.
type BudgetAnswer struct {
	// Budget is the largest worst wake stall accepted, in µs.
	Budget apst.Microseconds
	// Params are the first configuration's parameters, whose bound
	// (ps_max_latency_us) is what varies; each drive also gets its quirks
	// when the survey applies them.
	Params apst.Params
	// Drives is the number of drives.
	Drives int
	// Acceptable lists the bounds that keep every drive's worst wake stall
	// (Reach.WorstExitLatency) within Budget, as maximal ranges in
	// increasing order. Since the kernel never selects a state whose exit
	// latency exceeds the bound, every bound up to Budget is acceptable, so
	// Acceptable[0] starts at 0 and reaches at least Budget.
	Acceptable []analysis.BoundRange
	// Bound is the largest acceptable bound: the least restrictive default
	// that keeps every drive within the budget (NoLimit when no bound
	// breaks it).
	Bound apst.Microseconds
	// Binding lists, sorted, the drives whose worst stall exceeds the
	// budget at Bound+1: those that keep the default from being higher.
	// Empty when Bound is NoLimit.
	Binding []string
	// Changed counts the drives whose Set Features command at Bound differs
	// from the one under the first configuration.
	Changed int
	// StallReduction and PowerIncrease are the distributions, over the
	// changed drives, of the worst stall under the first configuration
	// minus the one at Bound (µs), and of the deepest reachable state's
	// maximum power at Bound minus under the first configuration (µW):
	// what the bound buys and costs. PowerIncrease.Sum is the fleet's
	// total.
	StallReduction, PowerIncrease analysis.Distribution
	// LosesAll lists, sorted, the drives that reach a non-operational state
	// under the first configuration but none at Bound.
	LosesAll []string
}

// StallBudget answers the inverse question: the largest bound B such that,
// for every drive added, the worst wake stall under the first
// configuration's parameters with ps_max_latency_us = B is at most budget,
// and what B costs in idle power across the fleet compared with the first
// configuration. Each drive's worst stall as a function of the bound is
// read from its exact bound sweep (the same breakpoints as Sweep), and the
// fleet's acceptable bounds are the intersection of the drives'. With no
// drives every bound is acceptable.
func (s *Survey) StallBudget(budget apst.Microseconds) BudgetAnswer {
	s.mu.Lock()
	defer s.mu.Unlock()
	ans := BudgetAnswer{Budget: budget, Params: s.configs[0].Params, Drives: len(s.drives),
		Binding: []string{}, LosesAll: []string{}}
	acc := []analysis.BoundRange{{Min: 0, Max: apst.NoLimit}}
	var mine, next []analysis.BoundRange
	for i := range s.drives {
		mine = s.acceptable(&s.drives[i], budget, mine[:0])
		next = intersectRanges(acc, mine, next[:0])
		acc, next = next, acc
	}
	ans.Acceptable = slices.Clone(acc)
	if len(acc) > 0 { // always: [0, budget] is acceptable for every drive
		ans.Bound = acc[len(acc)-1].Max
	}
	var stall, power []int64
	for i := range s.drives {
		d := &s.drives[i]
		steps := s.sweeps[d.sweepOff : d.sweepOff+d.sweepLen]
		st := stepAt(steps, ans.Bound)
		if ans.Bound != apst.NoLimit && apst.Microseconds(stepAt(steps, ans.Bound+1).stall) > budget {
			ans.Binding = append(ans.Binding, d.name)
		}
		if !st.same {
			ans.Changed++
			stall = append(stall, int64(d.stall0)-int64(st.stall))
			power = append(power, int64(st.power)-int64(d.power0))
		}
		if st.states&^1 == 0 && d.reach0&^1 != 0 {
			ans.LosesAll = append(ans.LosesAll, d.name)
		}
	}
	ans.StallReduction = analysis.NewDistribution(stall)
	ans.PowerIncrease = analysis.NewDistribution(power)
	slices.Sort(ans.Binding)
	slices.Sort(ans.LosesAll)
	return ans
}

// stepAt returns the step of a drive's sweep that holds bound b.
func stepAt(steps []budgetStep, b apst.Microseconds) budgetStep {
	i, found := slices.BinarySearchFunc(steps, uint64(b), func(st budgetStep, b uint64) int {
		switch {
		case st.min < b:
			return -1
		case st.min > b:
			return 1
		}
		return 0
	})
	if !found {
		i--
	}
	return steps[max(i, 0)]
}

// acceptable appends to out the bound ranges that keep drive d within
// budget.
func (s *Survey) acceptable(d *drive, budget apst.Microseconds, out []analysis.BoundRange) []analysis.BoundRange {
	steps := s.sweeps[d.sweepOff : d.sweepOff+d.sweepLen]
	for j, st := range steps {
		if apst.Microseconds(st.stall) > budget {
			continue
		}
		hi := apst.NoLimit
		if j+1 < len(steps) {
			hi = apst.Microseconds(steps[j+1].min - 1)
		}
		if n := len(out); n > 0 && out[n-1].Max+1 == apst.Microseconds(st.min) {
			out[n-1].Max = hi
			continue
		}
		out = append(out, analysis.BoundRange{Min: apst.Microseconds(st.min), Max: hi})
	}
	return out
}

// intersectRanges appends to out the intersection of two sorted lists of
// disjoint ranges.
func intersectRanges(a, b, out []analysis.BoundRange) []analysis.BoundRange {
	for i, j := 0, 0; i < len(a) && j < len(b); {
		lo, hi := max(a[i].Min, b[j].Min), min(a[i].Max, b[j].Max)
		if lo <= hi {
			out = append(out, analysis.BoundRange{Min: lo, Max: hi})
		}
		if a[i].Max < b[j].Max {
			i++
		} else {
			j++
		}
	}
	return out
}
