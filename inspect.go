package nvmeapst

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/ioctl"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

// ErrNoController is returned when a controller named on the command line
// or in an API call is not in class/nvme. It matches fs.ErrNotExist too
// (errors.Is), so callers that test for a missing file need no special case.
var ErrNoController error = noController{}

// noController is ErrNoController's type: a sentinel that is also
// fs.ErrNotExist.
type noController struct{}

func (noController) Error() string { return "nvmeapst: no such NVMe controller" }

// Is matches fs.ErrNotExist.
func (noController) Is(target error) bool { return target == fs.ErrNotExist }

// Report is what [System.Inspect] finds: the machine-wide inputs of the
// kernel's APST configuration and, for every controller, what the kernel
// should have programmed, what the drive holds, and the verdict.
//
// A report is a value: inspecting a bundle written by [System.Collect] gives
// a report equal to the one of the machine it was collected on.
//
// The zero Report is the report of nothing: an unknown kernel release, no
// Generation, every module parameter absent, unknown DMI strings, and no
// controller and no problem.
type Report struct {
	// KernelRelease is uname -r ("" when unknown).
	KernelRelease string
	// Generation is the kernel algorithm the report assumes.
	Generation apst.Generation
	// GenerationNote says how Generation was inferred.
	GenerationNote string
	// Release is KernelRelease parsed (zero when unknown or not a release):
	// it selects the quirk tables.
	Release apst.Release
	// Module holds the nvme_core module parameters as read: a nil field was
	// absent, unless Module.Unreadable names it (then it exists but could
	// not be read or parsed, and the others are still used).
	Module sysfs.ModuleParams
	// ModuleProblem is set when some module parameter, or the parameters
	// directory, could not be read.
	ModuleProblem *Problem
	// QuirksParam is nvme-pci's quirks parameter (nvme.quirks=, Linux 7.0
	// and later), applied to every controller's quirk lookup.
	QuirksParam sysfs.QuirksParam
	// QuirksParamProblem is set when it exists but could not be read or
	// parsed.
	QuirksParamProblem *Problem
	// DMI holds the SMBIOS strings the kernel's quirk rules read.
	DMI apst.DMI
	// DMIProblem is set when they could not be read.
	DMIProblem *Problem
	// Controllers holds one report per controller, in name order; when
	// Inspect was given names, one per name, in the order given.
	Controllers []ControllerReport
	// Problems lists what could not be read from sysfs: controllers that
	// could not be read at all (a controller a bundle lists but does not
	// hold included) and, one per file, the attributes of reported
	// controllers that exist but could not be read; and a bundle's files
	// of reported controllers that are missing or damaged (Problem.Bundle).
	Problems []*Problem
}

// BoundSource says where a controller's ps_max_latency_us comes from.
type BoundSource string

// The sources of the bound.
const (
	// BoundModuleDefault: pm_qos_latency_tolerance_us holds the value the
	// driver installed at probe time from
	// nvme_core.default_ps_max_latency_us (or someone wrote that same value).
	BoundModuleDefault BoundSource = "module-default"
	// BoundPMQoS: pm_qos_latency_tolerance_us was set for this controller.
	BoundPMQoS BoundSource = "pm-qos"
	// BoundPMQoSAuto: pm_qos_latency_tolerance_us reads "auto": no user
	// constraint, which the driver maps to no limit (not to the module
	// default).
	BoundPMQoSAuto BoundSource = "pm-qos-auto"
	// BoundAPSTDisabled: the attribute is absent, the kernel has APST
	// disabled for the controller and no bound applies.
	BoundAPSTDisabled BoundSource = "apst-disabled"
	// BoundUnreadable: the attribute exists (or a bundle lists it) but could
	// not be read: the bound is unknown, the module default is assumed, and
	// whether the kernel has APST enabled is unknown too.
	BoundUnreadable BoundSource = "unreadable"
)

