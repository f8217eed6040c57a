package kernlog

import (
	"slices"
	"strconv"
	"strings"
)

// parsePlatform reads what the platform did: PCIe host controllers whose
// link never trained or whose driver failed to probe, the PCI core's ASPM
// lines, interrupts nobody handled, IOMMU faults, kernel warnings and
// crashes, and config writes the host bridge cannot do.
func parsePlatform(e *Event, msg, body string) bool {
	switch {
	case hostLinkNeverUp(body) && hostController(e.Device):
		// A PCIe host controller whose link never trained: the device
		// behind it was never seen ("brcm-pcie 1000110000.pcie: link
		// down", pcie-brcmstb.c; DesignWare's dw_pcie_wait_for_link;
		// pcie-rockchip-host.c's "PCIe link training gen1 timeout!").
		e.Kind, e.Action = LinkDown, ActionHostLinkDown
		e.Driver, e.Device, e.PCI, e.Controller = "", "", "", ""
		return true
	case hostProbe(e, body):
		return true
	case strings.HasPrefix(body, "link up, ") && hostController(e.Device):
		e.Kind, e.Text = HostLinkUp, clip(body)
		e.PCI, e.Controller = "", ""
		return true
	case strings.HasPrefix(body, "ASPM: "),
		strings.HasPrefix(body, "can't disable ASPM"), strings.HasPrefix(body, "can't override BIOS ASPM"),
		strings.HasPrefix(msg, "PCIe ASPM is "),
		strings.Contains(msg, "doesn't support PCIe ASPM"),
		strings.Contains(body, "FADT indicates ASPM is unsupported"):
		e.Kind, e.Text = ASPMPlatform, clip(body)
		e.Controller = ""
		return true
	case strings.HasPrefix(msg, "->action->handler(): ") && strings.Contains(msg, ", nvme_irq"):
		// kernel/irq's print_irq_desc, which handle_bad_irq calls for an
		// interrupt that arrived with no flow handler set up for it: its
		// last line names the handler the driver registered, nvme's.
		e.Kind, e.Action, e.Driver, e.Device = LostInterrupt, ActionBadIRQ, "nvme", ""
		return true
	case strings.HasPrefix(msg, "irq ") || strings.HasPrefix(msg, "Disabling IRQ #"):
		m := re().reIRQ.FindStringSubmatch(msg)
		if m == nil {
			return false
		}
		e.Kind, e.IRQ = LostInterrupt, atoi(m[1]+m[2])
		e.Driver, e.Device = "", ""
		return true
	case strings.Contains(msg, "DMAR: [") && strings.Contains(msg, "Request device ["),
		strings.Contains(msg, "IO_PAGE_FAULT"):
		return iommuFault(e, msg)
	case strings.HasPrefix(msg, "INFO: task ") && strings.Contains(msg, " blocked for more than "):
		return hungTask(e, msg)
	case warnBanner(msg), strings.HasPrefix(msg, "BUG: "), strings.HasPrefix(msg, "kernel BUG at "),
		strings.HasPrefix(msg, "watchdog: BUG: "), dieLine(msg), strings.HasPrefix(msg, "Oops: "),
		strings.HasPrefix(msg, "general protection fault"):
		e.Kind, e.Action = PlatformFault, ActionKernelBug
		e.Driver, e.Device, e.Controller, e.PCI, e.Disk = "", "", "", "", ""
		return true
	case e.PCI != "" && strings.HasPrefix(body, "of_irq_parse_pci: failed with rc="):
		// The device tree maps no legacy interrupt for the function
		// (drivers/pci/of.c, of_irq_parse_pci), as many boards' ports
		// print at every boot and work with MSI: the platform's
		// description, context rather than a failure.
		e.Kind, e.Action, e.Errno, e.Controller = PlatformFault, ActionIRQMap, atoi(body[len("of_irq_parse_pci: failed with rc="):]), ""
		return true
	case e.PCI != "" && strings.HasPrefix(body, "swiotlb buffer is full"):
		// kernel/dma/swiotlb.c: the bounce buffers of a device whose DMA
		// cannot reach all memory ran out.
		e.Kind, e.Action, e.Controller = PlatformFault, "dma-bounce", ""
		return true
	case strings.Contains(body, "config write to ") && strings.HasSuffix(body, "may corrupt adjacent RW1C bits"):
		a, _, _ := strings.Cut(body[strings.Index(body, "config write to ")+len("config write to "):], " ")
		if !isPCIAddr(a) {
			return false
		}
		e.Kind, e.Action, e.PCI = PlatformFault, "config-access", strings.ToLower(a)
		e.Driver, e.Device, e.Controller = "", "", ""
		return true
	}
	return false
}

