package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

type recommendRangeJSON struct {
	MinUS        uint64 `json:"min_us"`
	MaxUS        uint64 `json:"max_us"`
	MaxUnlimited bool   `json:"max_unlimited"`
}

// recommendedRangeJSON is a recommended range with what it costs: the worst
// wake stall (exit latency scaled by --exit-factor, plus --cpu-wake-us) and
// the max power of the deepest state it reaches.
type recommendedRangeJSON struct {
	recommendRangeJSON
	DeepestState          int     `json:"deepest_state"`
	WorstExitLatencyUS    uint64  `json:"worst_exit_latency_us"`
	WorstWakeStallUS      uint64  `json:"worst_wake_stall_us"`
	DeepestStateMaxPowerW float64 `json:"deepest_state_max_power_w"`
}

type recommendCurrentJSON struct {
	BoundUS            uint64   `json:"bound_us"`
	BoundUnlimited     bool     `json:"bound_unlimited"`
	Meets              bool     `json:"meets"`
	DeepestState       int      `json:"deepest_state"`
	WorstExitLatencyUS uint64   `json:"worst_exit_latency_us"`
	WorstWakeStallUS   uint64   `json:"worst_wake_stall_us"`
	ReachableStates    []int    `json:"reachable_states"`
	Why                []string `json:"why"`
}

type recommendJSON struct {
	MaxStallUS         *uint64                `json:"max_stall_us"`
	MaxStallUnlimited  bool                   `json:"max_stall_unlimited"`
	ExitFactor         string                 `json:"exit_factor"`
	CPUWakeUS          uint64                 `json:"cpu_wake_us"`
	BarStates          []int                  `json:"bar_states"`
	Possible           bool                   `json:"possible"`
	Acceptable         []recommendRangeJSON   `json:"acceptable"`
	Recommended        []recommendedRangeJSON `json:"recommended"`
	DeepestState       *int                   `json:"deepest_state"`
	WorstExitLatencyUS *uint64                `json:"worst_exit_latency_us"`
	Kept               []int                  `json:"kept"`
	GivenUp            []int                  `json:"given_up"`
	Why                []string               `json:"why"`
	Current            recommendCurrentJSON   `json:"current"`
	Params             paramsJSON             `json:"params"`
	recommendedValueJSON
	Capture      captureJSON     `json:"capture"`
	CaptureNotes []string        `json:"capture_notes"`
	Assumptions  assumptionsJSON `json:"assumptions"`
}

func rangeView(r analysis.BoundRange) recommendRangeJSON {
	return recommendRangeJSON{MinUS: uint64(r.Min), MaxUS: uint64(r.Max), MaxUnlimited: r.Max == apst.NoLimit}
}

func joinRanges(rs []analysis.BoundRange) string {
	if len(rs) == 0 {
		return "none"
	}
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = r.String()
	}
	return strings.Join(parts, ", ")
}

// reachAt is where bound b takes an idle controller, read from the sweep.
func reachAt(sw *analysis.BoundSweep, b apst.Microseconds) analysis.Reach {
	for _, iv := range sw.Intervals {
		if iv.Min <= b && b <= iv.Max {
			return iv.Reach
		}
	}
	return analysis.Reach{}
}

// parseBarStates reads --bar-state: "4", "ps4" or a comma list "ps3,ps4".
func parseBarStates(s string) (apst.States, error) {
	var set apst.States
	if err := set.UnmarshalText([]byte(s)); err != nil || set == 0 {
		return 0, usagef("--bar-state %s: want a state number 0..31 (4 or ps4), or a comma list", quoteArg(s))
	}
	return set, nil
}

