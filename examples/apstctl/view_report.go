package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
	"github.com/nvmeapst/nvmeapst/internal/describe"
)

// The views of an inspect report (nvmeapst.Report): its JSON (cli.md:
// snake_case keys, stable names for enumerations, 64-bit entries as "0x"
// and 16 hex digits, null for what is unknown) and its text. Both are
// written here, in the command: the library renders nothing.

type reportJSON struct {
	KernelRelease  string              `json:"kernel_release"`
	Generation     string              `json:"generation"`
	GenerationNote string              `json:"generation_note"`
	Module         moduleJSON          `json:"module"`
	ModuleError    *nvmeapst.Problem   `json:"module_error"`
	DMI            dmiJSON             `json:"dmi"`
	DMIError       *nvmeapst.Problem   `json:"dmi_error"`
	Controllers    []controllerJSON    `json:"controllers"`
	Problems       []*nvmeapst.Problem `json:"problems"`
	// Assumptions are what every controller's answer assumed, said once;
	// each controller's "assumptions" has what it adds.
	Assumptions assumptionsJSON `json:"assumptions"`
}

type moduleJSON struct {
	DefaultPSMaxLatencyUS *uint64 `json:"default_ps_max_latency_us"`
	ForceAPST             *bool   `json:"force_apst"`
	PrimaryTimeoutMS      *uint64 `json:"apst_primary_timeout_ms"`
	SecondaryTimeoutMS    *uint64 `json:"apst_secondary_timeout_ms"`
	PrimaryLatencyTolUS   *uint64 `json:"apst_primary_latency_tol_us"`
	SecondaryLatencyTolUS *uint64 `json:"apst_secondary_latency_tol_us"`
}

type dmiJSON struct {
	SysVendor   string `json:"sys_vendor"`
	ProductName string `json:"product_name"`
	BoardVendor string `json:"board_vendor"`
	BoardName   string `json:"board_name"`
}

type pciJSON struct {
	ID              string `json:"id"`
	SubsystemVendor string `json:"subsystem_vendor"`
	SubsystemDevice string `json:"subsystem_device"`
}

type controllerJSON struct {
	Name          string            `json:"name"`
	Model         string            `json:"model"`
	Serial        string            `json:"serial"`
	FirmwareRev   string            `json:"firmware_rev"`
	Transport     string            `json:"transport"`
	State         string            `json:"state"`
	Address       string            `json:"address"`
	ControllerID  *uint16           `json:"cntlid"`
	PCI           *pciJSON          `json:"pci"`
	CPULatencyUS  *int64            `json:"cpu_latency_us"`
	DeviceError   *nvmeapst.Problem `json:"device_error"`
	Identify      *identifyJSON     `json:"identify"`
	IdentifyError *nvmeapst.Problem `json:"identify_error"`
	Quirks        quirksJSON        `json:"quirks"`
	APSTDisabled  bool              `json:"apst_disabled_by_kernel"`
	Tolerance     *string           `json:"pm_qos_latency_tolerance_us"`
	Bound         boundJSON         `json:"bound"`
	Params        paramsJSON        `json:"params"`
	Plan          *planJSON         `json:"plan"`
	Drive         *featureJSON      `json:"drive"`
	DriveError    *nvmeapst.Problem `json:"drive_error"`
	Power         *drivePowerJSON   `json:"power"`
	PowerError    *nvmeapst.Problem `json:"power_error"`
	Verdict       verdictJSON       `json:"verdict"`
	// ExpectedReach and HeldReach are where the kernel's table and the
	// drive's take the controller (null without them).
	ExpectedReach *reachJSON       `json:"expected_reach"`
	HeldReach     *reachJSON       `json:"held_reach"`
	Assumptions   *assumptionsJSON `json:"assumptions"`
	// PowerManagement is what inspect adds: the PCIe and device power
	// layers beside the APST table.
	PowerManagement *factsJSON `json:"power_management,omitempty"`
}

type identifyJSON struct {
	VendorID    string           `json:"vid"`
	Model       string           `json:"model"`
	Serial      string           `json:"serial"`
	Firmware    string           `json:"firmware"`
	NPSS        uint8            `json:"npss"`
	APSTA       uint8            `json:"apsta"`
	Fabrics     *bool            `json:"fabrics"`
	PowerStates []powerStateJSON `json:"power_states"`
}

