package kernlog

import "strings"

// piBootloader is foreignKernel's name for the Raspberry Pi bootloader.
const piBootloader = "the Raspberry Pi bootloader"

// foreignKernel names the other operating system's kernel a message is
// from, when it is one whose NVMe lines users paste as Linux's, or "":
// the Raspberry Pi bootloader's log (Linux has not started);
// SPDK's user-space NVMe driver (spdkLine), whose drives the kernel's nvme
// driver does not drive;
// FreeBSD's nvme(4) ("nvme0: Resetting controller due to a timeout.",
// "nvme0: aborting outstanding i/o", "ABORTED - BY REQUEST (00/07)", its
// disks nvd0 and nda0) and VMware ESXi's vmkernel log ("cpu1:37205)nvme:
// NvmeCtrlr_Timeout:2555:..."), by the lines those kernels print.
func foreignKernel(msg string) string {
	if spdkLine(msg) {
		return "SPDK"
	}
	if m := afterSeconds(msg); strings.HasPrefix(m, "nvme: error ") || strings.HasPrefix(m, "Failed to open device: 'nvme'") {
		// The Raspberry Pi 4's and 5's bootloader (its EEPROM's log on
		// the UART or HDMI screen: "  37.63 nvme: error 8", "Failed to
		// open device: 'nvme'", rpi-eeprom's issues): Linux never ran.
		return piBootloader
	}
	// Both kernels' lines start with the device's bare name ("nvme0: ",
	// "nvd0: ") or the CPU ("cpu1:37205)"); Linux's nvme lines start
	// "nvme nvme0: " or "nvme 0000:...": most lines are passed over here.
	switch {
	case len(msg) < 6:
		return ""
	case msg[0] == 'c':
	case msg[0] == 'n' && (isDigit(msg[3]) || strings.HasPrefix(msg, "nvme") && isDigit(msg[4])):
	default:
		return ""
	}
	switch {
	case vmkernelLine(msg):
		return "VMware ESXi"
	case msg[0] == 'c':
		return ""
	case bsdDisk(msg):
		return "FreeBSD"
	case !bsdController(msg):
		// Linux's disk lines ("nvme0n1: p1 p2 p3", one a boot) end here.
		return ""
	}
	for _, m := range bsdLines {
		if strings.Contains(msg, m) {
			return "FreeBSD"
		}
	}
	return ""
}

// bsdLines are words of FreeBSD's nvme(4) messages that Linux's nvme lines
// never hold (sys/dev/nvme): its timeout recovery ("RECOVERY_START ... vs
// ...", "Controller in fatal status, resetting", "Completions present in
// output without an interrupt", "timeout with nothing complete,
// resetting", "Resetting controller due to a timeout and possible hot
// unplug.", "RECOVERY_WAITING"; older releases' "Missing interrupt" and
// "Aborting command due to a timeout."), the commands it fails or
// resubmits after a reset ("aborting outstanding i/o", "failing queued
// i/o", "resubmitting queued i/o"), their status as it prints it
// ("ABORTED - BY REQUEST (00/07)"), a completion it cannot place ("cpl
// does not map to outstanding cmd") and a controller that did not come
// ready ("controller ready did not become 1 within 30000 ms").
var bsdLines = []string{
	"Resetting controller due to a timeout", "aborting outstanding i/o", "aborting outstanding admin command", "ABORTED - BY REQUEST",
	"RECOVERY_START ", "RECOVERY_WAITING", "Controller in fatal status, resetting", "Completions present in output without an interrupt",
	"timeout with nothing complete", "Missing interrupt", "failing outstanding i/o", "failing queued i/o", "resubmitting queued i/o",
	"cpl does not map to outstanding cmd", "controller ready did not become ", "Aborting command due to a timeout",
}

