package diagnose

import (
	"fmt"
	"strings"
)

// linkEnds returns the functions at the two ends of the device's link: the
// device and the port above it.
func (s *signals) linkEnds() []Function {
	p := s.path()
	return p[:min(len(p), 2)]
}

func aspmCause(s *signals) builder {
	b := newBuilder(s, LayerASPM)
	var subs []string // "0000:04:00.0: l1_1_aspm, l1_2_aspm"
	var src string
	var l12, l11 []string // the files to write, device end first
	known, l1on := false, false
	for _, f := range s.linkEnds() {
		var on []string
		for _, c := range f.Link.All() {
			if !c.Fact.Is("1") || !strings.HasPrefix(c.Name, "l1_") || c.Name == "l1_aspm" {
				continue
			}
			if src == "" {
				src = c.Fact.Source
			}
			on = append(on, c.Name)
			file := devPath(f.Address) + "/link/" + c.Name
			if strings.HasPrefix(c.Name, "l1_2") {
				l12 = append(l12, file)
			} else {
				l11 = append(l11, file)
			}
		}
		if len(on) > 0 {
			subs = append(subs, f.Address+": "+strings.Join(on, ", "))
		}
		if f.Link.L1.Known() {
			known = true
			l1on = l1on || f.Link.L1.Is("1")
		}
	}
	if len(subs) > 0 {
		b.setting(2, src, "L1 substates are enabled on the drive's link ("+strings.Join(subs, "; ")+")")
	} else if known && !l1on {
		b.con(2, s.linkEnds()[0].Link.L1.Source, "ASPM L1 is off on the drive's link")
	}
	pol := s.in.Facts.ASPMPolicy
	switch {
	case pol.Is("powersupersave"):
		b.setting(1, pol.Source, "the ASPM policy is powersupersave: L1 substates on every link that supports them (TLP's PCIE_ASPM_ON_BAT=powersupersave sets it)")
	case pol.Is("performance"):
		b.con(2, pol.Source, "the ASPM policy is performance: the kernel disables ASPM on the links it manages")
	}
	if v, ok := Param(s.cmdline, "pcie_aspm"); ok && v == "off" {
		b.con(2, "kernel command line", "pcie_aspm=off: the kernel does not enable ASPM (links keep the firmware's settings)")
	}
	if len(s.aerPhys) > 0 {
		b.pro(2, logLine(&s.aerPhys[0]).Source, fmt.Sprintf("%d corrected Physical Layer error report(s) before the failure: the link retrains, typical of L1 substate exits on a marginal link", len(s.aerPhys)))
	}
	if s.gone() && len(subs) > 0 {
		b.pro(1, logLine(s.down).Source, "the device dropped off the bus with L1 substates on: a failed L1.2 exit loses the link")
	}
	addr := s.addr()
	if len(l12) > 0 {
		b.test("turn L1.2 off on this link only, until reboot", "echo 0 | sudo tee "+strings.Join(l12, " "), "this link loses its L1.2 idle savings; every other link keeps them")
	}
	if len(l11) > 0 {
		b.test("then L1.1 too, if L1.2 off did not help", "echo 0 | sudo tee "+strings.Join(l11, " "), "this link loses the rest of its L1 substate savings")
	}
	if len(subs) == 0 {
		b.test("turn L1.2 off on this link only (where the kernel exposes it), until reboot", "echo 0 | sudo tee "+devPath(addr)+"/link/l1_2_aspm", "this link loses its L1.2 idle savings")
	}
	if pol.Is("powersupersave") {
		b.test("step the policy down from powersupersave: L1 kept, substates off", "echo powersave | sudo tee /sys/module/pcie_aspm/parameters/policy", "every link loses its L1 substate savings (on battery with TLP: PCIE_ASPM_ON_BAT=powersave)")
	}
	if b.Score >= 3 {
		b.test("only if the per-link test confirms it and nothing narrower holds: ASPM unmanaged for good", "add pcie_aspm=off (or pcie_aspm.policy=performance) to the kernel command line", "every link's ASPM savings, the most idle power of the three workarounds on a laptop")
	}
	return b
}

