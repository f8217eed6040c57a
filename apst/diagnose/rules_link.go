package diagnose

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
	"github.com/nvmeapst/nvmeapst/apst/persist"
)

// aspmOff are the settings that take ASPM out of the kernel's hands.
var aspmOff = []string{"pcie_aspm", "pcie_aspm.policy"}

// linkEnds returns the functions at the two ends of the device's link: the
// device and the port above it.
func (s *signals) linkEnds() []Function {
	p := s.path()
	return p[:min(len(p), 2)]
}

// aspmExcluded says why ASPM cannot have acted on the drive's link ("" when
// it can): L1 off at both ends, the performance policy, pcie_aspm=off in
// force.
func (s *signals) aspmExcluded() string {
	ends := s.linkEnds()
	off := len(ends) > 0
	for _, f := range ends {
		if !f.Link.L1.Is("0") {
			off = false
		}
	}
	switch {
	case off:
		return "ASPM L1 is off on the drive's link"
	case s.in.Facts.ASPMPolicy.Is("performance"):
		return "the ASPM policy is performance"
	}
	if failed := s.failedWith(aspmOff, "off", "performance"); len(failed) > 0 {
		// pcie_aspm=off leaves ASPM as the firmware set it
		// (kernel-parameters.txt: "Don't touch ASPM configuration at all"):
		// say which setting it was.
		return "the drive failed with " + failed[0].Setting + "=" + failed[0].Value + " too"
	}
	return ""
}

func aspmCause(s *signals) builder {
	b := newBuilder(s, LayerASPM)
	offTried := b.tried(s, aspmOff, []string{"off", "performance"}, 8, 5, "the kernel stopped managing ASPM and the failures stopped")
	// A Pi's link speed is the link layer's (linkCause): a slower link
	// that helped or did not says nothing of L0s.
	piTried := b.tried(s, []string{"dtparam"}, []string{"pciex1_no_l0s", "pciex1_no_l0s=on"}, 8, 3, "keeping the Raspberry Pi's PCIe link out of L0s stopped the failures")
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
	if s.dtASPM != nil {
		// f3ac2ff14834 (6.18-rc1) enabled ClockPM and every ASPM state on
		// devicetree platforms; df5192d9bb0e (6.18-rc3) kept L0s and L1
		// only (Bjorn Helgaas, "PCI/ASPM: Enable only L0s and L1 for
		// devicetree platforms", linux-pci, October 2025).
		b.sign(3, logLine(s.dtASPM, "the kernel enabled ASPM from the device tree (6.18-rc1 and rc2 enable ClockPM and every ASPM state the link supports on DT platforms, L1 substates included; from 6.18-rc3 on only L0s and L1; the line lists which): a link that worked with ASPM off before may now fail on its exits"))
	}
	switch {
	case s.mmioDead() && s.apstExcluded() != "":
		b.sign(2, logLine(s.down, "the controller stopped answering while its config space still did, as after an ASPM exit that loses the link; the other layer that reads like this, APST, is out: "+s.apstExcluded()))
	case s.mmioDead():
		b.proLine(2, logLine(s.down, "the controller stopped answering while its config space still did: an ASPM exit that loses the link reads like this (so does a drive stuck in an APST state)"))
	case s.gone():
		b.proLine(2, logLine(s.down, "config space reads all ones: the device is gone from the bus, as when an L1 exit loses the link"))
	case s.resetENODEV() != nil:
		b.proLine(2, logLine(s.resetENODEV(), "the controller read all ones when the driver reset it (-ENODEV): an ASPM exit that loses the link reads like this (so does a drive stuck in an APST state)"))
	}
	if len(s.others) > 0 {
		b.proLine(2, logLine(&s.others[0], fmt.Sprintf("%d other PCI function(s) became inaccessible together with the drive: the link states restored on resume (L1 substates) fail on every link at once", len(s.others))))
	}
	if len(s.aerPhys) > 0 {
		b.sign(2, logLine(&s.aerPhys[0], fmt.Sprintf("%s corrected Physical Layer error report(s) of the drive's link: a receiver saw corrupted symbols, which the link layer's replay recovered, typical of L1 exits on a marginal link", s.reports(len(s.aerPhys)))))
	}
	if s.platform == persist.PlatformRaspberryPi && (s.down != nil || len(s.timeouts) > 0) {
		b.proLine(1, s.piLine("a Raspberry Pi: its external PCIe link fails this way when it enters L0s (the link's speed is the link's layer)"))
	}
	if offTried {
		return b
	}
	addr := s.addr()
	if len(l12) > 0 {
		b.test("turn L1.2 off on this link only, until reboot", "echo 0 | sudo tee "+strings.Join(l12, " "), "this link loses its L1.2 idle savings; every other link keeps them")
	}
	if len(l11) > 0 {
		b.test("then L1.1 too, if L1.2 off did not help", "echo 0 | sudo tee "+strings.Join(l11, " "), "this link loses the rest of its L1 substate savings")
	}
	if len(subs) == 0 && s.dev != "" {
		b.test("turn L1.2 off on this link only (where the kernel exposes it), until reboot", "echo 0 | sudo tee "+devPath(addr)+"/link/l1_2_aspm", "this link loses its L1.2 idle savings")
	}
	if pol.Is("powersupersave") {
		b.test("step the policy down from powersupersave: L1 kept, substates off", "echo powersave | sudo tee /sys/module/pcie_aspm/parameters/policy", "every link loses its L1 substate savings (on battery with TLP: PCIE_ASPM_ON_BAT=powersave)")
	}
	if s.platform == persist.PlatformRaspberryPi && !piTried {
		b.configTest(s, "a Raspberry Pi 5: keep the external link out of L0s", "dtparam=pciex1_no_l0s=on", "none measurable")
	}
	if b.Score <= 0 {
		return b // a global switch only where the evidence points here
	}
	b.argTest(s, "from boot: the kernel leaves ASPM as the firmware set it (APST left on, so the test separates ASPM from it)", "pcie_aspm=off", "every link's ASPM idle savings that the kernel would enable: on a laptop about 0.5-2 W while idle (ASPM the firmware enabled stays on: lspci -vv shows it in LnkCtl, and pcie_aspm.policy=performance turns it off)")
	return b
}

