package kernlog

import (
	"strconv"
	"strings"
)

// parseHMB reads nvme-pci's host memory buffer lines: "allocated 64 MiB
// host memory buffer (16 segments).", "failed to allocate host memory
// buffer.", "failed to set host mem (err 8578, flags 0x1).", "min host
// memory (64 MiB) above limit (32 MiB).".
func parseHMB(e *Event, _, body string) bool {
	if !strings.Contains(body, "host mem") || e.Controller == "" && e.PCI == "" {
		return false
	}
	e.Kind = HostMemoryBuffer
	if m := re().reHMBSize.FindStringSubmatch(body); m != nil {
		mib, _ := strconv.ParseInt(m[1], 10, 64)
		e.Size = mib << 20
	}
	if strings.Contains(body, "failed to set") {
		if m := re().reHMBErr.FindStringSubmatch(body); m != nil {
			e.Status = atoi(m[1])
		}
	}
	return true
}

// driverError reads any other line of nvme-core or nvme-pci that names a
// controller, a namespace or an NVMe function and holds a failure word, so
// that such a line is an event (DriverError) rather than dropped.
func driverError(e *Event, body string) bool {
	for _, r := range resultLines {
		if v, ok := strings.CutPrefix(body, r.prefix); ok && nvmeLine(e) {
			errno, status := parseResult(strings.TrimSuffix(v, ")"))
			if errno != 0 && r.errno || status != 0 && r.status {
				e.Kind, e.Errno, e.Status = DriverError, errno, status
				return true
			}
			return false
		}
	}
	if !nvmeLine(e) || !failureWord(body) || benign(body) || aerDetail(body) {
		return false
	}
	e.Kind = DriverError
	if m := re().reStatus.FindStringSubmatch(body); m != nil {
		e.SCT, e.SC, e.HasSC = int(hex(m[1])), int(hex(m[2])), true
	}
	e.Errno, e.Status = stepResult(body)
	return true
}

// resultLines are the lines of nvme-core that give a step's result, "(N)"
// as stepResult reads it, with no failure word, and which results are a
// failure.
var resultLines = []struct {
	prefix        string
	errno, status bool
}{
	// nvme_configure_timestamp, at every start and reset: an errno is a
	// controller that did not answer, an NVMe status a drive without the
	// feature (no failure).
	{"could not set timestamp (", true, false},
	// nvme_set_queue_count prints a status only: a controller that
	// answered Set Features Number of Queues so, as a degraded one does;
	// the kernel goes on with its admin queue alone.
	{"Could not set queue count (", false, true},
}

// stepResult reads the result nvme-core gives a step that failed, at the
// end of its line: "Identify Descriptors failed (8194)", "(-4)", or 5.x's
// "(nsid=1, status=0x2002)". A negative number is an errno (the command
// got no answer); a positive one the NVMe status the drive answered with.
func stepResult(body string) (errno, status int) {
	i := strings.LastIndex(body, "failed (")
	if i < 0 || !strings.HasSuffix(body, ")") {
		return 0, 0
	}
	return parseResult(body[i+len("failed (") : len(body)-1])
}

// parseResult reads a step's result inside its parentheses: "-4", "8194"
// or "nsid=1, status=0x2002"; zeros when it is none of them.
func parseResult(in string) (errno, status int) {
	if _, st, ok := strings.Cut(in, "status=0x"); ok {
		v, err := strconv.ParseUint(st, 16, 16)
		if err != nil {
			return 0, 0
		}
		return 0, int(v)
	}
	v, err := strconv.Atoi(in)
	switch {
	case err != nil || v < -4095 || v > 0xffff:
		return 0, 0
	case v < 0:
		return v, 0
	}
	return 0, v
}

