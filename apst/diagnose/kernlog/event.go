package kernlog

import (
	"fmt"
	"time"
)

// Kind names an event of the kernel log.
type Kind string

// The events Read recognises (kernel-apst.md §15).
const (
	// ControllerDown: "controller is down; will reset: CSTS=0x..,
	// PCI_STATUS=0x.." (CSTS and PCIStatus set; PCIStatusFailed when the
	// kernel could not read PCI_STATUS).
	ControllerDown Kind = "controller-down"
	// PowerSavingHint: "Does your device have a faulty power saving mode
	// enabled?", printed after a controller-down with CSTS all ones.
	PowerSavingHint Kind = "power-saving-hint"
	// WorkaroundHint: `Try "nvme_core.default_ps_max_latency_us=0
	// pcie_aspm=off ..." and report a bug`; Text holds the suggestion.
	WorkaroundHint Kind = "workaround-hint"
	// IOTimeout: an I/O command timed out (QID > 0). Tag, QID, Action and,
	// in the 6.x shape, CommandID, Opcode, OpName, ReqOp and Size. A line
	// whose ids a paste elided ("I/O tag ... timeout, completion polled")
	// is one too, with Tag and QID 0: its words say I/O.
	IOTimeout Kind = "io-timeout"
	// AdminTimeout: an admin command (QID 0) timed out.
	AdminTimeout Kind = "admin-timeout"
	// AbortStatus: "Abort status: 0x.." (Status).
	AbortStatus Kind = "abort-status"
	// ProbeFailure: "Removing after probe failure status: -19" (Errno).
	ProbeFailure Kind = "probe-failure"
	// ResetNotReady: "Device not ready; aborting reset, CSTS=0x1" (CSTS);
	// also "aborting initialisation".
	ResetNotReady Kind = "reset-not-ready"
	// ResetFailure: "Disabling device after reset failure: -19" (Errno);
	// also a reset that gave up on the controller's state
	// (ActionNotResetting) or a function that did not come back from a
	// reset ("not ready 65535ms after FLR; giving up", Action "not ready
	// after FLR").
	ResetFailure Kind = "reset-failure"
	// APSTFailed: "failed to set APST feature (-19)" (Errno; a positive
	// value is an NVMe status, zero a line that gives none, as a paste cut
	// short does).
	APSTFailed Kind = "apst-failed"
	// ResumeFailure: the PCI core could not bring the device back to D0,
	// "Unable to change power state from D3cold to D0, device
	// inaccessible", or the older PCI core's "can't change power state
	// from D3cold to D0 (config space inaccessible)" (FromState). The
	// resume is the device's own, from a low power state: a probe, a
	// reset, a runtime or a system resume each ask for it, and the PCI
	// core prints it too for a device already removed (the incident's
	// other lines and Log's sleep lines tell which).
	ResumeFailure Kind = "resume-failure"
	// AERReceived: a port's "AER: Corrected error received: 0000:04:00.0"
	// (Severity; PCI is the device named, Reporter the port), or its note
	// after one that no device had the error logged ("AER: found no error
	// details for 0000:04:00.0", Action "no details", no Severity).
	AERReceived Kind = "aer-received"
	// AERError: a device's "PCIe Bus Error: severity=Corrected,
	// type=Physical Layer, (Receiver ID)" (Severity, Layer), or an error
	// the firmware handled first and passed on through APEI,
	// "aer_layer=Physical Layer, aer_agent=Receiver ID" (Layer; no
	// Severity: the APEI record before it says it), whose uncorrectable
	// kind adds "aer_uncor_severity: ..." (Severity "Uncorrected", no
	// Layer).
	AERError Kind = "aer-error"
	// LinkDown: pciehp's "Slot(N): Link Down" or "Card not present" on the
	// port above the device (its "Cannot train link", "No link" and "No
	// device found" after a slot was powered, Action "link not active";
	// its "Power fault", Action "power fault"), a port whose link did not
	// train after a reset or resume ("Data Link Layer Link Active not set
	// in 1000 msec", Action "link not active"), or a host controller whose link never
	// trained at all ("brcm-pcie 1000110000.pcie: link down", DesignWare's
	// "Phy link never came up" or, since its rework, "Device not found"
	// and "Link failed to come up. LTSSM: ...", a host driver's probe that
	// gave up with -110; Action "host link down", no device: the drive was
	// never seen).
	LinkDown Kind = "link-down"
	// IOError: a block-layer "I/O error, dev nvme0n1, sector ..." (Op; the
	// older "blk_update_request: I/O error, ..." too), a buffer cache
	// "Buffer I/O error on dev nvme0n1p2, logical block ..." or nvme's
	// "nvme0n1: I/O Cmd(0x2) @ LBA ..., I/O Error (sct 0x3 / sc 0x71)"
	// (Opcode, SCT, SC).
	IOError Kind = "io-error"
	// FileSystemError: a file system's (or md's, or a device mapper's)
	// report of an I/O error on an NVMe disk or partition (Disk), "XFS
	// (nvme0n1p1): metadata I/O error in ... error 5", "BTRFS error (device
	// nvme0n1p2): bdev /dev/nvme0n1p2 errs: wr 1, rd 0, ...": the
	// consequence of a failure, not part of any incident
	// (Log.FileSystemErrors).
	FileSystemError Kind = "fs-error"
	// Reset: "resetting controller" and similar lines of a reset in
	// progress; with ActionDeleted, the controller's deletion.
	Reset Kind = "reset"
	// PCIFunction: "nvme nvme0: pci function 0000:04:00.0", which ties a
	// controller to its PCI address (not part of any incident).
	PCIFunction Kind = "pci-function"
	// PCIDevice: the PCI core's enumeration line of an NVMe function,
	// "pci 0000:04:00.0: [144d:a80c] type 00 class 0x010802" (PCI; Text
	// holds the vendor:device ID), which names the drive's PCI ID (not
	// part of any incident).
	PCIDevice Kind = "pci-device"
	// FabricsConnect: nvme-core's line of a controller connected over a
	// fabric, "nvme nvme0: new ctrl: NQN \"nqn...\", addr
	// 192.168.1.10:4420" (nvme-tcp, nvme-rdma; nvme-fc's behind its
	// "NVME-FC{0}: ") or nvme-loop's "new ctrl: \"blktests-subsystem-1\"":
	// the controller is reached over a fabric, not PCIe (Controller; not
	// part of any incident: Log.Fabrics).
	FabricsConnect Kind = "fabrics-connect"
	// Boot: "Linux version ..." (Text holds the release): a new boot.
	Boot Kind = "boot"
	// CommandLine: "Kernel command line: ..." (Text).
	CommandLine Kind = "command-line"
	// Machine: the machine the kernel runs on, as its firmware names it:
	// "DMI: <vendor> <product>, BIOS <version> <date>" at boot (the
	// dmi_setup line of arch/x86 and arm64) or "Hardware name: ..." in a
	// crash dump's header (Text holds the name). Not part of any incident.
	Machine Kind = "machine"
	// Hypervisor: the hypervisor an x86 kernel found itself running under:
	// "Hypervisor detected: KVM" (arch/x86/kernel/cpu/hypervisor.c) or
	// "Booting paravirtualized kernel on KVM" (arch/x86/kernel/paravirt.c;
	// "on bare hardware" is no event). Text holds the name. Not part of
	// any incident.
	Hypervisor Kind = "hypervisor"
	// SuspendEntry: the system going to sleep: "PM: suspend entry (deep)"
	// or "(s2idle)", "PM: Preparing system for sleep", "ACPI: PM:
	// Preparing to enter system sleep state S3", "PM: hibernation entry",
	// "PM: suspend-to-idle", the freezer's "OOM killer disabled.", 4.x's
	// "PM: Syncing filesystems ... done." and "PM: Entering mem sleep",
	// and the lines an excerpt keeps beside them: "Filesystems sync:
	// 0.030 seconds", "Freezing user space processes", "printk:
	// Suspending console(s)", "ACPI: EC: interrupt blocked", "Disabling
	// non-boot CPUs ...", "ACPI: PM: Saving platform NVS memory", "PM:
	// suspend devices took 0.512 seconds" and the PM core's phases of the
	// devices' suspend ("PM: late suspend of devices complete after 1.234
	// msecs"; noirq, early or none; suspend, freeze, quiesce or
	// hibernate) (Mode:
	// "deep", "s2idle", "S3", "mem", "hibernation" when the line says;
	// Text keeps the line).
	SuspendEntry Kind = "suspend-entry"
	// SuspendExit: the system back from sleep: "PM: suspend exit", "ACPI:
	// PM: Waking up from system sleep state S3", "PM: resume devices took
	// ...", the devices' resume or restore phases ("PM: noirq resume of
	// devices complete after 2.345 msecs"), "PM: hibernation exit", "ACPI:
	// PM: Low-level resume complete" (older kernels' "ACPI: Low-level
	// resume complete"), "PM: Timekeeping suspended for 12.178 seconds", 4.x's
	// "PM: Finishing wakeup.", and the freezer's "OOM killer enabled." and
	// "Restarting tasks ... done." ("Restarting tasks: Done" since 6.16),
	// "Enabling non-boot CPUs ...", "ACPI: PM: Restoring platform NVS
	// memory", "random: crng reseeded on system resumption" and "ACPI:
	// EC: interrupt unblocked" after an "interrupt blocked" (every boot
	// prints it too) (Mode as for SuspendEntry).
	SuspendExit Kind = "suspend-exit"
	// PMError: a device or the system failed to suspend or resume: "PM:
	// failed to resume async: error -16", "PM: Device 0000:01:00.0 failed
	// to resume async: error -16", "PM: dpm_run_callback():
	// pci_pm_resume+0x0/0xe0 returns -16", "PM: pci_pm_suspend():
	// nvme_suspend+0x0/0x150 returns -16", "PM: Some devices failed to
	// suspend, or early wake event detected", the PCI core's "Unable to
	// change power state from D0 to D3hot, device inaccessible" (Phase
	// "resume" or "suspend", Errno when given, PCI when the line names the
	// function, FromState "D0" for the PCI core's).
	PMError Kind = "pm-error"
	// ASPMPlatform: what the PCI core did with ASPM: "ASPM: DT platform,
	// enabling L0s-up L0s-dw L1 ASPM-L1.1 ..." (6.18 on), "can't disable
	// ASPM; OS doesn't have ASPM control", "ASPM: current common clock
	// configuration is inconsistent, reconfiguring", "PCIe ASPM is
	// disabled" (Text is the line's body, after the device prefix; PCI
	// when the line names a function).
	ASPMPlatform Kind = "aspm-info"
	// HostLinkUp: a PCIe host controller trained its link, at the speed
	// and width the line gives: "brcm-pcie 1000110000.pcie: link up, 8.0
	// GT/s PCIe x1 (!SSC)" (pcie-brcmstb.c, the Raspberry Pi 4's and 5's
	// controller; Text is the line's body, Driver and Device the
	// controller's).
	HostLinkUp Kind = "host-link-up"
	// LostInterrupt: an interrupt nobody handled: "irq 16: nobody cared
	// (try booting with the "irqpoll" option)", "Disabling IRQ #16" (IRQ);
	// or the NVMe driver's interrupt that arrived with no flow handler set
	// up for it, whose descriptor handle_bad_irq prints
	// ("->action->handler(): 00000000e15d8191, nvme_irq+0x0/0x3e8", Action
	// ActionBadIRQ, Driver "nvme").
	// Timeouts that end in "completion polled" (an interrupt that did not
	// arrive) stay IOTimeout or AdminTimeout with that Action.
	LostInterrupt Kind = "lost-interrupt"
	// HostMemoryBuffer: the NVMe host memory buffer: "allocated 64 MiB host
	// memory buffer", "failed to allocate host memory buffer", "failed to
	// set host mem (err 8578, flags 0x1)" (Size in bytes when given, Status
	// the NVMe status of a failed set).
	HostMemoryBuffer Kind = "hmb"
	// AERRecovery: the PCIe error recovery of a device: "nvme nvme0: frozen
	// state error detected, reset controller", "AER: device recovery
	// failed", "AER: can't recover (no error_detected callback)", "AER:
	// device recovery successful", its steps ("AER: Root Port link has
	// been reset (0)", nvme's "restart after slot reset") (Action says
	// which: "reset controller", "request disconnect", "failed",
	// "successful", "no callback", "link reset", "slot reset"; s390's
	// zPCI lines, ActionPlatformError and its own steps). A port's line
	// has Reporter set, a device's PCI.
	AERRecovery Kind = "aer-recovery"
	// DriverError: any other nvme-core or nvme-pci line that names a
	// controller, namespace or function and holds a failure word ("Device
	// shutdown incomplete; abort shutdown", "Identify Controller failed",
	// "Device not ready; aborting shutdown", an admin command's NVMe
	// status, a timeout line of a shape not read above, native
	// multipath's "block nvme0n1: no usable path - requeuing I/O" and "no
	// available path - failing I/O"), so that no such line is silently
	// dropped. Text is the line as logged; SCT and SC are
	// set when the line gives an NVMe status. The driver core's report of
	// a failed probe ("nvme: probe of 0000:01:00.0 failed with error -12",
	// "probe with driver nvme failed with error -12") is one too, with
	// Action "probe failed" and its Errno. So are a few lines of the PCI
	// core's and of other drivers' that say a function failed (a BAR that
	// read back all ones, ActionPendingTransactions, a USB host that died,
	// ActionHostDied): its PCI address says whose it is, and the kind's
	// name says a driver's, not NVMe's ("nvme-error" until 7 December
	// 2026, which an xHCI host's death was listed as).
	DriverError Kind = "driver-error"

	// HungTask: the hung-task detector's report of a task named after an
	// NVMe disk, waiting on its I/O: "INFO: task jbd2/nvme0n1p3-:375
	// blocked for more than 122 seconds." (kernel/hung_task.c; Disk,
	// Text the message); or of any task whose stack, as the log holds
	// it, runs through the NVMe driver's code ("INFO: task
	// kworker/151:1H:2442 blocked ..." then "nvme_dev_disable+0x9c/0x250"):
	// the driver itself hung (Stack and StackLine that frame, Disk empty).
	HungTask Kind = "hung-task"

	// DiskGone: the block layer's report that an NVMe disk's capacity
	// fell to zero ("nvme0n1: detected capacity change from 1000215216 to
	// 0", block/genhd.c's set_capacity_and_notify): nvme-core empties the
	// namespaces of a controller it gave up on or that was removed, so the
	// disk has vanished (Disk the disk).
	DiskGone Kind = "disk-gone"

	// PlatformFault: the platform or the kernel failing around the drive,
	// Action saying how: "iommu-fault" (the IOMMU blocked a device's DMA:
	// "DMAR: [DMA Read NO_PASID] Request device [02:00.0] fault addr ...",
	// "AMD-Vi: Event logged [IO_PAGE_FAULT device=01:00.0 ...]", PCI the
	// device's address, segment 0000 when the line gives none);
	// "kernel-bug" (a kernel warning or crash: "WARNING: CPU: 3 PID: 1 at
	// drivers/nvme/host/pci.c:...", since 6.19 "WARNING:
	// drivers/nvme/host/pci.c:... at FUNC, CPU#3: COMM/PID", "BUG: kernel NULL pointer
	// dereference", "kernel BUG at ..."); "config-access" (a host bridge
	// that cannot write config space in less than 32 bits: "2-byte config
	// write to 0000:01:00.0 offset 0x7a may corrupt adjacent RW1C bits");
	// "dma-bounce" (the DMA bounce buffers of a function ran out: "nvme
	// 0000:01:00.0: swiotlb buffer is full (sz: 524288 bytes) ...");
	// ActionHostProbeFailed (a PCIe host controller's driver that failed
	// to probe, drivers/base/dd.c's report).
	// Shapes from drivers/iommu/intel/dmar.c, drivers/iommu/amd/iommu.c,
	// kernel/panic.c, lib/bug.c, kernel/watchdog.c, kernel/dma/swiotlb.c and
	// drivers/pci/access.c.
	PlatformFault Kind = "platform-fault"
)

