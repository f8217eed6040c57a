// Package tracetest generates synthetic block I/O workloads and renders them
// as traces in every format package trace reads, for tests, benchmarks and
// examples.
//
// A workload is an iter.Seq[Command] sorted by dispatch time: Writeback
// (a burst of writes every period, as the kernel's writeback every 5 s),
// Interactive (an interactive reader with exponential idle gaps, seeded),
// Intel600pRun (a 13-second desktop run shaped like the Intel 600p
// report) and Commands (a fixed list). Render and NewReader write one as
// blkparse text, biosnoop (bcc or bpftrace), a fio iolog v3 or a plain
// trace; NewReader does it lazily, so a trace of 10^7 commands needs no
// memory of its length.
package tracetest

import (
	"fmt"
	"io"
	"iter"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
)

// Command is one I/O command of a synthetic workload.
type Command struct {
	// Dispatch is when the command is sent, in nanoseconds from the start.
	Dispatch int64
	// Completion is when it completes (at least Dispatch).
	Completion int64
}

// Commands returns a workload of the given commands, which must be sorted
// by dispatch time.
func Commands(cmds ...Command) iter.Seq[Command] { return slices.Values(cmds) }

// Writeback returns bursts bursts of writes, one every period starting at
// 0: burst writes dispatched 50 µs apart, each served in 200 µs (so up to
// four are outstanding at once). With period 5 s it is the kernel's
// dirty-page writeback of an otherwise idle system: one idle period of
// period − (burst−1)·50 µs − 200 µs between bursts.
func Writeback(bursts int, period time.Duration, burst int) iter.Seq[Command] {
	return func(yield func(Command) bool) {
		for b := range bursts {
			base := int64(b) * int64(period)
			for i := range burst {
				d := base + int64(i)*50_000
				if !yield(Command{Dispatch: d, Completion: d + 200_000}) {
					return
				}
			}
		}
	}
}

// Interactive returns n commands of an interactive reader: each served in
// service, separated by idle gaps drawn from an exponential distribution of
// mean mean, rounded to a whole microsecond, from a PCG source seeded with
// seed (the same seed gives the same workload). The first command is
// dispatched at 0.
func Interactive(seed uint64, n int, mean, service time.Duration) iter.Seq[Command] {
	return func(yield func(Command) bool) {
		rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
		var t int64
		for i := range n {
			if i > 0 {
				g := math.Round(rng.ExpFloat64() * float64(mean) / 1e3)
				t += int64(g) * 1e3
			}
			c := Command{Dispatch: t, Completion: t + int64(service)}
			if !yield(c) {
				return
			}
			t = c.Completion
		}
	}
}

// Intel600pRun returns a 13-second desktop run shaped like the Intel 600p
// (SSDPEKKW256G7) report: a start-up burst of 200 reads 1 ms apart (300 µs
// each), then single reads separated by idle gaps that cross each of the
// drive's thresholds (50 ms, the 100 ms primary timeout, the v4.12
// heuristic's 515 ms for ps3 and 1115 ms for ps4, and longer), with the
// journal's writeback bursts (8 writes) at 5 s and 10 s, and a last read at
// 13 s. Every time is a whole number of microseconds.
func Intel600pRun() iter.Seq[Command] {
	var cs []Command
	for i := range 200 {
		d := int64(i) * 1e6
		cs = append(cs, Command{Dispatch: d, Completion: d + 300_000})
	}
	// Idle gaps after the burst, in ms, before each read.
	gaps := []int64{50, 99, 100, 101, 150, 300, 514, 515, 516, 600, 1000, 1114, 1115, 1116, 1500, 2000}
	t := cs[len(cs)-1].Completion
	wb := []int64{5e9, 10e9}
	for _, g := range gaps {
		d := t + g*1e6
		for len(wb) > 0 && wb[0] < d {
			// The writeback burst: 8 writes, 1 ms apart, 1 ms each.
			for i := range int64(8) {
				cs = append(cs, Command{Dispatch: wb[0] + i*1e6, Completion: wb[0] + (i+1)*1e6})
			}
			t = wb[0] + 8e6
			wb = wb[1:]
			d = t + g*1e6
		}
		cs = append(cs, Command{Dispatch: d, Completion: d + 1e6})
		t = d + 1e6
	}
	cs = append(cs, Command{Dispatch: 13e9 - 1e6, Completion: 13e9})
	return slices.Values(cs)
}

