package diagnose

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
	"github.com/nvmeapst/nvmeapst/apst/persist"
)

// context reads what the log says around the failure: a resume just
// before it, power-management errors, lost interrupts, the host memory
// buffer, the device tree's ASPM.
func (s *signals) context(l *kernlog.Log) {
	if s.inc == nil {
		return
	}
	first := s.inc.Events[0]
	for _, e := range s.inc.Events {
		// A failure of no device shares the kernel's incident with the
		// sleep lines: the first event that is not one of them is the
		// failure's.
		if e.Kind != kernlog.SuspendEntry && e.Kind != kernlog.SuspendExit {
			first = e
			break
		}
	}
	var lastSleep, nextExit, nextEntry *kernlog.Event
	for i := range l.Incidents {
		in := &l.Incidents[i]
		if in.Boot != s.inc.Boot {
			continue
		}
		other := in.Controller != "" && s.ctrl != "" && in.Controller != s.ctrl
		for j := range in.Events {
			e := &in.Events[j]
			if s.dtHost == nil && dtHostLine(e) {
				s.dtHost = e
			}
			switch e.Kind {
			case kernlog.SuspendEntry, kernlog.SuspendExit:
				if e.Line < first.Line && (lastSleep == nil || e.Line > lastSleep.Line) {
					lastSleep = e
				}
				if e.Line < first.Line && e.Kind == kernlog.SuspendEntry && e.Mode != "" {
					s.sleepMode = e.Mode // the entries come in line order
				}
				if e.Line > first.Line && e.Kind == kernlog.SuspendExit && (nextExit == nil || e.Line < nextExit.Line) {
					nextExit = e
				}
				if e.Line > first.Line && e.Kind == kernlog.SuspendEntry && (nextEntry == nil || e.Line < nextEntry.Line) {
					nextEntry = e
				}
			case kernlog.PMError:
				if !other && in != s.inc {
					s.pmErrors = append(s.pmErrors, *e)
				}
			case kernlog.ResumeFailure:
				if s.resume != nil && e.PCI != "" && e.PCI != s.resume.PCI && near(e, s.resume) {
					s.others = append(s.others, *e)
				}
			case kernlog.APSTFailed:
				if !other && s.apstRefused == nil && e.Errno > 0 {
					s.apstRefused = e
				}
			case kernlog.LostInterrupt:
				if s.lostIRQ == nil || s.lostIRQ.Action != kernlog.ActionBadIRQ && e.Action == kernlog.ActionBadIRQ {
					s.lostIRQ = e
				}
			case kernlog.HostMemoryBuffer:
				if !other && s.hmb == nil && hmbFailed(e) {
					s.hmb = e
				}
			case kernlog.ASPMPlatform:
				if s.dtASPM == nil && strings.Contains(e.Text, "DT platform") {
					s.dtASPM = e
				}
			case kernlog.HostLinkUp:
				if piHost(e) {
					s.piLink = cmp.Or(s.piLink, e)
					if s.piGen3 == nil && strings.Contains(e.Text, " 8.0 GT/s") {
						s.piGen3 = e
					}
				}
			case kernlog.PlatformFault:
				if s.faultOfDrive(e, &first) {
					s.faults = append(s.faults, *e)
				}
			}
		}
	}
	if lastSleep != nil {
		if d, ok := first.Time.Sub(lastSleep.Time); !ok || d <= resumeWindow {
			s.onResume = lastSleep
		}
	}
	if s.onResume == nil && nextExit != nil && (nextEntry == nil || nextEntry.Line > nextExit.Line) {
		// A resume's own line ("ACPI: EC: event unblocked", "Restarting
		// tasks", "PM: suspend exit") soon after the failure, with no
		// suspend between: the failure came while the system resumed,
		// before the PM core got to print it (an excerpt that starts
		// there, posted zg-03).
		if d, ok := nextExit.Time.Sub(first.Time); ok && d >= 0 && d <= midResumeWindow {
			s.onResume, s.midResume = nextExit, true
		}
	}
	s.sharedFailures(l, &first)
}

// sharedWindow is how close in time the failures of two controllers must
// be for one cause to be likelier than two.
const sharedWindow = 10 * time.Minute