// Actions the reader sets on events whose meaning callers match on: of a
// DriverError (besides the driver core's "probe failed"), and of a
// LinkDown.
const (
	// ActionPersistentError: "resetting controller due to persistent
	// internal error" (worded "resetting controller due to AER" at
	// first), the drive reported a Persistent Internal Error; older
	// kernels printed the event's result alone ("async event result
	// 00010300").
	ActionPersistentError = "persistent internal error"
	// ActionBogusCompletion: a completion with a command identifier the
	// host never issued ("request 0x3f genctr mismatch (got 0x1 expected
	// 0x2)", "invalid id 63 completed on queue 2", "could not locate
	// request for tag 0x3f").
	ActionBogusCompletion = "bogus completion"
	// ActionHostLinkDown: a LinkDown of a PCIe host controller whose link
	// never trained ("brcm-pcie 1000110000.pcie: link down"); the event
	// names no device.
	ActionHostLinkDown = "host link down"
	// ActionTunnelFailed: a LinkDown of a Thunderbolt/USB4 host that
	// could not activate the PCIe tunnel to a device it found
	// ("thunderbolt 0000:00:0d.2: 1:3: PCIe tunnel activation failed,
	// aborting"); Reporter is the host's function, and the event names no
	// drive: none behind the device reached the PCIe bus.
	ActionTunnelFailed = "tunnel activation failed"
	// ActionFirmwareRecord: an AERError read from the firmware's CPER
	// record of an uncorrected PCIe error ("{1}[Hardware Error]:
	// device_id: 0000:5e:00.0" after its "event severity: recoverable"),
	// Severity the record's, Layer unknown.
	ActionFirmwareRecord = "firmware record"
	// ActionBadIRQ: a LostInterrupt of the NVMe driver's interrupt that
	// reached handle_bad_irq.
	ActionBadIRQ = "bad irq"
	// ActionKernelBug: a PlatformFault of a kernel warning or crash;
	// Stack says whether its dump ran through the NVMe driver's code.
	ActionKernelBug = "kernel-bug"
	// ActionIRQMap: a PlatformFault, the device tree maps no legacy
	// interrupt for a function ("of_irq_parse_pci: failed with rc=-22").
	ActionIRQMap = "irq-map"
	// ActionPendingTransactions: a DriverError of the PCI core, a
	// function level reset found transactions the function never
	// completed ("timed out waiting for pending transaction; performing
	// function level reset anyway").
	ActionPendingTransactions = "pending transactions"
	// ActionLinkNotActive: a LinkDown of a port whose link did not train
	// after a reset or resume ("Data Link Layer Link Active not set in
	// 1000 msec").
	ActionLinkNotActive = "link not active"
	// ActionPowerFault: a LinkDown of a hot-plug slot whose power
	// controller reported a fault (pciehp's "Slot(1): Power fault"): the
	// slot's supply to the drive failed.
	ActionPowerFault = "power fault"
	// ActionHostProbeFailed: a PlatformFault of a PCIe host controller
	// whose driver failed to probe for a reason other than its link
	// ("qcom-pcie 1c08000.pcie: probe with driver qcom-pcie failed with
	// error -22": a device tree, clock, reset or regulator it could not
	// get); Errno holds the error, and the event names no device: no drive
	// behind the controller can be seen. A probe that gave up waiting for
	// the link (-110) is a LinkDown with ActionHostLinkDown.
	ActionHostProbeFailed = "host probe failed"
	// ActionDeleted: a Reset that is the deletion of a controller on
	// request, nvme-core's "Removing ctrl: NQN \"...\"" (core.c's
	// nvme_do_delete_ctrl): "nvme disconnect", a test's teardown, or a
	// fabrics transport that gave up reconnecting ("Removing
	// controller..." before it).
	ActionDeleted = "deleted"
	// ActionNotResetting: a ResetFailure (Errno -19) of nvme-pci's reset
	// work that found the controller in another state than resetting
	// ("ctrl state 1 is not RESETTING", state 1 being live): a reset that
	// raced a resume, another reset or a removal, not a device that
	// stopped answering; the text keeps the state's number, whose name
	// depends on the release.
	ActionNotResetting = "not resetting"
	// ActionHostDied: a DriverError of a USB host controller that stopped
	// answering ("xhci_hcd 0000:c3:00.3: HC died; cleaning up"): another
	// device's failure, never a drive's.
	ActionHostDied = "host died"
	// ActionPlatformError: an AERRecovery of a function the machine's
	// firmware reported an error for, s390's zPCI error event ("zpci:
	// 000e:00:00.0: Event 0x3a reports an error for PCI function
	// 0x1004"): the platform's report of a PCIe error, the recovery
	// that follows being the kernel's.
	ActionPlatformError = "platform error"
	// ActionBARUnassigned: a PlatformFault of an NVMe function whose
	// memory BAR (its registers) the PCI core could give no address: the
	// PCI core's "BAR 0: failed to assign [mem size 0x00004000 64bit]"
	// of a function the log shows as NVMe (its class line, 0x0108, or the
	// nvme driver's "pci function" line), when no later line of the boot
	// assigns that BAR after all or enables the device, or the nvme
	// driver's "BAR 0 [mem size 0x00004000 64bit]: not assigned; can't
	// enable device" ("can't enable device: BAR 0 ... not assigned"
	// before 6.8; "not claimed" too). No driver can reach such a drive.
	ActionBARUnassigned = "bar unassigned"
)