// ControllerReport is the inspection of one controller.
//
// The zero ControllerReport is the report of no controller: no name, no
// Identify data and no Plan; its Assumptions are none.
type ControllerReport struct {
	// Name is the controller's name, e.g. "nvme0".
	Name string
	// Sysfs is what class/nvme/NAME says about it.
	Sysfs sysfs.Controller
	// Identify is the decoded Identify Controller data, nil when it could
	// not be read.
	Identify *powerstate.Controller
	// DeviceProblem is set when the controller could not be opened at all.
	DeviceProblem *Problem
	// IdentifyProblem is set when Identify failed or returned a bad image.
	IdentifyProblem *Problem
	// Identity is what the quirk lookups saw.
	Identity apst.Identity
	// Quirks are the quirks the kernel applies and the table entries or
	// rules they come from.
	Quirks apst.QuirkMatch
	// QuirkNotes explain how quirks and force_apst interact here.
	QuirkNotes []string
	// APSTDisabled reports that power/pm_qos_latency_tolerance_us is
	// absent: the kernel has APST disabled for the controller (NO_APST
	// without force_apst, or APSTA = 0).
	APSTDisabled bool
	// Bound is the controller's ps_max_latency_us. It is 0 (no bound
	// applies) when the kernel has APST disabled for the controller
	// (BoundSource is BoundAPSTDisabled: the tolerance file is absent), so
	// that an exporter never publishes a bound that does not apply;
	// Params.Bound keeps the module default the request was created with.
	Bound apst.Microseconds
	// BoundSource and BoundNote say where Bound comes from.
	BoundSource BoundSource
	BoundNote   string
	// ModuleDefaultBound is the bound nvme_core.default_ps_max_latency_us
	// gives a newly probed controller.
	ModuleDefaultBound apst.Microseconds
	// Params are the inputs of the plan.
	Params apst.Params
	// Plan is what the kernel programs, nil without Identify data.
	Plan *apst.Plan
	// ExpectedReach is where Plan's table takes the controller from state
	// 0 (analysis.Reachability): the deepest state with its exit latency
	// and max power (ps0's, exit latency 0, when the table makes no
	// transition). Nil without Plan.
	ExpectedReach *analysis.Reach
	// HeldReach is the same for the table the drive holds (Drive; no
	// transition when its APSTE is 0). Nil when Drive or Identify is nil.
	HeldReach *analysis.Reach
	// Drive is the APST feature the drive reports (Get Features 0Ch), nil
	// when it could not be read.
	Drive *apst.Feature
	// DriveProblem says why Drive is nil.
	DriveProblem *Problem
	// Power is the current power state and workload hint (Get Features
	// 02h), nil when it could not be read.
	Power *ioctl.PowerManagement
	// PowerProblem says why Power is nil.
	PowerProblem *Problem
	// SysfsProblems lists the attributes of class/nvme/NAME that exist but
	// could not be read or parsed (sysfs.Controller.Unreadable); the fields
	// they feed are unknown, not absent.
	SysfsProblems []*Problem
	// Verdict compares Plan with Drive.
	Verdict Verdict

	// uncertain says which causes unreadable inputs leave uncertain.
	uncertain []string
}

// machine holds what every controller report shares.
type machine struct {
	release   string
	rel       apst.Release
	gen       apst.Generation
	genNote   string
	module    sysfs.ModuleParams
	dmi       apst.DMI
	override  string // nvme.quirks=, "" for none
	uncertain []string
	// lean is set by a scrape (System.Metrics): judge compares the plan
	// with the drive without analysis.Check's reproduction search.
	lean bool
}

// Inspect reports on the named controllers ("nvme0"), in the order given
// and each once (a name given twice is reported where it first appears),
// or on all of them in name order when names is empty. Failures to read a
// controller's Identify data, its APST feature or its power state are
// recorded in the report, and so are sysfs attributes that exist but
// cannot be read: the controller is still
// reported, with what they leave unknown stated (Verdict.Notes). A
// controller that cannot be read at all (one a bundle lists but does not
// hold, say) is a problem in Report.Problems, and so is a bundle's
// Identify, APST or power-state file that is missing or damaged
// (Problem.Bundle; the controller is still reported). Inspect fails only when sysfs
// cannot be enumerated or a named controller does not exist
// (ErrNoController), or when ctx is done before it ends (an error wrapping
// ctx's cause: errors.Is(err, context.Canceled) or DeadlineExceeded).
//
// The pure part, comparing the plan with the drive and finding the
// configurations that reproduce the drive's table, is analysis.Check;
// Inspect adds what only a live machine knows: the bound from PM QoS, the
// module parameters, the DMI strings, nvme.quirks= and the sysfs quirks
// file.
//
// Each call reads each sysfs file once (one view of the machine) and each
// controller through one open, anew every time; what it derives from
// inputs that have not changed since an earlier call (a decoded Identify
// image, analysis.Check's answer for the same image, parameters and
// table) is kept between calls by content, and copied into the report. A
// System may be inspected from several goroutines at once.
func (s *System) Inspect(ctx context.Context, names ...string) (*Report, error) {
	if s == nil {
		return nil, nilSystem("inspect")
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("nvmeapst: inspect: %w", context.Cause(ctx))
	}
	rd := s.beginRead(needCheck | needPower)
	defer rd.end()
	ctrls, problems, err := rd.sys.controllers(ctx, "inspect", names)
	if err != nil {
		return nil, err
	}
	r, _ := rd.machine()
	r.Problems = append(r.Problems, problems...)
	for _, c := range ctrls {
		cr, _ := rd.controller(ctx, c)
		r.Problems = append(r.Problems, cr.SysfsProblems...)
		for _, p := range []*Problem{cr.IdentifyProblem, cr.DriveProblem, cr.PowerProblem} {
			if p != nil && p.Bundle {
				r.Problems = append(r.Problems, p) // a damaged bundle, not a fact of the machine
			}
		}
		r.Controllers = append(r.Controllers, cr)
		if ctx.Err() != nil {
			// A device read cut short reads as unknown: the report would
			// say so of a drive that answers. Say why instead.
			return nil, fmt.Errorf("nvmeapst: inspect %s: %w", c.Name, context.Cause(ctx))
		}
	}
	return r, nil
}

