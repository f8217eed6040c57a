package diagnose

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
	"github.com/nvmeapst/nvmeapst/apst/persist"
)

// signals are the observations the rules weigh.
type signals struct {
	in   *Input
	ctrl string
	dev  string // PCI address of the controller
	// pciID is the controller's PCI vendor:device ID from the log's
	// enumeration line ("" when the log has none).
	pciID string
	// pciFrom says where the Identify data's PCI ID came from when it is
	// the log's (logPCIID), "" otherwise.
	pciFrom string
	inc     *kernlog.Incident
	// incidents counts the controller's incidents with a failure, fatal
	// those with a controller-down whose CSTS has CFS set.
	incidents, fatal int
	// events of the incident (and AER of the same device earlier in the
	// boot), first of each kind
	down, resume, linkDown, reset, apstFailed, hint *kernlog.Event
	powerFault                                      *kernlog.Event // pciehp's "Slot(1): Power fault"
	// removal is the first sign that the device left the bus (pciehp link
	// down or card not present, a controller-down reading all ones)
	// before the resume failure, which is then its consequence.
	removedFirst bool
	aerPhys      []kernlog.Event
	aerOther     []kernlog.Event
	aerUncorr    []kernlog.Event
	acsViol      *kernlog.Event // an uncorrected AER report of an ACS Violation alone
	// aerRecovery is the PCI core's error recovery of the drive: nvme's
	// "frozen state error detected, reset controller", a DPC containment,
	// s390's zPCI error event.
	aerRecovery *kernlog.Event
	zpciError   *kernlog.Event // s390's firmware reported an error for the drive's function
	// abortDone is an Abort command the drive completed with success
	// ("Abort status: 0x0"): it answered its admin queue about a command
	// that had timed out.
	abortDone *kernlog.Event
	timeouts  []kernlog.Event
	hung      *kernlog.Event  // a task blocked on the drive's I/O
	polled    []kernlog.Event // timeouts the driver completed by polling
	ioErrors  []kernlog.Event
	transport []kernlog.Event // I/O errors with a transport status, not host-aborted
	media     []kernlog.Event // I/O errors the drive's media caused (mediaError)
	newIDs    *kernlog.Event  // "identifiers changed": a namespace came back as another
	dupIDs    *kernlog.Event  // "Duplicate cntlid", "globally duplicate IDs for nsid": an identity claimed twice
	nsDesc    *kernlog.Event  // "Identify Descriptors failed" with an NVMe status: the drive refused the namespace descriptor list
	degraded  *kernlog.Event  // "Could not set queue count (N)", an NVMe status: a degraded controller, brought up with its admin queue alone
	refused   *kernlog.Event  // an I/O command the drive refused as invalid (refusedCommand)
	denied    *kernlog.Event  // an I/O command the drive answered Access Denied (sct 0x2 / sc 0x86): a locked self-encrypting drive
	piWrite   *kernlog.Event  // a write whose protection information did not match its data (protectedWrite)
	// transferErr is the first command the drive answered Data Transfer
	// Error (sct 0x0 / sc 0x4; a Set Features APST's status 0x4 among
	// them): it could not move the command's data to or from host memory.
	transferErr *kernlog.Event
	internal    *kernlog.Event // an I/O command the drive failed with Internal Error (sct 0x0 / sc 0x6)
	probeErr    *kernlog.Event // the driver core's "probe ... failed with error N"
	// initErr is nvme's "Identify Controller failed (-4)": the controller
	// did not answer the first command of its bring-up (probe or reset).
	initErr    *kernlog.Event
	persistErr *kernlog.Event // "resetting controller due to persistent internal error"
	bogusCQE   *kernlog.Event // a completion whose command ID the host never issued
	// otherUnread are the incidents of other drivers' functions whose
	// failure-looking lines were left unread (unreadOfOurs).
	otherUnread []*kernlog.Incident
	portMemo    map[*kernlog.Incident]bool // portOfOther's answers
	// unnamed is set when the log names no NVMe controller, disk or
	// function and nobody named the drive (Input.Controller, Address,
	// Facts): the failure diagnosed is taken to be the drive's, and no
	// cause of it is called likely.
	unnamed bool
	// nvmeNamed memoizes namesNVMe of the log: 0 not asked yet, 1 no,
	// 2 yes (portOfOther asks it of every incident).
	nvmeNamed int8
	// otherProbes are the devices ("thunderbolt 0000:05:00.0") whose
	// failed probe by another driver the driver core reported
	// (otherProbe), or whose own driver printed a failure-looking line
	// (otherDriverLine, "amdgpu 0000:03:00.0"): lines left unread.
	// unplug is, in a log that names no NVMe drive, the hot-plug slot's
	// report of a device unplugged whose ports (unplugPorts) could not be
	// woken as it left: no failure (unplugged).
	unplug      *kernlog.Event
	unplugPorts []string
	otherProbes []string
	// otherProbeFailed is the first of otherProbes' lines that is the
	// driver core's report of another driver's failed probe.
	otherProbeFailed kernlog.UnreadLine
	// target are the NVMe over Fabrics target driver's lines (nvmet,
	// targetLine) that would be listed unread: this machine serves a
	// target, and they are of its hosts' connections.
	target []kernlog.UnreadLine
	// sources are, by port, the incidents of the devices a port's AER
	// "error received" lines named (portOfOther).
	sources  map[string][]*kernlog.Incident
	shutdown *kernlog.Event // "Device shutdown incomplete", "Device not ready; aborting shutdown": the drive did not finish its shutdown in time
	fwAct    *kernlog.Event // "Fw activation timeout, reset controller": the drive stayed paused past its MTFA activating a firmware image
	liveRace *kernlog.Event // "failed to mark controller live (state)": the driver's bring-up lost a race with another state change
	// context of the log, not tied to the controller
	// others are resume failures of other PCI functions at the same time
	// as the drive's: a shared cause (the port, ASPM restore, the
	// platform), not the drive.
	others []kernlog.Event
	// othersDown are the first failures of other NVMe controllers that
	// went down or were removed within sharedWindow of this one, in the
	// same boot. For a failure known only by its PCI address one of them
	// may be its own controller (othersMaySelf), so they count only when
	// there are two or more.
	othersDown []kernlog.Event
	// sameElsewhere are the first lines of other controllers' incidents,
	// at any time in the log, that hold the same kinds of failure.
	sameElsewhere []kernlog.Event
	othersMaySelf bool
	onResume      *kernlog.Event // suspend exit (or entry) just before the failure, or the resume's line just after it (midResume)
	midResume     bool           // onResume is a resume's line after the failure: it began while the system resumed
	sleepMode     string         // the mode of the last system sleep before the failure ("deep", "s2idle", "S3"), "" when unknown
	pmErrors      []kernlog.Event
	lostIRQ       *kernlog.Event
	// apstRefused is the drive refusing the kernel's APST table in the
	// boot that failed ("failed to set APST feature (2)", an NVMe status).
	apstRefused *kernlog.Event
	hmb         *kernlog.Event
	dtASPM      *kernlog.Event
	// piLink is a Raspberry Pi's PCIe host controller training its link
	// (the first such line); piGen3 its line saying 8.0 GT/s, Gen 3.
	piLink, piGen3 *kernlog.Event
	// dtHost is the first line of a device-tree PCIe host controller
	// ("mtk-pcie-gen3 112f0000.pcie: ..."), in the failure's boot: an Arm
	// or RISC-V board without ACPI or a BIOS.
	dtHost *kernlog.Event
	// passthrough is the first line of a function bound to a driver that
	// hands it to a virtual machine (vfio-pci, Xen's pciback, pci-stub),
	// preferring one that did not come back from a reset.
	passthrough *kernlog.Event
	// faults are the platform's faults around the failure: IOMMU faults
	// and config writes of the drive's function, kernel warnings and
	// crashes in the code that drives it or at the time of the failure.
	faults      []kernlog.Event
	cmdline     string
	cmdlineLine Line // where the command line came from
	// guest is the line that says the kernel ran in a virtual machine.
	guest       *kernlog.Event
	release     apst.Release
	releaseText string
	platform    persist.Platform
	tried       []Tried // what was tried, the log's command line included
	known       []Known // known regressions and quirks the log matches
	plan        *apst.Plan
	planErr     error
	notes       []string
}