// Options name the device of a rendered trace and, for blkparse, what it
// holds. The zero value writes one device (259,0, "nvme0n1") and, for
// blkparse, the Q, D and C lines of each command on CPU 0.
type Options struct {
	// Major and Minor are the blkparse device (default 259,0).
	Major, Minor uint32
	// Disk is the biosnoop disk and, with "/dev/" before it, the fio file
	// (default "nvme0n1").
	Disk string
	// Summary appends blkparse's per-CPU and total summary blocks.
	Summary bool

	// Actions are the blkparse lines written for each command, in the
	// order of their times: letters of "QGIDC" (queue, get request,
	// insert, dispatch, complete), holding D and C; "" means "QDC".
	// "QGIDC" is what blkparse prints of a plain trace (blktrace's
	// default mask), "DC" what `blkparse -a issue -a complete` prints:
	// the sequence numbers then skip the actions left out, as they do in
	// a filtered trace. Other letters are refused with an error of Render
	// (and of the reader's Read).
	Actions string
	// CPUs spreads the commands over that many CPUs, round robin, each
	// with its own sequence numbers as blktrace counts them (0 means 1).
	CPUs int
	// Devices spreads the commands over that many devices, round robin:
	// Major,Minor, Major,Minor+1... (0 means 1). A trace of several
	// devices is replayed with one selected.
	Devices int
	// FirstSeq is the first sequence number of each CPU (0 means 1):
	// 99999990 takes them past the 8 digits of blkparse's field.
	FirstSeq uint64
	// TimeOffset is added to every blkparse time: 100000 s takes them
	// past the 5 digits of the seconds' field.
	TimeOffset time.Duration
	// PID is the process of the Q, G, I and D lines (0 means 4242):
	// 1234567 takes it past the 5 digits of blkparse's field. C lines
	// have PID 0 (an interrupt), as blkparse prints them.
	PID uint32
}

func (o *Options) defaults() {
	if o.Major == 0 && o.Minor == 0 {
		o.Major = 259
	}
	if o.Disk == "" {
		o.Disk = "nvme0n1"
	}
	if o.Actions == "" {
		o.Actions = "QDC"
	}
	o.CPUs = max(o.CPUs, 1)
	o.Devices = max(o.Devices, 1)
	if o.FirstSeq == 0 {
		o.FirstSeq = 1
	}
	if o.PID == 0 {
		o.PID = 4242
	}
}

// actions checks o.Actions: its letters, in the order Q G I D C.
func (o *Options) actions() error {
	var seen [256]bool
	last := -1
	for i := 0; i < len(o.Actions); i++ {
		c := o.Actions[i]
		k := strings.IndexByte(blkMix, c)
		if k < 0 || seen[c] || k < last {
			return fmt.Errorf("tracetest: Actions %q: want letters of %q in that order, each once, with D and C", o.Actions, blkMix)
		}
		seen[c], last = true, k
	}
	if !seen['D'] || !seen['C'] {
		return fmt.Errorf("tracetest: Actions %q: want D and C among them", o.Actions)
	}
	return nil
}

// blkMix are the actions blktrace traces of a command, in order: each
// takes a sequence number whether blkparse prints it or not.
const blkMix = "QGIDC"