// controllers returns the named controllers, or all of them, each with
// what could be read of it, and a problem for each controller that could
// not be read at all. It stops between controllers once ctx is done, with
// an error wrapping its cause said of op.
func (s *System) controllers(ctx context.Context, op string, names []string) ([]sysfs.Controller, []*Problem, error) {
	if len(names) == 0 {
		all, err := s.FS.ControllerNames()
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, noControllers("nvmeapst", err)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("nvmeapst: listing the NVMe controllers: %w", err)
		}
		names = all
	} else {
		seen := make(map[string]bool, len(names))
		unique := make([]string, 0, len(names))
		for _, n := range names {
			if !validControllerName(n) {
				return nil, nil, fmt.Errorf("%w: %q is not a controller name (want nvmeN; namespaces such as nvme0n1 belong to a controller)", ErrNoController, n)
			}
			if !seen[n] {
				seen[n] = true
				unique = append(unique, n)
			}
		}
		names = unique // each controller once, where it is first named
	}
	var out []sysfs.Controller
	var problems []*Problem
	for _, n := range names {
		if ctx.Err() != nil {
			return nil, nil, fmt.Errorf("nvmeapst: %s: %w", op, context.Cause(ctx))
		}
		c, err := s.FS.Controller(n)
		switch {
		case err == nil:
			out = append(out, c)
		case errors.Is(err, sysfs.ErrMissingController):
			problems = append(problems, NewProblem(err))
		case errors.Is(err, fs.ErrNotExist) && c.Name == "":
			return nil, nil, fmt.Errorf("%w: %s (%v)", ErrNoController, n, err)
		case c.Name != "":
			out = append(out, c) // partly readable: c.Unreadable says what is not
		default:
			problems = append(problems, NewProblem(err))
		}
	}
	return out, problems, nil
}

// machine reads the machine-wide inputs.
func (s *System) machine() (*Report, *machine) {
	r := &Report{}
	m := &machine{}
	if rel, err := s.kernelRelease(); err == nil {
		m.release = rel
		if v, err := apst.ParseRelease(rel); err == nil {
			m.rel = v
		}
	}
	mp, err := s.FS.ModuleParams()
	r.ModuleProblem = NewProblem(err)
	m.module = mp
	relGen, relErr := m.rel.Generation()
	m.gen = generationOf(&mp, relGen, relErr)
	switch {
	case relErr == nil && relGen == apst.V4_11:
		m.genNote = "kernel release " + m.release + ": the v4.11 algorithm"
	case mp.PrimaryTimeoutMS != nil || mp.PrimaryLatencyTolUS != nil || m.gen == apst.Current:
		m.genNote = "the nvme_core apst_* parameters exist: v5.14 or later (tolerance bands)"
	case mp.DefaultPSMaxLatencyUS != nil:
		m.genNote = "no nvme_core apst_* parameters: a kernel older than v5.14 (2% heuristic)"
	case relErr == nil:
		m.genNote = "nvme_core parameters not readable: " + relGen.String() + " from kernel release " + m.release
	default:
		m.genNote = "nvme_core parameters not readable and kernel release unknown: assumed " + m.gen.String()
	}
	if relErr == nil && relGen != m.gen {
		m.genNote += fmt.Sprintf(" (kernel release %s would run %s)", m.release, relGen)
	}
	if len(mp.Unreadable) > 0 {
		m.uncertain = append(m.uncertain, fmt.Sprintf("nvme_core parameter%s %s could not be read: the kernel's value%s unknown (the default is assumed), so a cause involving %s is uncertain",
			plural(len(mp.Unreadable), "", "s"), strings.Join(mp.Unreadable, ", "), plural(len(mp.Unreadable), " is", "s are"), plural(len(mp.Unreadable), "it", "them")))
	}
	qp, err := s.FS.QuirksParam()
	r.QuirksParam, r.QuirksParamProblem = qp, NewProblem(err)
	switch {
	case err != nil && !qp.Present:
		m.uncertain = append(m.uncertain, "nvme.quirks (module/nvme/parameters/quirks) exists but could not be read: a quirk override would be missed")
	case err == nil:
		m.override = qp.Raw
	}
	d, err := s.FS.DMI()
	r.DMIProblem = NewProblem(err)
	m.dmi = d
	if err != nil {
		m.uncertain = append(m.uncertain, "a DMI string could not be read: a DMI quirk rule could be missed")
	}
	r.KernelRelease, r.Release, r.Generation, r.GenerationNote, r.Module, r.DMI = m.release, m.rel, m.gen, m.genNote, m.module, m.dmi
	return r, m
}