// resumeWindow is how long after a resume a failure counts as "on
// resume".
const resumeWindow = 2 * time.Minute

// midResumeWindow is how long before a resume's own line a failure counts
// as one of the resume: the PM core's steps take seconds, not more.
const midResumeWindow = 10 * time.Second

// observe gathers the signals.
func observe(in *Input) *signals {
	s := &signals{in: in, ctrl: in.Controller, dev: cmp.Or(in.Address, in.Facts.Address)}
	if s.dev == "" {
		if f := in.Facts.Device(); f != nil {
			s.dev = f.Address
		}
	}
	if s.ctrl == "" {
		s.ctrl = in.Facts.Controller
	}
	if in.Log != nil {
		s.pickIncident(in.Log)
		if s.dev == "" {
			s.dev = addressOf(in.Log, s.ctrl)
		}
		if s.dev == "" && s.inc != nil {
			s.dev = s.inc.PCI
		}
		s.pciID = in.Log.DeviceIDs[s.dev]
		if s.dev == "" && len(in.Log.DeviceIDs) == 1 {
			for _, id := range in.Log.DeviceIDs {
				s.pciID = id // the log's only NVMe function
			}
		}
		s.context(in.Log)
		s.guest = guest(in.Log)
		if s.inc != nil {
			s.passthrough = passthrough(in.Log, s.inc.Boot, s.dev, s.ctrl)
		}
	}
	switch {
	case in.Facts.CommandLine.Known():
		s.cmdline = in.Facts.CommandLine.Value
		s.cmdlineLine = Line{Source: in.Facts.CommandLine.Source, Text: "the kernel command line", Quote: s.cmdline}
	case in.Log != nil && in.Log.CommandLine != "":
		s.cmdline = in.Log.CommandLine
		s.cmdlineLine = Line{Source: "kernel log", Text: "the kernel command line of the boot that failed", Quote: "Kernel command line: " + s.cmdline}
		if e := in.Log.CommandLineEvent; e != nil {
			// The line as it appears, with its number: evidence quotes it.
			s.cmdlineLine = logLine(e, s.cmdlineLine.Text)
		}
	}
	s.release = in.Release
	// The release as the machine or the log wrote it comes first: the
	// known issues match its text ("6.2.0-rc1"), the platform is told from
	// it ("6.6.31+rpt-rpi-2712"); Release.String would drop both.
	switch {
	case in.Facts.KernelRelease.Known():
		s.releaseText = in.Facts.KernelRelease.Value
	case in.Log != nil && in.Log.Release != "":
		s.releaseText = in.Log.Release
	case !s.release.IsZero():
		s.releaseText = s.release.String()
	}
	if s.release.IsZero() && s.releaseText != "" {
		s.release, _ = apst.ParseRelease(s.releaseText)
	}
	s.platform = in.Platform
	if s.platform == persist.PlatformUnknown {
		s.platform = persist.DetectPlatform(s.releaseText, s.cmdline)
	}
	if s.platform == persist.PlatformUnknown && (s.piLink != nil || in.Log != nil && in.Log.Machine != nil && strings.HasPrefix(in.Log.Machine.Text, "Raspberry Pi ")) {
		// The device tree's model ("Machine model: Raspberry Pi 5 Model
		// B Rev 1.0") or a crash dump's ("Hardware name: Raspberry Pi 4
		// Model B Rev 1.5 (DT)") says a Pi as well as its host's lines.
		s.platform = persist.PlatformRaspberryPi
	}
	if s.platform == persist.PlatformUnknown && s.ubootBoard() {
		s.platform = persist.PlatformExtlinux
	}
	s.known = matchKnown(s)
	if ids := unmatchedKnown(s); len(ids) > 0 {
		s.notes = append(s.notes, fmt.Sprintf("the log has no kernel release (its \"Linux version\" line), so %d known regression(s) that its lines fit were not checked against it (%s): the whole log of that boot has it", len(ids), strings.Join(ids, ", ")))
	}
	s.tried = append(s.tried, in.Tried...)
	if s.inc != nil {
		s.tried = append(s.tried, ParseCommandLine(s.cmdline)...)
	}
	for i := range s.tried {
		s.tried[i].Weighed = false // the rules' to say (triedOf)
	}
	if in.Identify != nil && s.inc != nil {
		if note := s.logPCIID(in); note != "" {
			s.notes = append(s.notes, note)
		}
		params := in.Params
		given := params.Generation != 0
		if !given {
			// The zero Params: the defaults of the log's release.
			gen, err := s.release.Generation()
			if err != nil {
				gen = apst.Current
			}
			params = apst.DefaultParams(gen)
			params.Release = s.release
			params.Quirks = apst.DriveQuirks(in.Identify, s.release).Quirks
			pci := ""
			if s.pciFrom != "" {
				pci = fmt.Sprintf("; its PCI ID %04x:%04x from %s", in.Identify.PCIVendor(), in.Identify.PCIDeviceID, s.pciFrom)
			}
			s.notes = append(s.notes, fmt.Sprintf("no kernel parameters were given: the APST plan assumes the module defaults of %s (bound %s) and the quirks the kernel's tables give the drive (%s%s)", gen, params.Bound, params.Quirks, pci))
		}
		in.Params = params
		if given && in.Plan != nil {
			s.plan = in.Plan
		} else if p, err := apst.Build(in.Identify, params); err != nil {
			s.planErr = err
			s.notes = append(s.notes, "the APST plan could not be built: "+err.Error())
		} else {
			s.plan = &p
		}
	} else if s.inc != nil && fabricsLine(s.inc, in.Log) == nil {
		// (A fabrics controller's answer weighs no APST: the note would
		// speak of a verdict it does not give.)
		s.notes = append(s.notes, "no Identify data: the APST table is unknown, so the APST verdict rests on the log and the facts alone (give --id-ctrl CAPTURE)")
	}
	if s.ctrl == "" && s.inc != nil && in.Log != nil && in.Facts.Controller == "" && !s.logNamesNVMe() {
		switch {
		case ownFailure(s.inc):
			s.notes = append(s.notes, "the log names no NVMe controller, disk or function: the failure is a PCIe host controller's or hot-plug slot's own, whatever is behind it, and is taken to be what failed the drive; a log with the nvme driver's lines would say whose it is")
		case in.Address == "" && in.Facts.Address == "":
			// The user named no function as the drive's either: the
			// answer rests on that assumption, and calls nothing likely.
			s.unnamed = true
			s.notes = append(s.notes, "the log names no NVMe controller, disk or function: the failure of "+cmp.Or(s.dev, "a device it does not name")+" is taken to be the drive's (or its link's), and no cause is called likely on that assumption; a log with the nvme driver's lines would say whose it is (or name the drive's function: apstctl diagnose --log FILE ADDRESS)")
		default:
			s.notes = append(s.notes, "the log names no NVMe controller, disk or function: the failure of "+cmp.Or(s.dev, "a device it does not name")+" is taken to be the drive's (or its link's), as the function to diagnose was given; a log with the nvme driver's lines would say whose it is")
		}
	}
	if s.ctrl == "" && s.dev == "" && s.inc != nil && in.Facts.Controller == "" {
		if e := unnamedNVMe(s.inc); e != nil {
			s.notes = append(s.notes, fmt.Sprintf("line %d is the nvme driver's but names no controller (%q where the kernel writes nvme0, nvme1, ...): it is taken for the drive's; the lines as the system wrote them (journalctl -k -b -1 --no-pager) tie the rest of the log to it", e.Line, e.Driver+" "+e.Device+":"))
		}
	}
	if e := s.removedCtrl(); e != nil && fabricsLine(s.inc, in.Log) == nil {
		s.notes = append(s.notes, fmt.Sprintf("the kernel removed %s (line %d): /dev/%s and /sys/class/nvme/%s, which the tests name, exist again only once the drive is brought back (a reboot, or echo 1 | sudo tee /sys/bus/pci/rescan); until then lspci -nn -d ::0108 finds its function", s.ctrl, e.Line, s.ctrl, s.ctrl))
	}
	if s.inc != nil && behindVMD(s.dev) {
		s.notes = append(s.notes, "the drive at "+s.dev+" sits behind Intel VMD (a PCI domain of 10000 and up): its interrupts and its link's power management go through the vmd driver, and firmware set to AHCI instead of RAID or Intel RST takes that layer out (the drive then shows in domain 0000); a test worth a reboot when the failures stay")
	}
	if n := skipped(in.Log); n != "" && s.inc != nil {
		s.notes = append(s.notes, n+": the diagnosis rests on the other lines")
	}
	if s.inc != nil && s.inc.Omitted > 0 {
		s.notes = append(s.notes, fmt.Sprintf("the incident has %d more events than were kept (the first and last %d are)", s.inc.Omitted, kernlog.MaxIncidentEvents/2))
	}
	return s
}

