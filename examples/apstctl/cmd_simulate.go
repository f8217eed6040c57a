package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
)

type simulateStepJSON struct {
	State         int     `json:"state"`
	FromUS        uint64  `json:"from_us"`
	ExitLatencyUS uint64  `json:"exit_latency_us"`
	MaxPowerW     float64 `json:"max_power_w"`
}

type simulateWakeJSON struct {
	GapUS         uint64 `json:"gap_us"`
	State         int    `json:"state"`
	ExitLatencyUS uint64 `json:"exit_latency_us"`
	PenaltyUS     uint64 `json:"penalty_us"`
}

type simulateStateJSON struct {
	State       int    `json:"state"`
	Wakes       uint64 `json:"wakes"`
	ResidencyUS uint64 `json:"residency_us"`
}

type simulateSummaryJSON struct {
	Source            string              `json:"source"`
	Gaps              uint64              `json:"gaps"`
	TotalIdleUS       uint64              `json:"total_idle_us"`
	P50US             uint64              `json:"p50_us"`
	P90US             uint64              `json:"p90_us"`
	P99US             uint64              `json:"p99_us"`
	MaxUS             uint64              `json:"max_us"`
	AverageIdlePowerW float64             `json:"average_idle_power_w"`
	States            []simulateStateJSON `json:"states"`
}

type simulateJSON struct {
	Sent         bool                 `json:"sent"`
	Enabled      bool                 `json:"enabled"`
	MaxPS        int                  `json:"max_ps"`
	Entries      tableJSON            `json:"entries"`
	ExitFactor   string               `json:"exit_factor"`
	CPUWakeUS    uint64               `json:"cpu_wake_us"`
	Timeline     []simulateStepJSON   `json:"timeline"`
	Wakes        []simulateWakeJSON   `json:"wakes"`
	Summary      *simulateSummaryJSON `json:"summary,omitempty"`
	BreakEvenUS  map[string]uint64    `json:"break_even_us"`
	Params       paramsJSON           `json:"params"`
	Description  string               `json:"description"`
	Capture      captureJSON          `json:"capture"`
	CaptureNotes []string             `json:"capture_notes"`
	Assumptions  assumptionsJSON      `json:"assumptions"`
}