// generationOf is the kernel algorithm a report assumes: v4.11 when the
// release says so, otherwise what the module parameters show (the apst_*
// parameters: current; default_ps_max_latency_us alone: v4.12), otherwise
// the release's, otherwise mp.Generation()'s guess. machine says how.
func generationOf(mp *sysfs.ModuleParams, relGen apst.Generation, relErr error) apst.Generation {
	gen := mp.Generation()
	switch {
	case relErr == nil && relGen == apst.V4_11:
		return apst.V4_11
	case mp.PrimaryTimeoutMS != nil || mp.PrimaryLatencyTolUS != nil || gen == apst.Current:
		return gen
	case mp.DefaultPSMaxLatencyUS != nil:
		return gen
	case relErr == nil:
		return relGen
	}
	return gen
}

// unreadable returns the problem of attribute attr (relative to the
// controller's folder) when c lists it as unreadable, nil otherwise.
func unreadable(c *sysfs.Controller, attr string) *Problem {
	for _, u := range c.Unreadable {
		if strings.HasSuffix(u.Path, "/"+attr) {
			return NewProblem(u.Err)
		}
	}
	return nil
}

// controller builds the report of one controller from its sysfs
// attributes c: its admin commands through one open (controllerRead.device),
// the quirks, the bound, the plan and the verdict.
func (rd *controllerRead) controller(ctx context.Context, c sysfs.Controller) (ControllerReport, controllerDevice) {
	_, m := rd.machine()
	r := ControllerReport{Name: c.Name, Sysfs: c}
	for _, u := range c.Unreadable {
		r.SysfsProblems = append(r.SysfsProblems, NewProblem(u.Err))
	}
	r.uncertain = append(r.uncertain, m.uncertain...)
	dev := rd.device(ctx, &r)

	// Quirks: the kernel matches core_quirks[] on Identify VID, MN and FR,
	// the PCI table on the PCI ID, and the DMI rules on both.
	id := apst.Identity{DMI: m.dmi, Release: m.rel, Override: m.override}
	if r.Identify != nil {
		mn, fr := r.Identify.ModelBytes(), r.Identify.FirmwareBytes()
		id.VendorID, id.Model, id.Firmware = r.Identify.VendorID, string(mn[:]), string(fr[:])
	} else {
		id.Model, id.Firmware = strings.TrimRight(c.Model, " "), strings.TrimRight(c.FirmwareRev, " ")
		if c.HasPCI {
			id.VendorID = c.PCI.Vendor
			r.QuirkNotes = append(r.QuirkNotes, "Identify data unavailable: core_quirks matched on the PCI vendor ID and the sysfs model and firmware_rev")
		}
	}
	if c.HasPCI {
		id.PCI = c.PCI
	} else if c.PCIGap != "" {
		r.QuirkNotes = append(r.QuirkNotes, "PCI ID unknown ("+c.PCIGap+"): the nvme-pci quirk table and the DMI rules could only be checked through an ID inferred from the model, if any")
	}
	r.Identity = id
	r.Quirks = apst.LookupQuirks(id)
	switch {
	case c.HasQuirks:
		r.QuirkNotes = append(r.QuirkNotes, sysfsQuirks(&r, c.Quirks)...)
	case unreadable(&c, "quirks") != nil:
		r.uncertain = append(r.uncertain, "class/nvme/"+c.Name+"/quirks exists but could not be read: the quirks are this model's tables, which the running kernel may not share")
	}

	tolProblem := unreadable(&c, "pm_qos_latency_tolerance_us")
	in := kernelInputs{
		ident: r.Identify, module: &m.module, gen: m.gen, rel: m.rel,
		quirks: r.Quirks.Quirks, quirksFile: c.HasQuirks,
		tol: c.Tolerance, hasTol: c.HasTolerance, tolBad: tolProblem != nil,
	}
	var trial apst.Plan
	p, inferred := kernelParams(&in, &trial)
	r.ModuleDefaultBound = in.moduleDefault()
	r.APSTDisabled = in.apstDisabled()
	switch {
	case tolProblem != nil:
		r.BoundSource = BoundUnreadable
		r.BoundNote = "power/pm_qos_latency_tolerance_us could not be read (" + tolProblem.Message + "): the bound is unknown; assumed the module default " + r.ModuleDefaultBound.String()
		r.uncertain = append(r.uncertain, "pm_qos_latency_tolerance_us could not be read: the bound is assumed, so bound-changed and whether the kernel has APST enabled for this controller (NO_APST, APSTA = 0) are uncertain")
	case !c.HasTolerance:
		r.BoundSource = BoundAPSTDisabled
		r.BoundNote = "power/pm_qos_latency_tolerance_us is absent: the kernel has APST disabled for this controller (NO_APST quirk without force_apst, or APSTA = 0)"
	case c.Tolerance.Kind == apst.ToleranceAuto:
		r.BoundSource = BoundPMQoSAuto
		r.BoundNote = "pm_qos_latency_tolerance_us reads auto (no user constraint): the driver then uses no limit, not the module default " + r.ModuleDefaultBound.String()
	case c.Tolerance == probeTolerance(m):
		r.BoundSource = BoundModuleDefault
		r.BoundNote = "pm_qos_latency_tolerance_us reads " + c.Tolerance.String() + ", what nvme_core.default_ps_max_latency_us" + moduleDefaultText(m) + " installs at probe time"
	default:
		r.BoundSource = BoundPMQoS
		r.BoundNote = "set for this controller: pm_qos_latency_tolerance_us reads " + c.Tolerance.String() + " (the module default would give " + r.ModuleDefaultBound.String() + ")"
	}
	r.Bound = p.Bound
	if r.BoundSource == BoundAPSTDisabled {
		r.Bound = 0 // no bound applies while APST is off
	}
	if inferred {
		r.Quirks.Quirks |= apst.QuirkNoAPST
		r.Quirks.Sources = append(r.Quirks.Sources, apst.QuirkSource{
			Table:  "inferred",
			Rule:   "power/pm_qos_latency_tolerance_us is absent although APSTA is non-zero: the running kernel disabled APST (a NO_APST quirk this model does not know)",
			Quirks: apst.QuirkNoAPST,
		})
	}
	r.QuirkNotes = append(r.QuirkNotes, quirkNotes(r.Quirks.Quirks, p.ForceAPST, m.gen)...)
	r.Params = p

	if r.Identify != nil {
		if plan, err := apst.Build(r.Identify, p); err == nil {
			r.Plan = &plan
		} else if r.IdentifyProblem == nil {
			r.IdentifyProblem = NewProblem(err)
		}
	}
	r.ExpectedReach, r.HeldReach = reaches(&r)
	r.Verdict = judge(&r, m, dev.image)
	return r, dev
}