// piGen2Cost is the price of running a Pi 5's external link at Gen 2:
// 500 MB/s peak (Raspberry Pi documentation, M.2 HAT+: "Single-lane PCIe
// 2.0 interface (500 MB/s peak transfer rate)") against Gen 3's 8 GT/s
// (computers/raspberry-pi/pcie.adoc) with 128b/130b encoding, about
// 985 MB/s.
const piGen2Cost = "the link's peak rate halves (500 MB/s at Gen 2 instead of about 985 MB/s at Gen 3)"

func linkCause(s *signals) builder {
	b := newBuilder(s, LayerLink)
	b.swapsTried(s, false)
	b.tried(s, []string{"dtparam"}, []string{"pciex1_gen=2", "pciex1_gen=1"}, 8, 2, "a slower link stopped the failures")
	if s.gone() {
		b.proLine(1, logLine(s.down, "config space reads all ones: the device is not answering on the bus"))
	}
	var dpc *kernlog.Event
	if s.linkDown != nil {
		dpc = s.dpcBefore(s.linkDown)
	}
	switch {
	case s.hostLinkDown() && s.inResume():
		b.proLine(2, logLine(s.linkDown, "the PCIe host controller's link did not train again on resume: no device was seen behind it (the drive not powered back, or not let out of reset, in time: the host driver's and device tree's resume sequence; or a cable, adapter or HAT not seated)"))
	case s.hostLinkDown():
		b.proLine(2, logLine(s.linkDown, "the PCIe host controller's link never trained: no device was seen behind it (a cable, adapter or HAT not seated, a link speed the wiring does not carry; or no power reaching the drive, or a dead drive)"))
	case dpc != nil && s.surpriseDown() != nil:
		// The error DPC contained was the link's own loss (Surprise
		// Down): pciehp's line reports it, not a link DPC took down.
		b.sign(3, logLine(s.linkDown, fmt.Sprintf("the port above the drive reported the link down, which its DPC contained as a Surprise Down (line %d): the link was lost first, as a drive pulled from its slot or one that lost its power loses it", dpc.Line)))
	case dpc != nil:
		// DPC disables the link to contain the error (PCIe r6.0, 6.2.11),
		// and pciehp reports the link down it made.
		b.sign(3, logLine(s.linkDown, fmt.Sprintf("the port above the drive reported the link down after its DPC contained an uncorrectable error (line %d): DPC takes the link down to stop the error's traffic, so the link went down for the error, not on its own", dpc.Line)))
	case s.linkDown != nil:
		b.sign(3, logLine(s.linkDown, "the port above the drive reported the link down: the drive left the bus"))
	}
	switch {
	case s.piGen3 != nil:
		b.proLine(2, logLine(s.piGen3, "the Raspberry Pi's external PCIe link trained at 8.0 GT/s, Gen 3: faster than the Gen 2 it is certified for, a speed at which an adapter or flat cable that carries Gen 2 can corrupt or lose the link"))
	case s.platform == persist.PlatformRaspberryPi && (s.down != nil || len(s.timeouts) > 0) && s.piLink == nil:
		// The log does not say the speed the link trained at: config.txt
		// may set Gen 3, at which an adapter made for Gen 2 fails so.
		b.proLine(1, s.piLine("a Raspberry Pi: its external PCIe link fails this way when it runs faster than it was made for (pciex1_gen=3 in config.txt; the log does not hold the speed it trained at)"))
	}
	if e := s.goneAtReset(); e != nil {
		b.proLine(2, logLine(e, fmt.Sprintf("the device was gone from the bus when the driver reset it (config space read all ones, and the reset gave up with -19 on line %d): a link that went down reads so, as does a device that lost its power", s.reset.Line)))
	}
	switch {
	case len(s.aerUncorr) > 0 && s.aerUncorr[0].Action == kernlog.ActionFirmwareRecord && s.aerUncorr[0].Layer == "":
		// The firmware's record says an uncorrected error, not on which
		// layer: the link's, or poisoned data another part sent.
		b.proLine(3, logLine(&s.aerUncorr[0], fmt.Sprintf("%s uncorrected PCIe error record(s) the firmware reported for the drive (firmware first, without the layer): the link's most often, though data an uncorrected memory or CPU error poisoned reads so too", s.reports(aerReports(s.aerUncorr)))))
	case len(s.aerUncorr) > 0 && s.surpriseDown() != nil:
		// The port's Surprise Down Error (aer.c's "SDES"): the link went
		// down under it without the slot's hot-plug saying so first.
		b.sign(3, logLine(s.surpriseDown(), fmt.Sprintf("%s uncorrected AER error report(s) for the drive's link, its status a Surprise Down: the link went down without warning, as when a drive is pulled from a hot-plug slot or loses its power (a drive pulled on purpose is no failure); if nobody pulled it, its link or its power", s.reports(aerReports(s.aerUncorr)))))
	case len(s.aerUncorr) > 0:
		b.sign(3, logLine(&s.aerUncorr[0], fmt.Sprintf("%s uncorrected AER error report(s) for the drive's link", s.reports(aerReports(s.aerUncorr)))))
	case s.aerRecovery != nil && s.in.Log.EEH != nil:
		// POWER's EEH freezes the endpoint and runs the same recovery;
		// its own lines are the error's report.
		b.proLine(2, logLine(s.aerRecovery, fmt.Sprintf("POWER's error handling, EEH, froze the drive's endpoint (line %d) and ran its recovery: an uncorrectable error on its link or a device that stopped answering its reads; the EEH lines beside it hold its registers", s.in.Log.EEH.Line)))
	case s.zpciError != nil:
		// s390's firmware reports the error and stops the function;
		// the kernel's recovery resets it.
		b.proLine(2, logLine(s.zpciError, "the machine's firmware reported an error for the drive's PCI function (s390's zPCI error event) and the kernel ran its recovery: an uncorrectable error on its link or a function that stopped answering; the firmware's own log on the Hardware Management Console holds its cause"))
	case s.aerRecovery != nil && s.acsViol != nil:
		// The recovery of the ACS Violation the platform's evidence
		// quotes: no link error.
	case s.aerRecovery != nil:
		// nvme_error_detected prints "frozen state error detected" when
		// the PCI core recovers from an uncorrectable error (AER or DPC).
		b.proLine(2, logLine(s.aerRecovery, "the PCI core ran its error recovery for the drive (AER or DPC): an uncorrectable error on its link, whose report the log does not hold"))
	}
	if len(s.aerOther) > 0 {
		// Each layer the lines name, once ("Data Link Layer and
		// Transaction Layer"): the first line's alone misnamed the others.
		var layers []string
		for i := range s.aerOther {
			if l := s.aerOther[i].Layer; l != "" && !slices.Contains(layers, l) {
				layers = append(layers, l)
			}
		}
		label := strings.Join(layers, " and ")
		if label == "" {
			label = "AER"
		}
		b.proLine(1, logLine(&s.aerOther[0], fmt.Sprintf("%s corrected %s error report(s)", s.reports(len(s.aerOther)), label)))
	}
	if len(s.aerPhys) > 0 {
		b.proLine(1, logLine(&s.aerPhys[0], fmt.Sprintf("%s corrected Physical Layer error report(s): a marginal link (signal integrity, or ASPM exits)", s.reports(len(s.aerPhys)))))
	}
	if len(s.transport) > 0 {
		b.sign(2, logLine(&s.transport[0], fmt.Sprintf("%d command(s) failed with a path-related status (SCT 3): the transport, not the media", len(s.transport))))
	}
	if p := s.probeOnly(); p != nil && p.Errno == -19 {
		b.proLine(1, logLine(p, "the device was not answering when the driver brought it up (-19, ENODEV): a link that did not come up (ASPM or L1 substates the firmware enabled, link training) reads so"))
	}
	if s.mmioDead() {
		b.conLine(1, logLine(s.down, "config space still answered: the link was up"))
	}
	addr := s.addr()
	if !s.hostLinkDown() { // else no device to read: the reseat below is the test
		b.test("read the link's state and error counters", "sudo lspci -vvv -s "+addr+"; grep . "+devPath(addr)+"/aer_dev_*", "free: compare LnkSta with LnkCap (speed, width) and look for RxErr, BadTLP, BadDLLP; the aer_dev_ files count corrected, non-fatal and fatal errors")
	}
	switch {
	case s.piGen3 != nil:
		b.configTest(s, "run the Raspberry Pi's external link at Gen 2, the speed it is certified for (it trained at Gen 3 in this log)", "dtparam=pciex1_gen=2", piGen2Cost)
	case s.platform == persist.PlatformRaspberryPi:
		b.configTest(s, "a Raspberry Pi 5: run the external link at Gen 2 (the supported speed), if config.txt sets pciex1_gen=3", "dtparam=pciex1_gen=2", piGen2Cost)
	}
	b.test("reseat the drive, or move it to another slot or adapter", "", "downtime; rules out the slot, the adapter and the carrier board")
	return b
}

