package diagnose

import (
	"fmt"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

func d3coldCause(s *signals) builder {
	b := newBuilder(s, LayerD3cold)
	b.tried(s, []string{"d3cold_allowed"}, []string{"0"}, 8, 4, "the drive kept out of D3cold stopped the failures")
	b.tried(s, []string{"pcie_port_pm"}, []string{"off"}, 6, 2, "ports kept in D0 stopped the failures")
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
	switch {
	case s.resume != nil && s.resume.FromState == "D3cold" && s.removedFirst:
		b.Against = append(b.Against, logLine(s.resume, "the PCI core printed this after the controller had already stopped answering (see the earlier controller-down or link-down): reading the power state of a device that has left the bus, a consequence, not the cause"))
	case s.resume != nil && s.resume.FromState == "D3cold" && len(s.others) > 0:
		b.proLine(2, logLine(s.resume, fmt.Sprintf("the device could not be brought back from D3cold, and %d other function(s) failed the same way at the same time: something they share", len(s.others))))
	case s.goneAtReset() != nil:
		b.proLine(2, logLine(s.resume, fmt.Sprintf("the device read all ones when the driver's reset powered it up, and the reset gave up (-19, line %d): it was powered off and did not return, or it was already off the bus (the PCI core names any device that reads all ones D3cold)", s.reset.Line)))
	case s.resume != nil && s.resume.FromState == "D3cold" && (s.onResume != nil || len(allowed) > 0 && auto):
		b.sign(4, logLine(s.resume, "the device could not be brought back from D3cold: its power was removed and it did not return"))
	case s.resume != nil && s.resume.FromState == "D3cold":
		// Neither a sleep transition before it nor settings that let
		// runtime PM power the drive off: the PCI core records D3cold
		// for any device that reads all ones (pci_update_current_state),
		// so the line alone does not tell a device powered off from one
		// that left the bus. It counts, but is no discriminating sign.
		b.proLine(4, logLine(s.resume, "the device could not be brought back from D3cold: its power was removed and it did not return, or it had left the bus (the PCI core records D3cold for a device that reads all ones)"))
	}
	if len(allowed) > 0 && auto {
		b.setting(1, allowed[0].Source, "d3cold_allowed=1 with runtime PM allowed (power/control=auto) on the path: the drive can be powered off when idle")
		if s.gone() {
			b.proLine(1, logLine(s.down, "the device was gone from the bus, as after a D3cold it did not come back from"))
		}
	}
	if allKnown && allOff {
		b.con(3, s.path()[0].D3coldAllowed.Source, "d3cold_allowed=0 on the device and every bridge: nothing powers it off")
	}
	if v, ok := Param(s.cmdline, "pcie_port_pm"); ok && v == "off" && len(s.triedOf([]string{"pcie_port_pm"})) == 0 {
		b.con(1, "kernel command line", "pcie_port_pm=off: ports stay in D0, so no port above the drive powers it off")
	}
	// A write that did not help is left out with every other
	// (dropFailedWrites); one that helped is kept, for the NVMe functions
	// alone (class 0x010802), at every boot.
	// d3cold_allowed=0 caps the state the PCI core picks at D3hot, for
	// runtime PM and system suspend alike (pci-acpi.c's
	// acpi_pci_choose_state; 70b70a4307cc "PCI/sysfs: Protect drivers
	// D3cold preference from user space", stable to 4.8+, kept it so).
	if !helpedAny(s.triedOf([]string{"d3cold_allowed"}, "0")) {
		b.test("forbid D3cold for the drive only, until reboot", "echo 0 | sudo tee "+devPath(s.addr())+"/d3cold_allowed", "the PCI core no longer powers the drive off: at most D3hot when idle and in suspend to idle (S3 still cuts the machine's power)")
	} else {
		b.test("keep the drive out of D3cold, which helped: a udev rule makes it last for every NVMe function", `echo 'ACTION=="add", SUBSYSTEM=="pci", ATTR{class}=="0x010802", ATTR{d3cold_allowed}="0"' | sudo tee /etc/udev/rules.d/61-nvme-no-d3cold.rules`, "the PCI core no longer powers the drive off: at most D3hot when idle and in suspend to idle (S3 still cuts the machine's power)")
	}
	return b
}

// runtimeState reports whether a resume failure left a state runtime PM
// puts an idle device in (D1, D2, D3hot; D3cold has its own layer): not
// "unknown", a device whose state the PCI core had no record of.
func runtimeState(e *kernlog.Event) bool {
	return e.FromState != "D3cold" && e.FromState != "unknown"
}

func runtimePMCause(s *signals) builder {
	b := newBuilder(s, LayerRuntimePM)
	b.tried(s, []string{"control"}, []string{"on"}, 8, 3, "the device kept in D0 stopped the failures")
	portTried := b.tried(s, []string{"pcie_port_pm"}, []string{"off"}, 6, 3, "ports kept in D0 stopped the failures")
	switch {
	case s.resume != nil && runtimeState(s.resume) && !s.removedFirst && len(s.others) > 0:
		b.proLine(1, logLine(s.resume, fmt.Sprintf("the device could not be brought back from %s, and %d other function(s) failed the same way at the same time: something they share", s.resume.FromState, len(s.others))))
	case s.resume != nil && runtimeState(s.resume) && !s.removedFirst && s.onResume != nil:
		// System sleep puts a device in D3hot as runtime PM does: the
		// line says nothing of runtime PM then.
		b.proLine(1, logLine(s.resume, fmt.Sprintf("the device could not be brought back from %s, where the system sleep (line %d) had put it, as runtime PM also does", s.resume.FromState, s.onResume.Line)))
	case s.resume != nil && runtimeState(s.resume) && !s.removedFirst:
		b.sign(3, logLine(s.resume, "the device could not be brought back from "+s.resume.FromState+" after a runtime suspend"))
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
			b.proLine(1, logLine(s.down, "the device dropped off the bus with runtime PM allowed above it"))
		}
	}
	if allOn {
		b.con(2, s.path()[0].Control.Source, "power/control=on on the device and every bridge: nothing is runtime-suspended")
	}
	if helpedAny(s.triedOf([]string{"control"}, "on")) {
		// It helped: keep it, at every boot, for the NVMe functions.
		b.test("keep the drive in D0, which helped: a udev rule makes it last for every NVMe function (with TLP, RUNTIME_PM_DENYLIST does the same)", `echo 'ACTION=="add", SUBSYSTEM=="pci", ATTR{class}=="0x010802", ATTR{power/control}="on"' | sudo tee /etc/udev/rules.d/61-nvme-runtime-pm-on.rules`, "the drive's function stays in D0 when idle")
		autos = nil
	} else if len(autos) == 0 && s.dev != "" {
		b.test("keep the drive in D0, until reboot", "echo on | sudo tee "+devPath(s.addr())+"/power/control", "the drive's function stays in D0 when idle")
	}
	for _, f := range autos {
		b.test("keep "+f.Role+" "+f.Address+" in D0, until reboot", "echo on | sudo tee "+devPath(f.Address)+"/power/control", "this function stays in D0 when idle (with TLP, RUNTIME_PM_DENYLIST keeps it so)")
	}
	if b.Score >= 3 && !portTried {
		b.argTest(s, "only if keeping one path in D0 confirms it: no PCIe port runtime PM, for good", "pcie_port_pm=off", "every PCIe port stays in D0")
	}
	return b
}

