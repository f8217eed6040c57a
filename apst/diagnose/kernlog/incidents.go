package kernlog

// sleepDir is 1 for a suspend's line, 2 for a resume's, 0 for the others.
func sleepDir(k Kind) int8 {
	switch k {
	case SuspendEntry:
		return 1
	case SuspendExit:
		return 2
	}
	return 0
}

// suspendGoesOn reports whether e, after a quiet gap, is a line of the
// suspend in incident in's course: a suspend's line that does not start
// one ("PM: suspend entry (deep)" does, with its mode), after the
// incident's last sleep line was a suspend's. A journal stamps the lines
// a suspend printed late with the time it read them, after the sleep
// ("Filesystems sync" at 06:34:37, the freezer's lines at 06:39:42).
func suspendGoesOn(in *Incident, e *Event) bool {
	return in.slp == 1 && e.Kind == SuspendEntry && e.Mode == ""
}

func (st *state) hasIncidents() bool { return len(st.log.Incidents) > 0 }

// key is the incident key of an event and the controller and PCI address
// its incident has: its controller, else the controller its disk, PCI
// address or reporting port maps to as far as the log has told yet, else
// the disk or address; "kernel" for an event of no device.
func (st *state) key(e *Event) (key, ctrl, pci string) {
	if e.Controller != "" {
		return e.Controller, e.Controller, e.PCI
	}
	if e.Disk != "" {
		head := diskHead(e.Disk)
		if c := st.log.Namespaces[head]; c != "" {
			return c, c, e.PCI
		}
		return "disk " + head, "", ""
	}
	for _, a := range []string{e.PCI, e.Reporter} {
		if c := st.log.Addresses[a]; a != "" && c != "" {
			return c, c, e.PCI
		}
	}
	switch {
	case e.PCI != "":
		return "pci " + e.PCI, "", e.PCI
	case e.Reporter != "":
		return "pci " + e.Reporter, "", e.Reporter
	}
	return "kernel", "", ""
}

// add puts an event into its key's open incident, or a new one.
func (st *state) add(e Event) {
	if len(st.bars) > 0 {
		st.flushBARFor(&e) // a held BAR failure of e's function first
	}
	k, ctrl, pci := st.key(&e)
	if e.Controller == "" {
		e.Controller = ctrl
	}
	st.fresh = false
	idx, ok := st.open[k]
	if ok && idx >= st.first {
		in := &st.log.Incidents[idx]
		if d, cmp := e.Time.sub(in.End); cmp && (d > st.gap || d < -st.gap) && !suspendGoesOn(in, &e) {
			ok = false
		}
	} else {
		ok = false
	}
	if !ok {
		if len(st.open) >= MaxIncidents*2 {
			clear(st.open) // bound the keys a hostile log can make
		}
		st.log.Incidents = append(st.log.Incidents, Incident{Controller: ctrl, PCI: pci, Boot: st.boot, Start: e.Time, Counts: map[Kind]int{}, key: k})
		idx = len(st.log.Incidents) - 1
		st.open[k] = idx
		st.trim()
		idx = st.open[k]
	}
	in := &st.log.Incidents[idx]
	if in.PCI == "" {
		in.PCI = pci
	}
	if d := sleepDir(e.Kind); d == 0 {
		in.Counts[e.Kind]++
	} else if d != in.slp {
		in.Counts[e.Kind]++
		in.slp = d
	}
	if !e.Time.IsZero() {
		if in.Start.IsZero() {
			in.Start = e.Time
		}
		in.End = e.Time
	}
	st.keep(in, e)
}

// keep stores the event in the incident within the limits.
func (st *state) keep(in *Incident, e Event) {
	const half = MaxIncidentEvents / 2
	switch {
	case len(in.Events) < half && st.kept < MaxEvents:
		in.Events = append(in.Events, e)
		st.kept++
	case len(in.Events) < half:
		st.log.DroppedEvents++
		in.Omitted++
	case len(in.tail) < half && st.kept < MaxEvents:
		in.tail = append(in.tail, e)
		st.kept++
	case len(in.tail) == half:
		// Ring of the last events: the newest replaces the oldest.
		in.tail[in.next] = e
		in.next = (in.next + 1) % half
		st.log.DroppedEvents++
		in.Omitted++
	default:
		st.log.DroppedEvents++
		in.Omitted++
	}
}

// trim drops the oldest incidents beyond MaxIncidents, releasing their
// events.
func (st *state) trim() {
	for len(st.log.Incidents)-st.first > MaxIncidents {
		in := &st.log.Incidents[st.first]
		st.kept -= len(in.Events) + len(in.tail)
		st.log.DroppedEvents += int64(len(in.Events) + len(in.tail))
		*in = Incident{}
		st.first++
		st.log.DroppedIncidents++
	}
	if st.first > MaxIncidents {
		// Compact, keeping the open indexes right.
		n := copy(st.log.Incidents, st.log.Incidents[st.first:])
		clear(st.log.Incidents[n:])
		st.log.Incidents = st.log.Incidents[:n]
		for k, i := range st.open {
			if i < st.first {
				delete(st.open, k)
			} else {
				st.open[k] = i - st.first
			}
		}
		st.first = 0
	}
}
