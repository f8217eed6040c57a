package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
	"github.com/nvmeapst/nvmeapst/internal/describe"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// assumptionsJSON is the "assumptions" object of every command that
// computes a table (cli.md, "What was assumed"): what the answer assumed
// because its input did not say it, each part once per output. The keys
// are always present; false, null and [] say that nothing was assumed.
type assumptionsJSON struct {
	APSTAUnknown       bool             `json:"apsta_unknown"`
	ReleaseUnknown     bool             `json:"release_unknown"`
	BaseUnknown        bool             `json:"base_unknown"`
	Tables             *string          `json:"tables"`
	AtStake            []string         `json:"at_stake"`
	PCIIDInferred      *pciInferredJSON `json:"pci_id_inferred"`
	PCIQuirksUnchecked []string         `json:"pci_quirks_unchecked"`
	PCIUncheckedWhy    string           `json:"pci_quirks_unchecked_why"`
	DMIUnchecked       bool             `json:"dmi_unchecked"`
	DMIRules           []string         `json:"dmi_rules"`
	// MachineDMIRules are the unchecked DMI rules that take every drive
	// of one machine model: no caveat of this drive, so the text leaves
	// them out.
	MachineDMIRules []string `json:"machine_dmi_rules"`
	Other           []string `json:"other"`
	Notes           []string `json:"notes"`
}

// assumptionsView is the JSON of a.
func assumptionsView(a *apst.Assumptions) assumptionsJSON {
	v := assumptionsJSON{
		APSTAUnknown: a.APSTAUnknown, ReleaseUnknown: a.ReleaseUnknown, BaseUnknown: a.BaseUnknown,
		AtStake: nonNil(a.AtStake), PCIQuirksUnchecked: []string{}, PCIUncheckedWhy: a.PCIUncheckedWhy,
		DMIUnchecked: a.DMIUnchecked, DMIRules: nonNil(a.DMIRules), MachineDMIRules: nonNil(a.MachineDMIRules), Other: nonNil(a.Other), Notes: nonNil(a.Notes()),
	}
	if !a.Tables.IsZero() {
		t := a.Tables.String()
		v.Tables = &t
	}
	if !a.PCIInferred.IsZero() {
		v.PCIIDInferred = &pciInferredJSON{ID: a.PCIInferred.String(), From: a.PCIInferredFrom}
	}
	for _, id := range a.PCIUnchecked {
		v.PCIQuirksUnchecked = append(v.PCIQuirksUnchecked, id.String())
	}
	return v
}

// ownAssumptionsView is the JSON of what one configuration, drive or
// controller assumed beyond what the output says once: null when nothing.
func ownAssumptionsView(a *apst.Assumptions) *assumptionsJSON {
	if a.IsZero() {
		return nil
	}
	v := assumptionsView(a)
	return &v
}

// assumptionLines are the text lines of a, each part once
// (describe.Assumptions, in the words the page uses too, with --pci-id as
// what settles a PCI ID). prefix ("[2] ") names the configuration or drive
// the lines are about; "" when they are about the whole output.
func assumptionLines(a *apst.Assumptions, prefix string) []string {
	return describe.Assumptions(a, prefix, "--pci-id")
}

// captureNoteLines are the text lines of what the reader of capture c
// noted (a quoted-printable mail body decoded, a table that ran to the end
// of a paste, a field kept as unknown): "note: capture: ...", said after
// the drive's description by every command that reads a capture, as plan
// does; the JSON lists the same in "capture_notes" (captureNotesView).
// Before them, a note says when c is an NVMe over Fabrics controller
// (describe.Fabrics; "fabrics" in the JSON's "capture").
func captureNoteLines(c *powerstate.Controller) []string {
	var out []string
	if s := describe.Fabrics(c); s != "" {
		out = append(out, "note: "+s)
	}
	for _, n := range c.Notes {
		out = append(out, "note: capture: "+view.EscapeMessage(n))
	}
	return out
}

// captureNotesView is the JSON of what the reader of capture c noted:
// "capture_notes", [] when nothing.
func captureNotesView(c *powerstate.Controller) []string { return nonNil(c.Notes) }

// writeCaptureNotes prints captureNoteLines of c.
func writeCaptureNotes(w io.Writer, c *powerstate.Controller) {
	for _, l := range captureNoteLines(c) {
		fmt.Fprintln(w, l)
	}
}

// writeAssumptions prints the lines of a.
func writeAssumptions(w io.Writer, a *apst.Assumptions) {
	for _, l := range assumptionLines(a, "") {
		fmt.Fprintln(w, l)
	}
}

// planAssumptions are the assumptions of the plan of c under p: what every
// command that plans a capture says once.
func planAssumptions(c *powerstate.Controller, p apst.Params) apst.Assumptions {
	plan, err := apst.Build(c, p)
	if err != nil {
		return apst.Assumptions{}
	}
	return plan.Assumptions(c)
}

// splitAssumptions returns what the answers of several configurations (or
// drives) share, said once, and what each adds to it.
func splitAssumptions(as []apst.Assumptions) (apst.Assumptions, []apst.Assumptions) {
	common := apst.CommonAssumptions(as)
	own := make([]apst.Assumptions, len(as))
	for i := range as {
		own[i] = as[i].Without(common)
	}
	return common, own
}

// groupedAssumptionLines says each line of several answers' assumptions
// once: as is when every answer has it, else after the names of the
// answers that do ("note: [2] ...", "note: [nvme0, nvme2] ...").
func groupedAssumptionLines(as []apst.Assumptions, names []string) []string {
	type group struct {
		line string
		who  []string
	}
	var groups []*group
	byLine := map[string]*group{}
	for i := range as {
		for _, l := range assumptionLines(&as[i], "") {
			if g, ok := byLine[l]; ok {
				if g.who[len(g.who)-1] != names[i] {
					g.who = append(g.who, names[i])
				}
				continue
			}
			g := &group{line: l, who: []string{names[i]}}
			byLine[l] = g
			groups = append(groups, g)
		}
	}
	out := make([]string, 0, len(groups))
	for _, g := range groups {
		if len(g.who) == len(as) {
			out = append(out, g.line)
			continue
		}
		kind, rest, _ := strings.Cut(g.line, ": ")
		who := make([]string, len(g.who))
		for i, n := range g.who {
			who[i] = view.Escape(n) // a controller's name, a capture's path
		}
		out = append(out, kind+": ["+strings.Join(who, ", ")+"] "+rest)
	}
	return out
}

// numbered names answers 1, 2, ... as compare and replay number them.
func numbered(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = strconv.Itoa(i + 1)
	}
	return out
}
