package analysis_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

func exampleReplayController() *powerstate.Controller {
	img, err := os.ReadFile("../../testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin")
	if err != nil {
		panic(err)
	}
	c, err := powerstate.DecodeIdentify(img)
	if err != nil {
		panic(err)
	}
	return &c
}

// Replaying a trace on the Samsung 990 EVO Plus under the default bound and
// under 25 ms: the 2.4 s idle period reaches ps4 (43 ms exit) by default,
// only ps3 (4.6 ms) at 25 ms, which spends more idle energy.
func ExampleReplay() {
	c := exampleReplayController()
	const plain = `# seconds duration
0      0.001
0.051  0.001
2.453  0.002
`
	r, err := trace.NewReader(strings.NewReader(plain), trace.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	base := apst.DefaultParams(apst.Current)
	def, _ := analysis.ParseReplayConfig("ps-max-latency-us=100000", base)
	low, _ := analysis.ParseReplayConfig("ps-max-latency-us=25000", base)
	rep, err := analysis.Replay(c, r, def, low)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d events, %d idle periods, span %d us\n", rep.Events, rep.IdlePeriods, rep.Span.Microseconds())
	for _, res := range rep.Configs {
		fmt.Printf("%s: stall %d us (max %d us), idle %d us, %d uJ, break-even", res.Config.Name, res.StallTotal, res.Max, res.Idle.Microseconds(), int64(res.IdleEnergy))
		for _, st := range res.Steps {
			if st.HasBreakEven {
				fmt.Printf(" ps%d %d us", st.State, st.BreakEven)
			}
		}
		fmt.Println()
		for _, st := range res.Steps {
			fmt.Printf("  ps%d from %d us: %d wakes, penalty %d us\n", st.State, st.From, st.Wakes, st.Penalty)
		}
	}
	// Output:
	// 3 events, 2 idle periods, span 2455000 us
	// ps-max-latency-us=100000: stall 43000 us (max 43000 us), idle 2451000 us, 1062107 uJ, break-even ps3 6284 us ps4 3665754 us
	//   ps0 from 0 us: 1 wakes, penalty 0 us
	//   ps3 from 100000 us: 0 wakes, penalty 4600 us
	//   ps4 from 2100000 us: 1 wakes, penalty 43000 us
	// ps-max-latency-us=25000: stall 4600 us (max 4600 us), idle 2451000 us, 1084080 uJ, break-even ps3 6284 us
	//   ps0 from 0 us: 1 wakes, penalty 0 us
	//   ps3 from 100000 us: 1 wakes, penalty 4600 us
}

// Feeding a Replayer with events of one's own, here with the exit factor
// measured on the 990 EVO Plus (0.78) and a CPU wake of 150 µs.
func ExampleReplayer() {
	c := exampleReplayController()
	cfg, _ := analysis.ParseReplayConfig("ps-max-latency-us=100000", apst.DefaultParams(apst.Current))
	cfg.ExitFactor = analysis.ExitFactors{Default: analysis.Factor{Num: 78, Den: 100}}
	cfg.CPUWake = 150
	r, err := analysis.NewReplayer(c, cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	const ms = 1_000_000 // ns
	for _, ev := range []trace.Event{
		{Time: 0, Kind: trace.Dispatch}, {Time: 1 * ms, Kind: trace.Completion},
		{Time: 3001 * ms, Kind: trace.Dispatch}, {Time: 3002 * ms, Kind: trace.Completion},
	} {
		if err := r.Add(ev); err != nil {
			fmt.Println(err)
			return
		}
	}
	// One wake from ps4: 43000 × 0.78 + 150 µs. Transitions at most 6 W ×
	// (1600 + 1600 µs of entries + 33540 µs of exit) = 220440 µJ.
	res := r.Report().Configs[0]
	fmt.Println(res.Wakes, res.Max, res.TransitionEnergyMax)
	// Output:
	// 1 33690us 0.2204J
}

// The break-even idle time of ps4 after ps3 on the 990 EVO Plus: entering
// and leaving ps4 costs at most 6 W × (1.6 + 43) ms; staying saves 73 mW.
func ExampleBreakEven() {
	c := exampleReplayController()
	be, ok := analysis.BreakEven(&c.PowerStates[0], &c.PowerStates[3], &c.PowerStates[4])
	fmt.Println(be, ok)
	// Output:
	// 3665754us true
}