func d3coldCause(s *signals) builder {
	b := newBuilder(s, LayerD3cold)
	if s.resume != nil && s.resume.FromState == "D3cold" {
		b.pro(4, logLine(s.resume).Source, "the device could not be brought back from D3cold: its power was removed and it did not return")
	}
	var allowed []Fact
	var auto bool
	allKnown, allOff := len(s.path()) > 0, true
	for _, f := range s.path() {
		if f.D3coldAllowed.Is("1") {
			allowed = append(allowed, f.D3coldAllowed)
		}
		if !f.D3coldAllowed.Known() {
			allKnown = false
		} else if !f.D3coldAllowed.Is("0") {
			allOff = false
		}
		auto = auto || f.Control.Is("auto")
		if f.PowerState.Is("D3cold") {
			b.setting(2, f.PowerState.Source, f.Role+" "+f.Address+" is in D3cold now")
		}
	}
	if len(allowed) > 0 && auto {
		b.setting(1, allowed[0].Source, "d3cold_allowed=1 with runtime PM allowed (power/control=auto) on the path: the drive can be powered off when idle")
		if s.gone() {
			b.pro(1, logLine(s.down).Source, "the device was gone from the bus, as after a D3cold it did not come back from")
		}
	}
	if allKnown && allOff {
		b.con(3, s.path()[0].D3coldAllowed.Source, "d3cold_allowed=0 on the device and every bridge: nothing powers it off")
	}
	if v, ok := Param(s.cmdline, "pcie_port_pm"); ok && v == "off" {
		b.con(1, "kernel command line", "pcie_port_pm=off: ports stay in D0, so no port above the drive powers it off")
	}
	b.test("forbid D3cold for the drive only, until reboot", "echo 0 | sudo tee "+devPath(s.addr())+"/d3cold_allowed", "the drive is never powered off by runtime PM: at most D3hot when idle (system sleep is unchanged)")
	return b
}

func runtimePMCause(s *signals) builder {
	b := newBuilder(s, LayerRuntimePM)
	if s.resume != nil && s.resume.FromState != "D3cold" {
		b.pro(3, logLine(s.resume).Source, "the device could not be brought back from "+s.resume.FromState+" after a runtime suspend")
	}
	var autos []Function
	allOn := len(s.path()) > 0
	for _, f := range s.path() {
		if f.Control.Is("auto") {
			autos = append(autos, f)
		}
		if !f.Control.Is("on") {
			allOn = false
		}
		if f.RuntimeStatus.Is("suspended") {
			b.setting(1, f.RuntimeStatus.Source, f.Role+" "+f.Address+" is runtime-suspended now")
		}
	}
	if len(autos) > 0 {
		var which []string
		for _, f := range autos {
			which = append(which, f.Role+" "+f.Address)
		}
		b.setting(1, autos[0].Control.Source, "runtime PM is allowed (power/control=auto, as TLP's RUNTIME_PM_ON_BAT=auto sets) on "+strings.Join(which, ", "))
		if s.gone() {
			b.pro(1, logLine(s.down).Source, "the device dropped off the bus with runtime PM allowed above it")
		}
	}
	if allOn {
		b.con(2, s.path()[0].Control.Source, "power/control=on on the device and every bridge: nothing is runtime-suspended")
	}
	for _, f := range autos {
		b.test("keep "+f.Role+" "+f.Address+" in D0, until reboot", "echo on | sudo tee "+devPath(f.Address)+"/power/control", "this function stays in D0 when idle (with TLP, RUNTIME_PM_DENYLIST keeps it so)")
	}
	if len(autos) == 0 {
		b.test("keep the drive in D0, until reboot", "echo on | sudo tee "+devPath(s.addr())+"/power/control", "the drive's function stays in D0 when idle")
	}
	if b.Score >= 3 {
		b.test("only if keeping one path in D0 confirms it: no PCIe port runtime PM, for good", "add pcie_port_pm=off to the kernel command line", "every PCIe port stays in D0")
	}
	return b
}

