package diagnose

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// mine reports whether incident in is of the controller diagnosed (any
// controller's when none is named).
func (s *signals) mine(in *kernlog.Incident) bool {
	switch {
	case s.ctrl == "" && s.dev == "":
		// An NVMe driver's interrupt without a handler is an NVMe failure
		// even when the log has several controllers to give it to.
		return in.Controller != "" || in.PCI != "" && !s.otherDevice(in) && !s.portOfOther(in) && !s.otherBranch(in) || in.Counts[kernlog.LostInterrupt] > 0 && severity(in) > 0 ||
			unnamedNVMe(in) != nil
	case s.ctrl != "" && in.Controller == s.ctrl:
		return true
	}
	return s.dev != "" && in.Controller == "" && in.PCI == s.dev
}

// otherBranch reports whether incident in is a port's alone whose buses,
// as the log's bridge lines give them, hold none of the NVMe functions the
// log names: the port of another branch of the tree (a Thunderbolt
// controller's switch powered down as its dock left, a Wi-Fi card's root
// port), whose failure is no drive's (a Dell XPS 13's hw-probe dmesg,
// posted zt-05: "pcieport 0000:02:00.0: Refused to change power state,
// currently in D3", its bridge to bus 03, the drive at 3c:00.0).
func (s *signals) otherBranch(in *kernlog.Incident) bool {
	l := s.in.Log
	if in.Controller != "" || in.PCI == "" || !onlyPortLines(in) || len(l.Addresses) == 0 {
		return false
	}
	for fn := range l.Addresses {
		if below, known := l.Below(in.PCI, fn); !known || below || fn == in.PCI {
			return false
		}
	}
	return true
}

// unnamedNVMe returns the nvme driver's line of an incident that names
// no controller and no function ("nvme nvme: controller is down; will
// reset: ...", its number lost or cut by the user, or a placeholder
// "nvme nvmeX:"): the log's NVMe drive's failure all the same, or nil.
func unnamedNVMe(in *kernlog.Incident) *kernlog.Event {
	if in.Controller != "" || in.PCI != "" {
		return nil
	}
	for i := range in.Events {
		if e := &in.Events[i]; e.Driver == "nvme" && e.Controller == "" && e.PCI == "" {
			return e
		}
	}
	return nil
}

// otherDevice reports whether incident in is of a PCI function another
// driver than nvme's drives ("tg3 0000:97:00.0: Unable to change power
// state ...", "ahci 0000:8f:00.0: ..."): no NVMe controller, a driver named
// on its lines (the PCI core's, "pci", name none), none of them nvme's,
// the port's or its services' (pcieport, pciehp, aer, dpc) or a
// passthrough's (vfio-pci), and no enumeration line that makes its
// function an NVMe one; or one whose driver has no AER error handler
// (nvme's has).
func (s *signals) otherDevice(in *kernlog.Incident) bool {
	if in.Controller != "" || in.PCI == "" {
		return false
	}
	if _, nvme := s.in.Log.DeviceIDs[in.PCI]; nvme {
		return false
	}
	named := false
	for i := range in.Events {
		if d := in.Events[i].Driver; strings.Contains(d, "nvme") || d == "vfio-pci" {
			return false
		}
	}
	for i := range in.Events {
		if e := &in.Events[i]; e.Kind == kernlog.AERRecovery && e.Action == "no callback" {
			// "AER: can't recover (no error_detected callback)": the
			// function's driver has no error handler, and nvme's has one
			// (a function nvme named earlier has lost its driver).
			return true
		}
	}
	for i := range in.Events {
		e := &in.Events[i]
		switch d := e.Driver; {
		case d == "", d == "pci", e.Kind == kernlog.AERReceived && e.Reporter != "" && e.Reporter != in.PCI:
			// The PCI core's lines name no driver: they are any
			// function's; a port's "error received: X" line is the
			// port's, about X, and says nothing of X's driver.
		case d == "pcieport", d == "pciehp", d == "aer", d == "dpc":
			return false
		default:
			named = true
		}
	}
	return named
}

// portOfOther reports whether incident in is a port's alone (its lines
// are the PCIe port driver's) recovering another driver's device: the
// port named only such devices as its errors' sources ("pcieport
// 0000:00:02.0: AER: Multiple Uncorrected (Non-Fatal) error received:
// 0000:02:00.0", and 0000:02:00.0 is ath10k_pci's), or, naming none, its
// lines fall within two seconds of another driver's device failing ("igc
// 0000:02:00.0: not ready 65535ms after bus reset; giving up") and of no
// other failure.
func (s *signals) portOfOther(in *kernlog.Incident) bool {
	if in.Controller != "" || in.PCI == "" || !onlyPortLines(in) {
		return false
	}
	// Memoized: mine asks it of every incident, and it looks at all.
	if v, ok := s.portMemo[in]; ok {
		return v
	}
	v := s.portOfOtherOnce(in)
	if s.portMemo == nil {
		s.portMemo = map[*kernlog.Incident]bool{}
	}
	s.portMemo[in] = v
	return v
}

