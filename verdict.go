package nvmeapst

import (
	"fmt"
	"sort"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
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
//
// The zero Cause names no cause: its Kind is empty, none of the CauseKind
// values, and it has no Detail.
type Cause struct {
	Kind   CauseKind
	Detail string
}

// Verdict compares what the kernel programs with what the drive reports.
//
// The zero Verdict compares nothing: its Status is empty (none of the
// Status values), its DriveAPSTE is APSTEUnknown, it lists no difference,
// cause or note, and Check is nil.
type Verdict struct {
	Status  Status
	Summary string
	// KernelEnabled is APSTE as the kernel programs it. DriveAPSTE is the
	// drive's, APSTEUnknown when the source did not record completion
	// dword 0 (a bundle or capture without it).
	KernelEnabled bool
	DriveAPSTE    apst.APSTE
	// Differences lists the differing entries, state 0 first (Expected is
	// the kernel's entry).
	Differences []analysis.EntryDiff
	// Causes lists the likely causes of a mismatch, the best first.
	Causes []Cause
	// Notes add context that holds whatever the status: what the
	// comparison assumed, and which inputs could not be read and so which
	// causes stay uncertain.
	Notes []string
	// Check is the comparison of the plan with the drive's feature
	// (analysis.Check: the entries that differ and every configuration that
	// reproduces the drive's table); nil when there was nothing to compare
	// (no plan, no feature, or a plan the kernel does not send).
	Check *analysis.Verdict
}

// judge compares r.Plan with r.Drive through analysis.Check (readMemo's,
// for the Identify image im when there is one).
func judge(r *ControllerReport, m *machine, im *imageMemo) Verdict {
	var v Verdict
	if st := r.Sysfs.State; st != "" && st != "live" {
		v.Notes = append(v.Notes, "controller state is "+st+": a PM QoS change reprograms APST only while the controller is live; otherwise the kernel applies it at the end of the next reset")
	}
	v.Notes = append(v.Notes, r.uncertain...)
	if r.Drive != nil {
		v.DriveAPSTE = r.Drive.APSTE
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
			v.Summary += " (it reports APSTE " + apsteText(r.Drive.APSTE) + ")"
		}
		return v
	case r.Drive == nil:
		v.Status = StatusUnknown
		v.KernelEnabled = r.Plan.Enabled
		v.Summary = "the drive's APST table could not be read"
		return v
	}
	v.KernelEnabled = r.Plan.Enabled
	if m.lean {
		// A scrape asks only whether the drive holds the table: no
		// reproduction search, no explanation of the differences.
		if analysis.Holds(r.Plan, r.Drive) {
			v.Status = StatusMatch
		} else {
			v.Status = StatusMismatch
		}
		return v
	}
	chk, err := readMemo.check(im, r.Identify, r.Params, *r.Drive)
	if err != nil {
		v.Status = StatusUnknown
		v.Summary = "the drive's APST feature cannot be compared: " + err.Error()
		return v
	}
	v.Check = &chk
	v.Notes = append(v.Notes, chk.Notes...)
	v.Differences = chk.Differences
	if chk.Match {
		v.Status = StatusMatch
		v.Summary = "the drive holds the table the kernel programs"
		if r.Drive.APSTE == apst.APSTEUnknown {
			v.Summary += " (APSTE not recorded, not compared)"
		}
		return v
	}
	v.Status = StatusMismatch
	var parts []string
	if chk.APSTEDiffers {
		parts = append(parts, fmt.Sprintf("APSTE %d on the drive, %d from the kernel", b2i(v.DriveAPSTE == apst.APSTEEnabled), b2i(r.Plan.Enabled)))
	}
	if n := len(v.Differences); n > 0 {
		states := make([]string, n)
		for i, d := range v.Differences {
			states[i] = fmt.Sprint(d.State)
		}
		parts = append(parts, fmt.Sprintf("%d entr%s differ%s (state%s %s)", n, plural(n, "y", "ies"), plural(n, "s", ""), plural(n, "", "s"), strings.Join(states, ", ")))
	}
	v.Summary = strings.Join(parts, "; ")
	v.Causes = diagnose(r, m, &chk)
	return v
}