// reaches returns where the kernel's table and the drive's take the
// controller: ControllerReport.ExpectedReach and HeldReach.
func reaches(r *ControllerReport) (expected, held *analysis.Reach) {
	if r.Identify == nil {
		return nil, nil
	}
	if r.Plan != nil {
		e := analysis.Reachability(r.Identify, &r.Plan.Table)
		expected = &e
	}
	if r.Drive != nil {
		t := r.Drive.Table
		if r.Drive.APSTE == apst.APSTEDisabled {
			t = apst.Table{}
		}
		h := analysis.Reachability(r.Identify, &t)
		held = &h
	}
	return expected, held
}

// Assumptions returns what the report on the controller assumed because
// the machine did not say it. That is the quirk lookup's
// (Quirks.Assumptions: a release, PCI ID or DMI strings that could not be
// read), unless the controller's sysfs quirks file gave the kernel's own
// quirk set, and an unknown APSTA (Plan.AssumedAPSTA). The zero ControllerReport assumed
// nothing.
func (r *ControllerReport) Assumptions() apst.Assumptions {
	var a apst.Assumptions
	if !r.Sysfs.HasQuirks {
		a = r.Quirks.Assumptions()
	}
	if r.Plan != nil {
		a.APSTAUnknown = r.Plan.AssumedAPSTA
	}
	return a
}