// iommuFault reads an IOMMU fault line: the device it names ("Request
// device [02:00.0]", "device=01:00.0", or the line's own "nvme
// 0000:01:00.0:" prefix).
func iommuFault(e *Event, msg string) bool {
	dev := e.PCI
	for _, mark := range []string{"Request device [", "device="} {
		if i := strings.Index(msg, mark); i >= 0 {
			v := msg[i+len(mark):]
			if j := strings.IndexAny(v, "] "); j >= 0 {
				v = v[:j]
			}
			// 5.x and later print "[0x00:0x02.0]".
			v = strings.ReplaceAll(v, "0x", "")
			if len(v) == len("01:00.0") {
				v = "0000:" + v
			}
			if isPCIAddr(v) {
				dev = strings.ToLower(v)
			}
			break
		}
	}
	if dev == "" {
		return false
	}
	e.Kind, e.Action, e.PCI = PlatformFault, "iommu-fault", dev
	e.Controller, e.Disk = "", ""
	return true
}

// hostProbe reads the driver core's report of a PCIe host controller
// whose driver failed to probe (drivers/base/dd.c: since 6.3
// "qcom-pcie 1c08000.pcie: probe with driver qcom-pcie failed with error
// -22", before it "rockchip-pcie: probe of f8000000.pcie failed with error
// -110"): no drive behind it can be seen. A probe that gave up waiting for
// the link (-110, ETIMEDOUT, after "PCIe link training gen1 timeout!" or
// a PHY that never powered on) is the host's link down; any other error
// is the platform's (a device tree, clock, reset, regulator or PHY the
// driver could not get).
func hostProbe(e *Event, body string) bool {
	if (body == "Failed to initialize host" || body == "failed to initialize host") && hostController(e.Device) {
		// A DesignWare host's driver that gave up bringing the host up
		// without an error number (mainline's dw-pcie, Rockchip's vendor
		// rk-pcie: "dw-pcie fe180000.pcie: Failed to initialize host").
		e.Kind, e.Action = PlatformFault, ActionHostProbeFailed
		e.Driver, e.Device, e.PCI, e.Controller, e.Text = "", "", "", "", clip(body)
		return true
	}
	rest, ok := strings.CutPrefix(body, "probe with driver ")
	if ok && hostController(e.Device) {
		_, rest, ok = strings.Cut(rest, " failed with error ")
	} else if rest, ok = strings.CutPrefix(body, "probe of "); ok {
		var dev string
		dev, rest, ok = strings.Cut(rest, " failed with error ")
		ok = ok && hostController(dev)
	}
	if !ok {
		return false
	}
	n, err := strconv.Atoi(strings.TrimSpace(rest))
	if err != nil || n >= 0 || n < -4095 {
		return false
	}
	e.Driver, e.Device, e.PCI, e.Controller, e.Text = "", "", "", "", clip(body)
	if n == -110 {
		e.Kind, e.Action = LinkDown, ActionHostLinkDown
		return true
	}
	e.Kind, e.Action, e.Errno = PlatformFault, ActionHostProbeFailed, n
	return true
}

// hostLinkNeverUp reports a host controller's message that its link
// never trained: pcie-brcmstb.c's "link down", pcie-rockchip-host.c's
// "PCIe link training gen1 timeout!", and DesignWare's
// dw_pcie_wait_for_link, which printed "Phy link never came up" and since
// its 2025-26 rework says what the link state machine did: "Device not
// found" (Detect: nothing answered), "Device found, but not active"
// (Polling: a device that did not come up) or "Link failed to come up.
// LTSSM: STATE"; MediaTek's pcie-mediatek-gen3.c, "PCIe link down,
// current LTSSM state: detect.quiet (0x1)"; and Rockchip's vendor
// kernels' rk-pcie, "PCIe Link Fail, LTSSM is 0x3, hw_retries=1" (as
// boards' users post it).
func hostLinkNeverUp(body string) bool {
	switch body {
	case "link down", "Phy link never came up", "PCIe link training gen1 timeout!", "Device not found", "Device found, but not active":
		return true
	}
	return strings.HasPrefix(body, "Link failed to come up. LTSSM: ") || strings.HasPrefix(body, "PCIe Link Fail, LTSSM is ") ||
		strings.HasPrefix(body, "PCIe link down, current LTSSM state: ")
}

