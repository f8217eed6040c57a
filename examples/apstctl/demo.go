package main

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// demoCommand is apstctl without arguments: the main job on the embedded
// capture, the table at the default bound next to the one at 25 ms.
func demoCommand() *command {
	return &command{
		name:      "",
		usageLine: "",
		long:      "The main job on an embedded Samsung 990 EVO Plus capture.",
		run: func(ctx context.Context, x *invocation, _ []string) error {
			return runDemo(x)
		},
	}
}

func runDemo(x *invocation) error {
	c, err := powerstate.DecodeIdentify(defaultCapture)
	if err != nil {
		return fmt.Errorf("embedded capture: %w", err)
	}
	bounds := []apst.Microseconds{apst.Current.DefaultBound(), 25000}
	plans := make([]apst.Plan, len(bounds))
	for i, b := range bounds {
		p := apst.DefaultParams(apst.Current)
		p.Bound = b
		if plans[i], err = apst.Build(&c, p); err != nil {
			return err
		}
	}
	w := x.out
	fmt.Fprintln(w, "apstctl: what Linux (v5.14 and later) programs on an embedded capture at two bounds")
	fmt.Fprintln(w, describeController(&c))
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "state\top\tmax power\tenlat/exlat us\tbound 100000us (default)\tbound 25000us")
	for i, d := range c.States() {
		fmt.Fprintf(tw, "ps%d\t%s\t%s\t%d/%d", i, opKind(&d), d.MaxPower, d.EntryLatency, d.ExitLatency)
		for j := range plans {
			cell := plans[j].Reasons[i].String()
			if e := plans[j].Table[i]; e != 0 {
				cell = fmt.Sprintf("%s %s", e, cell)
			}
			fmt.Fprintf(tw, "\t%s", cell)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	fmt.Fprintln(w)
	reach := make([]analysis.Reach, len(plans))
	for j, b := range bounds {
		reach[j] = analysis.Reachability(&c, &plans[j].Table)
		fmt.Fprintf(w, "bound %6dus: the drive can sleep down to ps%d (exit latency %.1f ms, max power %s)\n",
			uint64(b), reach[j].Deepest, float64(reach[j].WorstExitLatency)/1000, c.PowerStates[reach[j].Deepest].MaxPower)
	}
	delta := int64(c.PowerStates[reach[1].Deepest].MaxPower.MicroWatts()) - int64(c.PowerStates[reach[0].Deepest].MaxPower.MicroWatts())
	fmt.Fprintf(w, "25000us cuts the worst wake stall from %dus to %dus and costs %+.1f mW of idle power (max power of the deepest state).\n",
		uint64(reach[0].WorstExitLatency), uint64(reach[1].WorstExitLatency), float64(delta)/1000)
	fmt.Fprintln(w, "\nThe default lets the drive reach ps4 (exit 43 ms) after 2100 ms idle; 25 ms stops at ps3 (exit 4.6 ms).")
	fmt.Fprintln(w, "Try: apstctl plan --ps-max-latency-us 25000 CAPTURE   (apstctl help lists every command)")
	return nil
}
