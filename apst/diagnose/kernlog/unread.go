package kernlog

import (
	"slices"
	"strings"
)

// looksLikeFailure reports whether a kernel message that is no event looks
// like an NVMe or PCIe failure message: it names nvme or a PCI function and
// holds a failure word ("controller is down", "timeout", "CSTS", "D3cold",
// "reset", "I/O error", "failed", "inaccessible", "AER"). A file system's
// complaint about a partition on an NVMe disk (EXT4-fs, BTRFS) and the
// detail lines of an AER report are not.
func looksLikeFailure(msg string) bool {
	if !strings.Contains(msg, "nvme") && !hasPCIAddrString(msg) {
		return false
	}
	if fileSystemLine(msg) || aerDetail(msg) || benign(msg) || stackLine(msg) || moduleList(msg) || userSpaceError(msg) || spdkLine(msg) || strings.Contains(msg, "EEH: ") || cliCommand(msg) ||
		zpoolRow(msg) ||
		strings.Contains(msg, ": RTKit: syslog message: ") {
		// POWER's EEH narrates its recovery of a frozen function ("PCI
		// 0018:01:00.0#10000: EEH: Invoking nvme->error_detected(IO
		// frozen)", the frames of its own "EEH: Call Trace:"): the nvme
		// driver's own lines of the same failure are read. Apple's
		// nvme-apple relays its controller's firmware log ("nvme-apple
		// 393cc0000.nvme: RTKit: syslog message: host_ans2.c:1564: cmd
		// parsing error for tag 12", drivers/soc/apple/rtkit.c): the
		// failed command's own line says what failed.
		return false
	}
	// A hung task's task line and a wrapped command line hold failure
	// words as names ("xfsaild/nvme1n1 D ...", "pcie_aspm=off"): split
	// into fields only for the few lines that would be listed unread.
	return failureWord(msg) && !taskLine(msg) && !paramList(msg)
}

// zpoolRow reports whether a message is a row of "zpool status" (ZFS's
// own tool, not the kernel): a device, its state and its read, write and
// checksum error counts, then a note ("nvme-LENSE30256GMSP34MEAT3TA_...
// DEGRADED 206 0 96 too many errors", posted zh-06).
func zpoolRow(msg string) bool {
	n := 0
	for f := range strings.FieldsSeq(msg) { // no slice: most lines end at the second word
		switch n++; {
		case n == 2 && !slices.Contains(zpoolStates, f):
			return false
		case n >= 3 && n <= 5 && strings.TrimRight(strings.TrimRight(f, "KMGT"), "0123456789.") != "":
			return false
		case n == 5:
			return true
		}
	}
	return false
}

// zpoolStates are the states "zpool status" gives a device.
var zpoolStates = []string{"ONLINE", "DEGRADED", "FAULTED", "OFFLINE", "UNAVAIL", "REMOVED"}

// stackLine reports whether a message is part of a stack dump (a frame
// "nvme_reset_work+0x44c/0x1870 [nvme]", "Workqueue: nvme-reset-wq ...",
// "Call Trace:") rather than a message of its own: the dump's first line
// says what happened.
func stackLine(msg string) bool {
	t := strings.TrimLeft(msg, " \t")
	switch {
	case strings.HasPrefix(t, "Workqueue: "), strings.HasPrefix(t, "Call Trace"), strings.HasPrefix(t, "? "), strings.HasPrefix(t, "[<"),
		strings.HasPrefix(t, "Modules linked in:"),
		// The faulting instruction: x86's "RIP: 0010:nvme_reset_work.cold+0x163/0x316
		// [nvme]", i386's "EIP: ", arm64's "pc : " and "lr : ".
		strings.HasPrefix(t, "RIP: "), strings.HasPrefix(t, "EIP: "), strings.HasPrefix(t, "pc : "), strings.HasPrefix(t, "lr : "):
		return true
	case len(t) > 3 && t[0] == '#' && isDigit(t[1]) && strings.Contains(t[:min(len(t), 5)], ": "):
		return true // a lock lockdep lists as held: "#0: ffff888111fe3138 ((wq_completion)nvme-reset-wq){+.+.}-{0:0}, at: ..."
	}
	// A frame: "SYMBOL+0xOFF/0xLEN", alone or after addresses in brackets.
	i := strings.Index(t, "+0x")
	return i > 0 && strings.Contains(t[i:], "/0x") && !strings.Contains(t[:i], ": ") || frameNames(t)
}

// frameNames reports whether a message is function names alone, as a
// call trace typed from a photo or cut of its offsets lists them, one or
// joined by a wrap ("nvme_alloc_queue nvme_reset_work"): each a C
// identifier with an underscore, none a word of a message.
func frameNames(t string) bool {
	n := 0
	for f := range strings.FieldsSeq(t) {
		if f == "?" {
			continue // the unwinder's mark of an unreliable frame
		}
		n++
		if !strings.Contains(f, "_") || strings.Trim(f, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") != "" {
			return false
		}
	}
	return n > 0
}