func (s *signals) portOfOtherOnce(in *kernlog.Incident) bool {
	if _, nvme := s.in.Log.DeviceIDs[in.PCI]; nvme {
		return false
	}
	if !s.logNamesNVMe() && otherLinesAmong(s.in.Log, in) {
		// A log that names no NVMe device, whose port errors run among
		// another driver's failure lines ("mlx4_core 0000:01:00.0:
		// Internal error detected:" beside the root port's MalfTLP):
		// that device's, not a drive's the log never shows.
		return true
	}
	for i := range in.Events {
		if e := &in.Events[i]; e.Kind == kernlog.AERError || e.Kind == kernlog.AERReceived {
			// The port's own error ("pcieport 0000:03:04.0: PCIe Bus
			// Error: severity=Uncorrectable (Fatal)"): its link's, the
			// drive's unless the port's recovery of it reached another
			// driver's function, the device on that link.
			return s.recoveredOther(in)
		}
	}
	// The devices the port named as its errors' sources decide, when it
	// named any.
	if s.sources == nil {
		s.sources = map[string][]*kernlog.Incident{}
		for i := range s.in.Log.Incidents {
			o := &s.in.Log.Incidents[i]
			for j := range o.Events {
				e := &o.Events[j]
				if e.Kind != kernlog.AERReceived || e.Reporter == "" || o.PCI == "" {
					continue
				}
				if l := s.sources[e.Reporter]; len(l) == 0 || l[len(l)-1] != o {
					s.sources[e.Reporter] = append(l, o)
				}
			}
		}
	}
	sources, others := 0, 0
	for _, o := range s.sources[in.PCI] {
		if o != in && o.Boot == in.Boot {
			sources++
			if s.otherDevice(o) {
				others++
			}
		}
	}
	if sources > 0 {
		return others == sources
	}
	return s.othersAround(in, false)
}

// recoveredOther reports whether the AER recovery of port incident in
// reached another driver's function and no NVMe one: that function's
// driver (named: namedOther) said so in the same seconds ("ahci
// 0000:01:00.0: AER: can't recover (no error_detected callback)" beside
// the port's "AER: device recovery failed"), so the function is below the
// port, and no NVMe controller failed then.
func (s *signals) recoveredOther(in *kernlog.Incident) bool {
	return s.othersAround(in, true)
}

// othersAround reports whether another driver's function failed in the
// same seconds as port incident in and no NVMe controller did; recovered
// asks that the function's own driver spoke in the port's AER recovery.
func (s *signals) othersAround(in *kernlog.Incident, recovered bool) bool {
	other, nvme := false, false
	for i := range s.in.Log.Incidents {
		o := &s.in.Log.Incidents[i]
		if o == in || o.Boot != in.Boot || !overlap(in, o) || severity(o) == 0 {
			continue
		}
		switch {
		case s.otherDevice(o) && (!recovered || o.Has(kernlog.AERRecovery) && namedOther(o)):
			other = true
		case !onlyPortLines(o):
			nvme = true
		}
	}
	return other && !nvme
}

// otherLinesAmong reports whether a failure line of another driver's
// function that the log could not read as an event (kernlog's Unread:
// "mlx4_core 0000:01:00.0: mlx4_pci_err_detected was called") falls
// among incident in's lines, or within five lines of them.
func otherLinesAmong(l *kernlog.Log, in *kernlog.Incident) bool {
	if len(in.Events) == 0 {
		return false
	}
	first, last := in.Events[0].Line, in.Events[len(in.Events)-1].EndLine
	last = max(last, in.Events[len(in.Events)-1].Line)
	for _, u := range l.Unread {
		if u.Line >= first-5 && u.Line <= last+5 && otherDriverLine(u.Text) != "" {
			return true
		}
	}
	return false
}

// namedOther reports whether a line of the incident names the driver of
// its function, one other than nvme's and the PCI core's ("ahci"): a
// function the PCI core prints for alone ("pci 0000:05:00.0: AER: can't
// recover") has no driver bound, and may be a drive whose driver is not.
func namedOther(in *kernlog.Incident) bool {
	for i := range in.Events {
		if d := in.Events[i].Driver; d != "" && d != "pci" && d != "pcieport" && !strings.Contains(d, "nvme") {
			return true
		}
	}
	return false
}

