package trace

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"slices"
	"strconv"
	"strings"
)

// Bounds of a Reader.
const (
	// DefaultMaxLineLength is the longest line a Reader accepts when
	// Options.MaxLineLength is 0: 64 KiB.
	DefaultMaxLineLength = 64 << 10
	// DefaultReorderWindow is the number of events a Reader holds to put
	// them in time order when Options.ReorderWindow is 0.
	DefaultReorderWindow = 1 << 14
	// MaxReorderWindow is the largest Options.ReorderWindow.
	MaxReorderWindow = 1 << 22
)

// Options select the format, the device and the bounds of a Reader. The
// zero value detects the format, selects no device and uses the default
// bounds.
type Options struct {
	// Format is the trace's format; FormatAuto (the zero value) detects it
	// from the content.
	Format Format
	// Device selects the device of a blkparse trace, "MAJ,MIN" (e.g.
	// "259,0"). It is an error for the other formats.
	Device string
	// Disk selects the disk of a biosnoop trace by name ("nvme0n1"), or
	// the file of a fio iolog; a leading "/dev/" is ignored on both sides.
	// It is an error for blkparse and plain traces.
	Disk string
	// MaxLineLength is the longest line accepted, in bytes;
	// 0 means DefaultMaxLineLength.
	MaxLineLength int
	// ReorderWindow is the number of events held to sort them by time;
	// 0 means DefaultReorderWindow, at most MaxReorderWindow. The Reader
	// keeps at most about four times this many events (24 bytes each).
	ReorderWindow int
	// Workers, from 1 to MaxWorkers, parses a blkparse trace on that many
	// goroutines (see Reader.Close); 0 reads it on the caller's goroutine.
	// The events and errors are the same either way. The other formats,
	// and a MaxLineLength above 256 MiB, are always read on the caller's
	// goroutine.
	Workers int
}

// maxFields is the number of whitespace-separated fields a line may have
// (biosnoop's COMM may contain spaces).
const maxFields = 64

// item is an event waiting in the reorder window.
type item struct {
	t   int64  // raw time, ns
	tie uint64 // blkparse: sequence number; others: 0 dispatch, 1 completion
	arr uint64 // arrival counter << 1 | (kind - 1)
	id  uint64 // Event.ID
}

// Reader reads the events of a trace in time order. Create one with
// NewReader; the zero value is not usable (Next returns ErrNotInitialized).
// A Reader belongs to one goroutine.
type Reader struct {
	ok     bool
	src    *bufio.Reader
	format Format
	max    int
	window int
	line   int

	// Selection.
	selected    bool
	selMaj      uint64
	selMin      uint64
	selName     string // Disk, without "/dev/"
	device      string // the device of the events, "" until known
	devices     []string
	moreDevices bool
	multi       bool // several devices and none selected: listing them
	matched     bool

	// Format state.
	header  bool
	summary bool
	cols    columns
	fs      [maxFields][2]int32
	scanner blkScanner

	// Reorder window: the events that arrived in order are buf[head:],
	// sorted (appended, popped from the front: O(1) each); those that
	// arrived before an event already held are in heap, a binary min-heap
	// (O(log w) each). The window's least event is the least of the two
	// fronts.
	buf     []item
	heap    []item
	head    int
	arrival uint64
	emitted bool
	last    int64
	origin  int64

	cmds uint64 // commands read from one-line formats: their IDs

	eof bool
	err error

	// Parallel path (Options.Workers).
	workers   int
	blockSize int
	par       *parallel
	closed    bool
}

// columns are the positions of a biosnoop header's columns.
type columns struct {
	n, time, lat, disk, comm int // comm, disk: -1 when absent
}

