package persist

import (
	"errors"
	"fmt"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
)

// MaxValue is the largest bound pm_qos_latency_tolerance_us takes as a
// number (S32_MAX - 1); S32_MAX itself reads back as "any", no limit.
const MaxValue apst.Microseconds = apst.LatencyAny - 1

// ErrNoRange is returned by Choose when it is given no range to choose from
// (analysis.Recommend found no bound that meets the goal while reaching a
// non-operational state).
var ErrNoRange = errors.New("persist: no range of bounds to choose from")

// ChoiceRule says which rule of Choose picked the bound.
type ChoiceRule uint8

// The rules of Choose, in the order it tries them.
const (
	// RuleCurrent: the current bound lies in a range, so it already
	// programs the recommended table and nothing needs to change.
	RuleCurrent ChoiceRule = iota + 1
	// RuleGoal: the goal's exit-latency limit is a round value inside a
	// range; it is chosen as is, so that a state a firmware update adds with
	// an exit latency above the limit stays out of the table.
	RuleGoal
	// RuleRoundest: the value with the fewest significant digits in the
	// range (at most the goal's exit-latency limit when there is one), the
	// largest of them; the smallest of them when the range has no upper end.
	RuleRoundest
	// RuleGiven: the bound was given, not chosen (Resolve of a GoalBound).
	RuleGiven
)

// String names the rule: "current", "goal-limit", "roundest", "given".
func (r ChoiceRule) String() string {
	switch r {
	case RuleCurrent:
		return "current"
	case RuleGoal:
		return "goal-limit"
	case RuleRoundest:
		return "roundest"
	case RuleGiven:
		return "given"
	}
	return fmt.Sprintf("ChoiceRule(%d)", uint8(r))
}

// Choice is one bound chosen from ranges of equivalent bounds.
//
// The zero Choice is no choice (no rule made it): its Tolerance is unset,
// which UdevRule refuses (apst.ErrInvalidTolerance), not 0, which would
// turn APST off.
type Choice struct {
	// Bound is the chosen ps_max_latency_us: at most MaxValue, or NoLimit
	// (written "any") when the range starts above MaxValue.
	Bound apst.Microseconds
	// Range is the range it lies in.
	Range analysis.BoundRange
	// Rule is the rule that chose it.
	Rule ChoiceRule
	// Why says so in a sentence, e.g. "the goal's exit-latency limit 25000us
	// lies in 4600..42999".
	Why string
}

// Tolerance is the value to write to pm_qos_latency_tolerance_us for the
// chosen bound: the number, or "any" for NoLimit. The zero Choice, which no
// rule made, has the unset Tolerance (not Valid: UdevRule and MarshalText
// refuse it), not 0, which would turn APST off.
func (c Choice) Tolerance() apst.Tolerance {
	if c.Rule == 0 {
		return apst.Tolerance{}
	}
	return toleranceOf(c.Bound)
}

func toleranceOf(b apst.Microseconds) apst.Tolerance {
	if b > MaxValue {
		return apst.Tolerance{Kind: apst.ToleranceAny}
	}
	return apst.Tolerance{Kind: apst.ToleranceValue, Value: uint32(b)}
}

