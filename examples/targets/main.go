// Command targets prints, for an Identify Controller capture, the power
// states the kernel's APST table makes reachable at several latency bounds
// (ps_max_latency_us): an importer's first job, in a few dozen lines.
//
//	go run ./examples/targets testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin
//	go run ./examples/targets -with kernel=v4.12 CAPTURE 0 25000 unlimited
//
// The capture is any format capture.ParseBytes reads; the bounds are µs
// (or "unlimited"), 0, 25000, 100000 and unlimited when none is given. The
// quirks the kernel's tables assign the model are applied, as apst.Build
// does by default, and the notes say what that lookup inferred or left
// unchecked (-with quirks=none leaves them out).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

func main() {
	if err := run(os.Stdout, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "targets:", err)
		os.Exit(2)
	}
}

// run parses the flags and arguments and prints the targets to w.
func run(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("targets", flag.ContinueOnError)
	with := fs.String("with", "", "parameters as key=value,... (apst.ParseConfig), on the v5.14+ defaults")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() < 1 {
		return fmt.Errorf("usage: targets [-with CONFIG] CAPTURE [BOUND_US...]")
	}
	b, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return err
	}
	c, err := capture.ParseBytes(b)
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	p, err := apst.ParseConfig(*with, apst.DefaultParams(apst.Current))
	if err != nil {
		return err
	}
	bounds := []string{"0", "25000", "100000", "unlimited"}
	if fs.NArg() > 1 {
		bounds = fs.Args()[1:]
	}
	sw, err := analysis.Sweep(&c, p)
	if err != nil {
		return err
	}
	lookup := &sw.Intervals[0].Plan.Quirks // the quirk lookup of every plan of the sweep
	fmt.Fprintf(w, "%s (%s), %s, quirks %s\n", c.Model, c.Format, p.Generation, lookup.Applied.APST())
	for _, s := range bounds {
		bound, err := apst.ParseBound(s)
		if err != nil {
			return err
		}
		iv := sw.At(bound)
		fmt.Fprintf(w, "  bound %-10s targets %-10s deepest ps%d, worst exit %s (same table for %s..%s)\n",
			bound, targets(&iv.Plan), iv.Reach.Deepest, iv.Reach.WorstExitLatency, iv.Min, iv.Max)
	}
	for _, n := range lookup.Notes(c.Model) {
		fmt.Fprintln(w, "  note:", n)
	}
	return nil
}

// targets names the states the plan's entries point to, "none" when the
// table is zero and "off" when APST is disabled.
func targets(plan *apst.Plan) string {
	if !plan.Enabled {
		return "off"
	}
	var set apst.States
	for _, e := range plan.Table {
		if e.Transitions() {
			set |= apst.StatesOf(e.TargetState())
		}
	}
	return set.String()
}
