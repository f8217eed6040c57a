package diagnose

import (
	"cmp"
	"fmt"
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
	// fatalDown is the first controller-down line of the fatal incidents
	// fatal counts: the diagnosed incident may have none of its own (a
	// probe that failed after them).
	fatalDown *kernlog.Event
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
		if s.ctrl == "" && s.dev != "" {
			// A function asked for that the log ties to a controller
			// ("nvme nvme0: pci function 0000:04:00.0"): that
			// controller's failures are the function's.
			s.ctrl = in.Log.Addresses[s.dev]
		}
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
	s.settleTried(in.Tried) // with the failure's command line (s.inc)
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
	if n := hostsNote(in.Log); n != "" && s.inc != nil {
		s.notes = append(s.notes, n)
	}
	if in.Log != nil && in.Log.NewestFirst && s.inc != nil {
		s.notes = append(s.notes, newestFirstNote)
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

// event takes one event of the incident diagnosed into the signals: the
// first of each kind of failure, and every event of the kinds counted.
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
			s.removedFirst = s.linkDown != nil || s.down != nil && s.down.Line <= e.Line // (on one line too: a log whose line ends were lost)
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