// Timestamp is the time a line carries: the seconds since boot of dmesg and
// short-monotonic, a wall-clock time of dmesg -T, journalctl or syslog, both
// (syslog lines that keep the dmesg time), or neither.
//
// The zero Timestamp is no time stamp (the line had none): IsZero reports
// true, String returns "" and Sub compares it with nothing.
type Timestamp struct {
	// Mono is the time since boot; HasMono says whether the line had one.
	Mono    time.Duration
	HasMono bool
	// Wall is the wall-clock time; HasWall says whether the line had one,
	// NoYear that the line did not say which year (journalctl short and
	// syslog): Wall is then in year 0.
	Wall    time.Time
	HasWall bool
	NoYear  bool
	// NoDate says that the line gave only the time of day ("07:45:58
	// kernel: ...", or a month name Read does not know): Wall is then
	// that time on January 1 of year 0 and NoYear is set too.
	NoDate bool
	// NoZone says that the line gave a date and a time of day but not
	// their offset from UTC (dmesg -T, an ISO time without one, a zone
	// given by its name): Wall is then that reading of the clock, in UTC.
	NoZone bool
	// NoSecond says that the line gave the time to the minute (dmesg -H's
	// "[Sep12 13:16]", and the "[  +0.000009]" lines after it, which add
	// the time since the line before): Wall counts from that minute's
	// start, as the log does not say at which second of it the first line
	// came.
	NoSecond bool
}

