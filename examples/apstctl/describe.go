package main

import (
	"fmt"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/safeio"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// The one-line descriptions the text outputs share.

// esc is an untrusted string (model, serial, firmware, a path) as text
// output may print it: control characters escaped (safeio.EscapeTerminal).
func esc(s string) string { return safeio.EscapeTerminal(s) }

// describeController is a one-line identity of c.
func describeController(c *powerstate.Controller) string {
	apsta := fmt.Sprintf("APSTA %#x", c.APSTA)
	if !c.APSTAKnown() {
		apsta = "APSTA unknown"
	}
	vid := fmt.Sprintf("VID %04x", c.VendorID)
	if !c.Knows(powerstate.FieldVendorID) {
		vid = "VID unknown"
	}
	return fmt.Sprintf("%s (firmware %s, %s), NPSS %d, %s, from %s",
		orUnknown(esc(c.Model)), orUnknown(esc(c.Firmware)), vid, c.NPSS, apsta, c.Format)
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// describeKernel names the kernel of p: the release when one was given,
// and the generation.
func describeKernel(p *apst.Params) string {
	if !p.Release.IsZero() {
		return fmt.Sprintf("kernel %s (%s, %s)", p.Release, p.Generation, p.Mode())
	}
	return fmt.Sprintf("kernel %s (%s)", p.Generation, p.Mode())
}

// describeParams is a one-line summary of the kernel parameters; withBound
// false leaves the bound out, for the commands that vary it.
func describeParams(p *apst.Params) string { return describeParamsBound(p, true) }

func describeParamsBound(p *apst.Params, withBound bool) string {
	var b strings.Builder
	b.WriteString(describeKernel(p))
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

// stateList returns a state set as a sorted list of indices (never nil, so
// that JSON shows []).
func stateList(set apst.States) []int {
	out := []int{}
	for s := range set.All() {
		out = append(out, int(s))
	}
	return out
}

// opKind is "op" or "non-op".
func opKind(d *powerstate.Descriptor) string {
	if d.NonOperational {
		return "non-op"
	}
	return "op"
}