func simulateCommand() *command {
	fs := newFlagSet("simulate")
	pf := addPlanFlags(fs)
	format := addOutputFormat(fs)
	var gapList []string
	fs.Func("gap", "DURATION", "an idle gap with its unit (150us, 25ms, 3s): the wake after it (repeat)", func(s string) error {
		gapList = append(gapList, s)
		return nil
	})
	gapsSpec := fs.String("gaps", "SPEC", "", "gaps to summarise: a comma list of durations with their units, or fixed:D, uniform:D1..D2, exp:D (exp:10s)")
	count := fs.String("count", "N", "10000", "number of gaps to draw from a --gaps distribution")
	seed := fs.String("seed", "N", "1", "seed of the PCG source for a --gaps distribution")
	wf := addWakeFlags(fs)
	c := &command{
		name:      "simulate",
		usageLine: "simulate [flags] CAPTURE [--gap D]... [--gaps SPEC]",
		short:     "idle timeline, wake penalties and idle power",
		long: `
Shows the idle timeline of the table the kernel programs (ITPT counts idle time in the current
state), the state and exit latency the first command after a gap meets (--gap), and over many gaps
(--gaps: a list like 10ms,200ms,3s, or fixed:D, uniform:D1..D2, exp:D with --count and --seed) the
p50/p90/p99/max wake penalty and the average idle power (at each state's max power). Transitions
are taken as instantaneous.`,
		examples: []string{
			"simulate testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin --gap 3s",
			"simulate testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin --gaps exp:10s --exit-factor 0.78 --cpu-wake-us 150",
		},
		flags:   fs,
		minArgs: 1, maxArgs: 1,
	}
	c.run = func(ctx context.Context, x *invocation, args []string) error {
		opt, err := wf.options(ctx)
		if err != nil {
			return err
		}
		var single []apst.Microseconds
		for _, g := range gapList {
			v, err := analysis.ParseGapDuration(g)
			if err != nil {
				return usagef("--gap %s: %v", quoteArg(g), err)
			}
			single = append(single, v)
		}
		if name := fs.firstGiven("count", "seed"); name != "" && !strings.Contains(*gapsSpec, ":") {
			what := "no --gaps"
			if *gapsSpec != "" {
				what = "--gaps " + quoteArg(*gapsSpec) + " (a list)"
			}
			return usagef("--%s draws gaps from a --gaps distribution (fixed:D, uniform:D1..D2, exp:D); with %s it would be ignored", name, what)
		}
		n, err := strconv.Atoi(*count)
		if err != nil || n <= 0 || n > analysis.MaxGapDraws {
			return usagef("--count %s: want 1 to %d", quoteArg(*count), analysis.MaxGapDraws)
		}
		sd, err := strconv.ParseUint(*seed, 10, 64)
		if err != nil {
			return usagef("--seed %s: want an unsigned 64-bit number", quoteArg(*seed))
		}
		var drawn analysis.DrawnGaps
		if *gapsSpec != "" {
			if drawn, err = analysis.DrawGaps(*gapsSpec, n, sd); err != nil {
				return usagef("--gaps %s: %v", quoteArg(*gapsSpec), err)
			}
		}
		gaps, source := drawn.Gaps, drawn.Source()
		ctl, p, err := pf.loadWithParams(args[0], x.stdin)
		if err != nil {
			return err
		}
		plan, err := apst.Build(ctl, p)
		if err != nil {
			return inputErr(err)
		}
		a := plan.Assumptions(ctl)
		tl := analysis.IdleTimeline(ctl, &plan.Table, 0)
		var sim *analysis.Simulation
		if len(gaps) > 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			s, err := analysis.Simulate(ctl, &plan.Table, gaps, opt)
			if err != nil {
				return usagef("--gaps: %v", err)
			}
			sim = &s
		}
		if format.json {
			out := simulateJSON{
				Sent: plan.Sent, Enabled: plan.Enabled, MaxPS: plan.MaxPS, Entries: tableJSON(plan.Table),
				ExitFactor: opt.ExitFactor.String(), CPUWakeUS: uint64(opt.CPUWake), Params: paramsView(&p),
				Timeline: []simulateStepJSON{}, Wakes: []simulateWakeJSON{},
				BreakEvenUS: breakEvenByState(ctl, &plan),
				Description: "transitions are instantaneous; power is each state's max power (MP)",
				Capture:     captureView(ctl), CaptureNotes: captureNotesView(ctl),
				Assumptions: assumptionsView(&a),
			}
			for _, st := range tl {
				out.Timeline = append(out.Timeline, simulateStepJSON{State: int(st.State), FromUS: uint64(st.From),
					ExitLatencyUS: uint64(st.ExitLatency), MaxPowerW: float64(st.MaxPower.MicroWatts()) / 1e6})
			}
			for _, g := range single {
				w := tl.WakeAfter(g, opt)
				out.Wakes = append(out.Wakes, simulateWakeJSON{GapUS: uint64(g), State: int(w.State),
					ExitLatencyUS: uint64(w.ExitLatency), PenaltyUS: uint64(w.Penalty)})
			}
			if sim != nil {
				sj := &simulateSummaryJSON{Source: source, Gaps: sim.Count, TotalIdleUS: uint64(sim.TotalIdle),
					P50US: uint64(sim.P50), P90US: uint64(sim.P90), P99US: uint64(sim.P99), MaxUS: uint64(sim.Max),
					AverageIdlePowerW: float64(sim.AverageIdlePower) / 1e6, States: []simulateStateJSON{}}
				for _, st := range stateList(tl.States()) {
					sj.States = append(sj.States, simulateStateJSON{State: st, Wakes: sim.Wakes[st], ResidencyUS: uint64(sim.Residency[st])})
				}
				out.Summary = sj
			}
			return writeJSON(x.out, out)
		}
		w := x.out
		fmt.Fprintln(w, describeController(ctl))
		fmt.Fprintln(w, describeParams(&p))
		fmt.Fprintln(w, describeOutcome(&plan))
		writeCaptureNotes(w, ctl)
		writeAssumptions(w, &a)
		if !opt.ExitFactor.IsOne() || opt.CPUWake != 0 {
			fmt.Fprintf(w, "exit latencies scaled by %s, CPU wake %s added to every wake\n", opt.ExitFactor, opt.CPUWake)
		}
		fmt.Fprintln(w, "\nidle timeline (ITPT counts idle time in the current state):")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  from idle\tstate\tmax power\twake penalty")
		for _, st := range tl {
			wk := tl.WakeAfter(st.From, opt)
			fmt.Fprintf(tw, "  %s\tps%d\t%s\t%s\n", durationText(st.From.Duration()), st.State, st.MaxPower, wk.Penalty)
		}
		tw.Flush()
		fmt.Fprintln(w, "  "+breakEvenText(ctl, &plan))
		for _, g := range single {
			wk := tl.WakeAfter(g, opt)
			fmt.Fprintf(w, "\nafter a %s gap the next command meets ps%d: exit latency %s, penalty %s\n",
				durationText(g.Duration()), wk.State, wk.ExitLatency, wk.Penalty)
		}
		if sim != nil {
			fmt.Fprintf(w, "\n%s (%s), %s idle in total:\n", plural(int(sim.Count), "gap"), source, durationText(sim.TotalIdle.Duration()))
			fmt.Fprintf(w, "  wake penalty p50 %s, p90 %s, p99 %s, max %s\n", sim.P50, sim.P90, sim.P99, sim.Max)
			fmt.Fprintf(w, "  average idle power %.4f W (time-weighted max power of the states)\n", float64(sim.AverageIdlePower)/1e6)
			for _, st := range stateList(tl.States()) {
				fmt.Fprintf(w, "  ps%d: %s, %.1f%% of the idle time\n", st, plural(int(sim.Wakes[st]), "wake"),
					100*float64(sim.Residency[st])/float64(max(uint64(sim.TotalIdle), 1)))
			}
		}
		return nil
	}
	return c
}
