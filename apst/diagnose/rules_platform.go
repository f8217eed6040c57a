package diagnose

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// platformCause is the platform or the kernel: lost interrupts, the host
// memory buffer, firmware tables, a kernel regression.
func platformCause(s *signals) builder {
	b := newBuilder(s, LayerPlatform)
	b.swapsTried(s, false)
	hmbTried := b.tried(s, []string{"nvme.max_host_mem_size_mb"}, []string{"0"}, 8, 3, "no host memory buffer, and the failures stopped")
	b.tried(s, []string{"pci"}, []string{"nocrs", "noaer", "nomsi"}, 8, 2, "the PCI core's settings stopped the failures")
	b.tried(s, []string{"iommu", "amd_iommu", "intel_iommu"}, []string{"off", "soft", "pt"}, 8, 2, "the IOMMU setting stopped the failures")
	b.tried(s, []string{"kernel", "bios"}, nil, 8, 3, "another kernel or BIOS stopped the failures")
	switch n := len(s.othersDown); {
	case n > 0 && s.othersMaySelf:
		b.proLine(2, logLine(&s.othersDown[0], fmt.Sprintf("%d NVMe controllers went down within minutes of this failure (one may be this drive's own: no line ties its address to a controller): a cause they share (the platform's power, a PCIe switch or backplane, the kernel), since one drive's fault does not take another down", n)))
	case n > 0:
		b.proLine(2, logLine(&s.othersDown[0], fmt.Sprintf("%d other NVMe controller(s) went down within minutes of this one: a cause they share (the platform's power, a PCIe switch or backplane, the kernel), since one drive's fault does not take another down", n)))
	}
	if len(s.polled) > 0 {
		b.sign(4, logLine(&s.polled[0], fmt.Sprintf("%d command(s) timed out although they had completed: the driver found them by polling, so the interrupt was lost on its way: MSI, an IOMMU or interrupt remapping, a platform quirk (a drive whose own MSI fails reads the same, far less often)", len(s.polled))))
	}
	switch {
	case s.lostIRQ != nil && s.lostIRQ.Action == kernlog.ActionBadIRQ:
		b.sign(3, logLine(s.lostIRQ, "the drive's interrupt arrived with no flow handler set up for it (the kernel's handle_bad_irq): the interrupt controller's setup, the platform's and the kernel's, not the drive"))
	case s.lostIRQ != nil && s.down != nil && s.lostIRQ.Line > s.down.Line:
		// After the drive stopped answering: a controller that failed
		// raises its interrupt with nothing to complete, so nvme_irq
		// finds no completion and the kernel counts it unhandled.
		b.proLine(1, logLine(s.lostIRQ, fmt.Sprintf("the kernel disabled an interrupt nobody handled after the controller went down (line %d): a controller that failed raises its interrupt with nothing to complete, which reads so; before a failure it would point at interrupt routing", s.down.Line)))
	case s.lostIRQ != nil:
		b.sign(3, logLine(s.lostIRQ, "the kernel disabled an interrupt nobody handled: interrupt routing is broken"))
	}
	if e := s.transferErr; e != nil {
		what := "the drive could not move a command's data to or from host memory (Data Transfer Error, sct 0x0 / sc 0x4)"
		if e.Kind == kernlog.APSTFailed {
			what = "the drive could not fetch the kernel's APST table from host memory (NVMe status 0x4, Data Transfer Error: no refusal of the table)"
		}
		b.proLine(3, logLine(e, what+": the host's DMA path failed it (an IOMMU, a board's DMA coherency or addressing, its PCIe host controller) more often than the drive, and the drive's power states do not explain it"))
	}
	if s.bogusCQE != nil {
		b.proLine(2, logLine(s.bogusCQE, "a completion came back with a command identifier the host never issued: a completion corrupted on its way (DMA, an IOMMU) reads so, as does a controller that mishandles command IDs"))
	}
	if bits := s.busErrors(); bits != 0 {
		b.sign(3, logLine(s.down, fmt.Sprintf("PCI_STATUS has error bits 0x%04x set (%s): the device's own bus transactions failed, as when its DMA reaches an address the host bridge or IOMMU does not map; its fatal status follows from that", bits, pciErrorNames(bits))))
	}
	switch {
	case s.dupNamespace():
		b.proLine(2, logLine(s.dupIDs, "the kernel rejected a namespace whose identifiers another drive's namespace has: drives with bogus NGUID or EUI-64 values need a kernel quirk for their model (BOGUS_NID), which a newer kernel may have"))
	case s.dupIDs != nil:
		b.proLine(2, logLine(s.dupIDs, "the kernel rejected a controller that reports another's identity: drives with a bogus subsystem NQN or controller ID need a kernel quirk for their model (IGNORE_DEV_SUBNQN), which a newer kernel may have"))
	}
	if s.nsDesc != nil {
		b.proLine(2, logLine(s.nsDesc, "the drive refused the namespace identification descriptor list the kernel asks for when it scans namespaces, so its namespaces were not set up: drives that do not implement it need a kernel quirk for their model (NO_NS_DESC_LIST), which a newer kernel may have"))
	}
	if s.refused != nil {
		b.proLine(2, logLine(s.refused, "the drive refused an I/O command the kernel sent as invalid: drives that do not take a command the kernel uses (Write Zeroes, Dataset Management) or one of its fields need a kernel quirk for their model (DISABLE_WRITE_ZEROES for Write Zeroes, for one), which a newer kernel may have, and a kernel that changed what it sends is a regression"))
	}
	if len(s.others) > 0 {
		b.proLine(2, logLine(&s.others[0], fmt.Sprintf("%d other PCI function(s) became inaccessible together with the drive: a platform or PCI core fault, not one device", len(s.others))))
	}
	iommu, nullDMA := s.transferErr != nil, false
	var crashed *kernlog.Event
	for i := range s.faults {
		f := &s.faults[i]
		switch f.Action {
		case "iommu-fault":
			switch {
			case iommu:
			case nullAddress(f.Text):
				iommu, nullDMA = true, true
				b.sign(3, logLine(f, "the IOMMU blocked a DMA of the drive to address 0, which is never mapped: the drive used a zeroed address (a queue or data pointer the driver never set, or one it had before a reset), a kernel bug most often, around a reset or resume; the IOMMU's passthrough would let that DMA reach physical page 0, so it is no test here"))
			default:
				iommu = true
				b.sign(3, logLine(f, "the IOMMU blocked a DMA of the drive to an address that was not mapped for it: a DMA mapping fault of the kernel or of the platform's IOMMU tables, which a drive rarely causes"))
			}
		case kernlog.ActionKernelBug:
			switch {
			case f.Stack != "" && crashed == nil && s.crashOnly():
				// The driver failed in its own code and reported no
				// failure of the drive: the crash is the failure.
				crashed = f
				b.proLine(3, logLine(f, fmt.Sprintf("the kernel %s %s before the driver reported any failure of the drive (its dump, line %d: %s): a kernel bug, most often a regression of the release, sometimes a quirk a drive needs; another release may not have it%s", crashVerb(f), crashWhere(f, "in the NVMe driver's own code"), f.StackLine, f.Stack, taintNote(s.in.Log))))
			case f.Stack != "":
				b.proLine(2, logLine(f, fmt.Sprintf("the kernel %s %s (its dump, line %d: %s): a kernel bug, which another release may not have, though a drive that answers what the driver does not expect can set it off%s", crashVerb(f), crashWhere(f, "in the NVMe driver's code"), f.StackLine, f.Stack, taintNote(s.in.Log))))
			default:
				b.proLine(2, logLine(f, "the kernel hit a warning or crashed: a kernel bug, which another release may not have"+taintNote(s.in.Log)))
			}
		case kernlog.ActionBARUnassigned:
			if unnamedFunction(s.in.Log, f) {
				// Read makes such a line an event only in a log that
				// names no drive: the function may be the drive, or not.
				b.sign(4, logLine(f, "the registers of a function the log never names got no address: the PCI core found no room for its BAR 0 (64-bit, not prefetchable, as an NVMe drive's registers are) in "+bridgeWindow+"; the log has no class line and no line of the nvme driver for it: if it is the drive, no driver can reach it and it never appears, and the drive is not at fault"))
				b.test("see whether that function is the drive: its class is [0108] (Non-Volatile memory controller)", "lspci -nn -s "+f.PCI, "free")
			} else {
				b.sign(4, logLine(f, "the drive's registers got no address: the PCI core found no room for its memory BAR in "+bridgeWindow+", so no driver can reach the drive and it never appears; the drive is not at fault"))
			}
			barTests(s, &b)
		case kernlog.ActionHostProbeFailed:
			if f.Errno == 0 {
				// "Failed to initialize host": no error to tell the link
				// from the rest; a generic driver that gives up before
				// the board's own binds reads so too. Said only when the
				// log has no other line of a host, which says more.
				if s.otherHostLine(f) {
					break
				}
				b.proLine(2, logLine(f, "the PCIe host controller's driver gave up bringing the host up, without saying why (a link that never trained, a device tree, clock, reset, regulator or PHY it could not get); no drive behind it could be seen"))
				break
			}
			b.sign(3, logLine(f, fmt.Sprintf("the PCIe host controller's driver failed to probe (error %d), not for its link: a device tree, clock, reset, regulator or PHY it could not get, most often after a kernel or device-tree update (a regression, or a device tree older than its driver); no drive behind it could be seen", f.Errno)))
		case "dma-bounce":
			b.proLine(2, logLine(f, "the drive's DMA bounce buffers ran out: its DMA cannot reach all of memory (its DMA mask, the IOMMU, or swiotlb too small), a matter of the platform and the kernel"))
		case "config-access":
			b.proLine(1, logLine(f, "the host bridge cannot write PCI config space in less than 32 bits: its controller driver works around the hardware, a platform with quirks of its own"))
		}
	}
	for i := range s.pmErrors {
		if e := &s.pmErrors[i]; dtHostLine(e) {
			// "mtk-pcie-gen3 112f0000.pcie: PM: failed to resume noirq:
			// error -110": the host, not a device behind it.
			b.proLine(2, logLine(e, "the PCIe host controller itself failed to "+cmp.Or(e.Phase, "suspend or resume")+": its driver, power domain, clocks or resets, or the device tree that describes them, the board's, not the drive's"))
			break
		}
	}
	if probe := s.probeFailure(); probe != nil && probe.Errno == -12 && !s.barUnassigned() {
		b.sign(3, logLine(probe, "the probe failed for lack of memory (-ENOMEM): DMA addressing (the DMA mask, swiotlb, the IOMMU) or the queues' memory, which the platform and the kernel provide, not the drive"))
	}
	if e := s.liveRace; e != nil && s.down == nil && len(s.timeouts) == 0 {
		b.proLine(2, logLine(e, "the driver could not mark the controller live: another state change (a deletion, a reset, a hot-plug event) came first while it brought the controller up, and it was removed for that, no error of the drive's: a race in the kernel"))
	} else if p := s.probeOnly(); p != nil && p.Errno != -12 {
		b.proLine(2, logLine(p, "the drive stopped answering while the driver brought it up: the platform's bring-up of the slot (reset timing, power, firmware tables, the host bridge) fails so more often than a drive does"))
		if o := s.otherProbeFailed; o.Line > 0 {
			// Another driver's device failing its probe in the same log:
			// what they share is the platform's.
			b.proLine(1, Line{Source: fmt.Sprintf("kernel log line %d", o.Line), Line: o.Line, Quote: o.Text,
				Text: "another driver's device failed to come up in this log too: what it shares with the drive (the IOMMU, interrupts, the host bridge, the firmware's tables) fails both more often than two devices fail at once"})
		}
	}
	if e := s.abortDone; e != nil && len(s.timeouts) > 0 && !s.gone() && !s.mmioDead() {
		// nvme-pci's abort_endio prints the Abort command's own status:
		// 0 is an abort the controller carried out.
		b.proLine(1, logLine(e, "the drive carried out the Abort the driver sent for the command that timed out (status 0): its controller was awake and answering, so the command was lost between the kernel and the drive (its queue's doorbell, its interrupt, the kernel's own queueing) more often than the drive slept through it"))
	}
	if l := s.in.Log; l != nil && l.OSC != nil && s.inc != nil {
		b.proLine(1, logLine(l.OSC, "the firmware's _OSC method failed: the ACPI tables through which the kernel takes control of PCIe (native hot-plug, AER, PME, ASPM) are broken, as a firmware bug or an edited DSDT or SSDT leaves them; the kernel left ASPM and the rest as the firmware set them"))
	}
	if s.inc != nil && devKernel(s.releaseText) {
		b.pro(1, "kernel release", "a development kernel ("+s.releaseText+"): a failure new in it is most often a regression; the last release that worked tells")
	}
	switch {
	case s.hmb != nil && s.hmbAlone():
		// The NVMe specification (1.4, 8.9) has a drive work without the
		// buffer it asks for: the line alone is no failure.
		b.proLine(1, logLine(s.hmb, "the drive got no host memory buffer, and nothing else of it failed here: a drive must work without one (NVMe 1.4, 8.9), slower at most; a cause only if it then stalls or drops out (a DRAM-less drive that does is the drive's fault, which a buffer works around)"))
	case s.hmb != nil:
		b.sign(3, logLine(s.hmb, "the drive got no host memory buffer: DRAM-less drives stall or fail without it"))
	}
	if s.reset != nil && s.reset.Kind == kernlog.ResetNotReady && strings.Contains(s.reset.Text, "initiali") && s.down == nil {
		// A controller that set its fatal status answered: time or power
		// it did not get explain that less.
		n := 2
		if s.notReadyCFS() {
			n = 1
		}
		b.proLine(n, logLine(s.reset, "the drive never became ready when the driver enabled it (at probe or after a reset): the host did not give it time or power to come up (reset timing, a platform quirk), or it is dead"))
	}
	if e := s.unaskedReset(); e != nil {
		b.proLine(1, logLine(e, "the reset may have been one a user asked for (nvme reset, sysfs reset_controller, a test that resets in a loop): one that races the driver's own commands to the controller is a kernel matter"))
	}
	if s.racedLive() {
		b.proLine(2, logLine(s.reset, "the driver's reset gave up because the controller was no longer in its resetting state but live (nvme-pci's reset work, which then disables the device with -19): another reset or a system resume had brought it back first, a race in the driver or the host's power management, not a device that stopped answering; a kernel matter, most often a regression of the release or of the host controller driver's suspend and resume"))
	}
	if e := s.acsViol; e != nil {
		b.sign(3, logLine(e, "the port blocked a request of the drive's under its Access Control Services (its AER status says ACS Violation, and nothing else): the ACS settings, which the kernel and the firmware program at boot and again at a resume, forbade a transfer the drive made, a configuration fault of the platform or a kernel regression, not the link's signal"))
	}
	if e := s.piWrite; e != nil {
		b.proLine(2, logLine(e, "the drive refused a write whose data did not match the protection information the host sent with it (an end-to-end check, made before the media has any part): the data changed after the host protected it, or the host protected it wrongly, a bug of the software that wrote it (md's bitmap writes did this until 2023) or of the block layer's integrity, not the drive's media"))
	}
	if h := s.hung; h != nil && h.Stack != "" && s.down == nil && s.resume == nil && s.reset == nil && len(s.timeouts) == 0 && s.linkDown == nil {
		b.proLine(2, logLine(h, fmt.Sprintf("a task stayed blocked past the hung-task limit in the NVMe driver's own code (its stack, line %d: %s) while nvme reported no failure of the drive: the driver's timeout handling, reset, removal or shutdown waited on the block layer or a lock that never let go, a kernel deadlock, most often a regression of the release, which another release may not have", h.StackLine, h.Stack)))
	} else if s.hung != nil && s.down == nil && s.resume == nil && s.reset == nil && len(s.timeouts) == 0 && s.linkDown == nil {
		b.proLine(2, logLine(s.hung, "a task stayed blocked on the drive's I/O past the hung-task limit while nvme reported no command timing out (it reports every command the drive holds past its I/O timeout, 30 s by default): the I/O was held above the driver, in the block layer, its throttling or the filesystem, a kernel matter (unless this log leaves nvme's lines out)"))
	}
	if s.down == nil && s.resume == nil && (s.reset == nil || s.raced()) && len(s.timeouts) > 0 && len(s.polled) == 0 && s.onResume == nil && len(s.pmErrors) == 0 && s.probeOnly() == nil {
		b.proLine(1, logLine(&s.timeouts[0], "commands timed out and the controller recovered: lost interrupts and kernel regressions stall commands like this too"))
	}
	if e := s.passthrough; e != nil {
		what := "the host binds the function to " + e.Driver + ", which hands it to a virtual machine or a user-space driver (SPDK): the nvme driver no longer drives it, and the function is reset (FLR, a bus reset, D3) as it is handed over and taken back, which a drive that does not take such a reset well does not survive; AER and link lines around such a reset are its doing"
		if e.Kind == kernlog.ResetFailure {
			what = "the function did not come back from the reset its passthrough driver (" + e.Driver + ") asked for (" + e.Action + "): a drive that does not take a function level reset well, which the host then cannot hand over; the AER and link lines around the reset are its doing"
		}
		b.proLine(2, logLine(e, what))
	}
	// The guest last: context for the failures above, the reason only
	// when nothing else speaks for the platform.
	if s.guest != nil {
		b.contextLine(3, logLine(s.guest, "the kernel ran in a virtual machine ("+s.guest.Text+"): the drive it sees is the hypervisor's, emulated or passed through, and a drop-out there is the host's, the hypervisor's or the passthrough's (vfio, the IOMMU, the host's power management of the slot) at least as often as the drive's; the physical link and its ASPM are the host's, and the guest's APST reaches a passed-through drive only"))
	}
	if b.Score <= 0 {
		return b
	}
	if len(s.polled) > 0 || s.lostIRQ != nil {
		b.argTest(s, "test interrupt delivery: MSI off for PCI devices (or, with an IOMMU, interrupt remapping off: intremap=off on x86)", "pci=nomsi", "every device falls back to legacy interrupts; slower, a test only")
	}
	if iommu && !nullDMA {
		b.argTest(s, "test DMA without translation: the IOMMU in passthrough mode", "iommu=pt", "devices' DMA is no longer isolated by the IOMMU: a test, or a workaround on a trusted machine")
	}
	switch {
	case s.hmb != nil && strings.Contains(s.hmb.Text, "above limit") && s.hmb.Size > 0:
		// The drive asks for more than the host allows: raise the limit
		// to its minimum.
		mib := s.hmb.Size >> 20
		b.argTest(s, "give the drive the host memory buffer it asks for: raise the host's limit to its minimum", fmt.Sprintf("nvme.max_host_mem_size_mb=%d", mib), fmt.Sprintf("%d MiB of host memory for the drive's mapping table", mib))
	case s.hmb != nil && !hmbTried && !s.hmbAlone():
		// (Alone, the line asks for nothing: the drive already runs
		// without the buffer, as it must.)
		b.argTest(s, "run the drive without a host memory buffer", "nvme.max_host_mem_size_mb=0", "a DRAM-less drive loses its mapping cache: slower random reads")
	}
	if e := s.passthrough; e != nil && e.Kind == kernlog.ResetFailure && strings.Contains(e.Action, "FLR") && e.PCI != "" {
		// drivers/pci/pci-sysfs.c's reset_method (5.15 and later) chooses
		// the reset the PCI core uses for the function.
		b.test("reset the function another way before the virtual machine gets it: a bus reset instead of its FLR (the kernel's reset_method, since 5.15)", "cat /sys/bus/pci/devices/"+e.PCI+"/reset_method; echo bus | sudo tee /sys/bus/pci/devices/"+e.PCI+"/reset_method", "free; until reboot (a udev rule makes it last); a bus reset also resets the other functions behind the same port")
	}
	if e := s.piWrite; e != nil && e.Disk != "" {
		// Without an integrity payload nvme-pci sets PRACT on a
		// protected namespace's writes: the drive computes the
		// protection information itself (drivers/nvme/host/core.c,
		// nvme_setup_rw).
		b.test("let the drive compute the protection information of writes instead of the host, until reboot: if the errors stop, the host's was wrong", "echo 0 | sudo tee /sys/block/"+e.Disk+"/integrity/write_generate", "the data is protected from the drive's interface on, no longer from the host's memory")
	}
	if s.guest != nil {
		b.test("on the host (the hypervisor, not the guest), read its kernel log around the failure's time: a failure of the drive itself, its link or its passthrough is there, with its cause", "journalctl -k -b --no-pager", "free")
	}
	switch {
	case s.guest != nil:
		// A guest's BIOS is the hypervisor's (SeaBIOS, OVMF, a cloud's
		// own): it comes with the host, not from the machine's vendor.
		b.test("boot the newest stable kernel in the guest (or the last one that worked), and ask whoever runs the host for its newest kernel and virtual firmware: a regression or a quirk may be fixed there", "uname -r", "a reboot of the guest")
	case s.power():
		// POWER has no BIOS and no DMI: its system firmware (OPAL on a
		// bare-metal server, the hypervisor's on a logical partition)
		// has its own level.
		b.test("boot the newest stable kernel (or the last one that worked) and the server's newest system firmware (on a logical partition, the level its management console installs): a regression or a quirk may be fixed there", "uname -r; cat /proc/device-tree/model", "a reboot")
	case s.deviceTree():
		b.test("boot the newest stable kernel (or the last one that worked) and the board's newest bootloader and device tree: a regression or a quirk may be fixed there", "uname -r; cat /proc/device-tree/model", "a reboot")
	default:
		b.test("boot the newest stable kernel (or the last one that worked) and the newest BIOS: a regression or a quirk may be fixed there", "uname -r; cat /sys/class/dmi/id/bios_version", "a reboot")
	}
	if f, _, _ := strings.Cut(crashFile(crashIn(crashed)), ":"); f != "" && !strings.HasPrefix(f, "drivers/nvme/") {
		b.test("report the crash with its whole dump and the release to the maintainers of "+f+" (scripts/get_maintainer.pl -f "+f+" in a kernel tree names them), with the NVMe list (linux-nvme@lists.infradead.org) in copy, or to the distribution's tracker; between a release that worked and this one, git bisect finds the commit", "journalctl -k -b -1 --no-pager > kern.log", "free; a bisection costs a build and a boot a step")
	} else if crashed != nil {
		b.test("report the crash with its whole dump and the release to the kernel's NVMe list (linux-nvme@lists.infradead.org) or the distribution's tracker; between a release that worked and this one, git bisect finds the commit", "journalctl -k -b -1 --no-pager > kern.log", "free; a bisection costs a build and a boot a step")
	}
	return b
}

