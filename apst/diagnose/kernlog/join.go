package kernlog

import (
	"slices"
	"sort"
	"strings"
)

// finish closes every incident and ties the ones Read could key only by a
// PCI address or a disk to their controller, through every link the log
// gives (see the package documentation), merging each with its
// controller's incident where the two overlap in time; so the same failure
// gives the same incidents whether or not the log kept the boot's "pci
// function" line.
func (st *state) finish() *Log {
	l := st.log
	l.Incidents = slices.Clip(l.Incidents[st.first:])
	st.first = 0
	clear(st.open)
	for i := range l.Incidents {
		in := &l.Incidents[i]
		in.Events = append(in.Events, in.tail[in.next:]...)
		in.Events = append(in.Events, in.tail[:in.next]...)
		in.tail, in.next = nil, 0
	}
	st.resolveLinks()
	st.finishOtherDisks()
	st.aer.finish(l)
	late := make([]bool, len(l.Incidents))
	for i := range l.Incidents {
		in := &l.Incidents[i]
		for j := range in.Events {
			st.tieDisk(&in.Events[j])
		}
		if in.Controller != "" {
			continue
		}
		switch k := in.key; {
		case strings.HasPrefix(k, "disk "):
			in.Controller = st.diskController(k[len("disk "):])
		case strings.HasPrefix(k, "pci "):
			in.Controller = st.addrController(k[len("pci "):])
		case st.links.ctrls == 1 && (badIRQ(in) || driverCrash(in) || k == "kernel" && nvmeDriverOnly(in)):
			// The NVMe driver's interrupt without a handler, a crash in
			// its code, or its own messages pasted without their prefix
			// ("Device not ready; aborting reset, CSTS=0x1" in a table's
			// cell) name no controller: the log's only one is theirs.
			in.Controller = st.links.ctrl
		}
		if in.Controller != "" {
			late[i] = true
			setController(in)
		}
	}
	dead := make([]bool, len(l.Incidents))
	st.mergeLate(late, dead)
	st.mergeWindow(dead)
	kept := l.Incidents[:0]
	for i := range l.Incidents {
		if !dead[i] {
			kept = append(kept, l.Incidents[i])
		}
	}
	clear(l.Incidents[len(kept):])
	l.Incidents = slices.Clip(kept)
	// sort.SliceStable, not slices.SortStableFunc: the one reflective sort
	// every element type shares (the page's wasm pays some 9 KB for each
	// generic instantiation).
	sort.SliceStable(l.Incidents, func(i, j int) bool { return firstLine(&l.Incidents[i]) < firstLine(&l.Incidents[j]) })
	for i := range l.Incidents {
		in := &l.Incidents[i]
		if in.Controller == "" {
			continue
		}
		if f := st.functionOf(in.Controller); f != "" {
			in.PCI = f
		}
	}
	l.Controllers = st.controllers()
	l.bridges = st.links.bridges
	return l
}

// resolveLinks adds what the whole log says: the one NVMe function and the
// one controller it names belong together, and with one controller every
// namespace is its.
func (st *state) resolveLinks() {
	l, k := st.log, &st.links
	k.flushAER(st)
	if k.fns == 1 && k.ctrls == 1 && l.Addresses[k.fn] == "" {
		if _, known := l.Addresses[k.fn]; known || len(l.Addresses) < MaxAddresses {
			l.Addresses[k.fn] = k.ctrl
		}
	}
	if k.ctrls == 1 {
		for d := range k.disks {
			if l.Namespaces[d] == "" && pathController(d) == "" {
				st.setNamespace(d, k.ctrl)
			}
		}
	}
}

// tieDisk sets the controller of a disk's event: from Log.Namespaces, or
// else by the disk's number (GuessedController).
func (st *state) tieDisk(e *Event) {
	if e.Disk == "" || e.Controller != "" && !e.GuessedController {
		return
	}
	if c := st.log.Namespaces[diskHead(e.Disk)]; c != "" {
		e.Controller, e.GuessedController = c, false
		return
	}
	e.Controller, e.GuessedController = numberController(e.Disk), true
}

// diskController is the controller of a disk: the one the log ties it to,
// or the one its number suggests.
func (st *state) diskController(head string) string {
	if c := st.log.Namespaces[head]; c != "" {
		return c
	}
	return numberController(head)
}

