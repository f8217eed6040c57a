package survey

import (
	"slices"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// sweepSteps appends to out the bound sweep of c under the parameters of
// plan ref (whose bound is ignored): for each interval of analysis.Intervals
// the worst stall, the deepest state's power, the reach and whether the plan
// programs what ref does; neighbours with equal values are merged. It does
// not allocate beyond out's capacity.
func sweepSteps(c *powerstate.Controller, ref *apst.Plan, out []Step) []Step {
	// The quirks ref's lookup found, given: every bound's plan has the same
	// table as with the lookup redone, without redoing it per bound.
	p := ref.Params
	p.Quirks, p.QuirksGiven = ref.Quirks.Applied, true
	seq, err := analysis.Intervals(c, p)
	if err != nil { // not reached: ref was built from these parameters
		return out
	}
	for iv := range seq {
		r := &iv.Reach
		st := Step{
			Min:              iv.Min,
			WorstExitLatency: r.WorstExitLatency,
			DeepestMaxPower:  apst.MicroWatts(c.PowerStates[r.Deepest].MaxPower.MicroWatts()),
			Reach:            r.States,
			Same:             sameCommand(&iv.Plan, ref),
		}
		if n := len(out); n > 0 {
			last := out[n-1]
			if last.WorstExitLatency == st.WorstExitLatency && last.DeepestMaxPower == st.DeepestMaxPower &&
				last.Reach == st.Reach && last.Same == st.Same {
				continue
			}
		}
		out = append(out, st)
	}
	return out
}

// BudgetAnswer is the answer of StallBudget.
//
// The zero BudgetAnswer is not one StallBudget returns (that always lists
// an acceptable range from bound 0): it answers a budget of 0 for no drive,
// with no acceptable bound.
type BudgetAnswer struct {
	// Budget is the largest worst wake stall accepted, in µs.
	Budget apst.Microseconds
	// Params are the first configuration's parameters, whose bound
	// (ps_max_latency_us) is what varies; each drive also gets its quirks
	// when the survey applies them. Zero for a zero Survey.
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

// StallBudget answers the inverse question: which bound keeps the fleet's
// worst wake stall within budget, and at what cost. It returns the largest
// bound B such that, for every drive recorded, the worst wake stall under
// the first configuration's parameters with ps_max_latency_us = B is at
// most budget, and what B costs in idle power across the fleet compared
// with the first configuration. Each drive's worst stall as a function of the bound is
// read from its exact bound sweep (the same breakpoints as analysis.Sweep),
// and the fleet's acceptable bounds are the intersection of the drives'.
// With no drives (a zero Survey included) every bound is acceptable.
func (s *Survey) StallBudget(budget apst.Microseconds) BudgetAnswer {
	st := s.snapshot()
	n := st.len()
	ans := BudgetAnswer{Budget: budget, Drives: n, Binding: []string{}, LosesAll: []string{}}
	if len(s.configs) > 0 {
		ans.Params = s.configs[0].Params
	}
	acc := []analysis.BoundRange{{Min: 0, Max: apst.NoLimit}}
	var mine, next []analysis.BoundRange
	for i := range n {
		lo, hi := st.sweep(int(st.prof.at(i)))
		mine = st.acceptable(lo, hi, budget, mine[:0])
		next = intersectRanges(acc, mine, next[:0])
		acc, next = next, acc
	}
	ans.Acceptable = slices.Clone(acc)
	if len(acc) > 0 { // always: [0, budget] is acceptable for every drive
		ans.Bound = acc[len(acc)-1].Max
	}
	var stall, power []int64
	var names nameCursor // in order
	for i := range n {
		p := int(st.prof.at(i))
		lo, hi := st.sweep(p)
		at := st.stepAt(lo, hi, ans.Bound)
		if ans.Bound != apst.NoLimit && apst.Microseconds(st.stepAt(lo, hi, ans.Bound+1).stall) > budget {
			ans.Binding = append(ans.Binding, names.at(&st.names, i))
		}
		if at.power&stepSame == 0 {
			ans.Changed++
			stall = append(stall, int64(st.stall[0].at(p))-int64(at.stall))
			power = append(power, int64(at.microWatts())-int64(st.power[0].at(p)&powerMask))
		}
		if at.power&stepNoIdle != 0 && st.bars[0].at(p) != BarsNoIdle {
			ans.LosesAll = append(ans.LosesAll, names.at(&st.names, i))
		}
	}
	ans.StallReduction = analysis.NewDistribution(stall)
	ans.PowerIncrease = analysis.NewDistribution(power)
	slices.Sort(ans.Binding)
	slices.Sort(ans.LosesAll)
	return ans
}

// stepAt returns the step of steps[lo:hi] (one drive's sweep) that holds
// bound b.
func (st *store) stepAt(lo, hi int, b apst.Microseconds) step {
	// The last step whose min is at most b; steps[lo].min is 0.
	i, j := lo+1, hi
	for i < j {
		m := int(uint(i+j) >> 1)
		if st.steps.at(m).min <= uint64(b) {
			i = m + 1
		} else {
			j = m
		}
	}
	return st.steps.at(i - 1)
}

// acceptable appends to out the bound ranges that keep the drive whose
// sweep is steps[lo:hi] within budget.
func (st *store) acceptable(lo, hi int, budget apst.Microseconds, out []analysis.BoundRange) []analysis.BoundRange {
	for j := lo; j < hi; j++ {
		p := st.steps.at(j)
		if apst.Microseconds(p.stall) > budget {
			continue
		}
		end := apst.NoLimit
		if j+1 < hi {
			end = apst.Microseconds(st.steps.at(j+1).min - 1)
		}
		if n := len(out); n > 0 && out[n-1].Max+1 == apst.Microseconds(p.min) {
			out[n-1].Max = end
			continue
		}
		out = append(out, analysis.BoundRange{Min: apst.Microseconds(p.min), Max: end})
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