// IsZero reports whether the line had no time stamp.
func (t Timestamp) IsZero() bool { return !t.HasMono && !t.HasWall }

// String is the time as the log showed it. It is "12.345678s after boot",
// "2026-12-01 10:00:00.123456 +0100" (without the year, the date or the
// offset from UTC when the log had none, and without a fraction of a
// second when the time has none), dmesg -H's minute and the time since it
// ("Sep 12 13:16 +0.000009s"), or "".
func (t Timestamp) String() string {
	w, clock, since := t.Wall, "15:04:05", ""
	if t.NoSecond {
		// The minute as its line gave it, without a ":00" it did not
		// give, and the time since.
		d := time.Duration(w.Second())*time.Second + time.Duration(w.Nanosecond())
		w, clock = w.Add(-d), "15:04"
		if d != 0 {
			since = " +" + seconds(d)
		}
	} else if w.Nanosecond() != 0 {
		clock += ".000000"
	}
	switch {
	case t.HasWall && t.NoDate:
		return w.Format(clock) + since
	case t.HasWall && t.NoYear:
		return w.Format("Jan _2 "+clock) + since
	case t.HasWall && t.NoZone:
		return w.Format("2006-01-02 "+clock) + since
	case t.HasWall:
		return w.Format("2006-01-02 "+clock+" -0700") + since
	case t.HasMono:
		return seconds(t.Mono) + " after boot"
	}
	return ""
}