// NewReader returns a Reader of the trace r. Unless opt.Format names the
// format it detects it (Detect), reading ahead only until the first
// significant line has arrived (at most Options.MaxLineLength bytes), so
// that a live pipe starts at once. Errors: a nil r, invalid options, content of no
// known format (ErrUnknownFormat), a fio iolog of version 2 (ErrFioV2), a
// selector that does not apply to the format.
func NewReader(r io.Reader, opt Options) (*Reader, error) {
	if r == nil {
		return nil, fmt.Errorf("%w: nil io.Reader", ErrOptions)
	}
	if !opt.Format.Valid() {
		return nil, fmt.Errorf("%w: format %d", ErrOptions, uint8(opt.Format))
	}
	max := opt.MaxLineLength
	switch {
	case max == 0:
		max = DefaultMaxLineLength
	case max < 16:
		return nil, fmt.Errorf("%w: MaxLineLength %d, want 0 or at least 16", ErrOptions, max)
	}
	window := opt.ReorderWindow
	switch {
	case window == 0:
		window = DefaultReorderWindow
	case window < 0 || window > MaxReorderWindow:
		return nil, fmt.Errorf("%w: ReorderWindow %d, want 0..%d", ErrOptions, window, MaxReorderWindow)
	}
	if opt.Workers < 0 || opt.Workers > MaxWorkers {
		return nil, fmt.Errorf("%w: Workers %d, want 0..%d", ErrOptions, opt.Workers, MaxWorkers)
	}
	rd := &Reader{ok: true, src: bufio.NewReaderSize(r, max+2), max: max, window: window, workers: opt.Workers, blockSize: parBlockSize}
	f := opt.Format
	if f == FormatAuto {
		// Peek at what has arrived, one read more at a time until it
		// holds the first significant line, so that a live pipe starts at
		// once.
		for want := 1; ; {
			_, err := rd.src.Peek(want)
			peek, _ := rd.src.Peek(rd.src.Buffered())
			if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
				return nil, fmt.Errorf("trace: reading: %w", err)
			}
			if err == nil && len(peek) < rd.src.Size() && !significantLine(peek) {
				want = len(peek) + 1
				continue
			}
			if f, err = Detect(peek); err != nil {
				return nil, err
			}
			break
		}
	}
	rd.format = f
	switch {
	case opt.Device != "" && f != FormatBlkparse:
		return nil, fmt.Errorf("%w: Device %q selects a blkparse device (MAJ,MIN); a %s trace is selected by Disk", ErrOptions, opt.Device, f)
	case opt.Disk != "" && f != FormatBiosnoop && f != FormatBiosnoopBpftrace && f != FormatFioIolog:
		return nil, fmt.Errorf("%w: Disk %q selects a biosnoop disk or a fio file; a %s trace %s", ErrOptions, opt.Disk, f, map[bool]string{true: "is selected by Device (MAJ,MIN)", false: "has no devices"}[f == FormatBlkparse])
	case opt.Device != "":
		maj, min, ok := parseDev([]byte(strings.TrimSpace(opt.Device)))
		if !ok {
			return nil, fmt.Errorf("%w: Device %q, want MAJ,MIN (e.g. 259,0)", ErrOptions, opt.Device)
		}
		rd.selected, rd.selMaj, rd.selMin = true, maj, min
		rd.device = strconv.FormatUint(maj, 10) + "," + strconv.FormatUint(min, 10)
	case opt.Disk != "":
		rd.selected = true
		rd.selName = strings.TrimPrefix(strings.TrimSpace(opt.Disk), "/dev/")
		if rd.selName == "" {
			return nil, fmt.Errorf("%w: empty Disk %q", ErrOptions, opt.Disk)
		}
		rd.device = rd.selName
	}
	return rd, nil
}

// Format returns the trace's format (detected or given).
func (r *Reader) Format() Format { return r.format }

// Device returns the device the events are for: the selected one, or the
// trace's only device once an event of it has been read; "" before that
// and for plain traces.
func (r *Reader) Device() string { return r.device }

// Line returns the number of lines read so far (with Workers, the lines
// whose events Next has taken in: the reading goroutine is ahead of it).
func (r *Reader) Line() int { return r.line }

// Next returns the next event in time order, or io.EOF after the last one.
// Any other error is final: a *SyntaxError for a line that cannot be read
// (wrapping ErrSyntax, ErrLineTooLong or ErrOutOfOrder), a *DeviceError
// when the device selection does not give one device, or an error of the
// underlying reader. Next does not allocate once the reorder window has
// grown to its working size.
func (r *Reader) Next() (Event, error) {
	var ev [1]Event
	if _, err := r.NextEvents(ev[:]); err != nil {
		return Event{}, err
	}
	return ev[0], nil
}

