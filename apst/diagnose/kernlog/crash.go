package kernlog

import (
	"strings"
	"time"
)

// crashSpan is how many physical lines after a crash's first line its
// dump may place it in the NVMe driver's code: an oops or lockup prints
// its registers, the module list and the call trace in a few dozen lines
// (about 45 on arm64, 60 on powerpc with its register dump), a long trace
// in more, and dmesg --json spends four lines on each. dumpTime bounds it
// too, when the lines have times: a dump is printed at once.
const (
	crashSpan = 600
	dumpTime  = 2 * time.Second
)

// dieSpan is how many lines after a crash's first line an "Oops: " line
// is its header still: x86 prints the page-fault details (three to five
// lines) between them, powerpc one.
const dieSpan = 8

// crash is a kernel warning or crash Read holds while the lines of its
// dump go by: they tell whether it ran in the NVMe driver's code (Stack).
// Events other CPUs print in the middle of the dump wait behind it
// (after), so that the incidents get the events in log order.
type crash struct {
	on    bool
	e     Event
	after []Event
}

// maxAfter is how many events may wait behind a held crash; one more ends
// the hold.
const maxAfter = 16

// holdCrash holds a kernel-bug event until its dump is read; its own line
// may already name the driver's code ("WARNING: CPU: 3 PID: 1 at
// drivers/nvme/host/pci.c:...").
func (st *state) holdCrash(e Event) {
	if c := &st.crash; c.on && c.e.Kind == PlatformFault && e.Line-c.e.Line <= dieSpan && strings.HasPrefix(e.Text, "Oops: ") && within(c.e.Time, e.Time, time.Second) {
		// The oops header die() prints after the line that said what
		// went wrong ("BUG: kernel NULL pointer dereference, address:
		// ..." then "Oops: 0000 [#1] SMP PTI"): one crash.
		if c.e.Stack == "" && driverStack(e.Text) {
			c.e.Stack, c.e.StackLine = e.Raw, e.Line
		}
		return
	}
	st.endCrash()
	if driverStack(e.Text) {
		e.Stack, e.StackLine = e.Raw, e.Line
	}
	st.crash = crash{on: true, e: e}
}

// holdHang holds a hung-task report that names no NVMe disk ("INFO: task
// kworker/151:1H:2442 blocked for more than 122 seconds.") as a crash is
// held: the task's stack, which the detector prints after it, may run
// through the NVMe driver's code ("nvme_timeout+0x1fc/0x520",
// "nvme_wait_freeze+0x33/0x50 [nvme_core]"), and then the driver itself
// hung and the report is a HungTask event with that Stack; otherwise it
// is Log.BlockedTask's, no event (endCrash).
func (st *state) holdHang(e Event) {
	st.endCrash()
	st.crash = crash{on: true, e: e}
}

// inDump reports whether a line can still be part of the held crash's
// dump.
func (c *crash) inDump(line int, at Timestamp) bool {
	return c.on && line-c.e.Line <= crashSpan && within(c.e.Time, at, dumpTime)
}

// crashLine reads a line of a held crash's dump that is no event: the
// first that places the crash in the NVMe driver's code becomes its Stack.
func (st *state) crashLine(msg, raw string, line int, at Timestamp) {
	c := &st.crash
	if !c.inDump(line, at) {
		if st.log.DriverFrame == nil && (st.report == 0 || line-st.report > crashSpan) &&
			(strings.IndexByte(msg, '+') >= 0 || strings.HasPrefix(msg, "Workqueue: nvme")) && driverStack(msg) {
			// A dump of the driver's code no crash or report line began:
			// a frame ("+0x...") or the work queue it ran on; the cheap
			// test first, as most lines come here.
			st.log.DriverFrame = &Event{Line: line, EndLine: line, Time: at, Text: clip(msg), Raw: clip(cleanLine(raw))}
		}
		return
	}
	if c.e.Stack != "" || !driverStack(msg) {
		return
	}
	c.e.Stack, c.e.StackLine = clip(cleanLine(raw)), line
}

// addEvent adds an event to its incident, holding a device-less PM
// callback failure for the device's line after it (heldCallback).
func (st *state) addEvent(e Event) {
	if st.heldCallback(&e) {
		return
	}
	st.addUnheld(e)
}

// addUnheld adds an event to its incident, or, printed within a held
// crash's dump that has not yet placed the crash in the driver's code,
// queues it behind the crash.
func (st *state) addUnheld(e Event) {
	if c := &st.crash; c.inDump(e.Line, e.Time) && c.e.Stack == "" && len(c.after) < maxAfter {
		c.after = append(c.after, e)
		return
	}
	st.endCrash()
	st.add(e)
}

// endCrash adds the held crash, if any, to its incident, then the events
// that waited behind it.
func (st *state) endCrash() {
	if !st.crash.on {
		return
	}
	c := st.crash
	st.crash = crash{}
	switch {
	case c.e.Kind != HungTask:
		st.add(c.e)
	case c.e.Stack != "":
		st.log.Events++
		st.add(c.e)
	case st.log.BlockedTask == nil:
		b := c.e
		b.Kind = ""
		st.log.BlockedTask = &b
	}
	for _, e := range c.after {
		st.add(e)
	}
}

// driverStack reports whether a line of a crash dump places the crash in
// the NVMe PCIe driver's code: the worker that ran it ("Workqueue:
// nvme-reset-wq nvme_reset_work [nvme]"), the instruction that faulted
// ("RIP: 0010:nvme_pci_complete_rq+0x1c/0x120 [nvme]", arm64's "pc :
// nvme_..."), a frame of the call trace ("nvme_probe+0x340/0x450 [nvme]",
// the function and offset kernel/kallsyms.c's %pS prints, then the
// module), or the source file a warning names ("at
// drivers/nvme/host/pci.c:..."). A frame the unwinder marks unreliable
// ("? nvme_irq+0x10/0x20", a stale address left on the stack) does not.
func driverStack(msg string) bool {
	if strings.HasPrefix(msg, "Workqueue: nvme") || strings.Contains(msg, " drivers/nvme/host/") {
		return true
	}
	for off := 0; off < len(msg); {
		i := strings.Index(msg[off:], "nvme_")
		if i < 0 {
			return false
		}
		i += off
		off = i + 1
		if i > 0 && !strings.ContainsRune(" \t]:", rune(msg[i-1])) {
			continue // "blk_mq_nvme_..." or "xnvme_": another name
		}
		if i >= 2 && msg[i-2:i] == "? " {
			continue
		}
		sym := msg[i:]
		if j := strings.IndexAny(sym, " \t"); j >= 0 {
			sym = sym[:j]
		}
		if p := strings.Index(sym, "+0x"); p > len("nvme_") && strings.Contains(sym[p:], "/0x") {
			return true
		}
	}
	return false
}

// reportHeader reports whether a message that is no event is the first
// line of a report a stack dump follows: a warning other than the WARN
// banner a crash reads (lockdep's "WARNING: possible circular locking
// dependency detected"), a "BUG: ..." or a hung task ("INFO: task ...
// blocked for more than"). Read's filter lets through those lines with a
// keyword ("WARNING: ", "BUG", "INFO: task ").
func reportHeader(msg string) bool {
	return strings.HasPrefix(msg, "WARNING: ") || strings.HasPrefix(msg, "BUG: ") || strings.HasPrefix(msg, "INFO: task ")
}

// within reports whether two lines of one dump can be: their times at
// most d apart, or not comparable.
func within(a, b Timestamp, d time.Duration) bool {
	diff, ok := b.sub(a)
	return !ok || diff >= -d && diff <= d
}