func linkCause(s *signals) builder {
	b := newBuilder(s, LayerLink)
	if s.gone() {
		b.pro(2, logLine(s.down).Source, "PCI_STATUS=0xffff: config space reads all ones, the device is not answering on the bus")
	}
	if s.linkDown != nil {
		b.pro(2, logLine(s.linkDown).Source, "the port above the drive reported the link down")
	}
	if len(s.aerUncorr) > 0 {
		b.pro(2, logLine(&s.aerUncorr[0]).Source, fmt.Sprintf("%d uncorrected AER error report(s) for the drive's link", len(s.aerUncorr)))
	}
	if len(s.aerOther) > 0 {
		b.pro(1, logLine(&s.aerOther[0]).Source, fmt.Sprintf("%d corrected %s error report(s)", len(s.aerOther), s.aerOther[0].Layer))
	}
	if len(s.aerPhys) > 0 {
		b.pro(1, logLine(&s.aerPhys[0]).Source, fmt.Sprintf("%d corrected Physical Layer error report(s): a marginal link (signal integrity, or ASPM exits)", len(s.aerPhys)))
	}
	if s.apstFailed != nil && s.apstFailed.Errno == -19 {
		b.Evidence = append(b.Evidence, Line{Source: logLine(s.apstFailed).Source, Text: "the kernel could not even program APST (-19, ENODEV): the device was not answering"})
	}
	if s.mmioDead() {
		b.con(1, logLine(s.down).Source, fmt.Sprintf("PCI_STATUS=0x%04x: config space still answered, the link was up", s.down.PCIStatus))
	}
	addr := s.addr()
	b.test("read the link's state and error counters", "sudo lspci -vvv -s "+addr+"; cat "+devPath(addr)+"/aer_dev_correctable", "free: compare LnkSta with LnkCap (speed, width) and look for RxErr, BadTLP, BadDLLP")
	b.test("reseat the drive, or move it to another slot or adapter", "", "downtime; rules out the slot, the adapter and the carrier board")
	return b
}

func powerLossCause(s *signals) builder {
	b := newBuilder(s, LayerPowerLoss)
	if l, ok := s.notBack(); ok {
		b.pro(2, l.Source, "the device did not come back ("+l.Text+")")
	}
	if s.gone() {
		b.pro(1, logLine(s.down).Source, "the device vanished from the bus at once, as when it loses power")
	}
	if h := s.in.Facts.Health; h != nil {
		src := "SMART / Health log"
		switch {
		case h.UnsafeShutdowns > 0 && h.PowerCycles > 0 && h.UnsafeShutdowns*4 >= h.PowerCycles:
			b.pro(1, src, fmt.Sprintf("%d unsafe shutdowns in %d power cycles: power is often lost without a shutdown notice", h.UnsafeShutdowns, h.PowerCycles))
		case h.PowerCycles > 0:
			b.con(1, src, fmt.Sprintf("%d unsafe shutdowns in %d power cycles", h.UnsafeShutdowns, h.PowerCycles))
		}
	}
	if s.mmioDead() {
		b.con(1, logLine(s.down).Source, "config space still answered when the controller went down: the device had power")
	}
	b.test("read unsafe_shutdowns now and again after the next drop-out: a rise means the drive lost power", "sudo nvme smart-log /dev/"+s.name(), "free")
	b.test("check the drive's supply: the 3.3 V rail of the M.2 slot or carrier board, an enclosure's power", "", "a multimeter or a swap of board or power supply")
	return b
}