// sysfsQuirks makes the controller's quirks file the quirk set (it is the
// kernel's own answer: tables, DMI rules, nvme.quirks= and backports) and
// says where it departs from the model's lookup.
func sysfsQuirks(r *ControllerReport, names []string) []string {
	q, unknown := apst.ParseQuirksFile(strings.Join(names, "\n"))
	model := r.Quirks
	var notes []string
	if model.APST() != q.APST() {
		notes = append(notes, fmt.Sprintf("the kernel's quirks file lists APST quirks %s where this model's tables give %s: the file wins (a backport, nvme.quirks= or another release)", q.APST(), model.APST()))
	}
	if len(unknown) > 0 {
		notes = append(notes, "the quirks file lists names this model does not know: "+strings.Join(unknown, ", "))
	}
	r.Quirks.Quirks = q
	r.Quirks.Sources = []apst.QuirkSource{{
		Table:  "sysfs",
		Rule:   "class/nvme/" + r.Name + "/quirks lists " + q.String(),
		Quirks: q,
	}}
	r.Quirks.UncheckedPCI, r.Quirks.UncheckedDMI = nil, false
	return notes
}

// moduleDefaultBound is the bound a new controller gets from the module.
func moduleDefaultBound(m *machine) apst.Microseconds {
	if v := m.module.DefaultPSMaxLatencyUS; v != nil {
		return apst.ModuleDefaultBound(*v)
	}
	return apst.DefaultParams(m.gen).Bound
}

// probeTolerance is what pm_qos_latency_tolerance_us reads right after
// probe: min(default_ps_max_latency_us, S32_MAX), S32_MAX reading "any".
func probeTolerance(m *machine) apst.Tolerance {
	b := moduleDefaultBound(m)
	if b == apst.NoLimit || b >= apst.LatencyAny {
		return apst.Tolerance{Kind: apst.ToleranceAny}
	}
	return apst.Tolerance{Kind: apst.ToleranceValue, Value: uint32(b)}
}

func moduleDefaultText(m *machine) string {
	if v := m.module.DefaultPSMaxLatencyUS; v != nil {
		return "=" + strconv.FormatUint(*v, 10)
	}
	return " (unreadable, assumed " + apst.DefaultParams(m.gen).Bound.String() + ")"
}

// quirkNotes explains the effect of the quirks and force_apst.
func quirkNotes(q apst.Quirks, force bool, gen apst.Generation) []string {
	var notes []string
	hasForce := force && gen != apst.V4_11
	if q&apst.QuirkNoAPST != 0 {
		if hasForce {
			notes = append(notes, "no-apst is overridden by nvme_core.force_apst=Y (the kernel warns \"forcibly allowing APST\")")
		} else {
			notes = append(notes, "no-apst: the kernel sends APSTE=0 with a zero table (v4.11 and v4.12: nothing at all)")
		}
	}
	if q&apst.QuirkNoDeepestPS != 0 {
		if hasForce {
			notes = append(notes, "no-deepest-ps is cancelled by nvme_core.force_apst=Y (\"forcibly allowing all power states\")")
		} else {
			notes = append(notes, "no-deepest-ps: the deepest power state (index NPSS) is never an APST target")
		}
	}
	if force && gen == apst.V4_11 {
		notes = append(notes, "force_apst does not exist in v4.11 and is ignored")
	}
	return notes
}

// noControllers is the error of a tree without class/nvme, prefixed: on a
// sysfs tree the nvme driver is not loaded; a tree that is no sysfs at all
// (sysfs.ErrNotSysfs: a --root given the wrong directory) and a class/nvme
// that lists none (sysfs.ErrNoControllers) say that alone.
func noControllers(prefix string, err error) error {
	if errors.Is(err, sysfs.ErrNotSysfs) || errors.Is(err, sysfs.ErrNoControllers) {
		return fmt.Errorf("%s: %w", prefix, err)
	}
	return fmt.Errorf("%s: no NVMe controllers (is the nvme driver loaded?): %w", prefix, err)
}
