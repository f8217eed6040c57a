package analysis

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// ErrZeroGoal is returned by Recommend for a Goal whose MaxStall is 0 but
// that StallGoal did not make: the zero Goal{}, or a literal such as
// Goal{Bar: ...} that leaves MaxStall out. Taken literally it would ask for
// a 0 µs worst stall, which is rarely what was meant.
var ErrZeroGoal = errors.New("analysis: goal has MaxStall 0 and was not made by StallGoal")

// Goal is what a user asks of the bound: a largest acceptable wake stall
// (µs of advertised EXLAT), states that must never be reached, or both.
//
// Build goals with StallGoal or BarGoal and combine them by setting the
// other field (g := StallGoal(25000); g.Bar = apst.StatesOf(4)). The zero
// Goal is rejected by Recommend (ErrZeroGoal), as is any Goal with MaxStall
// 0 that StallGoal(0) did not make, because a forgotten MaxStall would
// otherwise read as a 0 µs stall limit.
type Goal struct {
	// MaxStall is the largest worst-case exit latency accepted (compared with
	// Reach.WorstExitLatency, the advertised EXLAT); NoLimit accepts any.
	MaxStall apst.Microseconds
	// Bar is a set of states (bit n = state n) the table must not reach.
	Bar apst.States

	// made reports that StallGoal or BarGoal built the goal, so that a
	// MaxStall of 0 is meant.
	made bool
}

// StallGoal asks for every reachable state's exit latency to be at most max
// (µs); StallGoal(0) accepts only states that advertise an exit latency of 0.
func StallGoal(max apst.Microseconds) Goal { return Goal{MaxStall: max, made: true} }

// BarGoal asks for the given states never to be reached, keeping as much of
// the shallower ones as possible, with no stall limit (MaxStall NoLimit);
// BarGoal() with no states accepts every bound. State 0, where every idle
// period starts, cannot be barred. States above 31, which no controller
// has, are ignored, as apst.StatesOf ignores them.
func BarGoal(states ...uint8) Goal {
	return Goal{MaxStall: apst.NoLimit, Bar: apst.StatesOf(states...), made: true}
}

// validate rejects the goals ErrZeroGoal describes.
func (g Goal) validate() error {
	if g.MaxStall == 0 && !g.made {
		return fmt.Errorf("%w: build it with analysis.StallGoal or analysis.BarGoal (StallGoal(0) for a 0us stall limit)", ErrZeroGoal)
	}
	return nil
}

// String describes the goal, e.g. "exit latency <= 25000us, bar ps4"
// (MaxStall is a limit on the advertised exit latency).
func (g Goal) String() string {
	var parts []string
	if g.MaxStall != apst.NoLimit {
		parts = append(parts, "exit latency <= "+g.MaxStall.String())
	}
	if g.Bar != 0 {
		parts = append(parts, "bar "+g.Bar.String())
	}
	if len(parts) == 0 {
		return "any bound"
	}
	return strings.Join(parts, ", ")
}

// meets reports whether an interval satisfies the goal.
func (g Goal) meets(r *Reach) bool {
	return r.WorstExitLatency <= g.MaxStall && r.States&g.Bar == 0
}

// BoundRange is a range of bounds, both ends included.
//
// The zero BoundRange is the range of bound 0 alone (Contains(0) is true),
// written "0..0".
type BoundRange struct {
	Min, Max apst.Microseconds
}

// Contains reports whether b lies in the range.
func (r BoundRange) Contains(b apst.Microseconds) bool { return r.Min <= b && b <= r.Max }

// String formats the range as "1000..4999" (microseconds; "unlimited" for
// NoLimit).
func (r BoundRange) String() string {
	hi := strconv.FormatUint(uint64(r.Max), 10)
	if r.Max == apst.NoLimit {
		hi = "unlimited"
	}
	return strconv.FormatUint(uint64(r.Min), 10) + ".." + hi
}

// BoundCheck is the verdict on one bound.
//
// The zero BoundCheck checked nothing: bound 0, Meets false, the zero Reach
// and no Why; it is the Current of what Recommend returns with an error.
type BoundCheck struct {
	// Bound is the bound checked (the Params' Bound).
	Bound apst.Microseconds
	// Meets reports whether the bound meets the goal.
	Meets bool
	// Reach is where the bound's table takes an idle controller.
	Reach Reach
	// Why explains the verdict in the kernel's terms, one sentence per
	// point, e.g. "ps4 is reachable: its exit latency 5000us is within the
	// bound 5500us (the kernel compares the bound with EXLAT alone; ENLAT+EXLAT
	// is 6000us)".
	Why []string
}

