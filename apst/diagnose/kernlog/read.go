package kernlog

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"
)

// Limits of Read (see the package documentation).
const (
	// MaxLineLength is the longest line Read looks at; a longer one is
	// skipped and counted in Log.LongLines. Kernel messages are at most
	// 1024 bytes, journal and syslog prefixes add less than 200.
	MaxLineLength = 64 << 10
	// MaxEvents is how many events Read keeps in its incidents; the
	// others are counted (Incident.Counts, Log.Events) but not kept.
	MaxEvents = 20000
	// MaxIncidents is how many incidents Read keeps, the most recent ones;
	// older ones are counted in Log.DroppedIncidents.
	MaxIncidents = 500
	// MaxIncidentEvents is how many events one incident keeps: the first
	// half and the last half, the ones between counted in
	// Incident.Omitted.
	MaxIncidentEvents = 64
	// MaxAddresses is how many PCI addresses Log.Addresses maps (with those
	// of Options): a machine has a few dozen NVMe functions; the "pci
	// function" lines of further addresses are counted in
	// Log.DroppedAddresses, not kept.
	MaxAddresses = 4096
	// DefaultGap is the quiet time after which a controller's next event
	// starts a new incident.
	DefaultGap = 5 * time.Minute
)

// ErrBinary is returned for input that holds NUL bytes and no event: a
// binary file (a journal file, a core dump) rather than a text log.
var ErrBinary = errors.New("kernlog: input is binary, not a text kernel log")

// Options adjusts Read. The zero value is ready to use.
type Options struct {
	// Addresses maps PCI addresses ("0000:04:00.0") of controllers, and of
	// the ports above them, to controller names ("nvme0"), for logs that
	// name a device only by address (AER, D3cold, pciehp lines). The log's
	// own "pci function" lines are used too.
	Addresses map[string]string
	// Gap is the quiet time after which a controller's next event starts
	// a new incident; zero means DefaultGap.
	Gap time.Duration
}

// Log is what Read found.
type Log struct {
	// Release is the kernel release of the last boot the log shows
	// ("Linux version ..."), CommandLine its command line; empty when the
	// log does not have them.
	Release     string
	CommandLine string
	// Boots is the number of "Linux version" lines.
	Boots int
	// Lines is the number of lines read; LongLines those longer than
	// MaxLineLength (skipped), BinaryLines those holding NUL bytes
	// (skipped).
	Lines       int64
	LongLines   int64
	BinaryLines int64
	// Events is the number of events recognised; DroppedEvents those not
	// kept (beyond MaxEvents or MaxIncidentEvents), DroppedIncidents the
	// incidents dropped beyond MaxIncidents (the oldest).
	Events           int64
	DroppedEvents    int64
	DroppedIncidents int64
	// Backwards counts lines whose time stamp is earlier than the one
	// before in the same boot (a log pasted out of order, or merged).
	Backwards int64
	// Addresses maps PCI addresses to controllers, from Options and the
	// log's "pci function" lines, at most MaxAddresses of them (a line
	// naming a known address updates it); DroppedAddresses counts the
	// lines of addresses beyond.
	Addresses        map[string]string
	DroppedAddresses int64
	// Incidents are the incidents in the order they started.
	Incidents []Incident
}

// Incident is a run of events of one controller (or of one PCI address the
// log and the options do not tie to a controller) without a quiet gap
// longer than Options.Gap, within one boot.
type Incident struct {
	// Controller is the controller ("nvme0"); empty when the events name
	// only a PCI address, which PCI then holds.
	Controller string
	PCI        string
	// Boot is the boot the incident happened in, counted from 0 (the part
	// of the log before the first "Linux version" line is boot 0 as well).
	Boot int
	// Start and End are the times of its first and last events.
	Start Timestamp
	End   Timestamp
	// Events are the events kept, in log order; Omitted is how many were
	// not kept between the first and the last ones.
	Events  []Event
	Omitted int
	// Counts is the number of events of each kind, kept or not.
	Counts map[Kind]int

	tail []Event // ring of the last events while reading
	next int     // index of the oldest event of a full tail
}

// Has reports whether the incident has an event of kind k.
func (in *Incident) Has(k Kind) bool { return in.Counts[k] > 0 }

// First returns the first kept event of kind k.
func (in *Incident) First(k Kind) (Event, bool) {
	for _, e := range in.Events {
		if e.Kind == k {
			return e, true
		}
	}
	return Event{}, false
}

// Name is the controller, or the PCI address when the controller is
// unknown, or "kernel" for events of no device.
func (in *Incident) Name() string {
	switch {
	case in.Controller != "":
		return in.Controller
	case in.PCI != "":
		return in.PCI
	}
	return "kernel"
}

// Read reads a kernel log from r and returns its events grouped into
// incidents. It stops at the end of r; only a read error of r, a context
// cancellation or binary input (ErrBinary) is an error, and then the
// returned Log holds what was read so far.
func Read(ctx context.Context, r io.Reader, opts Options) (*Log, error) {
	st := newState(opts)
	err := scan(ctx, r, &st.log.Lines, &st.log.LongLines, st.line)
	l := st.finish()
	if err != nil {
		return l, err
	}
	if l.Events == 0 && l.BinaryLines > 0 {
		return l, fmt.Errorf("%w: %d of %d lines hold NUL bytes and none is a kernel event", ErrBinary, l.BinaryLines, l.Lines)
	}
	return l, nil
}

// Lines calls fn with each line of r (without its line ending) that is at
// most MaxLineLength bytes long, skipping longer ones, as Read does. The
// slice is valid only during the call. Only a read error of r or ctx's
// error is returned.
func Lines(ctx context.Context, r io.Reader, fn func(line []byte)) error {
	var lines, long int64
	return scan(ctx, r, &lines, &long, func(b []byte) { fn(bytes.TrimRight(b, "\r\n")) })
}