// Render writes workload cmds to w as a trace of format f (any but
// FormatAuto). Times are written exactly where the format allows it:
// blkparse and plain to the nanosecond, bcc biosnoop with TIME to the
// nanosecond and LAT to the nanosecond (6 decimals of ms), fio to the
// nanosecond as decimal milliseconds; bpftrace's biosnoop prints whole
// milliseconds, rounded down.
func Render(w io.Writer, f trace.Format, cmds iter.Seq[Command], opt Options) error {
	r := NewReader(f, cmds, opt)
	defer r.Close()
	_, err := io.Copy(w, r)
	return err
}

// NewReader returns the trace of format f of workload cmds as a reader
// that renders it as it is read, with memory independent of the workload's
// length (only the commands outstanding at once are held). Close releases
// the workload's iterator when the trace is not read to its end.
func NewReader(f trace.Format, cmds iter.Seq[Command], opt Options) io.ReadCloser {
	opt.defaults()
	next, stop := iter.Pull(cmds)
	r := &renderer{f: f, next: next, stop: stop, opt: opt}
	r.err = opt.actions()
	if opt.TimeOffset < 0 {
		r.err = fmt.Errorf("tracetest: TimeOffset %v: want 0 or more", opt.TimeOffset)
	}
	if f == trace.FormatBlkparse {
		r.seqs = make([]uint64, opt.CPUs)
		for i := range r.seqs {
			r.seqs[i] = opt.FirstSeq
		}
	}
	return r
}

type renderer struct {
	f       trace.Format
	next    func() (Command, bool)
	stop    func()
	opt     Options
	buf     []byte
	off     int
	started bool
	done    bool
	pending []pend // sorted by completion
	count   uint64
	err     error    // the Options' error, returned by Read
	seqs    []uint64 // blkparse: the next sequence number of each CPU
	lastT   int64    // blkparse: the time of the last line written
	lines   uint64   // blkparse: lines written
}

// pend is a command waiting for its completion to be written: for
// blkparse, with its CPU, device and sector.
type pend struct {
	Command
	cpu, dev int
	sector   uint64
}

// Close stops the workload's iterator; later reads return io.EOF.
func (r *renderer) Close() error {
	r.stop()
	r.done = true
	r.buf, r.off = r.buf[:0], 0
	return nil
}

func (r *renderer) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	for r.off == len(r.buf) {
		if r.done {
			return 0, io.EOF
		}
		r.buf, r.off = r.buf[:0], 0
		r.fill()
	}
	n := copy(p, r.buf[r.off:])
	r.off += n
	return n, nil
}

// fill renders the next commands into r.buf.
func (r *renderer) fill() {
	if !r.started {
		r.started = true
		r.header()
	}
	for range 64 {
		c, ok := r.next()
		if !ok {
			r.flush(math.MaxInt64)
			r.footer()
			r.stop()
			r.done = true
			return
		}
		r.command(c)
	}
}

func (r *renderer) header() {
	switch r.f {
	case trace.FormatBiosnoop:
		r.buf = append(r.buf, "TIME(s)     COMM           PID    DISK    T SECTOR     BYTES   LAT(ms)\n"...)
	case trace.FormatBiosnoopBpftrace:
		r.buf = append(r.buf, "Attaching 4 probes...\nTIME(ms)     DISK    COMM             PID    LAT(ms)\n"...)
	case trace.FormatFioIolog:
		dev := "/dev/" + r.opt.Disk
		r.buf = append(r.buf, "fio version 3 iolog\n0 "+dev+" add\n0 "+dev+" open\n"...)
	case trace.FormatPlain:
		r.buf = append(r.buf, "# seconds duration\n"...)
	}
}