// taskLine reports whether a message is the task line of a hung-task or
// stall report (kernel/sched/core.c's sched_show_task): older kernels'
// "xfsaild/nvme1n1 D    0   289      2 0x80004000" (name, state, stack
// left, pid, parent, flags) or newer ones' "task:kworker/u16:3 state:D
// stack:0 pid:402 ppid:2 flags:0x00004000". The report's first line
// ("INFO: task ... blocked for more than") says what happened.
func taskLine(msg string) bool {
	t := strings.TrimLeft(msg, " \t")
	if strings.HasPrefix(t, "task:") && strings.Contains(t, " state:") && strings.Contains(t, " pid:") {
		return true
	}
	n := 0
	for f := range strings.FieldsSeq(t) {
		n++
		switch {
		case n == 2 && (len(f) != 1 || !strings.Contains("RSDTtXZPIK", f)),
			n >= 3 && n <= 5 && strings.Trim(f, "0123456789") != "",
			n == 6 && !strings.HasPrefix(f, "0x"),
			n > 6:
			return false
		}
	}
	return n == 6
}

// paramList reports whether a message is a list of kernel parameters
// alone, as a wrapped "Command line:" goes on ("biosdevname=0
// ipv6.disable=1 nvme_core.multipath=N"): words of letters, digits and
// ._- each, two or more of them with a value, and no comma (registers a
// message lists, "CSTS=0xffffffff, PCI_STATUS=0x10", are no such list).
func paramList(msg string) bool {
	values := 0
	for w := range strings.FieldsSeq(msg) {
		name, _, hasValue := strings.Cut(w, "=")
		if name == "" || strings.IndexByte(w, ',') >= 0 || strings.IndexFunc(name, notParamName) >= 0 {
			return false
		}
		if hasValue {
			values++
		}
	}
	return values >= 2
}

// notParamName reports whether r cannot be in a kernel parameter's name.
func notParamName(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '.' || r == '-')
}

// aerDetail reports whether a message is a detail line of an AER report
// ("device [144d:a80c] error status/mask=00000001/0000e000", "[ 0] RxErr",
// "AER:   TLP Header: ...", "AER:   Error of this Agent is reported
// first", drivers/pci/pcie/aer.c's note on the first of several errors
// logged together) or of a DPC containment event, whose "DPC:
// containment event" line is read ("DPC: RP PIO error detected", "DPC:
// RP PIO severity=...", drivers/pci/pcie/dpc.c).
func aerDetail(msg string) bool {
	_, _, body := splitDevice(msg)
	body = strings.TrimLeft(body, " ")
	if strings.HasPrefix(body, "DPC: RP PIO ") || strings.HasPrefix(body, "DPC: rp_pio_") {
		return true
	}
	body = strings.TrimPrefix(body, "AER: ")
	body = strings.TrimLeft(body, " ")
	return strings.HasPrefix(body, "device [") || strings.Contains(body, "error status/mask=") || strings.HasPrefix(body, "aer_status: ") ||
		strings.HasPrefix(body, "TLP Header") || strings.HasPrefix(body, "Error of this Agent") ||
		len(body) > 3 && body[0] == '[' && (isDigit(body[1]) || body[1] == ' ')
}

// hasPCIAddrString is hasPCIAddr of a string.
func hasPCIAddrString(s string) bool {
	for off := 0; ; {
		i := strings.IndexByte(s[off:], ':')
		if i < 0 {
			return false
		}
		i += off
		off = i + 1
		if i < 4 || i+7 >= len(s) || s[i+3] != ':' || s[i+6] != '.' || s[i+7] < '0' || s[i+7] > '7' {
			continue
		}
		if i+8 < len(s) && s[i+8] == '-' {
			// A device of another bus named after its PCI parent (a MEI
			// client: "ipts 0000:00:16.4-3e8d0870-...: ..."), no function.
			continue
		}
		if isHex(s[i-1]) && isHex(s[i-2]) && isHex(s[i-3]) && isHex(s[i-4]) &&
			isHex(s[i+1]) && isHex(s[i+2]) && isHex(s[i+4]) && isHex(s[i+5]) {
			return true
		}
	}
}

// moduleList reports whether a message is the rest of a crash dump's
// "Modules linked in:" list that a mail client wrapped onto lines of their
// own: module names alone ("xhci_hcd nvme xts vmx_crypto nvme_core
// dm_mirror"), some marked with taint flags ("vboxdrv(O)").
func moduleList(msg string) bool {
	n := 0
	for w := range strings.FieldsSeq(msg) { // no slice: this runs on many lines
		n++
		w, _, _ = strings.Cut(w, "(")
		if w == "" || strings.IndexFunc(w, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') }) >= 0 {
			return false
		}
	}
	return n >= 3
}