// crashWhere is where a crash or warning whose dump runs through the
// NVMe driver's code happened: in the driver (inDriver), or, when its
// line names another source file ("kernel BUG at
// drivers/xen/events/events_base.c:427!", "WARNING: CPU: 26 PID: 658 at
// kernel/irq/chip.c:210 ..."), in that file, called from the driver.
func crashWhere(e *kernlog.Event, inDriver string) string {
	if f := crashFile(e.Text); f != "" && !strings.HasPrefix(f, "drivers/nvme/") {
		return "in " + f + ", called from the NVMe driver's code,"
	}
	return inDriver
}

// crashFile is the source file and line a kernel-bug line names
// ("drivers/xen/events/events_base.c:427"), or "": lib/bug.c's "kernel
// BUG at FILE:LINE!", kernel/panic.c's "WARNING: CPU: N PID: N at
// FILE:LINE FUNC" and, since 6.19, "WARNING: FILE:LINE at FUNC, ...".
func crashFile(text string) string {
	var rest string
	switch {
	case strings.HasPrefix(text, "kernel BUG at "):
		rest = text[len("kernel BUG at "):]
	case strings.HasPrefix(text, "WARNING: CPU: "):
		_, rest, _ = strings.Cut(text, " at ")
	case strings.HasPrefix(text, "WARNING: "):
		rest = text[len("WARNING: "):]
	default:
		return ""
	}
	file, _, _ := strings.Cut(rest, " ")
	file = strings.TrimSuffix(file, "!")
	if i := strings.LastIndexByte(file, ':'); i < 0 || !strings.Contains(file[:i], ".") || i+1 == len(file) || strings.Trim(file[i+1:], "0123456789") != "" {
		return ""
	}
	return treePath(file)
}

