package main

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
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
	Sent        bool                 `json:"sent"`
	Enabled     bool                 `json:"enabled"`
	MaxPS       int                  `json:"max_ps"`
	Entries     apst.Table           `json:"entries"`
	ExitFactor  string               `json:"exit_factor"`
	CPUWakeUS   uint64               `json:"cpu_wake_us"`
	Timeline    []simulateStepJSON   `json:"timeline"`
	Wakes       []simulateWakeJSON   `json:"wakes"`
	Summary     *simulateSummaryJSON `json:"summary,omitempty"`
	Params      apst.Params          `json:"params"`
	Description string               `json:"description"`
}

// runSimulate is "apstctl simulate": the idle timeline of the table and what
// idle gaps cost.
func runSimulate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := newAnalysisCommand("simulate", "[flags] CAPTURE",
		"Shows the idle timeline of the table the kernel programs (ITPT counts idle time in the current\n"+
			"state), the state and exit latency the first command after a gap meets (--gap), and over many gaps\n"+
			"(--gaps: a list like 10ms,200ms,3s, or fixed:D, uniform:D1..D2, exp:D with --count and --seed)\n"+
			"the p50/p90/p99/max wake penalty and the average idle power (at each state's max power).",
		stderr)
	var gapList []string
	a.fs.Func("gap", "an idle gap (150, 25ms, 3s; bare numbers are us): the wake after it (repeat)", func(s string) error {
		gapList = append(gapList, s)
		return nil
	})
	gapsSpec := a.fs.String("gaps", "", "gaps to summarise: a comma list of durations, or fixed:D, uniform:D1..D2, exp:D")
	count := a.fs.Int("count", 10000, "number of gaps to draw from a --gaps distribution")
	seed := a.fs.Uint64("seed", 1, "seed of the PCG source for a --gaps distribution")
	factorFlag := a.fs.String("exit-factor", "1", "measured/advertised factor scaling exit latencies: 0.78, 78% or 39/50")
	cpuWake := a.fs.String("cpu-wake-us", "0", "CPU wake latency added to every wake, in us (or a duration)")
	c, p, code, ok := a.parse(args, stdin)
	if !ok {
		return code
	}
	factor, err := analysis.ParseFactor(*factorFlag)
	if err != nil {
		return a.fail(fmt.Errorf("--exit-factor: %w", err))
	}
	cpu, err := apst.ParseMicroseconds(*cpuWake)
	if err != nil {
		return a.fail(fmt.Errorf("--cpu-wake-us: %w", err))
	}
	opt := analysis.SimOptions{ExitFactor: factor, CPUWake: cpu}
	var single []apst.Microseconds
	for _, g := range gapList {
		v, err := apst.ParseMicroseconds(g)
		if err != nil {
			return a.fail(fmt.Errorf("--gap: %w", err))
		}
		single = append(single, v)
	}
	var gaps []apst.Microseconds
	source := ""
	if *gapsSpec != "" {
		gaps, source, err = simulateGaps(*gapsSpec, *count, *seed)
		if err != nil {
			return a.fail(fmt.Errorf("--gaps: %w", err))
		}
	}

	plan, err := apst.Build(c, p)
	if err != nil {
		return a.fail(err)
	}
	tl := analysis.IdleTimeline(c, &plan.Table, 0)
	var sim *analysis.Simulation
	if len(gaps) > 0 {
		s, err := analysis.Simulate(c, &plan.Table, gaps, opt)
		if err != nil {
			return a.fail(fmt.Errorf("--gaps: %w", err))
		}
		sim = &s
	}

	if *a.format == "json" {
		out := simulateJSON{
			Sent: plan.Sent, Enabled: plan.Enabled, MaxPS: plan.MaxPS, Entries: plan.Table,
			ExitFactor: factor.String(), CPUWakeUS: uint64(cpu), Params: p,
			Timeline: []simulateStepJSON{}, Wakes: []simulateWakeJSON{},
			Description: "transitions are instantaneous; power is each state's max power (MP)",
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
		return a.writeJSON(stdout, out)
	}

	fmt.Fprintln(stdout, describeController(c))
	fmt.Fprintln(stdout, describeParams(&p))
	fmt.Fprintln(stdout, describeOutcome(&plan))
	if !factor.IsOne() || cpu != 0 {
		fmt.Fprintf(stdout, "exit latencies scaled by %s, CPU wake %s added to every wake\n", factor, cpu)
	}
	fmt.Fprintln(stdout, "\nidle timeline (ITPT counts idle time in the current state):")
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  from idle\tstate\tmax power\twake penalty")
	for _, st := range tl {
		w := tl.WakeAfter(st.From, opt)
		fmt.Fprintf(tw, "  %s\tps%d\t%s\t%s\n", st.From.Duration(), st.State, st.MaxPower, w.Penalty)
	}
	tw.Flush()
	for _, g := range single {
		w := tl.WakeAfter(g, opt)
		fmt.Fprintf(stdout, "\nafter a %s gap the next command meets ps%d: exit latency %s, penalty %s\n",
			g.Duration(), w.State, w.ExitLatency, w.Penalty)
	}
	if sim != nil {
		fmt.Fprintf(stdout, "\n%d gaps (%s), %s idle in total:\n", sim.Count, source, sim.TotalIdle.Duration())
		fmt.Fprintf(stdout, "  wake penalty p50 %s, p90 %s, p99 %s, max %s\n", sim.P50, sim.P90, sim.P99, sim.Max)
		fmt.Fprintf(stdout, "  average idle power %.4f W (time-weighted max power of the states)\n", float64(sim.AverageIdlePower)/1e6)
		for _, st := range stateList(tl.States()) {
			fmt.Fprintf(stdout, "  ps%d: %d wakes, %.1f%% of the idle time\n", st, sim.Wakes[st],
				100*float64(sim.Residency[st])/float64(max(uint64(sim.TotalIdle), 1)))
		}
	}
	return exitOK
}

// simulateGaps reads --gaps: a distribution (with ':') sampled count times
// from a PCG source seeded with seed, or a comma list of durations.
func simulateGaps(spec string, count int, seed uint64) ([]apst.Microseconds, string, error) {
	if strings.Contains(spec, ":") {
		d, err := analysis.ParseGapDistribution(spec)
		if err != nil {
			return nil, "", err
		}
		if count <= 0 {
			return nil, "", errors.New("--count must be positive")
		}
		gaps, err := d.Sample(rand.New(rand.NewPCG(seed, 0)), count)
		return gaps, d.String() + ", seed " + strconv.FormatUint(seed, 10), err
	}
	var gaps []apst.Microseconds
	for _, f := range strings.Split(spec, ",") {
		v, err := apst.ParseMicroseconds(f)
		if err != nil {
			return nil, "", err
		}
		gaps = append(gaps, v)
	}
	return gaps, "list", nil
}
