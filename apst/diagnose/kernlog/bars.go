package kernlog

import (
	"sort"
	"strings"
)

// actionBARAssigned marks the PCI core's line that assigned a BAR
// ("BAR 0: assigned [mem 0xfa000000-0xfa003fff 64bit]"): Read takes back
// an earlier failure to assign that BAR and keeps no event of it.
const actionBARAssigned = "bar assigned"

// parseBAR reads the lines that say whether a function's memory BAR got an
// address (drivers/pci/setup-res.c): the PCI core's assignment, worded
// "BAR 0: failed to assign [mem size 0x00004000 64bit]" and "BAR 0:
// assigned [mem ...]" until 6.7 and "BAR 0 [mem size 0x00004000 64bit]:
// failed to assign" and "BAR 0 [mem ...]: assigned" since 6.8, and the
// failure of the nvme driver's enable of the device, "BAR 0 [mem size
// 0x00004000 64bit]: not assigned; can't enable device" (or "not
// claimed"), before 6.8 "can't enable device: BAR 0 [mem size 0x00004000
// 64bit] not assigned". Only BARs 0 to 5 of memory count: the bridge
// windows (BAR 13 and up), SR-IOV's (7 to 12) and I/O BARs are no
// function's registers an NVMe driver needs. Another driver's enable
// failure is no event: it is no drive's.
func parseBAR(e *Event, body string) bool {
	if e.PCI == "" || !strings.Contains(body, "BAR ") {
		return false
	}
	switch e.Driver {
	case "pci":
		_, rest, ok := barOf(body)
		if !ok {
			return false
		}
		switch {
		case strings.HasPrefix(rest, ": failed to assign [mem "), strings.HasPrefix(rest, " [mem ") && strings.HasSuffix(rest, "]: failed to assign"):
			e.Kind, e.Action = PlatformFault, ActionBARUnassigned
		case strings.HasPrefix(rest, ": assigned [mem "), strings.HasPrefix(rest, " [mem ") && strings.HasSuffix(rest, "]: assigned"):
			e.Kind, e.Action = PlatformFault, actionBARAssigned
		default:
			return false
		}
		return true
	case "nvme":
		rest, old := strings.CutPrefix(body, "can't enable device: ")
		_, rest, ok := barOf(rest)
		if !ok || !strings.HasPrefix(rest, " [mem ") {
			return false
		}
		if old && !strings.HasSuffix(rest, " not assigned") && !strings.HasSuffix(rest, " not claimed") ||
			!old && !strings.HasSuffix(rest, ": not assigned; can't enable device") && !strings.HasSuffix(rest, ": not claimed; can't enable device") {
			return false
		}
		e.Kind, e.Action = PlatformFault, ActionBARUnassigned
		return true
	}
	return false
}

// barOf reads "BAR N" at the start of s, N from 0 to 5, and returns N and
// what follows it.
func barOf(s string) (int, string, bool) {
	rest, ok := strings.CutPrefix(s, "BAR ")
	if !ok || rest == "" || rest[0] < '0' || rest[0] > '5' || len(rest) > 1 && isDigit(rest[1]) {
		return 0, "", false
	}
	return int(rest[0] - '0'), rest[1:], true
}

// barIn is the number of the BAR a PCI core's line names, -1 for none.
func barIn(text string) int {
	i := strings.Index(text, "BAR ")
	if i < 0 {
		return -1
	}
	n, _, ok := barOf(text[i:])
	if !ok {
		return -1
	}
	return n
}

// heldBAR takes the PCI core's lines about a function's BAR: a failure to
// assign it is held, not yet an event, until the function's driver speaks,
// the boot ends or the log does (flushBARs, flushBAR); a later assignment
// of the same BAR in the boot, or the driver enabling the device, takes it
// back. A failure of a function the log never shows as NVMe is none of the
// drive's, and is dropped when it would become an event.
func (st *state) heldBAR(e Event) {
	h, held := st.bars[e.PCI]
	switch {
	case e.Action == actionBARAssigned:
		// An assignment stamped before the failure is another boot's (a
		// paste of a good boot after a bad one, its time since boot
		// starting again), not a later pass of this one.
		if d, ok := e.Time.sub(h.Time); held && barIn(h.Text) == barIn(e.Text) && (!ok || d >= 0) {
			delete(st.bars, e.PCI)
		}
	case held:
	case len(st.bars) < MaxAddresses:
		if st.bars == nil {
			st.bars = map[string]Event{}
		}
		st.bars[e.PCI] = e
	}
}

