package describe

import (
	"fmt"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// Assumptions are the lines that say what an answer assumed because its
// input did not say it (apst.Assumptions), each part once and in a fixed
// order: a note for APSTA unknown and one for the release (or its stable
// base) unknown, a warning for a PCI ID inferred from the model and one for
// PCI quirks unchecked, each saying how to settle it, then a note for DMI
// unchecked and one for each other sentence. pci names the input that
// settles the PCI ID in the caller's words ("--pci-id" for apstctl, "a PCI
// ID" for the page). Each line starts with "note: " or "warning: ";
// prefix, when not "", follows that word and names what the line is about
// ("note: [2] ..."). nil when nothing was assumed.
func Assumptions(a *apst.Assumptions, prefix, pci string) []string {
	var out []string
	note := func(s string) { out = append(out, "note: "+prefix+esc(s)) }
	if a.APSTAUnknown {
		note(apst.NoteAPSTAUnknown)
	}
	if n := a.ReleaseNote(); n != "" {
		note(n)
	}
	if !a.PCIInferred.IsZero() {
		out = append(out, fmt.Sprintf("warning: %sthe capture carries no PCI ID; %s was inferred from %s (give %s to override)",
			prefix, a.PCIInferred, esc(a.PCIInferredFrom), pci))
	}
	if len(a.PCIUnchecked) > 0 {
		ids := make([]string, len(a.PCIUnchecked))
		for i, id := range a.PCIUnchecked {
			ids[i] = id.String()
		}
		who := "this vendor has"
		if a.PCIUncheckedSSVID != 0 {
			who = fmt.Sprintf("this vendor or its controller maker (the Identify SSVID, %04x) has", a.PCIUncheckedSSVID)
		}
		out = append(out, fmt.Sprintf("warning: %sthe capture carries no PCI ID, and %s quirked PCI IDs (%s): PCI quirks unchecked; give %s VVVV:DDDD to settle it",
			prefix, who, strings.Join(ids, ", "), pci))
	}
	if a.DMIUnchecked {
		note(a.DMINote())
	}
	for _, s := range a.Other {
		note(s)
	}
	return out
}

// esc escapes an untrusted string for a terminal.
func esc(s string) string { return safeio.EscapeTerminal(s) }