// treePath is a source file's path in the kernel's tree: a kernel built
// with its tree's absolute path names the file by it
// ("/home/srikar/work/linux.git/arch/powerpc/kernel/iommu.c:227", posted
// zh-09), which is cut before the tree's top directory it holds: the
// first of them in treeTops' order that it holds (so a build directory
// under /var/lib or /opt/net does not pass for the tree's lib or net),
// at its last "/kernel/" or "/lib/" (a tree kept in a directory named
// kernel).
func treePath(file string) string {
	if !strings.HasPrefix(file, "/") {
		return file
	}
	for _, d := range treeTops {
		i := strings.Index(file, d)
		if d == "/kernel/" || d == "/lib/" {
			i = strings.LastIndex(file, d)
		}
		if i >= 0 {
			return file[i+1:]
		}
	}
	return file
}

// treeTops are the kernel tree's top directories a crash's file is in,
// the likeliest first.
var treeTops = []string{"/arch/", "/drivers/", "/block/", "/fs/", "/mm/", "/sound/", "/virt/", "/security/", "/crypto/", "/io_uring/", "/init/", "/ipc/", "/net/", "/kernel/", "/include/", "/lib/"}

// nullAddress reports whether an IOMMU fault's line gives address 0: AMD-Vi's
// "[IO_PAGE_FAULT domain=0x0018 address=0x0 flags=0x0000]" (posted ze-03),
// Intel's "fault addr 0x0".
func nullAddress(text string) bool {
	for _, k := range []string{"address=0x", "fault addr 0x"} {
		if _, rest, ok := strings.Cut(text, k); ok {
			v, _, _ := strings.Cut(rest, " ")
			v = strings.TrimRight(v, "],")
			return v != "" && strings.Trim(v, "0") == ""
		}
	}
	return false
}