// otherSleepTest is the test of the other sleep mode than the one in
// force: the mode of the log's last suspend before the failure, else the
// command line's mem_sleep_default. A mode the log does not tell gets
// deep, which firmware that offers it sleeps in with less drain.
func (b *builder) otherSleepTest(s *signals) {
	mode := s.sleepMode
	if mode == "" {
		mode, _ = Param(s.cmdline, "mem_sleep_default")
	}
	cmd, cost := "cat /sys/power/mem_sleep; echo deep | sudo tee /sys/power/mem_sleep", "S3 (deep) where the firmware offers it: slower wake, less drain; s2idle otherwise"
	if mode == "deep" || mode == "S3" {
		cmd, cost = "cat /sys/power/mem_sleep; echo s2idle | sudo tee /sys/power/mem_sleep", "s2idle, as the system slept in deep (S3): faster wake, more drain while asleep"
	}
	b.test("try the other sleep mode, until reboot", cmd, cost)
}

// sleepPhase says in which part of a system sleep the failure came: on
// resume after the resume's line, while it resumed before one, or after
// a suspend began (no resume line between: the system was suspending, or
// resuming without one).
func (s *signals) sleepPhase() string {
	switch {
	case s.midResume:
		return "while the system resumed"
	case s.onResume != nil && s.onResume.Kind == kernlog.SuspendEntry:
		return "during a system sleep, after its suspend began"
	}
	return "on resume"
}

// resumeWhen says how the failure stands to the sleep transition
// onResume.
func (s *signals) resumeWhen() string {
	if s.midResume {
		return "the failure came while the system resumed, before this line of the resume"
	}
	return "the failure came within " + resumeWindow.String() + " of this system sleep transition"
}