// nvmeLine reports whether a message's prefix makes it nvme-core's or
// nvme-pci's: "nvme nvme0:", "nvme 0000:01:00.0:", "nvme0:" (an admin
// command's error), "nvme0n1:", "block nvme0n1:". It is not inlined (go:noinline): a copy at each of
// its four callers took 1.9 KB of the page's app-log.wasm.
//
//go:noinline
func nvmeLine(e *Event) bool {
	return e.Driver == "nvme" && (e.Controller != "" || e.PCI != "") ||
		e.Driver == "" && e.Device != "" && e.Device == e.Controller ||
		(e.Driver == "" || e.Driver == "block") && e.Disk != ""
}

// probeLine reports whether the body of an nvme line is one of the lines
// a controller's probe prints, which report no failure: "8/0/0
// default/read/poll queues", "enabling device (0000 -> 0002)", "Shutdown
// timeout set to 10 seconds", a namespace's partition scan ("p1 p2").
func probeLine(body string) bool {
	switch {
	case strings.HasSuffix(body, " default/read/poll queues"), strings.HasPrefix(body, "enabling device ("),
		strings.HasPrefix(body, "Shutdown timeout set to"), strings.HasPrefix(body, "D3 entry latency set to"),
		strings.HasPrefix(body, "missing or invalid SUBNQN"), strings.HasPrefix(body, "Ignoring bogus"),
		strings.HasPrefix(body, "platform quirk:"), body == "" || body[0] == 'p' && len(body) > 1 && isDigit(body[1]):
		return true
	}
	return false
}

// failureWords are the words that make a line of the NVMe driver or the
// PCI core a failure report; each stands for the words it is part of
// ("fail", "Fail", "FAIL": failed, Failure, FAILED, but not "available"
// or an e-mail address; "rror": error, I/O error; "isabl": disabling;
// "eset": reset, Reset; "ESET": RESETTING; "nable to": unable to;
// "identifiers changed": a namespace that came back as another after a
// resume; "Duplicate": a controller or namespace that claims another's
// identity, which the driver rejects, and "duplicate IDs": a namespace whose
// NGUID or EUI-64 another has ("globally duplicate IDs for nsid 1"), which
// it does not create; "duplicate subnqn": a controller
// ignored because another has its subsystem NQN; "not created": nvme-pci's
// "IO queues not created", a controller brought up with its admin queue
// alone, whose namespaces are then removed; "not added": 6.15's and
// 6.16-rc's "inconsistent AWUPF, controller not added (0/7).", a
// controller the driver refused to bring up).
var failureWords = []string{
	"fail", "Fail", "FAIL", "rror", "imeout", "timed out", "bort", "not ready", "incomplete", "Removing", "isabl", "eset", "efused",
	"down", "inaccessible", "lost", "nable to", "can't", "cannot", "CSTS", "D3cold", "AER",
	"ESET", "identifiers changed", "Duplicate", "duplicate subnqn", "duplicate IDs", "rejecting", "not created", "not added",
	// A host controller that stopped answering ("xHCI host controller not
	// responding, assume dead", "HC died; cleaning up": xhci's own words
	// for its death after a resume, posted zl-04).
	"not responding", "HC died",
	// NVIDIA's driver when its GPU stopped answering ("NVRM: GPU
	// 0000:01:00.0: GPU has fallen off the bus.", posted m-12).
	"fallen off the bus",
	// Native multipath with no live controller behind a namespace
	// ("block nvme0n1: no usable path - requeuing I/O",
	// drivers/nvme/host/multipath.c): the I/O waits because every path
	// is resetting, connecting or gone.
	"no usable path",
}

// failureWord reports whether s holds one of failureWords.
func failureWord(s string) bool {
	for _, w := range failureWords {
		if strings.Contains(s, w) && (w != "rror" || errorWord(s)) {
			return true
		}
	}
	return false
}

