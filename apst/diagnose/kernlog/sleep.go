package kernlog

import (
	"strings"
	"time"
)

// parseSleep reads the system sleep lines of the PM core and ACPI: suspend
// and hibernation entry and exit, and devices that failed to suspend or
// resume.
func parseSleep(e *Event, msg, body string) bool {
	if i := strings.Index(msg, "system sleep state S"); i >= 0 {
		// "ACPI: PM: Preparing to enter system sleep state S3", older
		// "ACPI: Preparing to enter ...", and the "Waking up from" pair.
		state := msg[i+len("system sleep state "):]
		if len(state) < 2 || !isDigit(state[1]) {
			return false
		}
		switch {
		case strings.Contains(msg[:i], "Preparing to enter"):
			e.Kind = SuspendEntry
		case strings.Contains(msg[:i], "Waking up from"):
			e.Kind = SuspendExit
		default:
			return false
		}
		e.Mode = state[:2]
		return true
	}
	if oom, ok := strings.CutPrefix(msg, "OOM killer "); ok && (oom == "enabled." || oom == "disabled.") {
		// The freezer's own lines (kernel/power/process.c): "OOM killer
		// disabled." once user space is frozen for a sleep, "OOM killer
		// enabled." when it thaws after one.
		e.Kind = SuspendExit
		if oom == "disabled." {
			e.Kind = SuspendEntry
		}
		e.Driver, e.Device, e.PCI, e.Controller, e.Disk = "", "", "", "", ""
		return true
	}
	if strings.HasPrefix(msg, "Restarting tasks") {
		// The freezer thawing tasks after a resume (kernel/power/process.c,
		// "Restarting tasks ... done.", "Restarting tasks: Starting" and
		// "Restarting tasks: Done" in later kernels, or "Restarting tasks
		// ... " with its "done." on a later line when another message
		// came between): the line an excerpt keeps when the PM core's own
		// are cut off.
		e.Kind = SuspendExit
		e.Driver, e.Device, e.PCI, e.Controller, e.Disk = "", "", "", "", ""
		return true
	}
	if k := freezerLine(strings.TrimPrefix(msg, "PM: ")); k != "" {
		e.Kind = k
		e.Driver, e.Device, e.PCI, e.Controller, e.Disk = "", "", "", "", ""
		return true
	}
	if strings.HasPrefix(msg, "ACPI: Low-level resume complete") {
		// ACPI's line after an S3 resume as older kernels worded it
		// (drivers/acpi/sleep.c's PREFIX "ACPI: ", without "PM: ").
		e.Kind = SuspendExit
		e.Driver, e.Device, e.PCI, e.Controller, e.Disk = "", "", "", "", ""
		return true
	}
	i := strings.Index(msg, "PM: ")
	if i < 0 {
		return false
	}
	pm := msg[i+len("PM: "):]
	pm = strings.TrimPrefix(pm, "hibernation: ")
	switch {
	case strings.HasPrefix(pm, "suspend entry"):
		e.Kind, e.Mode = SuspendEntry, parenthesised(pm)
	case strings.HasPrefix(pm, "Preparing system for "):
		// "PM: Preparing system for sleep (s2idle)"; older kernels "PM:
		// Preparing system for mem sleep".
		e.Kind, e.Mode = SuspendEntry, parenthesised(pm)
		if e.Mode == "" {
			if w, _, ok := strings.Cut(strings.TrimPrefix(pm, "Preparing system for "), " "); ok && w != "sleep" {
				e.Mode = w
			}
		}
	case strings.HasPrefix(pm, "Syncing filesystems"):
		// 4.x kernels' "PM: Syncing filesystems ... done."
		// (kernel/power/suspend.c).
		e.Kind = SuspendEntry
	case enteringSleep(pm) != "":
		// 4.x kernels' "PM: Entering mem sleep".
		e.Kind, e.Mode = SuspendEntry, enteringSleep(pm)
	case strings.HasPrefix(pm, "hibernation entry"):
		e.Kind, e.Mode = SuspendEntry, "hibernation"
	case strings.HasPrefix(pm, "suspend-to-idle"):
		// "PM: suspend-to-idle", the s2idle loop entered (a PM debug line
		// logs show when pm_debug_messages is on).
		e.Kind, e.Mode = SuspendEntry, "s2idle"
	case strings.HasPrefix(pm, "resume from suspend-to-idle"):
		e.Kind, e.Mode = SuspendExit, "s2idle"
	case strings.HasPrefix(pm, "Timekeeping suspended for "), strings.HasPrefix(pm, "Low-level resume complete"):
		// Timekeeping's "PM: Timekeeping suspended for 12.178 seconds",
		// printed as the system comes back, and ACPI's "ACPI: PM: Low-level
		// resume complete" after an S3 resume (drivers/acpi/sleep.c).
		e.Kind = SuspendExit
	case strings.HasPrefix(pm, "Saving platform NVS memory"):
		// ACPI's S3 and hibernation steps (drivers/acpi/sleep.c): "ACPI:
		// PM: Saving platform NVS memory" going down, "Restoring ..."
		// coming back.
		e.Kind = SuspendEntry
	case strings.HasPrefix(pm, "suspend exit"), strings.HasPrefix(pm, "resume devices took"), strings.HasPrefix(pm, "resume of devices complete"),
		strings.HasPrefix(pm, "Finishing wakeup"), strings.HasPrefix(pm, "Restoring platform NVS memory"):
		e.Kind = SuspendExit
	case strings.HasPrefix(pm, "suspend devices took"):
		// The suspend side of "resume devices took" (kernel/power/
		// suspend.c's suspend_test_finish).
		e.Kind = SuspendEntry
	case devicesPhase(pm) != "":
		e.Kind = devicesPhase(pm)
	case strings.HasPrefix(pm, "hibernation exit"):
		e.Kind, e.Mode = SuspendExit, "hibernation"
	case strings.HasPrefix(pm, "Some devices failed to suspend"):
		e.Kind, e.Phase = PMError, "suspend"
	default:
		return parsePMError(e, pm)
	}
	if e.Kind == PMError {
		return true
	}
	// A sleep line is the system's, whatever device prefix it has.
	e.Driver, e.Device, e.PCI, e.Controller, e.Disk = "", "", "", "", ""
	return true
}