// addrController is the controller of a PCI address: the one its "pci
// function" line (or Options, or the one-function rule) names, or for a
// port the controller of the function whose errors it reported, or of the
// one NVMe function on the one bus below it.
func (st *state) addrController(a string) string {
	if c := st.log.Addresses[a]; c != "" {
		return c
	}
	if dev := st.links.ports[a]; dev != "" {
		return st.log.Addresses[dev]
	}
	return st.belowPort(a)
}

// functionOf is the PCI function the log maps to a controller, if one.
func (st *state) functionOf(ctrl string) string {
	found := ""
	for a, c := range st.log.Addresses {
		if c != ctrl || st.links.ports[a] != "" {
			continue
		}
		if found != "" {
			return ""
		}
		found = a
	}
	return found
}

// setController gives the incident's events without a controller the
// incident's.
func setController(in *Incident) {
	for j := range in.Events {
		if in.Events[j].Controller == "" {
			in.Events[j].Controller = in.Controller
		}
	}
}

// mergeLate merges each incident tied to a controller at the end with the
// controller's incidents it overlaps (within the gap, in the same boot),
// until none overlap: the incidents Read would have made had it known the
// controller from the start.
func (st *state) mergeLate(late, dead []bool) {
	incs := st.log.Incidents
	for changed := true; changed; {
		changed = false
		for i := range incs {
			if dead[i] || incs[i].Controller == "" {
				continue
			}
			for j := i + 1; j < len(incs); j++ {
				if dead[j] || !late[i] && !late[j] || incs[j].Controller != incs[i].Controller || !st.near(&incs[i], &incs[j]) {
					continue
				}
				st.merge(&incs[i], &incs[j])
				dead[j], late[i], changed = true, true, true
			}
		}
	}
}

// mergeWindow merges an incident still known only by a PCI address into
// the one controller with an incident within the gap of it in the same
// boot (any of the boot, in a log without times), when exactly one
// controller has one then; when several have, an NVMe function's lines
// join the controller whose lines come right before and after them
// (enclosing). Incidents of functions another driver prints for, and of
// only informational events, stay.
func (st *state) mergeWindow(dead []bool) {
	incs := st.log.Incidents
	for i := range incs {
		p := &incs[i]
		if dead[i] || p.Controller != "" || !strings.HasPrefix(p.key, "pci ") || st.links.other[p.key[len("pci "):]] || informational(p) {
			continue
		}
		target, ctrl := -1, ""
		addr := p.key[len("pci "):]
		for j := range incs {
			c := &incs[j]
			if dead[j] || j == i || c.Controller == "" || !st.near(p, c) {
				continue
			}
			if fn := st.functionOf(c.Controller); fn != "" && fn != addr && st.notAbove(addr, fn) {
				continue // a port the log's bridges put elsewhere
			}
			if ctrl != "" && ctrl != c.Controller {
				target = -1
				break
			}
			if target < 0 || firstLine(c) < firstLine(&incs[target]) {
				target = j
			}
			ctrl = c.Controller
		}
		if target < 0 && ctrl != "" {
			target = st.enclosing(dead, i)
			if target >= 0 {
				ctrl = incs[target].Controller
			}
		}
		if target < 0 {
			continue
		}
		p.Controller = ctrl
		setController(p)
		st.merge(&incs[target], p)
		dead[i] = true
	}
}

// enclosing is the incident of the controller whose events come right
// before and right after all of incident i's, when i's events are all the
// nvme driver's lines of one NVMe function and no other controller's
// event comes between, and one of the two is within the gap of it (in a
// log merged out of order they may be an hour away); -1 otherwise. The
// PCI core prints for the function within its controller's reset (the
// "Unable to change power state from D3cold to D0" of the reset's
// pci_enable_device, drivers/nvme/host/pci.c), between that controller's
// "controller is down" and its "Disabling device"; a function whose
// neighbours are two controllers' lines, as when another drive's removal
// comes amid a controller's timeouts, joins neither.
func (st *state) enclosing(dead []bool, i int) int {
	incs := st.log.Incidents
	p := &incs[i]
	for k := range p.Events {
		if p.Events[k].Driver != "nvme" {
			return -1
		}
	}
	first, last := firstLine(p), lastLine(p)
	before, after := -1, -1 // the incidents of the nearest events
	beforeLine, afterLine := 0, 1<<31-1
	for j := range incs {
		c := &incs[j]
		if dead[j] || j == i || c.Controller == "" || c.Boot != p.Boot {
			continue
		}
		for k := range c.Events {
			switch n := c.Events[k].Line; {
			case n > first && n < last:
				return -1 // a controller's line amid the function's
			case n < first && n > beforeLine:
				before, beforeLine = j, n
			case n > last && n < afterLine:
				after, afterLine = j, n
			}
		}
	}
	if before < 0 || after < 0 || incs[before].Controller != incs[after].Controller {
		return -1
	}
	for _, j := range [...]int{before, after} {
		if st.near(p, &incs[j]) {
			return j
		}
	}
	return -1
}