type powerStateJSON struct {
	State          int    `json:"state"`
	MaxPower       string `json:"max_power"`
	NonOperational bool   `json:"non_operational"`
	EntryLatencyUS uint32 `json:"entry_latency_us"`
	ExitLatencyUS  uint32 `json:"exit_latency_us"`
}

type quirksJSON struct {
	APST    string            `json:"apst"`
	All     string            `json:"all"`
	Sources []quirkSourceJSON `json:"sources"`
	Notes   []string          `json:"notes"`
	quirkJSON
}

type quirkSourceJSON struct {
	Table  string `json:"table"`
	Rule   string `json:"rule"`
	Quirks string `json:"quirks"`
}

type boundJSON struct {
	US                     uint64 `json:"us"`
	Unlimited              bool   `json:"unlimited"`
	Source                 string `json:"source"`
	Note                   string `json:"note"`
	ModuleDefaultUS        uint64 `json:"module_default_us"`
	ModuleDefaultUnlimited bool   `json:"module_default_unlimited"`
}

type drivePowerJSON struct {
	State          uint8 `json:"state"`
	WorkloadHint   uint8 `json:"workload_hint"`
	NonOperational *bool `json:"non_operational"`
}

type verdictJSON struct {
	Status        string          `json:"status"`
	Summary       string          `json:"summary"`
	KernelEnabled bool            `json:"kernel_enabled"`
	DriveEnabled  *bool           `json:"drive_enabled"`
	DriveAPSTE    string          `json:"drive_apste"`
	Differences   []entryDiffJSON `json:"differences"`
	Causes        []causeJSON     `json:"causes"`
	Notes         []string        `json:"notes"`
}

type causeJSON struct {
	Kind   string `json:"kind"`
	Detail string `json:"detail"`
}

// reportView is the JSON of an inspect report.
func reportView(r *nvmeapst.Report) reportJSON {
	v := reportJSON{
		KernelRelease:  r.KernelRelease,
		Generation:     r.Generation.String(),
		GenerationNote: r.GenerationNote,
		Module: moduleJSON{
			DefaultPSMaxLatencyUS: r.Module.DefaultPSMaxLatencyUS,
			ForceAPST:             r.Module.ForceAPST,
			PrimaryTimeoutMS:      r.Module.PrimaryTimeoutMS,
			SecondaryTimeoutMS:    r.Module.SecondaryTimeoutMS,
			PrimaryLatencyTolUS:   r.Module.PrimaryLatencyTolUS,
			SecondaryLatencyTolUS: r.Module.SecondaryLatencyTolUS,
		},
		ModuleError: r.ModuleProblem,
		DMI:         dmiJSON{r.DMI.SysVendor, r.DMI.ProductName, r.DMI.BoardVendor, r.DMI.BoardName},
		DMIError:    r.DMIProblem,
		Controllers: make([]controllerJSON, 0, len(r.Controllers)),
		Problems:    r.Problems,
	}
	if v.Problems == nil {
		v.Problems = []*nvmeapst.Problem{}
	}
	common, own := reportAssumptions(r)
	v.Assumptions = assumptionsView(&common)
	for i := range r.Controllers {
		cv := controllerView(&r.Controllers[i])
		cv.Assumptions = ownAssumptionsView(&own[i])
		v.Controllers = append(v.Controllers, cv)
	}
	return v
}

// reportAssumptions splits the controllers' assumptions into what they
// share, said once for the report, and what each adds.
func reportAssumptions(r *nvmeapst.Report) (apst.Assumptions, []apst.Assumptions) {
	as := make([]apst.Assumptions, len(r.Controllers))
	for i := range r.Controllers {
		as[i] = r.Controllers[i].Assumptions()
	}
	return splitAssumptions(as)
}

// reachJSON is where a table takes a controller (analysis.Reach).
type reachJSON struct {
	DeepestState         int     `json:"deepest_state"`
	DeepestExitLatencyUS uint64  `json:"deepest_exit_latency_us"`
	DeepestMaxPowerW     float64 `json:"deepest_max_power_w"`
	WorstExitState       int     `json:"worst_exit_state"`
	WorstExitLatencyUS   uint64  `json:"worst_exit_latency_us"`
	ReachableStates      []int   `json:"reachable_states"`
}

func reachView(r *analysis.Reach) *reachJSON {
	if r == nil {
		return nil
	}
	return &reachJSON{
		DeepestState: int(r.Deepest), DeepestExitLatencyUS: uint64(r.DeepestExitLatency),
		DeepestMaxPowerW: float64(r.DeepestMaxPower.MicroWatts()) / 1e6,
		WorstExitState:   r.WorstExitState, WorstExitLatencyUS: uint64(r.WorstExitLatency),
		ReachableStates: stateList(r.States),
	}
}