// taintNote says, after a crash's meaning, that the kernel that crashed
// had a proprietary (P) or out-of-tree (O) module loaded (kernlog's
// Log.Taint), which the kernel's developers ask a report to be
// reproduced without; "" otherwise.
func taintNote(l *kernlog.Log) string {
	var mods []string
	if strings.Contains(l.Taint, "P") {
		mods = append(mods, "a proprietary module (P)")
	}
	if strings.Contains(l.Taint, "O") {
		mods = append(mods, "a module built outside the kernel's tree (O)")
	}
	if len(mods) == 0 {
		return ""
	}
	return "; the kernel was tainted by " + strings.Join(mods, " and ") + ": reproduce it without that module before reporting it upstream, or report it to the module's makers"
}

// power reports a POWER machine: EEH's lines, a machine name of
// pseries or PowerNV ("Hardware name: IBM,9080-HEX POWER10 (raw) ...
// hv:phyp pSeries"), or a warning or crash in arch/powerpc.
func (s *signals) power() bool {
	l := s.in.Log
	if l == nil {
		return false
	}
	if l.EEH != nil || l.Machine != nil && (strings.Contains(l.Machine.Text, "pSeries") || strings.Contains(l.Machine.Text, "PowerNV")) {
		return true
	}
	for i := range s.faults {
		if strings.HasPrefix(crashFile(s.faults[i].Text), "arch/powerpc/") {
			return true
		}
	}
	return false
}