// apsteText is "1", "0" or "unknown".
func apsteText(a apst.APSTE) string {
	switch a {
	case apst.APSTEEnabled:
		return "1"
	case apst.APSTEDisabled:
		return "0"
	}
	return "unknown"
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

// variant is one reproduction with the kernel inputs it changes.
type variant struct {
	r       analysis.Reproduction
	changed []CauseKind
}

// changes names the inputs a reproduction changes from base.
func changes(base *apst.Params, r *analysis.Reproduction) []CauseKind {
	var out []CauseKind
	p := &r.Params
	if p.Generation != base.Generation {
		out = append(out, CauseGeneration)
	}
	if !r.Contains(base.Bound) {
		out = append(out, CauseBoundChanged)
	}
	if p.PrimaryTimeout != base.PrimaryTimeout || p.SecondaryTimeout != base.SecondaryTimeout ||
		p.PrimaryTolerance != base.PrimaryTolerance || p.SecondaryTolerance != base.SecondaryTolerance {
		out = append(out, CauseModuleParams)
	}
	if (p.Quirks ^ base.Quirks).APST() != 0 {
		out = append(out, CauseQuirk)
	}
	if p.ForceAPST != base.ForceAPST {
		out = append(out, CauseForceAPST)
	}
	return out
}

// diagnose turns the reproductions analysis.Check found that change the
// fewest kernel inputs into causes; when none reproduces the drive's table,
// it did not come from this kernel's algorithm.
func diagnose(r *ControllerReport, m *machine, chk *analysis.Verdict) []Cause {
	var best []variant
	for _, rep := range chk.ReproducedBy {
		ch := changes(&r.Params, &rep)
		if len(ch) == 0 {
			continue // cannot happen for a mismatch
		}
		if len(best) > 0 && len(ch) > len(best[0].changed) {
			continue
		}
		if len(best) > 0 && len(ch) < len(best[0].changed) {
			best = best[:0]
		}
		best = append(best, variant{r: rep, changed: ch})
	}
	if len(best) > 0 {
		return explain(r, m, best)
	}
	return unexplained(r)
}

// explain turns the cheapest reproductions into causes.
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
	for _, v := range vs {
		p := v.r.Params
		for _, k := range v.changed {
			switch k {
			case CauseBoundChanged:
				add(k, fmt.Sprintf("the drive holds the table for a bound of %s (the bound is now %s): it changed after the table was programmed while the controller was not live (the kernel applies it at the next reset), or an older table was written back from user space",
					describeBounds(v.r.Min, v.r.Max, r.ModuleDefaultBound), base.Bound))
			case CauseModuleParams:
				add(k, fmt.Sprintf("the drive holds the table of other nvme_core apst_* values (%s): the parameters were changed after the table was programmed; the kernel reads them at the next reset or PM QoS change", v.r.Reason))
			case CauseQuirk:
				diff := (p.Quirks ^ base.Quirks).APST()
				with := "without"
				if p.Quirks&diff != 0 {
					with = "with"
				}
				why := "the running kernel's quirk tables differ from this model's (another kernel version or a distribution patch)"
				switch {
				case r.Quirks.Overridden:
					why = "the nvme.quirks= override " + r.Quirks.Override.String() + " applies to this controller; it was set or changed after the table was programmed, or the running kernel applies it differently"
				case len(r.Quirks.Sources) == 1 && r.Quirks.Sources[0].Table == "sysfs":
					why = "the quirks file lists the quirks in force now; they changed after the table was programmed (a module reload with another nvme.quirks=)"
				}
				add(k, fmt.Sprintf("the drive holds the table built %s the %s quirk: %s", with, diff, why))
			case CauseForceAPST:
				add(k, fmt.Sprintf("the drive holds the table for nvme_core.force_apst=%s: the parameter was changed after the controller was last identified; it applies at the next reset", yn(p.ForceAPST)))
			case CauseGeneration:
				add(k, fmt.Sprintf("the drive holds the table a %s kernel builds: the running kernel's algorithm is not the one inferred (%s)", p.Generation, m.genNote))
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

// describeBounds says which bounds reproduce a table: lo..hi, an
// analysis.Interval's range.
func describeBounds(lo, hi, moduleDefault apst.Microseconds) string {
	var s string
	switch {
	case hi == apst.NoLimit && lo == hi:
		s = "no limit (auto or any)"
	case hi == apst.NoLimit:
		s = "at least " + lo.String()
	case lo == hi:
		s = lo.String()
	default:
		s = "between " + lo.String() + " and " + hi.String()
	}
	if lo <= moduleDefault && moduleDefault <= hi {
		s += ", e.g. the module default " + moduleDefault.String()
	}
	return s
}

// unexplained names the causes of a table no kernel input reproduces.
func unexplained(r *ControllerReport) []Cause {
	plan, drive := r.Plan, r.Drive
	var causes []Cause
	masked := plan.Table
	for i := range masked {
		masked[i] &= apst.EntryMask
	}
	driveEnabled := drive.APSTE == apst.APSTEEnabled
	switch {
	case plan.Enabled && drive.APSTE == apst.APSTEDisabled:
		causes = append(causes,
			Cause{CauseUserSetFeature, "APST is disabled on the drive: a user-space Set Features (nvme set-feature -f 0x0c -v 0) turned it off; the next controller reset or PM QoS change turns it back on"},
			Cause{CauseFirmware, "or the firmware did not keep the setting (a firmware-initiated reset, or it ignores Set Features 0Ch)"})
	case (drive.APSTE == apst.APSTEUnknown || driveEnabled == plan.Enabled) && drive.Table == masked && masked != plan.Table:
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