// logNamesNVMe is namesNVMe of the input's log, asked once.
func (s *signals) logNamesNVMe() bool {
	if s.nvmeNamed == 0 {
		s.nvmeNamed = 1
		if namesNVMe(s.in.Log) {
			s.nvmeNamed = 2
		}
	}
	return s.nvmeNamed == 2
}

// namesNVMe reports whether l names an NVMe controller, disk or function
// anywhere: an event of the nvme driver's, a controller, a disk, a "pci
// function" line, the PCI core's enumeration of an NVMe function.
func namesNVMe(l *kernlog.Log) bool {
	if len(l.DeviceIDs) > 0 || len(l.Namespaces) > 0 || len(l.Addresses) > 0 {
		return true
	}
	for i := range l.Incidents {
		in := &l.Incidents[i]
		if in.Controller != "" {
			return true
		}
		for j := range in.Events {
			// A crash or hung task whose dump runs through the NVMe
			// driver's code (Stack) is of an NVMe controller, unnamed.
			if e := &in.Events[j]; strings.Contains(e.Driver, "nvme") || e.Disk != "" || e.Stack != "" {
				return true
			}
		}
	}
	return false
}

// skipped says which lines of l were not read at all (longer than
// kernlog.MaxLineLength, or holding NUL bytes); "" when none were.
func skipped(l *kernlog.Log) string {
	if l == nil || l.LongLines+l.BinaryLines == 0 {
		return ""
	}
	var parts []string
	if l.LongLines > 0 {
		parts = append(parts, fmt.Sprintf("%d longer than %d bytes", l.LongLines, kernlog.MaxLineLength))
	}
	if l.BinaryLines > 0 {
		parts = append(parts, fmt.Sprintf("%d holding NUL bytes", l.BinaryLines))
	}
	return fmt.Sprintf("%d line(s) of the log were skipped unread (%s)", l.LongLines+l.BinaryLines, strings.Join(parts, ", "))
}

