package diagnose

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
	"github.com/nvmeapst/nvmeapst/apst/persist"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Input is what a diagnosis reads. Every part may be missing; the answer
// then says what it could not check. The zero Input has no failure to
// explain and gets "no failure seen".
type Input struct {
	// Controller is the controller to diagnose ("nvme0"); empty means the
	// one of the log's most severe failure (the most recent of equally
	// severe ones), else Facts.Controller.
	Controller string
	// Address is the PCI function to diagnose ("0000:46:00.0") where the
	// log names the drive by its address alone (a hw-probe dmesg whose
	// boot lines the ring buffer lost); empty means Controller's (or
	// Facts.Address). A log's incident of that function, not tied to a
	// controller, is diagnosed.
	Address string
	// Facts are what the machine says; the zero value knows nothing (a
	// pasted log alone).
	Facts Facts
	// Log is the kernel log read by kernlog.Read; nil when there is none.
	Log *kernlog.Log
	// Identify is the drive's Identify Controller data and Params the
	// kernel's inputs for it; without Identify the APST table is unknown.
	// The zero Params are the module defaults of the log's release (of
	// the current kernel when the release is unknown), said in a note.
	Identify *powerstate.Controller
	Params   apst.Params
	// Plan is the plan apst.Build made of Identify and Params, when the
	// caller has it already (a report's); nil builds it here. It is used
	// only with Identify and non-zero Params.
	Plan *apst.Plan
	// Release is the kernel release (zero when unknown: the log's or the
	// facts' release is used when they have one).
	Release apst.Release
	// Tried are the settings the user already ran with and whether they
	// helped (ParseTried); the log's own command line counts too. A
	// setting that did not help is evidence against its layer and is
	// never recommended again.
	Tried []Tried
	// Platform is how the machine boots, for where a lasting setting
	// goes; unknown means guessed from the release and command line.
	Platform persist.Platform
}

// Diagnosis is the answer.
//
// The zero Diagnosis explains nothing: no controller, no failure, no cause
// and an empty Summary; Cause returns nil for every layer.
type Diagnosis struct {
	// Controller is the controller diagnosed ("" when neither the log nor
	// the facts name one); Address its PCI function when known.
	Controller string
	Address    string
	// Failure reports that there is a failure to explain: without one the
	// Summary says "no failure seen" and Causes is empty. A link that
	// kept correcting errors is one, though the drive never dropped out
	// (the Summary then says "The log has no drop-out").
	Failure bool
	// Consequences quote, in a log without a failure, the lines of one
	// whose own lines the log lacks: a file system's I/O errors on the
	// drive's disk (kernlog.FileSystemError), nvme's hint after a
	// controller-down, an abort's status after a timeout. The Summary
	// says what is missing; nil otherwise.
	Consequences []Line
	// Summary says in one sentence what the evidence points at, and
	// whether APST is probably the cause.
	Summary string
	// APSTRuledOut reports that APST is unlikely, with the reason in
	// Summary and in the apst cause's Against.
	APSTRuledOut bool
	// Undecided holds the layers the evidence does not separate, the
	// first cause's first: two of different groups, their scores within
	// one point, and any further group's best that scores the same as
	// the second (so that none is left out by list order); nil when the
	// first cause stands alone. Separate is the one test that tells them
	// apart (the cheapest that moves one of them alone).
	Undecided []Layer
	Separate  *Test
	// OnResume reports that the failure came right after a system sleep
	// transition (the log's suspend or resume line), or while the system
	// resumed (a resume's own line soon after it, with no suspend
	// between), or that the PM core reported the drive's resume failed
	// ("PM: failed to resume async: error -16").
	OnResume bool
	// Replace reports the verdict that the drive is failing: replace it.
	Replace bool
	// Causes are the layers, most likely first.
	Causes []Cause
	// Known are the known regressions and quirks the log matches.
	Known []Known
	// Tried are the settings tried that the diagnosis weighed, the log's
	// command line included.
	Tried []Tried
	// Platform is the platform the lasting settings are written for.
	Platform persist.Platform
	// Incident is the failure diagnosed, nil when the log has none.
	Incident *kernlog.Incident
	// Unread are lines that look like NVMe or PCIe failure messages but
	// could not be read (from the log), so "no failure seen" is not
	// claimed while they exist.
	Unread []kernlog.UnreadLine
	// Relayed are other programs' lines that repeat the kernel's NVMe or
	// PCIe failure messages (Log.Relayed, each with its Program), given
	// only when the log has neither a failure nor an unread line: then
	// they are all the log holds of a failure, and the summary asks for
	// the kernel's own lines.
	Relayed []kernlog.UnreadLine
	// Notes say what was assumed or could not be checked.
	Notes []string
}

// Cause returns the verdict on layer l, nil when it is not ranked.
func (d *Diagnosis) Cause(l Layer) *Cause {
	for i := range d.Causes {
		if d.Causes[i].Layer == l {
			return &d.Causes[i]
		}
	}
	return nil
}

// rules are the layers' rules.
var rules = []func(*signals) builder{apstCause, aspmCause, linkCause, d3coldCause, runtimePMCause, suspendCause, platformCause, firmwareCause, powerLossCause, driveCause}