// reachText is one line on where a table takes the controller.
func reachText(r *analysis.Reach) string {
	return fmt.Sprintf("ps%d (exit latency %s, max power %s)", r.Deepest, r.DeepestExitLatency, r.DeepestMaxPower)
}

// controllerView is the JSON of one controller of a report.
func controllerView(c *nvmeapst.ControllerReport) controllerJSON {
	s := c.Sysfs
	v := controllerJSON{
		Name: c.Name, Model: s.Model, Serial: s.Serial, FirmwareRev: s.FirmwareRev,
		Transport: s.Transport, State: s.State, Address: s.Address,
		CPULatencyUS:  s.CPULatency,
		DeviceError:   c.DeviceProblem,
		IdentifyError: c.IdentifyProblem,
		Quirks: quirksJSON{
			APST: c.Quirks.Quirks.APST().String(), All: c.Quirks.Quirks.String(),
			Sources: []quirkSourceJSON{}, Notes: nonNil(c.QuirkNotes),
			quirkJSON: quirkView(&c.Quirks),
		},
		APSTDisabled: c.APSTDisabled,
		Bound: boundJSON{
			US: uint64(c.Bound), Unlimited: c.Bound == apst.NoLimit,
			Source: string(c.BoundSource), Note: c.BoundNote,
			ModuleDefaultUS: uint64(c.ModuleDefaultBound), ModuleDefaultUnlimited: c.ModuleDefaultBound == apst.NoLimit,
		},
		Params:        paramsView(&c.Params),
		DriveError:    c.DriveProblem,
		PowerError:    c.PowerProblem,
		Verdict:       verdictView(&c.Verdict),
		ExpectedReach: reachView(c.ExpectedReach), HeldReach: reachView(c.HeldReach),
	}
	a := c.Assumptions()
	av := assumptionsView(&a)
	v.Assumptions = &av
	if c.Plan != nil {
		pv := planView(c.Plan)
		v.Plan = &pv
	}
	if s.HasControllerID {
		id := s.ControllerID
		v.ControllerID = &id
	}
	if s.HasPCI {
		v.PCI = &pciJSON{ID: s.PCI.String(), SubsystemVendor: fmt.Sprintf("%04x", s.SubsystemVendor), SubsystemDevice: fmt.Sprintf("%04x", s.SubsystemDevice)}
	}
	if s.HasTolerance {
		t := s.Tolerance.String()
		v.Tolerance = &t
	}
	for _, src := range c.Quirks.Sources {
		v.Quirks.Sources = append(v.Quirks.Sources, quirkSourceJSON{src.Table, src.Rule, src.Quirks.String()})
	}
	if id := c.Identify; id != nil {
		ji := &identifyJSON{
			VendorID: fmt.Sprintf("%#04x", id.VendorID), Model: id.Model, Serial: id.Serial,
			Firmware: id.Firmware, NPSS: id.NPSS, APSTA: id.APSTA,
		}
		if fabrics, known := id.Fabrics(); known {
			ji.Fabrics = &fabrics
		}
		for i, d := range id.States() {
			ji.PowerStates = append(ji.PowerStates, powerStateJSON{
				State: i, MaxPower: d.MaxPower.String(), NonOperational: d.NonOperational,
				EntryLatencyUS: uint32(d.EntryLatency), ExitLatencyUS: uint32(d.ExitLatency),
			})
		}
		v.Identify = ji
	}
	if c.Drive != nil {
		fv := featureView(c.Drive)
		v.Drive = &fv
	}
	if c.Power != nil {
		v.Power = &drivePowerJSON{State: c.Power.State, WorkloadHint: c.Power.WorkloadHint}
		if c.Identify != nil && int(c.Power.State) < c.Identify.StateCount() {
			nop := c.Identify.PowerStates[c.Power.State].NonOperational
			v.Power.NonOperational = &nop
		}
	}
	return v
}

