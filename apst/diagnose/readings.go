package diagnose

import (
	"strings"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

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

// uncorrected reports whether an incident holds an uncorrected AER report
// (fatal or non-fatal) of any device.
func uncorrected(in *kernlog.Incident) bool {
	for _, e := range in.Events {
		if (e.Kind == kernlog.AERError || e.Kind == kernlog.AERReceived) && strings.HasPrefix(e.Severity, "Uncorrected") {
			return true
		}
	}
	return false
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
	return !s.down.HasPCIStatus && !s.down.PCIStatusFailed && s.down.CSTS == 0xffffffff && s.resume != nil && s.removedFirst && s.down.Line <= s.resume.Line
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

// unaskedReset returns the line with which nvme-pci's reset work gave up
// on a controller that did not answer the reset's bring-up (a command
// that timed out while the controller was being enabled, "disable
// controller", or "Identify Controller failed"), when nothing in the
// incident asked for that reset: no timeout of the running controller, no
// controller-down, no AER recovery, link or resume failure, no firmware
// activation, and no sleep line near it. Since 6.3 only the reset work
// prints "Disabling device after reset failure" (the probe brings a drive
// up itself, drivers/nvme/host/pci.c), so such a reset is one a resume
// from system sleep queued (the driver resets a drive the sleep shut
// down) or one a user asked for (nvme reset, sysfs reset_controller), and
// a log of nvme's lines alone leaves the resume's own lines out.
func (s *signals) unaskedReset() *kernlog.Event {
	r := s.reset
	if r == nil || r.Kind != kernlog.ResetFailure || r.Action != "" || s.down != nil || s.resume != nil || s.linkDown != nil ||
		s.aerRecovery != nil || s.fwAct != nil || s.onResume != nil || len(s.pmErrors) > 0 || s.inc.Has(kernlog.ResetNotReady) {
		return nil
	}
	bringUp := s.initErr != nil && s.initErr.Line < r.Line
	for i := range s.timeouts {
		if s.timeouts[i].Action != "disable controller" {
			return nil
		}
		bringUp = true
	}
	if !bringUp {
		return nil
	}
	return r
}

// barUnassigned reports whether the incident says the drive's registers
// got no address (kernlog.ActionBARUnassigned): the driver's enable then
// fails, and nvme-pci's probe returns -ENOMEM for it, which is then no
// lack of memory.
func (s *signals) barUnassigned() bool {
	if s.inc == nil {
		return false
	}
	for i := range s.inc.Events {
		if s.inc.Events[i].Action == kernlog.ActionBARUnassigned {
			return true
		}
	}
	return false
}
