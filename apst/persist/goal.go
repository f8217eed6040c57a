package persist

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// ErrGoal is wrapped by the errors of ParseGoal and of a goal Resolve
// cannot meet.
var ErrGoal = errors.New("persist: goal")

// GoalKind says what a Goal asks for.
type GoalKind uint8

// The kinds of goal.
const (
	// GoalBound is a bound given as is.
	GoalBound GoalKind = iota + 1
	// GoalStall asks every reachable state's exit latency to be at most
	// Goal.Stall (analysis.StallGoal).
	GoalStall
	// GoalBar asks that the states of Goal.Bar are never reached
	// (analysis.BarGoal).
	GoalBar
	// GoalPower asks that the deepest reachable state's max power is at
	// most Goal.Power, with the smallest worst exit latency that
	// allows.
	GoalPower
	// GoalDeepest asks for the lowest-power state the drive can reach at
	// any bound, with the smallest worst exit latency that allows.
	GoalDeepest
)

// Goal is what one bound must do, for Resolve: a bound, a stall limit, a
// barred state, a power limit or the deepest state.
//
// The zero Goal is unset (its Kind is none of the GoalKind values): Resolve
// refuses it with an error wrapping ErrGoal, once c and p pass, and so does
// NewFleet.
type Goal struct {
	Kind GoalKind
	// Bound is the bound of GoalBound (NoLimit for no limit).
	Bound apst.Microseconds
	// Stall is the exit-latency limit of GoalStall.
	Stall apst.Microseconds
	// Bar is the states of GoalBar.
	Bar apst.States
	// Power is the limit of GoalPower.
	Power apst.MicroWatts
}

// ParseGoal reads a goal: a bound ("25000", "0", "any" or "unlimited"),
// "stall=25ms" (a duration or µs), "bar=ps4" (a state or a comma list),
// "power=10mW" (mW or W) or "deepest". Errors wrap ErrGoal.
func ParseGoal(s string) (Goal, error) {
	k, v, ok := strings.Cut(strings.TrimSpace(s), "=")
	if !ok {
		switch k {
		case "deepest":
			return Goal{Kind: GoalDeepest}, nil
		case "any", "unlimited":
			return Goal{Kind: GoalBound, Bound: apst.NoLimit}, nil
		}
		if apst.OctalLooking(k) {
			return Goal{}, fmt.Errorf("%w: %q: a leading 0 is octal to the kernel and decimal to a reader: write the bound without it", ErrGoal, s)
		}
		b, err := strconv.ParseUint(k, 10, 64)
		if err != nil || b > uint64(MaxValue) {
			return Goal{}, fmt.Errorf("%w: %q: want a bound 0..%d, any, stall=DURATION, bar=psN, power=10mW or deepest", ErrGoal, s, MaxValue)
		}
		return Goal{Kind: GoalBound, Bound: apst.Microseconds(b)}, nil
	}
	switch k {
	case "stall", "max-stall":
		d, err := apst.ParseMicroseconds(v)
		if err != nil {
			return Goal{}, fmt.Errorf("%w: %q: %w", ErrGoal, s, err)
		}
		return Goal{Kind: GoalStall, Stall: d}, nil
	case "bar":
		var set apst.States
		if err := set.UnmarshalText([]byte(v)); err != nil {
			return Goal{}, fmt.Errorf("%w: %q: want a state 0..31 (4 or ps4) or a comma list: %w", ErrGoal, s, err)
		}
		if set == 0 {
			return Goal{}, fmt.Errorf("%w: %q: want a state 0..31 (4 or ps4) or a comma list", ErrGoal, s)
		}
		return Goal{Kind: GoalBar, Bar: set}, nil
	case "power":
		uw, err := parseMicroWatts(v)
		if err != nil {
			return Goal{}, fmt.Errorf("%w: %q: %w", ErrGoal, s, err)
		}
		return Goal{Kind: GoalPower, Power: uw}, nil
	}
	return Goal{}, fmt.Errorf("%w: %q: want a bound, stall=DURATION, bar=psN, power=10mW or deepest", ErrGoal, s)
}

// parseMicroWatts reads "10mW", "0.07W" or "70000uW".
func parseMicroWatts(s string) (apst.MicroWatts, error) {
	var mul float64
	num := s
	switch {
	case strings.HasSuffix(s, "mW"):
		mul, num = 1e3, strings.TrimSuffix(s, "mW")
	case strings.HasSuffix(s, "uW"):
		mul, num = 1, strings.TrimSuffix(s, "uW")
	case strings.HasSuffix(s, "W"):
		mul, num = 1e6, strings.TrimSuffix(s, "W")
	default:
		return 0, errors.New("want a power with its unit: 10mW, 0.01W")
	}
	// A plain decimal only: ParseFloat also takes NaN, Inf, hex floats
	// and digit separators, which no power is written as (NaN passed every
	// range test and read as a goal no bound meets: APST off).
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || !plainDecimal(num) || !(f >= 0 && f*mul <= 1e12) {
		return 0, errors.New("want a power from 0 to 1000000W with its unit, as a decimal number: 10mW, 0.01W")
	}
	return apst.MicroWatts(f*mul + 0.5), nil
}

// plainDecimal reports whether s is digits with at most one decimal point
// among them ("10", "0.01", "5."): no sign, exponent or other spelling.
func plainDecimal(s string) bool {
	digits, point := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !point:
			point = true
		default:
			return false
		}
	}
	return digits > 0
}