func verdictView(v *nvmeapst.Verdict) verdictJSON {
	out := verdictJSON{
		Status: string(v.Status), Summary: v.Summary,
		KernelEnabled: v.KernelEnabled, DriveAPSTE: v.DriveAPSTE.String(),
		Differences: entryDiffsView(v.Differences), Causes: []causeJSON{}, Notes: nonNil(v.Notes),
	}
	if v.DriveAPSTE.Known() {
		on := v.DriveAPSTE == apst.APSTEEnabled
		out.DriveEnabled = &on
	}
	for i := range out.Differences {
		out.Differences[i].Kernel = out.Differences[i].Expected.Value // deprecated key, one release
	}
	for _, c := range v.Causes {
		out.Causes = append(out.Causes, causeJSON{string(c.Kind), c.Detail})
	}
	return out
}

// writeReportText writes the report as a readable text, one section per
// controller; strings from the machine are escaped.
func writeReportText(w io.Writer, r *nvmeapst.Report, extra ...func(io.Writer, *nvmeapst.ControllerReport)) {
	rel := r.KernelRelease
	if rel == "" {
		rel = "unknown"
	}
	fmt.Fprintf(w, "kernel %s, APST algorithm %s (%s)\n", view.Escape(rel), r.Generation, r.GenerationNote)
	fmt.Fprintf(w, "nvme_core: %s\n", moduleText(r))
	if r.ModuleProblem != nil {
		fmt.Fprintf(w, "  module parameters unreadable: %s\n", problemText(r.ModuleProblem))
	}
	fmt.Fprintf(w, "DMI: sys_vendor=%q product_name=%q board_vendor=%q board_name=%q\n",
		r.DMI.SysVendor, r.DMI.ProductName, r.DMI.BoardVendor, r.DMI.BoardName)
	if r.DMIProblem != nil {
		fmt.Fprintf(w, "  DMI unreadable: %s\n", problemText(r.DMIProblem))
	}
	for _, p := range r.Problems {
		fmt.Fprintf(w, "unreadable: %s\n", problemText(p)) // a controller, an attribute, a bundle file
	}
	if len(r.Controllers) == 0 {
		fmt.Fprintln(w, "\nno NVMe controllers")
	}
	as := make([]apst.Assumptions, len(r.Controllers))
	names := make([]string, len(r.Controllers))
	for i := range r.Controllers {
		as[i], names[i] = r.Controllers[i].Assumptions(), r.Controllers[i].Name
	}
	for _, l := range groupedAssumptionLines(as, names) {
		fmt.Fprintln(w, l)
	}
	for i := range r.Controllers {
		fmt.Fprintln(w)
		writeControllerText(w, &r.Controllers[i], &apst.Assumptions{})
		for _, x := range extra {
			x(w, &r.Controllers[i])
		}
	}
}

func moduleText(r *nvmeapst.Report) string {
	m := r.Module
	def := apst.DefaultParams(r.Generation)
	assumed := map[string]string{
		"default_ps_max_latency_us":     strconv.FormatUint(uint64(def.Bound), 10),
		"force_apst":                    yn(def.ForceAPST),
		"apst_primary_timeout_ms":       strconv.FormatUint(uint64(def.PrimaryTimeout), 10),
		"apst_secondary_timeout_ms":     strconv.FormatUint(uint64(def.SecondaryTimeout), 10),
		"apst_primary_latency_tol_us":   strconv.FormatUint(uint64(def.PrimaryTolerance), 10),
		"apst_secondary_latency_tol_us": strconv.FormatUint(uint64(def.SecondaryTolerance), 10),
	}
	missing := func(name string) string {
		// A file that exists but does not parse, or cannot be read: say
		// which, and what the plan assumed in its place.
		switch {
		case slices.Contains(m.Malformed, name):
			return name + "=(malformed: assumed " + assumed[name] + ")"
		case slices.Contains(m.Unreadable, name):
			return name + "=(unreadable: assumed " + assumed[name] + ")"
		}
		return name + "=(absent)"
	}
	u := func(name string, v *uint64) string {
		if v == nil {
			return missing(name)
		}
		return name + "=" + strconv.FormatUint(*v, 10)
	}
	force := missing("force_apst")
	if m.ForceAPST != nil {
		force = "force_apst=" + yn(*m.ForceAPST)
	}
	return strings.Join([]string{
		u("default_ps_max_latency_us", m.DefaultPSMaxLatencyUS), force,
		u("apst_primary_timeout_ms", m.PrimaryTimeoutMS), u("apst_secondary_timeout_ms", m.SecondaryTimeoutMS),
		u("apst_primary_latency_tol_us", m.PrimaryLatencyTolUS), u("apst_secondary_latency_tol_us", m.SecondaryLatencyTolUS),
	}, " ")
}

