package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
)

type recommendRangeJSON struct {
	MinUS uint64 `json:"min_us"`
	MaxUS uint64 `json:"max_us"`
}

type recommendCurrentJSON struct {
	BoundUS            uint64   `json:"bound_us"`
	Meets              bool     `json:"meets"`
	DeepestState       int      `json:"deepest_state"`
	WorstExitLatencyUS uint64   `json:"worst_exit_latency_us"`
	ReachableStates    []int    `json:"reachable_states"`
	Why                []string `json:"why"`
}

type recommendJSON struct {
	MaxStallUS         *uint64              `json:"max_stall_us"`
	BarStates          []int                `json:"bar_states"`
	Possible           bool                 `json:"possible"`
	Acceptable         []recommendRangeJSON `json:"acceptable"`
	Recommended        []recommendRangeJSON `json:"recommended"`
	DeepestState       *int                 `json:"deepest_state"`
	WorstExitLatencyUS *uint64              `json:"worst_exit_latency_us"`
	Kept               []int                `json:"kept"`
	GivenUp            []int                `json:"given_up"`
	Why                []string             `json:"why"`
	Current            recommendCurrentJSON `json:"current"`
}

func rangesJSON(rs []analysis.BoundRange) []recommendRangeJSON {
	out := []recommendRangeJSON{}
	for _, r := range rs {
		out = append(out, recommendRangeJSON{MinUS: uint64(r.Min), MaxUS: uint64(r.Max)})
	}
	return out
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

// parseBarStates reads --bar-state: "4", "ps4" or a comma list "ps3,ps4".
func parseBarStates(s string) (apst.States, error) {
	var set apst.States
	if err := set.UnmarshalText([]byte(s)); err != nil || set == 0 {
		return 0, fmt.Errorf("--bar-state %q: want a state number 0..31 (4 or ps4), or a comma list", s)
	}
	return set, nil
}

// runRecommend is "apstctl recommend": the bounds that meet a stall limit or
// bar a state.
func runRecommend(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := newAnalysisCommand("recommend", "[flags] CAPTURE (--max-stall 25ms | --bar-state N)",
		"Finds the bounds ps_max_latency_us that keep every state the table can reach within a stall limit\n"+
			"(--max-stall, --max-stall-us) and/or never reach a state (--bar-state), the best of them, what\n"+
			"they give up, and whether the bound of the other flags (default 100000) meets the goal.",
		stderr)
	maxStall := a.fs.String("max-stall", "", "largest wake stall accepted, as a duration (25ms) or us")
	maxStallUS := a.fs.String("max-stall-us", "", "largest wake stall accepted, in us")
	bar := a.fs.String("bar-state", "", "a state that must never be reached: 4, ps4 or a list ps3,ps4")
	c, p, code, ok := a.parse(args, stdin)
	if !ok {
		return code
	}
	goal := analysis.Goal{MaxStall: apst.NoLimit}
	switch {
	case *maxStall != "" && *maxStallUS != "":
		return a.fail(errors.New("give only one of --max-stall and --max-stall-us"))
	case *maxStall != "" || *maxStallUS != "":
		s, name := *maxStall, "--max-stall"
		if s == "" {
			s, name = *maxStallUS, "--max-stall-us"
		}
		v, err := apst.ParseMicroseconds(s)
		if err != nil {
			return a.fail(fmt.Errorf("%s: %w", name, err))
		}
		goal.MaxStall = v
	}
	if *bar != "" {
		set, err := parseBarStates(*bar)
		if err != nil {
			return a.fail(err)
		}
		goal.Bar = set
	}
	if goal.MaxStall == apst.NoLimit && goal.Bar == 0 {
		return a.fail(errors.New("give a goal: --max-stall, --max-stall-us or --bar-state"))
	}
	rec, err := analysis.Recommend(c, p, goal)
	if err != nil {
		return a.fail(err)
	}
	if *a.format == "json" {
		out := recommendJSON{
			BarStates: stateList(goal.Bar), Possible: rec.Possible,
			Acceptable: rangesJSON(rec.Acceptable), Recommended: rangesJSON(rec.Recommended),
			Kept: stateList(rec.Kept), GivenUp: stateList(rec.GivenUp), Why: rec.Why,
			Current: recommendCurrentJSON{
				BoundUS: uint64(rec.Current.Bound), Meets: rec.Current.Meets,
				DeepestState: int(rec.Current.Reach.Deepest), WorstExitLatencyUS: uint64(rec.Current.Reach.WorstExitLatency),
				ReachableStates: stateList(rec.Current.Reach.States), Why: rec.Current.Why,
			},
		}
		if goal.MaxStall != apst.NoLimit {
			v := uint64(goal.MaxStall)
			out.MaxStallUS = &v
		}
		if rec.Possible {
			d, w := int(rec.Reach.Deepest), uint64(rec.Reach.WorstExitLatency)
			out.DeepestState, out.WorstExitLatencyUS = &d, &w
		}
		if out.Why == nil {
			out.Why = []string{}
		}
		if out.Current.Why == nil {
			out.Current.Why = []string{}
		}
		return a.writeJSON(stdout, out)
	}

	fmt.Fprintln(stdout, describeController(c))
	fmt.Fprintln(stdout, describeParamsNoBound(&p))
	fmt.Fprintln(stdout, "goal:", goal)
	fmt.Fprintln(stdout)
	verdict := "does not meet the goal"
	if rec.Current.Meets {
		verdict = "meets the goal"
	}
	fmt.Fprintf(stdout, "bound %s %s: deepest reachable ps%d, worst exit latency %s\n",
		rec.Current.Bound, verdict, rec.Current.Reach.Deepest, rec.Current.Reach.WorstExitLatency)
	for _, w := range rec.Current.Why {
		fmt.Fprintln(stdout, "  "+w)
	}
	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout, "bounds that meet the goal (us):", joinRanges(rec.Acceptable))
	if rec.Possible {
		fmt.Fprintf(stdout, "recommended (deepest reachable ps%d, worst exit latency %s): %s\n",
			rec.Reach.Deepest, rec.Reach.WorstExitLatency, joinRanges(rec.Recommended))
		fmt.Fprintln(stdout, "keeps:", rec.Kept.String(), "  gives up:", rec.GivenUp.String())
	} else {
		fmt.Fprintln(stdout, "no bound meets the goal while reaching a non-operational state")
	}
	for _, w := range rec.Why {
		fmt.Fprintln(stdout, "note:", w)
	}
	return exitOK
}
