package nvmeapst

import (
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

// kernelInputs is what the kernel builds a controller's APST table from,
// as one read of the machine found it. Inspect (controllerRead.controller)
// and the MetricsReader's own read (fastScraper.controller) both derive
// the parameters through kernelParams, so that what a scrape publishes is
// what a report says.
type kernelInputs struct {
	// ident is the Identify data, nil when it could not be read.
	ident *powerstate.Controller
	// module holds the nvme_core parameters; gen is the algorithm the
	// report assumes and rel the parsed kernel release.
	module *sysfs.ModuleParams
	gen    apst.Generation
	rel    apst.Release
	// quirks are the quirks in force: the machine's lookup, or the
	// kernel's quirks file (quirksFile) when it has one.
	quirks     apst.Quirks
	quirksFile bool
	// tol is power/pm_qos_latency_tolerance_us; hasTol says it exists and
	// was read, tolBad that it exists but could not be read or parsed.
	tol    apst.Tolerance
	hasTol bool
	tolBad bool
}

// apstDisabled reports that the kernel has APST disabled for the
// controller: the tolerance file is absent (not merely unreadable).
func (in *kernelInputs) apstDisabled() bool { return !in.hasTol && !in.tolBad }

// moduleDefault is the bound nvme_core.default_ps_max_latency_us gives a
// newly probed controller (the generation's default when unreadable).
func (in *kernelInputs) moduleDefault() apst.Microseconds {
	if v := in.module.DefaultPSMaxLatencyUS; v != nil {
		return apst.ModuleDefaultBound(*v)
	}
	return apst.DefaultParams(in.gen).Bound
}

// kernelParams returns the parameters the kernel builds the controller's
// table with: the module's, the bound in effect (the tolerance, "auto"
// as no limit, the module default when the file is absent or
// unreadable), the release when it runs the assumed algorithm, and the
// quirks given (Build looks nothing up). When the tolerance file is
// absent although Identify says APSTA is set and the model's quirks do not
// explain it, the running kernel knows a NO_APST quirk this model does
// not: it is added, and inferred is true. trial is scratch for that test.
func kernelParams(in *kernelInputs, trial *apst.Plan) (p apst.Params, inferred bool) {
	p = sysfs.Params(*in.module, sysfs.Controller{Tolerance: in.tol, HasTolerance: in.hasTol})
	p.Generation = in.gen
	if g, err := in.rel.Generation(); err == nil && g == in.gen {
		p.Release = in.rel
	}
	p.Quirks, p.QuirksGiven = in.quirks.APST(), true
	switch {
	case !in.hasTol:
		p.Bound = in.moduleDefault() // what the request was created with; unused while APST is off
	case in.tol.Kind == apst.ToleranceAuto:
		p.Bound = apst.NoLimit
	default:
		p.Bound = in.tol.Bound()
	}
	if in.ident != nil && in.apstDisabled() && !in.quirksFile {
		if err := apst.BuildTo(trial, in.ident, p); err == nil && trial.Enabled {
			p.Quirks |= apst.QuirkNoAPST
			p.ForceAPST = false
			inferred = true
		}
	}
	return p, inferred
}