// crashIn is the text of a crash, "" for none.
func crashIn(e *kernlog.Event) string {
	if e == nil {
		return ""
	}
	return e.Text
}

// crashVerb is what a kernel-bug line says the kernel did: "warned" for
// a WARNING (the kernel goes on), "crashed" for an oops, BUG or lockup.
func crashVerb(e *kernlog.Event) string {
	if strings.HasPrefix(e.Text, "WARNING: ") {
		return "warned"
	}
	return "crashed"
}

// devKernel reports whether a release is a development kernel: a release
// candidate ("6.2.0-rc1") or a linux-next snapshot ("6.15.0-rc2-next-20250414").
func devKernel(r string) bool {
	return strings.Contains(r, "-rc") || strings.Contains(r, "next-20")
}

// pciErrorNames names the PCI Status error bits.
func pciErrorNames(bits uint16) string {
	var n []string
	for _, b := range []struct {
		bit  uint16
		name string
	}{{0x8000, "detected parity error"}, {0x4000, "signaled system error"}, {0x2000, "received master abort"},
		{0x1000, "received target abort"}, {0x0800, "signaled target abort"}, {0x0100, "master data parity error"}} {
		if bits&b.bit != 0 {
			n = append(n, b.name)
		}
	}
	return strings.Join(n, ", ")
}