// NextEvents fills evs with the next events, as many calls of Next would
// return them, and returns how many: len(evs) unless the trace ends
// before. It returns 0 and the error Next would return (io.EOF after the
// last event) only when it has no event to give: an error met after n > 0
// events comes at the next call. It is Next without a call per event.
func (r *Reader) NextEvents(evs []Event) (int, error) {
	if r == nil || !r.ok {
		return 0, ErrNotInitialized
	}
	if r.closed {
		return 0, ErrClosed
	}
	n := 0
	for n < len(evs) && r.err == nil {
		if r.ready() {
			r.popTo(&evs[n])
			n++
			continue
		}
		if r.par != nil {
			// The common records, applied and popped in one loop; it
			// leaves the window not ready, and the record it stops at
			// to advance.
			if n = r.par.fill(r, evs, n); n == len(evs) {
				break
			}
		}
		r.advance()
	}
	if n > 0 {
		return n, nil
	}
	return 0, r.err
}

// ready reports whether an event can leave the reorder window: more than
// the window hold, or the trace has ended.
func (r *Reader) ready() bool {
	held := len(r.buf) - r.head + len(r.heap)
	return held > r.window || r.eof && held > 0
}

// advance reads the next line (or record of the parallel path) into the
// reorder window, or, at the end of the trace, sets r.err (io.EOF or the
// device selection's error); an error is final.
func (r *Reader) advance() {
	if r.eof {
		r.err = r.endError()
		return
	}
	var err error
	if r.par != nil || r.parallel() {
		err = r.par.step(r)
	} else {
		var line []byte
		if line, err = r.readLine(); err == nil {
			err = r.parse(line)
		}
	}
	if err == io.EOF {
		r.eof = true
		if r.par != nil {
			r.par.close() // the goroutines have ended or are ending
		}
		return
	}
	if err != nil {
		r.err = err
		r.buf, r.head, r.heap = r.buf[:0], 0, r.heap[:0]
		if r.par != nil {
			r.par.halt()
		}
	}
}

// parallel reports whether Next reads through the parallel path, starting
// it on the first call.
func (r *Reader) parallel() bool {
	if r.par != nil {
		return true
	}
	if r.workers == 0 || r.format != FormatBlkparse || r.max > maxParallelLine {
		return false
	}
	r.par = startParallel(r.src, r.workers, r.blockSize, r.max,
		blkParser{max: r.max, selected: r.selected, selMaj: r.selMaj, selMin: r.selMin})
	return true
}

// Close ends the goroutines of a Reader with Options.Workers and waits for
// them; Next then returns ErrClosed. It does not close the io.Reader. A
// goroutine in a Read of the io.Reader ends once that Read returns: if a
// Read may block (an idle pipe), make it return first (close the pipe),
// or Close waits for it. Close is safe to call more than once, and on a
// Reader without Workers; it returns nil.
//
// Without Close, the goroutines end by themselves once Next has returned
// io.EOF; after another error they end once a Read in progress returns.
func (r *Reader) Close() error {
	if r == nil || !r.ok || r.closed {
		return nil
	}
	r.closed = true
	if r.par != nil {
		r.par.close()
	}
	return nil
}

// All returns an iterator over the remaining events. It stops after the
// last event (io.EOF is not yielded) or after yielding the first error
// with a zero Event.
func (r *Reader) All() iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		for {
			ev, err := r.Next()
			if err == io.EOF {
				return
			}
			if !yield(ev, err) || err != nil {
				return
			}
		}
	}
}

func (r *Reader) endError() error {
	if r.multi || r.selected && !r.matched {
		slices.Sort(r.devices)
		e := &DeviceError{Format: r.format, Found: r.devices, More: r.moreDevices}
		if r.selected {
			e.Selected = r.device
		}
		return e
	}
	return io.EOF
}