// Diagnose ranks the layers for the input's controller. Without a
// failure in the log it ranks nothing and says so.
func Diagnose(in Input) (d Diagnosis) {
	s := observe(&in)
	d = Diagnosis{Controller: s.ctrl, Address: s.dev, Incident: s.inc, Notes: s.notes, Known: s.known, Tried: s.tried, Platform: s.platform}
	if in.Log != nil {
		d.Unread = s.unreadOfOurs()
		if s.inc == nil && len(d.Unread) == 0 && len(in.Log.Relayed) > 0 {
			// Without the kernel's lines, other programs' copies of
			// them are what the log has of a failure.
			d.Relayed = slices.Clone(in.Log.Relayed) // the caller's to change
		}
	}
	defer func() {
		// The target's lines, unless the summary is about them (or a
		// diagnosis made again without the capture said so).
		if n := targetNote(s.target); len(s.target) > 0 && !strings.Contains(d.Summary, "(nvmet)") && !slices.Contains(d.Notes, n) {
			d.Notes = append(d.Notes, n)
		}
	}()
	if s.inc == nil {
		d.Summary = noFailure(s, &d)
		return d
	}
	if e := deletedFirst(s.inc); e != nil {
		// The controller was deleted, and its disk's I/O failed after:
		// the deletion's doing, no failure of the drive's.
		seen := map[string]bool{}
		for i := range s.inc.Events {
			if c := &s.inc.Events[i]; c.Kind == kernlog.IOError && len(d.Consequences) < 3 && !seen[c.Text] {
				seen[c.Text] = true
				d.Consequences = append(d.Consequences, logLine(c, "an I/O error on "+c.Disk+" after its controller was deleted"))
			}
		}
		d.Summary = fmt.Sprintf("no failure of the drive seen in the kernel log for %s; line %d: the controller was deleted (nvme disconnect, a test's teardown, or a fabrics transport that gave up), and the I/O errors after it are of the disk it took away (a file system still mounted on it: unmount it before you disconnect)", s.who(), e.Line)
		return d
	}
	if e := removedOnRequest(s.inc, s.in.Log); e != nil {
		d.Summary = fmt.Sprintf("no failure of the drive seen in the kernel log for %s; line %d: a command asked the PCI core to remove the device (%s), and what the log holds of %s after it is what a removal does (-19 from a device no longer there, its disk gone); rescan the bus to bring it back: echo 1 | sudo tee /sys/bus/pci/rescan", s.who(), e.Line, e.Text, s.who())
		return d
	}
	d.Failure = true
	d.OnResume = s.onResume != nil || s.resumePMError() != nil
	if n := len(s.sameElsewhere); n > 0 {
		names := make([]string, 0, n)
		for _, e := range s.sameElsewhere {
			names = append(names, fmt.Sprintf("%s, line %d", e.Controller, e.Line))
		}
		d.Notes = append(d.Notes, fmt.Sprintf("%d other controller(s) in this log failed the same way (%s): a cause they share (their model's firmware or power states, a PCIe switch, the power, the kernel) is likelier than a fault of each drive; replacing one drive does not address it", n, strings.Join(names, "; ")))
	}
	if e := fabricsLine(s.inc, s.in.Log); e != nil {
		d.Causes = []Cause{fabricsCause(e, Line{}, s.fabricsTests())}
		d.Summary = fmt.Sprintf("%s: an NVMe over Fabrics controller (line %d): its failures are the network's, the target's or the host's transport, which this diagnosis of a PCIe drive's power layers does not weigh.", s.who(), e.Line)
		return d
	}
	if ev, ok := fabricsIdentify(in.Identify); ok {
		// The capture says fabrics: so is the failure, unless the log
		// shows the controller on PCIe (a capture of another one).
		if where := s.pcieSign(); where != "" {
			// Diagnosed without it, and said so.
			note := fmt.Sprintf("the Identify data given is an NVMe over Fabrics controller's (IOCCSZ %d), but the log shows %s on PCIe (%s): the capture is of another controller, so the diagnosis was made without it", in.Identify.IOCCSZ, s.who(), where)
			in.Identify = nil
			d = Diagnose(in)
			d.Notes = append(d.Notes, note)
			return d
		}
		d.Causes = []Cause{fabricsCause(nil, ev, s.fabricsTests())}
		d.Summary = fmt.Sprintf("%s: an NVMe over Fabrics controller (its Identify data: IOCCSZ %d): its failures are the network's, the target's or the host's transport, which this diagnosis of a PCIe drive's power layers does not weigh.", s.who(), in.Identify.IOCCSZ)
		return d
	}
	sure := map[Layer]bool{}
	for _, rule := range rules {
		b := rule(s)
		c := b.done()
		sure[c.Layer] = b.sure
		d.Causes = append(d.Causes, c)
	}
	for i := range d.Causes {
		c := &d.Causes[i]
		c.Tests = s.dropFailedWrites(c.Tests)
		c.Likelihood = grade(c.Score, sure[c.Layer])
		for _, p := range []*[]Line{&c.Evidence, &c.Against} {
			if *p == nil {
				*p = []Line{}
			}
		}
		if c.Tests == nil {
			c.Tests = []Test{}
		}
	}
	order := Layers()
	// sort.SliceStable, not slices.SortStableFunc: the one reflective sort
	// every element type shares (the page's wasm pays some 9 KB for each
	// generic instantiation).
	sort.SliceStable(d.Causes, func(i, j int) bool {
		a, b := &d.Causes[i], &d.Causes[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if sure[a.Layer] != sure[b.Layer] {
			return sure[a.Layer] // a likely cause before a possible one of its score
		}
		return slices.Index(order, a.Layer) < slices.Index(order, b.Layer)
	})
	if d.Causes[0].Score <= 0 {
		d.Causes = append([]Cause{unknownCause(s)}, d.Causes...)
	}
	decide(s, &d, sure)
	calibrate(&d)
	if s.unnamed {
		// Whose failure it is was assumed, not read: a sign that
		// separates the layers does not say the device is a drive.
		for i := range d.Causes {
			if d.Causes[i].Likelihood == Likely {
				d.Causes[i].Likelihood = Possible
			}
		}
	}
	if c := d.Cause(LayerDrive); c != nil && c.Likelihood == Likely && len(d.Undecided) == 0 && d.Causes[0].Layer == LayerDrive && !s.correctedOnly() {
		// (Corrected errors alone are no failing drive, even where they
		// follow it: summarize says what then.)
		d.Replace = true
	}
	d.Summary, d.APSTRuledOut = summarize(s, &d)
	return d
}

// ownFailure reports whether an incident is a failure of the port or
// host itself, whatever device is behind it: a PCIe host controller that
// never brought its link up or failed to probe, a hot-plug slot's power
// fault. Its layer holds without knowing the device.
func ownFailure(in *kernlog.Incident) bool {
	if hostIncident(in) {
		return true
	}
	for i := range in.Events {
		if in.Events[i].Action == kernlog.ActionPowerFault {
			return true
		}
	}
	return false
}

// noFailure is the summary of a log (or machine) without a failure.
func noFailure(s *signals, d *Diagnosis) string {
	who := ""
	if s.ctrl != "" {
		who = " for " + s.ctrl
	}
	switch {
	case s.in.Log == nil:
		return "no failure seen: no kernel log was read" + who + ", so there is nothing to diagnose (give the log of the boot that failed: journalctl -k -b -1 --no-pager > kern.log; apstctl diagnose --log kern.log)"
	case len(d.Relayed) > 0:
		return fmt.Sprintf("no failure read%s, but %d line(s) of other programs (%s) repeat the kernel's NVMe or PCIe failure messages (listed below): the kernel's own lines are not in the log; give them (journalctl -k -b -1 --no-pager, or dmesg)", who, s.in.Log.RelayedLines, programs(d.Relayed))
	case len(d.Unread) > 0:
		msg := fmt.Sprintf("no failure read%s, but %d line(s) look like NVMe or PCIe messages and could not be read (listed below): paste the log as the system wrote it (journalctl -k -b -1 --no-pager, or dmesg), without rewrapping", who, s.in.Log.UnreadLines-int64(len(s.in.Log.Unread)-len(d.Unread)))
		// What was read of a failure's traces is said beside them.
		if e := s.in.Log.DriverFrame; e != nil {
			d.Consequences = []Line{logLine(e, "a frame of the NVMe driver's code in a stack dump")}
			msg += fmt.Sprintf("; line %d is a frame of the NVMe driver's code in a stack dump whose first lines are not in the log", e.Line)
		} else if e := s.in.Log.BlockedTask; e != nil {
			d.Consequences = []Line{logLine(e, "a task the hung-task detector found blocked, on I/O the log does not tie to a device")}
			msg += fmt.Sprintf("; line %d: a task stayed blocked past the hung-task limit, on I/O the log does not tie to a device", e.Line)
		}
		return msg
	case len(s.target) > 0 && s.ctrl == "" && s.dev == "":
		return fmt.Sprintf("no failure of an NVMe drive of this machine seen in the kernel log: line %d is the NVMe over Fabrics target's (nvmet), which this machine serves; its failures are of the hosts' connections to it (a keep-alive that expired, a host's controller it ended): read the host's kernel log beside it (nvme list-subsys there)", s.target[0].Line)
	}
	if n := skipped(s.in.Log); n != "" {
		return "no failure seen in the lines read" + who + ", but " + n + ": paste the log with its line breaks, as the system wrote it (journalctl -k -b -1 --no-pager, or dmesg)"
	}
	if e := s.orphan(kernlog.AbortStatus); e != nil {
		d.Consequences = []Line{logLine(e, "the drive's answer to an abort, which the kernel sends only for a command that timed out")}
		return fmt.Sprintf("no failure line seen in the kernel log%s, but line %d is the drive's answer to an abort, which the kernel sends only for a command that timed out: the \"timeout, aborting\" line before it, and the lines around it, are not in the log; give the whole log of that boot (journalctl -k -b -1 --no-pager, or dmesg)", who, e.Line)
	}
	if e := s.orphan(kernlog.PowerSavingHint, kernlog.WorkaroundHint); e != nil {
		d.Consequences = []Line{logLine(e, "the kernel prints this only after it read the controller's status as all ones (CSTS=0xffffffff)")}
		return fmt.Sprintf("no failure line seen in the kernel log%s, but line %d is the hint the kernel prints only after it found the controller down with CSTS=0xffffffff (the drive stopped answering on the bus): the \"controller is down; will reset\" line before it, and the lines around it, are not in the log; give the whole log of that boot (journalctl -k -b -1 --no-pager, or dmesg)", who, e.Line)
	}
	if fs := s.fileSystemErrors(); len(fs) > 0 {
		for _, e := range fs {
			d.Consequences = append(d.Consequences, logLine(e, fmt.Sprintf("%s met an I/O error on %s", e.Driver, e.Disk)))
		}
		n := int64(len(fs))
		if s.ctrl == "" {
			n = s.in.Log.FileSystemErrorLines // those beyond the ones kept too
		}
		return fmt.Sprintf("no failure seen in the kernel log%s, but line %d: %s met an I/O error on %s (%d such line(s)): the drive's, the PCI core's and the block layer's lines that say why are not in the log; give the whole log of that boot, not lines picked from it (journalctl -k -b -1 --no-pager, or dmesg)", who, fs[0].Line, fs[0].Driver, fs[0].Disk, n)
	}
	if e := s.in.Log.FileSystemReport; e != nil && s.in.Log.DriverFrame == nil {
		d.Consequences = []Line{logLine(e, e.Driver+" reports trouble of its own on "+e.Disk)}
		return fmt.Sprintf("no failure of the drive seen in the kernel log%s; line %d: %s reports trouble of its own on %s (a corruption it found, a journal it could not replay), and no I/O error: the drive answered what it was asked; a file system's corruption comes from a crash or power loss while it wrote, from bad memory, or, rarely, from a drive whose firmware returned wrong data without an error: check the file system (fsck, a btrfs scrub), the memory (memtest86+) and the drive's own logs (nvme smart-log, nvme error-log)", who, e.Line, e.Driver, e.Disk)
	}
	if e := s.in.Log.DriverFrame; e != nil {
		d.Consequences = []Line{logLine(e, "a frame of the NVMe driver's code in a stack dump")}
		return fmt.Sprintf("no failure line seen in the kernel log%s, but line %d is a frame of the NVMe driver's code in a stack dump whose first lines, which say what failed (a crash, a warning, a hung task), are not in the log; give the whole log of that boot (journalctl -k -b -1 --no-pager, or dmesg), from the dump's first line on", who, e.Line)
	}
	if s.ctrl == "" && s.dev == "" {
		if s.unplug != nil {
			return unplugSummary(d, s.unplug, s.unplugPorts)
		}
		if e := tunnelFailed(s.in.Log); e != nil {
			d.Consequences = []Line{logLine(e, "the Thunderbolt/USB4 host could not activate the PCIe tunnel to a device it found")}
			return fmt.Sprintf("no failure of an NVMe drive seen in the kernel log; line %d: the Thunderbolt/USB4 host (thunderbolt %s) could not activate the PCIe tunnel to a device it found, so nothing behind that device, a drive in a USB4 or Thunderbolt enclosure among them, reached the PCIe bus: the tunnel failed, not the drive's power management; test another cable (a certified 40 Gb/s one) and port, the host's and the enclosure's firmware (fwupdmgr), and a newer kernel's thunderbolt driver, and report it to linux-usb with the log of a boot with thunderbolt.dyndbg=+p", e.Line, e.Reporter)
		}
		if others := s.othersFailed(); len(others) > 0 {
			msg := "no failure of an NVMe drive seen in the kernel log: the failures it holds are of other devices (" + strings.Join(others, ", ") + ")"
			if ports := s.portsOfOthers(); len(ports) > 0 {
				msg += " and of PCIe ports that failed with them (" + strings.Join(ports, ", ") + ")"
			}
			if disks := otherDiskNames(s.in.Log); len(disks) > 0 {
				msg += ", and of disks on other transports than NVMe (" + strings.Join(disks, ", ") + ")"
			}
			return msg
		}
		if e := s.unnamedFailure(); e != nil {
			return fmt.Sprintf("no failure of a named device seen in the kernel log: line %d reports a failure without the device's name before it; paste the lines as the system wrote them (journalctl -k -b -1 --no-pager, or dmesg), with their device names", e.Line)
		}
		if msg := otherDisksSummary(d, s.in.Log); msg != "" {
			return msg
		}
	}
	if e := hostNeverUp(s.in.Log); e != nil && s.ctrl == "" && s.dev == "" {
		return fmt.Sprintf("no failure seen in the kernel log of the NVMe drive it shows at work; line %d: a PCIe host controller's link never came up or its driver failed to probe: an empty slot, or, if a drive is missing, the one behind it (reseat it, check its power and the slot's device-tree node)", e.Line)
	}
	if e := resetOnly(s.in.Log); e != nil && e.Action == kernlog.ActionDeleted {
		return fmt.Sprintf("no failure seen in the kernel log%s; line %d: the controller was deleted (nvme disconnect, a test's teardown, or a fabrics transport that gave up), and nothing in the log says it failed", who, e.Line)
	} else if e != nil {
		return fmt.Sprintf("no failure seen in the kernel log%s; line %d: the controller was reset, and the commands it held were aborted by the host, as a reset does: nothing in the log says why it reset or that the drive failed (a reset asked for by a user or a tool, nvme reset, reads so)", who, e.Line)
	}
	if e := refusedAPST(s.in.Log); e != nil && e.Errno > 0 {
		return fmt.Sprintf("no failure seen in the kernel log%s; line %d: the drive refused the kernel's APST table (NVMe status 0x%x), a refusal the kernel logs and goes on from: the table was not in force, only what the drive's firmware enables by itself", who, e.Line, e.Errno)
	} else if e != nil {
		return fmt.Sprintf("no failure seen in the kernel log%s; line %d: the kernel could not program APST, and the line gives no result (a drive that refused the table, which the kernel goes on from, or one that did not answer, which more lines would show): the table was not in force; paste the line whole", who, e.Line)
	}
	if e := declinedAdmin(s.in.Log); e != nil {
		return fmt.Sprintf("no failure seen in the kernel log%s; line %d: the drive declined an admin command it does not implement (status 0x%x, %s), which the kernel and its tools ask for and go on without", who, e.Line, e.SC, declinedName(e.SC))
	}
	if e := s.in.Log.BlockedTask; e != nil && otherControllerFailed(s) == "" {
		d.Consequences = []Line{logLine(e, "a task the hung-task detector found blocked, on I/O the log does not tie to a device")}
		return fmt.Sprintf("no failure of an NVMe drive seen in the kernel log%s; line %d: a task stayed blocked past the hung-task limit, and the log does not say on which device: if it waited on the drive, the drive's own lines (a timeout, a reset) are in the lines before it; give the whole log of that boot (journalctl -k -b -1 --no-pager, or dmesg)", who, e.Line)
	}
	if l := s.in.Log; s.ctrl == "" && s.dev == "" && len(l.Controllers) == 0 && len(l.DeviceIDs) == 0 && len(l.Addresses) == 0 && len(l.Incidents) == 0 {
		// A console's last lines before a hang, another boot's log:
		// nothing of a drive to find a failure in.
		return fmt.Sprintf("no failure seen in the kernel log, which names no NVMe drive in its %d line(s): if a drive failed, its lines are in the log of the boot it failed in (journalctl -k -b -1 --no-pager, or dmesg), from its first line on", l.Lines)
	}
	if e := kernelBugElsewhere(s.in.Log); e != nil && otherControllerFailed(s) == "" {
		d.Consequences = []Line{logLine(e, "a kernel warning or crash whose dump, as far as the log holds it, does not run through the nvme driver's code")}
		return fmt.Sprintf("no failure of an NVMe drive seen in the kernel log%s; line %d: the kernel warned or crashed, and the dump, as far as the log holds it, does not run through the nvme driver's code (give the whole dump, to its end, if the drive is in question)", who, e.Line)
	}
	if e, n := drivesIOMMUFaults(s); e != nil && otherControllerFailed(s) == "" {
		d.Consequences = []Line{logLine(e, "the IOMMU refused a DMA of the drive to an address not mapped for it")}
		return fmt.Sprintf("no failure of the drive seen in the kernel log%s (no timeout, reset or drop-out); line %d: the IOMMU refused %d DMA(s) of the drive (%s) to addresses not mapped for it: a mapping fault of the kernel, the IOMMU or the drive's firmware; if the machine froze or data was damaged with them, boot once with the IOMMU out of the drive's DMA (iommu=soft, or iommu=pt) and give the whole log of that boot to linux-nvme@lists.infradead.org and iommu@lists.linux.dev", who, e.Line, n, e.PCI)
	}
	return "no failure seen in the kernel log" + who + otherControllerFailed(s)
}

// followsDrive reports whether l is a swap tried that convicts the drive
// (swapsTried): it failed in another slot too, or another drive works in
// its slot.
func followsDrive(l Line) bool {
	return l.Source == "settings tried" && (l.Text == followsToSlot || l.Text == otherDriveWorks)
}

// drivesIOMMUFaults is the first fault of an NVMe drive's DMA that the
// IOMMU reported ("nvme 0000:01:00.0: AMD-Vi: Event logged
// [IO_PAGE_FAULT ...]", "DMAR: [DMA Read NO_PASID] Request device
// [02:00.0] ...") and how many the log's incidents hold: of the drive
// diagnosed (mine), and of an NVMe function (the nvme driver's, a
// controller's, or one the PCI core listed as NVMe), never another
// device's.
func drivesIOMMUFaults(s *signals) (*kernlog.Event, int) {
	var first *kernlog.Event
	n := 0
	for i := range s.in.Log.Incidents {
		in := &s.in.Log.Incidents[i]
		if !s.mine(in) {
			continue
		}
		for j := range in.Events {
			if e := &in.Events[j]; e.Kind == kernlog.PlatformFault && e.Action == "iommu-fault" && e.PCI != "" && nvmeFunction(s.in.Log, in, e) {
				if first == nil {
					first = e
				}
				n++
			}
		}
	}
	return first, n
}

// nvmeFunction reports whether event e of incident in is of an NVMe
// function: the nvme driver named it, the log tied it to a controller, or
// the PCI core listed the function with the NVMe class.
func nvmeFunction(l *kernlog.Log, in *kernlog.Incident, e *kernlog.Event) bool {
	if _, ok := l.DeviceIDs[e.PCI]; ok || in.Controller != "" || e.Controller != "" {
		return true
	}
	for i := range in.Events {
		if in.Events[i].Driver == "nvme" {
			return true
		}
	}
	return false
}

// kernelBugElsewhere is the first kernel warning or crash of l whose dump
// was not placed in the NVMe driver's code (kernlog's Stack empty), or
// nil.
func kernelBugElsewhere(l *kernlog.Log) *kernlog.Event {
	return firstEvent(l, func(e *kernlog.Event) bool {
		return e.Kind == kernlog.PlatformFault && e.Action == kernlog.ActionKernelBug && e.Stack == ""
	})
}

// firstEvent is the first event of l's incidents, in their order, that
// match reports, or nil.
func firstEvent(l *kernlog.Log, match func(*kernlog.Event) bool) *kernlog.Event {
	for i := range l.Incidents {
		for j := range l.Incidents[i].Events {
			if e := &l.Incidents[i].Events[j]; match(e) {
				return e
			}
		}
	}
	return nil
}

// otherControllerFailed points at the first failure of another NVMe
// controller than the one asked about (", but line 5 is a failure of
// nvme1: ..."); "" when none was asked about or no other failed.
func otherControllerFailed(s *signals) string {
	if s.ctrl == "" && s.dev == "" || s.in.Log == nil {
		return ""
	}
	for i := range s.in.Log.Incidents {
		in := &s.in.Log.Incidents[i]
		if in.Controller != "" && in.Controller != s.ctrl && len(in.Events) > 0 && severity(in) > 0 {
			return ", but line " + strconv.Itoa(in.Events[0].Line) + " is a failure of " + in.Controller + ": name that controller to diagnose it"
		}
	}
	for i := range s.in.Log.Incidents {
		// A function the log ties to no controller (its boot lines lost,
		// or a port's): the name asked for may be it, or not.
		in := &s.in.Log.Incidents[i]
		if in.Controller == "" && in.PCI != "" && in.PCI != s.dev && len(in.Events) > 0 && severity(in) > 0 && !s.otherDevice(in) && !s.portOfOther(in) {
			return ", but line " + strconv.Itoa(in.Events[0].Line) + " is a failure of the device at " + in.PCI + ", which the log ties to no controller: give its PCI address instead of a name to diagnose it"
		}
	}
	return ""
}

// programs names the programs of us, each once, in order.
func programs(us []kernlog.UnreadLine) string {
	var ps []string
	for _, u := range us {
		if !slices.Contains(ps, u.Program) {
			ps = append(ps, u.Program)
		}
	}
	return strings.Join(ps, ", ")
}

// orphan is the first event of one of kinds in an incident of the
// controller diagnosed (of any, when none is named), or nil. In a log
// without a failure such an event is the consequence of a failure whose
// own line is missing: nvme's hints follow only a controller-down with
// CSTS all ones ("Does your device have a faulty power saving mode
// enabled?", `Try "nvme_core.default_ps_max_latency_us=0 ..."`), an
// abort's status only a command that timed out ("Abort status: 0x0").
func (s *signals) orphan(kinds ...kernlog.Kind) *kernlog.Event {
	for i := range s.in.Log.Incidents {
		in := &s.in.Log.Incidents[i]
		if !s.mine(in) {
			continue
		}
		for j := range in.Events {
			if e := &in.Events[j]; slices.Contains(kinds, e.Kind) {
				return e
			}
		}
	}
	return nil
}

// fileSystemErrors are the log's file system reports of I/O errors on an
// NVMe disk (those kernlog kept) of the controller diagnosed, of any when
// none is named.
func (s *signals) fileSystemErrors() []*kernlog.Event {
	var fs []*kernlog.Event
	for i := range s.in.Log.FileSystemErrors {
		if e := &s.in.Log.FileSystemErrors[i]; s.ctrl == "" || e.Controller == s.ctrl {
			fs = append(fs, e)
		}
	}
	return fs
}

// resetOnly is the first reset line of l when every other event of its
// incidents is a command the host aborted (the Async Event requests a
// reset cancels), or nil.
func resetOnly(l *kernlog.Log) *kernlog.Event {
	var reset *kernlog.Event
	for i := range l.Incidents {
		for j := range l.Incidents[i].Events {
			switch e := &l.Incidents[i].Events[j]; {
			case e.Kind == kernlog.Reset:
				if reset == nil {
					reset = e
				}
			case e.Kind == kernlog.DriverError && hostAborted(e):
			default:
				return nil
			}
		}
	}
	return reset
}

// deletedFirst is the deletion of in's controller (nvme-core's "Removing
// ctrl: NQN ...") when it is the incident's first line and what follows
// is only what a deletion does to the disk's I/O (I/O errors, the disk
// gone, the commands the host aborted), or nil. A deletion after a
// failure (a fabrics transport that gave up reconnecting) is none.
func deletedFirst(in *kernlog.Incident) *kernlog.Event {
	if in == nil || len(in.Events) < 2 || in.Events[0].Kind != kernlog.Reset || in.Events[0].Action != kernlog.ActionDeleted {
		return nil
	}
	for i := range in.Events[1:] {
		switch e := &in.Events[i+1]; {
		case e.Kind == kernlog.IOError, e.Kind == kernlog.DiskGone, e.Kind == kernlog.Reset:
		case e.Kind == kernlog.DriverError && hostAborted(e):
		default:
			return nil
		}
	}
	return &in.Events[0]
}

// removedOnRequest is the command that asked the PCI core to remove a
// device (kernlog.Log.RemoveRequest) when in comes after it and holds
// only what a removal does to a drive: the driver's -19 (ENODEV) from a
// device no longer there (a reset, a probe, Set Features APST), its disk
// gone, I/O errors and the commands the host aborted, the port's link
// down; nil otherwise.
func removedOnRequest(in *kernlog.Incident, l *kernlog.Log) *kernlog.Event {
	r := l.RemoveRequest
	if r == nil || in == nil || len(in.Events) == 0 || in.Events[0].Line < r.Line {
		return nil
	}
	for i := range in.Events {
		switch e := &in.Events[i]; e.Kind {
		case kernlog.APSTFailed, kernlog.ResetFailure, kernlog.ProbeFailure:
			if e.Errno != -19 {
				return nil
			}
		case kernlog.DiskGone, kernlog.IOError, kernlog.Reset, kernlog.LinkDown:
		case kernlog.DriverError:
			if !hostAborted(e) {
				return nil
			}
		default:
			return nil
		}
	}
	return r
}

// refusedAPST is the first line of l where the kernel could not program
// APST and the drive answered ("failed to set APST feature (2)", an NVMe
// status), or the line gives no result ("failed to set APST feature"), or
// nil.
func refusedAPST(l *kernlog.Log) *kernlog.Event {
	return firstEvent(l, func(e *kernlog.Event) bool { return e.Kind == kernlog.APSTFailed && e.Errno >= 0 })
}

// declinedAdmin is the first admin command of l the drive declined
// (adminDeclined), or nil.
func declinedAdmin(l *kernlog.Log) *kernlog.Event {
	return firstEvent(l, func(e *kernlog.Event) bool { return e.Kind == kernlog.DriverError && adminDeclined(e) })
}

// declinedName names the generic statuses of adminDeclined.
func declinedName(sc int) string {
	if sc == 1 {
		return "Invalid Command Opcode"
	}
	return "Invalid Field in Command"
}

// abortedByHost is what an I/O error of status Host Aborted Command (sct
// 0x3 / sc 0x71) means when the log has no line of the reset or removal
// that gave it.
const abortedByHost = "the host aborted this command (sct 0x3 / sc 0x71, Host Aborted Command): the driver gives that status to the commands a controller reset or the drive's removal takes back, and the log has no line of either, which would say why"

// removedNotWhy is what APST's update failing with -19 alone says
// (removalOnly).
//
// nvme-core updated APST as it hid a removed controller's latency
// tolerance, on an admin queue already gone, until 53fe2a30bc16 ("nvme: do
// not try to reconfigure APST when the controller is not live", 5.13,
// taken to 5.4.120 among the stable updates, whose mail says so).
const removedNotWhy = "the kernel could not update the drive's APST (-19, ENODEV) because the driver was already letting the controller go: until 5.13 (5.4.120 and the like) nvme-core made that update as it removed a controller (its driver unbound, the device removed through sysfs or by its slot, or after a failure the paste left out); the line says the drive was removed, not why, and nothing of an APST state"

// failureEvent is the first event of in that is a failure by itself (one
// severity counts above zero), or nil.
func failureEvent(in *kernlog.Incident) *kernlog.Event {
	if in == nil {
		return nil
	}
	for i := range in.Events {
		e := &in.Events[i]
		if severity(&kernlog.Incident{Controller: in.Controller, Counts: map[kernlog.Kind]int{e.Kind: 1}, Events: in.Events[i : i+1]}) > 0 {
			return e
		}
	}
	return nil
}

func unknownCause(s *signals) Cause {
	c := Cause{Layer: LayerUnknown, Likelihood: Possible, Score: 1, Against: []Line{}, Tests: []Test{}}
	c.Evidence = []Line{{Source: "kernel log", Text: "the failure is there, but nothing in the log or the facts points at one layer"}}
	if e := failureEvent(s.inc); e != nil {
		// The line that made it a failure, quoted as every evidence is.
		c.Evidence[0] = logLine(e, c.Evidence[0].Text)
		if hostAborted(e) && severity(s.inc) <= 1 && !s.inc.Has(kernlog.DiskGone) {
			// nvme_cancel_request's status: the commands a reset or a
			// removal takes back; neither is in the log.
			c.Evidence[0].Text = abortedByHost
		}
		if e == s.removalOnly() {
			c.Evidence[0].Text = removedNotWhy
		}
	}
	if e := s.shutdown; e != nil {
		// nvme-core's shutdown (nvme_disable_ctrl with shutdown set, at
		// power-off, reboot, unbind and a suspend that powers the drive
		// down) waits for CSTS.SHST to say complete: shutdown_timeout
		// seconds, or the drive's RTD3 entry latency when longer, at most
		// 60 (nvme_init_ctrl_finish); then it logs this line and goes on.
		c.Evidence = append(c.Evidence, logLine(e, "the drive did not finish its shutdown in the time the kernel waits for it (nvme_core.shutdown_timeout, 5 s by default, or the drive's RTD3 entry latency when that is longer, at most 60 s), and the kernel went on without it: a drive slower to shut down than the wait, or one that stopped answering"))
		b := builder{Cause: c}
		b.argTest(s, "let the kernel wait longer for the drive's shutdown: a shutdown that then completes is a drive slower than the wait; one that still does not is a drive that stopped answering (then update its firmware or replace it)", "nvme_core.shutdown_timeout=30", "a power-off, reboot or suspend waits up to 30 s (or the drive's RTD3 entry latency, at most 60 s) for a drive that does not answer")
		c = b.Cause
	}
	if e := s.denied; e != nil {
		// Media and Data Integrity status 0x86, Access Denied: what a
		// TCG Opal drive answers while its locking range is locked, and
		// nvme-core's nvme_error_status makes a "critical medium error".
		c.Evidence = append(c.Evidence, logLine(e, "the drive refused access to its data (Access Denied): a self-encrypting drive (TCG Opal) whose locking range is locked answers so, as does a namespace the drive restricts; no failure of power management or of the link does"))
		c.Tests = append(c.Tests, lockedTest(s))
	}
	c.Tests = append(c.Tests,
		Test{Action: "after the next failure, before rebooting, collect the machine's state", Command: "sudo apstctl collect DIR; journalctl -k -b --no-pager > DIR/kern.log", Cost: "free"},
		Test{Action: "give the log of the whole boot that failed, not only the nvme lines (the lines before the failure say what led to it)", Command: "journalctl -k -b -1 --no-pager > kern.log", Cost: "free"})
	return c
}

// lockedTest asks the drive whether its locking range is locked.
func lockedTest(s *signals) Test {
	disk := "/dev/nvme0n1"
	if s.denied != nil && s.denied.Disk != "" {
		disk = "/dev/" + s.denied.Disk
	}
	return Test{Action: "ask the drive whether it is locked (a Locking section with Locked = Y is a self-encrypting drive waiting for its password)", Command: "sudo sedutil-cli --query " + disk, Cost: "free"}
}

// undecidedText names the undecided layers with where their evidence is:
// "apst and aspm (line 3 fits both)", "apst (line 3) and platform (line
// 1)", "apst, aspm and platform (line 3 fits all three)".
func undecidedText(d *Diagnosis) string {
	ws := make([]string, len(d.Undecided))
	same := true
	for i, l := range d.Undecided {
		ws[i] = where(d.Cause(l))
		same = same && ws[i] == ws[0]
	}
	names := make([]string, len(d.Undecided))
	for i, l := range d.Undecided {
		names[i] = string(l)
		if !same {
			names[i] += " (" + ws[i] + ")"
		}
	}
	text := strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	switch {
	case same && len(names) == 2:
		text += " (" + ws[0] + " fits both)"
	case same:
		text += fmt.Sprintf(" (%s fits all %s)", ws[0], [...]string{3: "three", 4: "four", 5: "five", 6: "six"}[min(len(names), 6)])
	}
	return text
}

// summarize says what the causes amount to.
func summarize(s *signals, d *Diagnosis) (string, bool) {
	top := d.Causes[0]
	var b strings.Builder
	who := s.who()
	switch {
	case len(d.Undecided) > 1:
		fmt.Fprintf(&b, "%s: undecided between %s", who, undecidedText(d))
		if d.Separate != nil {
			fmt.Fprintf(&b, ". To tell them apart: %s", d.Separate.Action)
		}
		b.WriteString(".")
	case top.Layer == LayerUnknown && s.denied != nil:
		fmt.Fprintf(&b, "%s: the drive refused access to its data (line %d: Access Denied), as a locked self-encrypting drive (TCG Opal) does: nothing in the log points at power management or the link.", who, s.denied.Line)
	case top.Layer == LayerUnknown && s.shutdown != nil:
		fmt.Fprintf(&b, "%s: the drive did not finish its shutdown in the time the kernel waits (line %d), and nothing in the log points at one layer.", who, s.shutdown.Line)
	case top.Layer == LayerUnknown && top.Evidence[0].Text == abortedByHost:
		fmt.Fprintf(&b, "%s: the host aborted the drive's commands (line %d: Host Aborted Command), as a controller reset or the drive's removal does, and the log has no line of either: give the whole log of that boot (journalctl -k -b -1 --no-pager, or dmesg).", who, top.Evidence[0].Line)
	case top.Layer == LayerUnknown && top.Evidence[0].Text == removedNotWhy:
		fmt.Fprintf(&b, "%s: the driver let the controller go (line %d: its APST update failed with -19 as the controller was removed): the log does not say why; give the whole log of that boot (journalctl -k -b -1 --no-pager, or dmesg), and say whether the driver was unbound or the drive removed on purpose.", who, top.Evidence[0].Line)
	case top.Layer == LayerUnknown && top.Evidence[0].Line > 0:
		fmt.Fprintf(&b, "%s: the failure is there (line %d), but nothing in the log or the facts points at one layer.", who, top.Evidence[0].Line)
	case top.Layer == LayerUnknown:
		fmt.Fprintf(&b, "%s: %s.", who, top.Evidence[0].Text)
	default:
		fmt.Fprintf(&b, "%s: %s %s (%s).", who, map[Likelihood]string{Likely: "most likely", Possible: "possibly", Unlikely: "at most"}[top.Likelihood], top.Layer, reason(&top))
	}
	if s.correctedOnly() {
		if s.ctrl == "" && s.dev != "" && s.portOnly() {
			b.WriteString(" The log has no drop-out: only corrected errors of the port's link, which the link recovered from.")
		} else {
			b.WriteString(" The log has no drop-out: only corrected errors of the drive's link, which the link recovered from.")
		}
		if o := s.othersFailed(); len(o) > 0 {
			fmt.Fprintf(&b, " Its failures are of other devices (%s).", strings.Join(o, ", "))
		}
		if d.Causes[0].Layer == LayerDrive && len(d.Undecided) == 0 && slices.ContainsFunc(d.Causes[0].Evidence, followsDrive) {
			b.WriteString(" The errors follow the drive: its end of the link is marginal; replace it if they grow or it drops out.")
		}
	}
	if s.onResume != nil && !strings.Contains(b.String(), "this happened ") {
		b.WriteString(" It happened " + strings.Replace(s.sleepPhase(), "on resume", "on resume from system sleep", 1) + ".")
	}
	if d.Replace {
		b.WriteString(" The drive is failing: replace it.")
	}
	a := d.Cause(LayerAPST)
	ruledOut := a.Score <= 0 && len(a.Against) > 0
	switch {
	case ruledOut:
		fmt.Fprintf(&b, " APST is probably not the cause: %s.", a.Against[0].Text)
	case a.Likelihood == Likely && len(a.Tests) > 0 && top.Layer == LayerAPST:
		fmt.Fprintf(&b, " First %s.", a.Tests[0].Action)
	}
	return b.String(), ruledOut
}

// where is the strongest evidence of c in a few words: "line 6" for a log
// line, its source otherwise.
func where(c *Cause) string {
	if len(c.Evidence) == 0 {
		return "nothing"
	}
	e := c.Evidence[0]
	if e.Line > 0 {
		return fmt.Sprintf("line %d", e.Line)
	}
	return e.Source
}

// reason is a cause's strongest evidence in a few words: its first
// clause, and the line it quotes.
func reason(c *Cause) string {
	if len(c.Evidence) == 0 {
		return "no evidence"
	}
	e := c.Evidence[0]
	t := e.Text
	for _, sep := range []string{": ", " (", "; ", ", as "} {
		if i := strings.Index(t, sep); i > 20 {
			t = t[:i]
		}
	}
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, t)
	}
	return t
}
