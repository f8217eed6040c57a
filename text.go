package nvmeapst

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
)

// WriteText writes the report as a readable text, one section per
// controller.
func (r *Report) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	rel := r.KernelRelease
	if rel == "" {
		rel = "unknown"
	}
	fmt.Fprintf(bw, "kernel %s, APST algorithm %s (%s)\n", rel, r.Generation, r.GenerationNote)
	fmt.Fprintf(bw, "nvme_core: %s\n", moduleText(r))
	if r.ModuleProblem != nil {
		fmt.Fprintf(bw, "  module parameters unreadable: %s\n", r.ModuleProblem)
	}
	fmt.Fprintf(bw, "DMI: sys_vendor=%q product_name=%q board_vendor=%q board_name=%q\n",
		r.DMI.SysVendor, r.DMI.ProductName, r.DMI.BoardVendor, r.DMI.BoardName)
	if r.DMIProblem != nil {
		fmt.Fprintf(bw, "  DMI unreadable: %s\n", r.DMIProblem)
	}
	for _, p := range r.Problems {
		fmt.Fprintf(bw, "unreadable controller: %s\n", problemText(p))
	}
	if len(r.Controllers) == 0 {
		fmt.Fprintln(bw, "\nno NVMe controllers")
	}
	for i := range r.Controllers {
		fmt.Fprintln(bw)
		writeController(bw, &r.Controllers[i])
	}
	return bw.Flush()
}

func moduleText(r *Report) string {
	m := r.Module
	u := func(name string, v *uint64) string {
		if v == nil {
			return name + "=(absent)"
		}
		return name + "=" + strconv.FormatUint(*v, 10)
	}
	force := "force_apst=(absent)"
	if m.ForceAPST != nil {
		force = "force_apst=" + yn(*m.ForceAPST)
	}
	return strings.Join([]string{
		u("default_ps_max_latency_us", m.DefaultPSMaxLatencyUS), force,
		u("apst_primary_timeout_ms", m.PrimaryTimeoutMS), u("apst_secondary_timeout_ms", m.SecondaryTimeoutMS),
		u("apst_primary_latency_tol_us", m.PrimaryLatencyTolUS), u("apst_secondary_latency_tol_us", m.SecondaryLatencyTolUS),
	}, " ")
}

func problemText(p *Problem) string {
	if h := p.hint(); h != "" {
		return p.Message + " (" + h + ")"
	}
	return p.Message
}

func writeController(w io.Writer, c *ControllerReport) {
	s := c.Sysfs
	fmt.Fprintf(w, "%s: %s, serial %s, firmware %s\n", c.Name, orDash(strings.TrimSpace(s.Model)), orDash(strings.TrimSpace(s.Serial)), orDash(strings.TrimSpace(s.FirmwareRev)))
	line := []string{"transport " + orDash(s.Transport), "state " + orDash(s.State)}
	if s.Address != "" {
		line = append(line, "address "+s.Address)
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
	}
	if c.IdentifyProblem != nil {
		fmt.Fprintf(w, "  identify: %s\n", problemText(c.IdentifyProblem))
	}

	fmt.Fprintf(w, "  quirks: %s", c.Quirks.APST())
	if other := c.Quirks.Quirks &^ apst.QuirksAPST; other != 0 {
		fmt.Fprintf(w, " (also %s)", other)
	}
	fmt.Fprintln(w)
	for _, src := range c.Quirks.Sources {
		fmt.Fprintf(w, "    %s: %s [%s]\n", src.Table, src.Rule, src.Quirks)
	}
	for _, n := range c.QuirkNotes {
		fmt.Fprintf(w, "    note: %s\n", n)
	}

	if c.APSTDisabled {
		fmt.Fprintf(w, "  bound: none: %s\n", c.BoundNote)
	} else {
		fmt.Fprintf(w, "  bound: %s (%s): %s\n", c.Bound, c.BoundSource, c.BoundNote)
	}
	p := c.Params
	fmt.Fprintf(w, "  params: %s, %s mode, primary %s/%s, secondary %s/%s, force_apst=%s\n",
		p.Generation, p.Mode(), p.PrimaryTimeout, p.PrimaryTolerance, p.SecondaryTimeout, p.SecondaryTolerance, yn(p.ForceAPST))

	if c.Plan != nil {
		pl := c.Plan
		fmt.Fprintf(w, "  kernel: %s", planText(pl))
		fmt.Fprintln(w)
		for _, warn := range pl.Warnings() {
			fmt.Fprintf(w, "    warning: %s\n", warn)
		}
	}
	switch {
	case c.Drive != nil:
		fmt.Fprintf(w, "  drive: APSTE=%d\n", b2i(c.Drive.Enabled))
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
		writeEntries(w, c)
	}
	v := c.Verdict
	fmt.Fprintf(w, "  verdict: %s: %s\n", v.Status, v.Summary)
	for _, cause := range v.Causes {
		fmt.Fprintf(w, "    likely cause [%s]: %s\n", cause.Kind, cause.Detail)
	}
	for _, n := range v.Notes {
		fmt.Fprintf(w, "    note: %s\n", n)
	}
}

func planText(p *apst.Plan) string {
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

// writeEntries prints the table of states with the kernel's and the drive's
// entries side by side; rows that differ are marked with "*".
func writeEntries(w io.Writer, c *ControllerReport) {
	n := 0
	if c.Identify != nil {
		n = c.Identify.StateCount()
	}
	for _, d := range c.Verdict.Differences {
		if int(d.State)+1 > n {
			n = int(d.State) + 1
		}
	}
	if c.Drive != nil {
		for i, e := range c.Drive.Table {
			if e != 0 && i+1 > n {
				n = i + 1
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
			kind = "op"
			if d.NonOperational {
				kind = "non-op"
			}
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

// WriteText writes the change, the table the kernel now builds, and how to
// make the setting persistent.
func (l *LatencyChange) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s: pm_qos_latency_tolerance_us %s -> %s (ps_max_latency_us %s)\n", l.Controller, l.Old, l.New, l.Bound)
	if l.Report.Sysfs.State != "" && l.Report.Sysfs.State != "live" {
		fmt.Fprintf(bw, "  the controller is %s: the kernel applies the new bound at the end of its next reset\n", l.Report.Sysfs.State)
	}
	fmt.Fprintln(bw)
	writeController(bw, &l.Report)
	p := l.Persist
	fmt.Fprintln(bw)
	fmt.Fprintln(bw, "to keep it for this drive across reboots, add to "+p.UdevFile+":")
	fmt.Fprintln(bw, "  "+p.UdevRule)
	fmt.Fprintln(bw, "and apply it now with: "+p.UdevReload)
	fmt.Fprintln(bw, "or, for every controller, on the kernel command line:")
	fmt.Fprintln(bw, "  "+p.KernelParameter)
	fmt.Fprintln(bw, "(with nvme_core as a module: "+p.ModprobeOption+" in /etc/modprobe.d/nvme_core.conf, then rebuild the initramfs)")
	for _, n := range p.Notes {
		fmt.Fprintln(bw, "note: "+n)
	}
	return bw.Flush()
}