func yn(b bool) string {
	if b {
		return "Y"
	}
	return "N"
}

// problemText is a problem's message (escaped: it may quote a path or a
// device's answer) with advice for its class.
func problemText(p *nvmeapst.Problem) string {
	msg := view.EscapeMessage(p.Message)
	switch {
	case p.Permission && strings.Contains(p.Message, "CAP_SYS_ADMIN"):
		// the message says it already
	case p.Permission:
		msg += " (run as root: Get Features needs CAP_SYS_ADMIN, and kernels before v6.2 require it for Identify too)"
	case p.Unsupported:
		msg += " (admin commands are only sent on Linux)"
	}
	return msg
}

// writeControllerText writes the section of a controller; a is what its
// answer assumed that the report has not said already.
func writeControllerText(w io.Writer, c *nvmeapst.ControllerReport, a *apst.Assumptions) {
	s := c.Sysfs
	fmt.Fprintf(w, "%s: %s, serial %s, firmware %s\n", view.Escape(c.Name), orDash(view.Escape(strings.TrimSpace(s.Model))),
		orDash(view.Escape(strings.TrimSpace(s.Serial))), orDash(view.Escape(strings.TrimSpace(s.FirmwareRev))))
	line := []string{"transport " + orDash(view.Escape(s.Transport)), "state " + orDash(view.Escape(s.State))}
	if s.Address != "" {
		line = append(line, "address "+view.Escape(s.Address))
	}
	if s.HasControllerID {
		line = append(line, fmt.Sprintf("cntlid %d", s.ControllerID))
	}
	if s.HasPCI {
		line = append(line, fmt.Sprintf("PCI %s (subsystem %04x:%04x)", s.PCI, s.SubsystemVendor, s.SubsystemDevice))
	}
	fmt.Fprintf(w, "  %s\n", strings.Join(line, ", "))
	if s.CPULatency != nil {
		fmt.Fprintf(w, "  cpu_latency_us: %d\n", *s.CPULatency)
	}
	switch {
	case c.DeviceProblem != nil:
		fmt.Fprintf(w, "  device: %s\n", problemText(c.DeviceProblem))
	case c.Identify != nil:
		id := c.Identify
		fmt.Fprintf(w, "  identify: vid %#04x, model %q, firmware %q, NPSS %d, APSTA %#02x\n", id.VendorID, id.Model, id.Firmware, id.NPSS, id.APSTA)
		if s := describe.Fabrics(id); s != "" {
			fmt.Fprintf(w, "    note: %s\n", s)
		}
	}
	if c.IdentifyProblem != nil {
		fmt.Fprintf(w, "  identify: %s\n", problemText(c.IdentifyProblem))
	}

	fmt.Fprintf(w, "  quirks: %s", c.Quirks.Quirks.APST())
	if other := c.Quirks.Quirks &^ apst.QuirksAPST; other != 0 {
		fmt.Fprintf(w, " (also %s)", other)
	}
	fmt.Fprintln(w)
	for _, src := range c.Quirks.Sources {
		fmt.Fprintf(w, "    %s: %s [%s]\n", src.Table, view.Escape(src.Rule), src.Quirks)
	}
	for _, n := range c.QuirkNotes {
		fmt.Fprintf(w, "    note: %s\n", view.EscapeMessage(n))
	}
	for _, l := range assumptionLines(a, "") {
		fmt.Fprintf(w, "    %s\n", l)
	}

	if c.APSTDisabled {
		fmt.Fprintf(w, "  bound: none: %s\n", view.EscapeMessage(c.BoundNote))
	} else {
		fmt.Fprintf(w, "  bound: %s (%s): %s\n", c.Bound, c.BoundSource, view.EscapeMessage(c.BoundNote))
	}
	p := c.Params
	fmt.Fprintf(w, "  params: %s, %s mode, primary %s/%s, secondary %s/%s, force_apst=%s\n",
		p.Generation, p.Mode(), p.PrimaryTimeout, p.PrimaryTolerance, p.SecondaryTimeout, p.SecondaryTolerance, yn(p.ForceAPST))

	if c.Plan != nil {
		fmt.Fprintf(w, "  kernel: %s\n", planSummary(c.Plan))
		for _, warn := range c.Plan.Warnings() {
			fmt.Fprintf(w, "    warning: %s\n", view.Escape(warn))
		}
	}
	switch {
	case c.Drive != nil:
		fmt.Fprintf(w, "  drive: APSTE %s\n", apsteText(c.Drive.APSTE))
	case c.DriveProblem != nil:
		fmt.Fprintf(w, "  drive: unreadable: %s\n", problemText(c.DriveProblem))
	}
	switch {
	case c.Power != nil:
		kind := ""
		if c.Identify != nil && int(c.Power.State) < c.Identify.StateCount() {
			kind = " (operational)"
			if c.Identify.PowerStates[c.Power.State].NonOperational {
				kind = " (non-operational)"
			}
		}
		fmt.Fprintf(w, "  power state: ps%d%s, workload hint %d\n", c.Power.State, kind, c.Power.WorkloadHint)
	case c.PowerProblem != nil:
		fmt.Fprintf(w, "  power state: unreadable: %s\n", problemText(c.PowerProblem))
	}
	if c.Plan != nil || c.Drive != nil {
		writeEntriesText(w, c)
	}
	switch {
	case c.ExpectedReach != nil && c.HeldReach != nil:
		fmt.Fprintf(w, "  reach: kernel's table %s; drive's table %s\n", reachText(c.ExpectedReach), reachText(c.HeldReach))
	case c.ExpectedReach != nil:
		fmt.Fprintf(w, "  reach: kernel's table %s\n", reachText(c.ExpectedReach))
	}
	v := c.Verdict
	fmt.Fprintf(w, "  verdict: %s: %s\n", v.Status, view.Escape(v.Summary))
	for _, cause := range v.Causes {
		fmt.Fprintf(w, "    likely cause [%s]: %s\n", cause.Kind, view.Escape(cause.Detail))
	}
	for _, n := range v.Notes {
		fmt.Fprintf(w, "    note: %s\n", view.EscapeMessage(n))
	}
}