// suspendCause is system sleep: the failure came on resume, or the PM
// core reported a device that failed to suspend or resume.
func suspendCause(s *signals) builder {
	b := newBuilder(s, LayerSuspend)
	noacpi := b.tried(s, []string{"nvme.noacpi"}, nil, 8, 3, "the drive no longer put in D3 by the firmware's StorageD3Enable on suspend, and the failures stopped")
	b.tried(s, []string{"mem_sleep_default"}, nil, 8, 3, "another sleep mode stopped the failures")
	switch {
	case s.onResume != nil && s.mediaOnly():
		// The drive's own media errors are no sleep transition's doing:
		// the timing is said, and weighs little.
		b.proLine(1, logLine(s.onResume, "this happened "+s.sleepPhase()+": "+s.resumeWhen()+" (but the failures are media errors the drive reported, which no sleep transition causes)"))
	case s.onResume != nil && s.crashOnly() && driverCrash(s.inc):
		// The nvme driver's own code warned or crashed in the sleep and
		// the drive reported nothing: a kernel bug, whose timing is said.
		b.proLine(1, logLine(s.onResume, "this happened "+s.sleepPhase()+": "+s.resumeWhen()+" (but the failure is the kernel's, in the NVMe driver's code, which the sleep ran: a kernel bug, not the drive's sleep)"))
	case s.onResume != nil && s.correctedOnly():
		// Corrected errors of a link after a resume are the link's: it
		// retrained and recovered, and nothing of the drive's sleep
		// failed (the resume restored the link's ASPM and L1 substates
		// settings, which the link's and ASPM's layers weigh). The timing
		// is said and weighs nothing (posted zl-01, a ThinkPad's errors
		// after every s2idle resume that pcie_aspm=off ended).
		b.proLine(0, logLine(s.onResume, "this happened "+s.sleepPhase()+": "+s.resumeWhen()+" (but the failures are corrected errors of the link, which recovered: nothing of the drive's sleep failed)"))
	case s.onResume != nil:
		b.sign(4, logLine(s.onResume, "this happened "+s.sleepPhase()+": "+s.resumeWhen()))
	}
	if len(s.pmErrors) > 0 {
		e := &s.pmErrors[0]
		for i := range s.pmErrors {
			// The line that names the device, rather than the PM core's
			// device-less callback line before it.
			if p := &s.pmErrors[i]; p.PCI != "" && strings.Contains(p.Raw, p.PCI) {
				e = p
				break
			}
		}
		phase := e.Phase
		if phase == "" {
			phase = "suspend or resume"
		}
		b.sign(4, logLine(e, fmt.Sprintf("the PM core reported a device that failed to %s (%d such line(s)): a system sleep transition failed", phase, len(s.pmErrors))))
	}
	if e := s.unaskedReset(); e != nil {
		b.proLine(2, logLine(e, "the drive did not come back from a reset that no failure in this log asked for: nvme-pci resets a controller on a resume from system sleep (a drive the sleep shut down or put in D3) and when a user asks (nvme reset), and a log of nvme's lines alone leaves the resume's own lines out (PM: suspend exit)"))
		b.test("look in the whole log of that boot for a resume just before the failure", "journalctl -k -b -1 --no-pager | grep -E 'PM: suspend (entry|exit)|nvme'", "free: a \"PM: suspend exit\" just before it makes it the resume's")
	}
	if s.newIDs != nil {
		b.proLine(2, logLine(s.newIDs, "the namespace came back with other identifiers: the kernel revalidates them after a resume or a reset, and drives that report bogus ones after a power transition lose their namespace here"))
	}
	if s.resume != nil && !s.removedFirst && s.onResume != nil {
		b.proLine(1, logLine(s.resume, "the device did not come back to D0 after the sleep"))
	}
	if s.denied != nil && s.onResume != nil {
		b.proLine(2, logLine(s.denied, "the drive refused access to its data after the sleep (Access Denied): a self-encrypting drive (TCG Opal) locks itself when it loses power, and the kernel unlocks it on resume only with a key saved for that (sed-opal's save ioctl, which a sedutil build with S3 support issues)"))
		b.Tests = append(b.Tests, lockedTest(s))
	}
	if b.Score <= 0 && s.onResume == nil && len(s.pmErrors) == 0 {
		return b
	}
	if !noacpi && !s.deviceTree() && s.guest == nil {
		// nvme.noacpi=1 drops the SIMPLE_SUSPEND quirk pci.c sets where
		// the firmware asks for StorageD3Enable; nvme_suspend then keeps
		// the drive in D0 with a host-managed NVMe power state unless the
		// sleep is S3 (pm_suspend_via_firmware), the drive has no power
		// states or the link has no ASPM.
		b.argTest(s, "ignore the firmware's StorageD3Enable request (AMD and Intel laptops): on s2idle the driver then keeps the drive powered in its own low-power state instead of shutting it down for D3 (where the link's ASPM is on; S3 still shuts it down)", "nvme.noacpi=1", "the drive stays powered during s2idle: more battery drain while asleep")
	}
	b.otherSleepTest(s)
	switch {
	case s.guest != nil:
		b.test("ask whoever runs the host whether its hypervisor and virtual firmware support the guest's sleep: a guest's suspend is the hypervisor's to carry out", "", "free to ask")
	case s.deviceTree():
		b.test("look for a kernel or device tree for the board (mainline's, or its vendor's) whose changes mention PCIe, sleep or resume: a board's suspend is its host controller driver's and its device tree's", "uname -r; cat /proc/device-tree/model", "free to look; an update needs a reboot")
	default:
		b.test("look for a BIOS update that mentions NVMe, sleep or resume", "", "free to look; an update needs a reboot")
	}
	return b
}