// parsePMError reads a device's failure to suspend or resume: "failed to
// resume async: error -16", "Device 0000:01:00.0 failed to resume async:
// error -16", "dpm_run_callback(): pci_pm_resume+0x0/0xe0 returns -16",
// "pci_pm_suspend(): nvme_suspend+0x0/0x150 returns -16", "late suspend of
// devices failed".
func parsePMError(e *Event, pm string) bool {
	if m := re().rePMFail.FindStringSubmatch(pm); m != nil {
		e.Kind, e.Phase = PMError, phaseOf(m[2])
		if m[3] != "" {
			e.Errno = atoi(m[3])
		}
		if m[1] != "" && isPCIAddr(m[1]) {
			e.PCI = strings.ToLower(m[1])
		}
		return true
	}
	if m := re().rePMCall.FindStringSubmatch(pm); m != nil {
		e.Kind, e.Errno = PMError, atoi(m[3])
		e.Phase = phaseOf(m[1])
		if e.Phase == "" {
			e.Phase = phaseOf(m[2])
		}
		return true
	}
	if m := re().rePMStage.FindStringSubmatch(pm); m != nil {
		e.Kind, e.Phase = PMError, m[1]
		return true
	}
	if strings.Contains(pm, "DPM device timeout") {
		// drivers/base/power/main.c's watchdog of a device's callback in
		// a system suspend or resume that did not return ("**** DPM
		// device timeout ****", then a panic or, since 6.14, "after 60
		// seconds; 60 seconds until panic"): which of the two the line
		// does not say.
		e.Kind = PMError
		return true
	}
	return false
}

// phaseOf says whether a PM step or callback belongs to going to sleep or
// to waking up.
func phaseOf(s string) string {
	switch {
	case strings.Contains(s, "resume"), strings.Contains(s, "thaw"), strings.Contains(s, "restore"):
		return "resume"
	case strings.Contains(s, "suspend"), strings.Contains(s, "freeze"), strings.Contains(s, "poweroff"), strings.Contains(s, "quiesce"):
		return "suspend"
	}
	return ""
}

// parenthesised returns the word in the first "(...)" of s.
func parenthesised(s string) string {
	_, in, ok := strings.Cut(s, "(")
	if !ok {
		return ""
	}
	in, _, ok = strings.Cut(in, ")")
	if !ok || len(in) > 16 {
		return ""
	}
	return in
}

