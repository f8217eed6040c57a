package diagnose

import (
	"cmp"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// probeSummary reports whether an incident holds only the driver core's
// "probe with driver nvme failed with error -5" lines of a function the
// log ties to no controller: the sum of what a controller's lines said
// before it, not a failure of its own to diagnose over that controller's.
func probeSummary(in *kernlog.Incident) bool {
	for i := range in.Events {
		if e := &in.Events[i]; e.Kind != kernlog.DriverError || e.Action != "probe failed" {
			return false
		}
	}
	return len(in.Events) > 0
}

// severity orders incidents: the one that shows the drive stop answering
// is the failure to diagnose, not a later corrected error or I/O error of
// another device.
func severity(in *kernlog.Incident) int { return severityBut(in, "") }

// severityBut is severity with the events of kind skip left out.
func severityBut(in *kernlog.Incident, skip kernlog.Kind) int {
	n := 0
	for k, c := range in.Counts {
		if c > 0 && k != skip {
			n = max(n, kindSeverity(in, k))
		}
	}
	return n
}

// kindSeverity is how much in's events of kind k weigh (severity).
func kindSeverity(in *kernlog.Incident, k kernlog.Kind) int {
	n := 0
	switch k {
	case kernlog.ControllerDown, kernlog.ResumeFailure, kernlog.ProbeFailure, kernlog.ResetFailure, kernlog.ResetNotReady, kernlog.LinkDown:
		n = max(n, 3)
	case kernlog.IOTimeout, kernlog.AdminTimeout, kernlog.AERRecovery, kernlog.HungTask:
		n = max(n, 2)
	case kernlog.DriverError:
		// A command the host itself aborted (Host Aborted Command,
		// sct 0x3 / sc 0x71: nvme_cancel_request's status for what a
		// reset or a removal takes back, the Async Event requests
		// among them) is the reset's doing, not a failure.
		for j := range in.Events {
			if e := &in.Events[j]; e.Kind == kernlog.DriverError && !hostAborted(e) && !adminDeclined(e) {
				n = max(n, 2)
			}
		}
	case kernlog.APSTFailed:
		// A negative errno is a controller that did not answer; a
		// positive value is the drive's NVMe status refusing the
		// table, which the kernel logs and goes on without.
		// Data Transfer Error is no refusal: the drive could not
		// fetch the table from host memory (transferError).
		for j := range in.Events {
			if e := &in.Events[j]; e.Kind == kernlog.APSTFailed && (e.Errno < 0 || transferError(e)) {
				n = max(n, 2)
			}
		}
	case kernlog.IOError, kernlog.DiskGone:
		n = max(n, 1)
		for j := range in.Events {
			if e := &in.Events[j]; e.Kind == kernlog.IOError && (mediaError(e) || transferError(e)) {
				// The drive's media failed a read or a write: a failure
				// of the drive itself, as weighty as a timeout.
				n = max(n, 2)
			}
		}
	case kernlog.PMError:
		// The drive itself failed to suspend or resume ("nvme
		// 0000:01:00.0: PM: failed to resume async: error -16"): a
		// line of nvme's, or of a function the log ties to a
		// controller; another device's, or the system's, is context.
		for j := range in.Events {
			if e := &in.Events[j]; e.Kind == kernlog.PMError && (e.Driver == "nvme" || in.Controller != "") {
				n = max(n, 2)
			}
		}
	case kernlog.LostInterrupt:
		// The drive's own interrupt arrived with no handler set up
		// for it: the drive cannot work, whatever else it logs.
		for j := range in.Events {
			if e := &in.Events[j]; e.Action == kernlog.ActionBadIRQ {
				n = max(n, 2)
			}
		}
	case kernlog.HostMemoryBuffer:
		// A drive left without its host memory buffer stalls: the
		// symptom without a failure line of its own.
		for j := range in.Events {
			if hmbFailed(&in.Events[j]) {
				n = max(n, 1)
			}
		}
	case kernlog.PlatformFault:
		// A drive whose registers got no address: no driver can reach
		// it, as failed as a probe failure.
		for j := range in.Events {
			if in.Events[j].Action == kernlog.ActionBARUnassigned {
				n = max(n, 3)
			}
		}
	case kernlog.AERError, kernlog.AERReceived:
		switch {
		case uncorrected(in):
			// An uncorrected error the device reported (the port's
			// "Uncorrected (Fatal) error received: ..." is enough).
			n = max(n, 2)
		case in.Counts[kernlog.AERError] >= 2:
			// A link that keeps correcting errors: no drop-out,
			// but the symptom users bring (correctedOnly).
			n = max(n, 1)
		}
	}
	return n
}

// pickIncident chooses the failure to diagnose: of the controller named
// (any when none is), the most severe incident, the most recent of equally
// severe ones, and reads its events.
func (s *signals) pickIncident(l *kernlog.Log) {
	if s.ctrl == "" && s.dev == "" && !s.logNamesNVMe() {
		if e, ports := unplugged(l); e != nil {
			s.unplug, s.unplugPorts = e, ports
			return
		}
	}
	best := 0
	for i := range l.Incidents {
		in := &l.Incidents[i]
		if !s.mine(in) {
			continue
		}
		sev := severity(in)
		if sev == 0 {
			continue
		}
		if sev > best || sev == best && !(s.inc != nil && s.inc.Controller != "" && in.Controller == "" && probeSummary(in)) {
			best, s.inc = sev, in
		}
	}
	if best == 1 && s.inc.Counts[kernlog.AERError] > 0 && s.inc.Counts[kernlog.IOError]+s.inc.Counts[kernlog.DiskGone] == 0 {
		// Corrected errors at most, the latest of them a link's: the
		// device that reported the most is the one to diagnose.
		s.inc = nil
	}
	if s.inc == nil {
		s.pickCrash(l)
	}
	if s.inc == nil {
		s.pickCorrected(l)
	}
	if s.inc == nil && s.ctrl == "" && s.dev == "" && !namesDrive(l) {
		// With a drive the log shows at work, a host controller whose
		// link never came up is an empty slot (noFailure says so).
		s.pickHostLinkDown(l)
	}
	if s.inc == nil {
		return
	}
	if s.ctrl == "" && s.dev == "" && severity(s.inc) <= 1 {
		s.toReported(l)
	}
	if s.ctrl == "" {
		s.ctrl = s.inc.Controller
	}
	for i := range l.Incidents {
		in := &l.Incidents[i]
		if (s.ctrl != "" && in.Controller == s.ctrl || in == s.inc) && severity(in) >= 2 {
			s.incidents++
			if e, ok := in.First(kernlog.ControllerDown); ok && e.CSTS != 0xffffffff && e.CSTS&2 != 0 {
				s.fatal++
				if s.fatalDown == nil {
					s.fatalDown = &e
				}
			}
		}
	}
	// Corrected errors of the same device shortly before are part of the
	// story even when an earlier incident holds them: look at every
	// incident of the controller in the same boot.
	for i := range l.Incidents {
		in := &l.Incidents[i]
		if in.Boot != s.inc.Boot || in != s.inc && !s.sameDevice(in) && !s.reporterOf(in) {
			continue
		}
		for j := range in.Events {
			e := &in.Events[j]
			if in != s.inc && e.Kind != kernlog.AERError && e.Kind != kernlog.AERReceived {
				continue
			}
			s.event(e)
		}
	}
}

// toReported moves a choice of corrected errors from a port's incident to
// that of the device the port said they were: "pcieport 0000:00:1d.0:
// AER: Multiple Corrected error received: 0000:03:00.0" names the other
// end of the link, and the port's own reports of the link's errors
// (reporterOf) are read with the device's.
func (s *signals) toReported(l *kernlog.Log) {
	port := s.inc.PCI
	if port == "" || s.inc.Controller != "" || !onlyPortLines(s.inc) {
		return
	}
	for i := range l.Incidents {
		in := &l.Incidents[i]
		if in == s.inc || in.Boot != s.inc.Boot || in.PCI == "" || !s.mine(in) || severity(in) > 1 {
			continue
		}
		for j := range in.Events {
			if e := &in.Events[j]; e.Kind == kernlog.AERReceived && e.Reporter == port && e.PCI == in.PCI {
				s.inc = in
				return
			}
		}
	}
}

// reporterOf reports whether incident in is a port's alone whose AER
// reports the chosen incident's device was named the source of, in the
// same boot: the same link's errors, seen from its other end.
func (s *signals) reporterOf(in *kernlog.Incident) bool {
	if s.inc == nil || s.inc.PCI == "" || in.PCI == "" || in.Controller != "" || !onlyPortLines(in) {
		return false
	}
	for j := range s.inc.Events {
		if e := &s.inc.Events[j]; e.Kind == kernlog.AERReceived && e.Reporter == in.PCI {
			return true
		}
	}
	return false
}

// onlyPortLines reports whether every line of incident in is the PCIe
// port driver's.
func onlyPortLines(in *kernlog.Incident) bool {
	for i := range in.Events {
		if in.Events[i].Driver != "pcieport" {
			return false
		}
	}
	return len(in.Events) > 0
}

// sameDevice reports whether incident in is of the controller diagnosed,
// by its name or its PCI address.
func (s *signals) sameDevice(in *kernlog.Incident) bool {
	return s.ctrl != "" && in.Controller == s.ctrl || s.dev != "" && in.PCI == s.dev
}

// pickHostLinkDown chooses, in a log with no failure of any NVMe device,
// the last incident in which a PCIe host controller's link never trained
// or its driver failed to probe: the drive behind it was never seen, the
// failure a user of a board with a PCIe connector (a Raspberry Pi 5's,
// say) brings when the drive is not detected.
func (s *signals) pickHostLinkDown(l *kernlog.Log) {
	for i := range l.Incidents {
		in := &l.Incidents[i]
		if in.Controller != "" || in.PCI != "" {
			continue
		}
		for j := range in.Events {
			if hostNeverUpEvent(&in.Events[j]) {
				s.inc = in
			}
		}
	}
}

// namesDrive reports whether the log shows an NVMe drive that the
// kernel found: a controller's pci function line, a namespace, an
// incident of a named controller.
func namesDrive(l *kernlog.Log) bool {
	if len(l.Addresses) > 0 || len(l.Namespaces) > 0 {
		return true
	}
	for i := range l.Incidents {
		if l.Incidents[i].Controller != "" {
			return true
		}
	}
	return false
}

// hostIncident reports whether an incident is a PCIe host controller's
// alone (its link or its probe): no unnamed device's failure.
func hostIncident(in *kernlog.Incident) bool {
	for j := range in.Events {
		if !hostNeverUpEvent(&in.Events[j]) {
			return false
		}
	}
	return true
}

// otherHostLine reports whether the log has a line of a PCIe host
// controller other than f: its link down or up, or a probe failure with
// an error.
func (s *signals) otherHostLine(f *kernlog.Event) bool {
	for i := range s.in.Log.Incidents {
		for j := range s.in.Log.Incidents[i].Events {
			e := &s.in.Log.Incidents[i].Events[j]
			if e.Line != f.Line && (e.Kind == kernlog.HostLinkUp || e.Action == kernlog.ActionHostLinkDown || e.Action == kernlog.ActionHostProbeFailed && e.Errno != 0) {
				return true
			}
		}
	}
	return false
}

// hostNeverUp returns the first event of l in which a PCIe host
// controller's link never trained or its driver failed to probe, or nil.
func hostNeverUp(l *kernlog.Log) *kernlog.Event { return firstEvent(l, hostNeverUpEvent) }

// hostNeverUpEvent reports whether e is a PCIe host controller's link
// that never trained or its driver's failed probe.
//
// Not inlined: 1.1 KB of the page's wasm in copies.
//
//go:noinline
func hostNeverUpEvent(e *kernlog.Event) bool {
	return e.Kind == kernlog.LinkDown && e.Action == kernlog.ActionHostLinkDown ||
		e.Kind == kernlog.PlatformFault && e.Action == kernlog.ActionHostProbeFailed
}

// pickCrash chooses, in a log with no failure the driver reported, the
// last incident holding a kernel crash or warning whose dump ran through
// the NVMe driver's code (kernlog's Event.Stack): the driver itself failed
// while it handled the drive, and printed nothing of its own. An incident
// of no controller counts unless one is named.
func (s *signals) pickCrash(l *kernlog.Log) {
	for i := range l.Incidents {
		in := &l.Incidents[i]
		kernel := in.Controller == "" && in.PCI == "" && s.ctrl == "" && s.dev == ""
		if !s.mine(in) && !kernel {
			continue
		}
		if driverCrash(in) {
			s.inc = in
		}
	}
}

// crashOnly reports whether the incident diagnosed holds no failure the
// driver reported: only a crash (pickCrash) or other platform faults.
func (s *signals) crashOnly() bool { return s.inc != nil && severity(s.inc) == 0 }

// driverCrash reports whether an incident holds a kernel crash or warning
// whose dump ran through the NVMe driver's code (only such events have a
// Stack).
func driverCrash(in *kernlog.Incident) bool {
	for j := range in.Events {
		if in.Events[j].Stack != "" {
			return true
		}
	}
	return false
}

// hostLinkDown reports a PCIe host controller whose link never trained
// ("brcm-pcie 1000110000.pcie: link down"): the drive was never seen.
func (s *signals) hostLinkDown() bool {
	return s.linkDown != nil && s.linkDown.Action == kernlog.ActionHostLinkDown
}

// pickCorrected chooses, in a log without a failure, the device whose link
// reported the most corrected errors (one report is enough), and of its
// incidents the latest: the symptom a user brings when the log fills with
// AER reports, of which a paste often keeps one. Between devices that
// reported as many, the one that reported last (a whole server log with
// 259 reports of one drive and 3 of another, posted zu-01, is the first
// drive's).
func (s *signals) pickCorrected(l *kernlog.Log) {
	reports := map[string]int{}
	for i := range l.Incidents {
		if in := &l.Incidents[i]; s.mine(in) {
			reports[cmp.Or(in.Controller, in.PCI)] += in.Counts[kernlog.AERError]
		}
	}
	for i := range l.Incidents {
		in := &l.Incidents[i]
		if !s.mine(in) || in.Counts[kernlog.AERError] == 0 {
			continue
		}
		if s.inc == nil {
			s.inc = in
			continue
		}
		n, best := reports[cmp.Or(in.Controller, in.PCI)], reports[cmp.Or(s.inc.Controller, s.inc.PCI)]
		if n > best || n == best && lastLine(in) > lastLine(s.inc) {
			s.inc = in
		}
	}
}

// lastLine is the line of an incident's last event kept.
func lastLine(in *kernlog.Incident) int {
	return in.Events[len(in.Events)-1].Line
}