// badIRQ reports whether an incident holds the NVMe driver's interrupt
// that reached handle_bad_irq.
func badIRQ(in *Incident) bool {
	for i := range in.Events {
		if in.Events[i].Action == ActionBadIRQ {
			return true
		}
	}
	return false
}

// nvmeDriverOnly reports whether an incident holds only messages that the
// NVMe driver alone prints (a controller down, a timeout, an abort's
// status, a reset or probe that failed, APST's failure, its hints).
func nvmeDriverOnly(in *Incident) bool {
	for i := range in.Events {
		switch in.Events[i].Kind {
		case ControllerDown, IOTimeout, AdminTimeout, AbortStatus, ResetNotReady, ResetFailure, ProbeFailure, APSTFailed,
			PowerSavingHint, WorkaroundHint, HostMemoryBuffer:
		default:
			return false
		}
	}
	return len(in.Events) > 0
}

// driverCrash reports whether an incident holds a kernel crash or warning
// whose dump ran through the NVMe driver's code.
func driverCrash(in *Incident) bool {
	for i := range in.Events {
		if in.Events[i].Action == ActionKernelBug && in.Events[i].Stack != "" {
			return true
		}
	}
	return false
}

// informational reports whether an incident holds only events that report
// no failure.
func informational(in *Incident) bool {
	for k := range in.Counts {
		switch k {
		case ASPMPlatform, HostLinkUp, SuspendEntry, SuspendExit, HostMemoryBuffer, Reset:
		default:
			return false
		}
	}
	return true
}

// near reports whether two incidents are of one boot and within the gap of
// each other. Incidents without comparable times are near (Read never
// splits events without times by time either).
func (st *state) near(a, b *Incident) bool {
	if a.Boot != b.Boot {
		return false
	}
	d1, ok1 := a.Start.sub(b.End)
	d2, ok2 := b.Start.sub(a.End)
	if !ok1 || !ok2 {
		return true
	}
	return d1 <= st.gap && d2 <= st.gap
}

// merge moves src's events into dst: in log order, the first and last
// MaxIncidentEvents/2 kept.
func (st *state) merge(dst, src *Incident) {
	first := firstLine(src) < firstLine(dst)
	lastSrc := lastLine(src) > lastLine(dst)
	if first && !src.Start.IsZero() || dst.Start.IsZero() {
		dst.Start = src.Start
	}
	if lastSrc && !src.End.IsZero() || dst.End.IsZero() {
		dst.End = src.End
	}
	if dst.PCI == "" {
		dst.PCI = src.PCI
	}
	events := append(dst.Events, src.Events...)
	sort.SliceStable(events, func(i, j int) bool { return events[i].Line < events[j].Line })
	dst.Omitted += src.Omitted
	if extra := len(events) - MaxIncidentEvents; extra > 0 {
		half := MaxIncidentEvents / 2
		events = append(events[:half], events[len(events)-half:]...)
		dst.Omitted += extra
		st.log.DroppedEvents += int64(extra)
	}
	dst.Events = slices.Clip(events)
	for k, n := range src.Counts {
		dst.Counts[k] += n
	}
	*src = Incident{Counts: map[Kind]int{}}
}

func firstLine(in *Incident) int {
	if len(in.Events) == 0 {
		return 1<<31 - 1
	}
	return in.Events[0].Line
}

func lastLine(in *Incident) int {
	if len(in.Events) == 0 {
		return 0
	}
	return in.Events[len(in.Events)-1].Line
}
