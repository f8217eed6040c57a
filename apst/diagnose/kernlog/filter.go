package kernlog

import (
	"bytes"
	"strings"
)

// keywords are the words one of which every event line holds: a cheap
// test that lets most lines of a large log skip the parsing.
var keywords = []string{
	"nvme", "AER", "PCIe Bus Error", "power state", "Slot(", "slot(", "Linux version ", "ommand line: ",
	"PM: ", "sleep state", "ASPM", "nobody cared", "Disabling IRQ",
	"DMAR: [", "IO_PAGE_FAULT", "WARNING: ", "BUG", "Internal error: Oops", "Oops: ", "protection fault", "RW1C", "Restarting tasks", "OOM killer ",
	".pcie: link down", ".pci: link down", ".pcie: link up, ", ": Phy link never came up", ": PCIe link training gen1 timeout",
	": Device not found", ": Device found, but not active", ": Link failed to come up", ".pcie: Failed to initialize host", ".pcie: failed to initialize host",
	".pcie: probe with driver ", ".pci: probe with driver ", ".pcie failed with error", ".pci failed with error",
	"DMI: ", "Hardware name: ", "Hypervisor detected: ", "paravirtualized kernel on ", "INFO: task ",
	"Machine model: ", "[Hardware Error]: ", "Tainted: ", "Comm: ", "EEH: Frozen PHB", "EEH: Detected PCI bus error", "_OSC: platform retains control", "Freezing ", "Filesystems sync: ", "printk: Suspending console", "non-boot CPUs", "EC: interrupt ", "EC: event ", "ACPI: Low-level resume", "crng reseeded on system resumption", "/remove",
}