// addressOf is the PCI address the log ties controller c to.
func addressOf(l *kernlog.Log, c string) string {
	if c == "" {
		return ""
	}
	best := ""
	for a, x := range l.Addresses {
		if x == c && (best == "" || a < best) {
			best = a
		}
	}
	return best
}

// severity orders incidents: the one that shows the drive stop answering
// is the failure to diagnose, not a later corrected error or I/O error of
// another device.
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

// driveReceiverErrors returns the first corrected Physical Layer report
// the drive's own function logged as the receiver ("nvme 0000:bf:00.0:
// PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver
// ID)"), in an incident of corrected errors alone; nil otherwise.
func (s *signals) driveReceiverErrors() *kernlog.Event {
	if !s.correctedOnly() || s.dev == "" {
		return nil
	}
	for i := range s.aerPhys {
		e := &s.aerPhys[i]
		if e.Kind == kernlog.AERError && e.PCI == s.dev && e.Driver == "nvme" && strings.Contains(e.Text, "(Receiver ID)") {
			return e
		}
	}
	return nil
}

// portReceiverErrors returns the first corrected Physical Layer report
// that the port above the drive logged as the receiver ("pcieport
// 0001:00:00.0: AER: PCIe Bus Error: severity=Corrected, type=Physical
// Layer, (Receiver ID)"): the signal from the drive's side arrived
// damaged. Only in an incident of corrected errors alone; nil otherwise.
func (s *signals) portReceiverErrors() *kernlog.Event {
	if !s.correctedOnly() {
		return nil
	}
	for i := range s.aerPhys {
		e := &s.aerPhys[i]
		if e.Kind == kernlog.AERError && e.Driver == "pcieport" && strings.Contains(e.Text, "(Receiver ID)") {
			return e
		}
	}
	return nil
}

// aerACSViolation is the ACS Violation bit of the Uncorrectable Error
// Status register (bit 21; PCI Express Base Specification, "Advanced
// Error Reporting Capability").
const aerACSViolation = 1 << 21

// mediaError reports an I/O error the drive's media caused: nvme's
// status line with a Media and Data Integrity status (SCT 2) of the media
// itself, Write Fault (0x80), Unrecovered Read Error (0x81) and the
// end-to-end guard, application and reference tag checks (0x82-0x84)
// ("nvme0n1: Read(0x2) @ LBA 0, 1 blocks, Unrecovered Read Error (sct 0x2
// / sc 0x81) DNR"), or the block layer's line for them ("critical medium
// error, dev nvme0n1, sector ..."). Compare Failure, Access Denied and a
// deallocated block (0x85-0x87) are answers about the data asked for, not
// faults of the media. Status codes: NVM Express Base Specification,
// "Media and Data Integrity Errors"; the lines: the kernel's error logging
// as blktests' nvme/039 expects it.
func mediaError(e *kernlog.Event) bool {
	if e.Kind != kernlog.IOError {
		return false
	}
	if e.HasSC {
		return e.SCT == 2 && e.SC >= 0x80 && e.SC <= 0x84 && !protectedWrite(e)
	}
	return strings.Contains(e.Text, "critical medium error")
}

// protectedWrite reports a write the drive refused because its data did
// not match the protection information the host sent with it (End-to-end
// Guard, Application or Reference Tag Check Error, sct 0x2 / sc
// 0x82-0x84, on opcode 0x01): the drive checked what it was given, before
// its media had any part; the data changed after the host protected it,
// or the host protected it wrongly. A read's check is of what the drive
// kept, a media matter.
func protectedWrite(e *kernlog.Event) bool {
	return e.Kind == kernlog.IOError && e.HasSC && e.SCT == 2 && e.SC >= 0x82 && e.SC <= 0x84 && e.Opcode == 0x01
}

// transferError reports whether the drive answered a command with Data
// Transfer Error (generic status 0x4, NVMe Base Specification, "Status
// Code - Generic Command Status Values"): an I/O error's "sct 0x0 / sc
// 0x4", or the status nvme-core prints of a Set Features APST, whose
// table the drive reads from host memory ("failed to set APST feature
// (4)"; the Do Not Retry and More bits aside).
func transferError(e *kernlog.Event) bool {
	switch e.Kind {
	case kernlog.APSTFailed:
		return e.Errno > 0 && e.Errno&0x7ff == 0x4
	case kernlog.IOError, kernlog.DriverError:
		return e.HasSC && e.SCT == 0 && e.SC == 0x4
	}
	return false
}