// benignPhrases are failure words in lines that report no failure: a
// drive's shutdown time, the power states a function supports, AER being
// set up, a reset that completed, the PCI core still waiting for a
// function ("not ready 1023ms after resume; waiting"), errors injected on
// purpose (aer_inject's "Injecting errors ... into device"), printk's
// rate limit ("nvme_log_error: 337 callbacks suppressed", the lines left
// out are counted, not failures of their own), mount(8)'s own complaint
// pasted among the kernel's lines ("... dmesg(1) may have more
// information after failed mount system call"), the PCI core's resource
// assignment ("BAR 13: failed to assign [io  size 0x1000]", since 6.8
// "BAR 13 [io  size 0x1000]: failed to assign": of an NVMe function's
// registers, parseBAR reads it).
var benignPhrases = []string{
	"timeout set to", "PME# supported", "AER: enabled with", "AER enabled with", "reset done", "; waiting", "aer_inject: ", "callbacks suppressed",
	"dmesg(1) may have more information", "failed to assign [", "no space for [", "]: failed to assign", "]: can't assign; no space",
	// What nvme says at every probe or after a tool's command, no failure
	// of the drive's: pci.c's queue depth for the Apple controller of
	// some MacBooks ("detected Apple NVMe controller, set queue depth=2
	// to work around controller resets"), core.c's notes that a firmware
	// image waits for a reset to be activated and that a passthrough
	// command changed the controller's capabilities.
	"detected Apple NVMe controller", "Firmware is activated after next", "capabilities changed, reset may be required",
	// The PCI core's notes at a port's probe and a slot's sysfs request:
	// dpc.c's "DPC: error containment capabilities: Int Msg #0, RPExt+
	// ..." (every boot of a machine whose ports have DPC), pciehp's
	// "Slot(1): Already disabled".
	"error containment capabilities", "): Already disabled",
	// Xen's pciback announcing the reset it asks for before a guest gets
	// the function (drivers/xen/xen-pciback/pci_stub.c): a reset that
	// failed says so ("not ready 65535ms after FLR; giving up").
	"resetting (FLR, D3, etc) the device",
	// 4.14 to 5.15 core.c's nvme_configure_directives on a drive with
	// fewer write streams than it would use: "too few streams (2)
	// available".
	"too few streams",
	// The PCI core's read of a function's Vital Product Data that failed
	// (drivers/pci/vpd.c: "VPD access failed.  This is likely a firmware
	// bug on this device.  Contact the card vendor for a firmware
	// update"): a program read the vpd file in sysfs (lspci -vv, a
	// hardware inventory), which NVMe drives rarely back; no failure of
	// the drive's (a Layerscape board's log, posted zo-02).
	"VPD access failed",
	// The firmware loader's notice that an optional file is missing
	// ("i915 0000:00:02.0: Direct firmware load for i915/kbl_dmc_ver1_04.bin
	// failed with error -2", drivers/base/firmware_loader; the driver
	// says when it needed it) and ath10k's interrupt mode at probe
	// ("pci irq msi oper_irq_mode 2 irq_mode 0 reset_mode 0"): lines of
	// healthy boots (hw-probe dmesg, posted zt-08, zt-10, zt-11).
	"Direct firmware load for ", "oper_irq_mode ",
}

func benign(s string) bool {
	if strings.HasSuffix(s, ": resetting") || s == "resetting" {
		// The PCI core's announcement of a function reset software asked
		// for (a sysfs reset, vfio-pci before it hands the device to a
		// guest), paired with its "reset done": a reset that failed says
		// so ("not ready 65535ms after FLR; giving up").
		return true
	}
	for _, p := range benignPhrases {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// errorWord reports whether s holds "error" or "Error", failureWords'
// "rror" as a word's end and not inside another word (md's "redirecting
// sector 3912 to other mirror: nvme7n1p2", a RAID's word for a copy,
// wrapped onto a line of its own in posted log j-06).
func errorWord(s string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], "rror")
		if j < 0 {
			return false
		}
		j += i
		if j > 0 && (s[j-1] == 'e' || s[j-1] == 'E') {
			return true
		}
		i = j + 4
	}
}