func (r *renderer) footer() {
	switch r.f {
	case trace.FormatBlkparse:
		if r.opt.Summary {
			// The blocks' shape, as blkparse prints them (their counts
			// are not the trace's: the replay skips them).
			dev := strconv.Itoa(int(r.opt.Major)) + "," + strconv.Itoa(int(r.opt.Minor))
			r.buf = append(r.buf, '\n')
			for cpu := range r.opt.CPUs {
				r.buf = append(r.buf, "CPU"+strconv.Itoa(cpu)+" ("+dev+"):\n Reads Queued:           0,        0KiB\t Writes Queued:          "+strconv.FormatUint(r.count, 10)+",        0KiB\n"...)
			}
			r.buf = append(r.buf, "\nTotal ("+dev+"):\n Reads Queued:           0,        0KiB\t Writes Queued:          0,        0KiB\n\nThroughput (R/W): 0KiB/s / 0KiB/s\nEvents ("+dev+"): "+strconv.FormatUint(r.lines, 10)+" entries\nSkips: 0 forward (0 -   0.0%)\n"...)
		}
	case trace.FormatFioIolog:
		r.buf = append(r.buf, "0 /dev/"+r.opt.Disk+" close\n"...)
	}
}

// command renders one command: the lines of every earlier completion
// first where the format is in completion or event order.
func (r *renderer) command(c Command) {
	r.count++
	switch r.f {
	case trace.FormatBlkparse:
		i := r.count - 1
		p := pend{Command: c, cpu: int(i % uint64(r.opt.CPUs)), dev: int(i % uint64(r.opt.Devices)), sector: sectorOf(i)}
		// Q, G and I come a little before D (300, 200, 100 ns; never
		// before a line already written); each takes a sequence number
		// whether it is written or not.
		for k, a := range []byte(blkMix[:4]) {
			t := max(c.Dispatch-int64(300-100*k), r.lastT)
			if a == 'D' {
				t = c.Dispatch
			}
			r.flush(t)
			r.blkparse(t, &p, a, r.opt.PID)
		}
		r.insert(p)
	case trace.FormatBiosnoop, trace.FormatBiosnoopBpftrace:
		r.flush(c.Dispatch)
		r.insert(pend{Command: c})
	case trace.FormatFioIolog:
		r.buf = strconv.AppendInt(r.buf, c.Dispatch/1e6, 10)
		if f := c.Dispatch % 1e6; f != 0 {
			r.buf = append(r.buf, '.')
			r.buf = appendPadded(r.buf, f, 6)
		}
		r.buf = append(r.buf, " /dev/"...)
		r.buf = append(r.buf, r.opt.Disk...)
		r.buf = append(r.buf, " read "...)
		r.buf = strconv.AppendUint(r.buf, r.count*4096, 10)
		r.buf = append(r.buf, " 4096\n"...)
	default:
		r.buf = appendSeconds(r.buf, c.Dispatch)
		r.buf = append(r.buf, ' ')
		r.buf = appendSeconds(r.buf, c.Completion-c.Dispatch)
		r.buf = append(r.buf, '\n')
	}
}

func (r *renderer) insert(c pend) {
	i, _ := slices.BinarySearchFunc(r.pending, c.Completion, func(p pend, t int64) int {
		if p.Completion <= t {
			return -1
		}
		return 1
	})
	r.pending = slices.Insert(r.pending, i, c)
}

// flush renders the completions at or before t.
func (r *renderer) flush(t int64) {
	n := 0
	for _, c := range r.pending {
		if c.Completion > t {
			break
		}
		n++
		switch r.f {
		case trace.FormatBlkparse:
			r.blkparse(c.Completion, &c, 'C', 0)
		case trace.FormatBiosnoop:
			r.buf = appendDecimal(r.buf, c.Completion, 9)
			r.buf = append(r.buf, "  fio            4242   "...)
			r.buf = append(r.buf, r.opt.Disk...)
			r.buf = append(r.buf, " R 2048       4096    "...)
			r.buf = appendDecimal(r.buf, c.Completion-c.Dispatch, 6)
			r.buf = append(r.buf, '\n')
		case trace.FormatBiosnoopBpftrace:
			ms := c.Completion / 1e6
			r.buf = strconv.AppendInt(r.buf, ms, 10)
			r.buf = append(r.buf, "  "...)
			r.buf = append(r.buf, r.opt.Disk...)
			r.buf = append(r.buf, " fio              4242   "...)
			r.buf = strconv.AppendInt(r.buf, ms-c.Dispatch/1e6, 10)
			r.buf = append(r.buf, '\n')
		}
	}
	r.pending = slices.Delete(r.pending, 0, n)
}

