package nvmeapst

import (
	"fmt"
	"sort"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Status is the outcome of comparing the kernel's plan with the drive.
type Status string

// The verdicts.
const (
	// StatusMatch: the drive holds exactly the APSTE and table the kernel
	// programs.
	StatusMatch Status = "match"
	// StatusMismatch: APSTE or at least one entry differs.
	StatusMismatch Status = "mismatch"
	// StatusNotProgrammed: the kernel sends no APST configuration to this
	// controller (APSTA = 0, or NPSS above 31), so the drive keeps its own.
	StatusNotProgrammed Status = "not-programmed"
	// StatusUnknown: the plan or the drive's table could not be read.
	StatusUnknown Status = "unknown"
)

// CauseKind names a likely cause of a mismatch.
type CauseKind string

// The causes a verdict can name.
const (
	// CauseBoundChanged: the drive holds the table of another bound.
	CauseBoundChanged CauseKind = "bound-changed"
	// CauseModuleParams: the drive holds the table of other apst_* values.
	CauseModuleParams CauseKind = "module-parameters-changed"
	// CauseQuirk: the drive holds the table of another quirk set.
	CauseQuirk CauseKind = "quirk"
	// CauseForceAPST: the drive holds the table of the other force_apst.
	CauseForceAPST CauseKind = "force-apst"
	// CauseGeneration: the drive holds the table another kernel generation
	// builds.
	CauseGeneration CauseKind = "kernel-generation"
	// CauseFirmware: the firmware ignores, rewrites or does not keep the
	// table.
	CauseFirmware CauseKind = "firmware"
	// CauseUserSetFeature: a user-space Set Features wrote the table; the
	// next controller reset (or PM QoS change) replaces it.
	CauseUserSetFeature CauseKind = "user-space-set-feature"
)

// Cause is one likely explanation of a mismatch.
type Cause struct {
	Kind   CauseKind
	Detail string
}

// EntryDiff is an APST entry on which the kernel's plan and the drive
// disagree.
type EntryDiff struct {
	State  uint8
	Kernel apst.Entry
	Drive  apst.Entry
}

// Verdict compares what the kernel programs with what the drive reports.
type Verdict struct {
	Status  Status
	Summary string
	// KernelEnabled and DriveEnabled are APSTE as programmed and as read,
	// meaningful when both the plan and the drive's feature are known.
	KernelEnabled bool
	DriveEnabled  bool
	// Differences lists the differing entries, state 0 first.
	Differences []EntryDiff
	// Causes lists the likely causes of a mismatch, the best first.
	Causes []Cause
	// Notes add context that holds whatever the status.
	Notes []string
}

// judge compares r.Plan with r.Drive.
func judge(r *ControllerReport, m *machine) Verdict {
	var v Verdict
	if st := r.Sysfs.State; st != "" && st != "live" {
		v.Notes = append(v.Notes, "controller state is "+st+": a PM QoS change reprograms APST only while the controller is live; otherwise the kernel applies it at the end of the next reset")
	}
	switch {
	case r.Plan == nil:
		v.Status = StatusUnknown
		v.Summary = "no plan: Identify Controller data unavailable"
		return v
	case !r.Plan.Sent:
		v.Status = StatusNotProgrammed
		why := "APSTA = 0"
		if r.Plan.Outcome == apst.OutcomeInvalidNPSS {
			why = "NPSS is above 31"
		}
		v.Summary = "the kernel sends no APST configuration (" + why + "); the drive keeps its own"
		if r.Drive != nil {
			v.DriveEnabled = r.Drive.Enabled
			v.Summary += fmt.Sprintf(" (it reports APSTE=%d)", b2i(r.Drive.Enabled))
		}
		return v
	case r.Drive == nil:
		v.Status = StatusUnknown
		v.KernelEnabled = r.Plan.Enabled
		v.Summary = "the drive's APST table could not be read"
		return v
	}
	plan, drive := r.Plan, r.Drive
	v.KernelEnabled, v.DriveEnabled = plan.Enabled, drive.Enabled
	for i := range apst.Entries {
		if plan.Table[i] != drive.Table[i] {
			v.Differences = append(v.Differences, EntryDiff{State: uint8(i), Kernel: plan.Table[i], Drive: drive.Table[i]})
		}
	}
	if plan.Enabled == drive.Enabled && len(v.Differences) == 0 {
		v.Status = StatusMatch
		v.Summary = "the drive holds the table the kernel programs"
		return v
	}
	v.Status = StatusMismatch
	var parts []string
	if plan.Enabled != drive.Enabled {
		parts = append(parts, fmt.Sprintf("APSTE %d on the drive, %d from the kernel", b2i(drive.Enabled), b2i(plan.Enabled)))
	}
	if n := len(v.Differences); n > 0 {
		states := make([]string, n)
		for i, d := range v.Differences {
			states[i] = fmt.Sprint(d.State)
		}
		parts = append(parts, fmt.Sprintf("%d entr%s differ%s (state%s %s)", n, plural(n, "y", "ies"), plural(n, "s", ""), plural(n, "", "s"), strings.Join(states, ", ")))
	}
	v.Summary = strings.Join(parts, "; ")
	v.Causes = diagnose(r, m)
	return v
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// variant is one alternative set of kernel inputs tried to explain a
// mismatch.
type variant struct {
	p       apst.Params
	changed []CauseKind
}

// diagnose looks for the kernel inputs under which the kernel would have
// programmed what the drive holds, changing as few of them as possible; when
// none does, the table did not come from this kernel's algorithm.
func diagnose(r *ControllerReport, m *machine) []Cause {
	c, base, drive := r.Identify, r.Params, *r.Drive
	var best []variant
	bestCost := 1 << 30
	try := func(p apst.Params, changed []CauseKind) {
		if len(changed) > bestCost {
			return
		}
		plan, err := apst.Build(c, p)
		if err != nil || plan.Enabled != drive.Enabled || plan.Table != drive.Table {
			return
		}
		if len(changed) < bestCost {
			best, bestCost = nil, len(changed)
		}
		best = append(best, variant{p: p, changed: changed})
	}
	gens := []apst.Generation{base.Generation}
	for _, g := range apst.Generations() {
		if g != base.Generation {
			gens = append(gens, g)
		}
	}
	for _, g := range gens {
		for _, bound := range candidateBounds(c, base, r.ModuleDefaultBound) {
			for _, mod := range []bool{false, true} {
				for _, qt := range []apst.Quirks{0, apst.QuirkNoDeepestPS, apst.QuirkNoAPST} {
					for _, force := range []bool{base.ForceAPST, !base.ForceAPST} {
						p := base
						var changed []CauseKind
						if g != base.Generation {
							p.Generation = g
							changed = append(changed, CauseGeneration)
						}
						if bound != base.Bound {
							p.Bound = bound
							changed = append(changed, CauseBoundChanged)
						}
						if mod {
							d := apst.DefaultParams(apst.Current)
							if p.PrimaryTimeout == d.PrimaryTimeout && p.SecondaryTimeout == d.SecondaryTimeout &&
								p.PrimaryTolerance == d.PrimaryTolerance && p.SecondaryTolerance == d.SecondaryTolerance {
								continue
							}
							p.PrimaryTimeout, p.SecondaryTimeout = d.PrimaryTimeout, d.SecondaryTimeout
							p.PrimaryTolerance, p.SecondaryTolerance = d.PrimaryTolerance, d.SecondaryTolerance
							changed = append(changed, CauseModuleParams)
						}
						if qt != 0 {
							p.Quirks ^= qt
							changed = append(changed, CauseQuirk)
						}
						if force != base.ForceAPST {
							p.ForceAPST = force
							changed = append(changed, CauseForceAPST)
						}
						try(p, changed)
					}
				}
			}
		}
	}
	if len(best) > 0 {
		return explain(r, m, best)
	}
	return unexplained(r)
}

// candidateBounds returns the bounds worth trying: the ones that change the
// set of admitted states (each state's exit and total latency), 0, no limit
// and the module default, in ascending order.
func candidateBounds(c *powerstate.Controller, base apst.Params, moduleDefault apst.Microseconds) []apst.Microseconds {
	set := map[apst.Microseconds]bool{base.Bound: true, 0: true, apst.NoLimit: true, moduleDefault: true}
	for _, d := range c.States() {
		if d.NonOperational {
			set[apst.Microseconds(d.ExitLatency)] = true
			set[apst.Microseconds(d.TotalLatency())] = true
		}
	}
	out := make([]apst.Microseconds, 0, len(set))
	for b := range set {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// explain turns the cheapest matching variants into causes.
func explain(r *ControllerReport, m *machine, vs []variant) []Cause {
	base := r.Params
	var causes []Cause
	seen := map[string]bool{}
	add := func(k CauseKind, detail string) {
		if !seen[detail] {
			seen[detail] = true
			causes = append(causes, Cause{Kind: k, Detail: detail})
		}
	}
	// Bounds that reproduce the drive's table, for a range statement.
	var bounds []apst.Microseconds
	for _, v := range vs {
		for _, k := range v.changed {
			if k == CauseBoundChanged {
				bounds = append(bounds, v.p.Bound)
			}
		}
	}
	for _, v := range vs {
		for _, k := range v.changed {
			switch k {
			case CauseBoundChanged:
				add(k, fmt.Sprintf("the drive holds the table for a bound of %s (the bound is now %s): it changed after the table was programmed while the controller was not live (the kernel applies it at the next reset), or an older table was written back from user space",
					describeBounds(bounds, candidateBounds(r.Identify, base, r.ModuleDefaultBound), r.ModuleDefaultBound), base.Bound))
			case CauseModuleParams:
				add(k, "the drive holds the table of the default nvme_core apst_* values: the parameters were changed after the table was programmed; the kernel reads them at the next reset or PM QoS change")
			case CauseQuirk:
				diff := (v.p.Quirks ^ base.Quirks).APST()
				with := "without"
				if v.p.Quirks&diff != 0 {
					with = "with"
				}
				add(k, fmt.Sprintf("the drive holds the table built %s the %s quirk: the running kernel's quirk tables differ from this model's (another kernel version or a distribution patch)", with, diff))
			case CauseForceAPST:
				add(k, fmt.Sprintf("the drive holds the table for nvme_core.force_apst=%s: the parameter was changed after the controller was last identified; it applies at the next reset", yn(v.p.ForceAPST)))
			case CauseGeneration:
				add(k, fmt.Sprintf("the drive holds the table a %s kernel builds: the running kernel's algorithm is not the one inferred (%s)", v.p.Generation, m.genNote))
			}
		}
	}
	sort.SliceStable(causes, func(i, j int) bool { return causeRank[causes[i].Kind] < causeRank[causes[j].Kind] })
	add(CauseUserSetFeature, "or a user-space Set Features (nvme set-feature -f 0x0c) wrote it; the next controller reset or PM QoS change replaces it with the kernel's table")
	return causes
}

// causeRank orders the explanations from the most to the least likely.
var causeRank = map[CauseKind]int{
	CauseBoundChanged: 0, CauseModuleParams: 1, CauseQuirk: 2, CauseForceAPST: 3, CauseGeneration: 4,
}

// describeBounds says which bounds reproduce a table: bs are the matching
// candidates, all the candidates tried (ascending); any bound between two
// candidates admits the same states as the lower one.
func describeBounds(bs, all []apst.Microseconds, moduleDefault apst.Microseconds) string {
	if len(bs) == 0 {
		return "another value"
	}
	sort.Slice(bs, func(i, j int) bool { return bs[i] < bs[j] })
	lo, hi := bs[0], bs[len(bs)-1]
	var s string
	switch {
	case hi == apst.NoLimit && lo == hi:
		s = "no limit (auto or any)"
	case hi == apst.NoLimit:
		s = "at least " + lo.String()
	default:
		top := hi
		for _, b := range all {
			if b > hi {
				top = b - 1
				break
			}
		}
		if top == lo {
			s = lo.String()
		} else {
			s = "between " + lo.String() + " and " + top.String()
		}
	}
	for _, b := range bs {
		if b == moduleDefault {
			s += ", e.g. the module default " + moduleDefault.String()
			break
		}
	}
	return s
}

// unexplained names the causes of a table no kernel input reproduces.
func unexplained(r *ControllerReport) []Cause {
	plan, drive := r.Plan, r.Drive
	var causes []Cause
	masked := plan.Table
	for i := range masked {
		masked[i] &= 0xffff_fff8
	}
	switch {
	case plan.Enabled && !drive.Enabled:
		causes = append(causes,
			Cause{CauseUserSetFeature, "APST is disabled on the drive: a user-space Set Features (nvme set-feature -f 0x0c -v 0) turned it off; the next controller reset or PM QoS change turns it back on"},
			Cause{CauseFirmware, "or the firmware did not keep the setting (a firmware-initiated reset, or it ignores Set Features 0Ch)"})
	case drive.Enabled == plan.Enabled && drive.Table == masked:
		causes = append(causes,
			Cause{CauseFirmware, "the firmware cleared the reserved bits the kernel set (an idle time of 2^24 ms or more overflows ITPT into bits 63:32): the drive's effective idle times differ from the ones configured"})
	default:
		causes = append(causes,
			Cause{CauseUserSetFeature, "no kernel input reproduces this table: a user-space Set Features (nvme set-feature -f 0x0c, a vendor tool or a script) wrote it; the next controller reset or PM QoS change replaces it with the kernel's table"},
			Cause{CauseFirmware, "or the firmware ignores or rewrites the table (Get Features reports something other than what was set)"})
	}
	return causes
}

func yn(b bool) string {
	if b {
		return "Y"
	}
	return "N"
}
