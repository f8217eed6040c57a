package nvmeapst

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/ioctl"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

// ErrNoController is returned when a controller named on the command line or in an API call
// is not in class/nvme.
var ErrNoController = errors.New("nvmeapst: no such NVMe controller")

// Report is what [System.Inspect] finds: the machine-wide inputs of the
// kernel's APST configuration and, for every controller, what the kernel
// should have programmed, what the drive holds, and the verdict.
//
// A report is a value: inspecting a bundle written by [System.Collect] gives
// a report equal to the one of the machine it was collected on.
type Report struct {
	// KernelRelease is uname -r ("" when unknown).
	KernelRelease string
	// Generation is the kernel algorithm the report assumes.
	Generation apst.Generation
	// GenerationNote says how Generation was inferred.
	GenerationNote string
	// Module holds the nvme_core module parameters as read (nil fields were
	// absent or unreadable).
	Module sysfs.ModuleParams
	// ModuleProblem is set when the module parameters could not be read.
	ModuleProblem *Problem
	// DMI holds the SMBIOS strings the kernel's quirk rules read.
	DMI apst.DMI
	// DMIProblem is set when they could not be read.
	DMIProblem *Problem
	// Controllers holds one report per controller, in name order.
	Controllers []ControllerReport
	// Problems lists controllers that could not be read from sysfs at all.
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
)

// ControllerReport is the inspection of one controller.
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
	// Bound is the controller's ps_max_latency_us.
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
	// Verdict compares Plan with Drive.
	Verdict Verdict
}

// machine holds what every controller report shares.
type machine struct {
	release string
	gen     apst.Generation
	genNote string
	module  sysfs.ModuleParams
	dmi     apst.DMI
}

// Inspect reports on the named controllers ("nvme0"), or on all of them
// when names is empty. Failures to read a controller's Identify data, its
// APST feature or its power state are recorded in the report; Inspect fails
// only when sysfs cannot be enumerated or a named controller does not exist
// (ErrNoController).
func (s *System) Inspect(ctx context.Context, names ...string) (*Report, error) {
	ctrls, err := s.controllers(names)
	if err != nil && (len(names) > 0 || len(ctrls) == 0) {
		return nil, err
	}
	r, m := s.machine()
	if err != nil {
		// Some controllers could not be read; report the others.
		r.Problems = append(r.Problems, NewProblem(err))
	}
	for _, c := range ctrls {
		r.Controllers = append(r.Controllers, s.inspectController(ctx, m, c))
	}
	return r, nil
}