// readLine returns the next line without its line ending.
func (r *Reader) readLine() ([]byte, error) {
	b, err := r.src.ReadSlice('\n')
	switch {
	case err == nil:
	case errors.Is(err, bufio.ErrBufferFull):
		r.line++
		return nil, r.tooLong()
	case errors.Is(err, io.EOF):
		if len(b) == 0 {
			return nil, io.EOF
		}
	default:
		return nil, fmt.Errorf("trace: reading line %d: %w", r.line+1, err)
	}
	r.line++
	if len(b) > 0 && b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
	}
	if len(b) > 0 && b[len(b)-1] == '\r' {
		b = b[:len(b)-1]
	}
	if len(b) > r.max {
		return nil, r.tooLong()
	}
	return b, nil
}

// tooLong is the error of line r.line, longer than MaxLineLength.
func (r *Reader) tooLong() error {
	return &SyntaxError{Format: r.format, Line: r.line, Expected: fmt.Sprintf("at most %d bytes", r.max), Err: ErrLineTooLong}
}

func (r *Reader) syntax(expected string, line []byte) error {
	const maxText = 80
	if len(line) > maxText {
		line = line[:maxText]
	}
	return &SyntaxError{Format: r.format, Line: r.line, Expected: expected, Text: string(line), Err: ErrSyntax}
}

func (r *Reader) parse(line []byte) error {
	switch r.format {
	case FormatBlkparse:
		return r.parseBlkparse(line)
	case FormatBiosnoop, FormatBiosnoopBpftrace:
		return r.parseBiosnoop(line)
	case FormatFioIolog:
		return r.parseFio(line)
	default:
		return r.parsePlain(line)
	}
}

// push adds an event to the reorder window.
func (r *Reader) push(t int64, tie uint64, k Kind, id uint64) error {
	if t > MaxEventTime || t < -MaxEventTime {
		// A biosnoop LAT larger than any trace (the dispatch is TIME-LAT):
		// times this far apart would overflow their difference.
		return &SyntaxError{Format: r.format, Line: r.line,
			Expected: "an event time within ±" + maxFixed(9) + " s (2^62-1 ns, 146 years) of zero", Text: "an event at " + formatNanos(t) + " (out of range)", Err: ErrSyntax}
	}
	if r.emitted && t < r.last {
		// Only an earlier time is out of order: an event of the time last
		// passed on follows it, whatever its tie (events of equal times
		// are in order, however many of them the window holds). The event
		// at r.last left a full window: it and the r.window events held
		// with it, all read before this one, are later than it.
		return &SyntaxError{Format: r.format, Line: r.line,
			Expected: fmt.Sprintf("an event at %s is earlier than %d events read before it (one at %s already passed on); the reorder window holds %d",
				formatNanos(t), r.window+1, formatNanos(r.last), r.window),
			Err: ErrOutOfOrder}
	}
	arr := r.arrival<<1 | uint64(k-1)
	r.arrival++
	if len(r.buf) == cap(r.buf) && r.head > 0 && r.head >= len(r.buf)/2 {
		n := copy(r.buf, r.buf[r.head:])
		r.buf, r.head = r.buf[:n], 0
	}
	if live := r.buf[r.head:]; len(live) == 0 || !itemAfter(live[len(live)-1], t, tie) {
		// In order, the common case; field by field (see popTo).
		r.buf = append(r.buf, item{})
		it := &r.buf[len(r.buf)-1]
		it.t, it.tie, it.arr, it.id = t, tie, arr, id
		return nil
	}
	r.heapPush(item{t: t, tie: tie, arr: arr, id: id})
	return nil
}

// itemLess orders the window: by time, then tie, then arrival.
func itemLess(a, b item) bool {
	if a.t != b.t {
		return a.t < b.t
	}
	if a.tie != b.tie {
		return a.tie < b.tie
	}
	return a.arr < b.arr
}