func firmwareCause(s *signals) builder {
	b := newBuilder(s, LayerFirmware)
	if s.mmioDead() {
		b.pro(2, logLine(s.down).Source, "the controller stopped answering with the link up: its firmware hung")
	}
	if s.down != nil && s.down.CSTS != 0xffffffff && s.down.CSTS&2 != 0 {
		b.pro(3, logLine(s.down).Source, fmt.Sprintf("CSTS=0x%x has CFS set: the controller reports a fatal status", s.down.CSTS))
	}
	if s.reset != nil && s.reset.Kind == "reset-not-ready" && s.reset.CSTS != 0xffffffff {
		b.pro(1, logLine(s.reset).Source, "the controller answered but did not become ready after the reset")
	}
	if s.down == nil && s.reset == nil && len(s.timeouts) > 0 && len(s.aerPhys)+len(s.aerOther)+len(s.aerUncorr) == 0 {
		b.pro(1, logLine(&s.timeouts[0]).Source, "commands timed out with the device still on the bus and no link errors")
	}
	if s.plan != nil && !s.plan.Enabled && s.inc != nil {
		b.pro(1, "APST plan", "APST is off and the drive still failed")
	}
	if h := s.in.Facts.Health; h != nil {
		if h.MediaErrors > 0 {
			b.pro(1, "SMART / Health log", fmt.Sprintf("%d media and data integrity errors", h.MediaErrors))
		}
		if h.CriticalWarning != 0 {
			b.pro(1, "SMART / Health log", fmt.Sprintf("critical warning 0x%02x", h.CriticalWarning))
		}
	}
	if s.gone() {
		b.con(1, logLine(s.down).Source, "the device left the bus: more than a controller hang")
	}
	b.test("look up the firmware revision and the vendor's release notes; read the drive's error log", "sudo nvme fw-log /dev/"+s.name()+"; sudo nvme error-log /dev/"+s.name(), "free to check; an update needs a backup and a reboot")
	return b
}

func unknownCause(s *signals, top int) builder {
	b := newBuilder(s, LayerUnknown)
	if top <= 0 {
		b.Score = top + 1
		switch {
		case s.in.Log == nil:
			b.Evidence = append(b.Evidence, Line{Source: "input", Text: "no kernel log: nothing shows what happened"})
		case s.inc == nil:
			b.Evidence = append(b.Evidence, Line{Source: "kernel log", Text: "the log holds no NVMe or PCIe failure for " + s.name()})
		default:
			b.Evidence = append(b.Evidence, Line{Source: "kernel log", Text: "nothing in the log or the facts points at one layer"})
		}
	} else {
		b.Score = -1
	}
	b.test("read the log of the boot that failed and diagnose it", "journalctl -k -b -1 > kern.log; apstctl diagnose --log kern.log", "free")
	b.test("after the next failure, before rebooting, collect the machine's state", "sudo apstctl collect DIR; journalctl -k > DIR/kern.log", "free")
	return b
}

// summarize says what the causes amount to.
func summarize(s *signals, d *Diagnosis) (string, bool) {
	top := d.Causes[0]
	var b strings.Builder
	who := nameOr(s.ctrl, "the drive")
	switch {
	case top.Layer == LayerUnknown:
		fmt.Fprintf(&b, "%s: nothing points at one layer (%s).", who, top.Evidence[0].Text)
	default:
		fmt.Fprintf(&b, "%s: most likely %s (%s).", who, top.Layer, top.Evidence[0].Text)
	}
	a := d.Cause(LayerAPST)
	ruledOut := a.Score <= 0 && len(a.Against) > 0
	switch {
	case ruledOut:
		fmt.Fprintf(&b, " APST is probably not the cause: %s.", a.Against[0].Text)
	case a.Likelihood == Likely && len(a.Tests) > 0:
		fmt.Fprintf(&b, " APST is likely: first %s.", a.Tests[0].Action)
	}
	return b.String(), ruledOut
}