// blkparse writes the line of action a of command p at time t (ns), in
// blkparse's default layout: the header "%D %2c %8s %5T.%9t %5p %2a %3d "
// (blkparse_fmt.c's HEADER, and the blkparse(1) man page; %D is
// "%3d,%-3d") and the trailer of a Q, G, I, D ("%S + %n [%C]") or C
// ("%S + %n [%e]") line. Fields wider than their width push the rest to
// the right, as printf does. The layout against a real trace of an NVMe
// drive (harvester/harvesterhci.io, kb/2023-07-06/
// package_your_own_toolbox_image.md, `blktrace -d /dev/nvme0n1 -o - |
// blkparse -i -`):
//
//	259,0   10     3420     0.020818437 34084  D  WS 2414127984 + 8 [fio]
//
// and this renderer's, for the same fields (CPU 1, sequence 4, 1.004 ms,
// PID 1234, a read of 8 sectors at 7768):
//
//	259,0    1        4     0.001004000  1234  D   R 7768 + 8 [fio]
//
// Every action takes the next sequence number of its CPU; only those in
// Options.Actions are written.
func (r *renderer) blkparse(t int64, p *pend, a byte, pid uint32) {
	seq := r.seqs[p.cpu]
	r.seqs[p.cpu]++
	if strings.IndexByte(r.opt.Actions, a) < 0 {
		return
	}
	r.lastT = t
	r.lines++
	t += int64(r.opt.TimeOffset)
	b := r.buf
	b = appendRight(b, uint64(r.opt.Major), 3)
	b = append(b, ',')
	n := len(b)
	b = strconv.AppendUint(b, uint64(r.opt.Minor)+uint64(p.dev), 10)
	for range 3 - (len(b) - n) {
		b = append(b, ' ')
	}
	b = append(b, ' ')
	b = appendRight(b, uint64(p.cpu), 2)
	b = append(b, ' ')
	b = appendRight(b, seq, 8)
	b = append(b, ' ')
	b = appendRight(b, uint64(t/1e9), 5)
	b = append(b, '.')
	b = appendPadded(b, t%1e9, 9)
	b = append(b, ' ')
	b = appendRight(b, uint64(pid), 5)
	b = append(b, ' ', ' ', a, ' ', ' ', ' ', 'R', ' ')
	b = strconv.AppendUint(b, p.sector, 10)
	if a == 'C' {
		b = append(b, " + 8 [0]\n"...)
	} else {
		b = append(b, " + 8 [fio]\n"...)
	}
	r.buf = b
}

// sectorOf returns the sector of command i: a multiple of 8 below 2^31,
// a different one for each of the first 244 million commands.
func sectorOf(i uint64) uint64 { return 8 * (i * 2654435761 % 244190645) }

// appendRight appends v right-aligned in width bytes (printf's %Nd).
func appendRight(b []byte, v uint64, width int) []byte {
	var tmp [20]byte
	s := strconv.AppendUint(tmp[:0], v, 10)
	for range width - len(s) {
		b = append(b, ' ')
	}
	return append(b, s...)
}

// appendDecimal appends v/10^digits with digits decimals.
func appendDecimal(b []byte, v int64, digits int) []byte {
	p := int64(1)
	for range digits {
		p *= 10
	}
	b = strconv.AppendInt(b, v/p, 10)
	b = append(b, '.')
	return appendPadded(b, v%p, digits)
}

func appendSeconds(b []byte, ns int64) []byte { return appendDecimal(b, ns, 9) }

func appendPadded(b []byte, v int64, width int) []byte {
	var tmp [20]byte
	s := strconv.AppendInt(tmp[:0], v, 10)
	for range width - len(s) {
		b = append(b, '0')
	}
	return append(b, s...)
}