func recommendCommand() *command {
	fs := newFlagSet("recommend")
	pf := addPlanFlags(fs)
	format := addOutputFormat(fs)
	maxStall := fs.String("max-stall", "DURATION", "", "largest wake stall accepted, as a duration (25ms) or us")
	maxStallUS := fs.String("max-stall-us", "US", "", "largest wake stall accepted, in us")
	bar := fs.String("bar-state", "STATES", "", "a state that must never be reached: 4, ps4 or a list ps3,ps4")
	wf := addWakeFlags(fs)
	c := &command{
		name:      "recommend",
		usageLine: "recommend [flags] CAPTURE (--max-stall 25ms | --bar-state N)",
		short:     "bounds that meet a stall limit or bar a state, and what they cost",
		long: `
Finds the bounds ps_max_latency_us that keep the worst wake stall of every state the table can
reach within a limit (--max-stall, --max-stall-us; the stall is the exit latency scaled by
--exit-factor plus --cpu-wake-us, as simulate counts it) and/or never reach a state (--bar-state),
the best of them with the worst wake stall and the deepest state's max power of each, what they
give up, and whether the bound of the other flags (default 100000) meets the goal.`,
		examples: []string{
			"recommend testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin --max-stall 25ms",
			"recommend testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin --max-stall 4ms --exit-factor 0.78 --cpu-wake-us 150",
			"recommend --ps-max-latency-us 5500 testdata/corpus/binary/synthetic/SKhynix_PC401_NVMe_512GB_80003E00.id-ctrl.bin --bar-state ps4",
		},
		flags:   fs,
		minArgs: 1, maxArgs: 1,
	}
	c.run = func(ctx context.Context, x *invocation, args []string) error {
		opt, err := wf.options(ctx)
		if err != nil {
			return err
		}
		goal := analysis.BarGoal()
		// stallLimit is the stall goal when hasStall: 2^64-1 us
		// (--max-stall-us 18446744073709551615) is a goal too, one every
		// bound meets, not "no goal".
		stallLimit, hasStall := apst.NoLimit, false
		switch {
		case *maxStall != "" && *maxStallUS != "":
			return usagef("--max-stall and --max-stall-us contradict each other: each sets the stall limit; give one")
		case *maxStall != "" || *maxStallUS != "":
			s, name := *maxStall, "--max-stall"
			if s == "" {
				s, name = *maxStallUS, "--max-stall-us"
			}
			v, err := apst.ParseMicroseconds(s)
			if err != nil {
				return usagef("%s %s: %v", name, quoteArg(s), err)
			}
			if stall(opt, 0) > v {
				return usagef("%s %s: the CPU wake alone (%s) is more than that", name, s, opt.CPUWake)
			}
			stallLimit, hasStall = v, true
			goal = analysis.StallGoal(exitLatencyLimit(opt, v))
		}
		perState := opt.ExitFactor.Set != 0
		if *bar != "" {
			set, err := parseBarStates(*bar)
			if err != nil {
				return err
			}
			goal.Bar = set
		}
		if !hasStall && goal.Bar == 0 {
			return usagef("give a goal: --max-stall, --max-stall-us or --bar-state")
		}
		ctl, p, err := pf.loadWithParams(args[0], x.stdin)
		if err != nil {
			return err
		}
		var overStall apst.States // per-state factors: the states whose own stall exceeds the limit
		if perState && hasStall {
			// With a factor per state no one exit-latency limit is the
			// goal: a state is barred when its own stall exceeds the limit.
			overStall = statesOverStall(ctl, opt, stallLimit)
			userBar := goal.Bar
			goal = analysis.BarGoal()
			goal.Bar = overStall | userBar
			if goal.Bar == 0 { // every state is within the limit: the largest exit latency is
				goal = analysis.StallGoal(maxExitLatency(ctl))
			}
		}
		rec, err := analysis.Recommend(ctl, p, goal)
		if err != nil {
			return inputErr(err)
		}
		power := func(r analysis.Reach) powerstate.Power { return ctl.PowerStates[r.Deepest].MaxPower }
		value, err := chooseRecommended(ctl, &p, &rec, goal)
		if err != nil {
			return err
		}
		a := planAssumptions(ctl, p)
		if format.json {
			out := recommendJSON{
				ExitFactor: opt.ExitFactor.String(), CPUWakeUS: uint64(opt.CPUWake),
				BarStates: stateList(goal.Bar), Possible: rec.Possible,
				Acceptable: []recommendRangeJSON{}, Recommended: []recommendedRangeJSON{},
				Kept: stateList(rec.Kept), GivenUp: stateList(rec.GivenUp), Why: nonNil(rec.Why),
				Current: recommendCurrentJSON{
					BoundUS: uint64(rec.Current.Bound), BoundUnlimited: rec.Current.Bound == apst.NoLimit, Meets: rec.Current.Meets,
					DeepestState: int(rec.Current.Reach.Deepest), WorstExitLatencyUS: uint64(rec.Current.Reach.WorstExitLatency),
					WorstWakeStallUS: uint64(reachStall(ctl, opt, rec.Current.Reach)),
					ReachableStates:  stateList(rec.Current.Reach.States), Why: nonNil(rec.Current.Why),
				},
				Params: paramsView(&p), recommendedValueJSON: value.view(opt),
				Capture: captureView(ctl), CaptureNotes: captureNotesView(ctl), Assumptions: assumptionsView(&a),
			}
			for _, r := range rec.Acceptable {
				out.Acceptable = append(out.Acceptable, rangeView(r))
			}
			for _, r := range rec.Recommended {
				re := reachAt(&rec.Sweep, r.Min)
				out.Recommended = append(out.Recommended, recommendedRangeJSON{
					recommendRangeJSON: rangeView(r), DeepestState: int(re.Deepest),
					WorstExitLatencyUS: uint64(re.WorstExitLatency), WorstWakeStallUS: uint64(reachStall(ctl, opt, re)),
					DeepestStateMaxPowerW: float64(power(re).MicroWatts()) / 1e6,
				})
			}
			if hasStall {
				v := uint64(stallLimit)
				out.MaxStallUS, out.MaxStallUnlimited = &v, stallLimit == apst.NoLimit
			}
			if rec.Possible {
				d, w := int(rec.Reach.Deepest), uint64(rec.Reach.WorstExitLatency)
				out.DeepestState, out.WorstExitLatencyUS = &d, &w
			}
			return writeJSON(x.out, out)
		}

		w := x.out
		fmt.Fprintln(w, describeController(ctl))
		fmt.Fprintln(w, describeParamsBound(&p, false))
		writeCaptureNotes(w, ctl)
		writeAssumptions(w, &a)
		switch {
		case overStall != 0:
			fmt.Fprintf(w, "goal: worst wake stall <= %s with a factor per state (%s): bars %s, whose own stall is over it\n", stallLimit, opt.ExitFactor, overStall)
		case perState && hasStall:
			fmt.Fprintf(w, "goal: worst wake stall <= %s with a factor per state (%s): every state's own stall is within it\n", stallLimit, opt.ExitFactor)
		default:
			fmt.Fprintln(w, "goal:", describeGoal(goal, hasStall, stallLimit, opt))
		}
		fmt.Fprintln(w)
		verdict := "does not meet the goal"
		if rec.Current.Meets {
			verdict = "meets the goal"
		}
		fmt.Fprintf(w, "bound %s %s: deepest reachable ps%d, worst wake stall %s\n",
			rec.Current.Bound, verdict, rec.Current.Reach.Deepest, describeReachStall(ctl, opt, rec.Current.Reach))
		for _, why := range rec.Current.Why {
			fmt.Fprintln(w, "  "+why)
		}
		fmt.Fprintln(w)
		fmt.Fprintln(w, "bounds that meet the goal (us):", joinRanges(rec.Acceptable))
		if rec.Possible {
			fmt.Fprintln(w, "recommended:")
			for _, r := range rec.Recommended {
				re := reachAt(&rec.Sweep, r.Min)
				fmt.Fprintf(w, "  %s: deepest reachable ps%d (max power %s), worst wake stall %s\n",
					r, re.Deepest, power(re), describeReachStall(ctl, opt, re))
				if overStall != 0 && r.Max != apst.NoLimit {
					if setter := (reachAt(&rec.Sweep, r.Max+1).States &^ re.States) & overStall; setter != 0 {
						st := uint8(setter.Deepest())
						exlat := apst.Microseconds(ctl.PowerStates[st].ExitLatency)
						fmt.Fprintf(w, "    ps%d sets the bound: above %s it is reachable, and its stall %s (exit latency %s x %s) is over %s\n",
							st, r.Max, stateStall(opt, st, exlat), exlat, opt.ExitFactor.For(st), stallLimit)
					}
				}
			}
			fmt.Fprintln(w, "keeps:", rec.Kept.String(), "  gives up:", rec.GivenUp.String())
			value.writeText(w, &rec, opt)
		} else {
			fmt.Fprintln(w, "no bound meets the goal while reaching a non-operational state")
		}
		for _, why := range rec.Why {
			fmt.Fprintln(w, "note:", why)
		}
		return nil
	}
	return c
}