// windowsLine reports whether a message is a Windows event of its NVMe
// driver, as Event Viewer copies it: stornvme's Event 129 ("Reset to
// device, \Device\RaidPort0, was issued.") or another event naming
// stornvme or a RaidPort device.
func windowsLine(msg string) bool {
	return strings.Contains(msg, "stornvme") || strings.Contains(msg, `\Device\RaidPort`)
}

// bsdDisk reports whether a message starts with FreeBSD's NVMe disk name
// ("nvd0: ", "nda0: ").
func bsdDisk(msg string) bool { return unitName(msg, "nvd") || unitName(msg, "nda") }

// bsdController reports whether a message starts with FreeBSD's name of
// an NVMe controller, "nvme0: " (Linux's lines name it so only in
// nvme_log_err_passthru's "nvme0: Admin Cmd(0x6), ...").
func bsdController(msg string) bool { return unitName(msg, "nvme") }

// unitName reports whether msg starts with a device's name, driver and
// unit number ("nvd0"), and a colon and a blank.
func unitName(msg, driver string) bool {
	rest, ok := strings.CutPrefix(msg, driver)
	if !ok {
		return false
	}
	digits, rest := digitsPrefix(rest)
	return digits != "" && strings.HasPrefix(rest, ": ")
}

// vmkernelLine reports whether a message is ESXi's vmkernel's, after its
// time: "cpu1:37205)" (the CPU and the world) before the text.
func vmkernelLine(msg string) bool {
	rest, ok := strings.CutPrefix(msg, "cpu")
	if !ok {
		return false
	}
	i := 0
	for i < len(rest) && isDigit(rest[i]) {
		i++
	}
	if i == 0 || i >= len(rest) || rest[i] != ':' {
		return false
	}
	j := i + 1
	for j < len(rest) && isDigit(rest[j]) {
		j++
	}
	return j > i+1 && j < len(rest) && rest[j] == ')'
}

// spdkLevels are the log levels SPDK's logging prints between asterisks
// (lib/log: SPDK_ERRLOG, SPDK_NOTICELOG, ...).
var spdkLevels = []string{": *ERROR*: ", ": *NOTICE*: ", ": *WARNING*: ", ": *INFO*: ", ": *DEBUG*: "}

// spdkLine reports whether a message is SPDK's, the user-space NVMe
// driver's and target's: its source file and line, the function and the
// level between asterisks ("nvme_ctrlr.c:2684:nvme_ctrlr_keep_alive:
// *ERROR*: Submitting Keep Alive failed", "nvme_qpair.c: 269:
// nvme_io_qpair_print_command: *NOTICE*: READ sqid:1 ..."), after its own
// time in brackets or a test harness's. Linux's nvme lines are never so.
func spdkLine(msg string) bool {
	head := msg[:min(len(msg), 160)]
	for _, lv := range spdkLevels {
		i := strings.Index(head, lv)
		if i < 0 {
			continue
		}
		// "file.c:" then the line (SPDK pads it to four places) and ":".
		c := strings.LastIndex(head[:i], ".c:")
		if c < 0 {
			return false
		}
		r := strings.TrimLeft(head[c+3:i], " ")
		n := 0
		for n < len(r) && isDigit(r[n]) {
			n++
		}
		return n > 0 && n < len(r) && r[n] == ':'
	}
	return false
}

// afterSeconds is a message after a leading time in seconds without
// brackets, as the Raspberry Pi bootloader writes it ("37.63 nvme: error
// 8"); the message itself when it has none.
func afterSeconds(msg string) string {
	n, rest, ok := strings.Cut(msg, " ")
	if !ok || !secondsWord(n) {
		return msg
	}
	return rest
}

// secondsWord reports whether s is a time in seconds with a fraction:
// "37.63", "6.02".
func secondsWord(s string) bool {
	i := strings.IndexByte(s, '.')
	return i > 0 && i < len(s)-1 && len(s) <= 12 && allDigits(s[:i]) && allDigits(s[i+1:])
}
