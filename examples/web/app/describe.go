package main

import (
	"fmt"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// The one-line descriptions, in the words apstctl's text outputs use
// (examples/apstctl/describe.go), so that the page and the command read
// alike. The page sets them as text, never as markup.

// describeController is a one-line identity of c (no serial).
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

// describeParams is a one-line summary of the kernel parameters;
// describeParamsBound without the bound, for the sweep, which varies it.
func describeParams(p *apst.Params) string { return describeParamsBound(p, true) }

func describeParamsBound(p *apst.Params, withBound bool) string {
	var b strings.Builder
	if !p.Release.IsZero() {
		fmt.Fprintf(&b, "kernel %s (%s, %s)", p.Release, p.Generation, p.Mode())
	} else {
		fmt.Fprintf(&b, "kernel %s (%s)", p.Generation, p.Mode())
	}
	if withBound {
		fmt.Fprintf(&b, ", bound %s", p.Bound)
	}
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

// compactTable describes the non-zero entries of a table, grouping equal
// neighbours: "ps0-2 ->ps3@100ms, ps3 ->ps4@2000ms", or "-" when empty.
func compactTable(t *apst.Table, n int) string {
	var parts []string
	for s := 0; s < n; {
		e := t[s]
		end := s
		for end+1 < n && t[end+1] == e {
			end++
		}
		if e != 0 {
			if end > s {
				parts = append(parts, fmt.Sprintf("ps%d-%d %s", s, end, e))
			} else {
				parts = append(parts, fmt.Sprintf("ps%d %s", s, e))
			}
		}
		s = end + 1
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}