// overlap reports whether two incidents' lines fall within two seconds of
// each other (their times compare), else within five lines.
func overlap(a, b *kernlog.Incident) bool {
	if len(a.Events) == 0 || len(b.Events) == 0 {
		return false
	}
	af, al := &a.Events[0], &a.Events[len(a.Events)-1]
	bf, bl := &b.Events[0], &b.Events[len(b.Events)-1]
	if d, ok := bf.Time.Sub(al.Time); ok {
		e, _ := af.Time.Sub(bl.Time)
		return d < 2*time.Second && e < 2*time.Second
	}
	return bf.Line-al.Line <= 5 && af.Line-bl.Line <= 5
}

// othersFailed names, at most three, the devices of other drivers whose
// failures the log holds ("tg3 0000:97:00.0"), for a log without an NVMe
// failure.
func (s *signals) othersFailed() []string {
	var out []string
	for i := range s.in.Log.Incidents {
		in := &s.in.Log.Incidents[i]
		// Another driver's failure to suspend or resume its own function
		// ("nvidia 0000:01:00.0: PM: failed to suspend async: error -5")
		// weighs nothing for the drive (severity) but is named.
		if severity(in) == 0 && in.Counts[kernlog.PMError] == 0 && !slices.Contains(s.otherUnread, in) || !s.otherDevice(in) {
			continue
		}
		name := in.PCI
		for _, e := range in.Events {
			if e.Driver != "" && e.Driver != "pci" && e.Reporter == "" && plainWord(e.Driver) {
				name = e.Driver + " " + in.PCI
				break
			}
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
		if len(out) == 3 {
			break
		}
	}
	for _, name := range s.otherProbes {
		// One device named once, by the first of its drivers the log
		// shows ("mlx4_core 0000:01:00.0", not mlx4_en's line after).
		_, addr, _ := strings.Cut(name, " ")
		named := false
		for _, o := range out {
			named = named || o == name || o == addr || strings.HasSuffix(o, " "+addr)
		}
		if len(out) < 3 && !named {
			out = append(out, name)
		}
	}
	return out
}

// unreadOfOurs is the log's unread lines but those of the functions
// another driver drives ("xhci_hcd 0000:39:00.0: PCI post-resume error
// -19!" beside xhci_hcd's read failures, otherDevice): a line about a USB
// host or a NIC says nothing of the drive. The list is the log's own
// when no line is dropped.
func (s *signals) unreadOfOurs() []kernlog.UnreadLine {
	l := s.in.Log
	var other []string
	var incs []*kernlog.Incident
	for i := range l.Incidents {
		if in := &l.Incidents[i]; s.otherDevice(in) {
			other = append(other, " "+in.PCI+":")
			incs = append(incs, in)
		}
	}
	out := make([]kernlog.UnreadLine, 0, len(l.Unread))
next:
	for _, u := range l.Unread {
		if targetLine(u.Text) {
			s.target = append(s.target, u)
			continue
		}
		if name := cmp.Or(otherProbe(u.Text), otherDriverLine(u.Text)); name != "" {
			if !slices.Contains(s.otherProbes, name) {
				s.otherProbes = append(s.otherProbes, name)
			}
			if s.otherProbeFailed.Line == 0 && otherProbe(u.Text) != "" {
				s.otherProbeFailed = u
			}
			continue
		}
		for i, a := range other {
			if strings.Contains(u.Text, a) {
				if !slices.Contains(s.otherUnread, incs[i]) {
					s.otherUnread = append(s.otherUnread, incs[i])
				}
				continue next
			}
		}
		out = append(out, u)
	}
	if len(out) == len(l.Unread) {
		return l.Unread
	}
	return out
}

// otherProbe names the device of the driver core's report that another
// driver than nvme failed to probe a function ("thunderbolt: probe of
// 0000:05:00.0 failed with error -108", since 6.3 "xhci_hcd 0000:39:00.0:
// probe with driver xhci_hcd failed with error -19", drivers/base/dd.c):
// "DRIVER ADDRESS", or "" for any other line.
func otherProbe(line string) string {
	if i := strings.Index(line, ": probe of "); i > 0 {
		drv := line[strings.LastIndexByte(line[:i], ' ')+1 : i]
		addr, rest, _ := strings.Cut(line[i+len(": probe of "):], " ")
		if drv != "nvme" && plainWord(drv) && isPCI(addr) && strings.HasPrefix(rest, "failed with error ") {
			return drv + " " + addr
		}
		return ""
	}
	if i := strings.Index(line, ": probe with driver "); i > 0 {
		drv, rest, _ := strings.Cut(line[i+len(": probe with driver "):], " ")
		f := strings.Fields(line[:i])
		if len(f) > 0 && drv != "nvme" && plainWord(drv) && isPCI(f[len(f)-1]) && strings.HasPrefix(rest, "failed with error ") {
			return drv + " " + f[len(f)-1]
		}
	}
	return ""
}

// targetLine reports whether a line is the NVMe over Fabrics target
// driver's (drivers/nvme/target: "nvmet: ctrl 1 fatal error occurred!",
// "nvmet: ctrl 1 keep-alive timer (15 seconds) expired!", its transports'
// "nvmet_tcp: ...", "nvmet_rdma: ...", "nvmet_fc: ..."): the message's
// first word names it, after the time ("...]"), the program ("kernel:")
// or a quote mark, or at the line's start.
func targetLine(line string) bool {
	f := strings.Fields(line[:min(len(line), 120)])
	for n := range min(len(f), 8) {
		w := f[n]
		if (w == "nvmet:" || strings.HasPrefix(w, "nvmet_") && strings.HasSuffix(w, ":") && plainWord(w[:len(w)-1])) &&
			(n == 0 || strings.HasSuffix(f[n-1], "]") || f[n-1] == "kernel:" || strings.Trim(f[n-1], ">") == "") {
			return true
		}
	}
	return false
}

// pcieDrivers are the drivers whose lines about a PCI function may be the
// NVMe drive's or its link's: nvme's own, the PCI core's ("pci"), the
// port driver's (AER, DPC, pciehp, ASPM), Intel VMD's and Thunderbolt's
// (the bridges an NVMe drive may sit behind), and those a drive is bound
// to when it is passed to a virtual machine or a user-space driver
// (vfio-pci, pci-stub, Xen's pciback, uio_pci_generic).
var pcieDrivers = []string{"nvme", "pci", "pcieport", "vmd", "thunderbolt", "vfio-pci", "pci-stub", "pciback", "uio_pci_generic"}

// otherDriverLine names the device of another driver's line about its own
// PCI function ("amdgpu 0000:03:00.0: amdgpu: GPU mode1 reset failed",
// "snd_hda_intel 0000:03:00.1: CORB reset timeout#2"): "DRIVER ADDRESS",
// or "" for a line of nvme, the PCI core, a port or a bridge (pcieDrivers)
// and any other line. Such a line is that device's failure, never an NVMe
// drive's line left unread.
func otherDriverLine(line string) string {
	f := strings.Fields(line[:min(len(line), 200)])
	for k := 1; k < len(f); k++ {
		addr, ok := strings.CutSuffix(f[k], ":")
		if !ok || !isPCI(addr) {
			continue
		}
		if drv := f[k-1]; plainWord(drv) && !slices.Contains(pcieDrivers, drv) {
			return drv + " " + addr
		}
		return "" // the first device named is the line's
	}
	return ""
}

// isPCI reports whether s is a PCI address as the kernel writes one
// ("0000:05:00.0", a VMD domain's "10000:e1:00.0").
func isPCI(s string) bool {
	p := strings.Split(s, ":")
	if len(p) != 3 || len(p[0]) < 4 || len(p[0]) > 5 || len(p[1]) != 2 || len(p[2]) != 4 || p[2][2] != '.' || p[2][3] < '0' || p[2][3] > '7' {
		return false
	}
	for _, h := range p[0] + p[1] + p[2][:2] {
		if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
			return false
		}
	}
	return true
}

