// Package describe holds the one-line descriptions that apstctl's text
// outputs and the web page (examples/web) share, so that the command and
// the page say the same thing in the same words: a controller's identity,
// the kernel parameters, what the kernel sends, a table in short, and
// what an answer assumed because its input did not say it. The parameters
// that a diagnosis of a pasted kernel log assumes for a capture are in
// describe/pastedlog, apart, so that what describes does not link the
// diagnosis.
//
// Untrusted strings (model, firmware) are escaped for a terminal
// (safeio.EscapeTerminal). The functions are pure and safe for concurrent
// use.
package describe

import (
	"fmt"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/safeio"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Controller is a one-line identity of c (never its serial): model,
// firmware, VID, NPSS, APSTA and the capture format, "unknown" for what
// the capture did not carry.
func Controller(c *powerstate.Controller) string {
	apsta := fmt.Sprintf("APSTA %#x", c.APSTA)
	if !c.APSTAKnown() {
		apsta = "APSTA unknown"
	}
	vid := fmt.Sprintf("VID %04x", c.VendorID)
	if !c.Knows(powerstate.FieldVendorID) {
		vid = "VID unknown"
	}
	return fmt.Sprintf("%s (firmware %s, %s), NPSS %d, %s, from %s",
		orUnknown(safeio.EscapeTerminal(c.Model)), orUnknown(safeio.EscapeTerminal(c.Firmware)), vid, c.NPSS, apsta, c.Format)
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// Kernel names the kernel of p: the release when one was given, and the
// generation; an older generation given alone says whose quirk tables it
// runs with.
func Kernel(p *apst.Params) string {
	if !p.Release.IsZero() {
		return fmt.Sprintf("kernel %s (%s, %s)", p.Release, p.Generation, p.Mode())
	}
	if p.Generation != apst.Current {
		// A generation names no release: its algorithm runs with the
		// newest quirk tables (--kernel 4.12, a release, picks 4.12's).
		return fmt.Sprintf("kernel %s (%s; quirk tables of the newest release, %s: give a release for its own)", p.Generation, p.Mode(), apst.NewestRelease())
	}
	return fmt.Sprintf("kernel %s (%s)", p.Generation, p.Mode())
}

// Params is a one-line summary of the kernel parameters; withBound false
// leaves the bound out, for the outputs that vary it.
func Params(p *apst.Params, withBound bool) string {
	var b strings.Builder
	b.WriteString(Kernel(p))
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

// Outcome is a one-line summary of what the kernel sends.
func Outcome(plan *apst.Plan) string {
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

// Table describes the non-zero entries of the first n entries of t,
// grouping equal neighbours: "ps0-2 ->ps3@100ms, ps3 ->ps4@2000ms", or "-"
// when there is none.
func Table(t *apst.Table, n int) string {
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