// surpriseDown returns the first uncorrected AER report whose status is
// a Surprise Down Error alone (bit 5 of the Uncorrectable Error Status
// register), or nil.
func (s *signals) surpriseDown() *kernlog.Event {
	for i := range s.aerUncorr {
		if e := &s.aerUncorr[i]; e.Kind == kernlog.AERError && e.AERStatus == 1<<5 {
			return e
		}
	}
	return nil
}

// aerReports is the number of AER error reports in es: a report is the
// port's "AER: ... error received" line and the device's "PCIe Bus Error"
// lines after it, so the latter are counted, or the received lines where
// the log has none of them.
func aerReports(es []kernlog.Event) int {
	n := 0
	for i := range es {
		if es[i].Kind == kernlog.AERError {
			n++
		}
	}
	if n == 0 {
		return len(es)
	}
	return n
}

// piLine is a fact about a Raspberry Pi quoted from what said the machine
// is one: the platform the caller gave, the log's host controller or
// machine line, the kernel release or the command line.
func (s *signals) piLine(text string) Line {
	switch {
	case s.in.Platform == persist.PlatformRaspberryPi:
		return Line{Source: "the platform given", Text: text}
	case s.piLink != nil:
		return logLine(s.piLink, text)
	case s.in.Log != nil && s.in.Log.Machine != nil && strings.HasPrefix(s.in.Log.Machine.Text, "Raspberry Pi "):
		return logLine(s.in.Log.Machine, text)
	case s.releaseText != "" && persist.DetectPlatform(s.releaseText, "") == persist.PlatformRaspberryPi:
		return Line{Source: "kernel release " + s.releaseText, Text: text}
	default:
		l := s.cmdlineLine
		l.Text = text + " (" + l.Text + ")"
		return l
	}
}

// reports says how many reports of the incident a rule read: "at least
// 64" when the incident kept only its first and last events (Omitted),
// as a whole server log with hundreds of reports of one drive does.
func (s *signals) reports(n int) string {
	if s.inc != nil && s.inc.Omitted > 0 {
		return fmt.Sprintf("at least %d", n)
	}
	return strconv.Itoa(n)
}