// enteringSleep returns the mode of "Entering mem sleep", or "".
func enteringSleep(pm string) string {
	w, ok := strings.CutPrefix(pm, "Entering ")
	if !ok {
		return ""
	}
	m, rest, ok := strings.Cut(w, " ")
	if !ok || !strings.HasPrefix(rest, "sleep") || m == "" {
		return ""
	}
	return m
}

// freezerLine returns the kind of the lines every system sleep prints
// beside the PM core's own, which an excerpt of a suspend or resume often
// keeps where it cut those: the freezer's "Freezing user space processes"
// and "Freezing remaining freezable tasks" (kernel/power/process.c; older
// kernels end the line "... (elapsed 0.002 seconds) done.", newer ones
// print a second "... completed (elapsed ...)"), "Filesystems sync: 0.030
// seconds" (kernel/power/main.c), printk's "printk: Suspending console(s)
// (use no_console_suspend to debug)", the CPU hotplug of S3 and
// hibernation, "Disabling non-boot CPUs ..." and "Enabling non-boot CPUs
// ..." (kernel/cpu.c), the embedded controller's "ACPI: EC: interrupt
// blocked" and "... unblocked" around the noirq phase of every suspend,
// s2idle's included, and its "event blocked" and "event unblocked"
// (drivers/acpi/ec.c; Read takes "unblocked" for a resume only after a
// "blocked" or past a boot's first ecProbeTime: the EC's probe prints
// them at every boot too), and "random: crng reseeded on system resumption"
// (drivers/char/random.c's PM notifier). "" for any other line.
func freezerLine(msg string) Kind {
	switch {
	case strings.HasPrefix(msg, "Freezing user space processes"), strings.HasPrefix(msg, "Freezing remaining freezable tasks"),
		strings.HasPrefix(msg, "Filesystems sync: "), strings.HasPrefix(msg, "printk: Suspending console(s)"),
		strings.HasPrefix(msg, "Disabling non-boot CPUs"), msg == ecBlocked, msg == ecEventBlocked:
		return SuspendEntry
	case strings.HasPrefix(msg, "Enabling non-boot CPUs"), msg == ecUnblocked, msg == ecEventUnblocked, msg == "random: crng reseeded on system resumption":
		return SuspendExit
	}
	return ""
}

// ecProbeTime is how long after boot the embedded controller's "interrupt
// blocked" is its probe's, not a suspend's: a suspend needs user space,
// which is not up before it.
const ecProbeTime = 30 * time.Second

// The embedded controller's lines around a suspend's noirq phase: its
// interrupt, and its query events (drivers/acpi/ec.c, "event blocked" as
// the system suspends, "event unblocked" as it resumes; the EC's start at
// boot prints them too).
const (
	ecBlocked        = "ACPI: EC: interrupt blocked"
	ecUnblocked      = "ACPI: EC: interrupt unblocked"
	ecEventBlocked   = "ACPI: EC: event blocked"
	ecEventUnblocked = "ACPI: EC: event unblocked"
)

// ecProbe reports whether an EC line at ts may be the EC's start at boot,
// not a sleep's: in the first ecProbeTime of a boot, or with no time since
// boot to tell.
func ecProbe(ts Timestamp) bool {
	return !ts.HasMono || ts.Mono < ecProbeTime
}

// devicesPhase reads the PM core's report of a phase of the devices'
// suspend or resume (drivers/base/power/main.c's dpm_show_time, at info
// level before 5.x and a PM debug line since: "PM: noirq resume of devices
// complete after 2.345 msecs", "PM: late suspend of devices complete after
// 1.234 msecs"): SuspendEntry for a suspend, freeze, quiesce or hibernate,
// SuspendExit for a resume or restore, "" for another line (a thaw or a
// recover is neither: hibernation thaws devices to write its image).
func devicesPhase(pm string) Kind {
	for _, p := range []string{"noirq ", "early ", "late "} {
		if rest, ok := strings.CutPrefix(pm, p); ok {
			pm = rest
			break
		}
	}
	verb, rest, ok := strings.Cut(pm, " ")
	if !ok || !strings.HasPrefix(rest, "of devices complete after ") {
		return ""
	}
	switch verb {
	case "suspend", "freeze", "quiesce", "hibernate":
		return SuspendEntry
	case "resume", "restore":
		return SuspendExit
	}
	return ""
}