// Recommendation is the answer of Recommend.
//
// The zero Recommendation recommends nothing: no acceptable or recommended
// range, Possible false, the zero BoundSweep and the zero Goal, which
// Recommend refuses (ErrZeroGoal). With an error Recommend returns one that
// holds only the Goal given.
type Recommendation struct {
	// Goal is the goal as given.
	Goal Goal
	// Sweep is the partition of the bound range the answer is read from.
	Sweep BoundSweep
	// Acceptable lists the maximal bound ranges that meet the goal, bound 0
	// (APST off) included when it does.
	Acceptable []BoundRange
	// Possible reports whether some acceptable bound lets the controller
	// reach a non-operational state at all (a bound that meets the goal only
	// by doing nothing does not count).
	Possible bool
	// Recommended lists the ranges of the acceptable bounds that reach the
	// deepest state (and, among those, the smallest worst exit latency): any
	// bound in them is the best answer. Empty when !Possible.
	Recommended []BoundRange
	// Reach is where a recommended bound takes an idle controller.
	Reach Reach
	// Kept is the set of states a recommended bound reaches besides state 0.
	Kept apst.States
	// GivenUp is the set of states some bound would reach that a recommended
	// bound does not: what the goal costs.
	GivenUp apst.States
	// Why explains, when !Possible, why no bound meets the goal while
	// reaching a non-operational state (for example a shallower state whose
	// exit latency is not below the barred one's); it may also hold notes
	// when Possible (a barred state that no bound reaches anyway).
	Why []string
	// Current is the verdict on the bound of the Params given.
	Current BoundCheck
}

// Recommend answers "which bounds meet this goal?" for controller c under
// parameters p. It gives the ranges of ps_max_latency_us values that keep
// every reachable state's exit latency within Goal.MaxStall and reach none
// of Goal.Bar, the best of them (the deepest reachable state), what they
// give up, why no useful bound exists when none does, and the verdict on
// p's own bound.
//
// For "bar state N" this is the exact range that excludes N and keeps the
// shallower states: on the SK hynix PC401 (ps3 ENLAT/EXLAT 1000/1000 µs,
// ps4 1000/5000 µs) barring ps4 answers 1000..4999, and a bound of 5500 keeps
// ps4, because the kernel compares the bound with the exit latency alone.
// When every shallower state that could be reached has an exit latency at
// least the barred state's, no bound bars it without barring them, and Why
// says so.
//
// The answer is read from Sweep, so it is exact over the whole u64 range.
// Errors: ErrZeroGoal for a goal StallGoal or BarGoal did not make whose
// MaxStall is 0 (the zero Goal), and what Sweep returns (nil controller,
// invalid parameters).
func Recommend(c *powerstate.Controller, p apst.Params, g Goal) (Recommendation, error) {
	rec := Recommendation{Goal: g}
	if err := g.validate(); err != nil {
		return rec, err
	}
	sw, err := Sweep(c, p)
	if err != nil {
		return rec, err
	}
	rec.Sweep = sw
	mode := p.Mode()

	var everReached apst.States
	best := -1
	for i := range sw.Intervals {
		iv := &sw.Intervals[i]
		everReached |= iv.Reach.States
		if !g.meets(&iv.Reach) {
			continue
		}
		rec.Acceptable = appendRange(rec.Acceptable, iv.Min, iv.Max)
		if iv.Reach.States&^1 == 0 {
			continue // reaches nothing beyond the starting state
		}
		if best < 0 || better(&iv.Reach, &sw.Intervals[best].Reach) {
			best = i
		}
	}
	everReached &^= 1

	if best >= 0 {
		rec.Possible = true
		rec.Reach = sw.Intervals[best].Reach
		rec.Kept = rec.Reach.States &^ 1
		rec.GivenUp = everReached &^ rec.Reach.States
		for i := range sw.Intervals {
			iv := &sw.Intervals[i]
			if g.meets(&iv.Reach) && iv.Reach.Deepest == rec.Reach.Deepest &&
				iv.Reach.WorstExitLatency == rec.Reach.WorstExitLatency && iv.Reach.States&^1 != 0 {
				rec.Recommended = appendRange(rec.Recommended, iv.Min, iv.Max)
			}
		}
	} else {
		rec.GivenUp = everReached
		rec.Why = whyImpossible(c, mode, &sw, g, everReached)
	}
	if g.Bar&1 != 0 {
		rec.Why = append(rec.Why, "ps0 is where every idle period starts: no bound bars it")
	}
	for s := 1; s < apst.Entries; s++ {
		if g.Bar&(1<<s) != 0 && everReached&(1<<s) == 0 {
			rec.Why = append(rec.Why, fmt.Sprintf("ps%d is not reached at any bound under these parameters (%s at bound unlimited)",
				s, sw.Intervals[len(sw.Intervals)-1].Plan.Reasons[s]))
		}
	}
	rec.Current = checkBound(c, mode, &sw, g, p.Bound)
	return rec, nil
}

// better reports whether reach a is a better recommendation than b: a deeper
// final state, then a smaller worst exit latency.
func better(a, b *Reach) bool {
	if a.Deepest != b.Deepest {
		return a.Deepest > b.Deepest
	}
	return a.WorstExitLatency < b.WorstExitLatency
}