// sharedFailures finds the other NVMe controllers whose own incident, in
// the same boot and within sharedWindow of first, took them down (a
// controller-down, a reset or probe that gave up, a link down).
func (s *signals) sharedFailures(l *kernlog.Log, first *kernlog.Event) {
	seen := map[string]bool{s.ctrl: true}
	for i := range l.Incidents {
		in := &l.Incidents[i]
		if in.Boot != s.inc.Boot || in.Controller == "" || seen[in.Controller] || severity(in) < 3 {
			continue
		}
		e := &in.Events[0]
		d, ok := e.Time.Sub(first.Time)
		if !ok || d > sharedWindow || d < -sharedWindow {
			continue
		}
		seen[in.Controller] = true
		s.othersDown = append(s.othersDown, *e)
	}
	if s.ctrl != "" && severity(s.inc) >= 2 && !s.mediaOnly() {
		// Other controllers that failed the same way at other times (the
		// same kinds of failure lines): a cause they share, or their
		// model's, more than each drive's own (twelve SN700s behind PCIe
		// switches dropping one by one over months, posted zh-02). Not
		// media errors: drives wear out one by one.
		for i := range l.Incidents {
			in := &l.Incidents[i]
			if in.Controller == "" || seen[in.Controller] || !sameFailure(in, s.inc) {
				continue
			}
			seen[in.Controller] = true
			s.sameElsewhere = append(s.sameElsewhere, in.Events[0])
		}
	}
	if s.ctrl == "" {
		s.othersMaySelf = true
		if len(s.othersDown) < 2 {
			s.othersDown = nil
		}
	}
}

// sameFailure reports whether two incidents hold the same kinds of
// failure lines (those severity weighs), and some.
func sameFailure(a, b *kernlog.Incident) bool {
	n := 0
	for k, c := range a.Counts {
		if c == 0 || !failureKind(a, k) {
			continue
		}
		if b.Counts[k] == 0 || !failureKind(b, k) {
			return false
		}
		n++
	}
	for k, c := range b.Counts {
		if c > 0 && failureKind(b, k) && a.Counts[k] == 0 {
			return false
		}
	}
	return n > 0
}

// failureKind reports whether in's events of kind k are failures that
// severity weighs (2 or more).
func failureKind(in *kernlog.Incident, k kernlog.Kind) bool {
	return kindSeverity(in, k) >= 2
}

// passthrough returns the line that shows a function bound to a
// passthrough driver (kernlog.Log.Passthrough), preferring a reset of it
// that failed ("pciback 0000:05:00.0: not ready 65535ms after FLR; giving
// up"); nil for none. Only the drive's function (dev) counts, or any when
// the log names no NVMe controller (ctrl ""): another device passed to a
// guest beside a drive's failure is not the drive's.
func passthrough(l *kernlog.Log, boot int, dev, ctrl string) *kernlog.Event {
	for i := range l.Incidents {
		in := &l.Incidents[i]
		if in.Boot != boot {
			continue
		}
		for j := range in.Events {
			if e := &in.Events[j]; e.Kind == kernlog.ResetFailure && e.PCI != "" && (ctrl == "" || e.PCI == dev) {
				if _, bound := l.Passthrough[e.PCI]; bound {
					return e
				}
			}
		}
	}
	if ctrl != "" {
		if e, ok := l.Passthrough[dev]; ok && dev != "" {
			return &e
		}
		return nil
	}
	var first *kernlog.Event
	for _, e := range l.Passthrough {
		if first == nil || e.Line < first.Line {
			first = &e
		}
	}
	return first
}

// dtHostLine reports whether an event is a device-tree PCIe host
// controller's: its device is named by its register address
// ("112f0000.pcie", "1000110000.pcie", "a40000000.pcie"), or it is a
// host controller's link or probe line, which only the drivers of such
// hosts print (kernlog.HostLinkUp, ActionHostLinkDown,
// ActionHostProbeFailed).
func dtHostLine(e *kernlog.Event) bool {
	switch {
	case e.Kind == kernlog.HostLinkUp, e.Action == kernlog.ActionHostLinkDown, e.Action == kernlog.ActionHostProbeFailed:
		return true
	}
	addr, ok := strings.CutSuffix(e.Device, ".pcie")
	if !ok {
		addr, ok = strings.CutSuffix(e.Device, ".pci")
	}
	return ok && addr != "" && strings.Trim(addr, "0123456789abcdef") == ""
}

// dpcBefore is the DPC containment (kernlog's AERRecovery, Action
// "containment": "pcieport 0000:00:10.0: DPC: containment event, ...") of
// the incident that came up to dpcNear before e on the same port, or nil.
func (s *signals) dpcBefore(e *kernlog.Event) *kernlog.Event {
	if s.inc == nil {
		return nil
	}
	for i := range s.inc.Events {
		c := &s.inc.Events[i]
		if c.Line >= e.Line {
			break
		}
		if c.Kind != kernlog.AERRecovery || c.Action != "containment" || c.Reporter == "" || c.Reporter != e.Reporter {
			continue
		}
		if d, ok := e.Time.Sub(c.Time); !ok && e.Line-c.Line <= 20 || ok && d >= 0 && d <= dpcNear {
			return c
		}
	}
	return nil
}