// seconds is d as "12.345678s".
func seconds(d time.Duration) string {
	return fmt.Sprintf("%d.%06ds", d/time.Second, (d%time.Second)/time.Microsecond)
}

// add returns t moved on by d.
func (t Timestamp) add(d time.Duration) Timestamp {
	if t.HasWall {
		t.Wall = t.Wall.Add(d)
	}
	if t.HasMono {
		t.Mono += d
	}
	return t
}

// sub returns t-u and whether the two can be compared (both monotonic, or
// both wall-clock).
func (t Timestamp) sub(u Timestamp) (time.Duration, bool) {
	switch {
	case t.HasMono && u.HasMono:
		return t.Mono - u.Mono, true
	case t.HasWall && u.HasWall && t.NoYear == u.NoYear && t.NoDate == u.NoDate:
		return t.Wall.Sub(u.Wall), true
	}
	return 0, false
}

// Event is one recognised line of the log. Fields that the event's Kind does
// not carry are zero.
//
// The zero Event is no line of a log: its Kind is empty, its Line 0 (lines
// count from 1) and its Time zero; Fatal, Gone and Corrected report false
// and AERErrors returns nil.
type Event struct {
	// Kind says what happened.
	Kind Kind
	// Line is the line's number in the input, from 1; EndLine the number
	// of its last physical line when the message was wrapped over several
	// (by a mail or bug tracker), else Line.
	Line    int
	EndLine int
	// Time is the line's time stamp.
	Time Timestamp
	// Driver and Device are the "driver device:" prefix of the message
	// ("nvme", "nvme0"; "pcieport", "0000:00:1d.0"); empty for lines
	// without one.
	Driver string
	Device string
	// Controller is the controller the event belongs to ("nvme0") when the
	// line or the log says so; PCI the PCI address of the function it is
	// about ("0000:04:00.0"); Disk the block device ("nvme0n1").
	// GuessedController says that only the number of the disk's name gave
	// the controller (nvme1n1 is controller nvme1's), which native
	// multipath breaks: no line of the log tied the disk to a controller
	// (Log.Namespaces).
	Controller        string
	PCI               string
	Disk              string
	GuessedController bool
	// Reporter is the port that reported an AER error.
	Reporter string

	// CSTS and PCIStatus are the register values of a controller-down (or
	// CSTS of a reset-not-ready); HasPCIStatus is false when the line did
	// not give PCI_STATUS (PCIStatusFailed then says the read failed).
	CSTS            uint32
	HasCSTS         bool
	PCIStatus       uint16
	HasPCIStatus    bool
	PCIStatusFailed bool

	// Tag, CommandID and QID identify a timed-out command; Opcode and
	// OpName its opcode (6.x shape), ReqOp and Size the block request
	// (Size is also the size of a HostMemoryBuffer, in bytes).
	// Action is what the driver did: "aborting", "reset controller",
	// "disable controller", "completion polled".
	Tag       int
	CommandID string
	QID       int
	Opcode    int
	OpName    string
	ReqOp     string
	Size      int64
	Action    string

	// Errno is the (negative) error number of a probe, reset or APST
	// failure, or of a driver's step that failed ("Identify Descriptors
	// failed (-4)"); Status the abort status, or the NVMe status a
	// driver's failed step got ("failed (8194)"); SCT and SC an NVMe
	// status.
	Errno  int
	Status int
	SCT    int
	SC     int
	HasSC  bool
	// FromState is the state a resume failed to leave ("D3cold"), or the
	// state a PMError's function was to leave for sleep ("D0": "Unable to
	// change power state from D0 to D3hot, device inaccessible").
	FromState string
	// Phase is "resume" or "suspend" for a PMError; Mode the sleep state of
	// a SuspendEntry or SuspendExit ("deep", "s2idle", "S3",
	// "hibernation"), empty when the line does not say.
	Phase string
	Mode  string
	// IRQ is the interrupt of a LostInterrupt.
	IRQ int
	// Stack is, for a kernel warning or crash (ActionKernelBug) or a
	// HungTask, the first line of its dump that places it in the NVMe
	// driver's code, as
	// Raw quotes lines: the worker ("Workqueue: nvme-reset-wq
	// nvme_reset_work", then the module in brackets), a frame of the call
	// trace ("nvme_probe+0x340/0x450"), the faulting instruction or the
	// source file a warning names; StackLine is its line number. Empty
	// when the dump, as far as the log has it, names no such code.
	Stack     string
	StackLine int
	// Severity ("Corrected", "Uncorrected (Non-Fatal)", "Uncorrected
	// (Fatal)") and Layer ("Physical Layer", "Data Link Layer",
	// "Transaction Layer") of an AER report.
	Severity string
	Layer    string
	// AERStatus holds the errors an AER report's status line sets and
	// does not mask ("device [8086:06ac] error status/mask=00200000/00010000":
	// 0x00200000, bit 21, ACS Violation, of the Uncorrectable Error Status
	// register after an uncorrected error; of the Correctable one after a
	// corrected error); 0 when the log has no status line for the report.
	// AERErrors names them.
	AERStatus uint32
	// Text is the message as logged, after the time stamp and prefix, at
	// most MaxTextLength bytes (a longer one ends in "...").
	Text string
	// Raw is the line as it appears in the log, time stamp and all, with
	// the surrounding whitespace and quoting ("> ") removed and the
	// physical lines of a wrapped message joined with one space, at most
	// MaxTextLength bytes: what evidence quotes.
	Raw string
}

// Fatal reports whether the event means the controller stopped answering:
// controller down, probe, reset or resume failure, or a link down.
func (e Event) Fatal() bool {
	switch e.Kind {
	case ControllerDown, ProbeFailure, ResetNotReady, ResetFailure, ResumeFailure, LinkDown:
		return true
	}
	return false
}

// Gone reports whether the event shows the device gone from the bus: a
// controller-down whose PCI_STATUS reads all ones (or could not be read),
// which a slow exit from a power state alone does not cause.
func (e Event) Gone() bool {
	return e.Kind == ControllerDown && (e.HasPCIStatus && e.PCIStatus == 0xffff || e.PCIStatusFailed)
}

// Corrected reports whether an AER event is a corrected error.
func (e Event) Corrected() bool { return e.Severity == "Corrected" }