// heapPush adds it to the heap of out-of-order events.
func (r *Reader) heapPush(it item) {
	h := append(r.heap, it)
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if !itemLess(h[i], h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
	r.heap = h
}

// heapPop removes and returns the heap's least event.
func (r *Reader) heapPop() item {
	h := r.heap
	top := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if l+1 < n && itemLess(h[l+1], h[l]) {
			m = l + 1
		}
		if !itemLess(h[m], h[i]) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	r.heap = h
	return top
}

// itemAfter reports whether it sorts after an event at (t, tie).
func itemAfter(it item, t int64, tie uint64) bool {
	return it.t > t || it.t == t && it.tie > tie
}

func (r *Reader) popTo(ev *Event) {
	var it item
	if r.head < len(r.buf) && (len(r.heap) == 0 || itemLess(r.buf[r.head], r.heap[0])) {
		it = r.buf[r.head]
		r.head++
		if r.head == len(r.buf) {
			r.buf, r.head = r.buf[:0], 0
		}
	} else {
		it = r.heapPop()
	}
	if !r.emitted {
		r.emitted, r.origin = true, it.t
	}
	r.last = it.t
	// Field by field: a composite literal is copied from the stack 16
	// bytes at a time, each copy stalled on the stores it spans.
	ev.Time, ev.Kind, ev.Device, ev.ID = it.t-r.origin, Kind(it.arr&1)+1, r.device, it.id
}

// noteDevice records a device seen on an event line and reports whether
// its events are the trace's: the selected device, or the first one seen
// when none is selected.
func (r *Reader) noteDevice(name []byte, isSelected bool) bool {
	if r.selected {
		if isSelected {
			r.matched = true
			return true
		}
		r.addDevice(name)
		return false
	}
	if r.device == "" && !r.multi {
		r.device = string(name)
		r.addDevice(name)
		return true
	}
	if string(name) == r.device && !r.multi {
		return true
	}
	r.addDevice(name)
	r.multi = true
	r.buf, r.head, r.heap = r.buf[:0], 0, r.heap[:0]
	return false
}

func (r *Reader) addDevice(name []byte) {
	for _, d := range r.devices {
		if d == string(name) {
			return
		}
	}
	if len(r.devices) >= MaxDevicesListed {
		r.moreDevices = true
		return
	}
	r.devices = append(r.devices, string(name))
}

// splitFields splits line at blanks (spaces and tabs) into r.fs and returns
// the number of fields, at most limit (at most maxFields), and whether more
// follow.
func (r *Reader) splitFields(line []byte, limit int) (n int, more bool) {
	i := 0
	for {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i == len(line) {
			return n, false
		}
		if n == limit {
			return n, true
		}
		s := i
		for i < len(line) && line[i] != ' ' && line[i] != '\t' {
			i++
		}
		r.fs[n] = [2]int32{int32(s), int32(i)}
		n++
	}
}

func (r *Reader) field(line []byte, i int) []byte { return line[r.fs[i][0]:r.fs[i][1]] }

// MaxEventTime bounds the time of an event as read, in nanoseconds from the
// trace's zero (2^62-1, about 146 years, either way): the difference of
// two events always fits in an int64. A line beyond it is an ErrSyntax.
const MaxEventTime = 1<<62 - 1

// parseFixed parses an unsigned decimal ("12", "12.", ".5", "12.345") as a
// fixed-point integer with digits decimals: parseFixed("1.5", 3) = 1500.
// Decimals beyond digits are dropped (truncation). It reports false for
// anything else or a value above 2^63-1.
func parseFixed(b []byte, digits int) (int64, bool) {
	var v uint64
	seenDigit, dot := false, false
	frac := 0
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			seenDigit = true
			if dot {
				if frac == digits {
					continue
				}
				frac++
			}
			if v > (1<<63-1-9)/10 && (v > (1<<63-1)/10 || v*10+uint64(c-'0') > 1<<63-1) {
				return 0, false // (the first test alone keeps the loop fast)
			}
			v = v*10 + uint64(c-'0')
		case c == '.' && !dot:
			dot = true
		default:
			return 0, false
		}
	}
	if !seenDigit {
		return 0, false
	}
	for ; frac < digits; frac++ {
		if v > (1<<63-1)/10 {
			return 0, false
		}
		v *= 10
	}
	return int64(v), true
}

