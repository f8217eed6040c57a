package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

func runPlan(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("plan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pf := addPlanFlags(fs)
	format := fs.String("format", "text", "output format: text or json")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: apstctl plan [flags] CAPTURE\n\nShows the APST table the kernel would program for CAPTURE (a path or -).\n\nFlags:")
		fs.PrintDefaults()
	}
	rest, err := parseFlags(fs, args, 1)
	if err != nil {
		return exitForParse(err)
	}
	if err := formatFlag(*format); err != nil {
		fmt.Fprintln(stderr, "apstctl plan:", err)
		return exitUsage
	}
	c, err := loadController(rest[0], stdin)
	if err != nil {
		fmt.Fprintln(stderr, "apstctl plan:", err)
		return exitUsage
	}
	p, err := pf.params(c)
	if err != nil {
		fmt.Fprintln(stderr, "apstctl plan:", err)
		return exitUsage
	}
	plan, err := apst.Build(c, p)
	if err != nil {
		fmt.Fprintln(stderr, "apstctl plan:", err)
		return exitUsage
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(plan); err != nil {
			fmt.Fprintln(stderr, "apstctl plan:", err)
			return exitFailure
		}
		return exitOK
	}
	writePlanText(stdout, c, &plan)
	return exitOK
}

// describeController is a one-line identity of c.
func describeController(c *powerstate.Controller) string {
	apsta := fmt.Sprintf("APSTA %#x", c.APSTA)
	if !c.APSTAKnown() {
		apsta = "APSTA unknown"
	}
	return fmt.Sprintf("%s (firmware %s, VID %04x), NPSS %d, %s, from %s",
		orUnknown(c.Model), orUnknown(c.Firmware), c.VendorID, c.NPSS, apsta, c.Format)
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// describeParams is a one-line summary of the kernel parameters.
func describeParams(p *apst.Params) string {
	var b strings.Builder
	fmt.Fprintf(&b, "kernel %s (%s), bound %s", p.Generation, p.Mode(), p.Bound)
	if p.Mode() == apst.ModeTolerance {
		fmt.Fprintf(&b, ", primary %s/%dus, secondary %s/%dus",
			p.PrimaryTimeout, uint64(p.PrimaryTolerance), p.SecondaryTimeout, uint64(p.SecondaryTolerance))
	}
	fmt.Fprintf(&b, ", quirks %s", p.Quirks.APST())
	if p.ForceAPST {
		b.WriteString(", force_apst")
	}
	return b.String()
}

// describeOutcome is a one-line summary of what the kernel sends.
func describeOutcome(plan *apst.Plan) string {
	switch plan.Outcome {
	case apst.OutcomeUnsupported:
		return "nothing is sent: the controller does not support APST (APSTA 0)"
	case apst.OutcomeInvalidNPSS:
		return "nothing is sent: NPSS is above 31"
	case apst.OutcomeDisabled:
		if plan.Params.Bound == 0 {
			return "APST disabled (APSTE=0, zero table): the bound is 0"
		}
		return "APST disabled (APSTE=0, zero table): NO_APST quirk"
	case apst.OutcomeNoStates:
		return "APST enabled (APSTE=1) with an empty table: no state qualifies"
	}
	return fmt.Sprintf("APST enabled: deepest state ps%d, max round-trip latency %dus", plan.MaxPS, uint64(plan.MaxRoundTrip))
}

// writePlanText prints the plan as a readable report.
func writePlanText(w io.Writer, c *powerstate.Controller, plan *apst.Plan) {
	fmt.Fprintln(w, describeController(c))
	fmt.Fprintln(w, describeParams(&plan.Params))
	fmt.Fprintln(w, describeOutcome(plan))
	if plan.AssumedAPSTA {
		fmt.Fprintln(w, "note: the capture does not record APSTA; APST support was assumed")
	}
	for _, warn := range plan.Warnings() {
		fmt.Fprintln(w, "kernel warning:", warn)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "state\top\tmax power\tenlat us\texlat us\tentry\tdecision")
	for i, d := range c.States() {
		op := "op"
		if d.NonOperational {
			op = "non-op"
		}
		fmt.Fprintf(tw, "ps%d\t%s\t%s\t%d\t%d\t%s\t%s\n", i, op, d.MaxPower, d.EntryLatency, d.ExitLatency,
			plan.Table[i], plan.Explain(c, uint8(i)))
	}
	tw.Flush()
	if log := plan.KernelLog(); log != "" {
		fmt.Fprintln(w)
		if plan.Logs() {
			fmt.Fprintln(w, "kernel log:", log)
		} else {
			fmt.Fprintln(w, "kernel log: (none in this generation; later kernels log:", log+")")
		}
	}
}