// stateStall is the wake stall of state st with advertised exit latency
// exlat: exlat scaled by the state's own factor, plus the CPU wake.
func stateStall(opt analysis.SimOptions, st uint8, exlat apst.Microseconds) apst.Microseconds {
	s := opt.ExitFactor.Apply(st, exlat)
	if s > apst.NoLimit-opt.CPUWake {
		return apst.NoLimit
	}
	return s + opt.CPUWake
}

// reachStall is the worst wake stall over the states of r, each with its
// own factor; with one factor for every state it is stall of the worst
// exit latency.
func reachStall(c *powerstate.Controller, opt analysis.SimOptions, r analysis.Reach) apst.Microseconds {
	if opt.ExitFactor.Set == 0 {
		return stall(opt, r.WorstExitLatency)
	}
	worst := stall(opt, 0)
	for st := range r.States.All() {
		if int(st) < len(c.PowerStates) {
			worst = max(worst, stateStall(opt, st, apst.Microseconds(c.PowerStates[st].ExitLatency)))
		}
	}
	return worst
}

// describeReachStall is reachStall as describeStall writes it.
func describeReachStall(c *powerstate.Controller, opt analysis.SimOptions, r analysis.Reach) string {
	if opt.ExitFactor.Set == 0 {
		return describeStall(opt, r.WorstExitLatency)
	}
	return fmt.Sprintf("%s (worst exit latency %s; a factor per state)", reachStall(c, opt, r), r.WorstExitLatency)
}