// hostController reports whether a device name is a platform device of a
// PCIe host controller ("1000110000.pcie", "a40000000.pcie", "fe150000.pcie"
// as device trees name them).
func hostController(dev string) bool {
	return strings.HasSuffix(dev, ".pcie") || strings.HasSuffix(dev, ".pci")
}

// hungTask reads the hung-task detector's report of a task named after an
// NVMe disk ("INFO: task jbd2/nvme0n1p3-:375 blocked for more than 122
// seconds.", kernel/hung_task.c): a task waiting on that disk's I/O.
// Tasks named after no NVMe disk are no event.
func hungTask(e *Event, msg string) bool {
	// "INFO: task blocked for more than": the task's name, and the space
	// before it, missing (a fuzzer's line); no event.
	end := strings.Index(msg, " blocked for more than ")
	if end < len("INFO: task ") {
		return false
	}
	name := msg[len("INFO: task "):end]
	// The name is cut at 15 bytes ("jbd2/nvme10n1p"): the disk is what
	// of it reads as one.
	d := re().reDisk.FindString(name)
	if d == "" {
		return false
	}
	e.Kind, e.Disk, e.Text = HungTask, d, clip(msg)
	e.Controller, e.Driver, e.Device = pathController(d), "", ""
	return true
}

// warnBanner reports whether msg is the line the kernel's __warn()
// (kernel/panic.c) prints when a WARN fires: "WARNING: CPU: 3 PID: 1 at
// FILE:LINE FUNC" before 6.19; "WARNING: FILE:LINE at FUNC, CPU#3:
// COMM/PID" since 28ea295f941e (6.19-rc1), or "WARNING: at FUNC, CPU#3:
// ..." without a file, which the oldest kernels printed too. A mail
// client may have wrapped the line after its "at".
func warnBanner(msg string) bool {
	rest, ok := strings.CutPrefix(msg, "WARNING: ")
	if !ok {
		return false
	}
	if strings.HasPrefix(rest, "CPU: ") {
		return true
	}
	if fn, ok := strings.CutPrefix(rest, "at "); ok {
		// A function and offset ("nvme_timeout+0x1a4/0x320"), or the
		// CPU after it: "WARNING: at least ..." is some driver's prose.
		return strings.Contains(fn, "+0x") || strings.Contains(fn, ", CPU#")
	}
	file, after, ok := strings.Cut(rest, " ")
	i := strings.LastIndexByte(file, ':')
	// FILE is a source file's path ("lib/refcount.c", "./include/...h").
	return ok && i > 0 && i < len(file)-1 && strings.Contains(file[:i], ".") && allDigits(file[i+1:]) && (after == "at" || strings.HasPrefix(after, "at "))
}

// dieLine reports whether msg is the first line of an arm64 or 32-bit
// ARM die() (arch/arm64/kernel/traps.c, arch/arm/kernel/traps.c):
// "Internal error: %s: %x [#%d] ...", the %s saying what went wrong:
// "Oops", "Oops - BUG", "Oops - BTI", or empty for a synchronous external
// abort on older kernels ("Internal error: : 96000010 [#1] SMP").
func dieLine(msg string) bool {
	rest, ok := strings.CutPrefix(msg, "Internal error: ")
	if !ok {
		return false
	}
	if strings.HasPrefix(rest, "Oops") {
		return true // its code and count may be wrapped onto the next line
	}
	_, after, ok := strings.Cut(rest, ": ")
	return ok && strings.Contains(after, " [#")
}

// hostInitAfterLink notes the host controllers whose link the log showed
// down or up, and reports a DesignWare host's "failed to initialize host"
// after its own link's line: the link's consequence, no failure of its
// own ("rk-pcie fe150000.pcie: PCIe Link Fail, LTSSM is 0x0" then
// "rk-pcie fe150000.pcie: failed to initialize host").
func (st *state) hostInitAfterLink(e *Event, msg string) bool {
	hostLink := e.Kind == LinkDown && e.Action == ActionHostLinkDown || e.Kind == HostLinkUp
	initFailed := e.Kind == PlatformFault && e.Action == ActionHostProbeFailed && e.Errno == 0
	if !hostLink && !initFailed {
		return false
	}
	head, _, _ := strings.Cut(msg, ": ")
	f := strings.Fields(head)
	if len(f) == 0 || !hostController(f[len(f)-1]) {
		return false
	}
	host := f[len(f)-1]
	if initFailed {
		return slices.Contains(st.hostLinks, host)
	}
	if !slices.Contains(st.hostLinks, host) && len(st.hostLinks) < MaxAddresses {
		st.hostLinks = append(st.hostLinks, host)
	}
	return false
}