// controllers returns the named controllers, or all of them.
func (s *System) controllers(names []string) ([]sysfs.Controller, error) {
	if len(names) == 0 {
		ctrls, err := s.FS.Controllers()
		if errors.Is(err, os.ErrNotExist) && len(ctrls) == 0 {
			return nil, fmt.Errorf("nvmeapst: no NVMe controllers (is the nvme driver loaded?): %w", err)
		}
		return ctrls, err
	}
	out := make([]sysfs.Controller, 0, len(names))
	for _, n := range names {
		if !validControllerName(n) {
			return nil, fmt.Errorf("%w: %q is not a controller name (want nvmeN; namespaces such as nvme0n1 belong to a controller)", ErrNoController, n)
		}
		c, err := s.FS.Controller(n)
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%w: %s (%v)", ErrNoController, n, err)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// machine reads the machine-wide inputs.
func (s *System) machine() (*Report, *machine) {
	r := &Report{}
	m := &machine{}
	if rel, err := s.kernelRelease(); err == nil {
		m.release = rel
	}
	mp, err := s.FS.ModuleParams()
	r.ModuleProblem = NewProblem(err)
	m.module = mp
	m.gen = mp.Generation()
	switch {
	case releaseIs411(m.release):
		m.gen = apst.V4_11
		m.genNote = "kernel release " + m.release + ": the v4.11 algorithm"
	case mp.PrimaryTimeoutMS != nil || mp.PrimaryLatencyTolUS != nil:
		m.genNote = "the nvme_core apst_* parameters exist: v5.14 or later (tolerance bands)"
	case mp.DefaultPSMaxLatencyUS != nil:
		m.genNote = "no nvme_core apst_* parameters: a kernel older than v5.14 (2% heuristic)"
	default:
		m.genNote = "nvme_core parameters not readable: assumed " + m.gen.String()
	}
	d, err := s.FS.DMI()
	r.DMIProblem = NewProblem(err)
	m.dmi = d
	r.KernelRelease, r.Generation, r.GenerationNote, r.Module, r.DMI = m.release, m.gen, m.genNote, m.module, m.dmi
	return r, m
}

// releaseIs411 reports whether a uname -r string is a 4.11 kernel.
func releaseIs411(rel string) bool {
	return rel == "4.11" || strings.HasPrefix(rel, "4.11.") || strings.HasPrefix(rel, "4.11-")
}

// inspectController builds the report of one controller.
func (s *System) inspectController(ctx context.Context, m *machine, c sysfs.Controller) ControllerReport {
	r := ControllerReport{Name: c.Name, Sysfs: c}
	s.readDevice(ctx, &r)

	// Quirks: the kernel matches core_quirks[] on Identify VID, MN and FR,
	// the PCI table on the PCI ID, and the DMI rules on both.
	id := apst.Identity{DMI: m.dmi}
	if r.Identify != nil {
		id.VendorID, id.Model, id.Firmware = r.Identify.VendorID, r.Identify.Model, r.Identify.Firmware
	} else {
		id.Model, id.Firmware = strings.TrimRight(c.Model, " "), strings.TrimRight(c.FirmwareRev, " ")
		if c.HasPCI {
			id.VendorID = c.PCI.Vendor
			r.QuirkNotes = append(r.QuirkNotes, "Identify data unavailable: core_quirks matched on the PCI vendor ID and the sysfs model and firmware_rev")
		}
	}
	if c.HasPCI {
		id.PCI = c.PCI
	}
	r.Identity = id
	r.Quirks = apst.LookupQuirks(id)

	p := sysfs.Params(m.module, c)
	p.Generation = m.gen
	p.Quirks = r.Quirks.APST()
	r.ModuleDefaultBound = moduleDefaultBound(m)
	r.APSTDisabled = !c.HasTolerance
	switch {
	case !c.HasTolerance:
		r.BoundSource = BoundAPSTDisabled
		r.BoundNote = "power/pm_qos_latency_tolerance_us is absent: the kernel has APST disabled for this controller (NO_APST quirk without force_apst, or APSTA = 0)"
		p.Bound = r.ModuleDefaultBound // what the request was created with; unused while APST is off
	case c.Tolerance.Kind == apst.ToleranceAuto:
		p.Bound = apst.NoLimit
		r.BoundSource = BoundPMQoSAuto
		r.BoundNote = "pm_qos_latency_tolerance_us reads auto (no user constraint): the driver then uses no limit, not the module default " + r.ModuleDefaultBound.String()
	case c.Tolerance == probeTolerance(m):
		p.Bound = c.Tolerance.Bound()
		r.BoundSource = BoundModuleDefault
		r.BoundNote = "pm_qos_latency_tolerance_us reads " + c.Tolerance.String() + ", what nvme_core.default_ps_max_latency_us" + moduleDefaultText(m) + " installs at probe time"
	default:
		p.Bound = c.Tolerance.Bound()
		r.BoundSource = BoundPMQoS
		r.BoundNote = "set for this controller: pm_qos_latency_tolerance_us reads " + c.Tolerance.String() + " (the module default would give " + r.ModuleDefaultBound.String() + ")"
	}
	r.Bound = p.Bound

	if r.Identify != nil && !c.HasTolerance {
		// The attribute is hidden exactly when apst_enabled is false. If the
		// model's quirk tables do not explain that, the running kernel knows
		// a NO_APST quirk this model does not.
		trial := p
		if plan, err := apst.Build(r.Identify, trial); err == nil && plan.Enabled {
			p.Quirks |= apst.QuirkNoAPST
			p.ForceAPST = false
			r.Quirks.Quirks |= apst.QuirkNoAPST
			r.Quirks.Sources = append(r.Quirks.Sources, apst.QuirkSource{
				Table:  "inferred",
				Rule:   "power/pm_qos_latency_tolerance_us is absent although APSTA is non-zero: the running kernel disabled APST (a NO_APST quirk this model does not know)",
				Quirks: apst.QuirkNoAPST,
			})
		}
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
	r.Verdict = judge(&r, m)
	return r
}

// readDevice sends Identify and the two Get Features commands.
func (s *System) readDevice(ctx context.Context, r *ControllerReport) {
	if s.Opener == nil {
		r.DeviceProblem = &Problem{Message: "no admin command path: the data source has no device access (a sysfs tree without a bundle's ioctl data)", Unsupported: true}
		return
	}
	dev, err := s.Opener.OpenController(ctx, r.Name)
	if err != nil {
		r.DeviceProblem = NewProblem(err)
		return
	}
	defer dev.Close()
	if img, err := dev.IdentifyController(ctx); err != nil {
		r.IdentifyProblem = NewProblem(err)
	} else if c, err := powerstate.DecodeIdentify(img); err != nil {
		r.IdentifyProblem = NewProblem(err)
	} else {
		r.Identify = &c
	}
	if f, err := dev.GetAPST(ctx); err != nil {
		r.DriveProblem = NewProblem(err)
	} else {
		r.Drive = &f
	}
	if pm, err := dev.GetPowerManagement(ctx); err != nil {
		r.PowerProblem = NewProblem(err)
	} else {
		r.Power = &pm
	}
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