// Relevant reports whether a raw log line can hold an event Read
// recognises (it names nvme, AER, a PCIe bus error, a D0 resume failure, a
// hotplug slot, the kernel release or command line): a cheap filter for
// keeping only the NVMe and PCIe lines of a log.
func Relevant(line []byte) bool {
	return bytes.IndexByte(line, 0) < 0 && interestingBytes(line)
}

// scan reads r line by line, counting lines and skipped long lines.
func scan(ctx context.Context, r io.Reader, lines, longLines *int64, fn func([]byte)) error {
	br := bufio.NewReaderSize(r, MaxLineLength)
	long := false
	for {
		line, err := br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			if !long {
				*longLines++
				*lines++
			}
			long = true
			continue
		case long:
			long = false
		case len(line) > 0:
			*lines++
			if *lines%4096 == 0 {
				if cerr := ctx.Err(); cerr != nil {
					return fmt.Errorf("kernlog: line %d: %w", *lines, cerr)
				}
			}
			fn(line)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("kernlog: reading line %d: %w", *lines+1, err)
		}
	}
}

// ReadString is Read of a string, for tests and examples.
func ReadString(s string, opts Options) (*Log, error) {
	return Read(context.Background(), bytes.NewReader([]byte(s)), opts)
}

// state is Read's work in progress.
type state struct {
	log   *Log
	gap   time.Duration
	boot  int
	last  Timestamp // time of the last line with one, this boot
	open  map[string]int
	kept  int
	first int // index in log.Incidents of the oldest kept incident
}

func newState(opts Options) *state {
	gap := opts.Gap
	if gap <= 0 {
		gap = DefaultGap
	}
	l := &Log{Addresses: map[string]string{}}
	maps.Copy(l.Addresses, opts.Addresses)
	return &state{log: l, gap: gap, open: map[string]int{}}
}

// line handles one line (with its newline).
func (st *state) line(b []byte) {
	b = bytes.TrimRight(b, "\r\n")
	if bytes.IndexByte(b, 0) >= 0 {
		st.log.BinaryLines++
		return
	}
	if !interestingBytes(b) {
		return
	}
	ts, msg, ok := splitLine(string(b))
	if !ok {
		return
	}
	e, ok := parseMessage(msg)
	if !ok {
		return
	}
	e.Line, e.Time = int(min(st.log.Lines, 1<<31-1)), ts
	st.log.Events++
	switch e.Kind {
	case Boot:
		if st.log.Boots > 0 || st.hasIncidents() {
			st.boot++
		}
		st.log.Boots++
		st.log.Release, st.log.CommandLine = e.Text, ""
		st.last = Timestamp{}
		clear(st.open)
		return
	case CommandLine:
		st.log.CommandLine = e.Text
		return
	case PCIFunction:
		if _, known := st.log.Addresses[e.PCI]; !known && len(st.log.Addresses) >= MaxAddresses {
			st.log.DroppedAddresses++
			return
		}
		st.log.Addresses[e.PCI] = e.Controller
		return
	}
	if !ts.IsZero() {
		if d, ok := ts.sub(st.last); ok && d < 0 {
			st.log.Backwards++
		}
		st.last = ts
	}
	st.add(e)
}

func (st *state) hasIncidents() bool { return len(st.log.Incidents) > 0 }

// key is the incident key of an event: its controller, else the controller
// its PCI address (or reporting port) maps to, else the address.
func (st *state) key(e *Event) (ctrl, pci string) {
	if e.Controller != "" {
		return e.Controller, e.PCI
	}
	for _, a := range []string{e.PCI, e.Reporter} {
		if c := st.log.Addresses[a]; a != "" && c != "" {
			return c, e.PCI
		}
	}
	if e.PCI != "" {
		return "", e.PCI
	}
	return "", e.Reporter
}

// add puts an event into its controller's open incident, or a new one.
func (st *state) add(e Event) {
	ctrl, pci := st.key(&e)
	if e.Controller == "" {
		e.Controller = ctrl
	}
	k := ctrl
	if k == "" {
		k = "pci " + pci
	}
	idx, ok := st.open[k]
	if ok && idx >= st.first {
		in := &st.log.Incidents[idx]
		if d, cmp := e.Time.sub(in.End); cmp && (d > st.gap || d < -st.gap) {
			ok = false
		}
	} else {
		ok = false
	}
	if !ok {
		if len(st.open) >= MaxIncidents*2 {
			clear(st.open) // bound the keys a hostile log can make
		}
		st.log.Incidents = append(st.log.Incidents, Incident{Controller: ctrl, PCI: pci, Boot: st.boot, Start: e.Time, Counts: map[Kind]int{}})
		idx = len(st.log.Incidents) - 1
		st.open[k] = idx
		st.trim()
		idx = st.open[k]
	}
	in := &st.log.Incidents[idx]
	if in.PCI == "" {
		in.PCI = pci
	}
	in.Counts[e.Kind]++
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

// finish closes every incident: the tail joins the kept events, and
// incidents known only by PCI address get the controller the addresses
// now map it to.
func (st *state) finish() *Log {
	l := st.log
	l.Incidents = slices.Clip(l.Incidents[st.first:])
	st.first = 0
	for i := range l.Incidents {
		in := &l.Incidents[i]
		in.Events = append(in.Events, in.tail[in.next:]...)
		in.Events = append(in.Events, in.tail[:in.next]...)
		in.tail, in.next = nil, 0
		if in.Controller == "" {
			if c := l.Addresses[in.PCI]; c != "" {
				in.Controller = c
				for j := range in.Events {
					in.Events[j].Controller = c
				}
			}
		}
	}
	clear(st.open)
	return l
}