// planSummary is one line on what the kernel sends.
func planSummary(p *apst.Plan) string {
	switch p.Outcome {
	case apst.OutcomeEnabled:
		return fmt.Sprintf("enabled (APSTE=1), max PS %d, max round-trip %s", p.MaxPS, p.MaxRoundTrip)
	case apst.OutcomeNoStates:
		return "enabled (APSTE=1) with an empty table: no state qualifies"
	case apst.OutcomeDisabled:
		return "disabled (APSTE=0, zero table)"
	case apst.OutcomeUnsupported:
		return "nothing sent (APSTA = 0)"
	case apst.OutcomeInvalidNPSS:
		return "nothing sent (NPSS above 31)"
	}
	return p.Outcome.String()
}

// writeEntriesText prints the table of states with the kernel's and the
// drive's entries side by side; rows that differ are marked with "*".
func writeEntriesText(w io.Writer, c *nvmeapst.ControllerReport) {
	n := 0
	if c.Identify != nil {
		n = c.Identify.StateCount()
	}
	for _, d := range c.Verdict.Differences {
		n = max(n, int(d.State)+1)
	}
	if c.Drive != nil {
		for i, e := range c.Drive.Table {
			if e != 0 {
				n = max(n, i+1)
			}
		}
	}
	diff := map[uint8]bool{}
	for _, d := range c.Verdict.Differences {
		diff[d.State] = true
	}
	fmt.Fprintf(w, "     %-5s %-7s %8s %8s  %-26s %-20s %s\n", "state", "kind", "enlat", "exlat", "kernel decision", "kernel entry", "drive entry")
	for i := 0; i < n; i++ {
		kind, enlat, exlat := "-", "-", "-"
		if c.Identify != nil && i < c.Identify.StateCount() {
			d := c.Identify.PowerStates[i]
			kind = opKind(&d)
			enlat, exlat = strconv.FormatUint(uint64(d.EntryLatency), 10), strconv.FormatUint(uint64(d.ExitLatency), 10)
		}
		decision, kernel, drive := "-", "?", "?"
		if c.Plan != nil {
			dec := c.Plan.Decision(uint8(i))
			decision = dec.Reason.String()
			if dec.Reason.Selected() {
				decision += " " + dec.Idle.String()
			}
			kernel = c.Plan.Table[i].String()
		}
		if c.Drive != nil {
			drive = c.Drive.Table[i].String()
		}
		mark := " "
		if diff[uint8(i)] {
			mark = "*"
		}
		fmt.Fprintf(w, "   %s %5d %-7s %8s %8s  %-26s %-20s %s\n", mark, i, kind, enlat, exlat, decision, kernel, drive)
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