// bridgeWindow is where a BAR that got no address had no room.
const bridgeWindow = "the bridge window above it (the windows the firmware's tables or the device tree describe, or the kernel's reading of them)"

// unnamedFunction reports whether f, a failure to assign a BAR, is of a
// function the log shows neither as NVMe (its class line) nor as a
// controller's (the nvme driver's "pci function" line).
func unnamedFunction(l *kernlog.Log, f *kernlog.Event) bool {
	return l != nil && f.Driver == "pci" && l.DeviceIDs[f.PCI] == "" && l.Addresses[f.PCI] == ""
}

// barTests are the tests for a drive whose BAR got no address: the
// kernel's own reassignment of the bridge windows (its "Some PCI device
// resources are unassigned, try booting with pci=realloc"), then where the
// windows come from: a board's device tree, a PC's firmware setup, or
// both where the log does not say which the machine is.
func barTests(s *signals, b *builder) {
	b.argTest(s, "let the kernel size and place the bridge windows itself rather than keep the firmware's", "pci=realloc", "a reboot; devices' addresses move, which firmware that expects them where it put them rarely minds")
	dt, pc := s.deviceTree(), s.in.Log != nil && s.in.Log.Machine != nil
	if dt || !pc {
		b.test("on a board with a device tree: look for a kernel or device tree for it whose PCIe host bridge \"ranges\" give the bus a 32-bit non-prefetchable memory window (the RockPro64's were read as 64-bit from 5.13-rc1 to rc6)", "uname -r; cat /proc/device-tree/model", "free to look; an update needs a reboot")
	}
	if !dt {
		b.test("on a PC or server: in the firmware setup, turn on \"Above 4G Decoding\" and update the BIOS: the bridges then have room for devices' registers above 4 GiB", "", "a reboot into the setup")
	}
}