// hasKeyword reports whether a message holds one of keywords.
func hasKeyword(s string) bool {
	for _, k := range keywords {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}

// interestingBytes is hasKeyword on a raw line, before its time stamp is
// parsed, or a journal JSON record (whose MESSAGE may be an array of
// bytes).
func interestingBytes(b []byte) bool {
	kw, _ := scanLine(b)
	return kw || jsonLine(b)
}

// scanLine finds in a raw line a keyword and a PCI address. It looks for
// each keyword only at the places of one of its rarer bytes ("nvme",
// "Linux version", "Hypervisor detected: " and "paravirtualized kernel on "
// at each 'v', "AER", "Disabling IRQ", "DMAR: [", "RW1C"
// and "Restarting tasks" at each 'R', "BUG", "WARNING: " (or "WARNING:"
// ending the line, where a mail client broke a 6.19 warning's banner) and
// "IO_PAGE_FAULT" at each 'G', "PM: ", "ASPM" and "OOM killer " at each 'M', "power
// state" at each 'w', the freezer's "Freezing " at each 'z', "non-boot
// CPUs" at each 'U', and those that end in a colon, a host controller's
// "1000110000.pcie: link down", "Oops: ", "DMI: ", "Hardware name: " and
// "Machine model: ", x86's oops header
// ("general protection fault, ...: 0000 [#1]") among them, and PCI
// addresses, at the colons): eight vectorised IndexByte passes over the line, where a search
// for each keyword would take a dozen. The lines of
// a PCI function that report a failure ("PCIe Bus Error", "Unable to
// change power state") need no keyword: Read parses a line with a PCI
// address and a failure word anyway (failureLine). pci is set only when
// no keyword is found.
func scanLine(b []byte) (keyword, pci bool) {
	if anchored(b, 'v', func(i int) bool {
		return before(b, i, "n") && at(b, i+1, "me") || before(b, i, "Linux ") && at(b, i, "version ") || otherDiskDev(b, i) ||
			before(b, i, "de") && at(b, i, "vice inaccessible") ||
			before(b, i, "Hyper") && at(b, i, "visor detected: ") || before(b, i, "para") && at(b, i, "virtualized kernel on ") ||
			before(b, i, "/remo") && at(b, i+1, "e") // a shell's "echo 1 > /sys/bus/pci/devices/.../remove" (Log.RemoveRequest)
	}) || anchored(b, 'R', func(i int) bool {
		return before(b, i, "AE") || before(b, i, "Disabling I") && at(b, i, "RQ") ||
			before(b, i, "DMA") && at(b, i+1, ": [") || at(b, i, "RW1C") || at(b, i, "Restarting tasks")
	}) || anchored(b, 'G', func(i int) bool {
		return before(b, i, "BU") || before(b, i, "WARNIN") && at(b, i+1, ":") && (i+2 == len(b) || b[i+2] == ' ' || b[i+2] == '\t' || b[i+2] == '\r') || before(b, i, "IO_PA") && at(b, i+1, "E_FAULT")
	}) || anchored(b, 'M', func(i int) bool {
		return before(b, i, "P") && (at(b, i+1, ": ") || before(b, i-1, "AS")) || before(b, i, "OO") && at(b, i+1, " killer ")
	}) || anchored(b, 'w', func(i int) bool {
		// "power state", which hasKeyword finds too: the PCI core's
		// resume failure cut before its "device inaccessible".
		return before(b, i, "po") && at(b, i, "wer state")
	}) || anchored(b, 'z', func(i int) bool {
		// The freezer's "Freezing user space processes" and "Freezing
		// remaining freezable tasks" of every system sleep.
		return before(b, i, "Free") && at(b, i, "zing ")
	}) || anchored(b, 'U', func(i int) bool {
		// The CPU hotplug of S3 and hibernation: "Disabling non-boot CPUs
		// ...", "Enabling non-boot CPUs ...".
		return before(b, i, "non-boot CP") && at(b, i+1, "s")
	}) {
		return true, false
	}
	keyword = anchored(b, ':', func(i int) bool {
		if !pci && pciAddrAt(b, i) {
			pci = true
			return false
		}
		if i == 0 {
			return false
		}
		if i+9 <= len(b) && b[i+1] == ' ' && b[i+6] == ' ' && b[i+7] == '[' && b[i+8] == '#' {
			// x86's die() header, "<what>: %04lx [#%d]": "general
			// protection fault, probably for non-canonical address
			// 0x6b6b6b6b6b6b6b6b: 0000 [#1] SMP PTI".
			return true
		}
		switch b[i-1] {
		case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			// Most such colons are a time's or an address's, with a digit
			// after them: no call for those.
			if i+2 < len(b) && b[i+1] == ' ' && otherDiskColon(b, i) {
				return true
			}
		case 'e':
			return before(b, i, "ommand line") && at(b, i+1, " ") || before(b, i, ".pcie") && hostLinkWords(b[i+1:]) ||
				before(b, i, "Hardware name") && at(b, i+1, " ") ||
				before(b, i, "pcie") && at(b, i+1, " probe of ") // a host driver's probe failure before 6.3
		case 'i':
			return before(b, i, ".pci") && hostLinkWords(b[i+1:])
		case ')':
			return bytes.Contains(b[max(0, i-12):i], []byte("Slot(")) || bytes.Contains(b[max(0, i-12):i], []byte("slot("))
		case 'I':
			return before(b, i, "ACPI") && (bytes.Contains(b[i:], []byte("sleep state")) || at(b, i+1, " Low-level resume")) || before(b, i, "DMI") && at(b, i+1, " ")
		case 'C':
			return before(b, i, "EC") && (at(b, i+1, " interrupt ") || at(b, i+1, " event ")) || // "ACPI: EC: interrupt blocked", "event unblocked"
				before(b, i, "_OSC") && at(b, i+1, " platform retains control") // the firmware's _OSC that failed (Log.OSC)
		case 'k':
			return before(b, i, "printk") && at(b, i+1, " Suspending console")
		case 'c':
			return before(b, i, "Filesystems sync") && at(b, i+1, " ")
		case 'm':
			return before(b, i, "random") && at(b, i+1, " crng reseeded on system resumption") ||
				before(b, i, " Comm") && bytes.Contains(b[i:], []byte("ainted ")) // a dump's "CPU: 3 PID: 1 Comm: ... Not tainted 6.1.0 #1"
		case 'd':
			return before(b, i, "Tainted") && at(b, i+1, " ") // a dump's or a hung task's "Tainted: G W 6.13.2 #1"
		case 'l':
			return before(b, i, "Machine model") && at(b, i+1, " ")
		case 'r':
			return before(b, i, "Internal error") && (at(b, i, ": Oops") || bytes.Contains(b[i:], []byte(" [#")))
		case 's':
			return before(b, i, "Oops")
		case 'O':
			return before(b, i, "INFO") && at(b, i+1, " task ")
		case 'H':
			return before(b, i, "EEH") && (at(b, i+1, " Frozen PHB") || at(b, i+1, " Detected PCI bus error")) // POWER's EEH (Log.EEH)
		case ']':
			return before(b, i, "[Hardware Error]") // a firmware-first CPER record's line (ghesLine)
		}
		// The driver core's report before 6.3 of a host controller's
		// failed probe under a driver name of its own ("mtk-pcie-gen3:
		// probe of 11280000.pcie failed with error -110").
		return i+2 < len(b) && (b[i+2] == 'n' && at(b, i+1, " nobody cared") ||
			b[i+2] == 'p' && at(b, i+1, " probe of ") && (bytes.Contains(b[i:], []byte(".pcie failed with error")) || bytes.Contains(b[i:], []byte(".pci failed with error"))))
	})
	return keyword, pci && !keyword
}

// hostLinkWords reports whether the message after a host controller's
// name ("brcm-pcie 1000110000.pcie:") says its link never trained, or
// the speed it trained at (MediaTek's "PCIe link down, current LTSSM
// state: ..." also where a mail wrapped it after "current").
func hostLinkWords(b []byte) bool {
	return at(b, 0, " link down") || at(b, 0, " link up, ") || at(b, 0, " Phy link never came up") || at(b, 0, " PCIe link training gen1 timeout") ||
		at(b, 0, " Device not found") || at(b, 0, " Device found, but not active") || at(b, 0, " Link failed to come up") ||
		at(b, 0, " probe with driver ") || at(b, 0, " PCIe Link Fail, LTSSM is ") || at(b, 0, " PCIe link down, current") ||
		at(b, 0, " Failed to initialize host") || at(b, 0, " failed to initialize host")
}

// anchored calls found at each index of c in b until it returns true.
func anchored(b []byte, c byte, found func(i int) bool) bool {
	for off := 0; off < len(b); {
		i := bytes.IndexByte(b[off:], c)
		if i < 0 {
			return false
		}
		i += off
		if found(i) {
			return true
		}
		off = i + 1
	}
	return false
}

// at reports whether b holds s at i; before whether s ends right before i.
func at(b []byte, i int, s string) bool {
	return i >= 0 && len(b)-i >= len(s) && string(b[i:i+len(s)]) == s
}

func before(b []byte, i int, s string) bool {
	return i >= len(s) && i <= len(b) && string(b[i-len(s):i]) == s
}

// jsonLine reports whether a raw line is a JSON object.
func jsonLine(b []byte) bool { return firstByte(b) == '{' }

// specialLine reports whether a raw line is a journal JSON record or one of
// journalctl's own "-- Boot ... --" lines: lines Read reads though they
// hold no keyword (a record's MESSAGE may be an array of bytes, and its
// _BOOT_ID tells a new boot). A log shipper's record, whose message is a
// string, passes the filter as a text line does.
func specialLine(b []byte) bool {
	switch firstByte(b) {
	case '{':
		return journalNamed(b)
	case '-':
		return bytes.Contains(b, []byte("-- "))
	}
	return false
}

// firstByte is the first byte of a line after its indentation and quoting.
func firstByte(b []byte) byte {
	for i := 0; i < len(b) && i < 64; i++ {
		if !quoteByte(b[i]) {
			return b[i]
		}
	}
	return 0
}

// hasPCIAddr reports whether b holds a PCI address ("0000:04:00.0",
// "10000:e1:00.0").
func hasPCIAddr(b []byte) bool {
	return anchored(b, ':', func(i int) bool { return pciAddrAt(b, i) })
}

// pciAddrAt reports whether the colon at i is the first of a PCI address
// "dddd:bb:dd.f".
func pciAddrAt(b []byte, i int) bool {
	if i < 4 || i+7 >= len(b) || b[i+3] != ':' || b[i+6] != '.' || b[i+7] < '0' || b[i+7] > '7' {
		return false
	}
	return isHex(b[i-1]) && isHex(b[i-2]) && isHex(b[i-3]) && isHex(b[i-4]) &&
		isHex(b[i+1]) && isHex(b[i+2]) && isHex(b[i+4]) && isHex(b[i+5])
}

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// failureLine reports whether a raw line that names a PCI function holds a
// failure word: a line Read should account for (Log.Unread) even when it
// is no event.
func failureLine(b []byte) bool {
	return hasPCIAddr(b) && pciFailure(b)
}

// pciFailure reports whether a line that names a PCI function holds one of
// pciFailureWords after its first colon.
func pciFailure(b []byte) bool {
	f, _ := pciLine(b)
	return f
}

// pciLine is pciFailure, and for the PCI core's line of a function's ID
// and class when the class is not an NVMe controller's (drivers/pci/
// probe.c: "pci 0000:25:00.0: [8086:2723] type 00 class 0x028000", a
// bridge's "type 01"), the function as written: one that is not the drive
// (Read lowers its case). Such a line is no event, and is read here from
// the raw line, not parsed as a logical line is: a boot has one for each
// function.
func pciLine(b []byte) (failure bool, other []byte) {
	if j := bytes.Index(b[:min(len(b), 100)], []byte("pci ")); j >= 0 && (j == 0 || b[j-1] == ' ') && pciAddrAt(b, j+4+bytes.IndexByte(b[j+4:min(len(b), j+10)], ':')) {
		// The PCI core's enumeration ("pci 0000:04:00.0: reg 0x10: ...",
		// a good part of a boot's lines) reports a failure to read a
		// function only so; its line naming an NVMe function's ID (class
		// 0x0108, drivers/pci/probe.c) is read too, and a bridge's buses
		// ("PCI bridge to [bus 01]", drivers/pci/setup-bus.c), which say
		// which port is above which function.
		rest := b[j+4:]
		if end := j + 4 + bytes.IndexByte(b[j+4:min(len(b), j+10)], ':') + 8; bytes.HasPrefix(b[end:], []byte(": [")) && bytes.Contains(rest, []byte("] type 0")) &&
			bytes.Contains(rest, []byte(" class 0x")) && !bytes.Contains(rest, []byte(" class 0x0108")) && !bytes.Contains(rest, []byte("[106b:200")) {
			return false, b[j+4 : end]
		}
		return bytes.Contains(rest, []byte("inaccessible")) || bytes.Contains(rest, []byte("] type 00 class 0x0108")) ||
			bytes.Contains(rest, []byte("[106b:200")) && bytes.Contains(rest, []byte("] type 00 class 0x0180")) || // Apple's (appleANS)
			bytes.Contains(rest, []byte(": PCI bridge to [bus ")) || bytes.Contains(rest, []byte(": error updating (")) ||
			// A BAR assigned or not (parseBAR: an NVMe function's
			// registers without an address), also where a mail wrapped
			// the line before its end ("BAR 0 [mem size 0x00004000" +
			// "64bit]: failed to assign": a size without an address is
			// a BAR not assigned), or right after its "[mem".
			bytes.Contains(rest, []byte(": BAR ")) && (bytes.Contains(rest, []byte("assign")) || bytes.Contains(rest, []byte("[mem size")) || bytes.Contains(rest, []byte("fail")) ||
				bytes.HasSuffix(bytes.TrimRight(rest, " \t\r"), []byte("[mem"))), nil
	}
	if bytes.Contains(b, []byte("pcieport ")) && bytes.Contains(b, []byte(": PCI bridge to [bus ")) {
		return true, nil // a bound port's buses, as the PCI core's line above
	}
	if bytes.Contains(b, []byte("vfio-pci ")) || bytes.Contains(b, []byte("pciback ")) || bytes.Contains(b, []byte("pci-stub ")) {
		return true, nil // a function handed to a virtual machine (Log.Passthrough)
	}
	i := bytes.IndexByte(b, ':')
	if i >= 0 {
		b = b[i:]
	}
	for _, w := range pciFailureWords {
		if bytes.Contains(b, w) {
			return !benignBytes(b), nil
		}
	}
	return timeWord(b) && !benignBytes(b), nil
}

// pciFailureWords are the failure words failureLine looks for in a line
// that names a PCI function but no keyword (an AER, ASPM, CSTS, NVMe or
// "device inaccessible" line is a keyword line anyway): "failed", "I/O
// error", "reset", "inaccessible", a Downstream Port Containment ("DPC:
// "), "change power state" (the PCI core's resume failure, whose
// "inaccessible" a mail client may have wrapped to the next line), a link
// that did not train ("Data Link Layer Link Active not set in 1000
// msec"), a device that never became ready ("giving up"), older pciehp's
// slot events, and the "timeout" timeWord finds. They bring the PCI core's "PCIe Bus Error" and
// "can't change power state ... (config space inaccessible)" lines to the
// parser.
var pciFailureWords = [][]byte{
	[]byte("fail"), []byte("rror"), []byte("reset"), []byte("inaccessible"), []byte("DPC: "), []byte("change power state"),
	[]byte("Link Active not set"), []byte("giving up"), []byte("not responding"), []byte("HC died"),
	// pciehp before about 4.19: "Card not present on Slot(1)", "Power
	// fault on slot 1" (no "Slot(N): " a keyword finds).
	[]byte("not present on Slot("), []byte("Power fault on slot "),
	// NVIDIA's driver when its GPU stopped answering ("NVRM: GPU
	// 0000:01:00.0: GPU has fallen off the bus."): another device's
	// failure, which a port's errors beside it may be.
	[]byte("fallen off the bus"),
}

// timeWord reports whether b holds "timeout" or "timed out".
func timeWord(b []byte) bool {
	for off := 0; ; {
		i := bytes.Index(b[off:], []byte("time"))
		if i < 0 {
			return false
		}
		i += off + len("time")
		if bytes.HasPrefix(b[i:], []byte("out")) || bytes.HasPrefix(b[i:], []byte("d out")) {
			return true
		}
		off = i
	}
}

var benignBytesList = func() [][]byte {
	out := make([][]byte, len(benignPhrases))
	for i, w := range benignPhrases {
		out[i] = []byte(w)
	}
	return out
}()

func benignBytes(b []byte) bool {
	for _, p := range benignBytesList {
		if bytes.Contains(b, p) {
			return true
		}
	}
	return false
}

// continuationWords start the second physical line of a message wrapped by
// a mail or bug tracker; Relevant keeps such lines.
var continuationWords = []string{
	"CSTS=", "PCI_STATUS", "device inaccessible", "(Receiver ID)", "(Transmitter ID)", "default_ps_max_latency_us",
	"pcie_aspm", "to D0", "config space inaccessible",
}

// continuationBytes reports whether a raw line starts (after its quoting)
// with one of continuationWords.
func continuationBytes(b []byte) bool {
	c := cleanBytes(b)
	for _, w := range continuationWords {
		if len(c) >= len(w) && string(c[:len(w)]) == w {
			return true
		}
	}
	return false
}

// passthroughDriver reports whether a driver hands the functions bound to
// it to a virtual machine or user space (Log.Passthrough).
func passthroughDriver(d string) bool {
	return d == "vfio-pci" || d == "pciback" || d == "pci-stub"
}
