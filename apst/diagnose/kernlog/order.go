package kernlog

// A log whose lines run newest first (an export sorted by time,
// descending, as Kibana's Discover, Google Cloud Logging and CloudWatch
// Logs Insights list it by default; journalctl -r) puts every consequence
// before its cause. Read keeps the logical lines while the log may be
// such, and when its events' times ran back far more often than on, reads
// the kept lines again, oldest first, into a fresh state (oldestFirst).

// order is what Read knows of the order of a log's times, and the logical
// lines it keeps to read them again.
type order struct {
	lines    []keptLine
	bytes    int
	back, on int  // steps of an event's time back (within a boot) and on
	same     int  // steps to the same time
	far      bool // a step back was of a second or more
	off      bool // no longer kept: the log runs forward, or too much was held
}

// keptLine is one logical line, as st.top gave it, and the json-pretty
// record's quote of its MESSAGE line, if any.
type keptLine struct {
	line     string
	from, to int
	at       Timestamp
	quote    string
}

// Bounds on what is kept: a log of more is read as it comes.
const (
	maxKeptLines = 1 << 17
	maxKeptBytes = 32 << 20
	// forwardSteps of an event's time on, with fewer than a quarter as
	// many back, show a log that runs forward: nothing more is kept.
	forwardSteps = 16
)

// forward counts a step of an event's time on.
func (o *order) forward() {
	o.on++
	if !o.off && o.on >= forwardSteps && o.on > 4*o.back {
		o.off, o.lines = true, nil
	}
}

// newestFirst reports whether the log ran newest first: its events' times
// stepped back at least twice, and more than four times as often as on;
// or, in an export of whole seconds whose other steps keep the time (as
// Synology's Log Center writes it), back once by a second or more and
// never on. (One step back alone is a line out of order, or a clock set
// back; a step of microseconds, two CPUs' printk.)
func (o *order) newestFirst() bool {
	return !o.off && (o.back >= 2 && o.back > 4*o.on || o.back == 1 && o.on == 0 && o.far && o.same > 0)
}

// top hands a logical line of the log (not one of its parts) to logical,
// keeping it while the log may run newest first.
func (st *state) top(line string, from, to int, at Timestamp) {
	if o := &st.order; !o.off {
		if len(o.lines) >= maxKeptLines || o.bytes+len(line) > maxKeptBytes {
			o.off, o.lines = true, nil
		} else {
			o.lines = append(o.lines, keptLine{line: line, from: from, to: to, at: at, quote: st.pretty.quotes[from]})
			o.bytes += len(line)
		}
	}
	st.logical(line, from, to, at)
}

// oldestFirst reads the kept lines of a log that ran newest first again,
// oldest first, into a fresh state, as the log reversed (tac) reads: a
// line's number counts from the log's end, line 1 its last line, so that
// the numbers run with the times, as every rule that orders by line
// expects. What the first reading learnt of the log as a whole (its
// lines, its compression, its shape) is kept, and the Log marked so
// (Log.NewestFirst).
func (st *state) oldestFirst(opts Options) *state {
	st2 := newState(opts)
	st2.csv, st2.stamped, st2.shaped, st2.text = st.csv, st.stamped, st.shaped, st.text
	st2.order.off = true
	n := int(st.log.Lines) + 1
	for i := len(st.order.lines) - 1; i >= 0; i-- {
		k := st.order.lines[i]
		from, to := n-k.to, n-k.from
		if k.quote != "" {
			if st2.pretty.quotes == nil {
				st2.pretty.quotes = map[int]string{}
			}
			st2.pretty.quotes[from] = k.quote
		}
		st2.logical(k.line, from, to, k.at)
	}
	st2.endCallback()
	st2.endCrash()
	st2.flushBARs()
	st2.flushUnnamedBARs()
	l, l2 := st.log, st2.log
	l2.Lines, l2.LongLines, l2.BinaryLines, l2.Compression = l.Lines, l.LongLines, l.BinaryLines, l.Compression
	l2.NewestFirst = true
	return st2
}