// refusedCommand reports an I/O error of a Write Zeroes or Dataset
// Management (discard) command whose status says the drive refused it as
// invalid: Invalid Command Opcode or Invalid Field in Command (generic
// status 0x1, 0x2), or the block layer's "operation not supported error"
// (BLK_STS_NOTSUPP, which nvme-core's nvme_error_status gives those
// statuses): the kernel sent a command, or a field of one, that this
// drive does not take, as the drives the kernel quirks with
// DISABLE_WRITE_ZEROES or DEALLOCATE_ZEROES do ("blk_update_request:
// operation not supported error, dev nvme1n1, sector 499384320 op
// 0x9:(WRITE_ZEROES)", an SK hynix SC300 quirk patch). A Read or
// Write refused is not: a namespace reformatted, locked (Opal) or
// changed under the kernel answers so too.
func refusedCommand(e *kernlog.Event) bool {
	if e.Kind != kernlog.IOError {
		return false
	}
	if e.HasSC {
		// nvme's own line: the NVMe opcode, Write Zeroes 0x8, Dataset
		// Management 0x9.
		return (e.Opcode == 0x8 || e.Opcode == 0x9) && e.SCT == 0 && (e.SC == 1 || e.SC == 2)
	}
	return (e.ReqOp == "WRITE_ZEROES" || e.ReqOp == "DISCARD") && strings.Contains(e.Text, "operation not supported error")
}

// probeOnly returns the line that says the drive never came up, when the
// incident is that and nothing more: a probe failure without a
// controller-down, a resume failure or a timeout of a running controller
// before it (which the rules read on their own). Not inlined
// (go:noinline), as addr: their copies took 1.4 KB of the page's wasm.
//
//go:noinline
func (s *signals) probeOnly() *kernlog.Event {
	if s.down != nil || s.resume != nil {
		return nil
	}
	for i := range s.timeouts {
		// nvme-pci's timeout handler disables the controller, rather than
		// aborting or resetting, only while the controller is being
		// brought up (CONNECTING) or deleted: such a timeout is the
		// bring-up failing, which the probe failure then reports.
		if s.timeouts[i].Action != "disable controller" {
			return nil
		}
	}
	return s.probeFailure()
}

// probeFailure is the line that says the probe failed and why: the
// driver's own, else the driver core's, else nvme's "Identify Controller
// failed" (the bring-up's first command unanswered, when the driver
// core's line is of a function the log ties to no controller) where no
// reset or AER recovery of a running controller surrounds it.
func (s *signals) probeFailure() *kernlog.Event {
	if s.reset != nil && s.reset.Kind == kernlog.ProbeFailure {
		return s.reset
	}
	if s.probeErr != nil || s.reset != nil || s.inc != nil && s.inc.Has(kernlog.AERRecovery) {
		// A reset's Identify (after a reset failure's or an AER
		// recovery's lines) is no bring-up of a new drive.
		return s.probeErr
	}
	return s.initErr
}

// hmbAlone reports whether the incident's only failure is the drive's
// host memory buffer (hmbFailed): no timeout, reset, drop-out or I/O
// error beside it.
func (s *signals) hmbAlone() bool {
	if s.inc == nil || s.hmb == nil {
		return false
	}
	return severityBut(s.inc, kernlog.HostMemoryBuffer) == 0 // an I/O error weighs 1
}

// hmbFailed reports whether a host memory buffer line says the drive got
// none: it could not be allocated or set, or the drive's minimum is above
// the host's limit ("min host memory (64 MiB) above limit (32 MiB).").
func hmbFailed(e *kernlog.Event) bool {
	return e.Kind == kernlog.HostMemoryBuffer && (strings.Contains(e.Text, "failed") || strings.Contains(e.Text, "above limit"))
}

func uncorrected(in *kernlog.Incident) bool {
	for _, e := range in.Events {
		if (e.Kind == kernlog.AERError || e.Kind == kernlog.AERReceived) && strings.HasPrefix(e.Severity, "Uncorrected") {
			return true
		}
	}
	return false
}

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

func (s *signals) sameDevice(in *kernlog.Incident) bool {
	return s.ctrl != "" && in.Controller == s.ctrl || s.dev != "" && in.PCI == s.dev
}