// strerrors are the C library's texts of the errors a user-space tool
// reports on an NVMe device or the fabrics' control file.
var strerrors = []string{"Bad address", "Connection timed out", "Connection refused", "No such device", "No such file or directory",
	"Input/output error", "Permission denied", "Invalid argument", "Device or resource busy", "Operation not permitted",
	"Operation not supported", "Inappropriate ioctl for device", "Resource temporarily unavailable", "Network is unreachable",
	"Connection reset by peer"}

// userSpaceError reports whether a message is a user-space tool's error,
// not the kernel's: it ends in the C library's text of an errno after a
// colon, as perror and nvme-cli print it ("Failed to write to
// /dev/nvme-fabrics: Bad address"); the kernel prints an errno as its
// number ("error -14", "(-19)"). Markdown's bold or code marks around the
// line are no part of it.
func userSpaceError(msg string) bool {
	t := strings.TrimRight(msg, " *`")
	if strings.HasPrefix(t, "Failed to write to /dev/nvme-fabrics: ") || strings.HasPrefix(t, "failed to add controller, error ") {
		// nvme-cli's connect and discover (nvme-cli 1.x and 2.x): what
		// follows the errno's text, a prompt or its next line that a
		// paste ran on, is no part of a kernel line either.
		return true
	}
	for _, e := range strerrors {
		if strings.HasSuffix(t, e) && strings.HasSuffix(t[:len(t)-len(e)], ": ") {
			return true
		}
	}
	return false
}

// cliVerbs are nvme-cli's commands a user runs on a failing drive and
// pastes with its log (nvme-cli's documentation: nvme-reset(1),
// nvme-subsystem-reset(1), nvme-smart-log(1), ...).
var cliVerbs = []string{"reset", "subsystem-reset", "ns-rescan", "list", "list-subsys", "list-ns", "list-ctrl", "id-ctrl", "id-ns",
	"smart-log", "error-log", "get-log", "fw-log", "self-test-log", "device-self-test", "get-feature", "set-feature", "format", "sanitize",
	"sanitize-log", "fw-download", "fw-commit", "connect", "connect-all", "disconnect", "disconnect-all", "discover", "show-regs",
	"get-property", "set-property", "admin-passthru", "io-passthru", "read", "write", "write-zeroes", "dsm", "flush", "verify",
	"create-ns", "delete-ns", "attach-ns", "detach-ns", "telemetry-log", "effects-log", "show-topology", "virt-mgmt"}

// shellTools are the programs whose command lines users paste with their
// logs, asking them for the drive's lines: the kernel's messages never
// start with one of them followed by an option or a pipe.
var shellTools = []string{"dmesg", "journalctl", "grep", "egrep", "zgrep", "tail", "head", "cat", "less", "lspci", "setpci", "smartctl", "udevadm"}

// cliCommand reports whether a message is a user's nvme-cli command line
// pasted with the log ("nvme reset /dev/nvme4", after a prompt ("$ ",
// "# ", "root@host:~# "), "sudo" or a shell trace's "+ "): its first word
// is the program, its second one of cliVerbs, where the kernel's nvme
// lines name a device ("nvme nvme0:", "nvme 0000:01:00.0:"); or the
// command that read the log (shellTools, with an option or a pipe).
func cliCommand(msg string) bool {
	n, prog := 0, false
	for w := range strings.FieldsSeq(msg) { // no slice: most lines end at the first word
		switch n++; {
		case prog:
			return slices.Contains(cliVerbs, w)
		case w == "nvme" || strings.HasSuffix(w, "/nvme"):
			prog = true
		case slices.Contains(shellTools, w):
			// A command that reads the log or the bus, with its options
			// or a pipe ("sudo dmesg -T | grep -iE 'nvme|pcie|reset'").
			return strings.Contains(msg, " | ") || strings.Contains(msg, " -")
		case n <= 3 && (w == "sudo" || w == "+" || strings.HasSuffix(w, "$") || strings.HasSuffix(w, "#")):
			// A prompt or sudo before the program.
		default:
			return false
		}
	}
	return false
}

// removeCommand reports whether a line is a shell's command that writes 1
// to a device's remove file in sysfs (drivers/pci/pci-sysfs.c's
// remove_store: "echo 1 > /sys/bus/pci/devices/0000:01:00.0/remove",
// "echo 1 | sudo tee /sys/class/pci_bus/0000:00/device/0000:00:00.0/remove",
// the colons escaped or not).
func removeCommand(line string) bool {
	t := strings.TrimRight(strings.TrimSpace(line), `'"`)
	if !strings.HasSuffix(t, "/remove") {
		return false // most lines, at once
	}
	i := strings.Index(t, "echo 1")
	j := strings.LastIndex(t, "/sys/")
	return i >= 0 && j > i && strings.IndexByte(t[j:], ' ') < 0
}