// portsOfOthers lists, at most three, the ports whose failures are
// those of other drivers' devices (portOfOther).
func (s *signals) portsOfOthers() []string {
	var out []string
	for i := range s.in.Log.Incidents {
		if in := &s.in.Log.Incidents[i]; severity(in) > 0 && s.portOfOther(in) && !slices.Contains(out, in.PCI) && len(out) < 3 {
			out = append(out, in.PCI)
		}
	}
	return out
}

// plainWord reports whether a driver's name is letters, digits, "_" and
// "-" alone, fit to quote in a summary.
func plainWord(w string) bool {
	for _, c := range w {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return w != ""
}

// unnamedFailure is the first event of a failure whose lines name no
// device ("Unable to change power state from D3cold to D0, device
// inaccessible" pasted without its prefix), or nil.
func (s *signals) unnamedFailure() *kernlog.Event {
	for i := range s.in.Log.Incidents {
		in := &s.in.Log.Incidents[i]
		if in.Controller == "" && in.PCI == "" && severity(in) >= 2 && len(in.Events) > 0 && !hostIncident(in) {
			return &in.Events[0]
		}
	}
	return nil
}

// portOnly reports whether every line of the incident that names its
// function is the PCIe port driver's: the function is a port (a root or
// switch port, a Thunderbolt bridge), and the drive is behind it, so it
// is not called the drive.
func (s *signals) portOnly() bool {
	if s.inc == nil {
		return false
	}
	port := false
	for i := range s.inc.Events {
		e := &s.inc.Events[i]
		if e.PCI != s.dev && e.Device != s.dev || e.Kind == kernlog.AERReceived && e.Reporter != "" && e.Reporter != s.dev {
			// A port's "error received: X" is about X, not X's line.
			continue
		}
		if e.Driver != "pcieport" {
			return false
		}
		port = true
	}
	return port
}
