package nvmeapst

import (
	"fmt"

	"github.com/nvmeapst/nvmeapst/apst"
)

// ConfigParams returns the parameters of a configuration applied to this
// controller as its machine has it. The configuration has the form of
// [apst.ParseConfig] ("ps-max-latency-us=25000", "policy=linux-25ms",
// "kernel=6.1,quirks=none"; "" for none). The controller's Params, what
// Inspect planned with (the module parameters, the per-device bound, the
// generation and release, force_apst), are the base the configuration changes, as the Linux
// defaults are for a capture.
//
// The quirks are honoured as compare honours them for a capture: a
// configuration that gives them (quirks=none, quirks=LIST) replaces the
// controller's; otherwise the quirk set is the machine's, the one Inspect
// applied (its real PCI ID and DMI strings, nvme.quirks= and the sysfs
// quirks file), with the LIST of quirks=tables,LIST added. When the
// configuration names another release than the controller's (kernel=,
// policy=), that release's quirk tables are looked up with the
// controller's Identity instead (the sysfs quirks file is the running
// kernel's answer, not another release's), and note says so. The returned
// Params always have QuirksGiven set: Build looks nothing up. So
// ConfigParams("") is Params, and the plan built from it is Plan.
//
// Errors: those of apst.ParseConfig, naming the controller.
func (r *ControllerReport) ConfigParams(config string) (p apst.Params, note string, err error) {
	base := r.Params
	base.Quirks, base.QuirksGiven = 0, false
	p, err = apst.ParseConfig(config, base)
	if err != nil {
		return r.Params, "", fmt.Errorf("nvmeapst: %s: %w", r.Name, err)
	}
	if p.QuirksGiven {
		return p, "", nil // quirks=none or quirks=LIST: as given
	}
	extra := p.Quirks
	p.Quirks, p.QuirksGiven = r.Params.Quirks|extra, true
	if p.Release != r.Params.Release {
		id := r.Identity
		id.Release = p.Release
		m := apst.LookupQuirks(id)
		p.Quirks = m.APST() | extra
		rel := "an unknown release (the newest tables)"
		if !p.Release.IsZero() {
			rel = "release " + p.Release.String()
		}
		note = fmt.Sprintf("quirks looked up in the tables of %s with the controller's identity (quirks %s), not the %s of the machine's kernel", rel, p.Quirks, r.quirkOrigin())
	}
	return p, note, nil
}

// quirkOrigin names where the controller's quirk set came from.
func (r *ControllerReport) quirkOrigin() string {
	for _, s := range r.Quirks.Sources {
		if s.Table == "sysfs" {
			return "sysfs quirks file"
		}
	}
	return "lookup"
}