func (s *signals) event(e *kernlog.Event) {
	switch e.Kind {
	case kernlog.ControllerDown:
		if s.down == nil {
			s.down = e
		}
	case kernlog.ResumeFailure:
		if s.resume == nil {
			s.resume = e
			// The PCI core prints it when the reset of a controller that
			// already stopped answering finds config space gone too: its
			// "from D3cold" is the state it records for a device that
			// reads all ones (drivers/pci/pci.c, pci_power_up), not one
			// runtime PM chose.
			s.removedFirst = s.linkDown != nil || s.down != nil && s.down.Line < e.Line
		}
	case kernlog.LinkDown:
		switch {
		case e.Action == kernlog.ActionPowerFault:
			// The slot's power, not its link: power-loss's evidence.
			if s.powerFault == nil {
				s.powerFault = e
			}
		case s.linkDown == nil:
			s.linkDown = e
		}
	case kernlog.ProbeFailure, kernlog.ResetFailure, kernlog.ResetNotReady:
		if s.reset == nil {
			s.reset = e
		}
	case kernlog.APSTFailed:
		if s.apstFailed == nil {
			s.apstFailed = e
		}
		if s.transferErr == nil && transferError(e) {
			s.transferErr = e
		}
	case kernlog.AERRecovery:
		if s.aerRecovery == nil && (e.Action == "reset controller" || e.Action == "request disconnect" || e.Action == "containment" || e.Action == kernlog.ActionPlatformError) {
			s.aerRecovery = e
		}
		if s.zpciError == nil && e.Action == kernlog.ActionPlatformError {
			s.zpciError = e
		}
	case kernlog.PowerSavingHint:
		if s.hint == nil {
			s.hint = e
		}
	case kernlog.AERError, kernlog.AERReceived:
		switch {
		case e.Kind == kernlog.AERError && strings.HasPrefix(e.Severity, "Uncorrected") && e.AERStatus == aerACSViolation:
			// A request the port's Access Control Services forbade: a
			// setting's doing, not the link's signal.
			if s.acsViol == nil {
				s.acsViol = e
			}
		case strings.HasPrefix(e.Severity, "Uncorrected"):
			s.aerUncorr = append(s.aerUncorr, *e)
		case e.Layer == "Physical Layer":
			s.aerPhys = append(s.aerPhys, *e)
		case e.Kind == kernlog.AERError:
			s.aerOther = append(s.aerOther, *e)
		}
	case kernlog.HungTask:
		if s.hung == nil {
			s.hung = e
		}
	case kernlog.AbortStatus:
		if s.abortDone == nil && e.Status == 0 {
			s.abortDone = e
		}
	case kernlog.IOTimeout, kernlog.AdminTimeout:
		s.timeouts = append(s.timeouts, *e)
		if strings.Contains(e.Action, "polled") {
			s.polled = append(s.polled, *e)
		}
	case kernlog.IOError:
		s.ioErrors = append(s.ioErrors, *e)
		if e.HasSC && e.SCT == 3 && !hostAborted(e) {
			// Path-related status other than Host Aborted Command (which
			// the driver sets on the commands of a reset).
			s.transport = append(s.transport, *e)
		}
		if mediaError(e) {
			s.media = append(s.media, *e)
		}
		if s.refused == nil && refusedCommand(e) {
			s.refused = e
		}
		if s.piWrite == nil && protectedWrite(e) {
			s.piWrite = e
		}
		if s.denied == nil && e.HasSC && e.SCT == 2 && e.SC == 0x86 {
			s.denied = e
		}
		if s.transferErr == nil && transferError(e) {
			s.transferErr = e
		}
		if s.internal == nil && e.HasSC && e.SCT == 0 && e.SC == 6 {
			s.internal = e
		}
	case kernlog.PMError:
		if r := s.reset; r != nil && r.Errno == -19 && (r.Kind == kernlog.ResetFailure || r.Kind == kernlog.ProbeFailure) && e.Phase == "suspend" && r.Line < e.Line {
			// The driver had already given the controller up as gone
			// ("Disabling device after reset failure: -19"): a later
			// suspend that fails on it is the dead device's consequence,
			// no sleep's failure (notes on a drive pulled out while
			// running, posted zb-03).
			break
		}
		s.pmErrors = append(s.pmErrors, *e)
	case kernlog.DriverError:
		if s.transferErr == nil && transferError(e) {
			s.transferErr = e
		}
		if s.probeErr == nil && e.Action == "probe failed" {
			s.probeErr = e
		}
		if s.initErr == nil && strings.Contains(e.Text, "Identify Controller failed") {
			s.initErr = e
		}
		if s.persistErr == nil && e.Action == kernlog.ActionPersistentError {
			s.persistErr = e
		}
		if s.bogusCQE == nil && e.Action == kernlog.ActionBogusCompletion {
			s.bogusCQE = e
		}
		if s.nsDesc == nil && e.Status > 0 && strings.Contains(e.Text, "Identify Descriptors failed") {
			// The drive answered the namespace identification descriptor
			// list with an NVMe status: it does not implement it, as
			// drives that need the NO_NS_DESC_LIST quirk do.
			s.nsDesc = e
		}
		if s.degraded == nil && e.Status > 0 && strings.Contains(e.Text, "Could not set queue count (") {
			// nvme_set_queue_count (drivers/nvme/host/core.c) prints the
			// NVMe status a controller answered Set Features Number of
			// Queues with: "Degraded controllers might return an error
			// when setting the queue count", its comment says, and the
			// kernel then brings it up with its admin queue alone ("IO
			// queues not created") so that it can still be fixed up.
			s.degraded = e
		}
		if s.shutdown == nil && (strings.Contains(e.Text, "shutdown incomplete") || strings.Contains(e.Text, "aborting shutdown")) {
			s.shutdown = e
		}
		if s.liveRace == nil && strings.Contains(e.Text, "failed to mark controller live") {
			// nvme-pci's reset work (drivers/nvme/host/pci.c) could not
			// move the controller to LIVE: another state change (a
			// deletion, a reset) came first; 4.x went on to remove it
			// with status 0, later kernels with -19.
			s.liveRace = e
		}
		if s.fwAct == nil && strings.Contains(e.Text, "Fw activation timeout") {
			// nvme_fw_act_work (drivers/nvme/host/core.c): after a
			// Firmware Activation Starting notice the controller kept
			// CSTS.PP (processing paused) set past its Maximum Time for
			// Firmware Activation (MTFA, or the admin timeout when the
			// drive gives none), and the kernel reset it.
			s.fwAct = e
		}
		if s.newIDs == nil && strings.Contains(e.Text, "identifiers changed") {
			s.newIDs = e
		}
		if s.dupIDs == nil && (strings.Contains(e.Text, "Duplicate cntlid") || strings.Contains(e.Text, "Duplicate unshared namespace") || strings.Contains(e.Text, "duplicate subnqn") ||
			strings.Contains(e.Text, "globally duplicate IDs for nsid")) {
			s.dupIDs = e
		}
	}
}

// dupNamespace reports whether the identity the kernel rejected is a
// namespace's ("globally duplicate IDs for nsid 1", "Duplicate unshared
// namespace 1"): its NGUID or EUI-64, which the BOGUS_NID quirk makes the
// kernel ignore, rather than a controller's NQN or ID (IGNORE_DEV_SUBNQN).
func (s *signals) dupNamespace() bool {
	return s.dupIDs != nil && (strings.Contains(s.dupIDs.Text, "nsid") || strings.Contains(s.dupIDs.Text, "namespace"))
}

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