// Choose picks one bound from ranges, the recommended ranges of
// analysis.Recommend (every bound in them programs the same table), given
// the current bound and the goal's exit-latency limit (NoLimit for a goal
// without a stall limit):
//
//  1. the current bound, when it lies in a range (RuleCurrent);
//  2. the limit, when it lies in a range and has at most two significant
//     digits (25000, 4600: RuleGoal);
//  3. the roundest value of the first range, at most the limit when the
//     limit is inside it (RuleRoundest): the fewest significant digits, the
//     largest such value (4600..42999 gives 40000, 1000..4999 gives 4000),
//     or the smallest when the range has no upper end (43000..unlimited
//     gives 50000).
//
// The bound is a value pm_qos_latency_tolerance_us takes (at most
// MaxValue), or NoLimit when the range starts above MaxValue and has no
// upper end. Errors: ErrNoRange for no ranges, and an error for a range
// whose ends are reversed or that lies wholly above MaxValue with an upper
// end.
func Choose(ranges []analysis.BoundRange, current, limit apst.Microseconds) (Choice, error) {
	if len(ranges) == 0 {
		return Choice{}, ErrNoRange
	}
	for _, r := range ranges {
		if r.Min > r.Max {
			return Choice{}, fmt.Errorf("persist: range %s: its minimum is above its maximum", r)
		}
	}
	for _, r := range ranges {
		if r.Contains(current) {
			return Choice{Bound: current, Range: r, Rule: RuleCurrent,
				Why: fmt.Sprintf("the current bound %s lies in %s: it already programs this table", current, r)}, nil
		}
	}
	if limit != apst.NoLimit && limit <= MaxValue && sigDigits(uint64(limit)) <= 2 {
		for _, r := range ranges {
			if r.Contains(limit) {
				return Choice{Bound: limit, Range: r, Rule: RuleGoal,
					Why: fmt.Sprintf("the goal's exit-latency limit %s lies in %s: a state a firmware update adds above it stays out", limit, r)}, nil
			}
		}
	}
	r := ranges[0]
	lo, hi := uint64(r.Min), uint64(r.Max)
	capped := false
	if limit != apst.NoLimit && r.Contains(limit) {
		hi, capped = uint64(limit), true
	}
	if lo > uint64(MaxValue) {
		if r.Max != apst.NoLimit {
			return Choice{}, fmt.Errorf("persist: range %s lies above %d, the largest value pm_qos_latency_tolerance_us takes", r, MaxValue)
		}
		return Choice{Bound: apst.NoLimit, Range: r, Rule: RuleRoundest,
			Why: fmt.Sprintf("%s starts above %d: no limit (any)", r, MaxValue)}, nil
	}
	var v uint64
	var how string
	if r.Max == apst.NoLimit && !capped {
		v, how = smallestRound(lo), "the smallest of the values with the fewest significant digits"
	} else {
		hi = min(hi, uint64(MaxValue))
		v, how = largestRound(lo, hi), "the largest of the values with the fewest significant digits"
		if capped {
			how += fmt.Sprintf(" up to the goal's exit-latency limit %s", limit)
		}
	}
	return Choice{Bound: apst.Microseconds(v), Range: r, Rule: RuleRoundest,
		Why: fmt.Sprintf("%s in %s", how, r)}, nil
}

// sigDigits counts the significant decimal digits of v (0 has one).
func sigDigits(v uint64) int {
	if v == 0 {
		return 1
	}
	for v%10 == 0 {
		v /= 10
	}
	n := 0
	for ; v > 0; v /= 10 {
		n++
	}
	return n
}

// largestRound is the largest value in lo..hi with the fewest significant
// digits (lo <= hi).
func largestRound(lo, hi uint64) uint64 {
	if hi == 0 {
		return 0
	}
	best, bestDigits := hi, sigDigits(hi)
	for step := uint64(1); step <= hi; step *= 10 {
		if m := hi / step * step; m >= lo && m > 0 {
			if d := sigDigits(m); d < bestDigits || d == bestDigits && m > best {
				best, bestDigits = m, d
			}
		}
		if step > hi/10 {
			break
		}
	}
	return best
}

// smallestRound is the smallest value at least lo, at most MaxValue, with
// the fewest significant digits (lo <= MaxValue).
func smallestRound(lo uint64) uint64 {
	if lo == 0 {
		return 0
	}
	best, bestDigits := lo, sigDigits(lo)
	for step := uint64(1); step <= lo; step *= 10 {
		m := (lo + step - 1) / step * step
		if m <= uint64(MaxValue) {
			if d := sigDigits(m); d < bestDigits || d == bestDigits && m < best {
				best, bestDigits = m, d
			}
		}
		if step > lo/10 {
			break
		}
	}
	return best
}