// maxExitLatency is the largest exit latency of c's states.
func maxExitLatency(c *powerstate.Controller) apst.Microseconds {
	var m apst.Microseconds
	for i := 0; i <= int(c.NPSS) && i < len(c.PowerStates); i++ {
		m = max(m, apst.Microseconds(c.PowerStates[i].ExitLatency))
	}
	return m
}

// statesOverStall are the non-operational states of c whose own wake stall
// (their factor, plus the CPU wake) exceeds limit.
func statesOverStall(c *powerstate.Controller, opt analysis.SimOptions, limit apst.Microseconds) apst.States {
	var out apst.States
	for i := 0; i <= int(c.NPSS) && i < len(c.PowerStates); i++ {
		d := c.PowerStates[i]
		if d.NonOperational && stateStall(opt, uint8(i), apst.Microseconds(d.ExitLatency)) > limit {
			out |= apst.StatesOf(uint8(i))
		}
	}
	return out
}

// describeGoal is the goal as the user gave it.
func describeGoal(g analysis.Goal, hasStall bool, stallLimit apst.Microseconds, opt analysis.SimOptions) string {
	var parts []string
	if hasStall {
		s := "worst wake stall <= " + stallLimit.String()
		if !opt.ExitFactor.IsOne() || opt.CPUWake != 0 {
			s += fmt.Sprintf(" (stall goal; exit latency x %s + CPU wake %s: exit-latency limit %s)", opt.ExitFactor, opt.CPUWake, g.MaxStall)
		}
		parts = append(parts, s)
	}
	if g.Bar != 0 {
		parts = append(parts, "bar "+g.Bar.String())
	}
	return strings.Join(parts, ", ")
}

// describeStall is a wake stall, with the advertised exit latency it comes
// from when --exit-factor or --cpu-wake-us changes it.
func describeStall(opt analysis.SimOptions, exlat apst.Microseconds) string {
	if opt.ExitFactor.IsOne() && opt.CPUWake == 0 {
		return exlat.String()
	}
	return fmt.Sprintf("%s (exit latency %s)", stall(opt, exlat), exlat)
}

func nonNil(ss []string) []string {
	if ss == nil {
		return []string{}
	}
	return ss
}
