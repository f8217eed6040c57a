// Package pastedlog gives the kernel's inputs that a diagnosis of a pasted
// kernel log assumes for the drive of an Identify capture, so that apstctl
// diagnose --log --id-ctrl and the web page diagnose alike. It is a package
// of its own, apart from describe, so that what imports describe does not
// link the diagnosis (the page's capture engine, app.wasm, does not).
package pastedlog

import (
	"fmt"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Params are the kernel's inputs that a diagnosis of a pasted
// kernel log gives the drive of an Identify capture c, where the machine's
// own settings are unknown (apstctl diagnose --log --id-ctrl, and the web
// page's kernel log with a capture): the module defaults of the log's
// release rel (of the current kernel when rel is zero), the APST quirks the
// release's tables give the model, and the bound of the log's command line
// (nvme_core.default_ps_max_latency_us) when it sets one. It also returns
// what the quirk lookup assumed (APSTA unknown included) and the note that
// says what the plan assumed, for the diagnosis's notes.
func Params(c *powerstate.Controller, rel apst.Release, commandLine string) (apst.Params, apst.Assumptions, string) {
	gen := apst.Current
	if g, err := rel.Generation(); err == nil {
		gen = g
	}
	p := apst.DefaultParams(gen)
	mn, fr := c.ModelBytes(), c.FirmwareBytes()
	m := apst.LookupQuirks(apst.Identity{VendorID: c.VendorID, Model: string(mn[:]), Firmware: string(fr[:]), Release: rel})
	p.Quirks = m.APST()
	if v, ok := diagnose.Param(commandLine, "nvme_core.default_ps_max_latency_us"); ok {
		if b, err := apst.ParseMicroseconds(v); err == nil {
			p.Bound = apst.ModuleDefaultBound(uint64(b))
		}
	}
	assumed := m.Assumptions()
	assumed.APSTAUnknown = !c.APSTAKnown()
	note := fmt.Sprintf("a pasted log: the plan assumes the module defaults of %s (bound %s) and the quirks the model's tables give (%s); the machine's own settings were not read", gen, p.Bound, m.APST())
	return p, assumed, note
}