// String writes the goal as ParseGoal reads it.
func (g Goal) String() string {
	switch g.Kind {
	case GoalBound:
		return toleranceOf(g.Bound).String()
	case GoalStall:
		return "stall=" + g.Stall.String()
	case GoalBar:
		return "bar=" + g.Bar.String()
	case GoalPower:
		// 'f', never an exponent: ParseGoal reads a plain decimal.
		return "power=" + strconv.FormatFloat(g.Power.MilliWatts(), 'f', -1, 64) + "mW"
	case GoalDeepest:
		return "deepest"
	}
	return "unset"
}

// Answer is the bound Resolve chose for a goal, and where it takes an idle
// controller.
//
// The zero Answer chose no bound: it holds the zero Goal, which Resolve
// refuses, and the zero Choice, whose Tolerance is unset (not 0). Resolve
// returns it when it cannot sweep the bounds.
type Answer struct {
	// Goal is the goal resolved.
	Goal Goal
	// Choice is the bound chosen, the range of bounds with the same table
	// and the rule.
	Choice Choice
	// Reach is where the chosen bound takes an idle controller.
	Reach analysis.Reach
	// MaxPower is the deepest reachable state's max power.
	MaxPower apst.MicroWatts
}

// Resolve chooses the bound that meets goal g on controller c under
// parameters p. It is the bound itself for GoalBound (NoLimit for a bound above
// MaxValue, which is written "any"); for the others the range
// analysis.Recommend (stall, bar) or the sweep (power, deepest) gives, and
// one value in it by Choose. Errors wrap ErrGoal when no bound meets the
// goal while reaching a non-operational state, and wrap Sweep's for a nil
// controller or invalid parameters (apst.ErrNilController,
// apst.ErrUnknownGeneration, zero Params included).
func Resolve(c *powerstate.Controller, p apst.Params, g Goal) (Answer, error) {
	sw, err := analysis.Sweep(c, p)
	if err != nil {
		return Answer{}, fmt.Errorf("persist: resolve: %w", err)
	}
	ans := Answer{Goal: g}
	var ranges []analysis.BoundRange
	limit := apst.NoLimit
	switch g.Kind {
	case GoalBound:
		// A bound above MaxValue is written "any", which the kernel stores
		// as NoLimit: the answer is NoLimit's.
		b := g.Bound
		if b > MaxValue {
			b = apst.NoLimit
		}
		iv := sw.At(b)
		ans.Choice = Choice{Bound: b, Range: analysis.BoundRange{Min: iv.Min, Max: iv.Max}, Rule: RuleGiven, Why: "given"}
		ans.Reach = iv.Reach
		ans.MaxPower = maxPower(c, iv.Reach.Deepest)
		return ans, nil
	case GoalStall, GoalBar:
		ag := analysis.BarGoal()
		if g.Kind == GoalStall {
			ag, limit = analysis.StallGoal(g.Stall), g.Stall
		} else {
			ag.Bar = g.Bar
		}
		rec, err := analysis.Recommend(c, p, ag)
		if err != nil {
			return ans, err
		}
		if !rec.Possible {
			return ans, fmt.Errorf("%w: %s: %s", ErrGoal, g, strings.Join(rec.Why, "; "))
		}
		ranges = rec.Recommended
	case GoalPower, GoalDeepest:
		ranges = bestByPower(c, &sw, g)
		if len(ranges) == 0 {
			return ans, fmt.Errorf("%w: %s: no bound reaches a non-operational state with that max power", ErrGoal, g)
		}
	default:
		if g.Kind == 0 {
			return ans, fmt.Errorf("%w: unset goal", ErrGoal)
		}
		return ans, fmt.Errorf("%w: unknown goal kind %d", ErrGoal, g.Kind)
	}
	ch, err := Choose(ranges, p.Bound, limit)
	if err != nil {
		return ans, err
	}
	ans.Choice = ch
	ans.Reach = sw.At(ch.Bound).Reach
	ans.MaxPower = maxPower(c, ans.Reach.Deepest)
	return ans, nil
}

// bestByPower is the ranges of the intervals that reach a non-operational
// state within the power goal (the lowest power reached at any bound for
// GoalDeepest) with the smallest worst exit latency.
func bestByPower(c *powerstate.Controller, sw *analysis.BoundSweep, g Goal) []analysis.BoundRange {
	limit := g.Power
	if g.Kind == GoalDeepest {
		limit = math.MaxInt64
		for i := range sw.Intervals {
			r := &sw.Intervals[i].Reach
			if r.States&^1 != 0 {
				limit = min(limit, maxPower(c, r.Deepest))
			}
		}
	}
	best := -1
	for i := range sw.Intervals {
		r := &sw.Intervals[i].Reach
		if r.States&^1 == 0 || maxPower(c, r.Deepest) > limit {
			continue
		}
		if best < 0 || r.WorstExitLatency < sw.Intervals[best].Reach.WorstExitLatency {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	var out []analysis.BoundRange
	b := &sw.Intervals[best].Reach
	for i := range sw.Intervals {
		iv := &sw.Intervals[i]
		if iv.Reach.Deepest == b.Deepest && iv.Reach.WorstExitLatency == b.WorstExitLatency && iv.Reach.States&^1 != 0 {
			if n := len(out); n > 0 && out[n-1].Max != apst.NoLimit && out[n-1].Max+1 == iv.Min {
				out[n-1].Max = iv.Max
			} else {
				out = append(out, analysis.BoundRange{Min: iv.Min, Max: iv.Max})
			}
		}
	}
	return out
}

// maxPower is state s's max power.
func maxPower(c *powerstate.Controller, s uint8) apst.MicroWatts {
	return apst.MicroWatts(c.PowerStates[s].MaxPower.MicroWatts())
}