func appendRange(rs []BoundRange, lo, hi apst.Microseconds) []BoundRange {
	if n := len(rs); n > 0 && rs[n-1].Max != apst.NoLimit && rs[n-1].Max+1 == lo {
		rs[n-1].Max = hi
		return rs
	}
	return append(rs, BoundRange{Min: lo, Max: hi})
}

// gateWords describes how the bound gates state d in mode m.
func gateWords(d *powerstate.Descriptor, m apst.Mode) (what string, gate uint64, other string) {
	if m == apst.ModeHeuristicTotalGate {
		return "entry+exit latency", d.TotalLatency(),
			fmt.Sprintf("the v4.11 kernel compares the bound with ENLAT+EXLAT; EXLAT alone is %dus", d.ExitLatency)
	}
	return "exit latency", uint64(d.ExitLatency),
		fmt.Sprintf("the kernel compares the bound with EXLAT alone; ENLAT+EXLAT is %dus", d.TotalLatency())
}

func checkBound(c *powerstate.Controller, m apst.Mode, sw *BoundSweep, g Goal, b apst.Microseconds) BoundCheck {
	iv := sw.At(b)
	bc := BoundCheck{Bound: b, Reach: iv.Reach, Meets: g.meets(&iv.Reach)}
	for s := range apst.Entries {
		if g.Bar&(1<<s) == 0 {
			continue
		}
		d := &c.PowerStates[s]
		what, gate, other := gateWords(d, m)
		if iv.Reach.States&(1<<s) != 0 {
			bc.Why = append(bc.Why, fmt.Sprintf("ps%d is reachable at bound %s: its %s %dus is within the bound (%s)",
				s, b, what, gate, other))
		} else {
			bc.Why = append(bc.Why, fmt.Sprintf("ps%d is not reachable at bound %s (%s)", s, b, iv.Plan.Reasons[s]))
		}
	}
	if g.MaxStall != apst.NoLimit {
		if iv.Reach.WorstExitLatency > g.MaxStall {
			bc.Why = append(bc.Why, fmt.Sprintf("ps%d is reachable at bound %s and its exit latency %s exceeds the exit-latency limit %s",
				iv.Reach.WorstExitState, b, iv.Reach.WorstExitLatency, g.MaxStall))
		} else {
			bc.Why = append(bc.Why, fmt.Sprintf("the worst exit latency at bound %s is %s, within the exit-latency limit %s",
				b, iv.Reach.WorstExitLatency, g.MaxStall))
		}
	}
	if !iv.Plan.Enabled {
		bc.Why = append(bc.Why, fmt.Sprintf("APST is off at bound %s (%s)", b, iv.Plan.Outcome))
	}
	return bc
}

// whyImpossible explains why no acceptable bound reaches a non-operational
// state.
func whyImpossible(c *powerstate.Controller, m apst.Mode, sw *BoundSweep, g Goal, everReached apst.States) []string {
	if everReached == 0 {
		return []string{"no bound lets the controller reach a non-operational state under these parameters"}
	}
	var why []string
	if g.MaxStall != apst.NoLimit {
		lowest := apst.NoLimit
		state := -1
		for i := range sw.Intervals {
			r := &sw.Intervals[i].Reach
			if r.WorstExitState >= 0 && r.WorstExitLatency < lowest {
				lowest, state = r.WorstExitLatency, r.WorstExitState
			}
		}
		if state >= 0 && lowest > g.MaxStall {
			why = append(why, fmt.Sprintf("every bound that reaches a non-operational state has a worst exit latency of at least %s (ps%d), above the exit-latency limit %s",
				lowest, state, g.MaxStall))
		}
	}
	for n := range apst.Entries {
		if g.Bar&(1<<n) == 0 || everReached&(1<<n) == 0 {
			continue
		}
		dn := &c.PowerStates[n]
		what, gn, _ := gateWords(dn, m)
		var blockers []string
		others := 0
		for s := range n {
			ds := &c.PowerStates[s]
			if !ds.NonOperational {
				continue
			}
			if _, gs, _ := gateWords(ds, m); gs >= gn {
				blockers = append(blockers, fmt.Sprintf("ps%d (%dus)", s, gs))
			} else {
				others++
			}
		}
		switch {
		case len(blockers) == 0 && others == 0:
			why = append(why, fmt.Sprintf("no non-operational state is shallower than ps%d, and no bound reaches a deeper one without ps%d", n, n))
		case others == 0:
			why = append(why, fmt.Sprintf("ps%d's %s is %dus, and every shallower non-operational state has one at least as large: %s; a bound that admits them admits ps%d, which then takes over",
				n, what, gn, strings.Join(blockers, ", "), n))
		default:
			why = append(why, fmt.Sprintf("whenever a state shallower than ps%d is reachable, so is ps%d", n, n))
		}
	}
	if len(why) == 0 {
		why = append(why, "no bound meets the goal while reaching a non-operational state")
	}
	return why
}