// parseUint parses a decimal unsigned integer.
func parseUint(b []byte) (uint64, bool) {
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	return v, true
}

// parseDev parses "MAJ,MIN".
func parseDev(b []byte) (maj, min uint64, ok bool) {
	i := bytes.IndexByte(b, ',')
	if i < 0 {
		return 0, 0, false
	}
	maj, ok1 := parseUint(b[:i])
	min, ok2 := parseUint(b[i+1:])
	return maj, min, ok1 && ok2
}

// Detect returns the format of a trace from its beginning (as much as is
// available, ideally a few lines): the first line that is not blank, not a
// '#' comment and not bpftrace's "Attaching N probes..." decides. A prefix
// of comments and blank lines only is a plain trace; an empty one is an
// error wrapping ErrUnknownFormat, as is a fio iolog of version 2
// (ErrFioV2) or content of no known format.
func Detect(prefix []byte) (Format, error) {
	comments := false
	for len(prefix) > 0 {
		line := prefix
		if i := bytes.IndexByte(prefix, '\n'); i >= 0 {
			line, prefix = prefix[:i], prefix[i+1:]
		} else {
			prefix = nil
		}
		t := bytes.TrimSpace(line)
		switch {
		case len(t) == 0:
			continue
		case t[0] == '#':
			comments = true
			continue
		case bytes.HasPrefix(t, []byte("Attaching ")):
			continue
		}
		return detectLine(t)
	}
	if comments {
		return FormatPlain, nil
	}
	return FormatAuto, fmt.Errorf("%w: empty trace", ErrUnknownFormat)
}

// significantLine reports whether prefix holds a complete line that
// decides the format (one Detect does not skip).
func significantLine(prefix []byte) bool {
	for {
		i := bytes.IndexByte(prefix, '\n')
		if i < 0 {
			return false
		}
		t := bytes.TrimSpace(prefix[:i])
		if len(t) > 0 && t[0] != '#' && !bytes.HasPrefix(t, []byte("Attaching ")) {
			return true
		}
		prefix = prefix[i+1:]
	}
}

func detectLine(t []byte) (Format, error) {
	switch {
	case bytes.HasPrefix(t, []byte("fio version 3 iolog")):
		return FormatFioIolog, nil
	case bytes.HasPrefix(t, []byte("fio version 2 iolog")):
		return FormatAuto, ErrFioV2
	case bytes.HasPrefix(t, []byte("fio version")):
		return FormatAuto, fmt.Errorf("%w: %q: only fio iolog version 3 is read", ErrUnknownFormat, truncate(t))
	case bytes.HasPrefix(t, []byte("TIME(s)")) || bytes.HasPrefix(t, []byte("TIME(ms)")):
		if !containsField(t, "LAT(ms)") {
			return FormatAuto, fmt.Errorf("%w: biosnoop header %q has no LAT(ms) column", ErrUnknownFormat, truncate(t))
		}
		if bytes.HasPrefix(t, []byte("TIME(s)")) {
			return FormatBiosnoop, nil
		}
		return FormatBiosnoopBpftrace, nil
	}
	first := t
	if i := bytes.IndexAny(t, " \t"); i >= 0 {
		first = t[:i]
	}
	if _, _, ok := parseDev(first); ok {
		return FormatBlkparse, nil
	}
	if isDecimal(first) {
		return FormatPlain, nil
	}
	return FormatAuto, fmt.Errorf("%w: first line %q is not blkparse text, a biosnoop header, a fio iolog header or a plain time", ErrUnknownFormat, truncate(t))
}

// isDecimal reports whether b is digits with at most one '.'.
func isDecimal(b []byte) bool {
	digits, dots := 0, 0
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '.':
			dots++
		default:
			return false
		}
	}
	return digits > 0 && dots <= 1
}

func containsField(t []byte, name string) bool {
	for _, f := range bytes.Fields(t) {
		if string(f) == name {
			return true
		}
	}
	return false
}

func truncate(b []byte) string {
	if len(b) > 80 {
		b = b[:80]
	}
	return string(b)
}