// enabledBAR takes back a held failure to assign a BAR of the function a
// line (msg, no event) of the nvme driver names (by address, or by controller through its
// "pci function" line): the driver enabled the device ("enabling device
// (0000 -> 0002)") or brought its queues up, which it cannot do without
// its registers.
func (st *state) enabledBAR(e *Event, msg string) {
	if !nvmeLine(e) || !strings.Contains(msg, "enabling device (") && !strings.HasSuffix(msg, " default/read/poll queues") {
		return
	}
	if pci := st.heldFor(e); pci != "" {
		delete(st.bars, pci)
	}
}

// tieBAR notes that controller ctrl is function pci (the nvme driver's
// "pci function" line) when a failure of pci is held, so that the
// controller's lines find it (heldFor) without a search of every held
// failure for each of them.
func (st *state) tieBAR(pci, ctrl string) {
	if _, held := st.bars[pci]; !held || ctrl == "" {
		return
	}
	if st.barCtrls == nil {
		st.barCtrls = map[string]string{}
	}
	st.barCtrls[ctrl] = pci
}

// heldFor is the function of e (by address, or by controller) whose
// failure is held, "" for none.
func (st *state) heldFor(e *Event) string {
	pci := e.PCI
	if pci == "" {
		pci = st.barCtrls[e.Controller]
	}
	if _, ok := st.bars[pci]; ok && pci != "" {
		return pci
	}
	return ""
}

// flushBARFor makes the held failure of e's function an event, before e.
func (st *state) flushBARFor(e *Event) {
	if pci := st.heldFor(e); pci != "" {
		st.flushBAR(pci)
	}
}

// flushBAR makes the held failure of function pci an event when the log
// shows the function is NVMe (its class line, or the nvme driver's "pci
// function" line), and drops it otherwise.
func (st *state) flushBAR(pci string) {
	h, ok := st.bars[pci]
	if !ok {
		return
	}
	delete(st.bars, pci)
	if st.log.DeviceIDs[pci] == "" && st.log.Addresses[pci] == "" {
		if unnamedBAR(h) && !st.otherClass[pci] && len(st.unnamed) < maxUnnamed {
			st.unnamed = append(st.unnamed, h)
		}
		return // another device's BAR, none of a drive's, as far as the log shows yet
	}
	st.log.Events++
	st.addEvent(h)
}

// flushBARs makes every held failure an event, at the end of a boot or of
// the log, in the order of their lines.
func (st *state) flushBARs() {
	if len(st.bars) == 0 {
		return
	}
	held := make([]Event, 0, len(st.bars))
	for _, h := range st.bars {
		held = append(held, h)
	}
	sort.SliceStable(held, func(i, j int) bool { return held[i].Line < held[j].Line }) // as join.go, no other sort linked in
	for _, h := range held {
		st.flushBAR(h.PCI)
	}
	clear(st.barCtrls)
}

// maxUnnamed bounds the held failures of functions the log does not name.
const maxUnnamed = 16

// classLine notes a function whose class line shows it as no NVMe
// function (pciLine).
func (st *state) classLine(f []byte) {
	if st.otherClass[string(f)] {
		return // a boot's, another boot's: the key already lower case
	}
	pci := strings.ToLower(string(f))
	if st.otherClass == nil {
		st.otherClass = map[string]bool{}
	}
	if len(st.otherClass) < MaxAddresses {
		st.otherClass[pci] = true
	}
}

// unnamedBAR reports whether a failure to assign a BAR could be an NVMe
// drive's whose log does not say what the function is (a patch's four
// quoted lines: "pci 0002:01:00.0: BAR 0: failed to assign [mem size
// 0x00004000 64bit]", a Surface Pro X): the PCI core's line, of BAR 0,
// 64-bit and not prefetchable as an NVMe controller's registers are (the
// NVMe specification's MLBAR), of a function behind a bridge (bus 01 and
// up: on bus 00 sit root ports and a PC's own devices).
func unnamedBAR(h Event) bool {
	_, bus, ok := busOf(h.PCI)
	return ok && bus != 0 && h.Driver == "pci" && barIn(h.Text) == 0 &&
		strings.Contains(h.Text, " 64bit]") // not " 64bit pref]"
}

// flushUnnamedBARs makes the held failures of functions the log does not
// name events, at its end, when the log names no NVMe drive at all and
// holds no incident: a drive whose registers got no address never shows
// itself, and such a log's failure is then the one line that may be its.
// In a log that names a drive the function is most likely another
// device's, and the failures are dropped.
func (st *state) flushUnnamedBARs() {
	l := st.log
	if len(st.unnamed) == 0 || len(st.links.named) > 0 || len(l.Addresses) > 0 || len(l.DeviceIDs) > 0 || len(l.Namespaces) > 0 || st.hasIncidents() {
		st.unnamed = nil
		return
	}
	for _, h := range st.unnamed {
		l.Events++
		st.addEvent(h)
	}
	st.unnamed = nil
}