// dpcNear is how long after a DPC containment pciehp's report of the
// link down it made comes: the containment, then the link's retraining
// wait (a second or more), then the hot-plug event.
const dpcNear = 10 * time.Second

// ubootBoard reports whether the log is of a single-board computer that
// U-Boot boots from extlinux.conf (or, Armbian, from its own script),
// never through GRUB's defaults, which an x86 machine's advice names: a
// Rockchip or NVIDIA Tegra SoC's PCIe host controller ("rockchip-dw-pcie",
// "rk-pcie", "tegra194-pcie") or a device tree's model of such a board
// ("Machine model: Radxa ROCK 5B", "Hardware name: Radxa ROCK 5B (DT)",
// "NVIDIA Jetson AGX Orin"). A Qualcomm or Apple machine's device tree
// says nothing of its boot loader (those laptops boot GRUB through
// UEFI), nor a router's (OpenWrt's).
func (s *signals) ubootBoard() bool {
	l := s.in.Log
	if l == nil || s.piLink != nil {
		return false
	}
	if m := l.Machine; m != nil && (strings.Contains(m.Raw, "Machine model: ") || strings.HasSuffix(m.Text, "(DT)")) {
		for _, b := range []string{"Jetson", "Rockchip", "RK3", "Radxa", "Orange Pi", "OrangePi", "Pine64", "Pinebook", "PineTab", "Khadas", "NanoPi", "FriendlyElec", "Firefly", "Banana Pi", "Libre Computer"} {
			if strings.Contains(m.Text, b) {
				return true
			}
		}
	}
	if h := s.dtHost; h != nil {
		// The host's own name, which a host link event keeps in its line
		// only ("rk-pcie fe150000.pcie: PCIe Link Fail, ...").
		for _, d := range []string{"rockchip-dw-pcie ", "rockchip-pcie ", "rk-pcie ", "tegra194-pcie ", "tegra-pcie "} {
			if strings.HasPrefix(h.Driver+" ", d) || strings.Contains(h.Raw, d) {
				return true
			}
		}
	}
	return false
}

// inResume reports whether the failure came on a resume: right after a
// sleep line, or beside a device's failure to resume.
func (s *signals) inResume() bool {
	return s.onResume != nil || slices.ContainsFunc(s.pmErrors, func(e kernlog.Event) bool { return e.Phase == "resume" })
}

// deviceTree reports whether the log shows a board described by a device
// tree (a host controller's line, the PCI core's "ASPM: DT platform", the
// device tree's "Machine model: ...", arm64's "Hardware name: ... (DT)",
// a Raspberry Pi): no ACPI, no BIOS; its firmware is a bootloader and the
// device tree.
func (s *signals) deviceTree() bool {
	if l := s.in.Log; l != nil && l.Machine != nil && (strings.HasSuffix(l.Machine.Text, "(DT)") || strings.Contains(l.Machine.Raw, "Machine model: ")) {
		return true
	}
	return s.dtHost != nil || s.dtASPM != nil || s.piLink != nil || s.platform == persist.PlatformRaspberryPi
}

// piHost reports whether a host controller's line is a Raspberry Pi's:
// pcie-brcmstb.c's driver on the BCM2711's controller (fd500000.pcie, a
// Pi 4 or Compute Module 4) or the BCM2712's external one
// (1000110000.pcie, a Pi 5 or Compute Module 5), as their device trees
// name them.
func piHost(e *kernlog.Event) bool {
	return e.Driver == "brcm-pcie" && (e.Device == "fd500000.pcie" || e.Device == "1000110000.pcie")
}

// faultOfDrive reports whether a platform fault bears on the failure: an
// IOMMU fault or config write of the drive's function (of any, when the
// log names none), a kernel warning in the code that drives it (its line
// names NVMe, PCI, IOMMU, DMA or interrupts, or its dump ran through the
// NVMe driver) or within a resume window of the failure.
func (s *signals) faultOfDrive(e, first *kernlog.Event) bool {
	if e.Action != kernlog.ActionKernelBug {
		return e.PCI == "" || s.dev == "" || e.PCI == s.dev
	}
	if e.Stack != "" {
		return true
	}
	for _, w := range []string{"nvme", "pci", "iommu", "dma", "irq", "msi"} {
		if strings.Contains(strings.ToLower(e.Text), w) {
			return true
		}
	}
	d, ok := first.Time.Sub(e.Time)
	return ok && d < resumeWindow && d > -resumeWindow
}

// near reports whether two events happened together: within two seconds
// when their times compare, else within five lines.
func near(a, b *kernlog.Event) bool {
	if d, ok := a.Time.Sub(b.Time); ok {
		return d < 2*time.Second && d > -2*time.Second
	}
	return a.Line-b.Line <= 5 && b.Line-a.Line <= 5
}