// goneAtReset returns the D3cold resume failure that the driver's own
// reset ran into, when no failure before it is in the log: the line is
// followed at once by the reset or probe giving up with -19 (ENODEV,
// nvme-pci's answer when the device reads all ones), with no
// controller-down between (one after the line would say the device was
// found in D3cold first) and no system sleep before it. The PCI core
// names a device D3cold whenever its config space reads all ones
// (drivers/pci/pci.c: pci_update_current_state and pci_power_up record
// PCI_D3cold on an all-ones PMCSR), so such a line says the device was
// already gone when the reset began: powered off, or off the bus with its
// link. The failure that started the reset is not in the log.
func (s *signals) goneAtReset() *kernlog.Event {
	r := s.resume
	if r == nil || r.FromState != "D3cold" || s.removedFirst || s.onResume != nil || s.reset == nil || s.down != nil {
		return nil
	}
	if s.reset.Errno != -19 || s.reset.Line < r.Line || !near(s.reset, r) {
		return nil
	}
	if s.reset.Kind != kernlog.ResetFailure && s.reset.Kind != kernlog.ProbeFailure {
		return nil
	}
	return r
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

// gone reports that the device dropped off the bus: PCI_STATUS all ones
// (or unreadable) when the controller went down, or, on a line without
// PCI_STATUS, CSTS all ones and the reset's unreadable power state after
// it.
//
//go:noinline
func (s *signals) gone() bool {
	switch {
	case s.down == nil:
		return false
	case s.down.Gone():
		return true
	}
	// A controller-down line without PCI_STATUS (the watchdog's "Failed
	// status: 0xffffffff, reset controller." before 4.12) reading CSTS all
	// ones, after which the reset found the device's power state
	// unreadable too ("Refused to change power state, currently in D3",
	// "Unable to change power state from D3cold to D0, device
	// inaccessible": what config space reading all ones gives): the same
	// device gone from the bus that PCI_STATUS=0xffff says.
	return !s.down.HasPCIStatus && !s.down.PCIStatusFailed && s.down.CSTS == 0xffffffff && s.resume != nil && s.removedFirst && s.down.Line < s.resume.Line
}

// pciErrorBits are the error bits of the PCI Status register (PCI Local
// Bus spec 6.2.3): detected parity error, signaled system error, received
// master abort, received target abort, signaled target abort, master data
// parity error.
const pciErrorBits = 0x8000 | 0x4000 | 0x2000 | 0x1000 | 0x0800 | 0x0100

// busErrors returns the error bits of the controller-down line's
// PCI_STATUS (0 when it has none or reads all ones): the device's own bus
// transactions failed, its DMA answered with an abort.
func (s *signals) busErrors() uint16 {
	if s.down == nil || !s.down.HasPCIStatus || s.down.PCIStatus == 0xffff {
		return 0
	}
	return s.down.PCIStatus & pciErrorBits
}

// correctedOnly reports an incident of corrected AER reports alone.
func (s *signals) correctedOnly() bool {
	return s.inc != nil && s.inc.Counts[kernlog.IOError] == 0 && severity(s.inc) <= 1 &&
		s.inc.Counts[kernlog.AERError]+s.inc.Counts[kernlog.AERReceived] > 0
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

// mmioDead reports a controller that stopped answering while its config
// space still answered (PCI_STATUS not all ones).
func (s *signals) mmioDead() bool {
	return s.down != nil && s.down.HasPCIStatus && s.down.PCIStatus != 0xffff && s.down.CSTS == 0xffffffff
}

// hungReady reports a reset that gave up because the controller kept
// CSTS.RDY set after CC.EN was cleared ("Device not ready; aborting reset,
// CSTS=0x1": nvme_wait_ready in drivers/nvme/host/core.c waits for RDY=0
// when it disables, for RDY=1 when it enables, "initialisation"), with no
// fatal status: a controller that answers reads but no longer acts.
// Kernels before the CSTS value was added to the line printed "Device not
// ready; aborting reset" alone; nvme_wait_ready returns -ENODEV without
// it when CSTS reads all ones, so that line too is a controller on the bus
// whose RDY stayed set (its fatal status unknown; the oldest drivers did
// not check for all ones, where it may also be a device gone).
func (s *signals) hungReady() bool {
	r := s.reset
	if r == nil || r.Kind != kernlog.ResetNotReady || !strings.Contains(r.Text, "aborting reset") {
		return false
	}
	return !r.HasCSTS || r.CSTS != 0xffffffff && r.CSTS&3 == 1
}

// resetENODEV returns the reset (or the Set Features APST after a resume,
// unless a reset that failed another way came first) that failed with
// -ENODEV when no controller-down line says why
// the driver reset: nvme-pci gives -19 when CSTS reads all ones as it
// enables the controller (drivers/nvme/host/pci.c, nvme_pci_enable), so
// the device had stopped answering, as with "controller is down;
// CSTS=0xffffffff"; nil otherwise.
//
// Not inlined: 1.5 KB of the page's wasm in copies.
//
//go:noinline
func (s *signals) resetENODEV() *kernlog.Event {
	if s.down != nil || s.resume != nil || s.raced() {
		return nil
	}
	switch {
	case s.reset != nil && s.reset.Kind == kernlog.ResetFailure && s.reset.Errno == -19:
		return s.reset
	case s.apstFailed != nil && s.apstFailed.Errno == -19 && (s.reset == nil || s.reset.Errno == -19) && s.removalOnly() == nil:
		// After a reset that failed its own way ("Device not ready;
		// aborting reset, CSTS=0x1", the controller answering) or a probe
		// that gave up for another reason (-12), the -19 is the driver
		// having let the controller go, nothing the device read; with no
		// reset at all, it is a removal's (removalOnly).
		return s.apstFailed
	}
	return nil
}

// removalOnly is APST's "failed to set APST feature (-19)" when no line of
// the controller's own failure comes with it: the update nvme-core made
// as it removed a controller (its latency tolerance hidden, the admin
// queue gone) until 53fe2a30bc16 (5.13) made it skip a controller that is
// not live. The
// driver was letting the controller go, for a driver unbound, a device
// removed through sysfs or by its slot, or a failure the paste left out:
// the line says a removal, not why, and no APST state. I/O errors of the
// drive's own disks with it make it a drop-out instead.
func (s *signals) removalOnly() *kernlog.Event {
	if s.apstFailed == nil || s.apstFailed.Errno != -19 || s.reset != nil || s.down != nil || s.resume != nil || s.linkDown != nil ||
		len(s.timeouts) > 0 || s.aerRecovery != nil || len(s.aerUncorr) > 0 || len(s.ioErrors) > 0 {
		// I/O that failed on the drive itself: a drop-out whose reset the
		// paste left out, not a removal on request.
		return nil
	}
	return s.apstFailed
}

// raced reports whether the driver's reset gave up on the controller's
// state ("ctrl state 1 is not RESETTING"): its -19 is the driver's own,
// nothing the device read.
func (s *signals) raced() bool {
	return s.reset != nil && s.reset.Action == kernlog.ActionNotResetting
}

// racedLive reports a reset that gave up because the controller was live
// (state 1 in every release that prints the line): another reset or a
// resume had brought it back first, a race of the driver's; a deleting or
// dead one's is its removal's consequence.
func (s *signals) racedLive() bool {
	return s.raced() && strings.Contains(s.reset.Text, "ctrl state 1 ")
}

// resumePMError returns the first of the PM core's reports that a
// device failed to resume, or nil.
func (s *signals) resumePMError() *kernlog.Event {
	for i := range s.pmErrors {
		if s.pmErrors[i].Phase == "resume" {
			return &s.pmErrors[i]
		}
	}
	return nil
}

// mediaOnly reports an incident whose failures are all I/O errors the
// drive's media caused: no controller that went down, no timeout, reset
// or resume failure.
func (s *signals) mediaOnly() bool {
	return len(s.media) > 0 && len(s.media) == len(s.ioErrors) && s.down == nil && len(s.timeouts) == 0 &&
		s.reset == nil && s.resume == nil && s.linkDown == nil && len(s.pmErrors) == 0
}

// cfs reports a controller-down whose CSTS has Controller Fatal Status
// set (and is not all ones).
func (s *signals) cfs() bool {
	return s.down != nil && s.down.CSTS != 0xffffffff && s.down.CSTS&2 != 0
}

// notReadyCFS reports whether the controller's reset or enable gave up
// with Controller Fatal Status set ("Device not ready; aborting
// initialisation, CSTS=0x2"): the controller answered, and said it failed.
func (s *signals) notReadyCFS() bool {
	r := s.reset
	return r != nil && r.Kind == kernlog.ResetNotReady && r.HasCSTS && r.CSTS != 0xffffffff && r.CSTS&2 != 0
}

// logLine is an event as evidence: the line quoted as it appears, and what
// it means.
func logLine(e *kernlog.Event, meaning string) Line {
	src := fmt.Sprintf("kernel log line %d", e.Line)
	if t := e.Time.String(); t != "" {
		src += " (" + t + ")"
	}
	q := e.Raw
	if q == "" {
		q = e.Text
	}
	return Line{Source: src, Text: meaning, Line: e.Line, Quote: q}
}

// path returns the functions from the device to the root port.
func (s *signals) path() []Function { return s.in.Facts.Path }

// devPath is the sysfs path of a PCI function for commands.
func devPath(addr string) string { return "/sys/bus/pci/devices/" + addr }

// addr is the controller's PCI address for commands, or a description of
// how to find it (never a placeholder that reads like an address).
//
//go:noinline
func (s *signals) addr() string {
	if s.dev != "" {
		return s.dev
	}
	return "$(basename $(readlink -f /sys/class/nvme/" + s.name() + "/device))"
}

// name is the controller's name for commands: the log's, else "nvme0"
// written so that it reads as a choice ("${NVME:-nvme0}") when the log
// names none.
func (s *signals) name() string {
	if s.ctrl != "" {
		return s.ctrl
	}
	return "${NVME:-nvme0}"
}

// who is the controller for sentences.
func (s *signals) who() string {
	switch {
	case s.ctrl != "":
		return s.ctrl
	case s.dev != "" && s.portOnly():
		return "the PCIe port at " + s.dev
	case s.dev != "":
		return "the drive at " + s.dev
	}
	return "the drive"
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

// Subject returns the controller Diagnose diagnoses in log l when the
// Input names none: that of the log's most severe failure (the most recent
// of equally severe ones), or of its corrected errors when it has no
// failure; "" when l names no controller. A caller that reads a machine's
// facts for that controller before diagnosing asks it, rather than running
// the diagnosis twice.
func Subject(l *kernlog.Log) string {
	if l == nil {
		return ""
	}
	s := &signals{in: &Input{Log: l}}
	s.pickIncident(l)
	return s.ctrl
}

// hostAborted reports a command the host aborted itself: NVMe status
// Host Aborted Command (sct 0x3 / sc 0x71), which the driver sets on the
// commands a reset or a removal cancels.
func hostAborted(e *kernlog.Event) bool { return e.HasSC && e.SCT == 3 && e.SC == 0x71 }

// adminDeclined reports an admin command the drive answered Invalid
// Command Opcode or Invalid Field in Command (generic status 0x1, 0x2):
// "nvme0: Admin Cmd(0x6), I/O Error (sct 0x0 / sc 0x2)", an Identify of a
// kind the drive does not implement, which the kernel and its tools ask
// for and go on without (sof-test's suspend CI, posted zb-01).
func adminDeclined(e *kernlog.Event) bool {
	return e.HasSC && e.SCT == 0 && (e.SC == 0x1 || e.SC == 0x2) && strings.Contains(e.Text, "Admin Cmd(")
}

// removedCtrl is the line with which the driver removed the controller
// the diagnosis is of: "Removing after probe failure status: -19" or
// "Disabling device after reset failure: -19" (nvme-pci's
// nvme_remove_dead_ctrl, which deletes the controller's character device
// and namespaces), when no line after it shows the controller up again.
func (s *signals) removedCtrl() *kernlog.Event {
	if s.inc == nil || s.ctrl == "" {
		return nil
	}
	var gone *kernlog.Event
	for i := range s.inc.Events {
		switch e := &s.inc.Events[i]; {
		case e.Kind == kernlog.ProbeFailure || e.Kind == kernlog.ResetFailure && e.Action != kernlog.ActionNotResetting:
			gone = e
		case gone != nil && e.Kind != kernlog.APSTFailed && e.Kind != kernlog.IOError && e.Kind != kernlog.DiskGone:
			gone = nil // the controller spoke again
		}
	}
	return gone
}
