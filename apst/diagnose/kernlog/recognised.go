package kernlog

import "bytes"

// logStart reports whether a cleaned physical line starts as a line of a
// kernel log does, which tells a log from other text (state.stamped):
// stampedBytes, except that a line of JSON counts only as a journal record
// (journalctl -o json: it has a MESSAGE field or a journal time; an
// nvme-cli or smartctl report in JSON, a tool's own output, does not), and
// a start of digits and a comma only as a whole /dev/kmsg prefix
// ("6,1234,5678901,-;"), not blkparse's device ("259,0    0        1
// 0.000000000  4242  Q   R 0 + 8 [fio]").
func logStart(c []byte) bool {
	switch {
	case !stampedBytes(c):
		return false
	case c[0] == '{':
		return journalLike(c)
	case kmsgLike(c):
		_, ok := kmsgRecord(string(c[:min(len(c), 96)]))
		return ok || syslogLike(c) || unixLike(c) || datedLike(c)
	}
	return true
}

// journalFieldNames are the fields of which one tells a journal record;
// journalctl -o json writes __CURSOR and __REALTIME_TIMESTAMP first.
var journalFieldNames = [...][]byte{[]byte(`"__CURSOR"`), []byte(`"__REALTIME_TIMESTAMP"`), []byte(`"MESSAGE"`), []byte(`"_BOOT_ID"`), []byte(`"__MONOTONIC_TIMESTAMP"`)}

// journalNamed reports whether a line of JSON names a journal field.
func journalNamed(c []byte) bool {
	for _, f := range journalFieldNames {
		if bytes.Contains(c, f) {
			return true
		}
	}
	return false
}

// shipperMessageNames are the fields that hold a log shipper's message
// (shipperFields; jsonPayload's "message" among them).
var shipperMessageNames = [...][]byte{[]byte(`"message"`), []byte(`"line"`), []byte(`"_raw"`), []byte(`"msg"`), []byte(`"log"`), []byte(`"short_message"`),
	[]byte(`"textPayload"`), []byte(`"@message"`), []byte(`"SyslogMessage"`)}

// journalLike reports whether a line of JSON names a journal field, or is
// a log shipper's record of the kernel's: a message field and the word
// "kernel" (its program's name, or its syslog line's "kernel:"). An
// application's JSON log has the one and not the other.
func journalLike(c []byte) bool {
	c = c[:min(len(c), MaxLineLength)]
	if journalNamed(c) || bytes.Contains(c, []byte(`"usec":`)) && bytes.Contains(c, []byte(`"msg":`)) {
		return true // a journal record, or Fluent Bit's kmsg input's
	}
	if !bytes.Contains(c, []byte("kernel")) {
		return false
	}
	for _, f := range shipperMessageNames {
		if bytes.Contains(c, f) {
			return true
		}
	}
	return false
}

// coreKernelPrefixes start messages that only the kernel's own code
// prints, each in its source's format: a console's lines pasted without
// their stamps are still a kernel log, one with no NVMe line.
var coreKernelPrefixes = [...]string{
	"perf: interrupt took too long (",      // kernel/events/core.c
	"hrtimer: interrupt took ",             // kernel/time/hrtimer.c
	"watchdog: BUG: soft lockup",           // kernel/watchdog.c
	"rcu: INFO: rcu_",                      // kernel/rcu/tree_stall.h
	"Out of memory: Killed process ",       // mm/oom_kill.c
	"BUG: unable to handle ",               // arch/x86/mm/fault.c
	"Kernel panic - not syncing",           // kernel/panic.c
	"------------[ cut here ]------------", // include/asm-generic/bug.h
	"EXT4-fs (",                            // fs/ext4/super.c
	"EXT4-fs error (",                      // fs/ext4/super.c
	"XFS (",                                // fs/xfs/xfs_message.c
	"ACPI Error: ",                         // drivers/acpi/acpica
	"ACPI BIOS Error ",                     // drivers/acpi/acpica
	"PM: suspend entry ",                   // kernel/power/suspend.c
	"PM: suspend exit",                     // kernel/power/suspend.c
}

// coreKernelLine reports whether a cleaned line is a message of the
// kernel's own code (coreKernelPrefixes, a driver's message about a PCI
// function as dev_printk writes it, or a user task's fault as the
// kernel reports it: "pvestatd[17411]: segfault at 11 ip ... sp ... error
// 6", arch/x86/mm/fault.c's show_signal_msg).
func coreKernelLine(c []byte) bool {
	for _, p := range coreKernelPrefixes {
		if len(c) >= len(p) && string(c[:len(p)]) == p { // no copy, unlike []byte(p)
			return true
		}
	}
	if driverPCILine(c) {
		return true
	}
	i := bytes.Index(c, []byte("]: segfault at "))
	return i > 0 && bytes.IndexByte(c[:i], '[') > 0 && bytes.Contains(c[i:], []byte(" ip ")) && bytes.Contains(c[i:], []byte(" sp "))
}

// driverPCILine reports whether a cleaned line is a driver's message about
// a PCI function as dev_printk writes it: the driver's name, a blank, the
// function's address and a colon ("megaraid_sas 0000:01:00.0: FW now in
// Ready state", "pci 0000:00:00.0: enabling device (0000 -> 0002)"), which
// lspci -D's "0000:00:00.0 Host bridge: ..." is not.
func driverPCILine(c []byte) bool {
	sp := bytes.IndexByte(c[:min(len(c), 32)], ' ')
	if sp <= 0 {
		return false
	}
	for _, b := range c[:sp] {
		if !(b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '_' || b == '-') {
			return false
		}
	}
	a := c[sp+1:]
	return len(a) > 13 && a[12] == ':' && pciAddrAt(a, 4)
}
