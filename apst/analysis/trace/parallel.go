package trace

import (
	"bytes"
	"fmt"
	"io"
	"sync"
)

// Bounds of the parallel path (Options.Workers).
const (
	// MaxWorkers is the largest Options.Workers.
	MaxWorkers = 64
	// parBlockSize is the size of a block of the parallel path: lines are
	// read in blocks of about this many bytes (a block holds at least one
	// whole line, at most MaxLineLength+2 bytes), each parsed by a worker.
	parBlockSize = 256 << 10
	// maxParallelLine is the longest MaxLineLength of the parallel path
	// (the records hold 32-bit offsets); a Reader with a longer one reads
	// on the caller's goroutine.
	maxParallelLine = 1 << 28
)

// parJob is a block of the parallel path: read by the reading goroutine,
// parsed by a worker, then applied in order by Next.
type parJob struct {
	buf   []byte   // complete lines; at the end of the trace, the last may lack its '\n'
	recs  []blkRec // what a worker read of them
	lines int      // how many lines buf holds
	// After the lines: tooLong, a line beyond MaxLineLength that was not
	// read to its end; else err, the error of the underlying reader
	// (io.EOF at the end), nil when more blocks follow.
	tooLong bool
	err     error
	done    chan struct{} // a worker sends once recs are ready
}

// parallel is the pipeline of a Reader with Workers: one goroutine reads
// blocks of whole lines, Workers goroutines parse them into records, and
// Next applies the records in order (device selection, reorder window,
// errors), as it would apply the lines. At most jobs blocks exist.
type parallel struct {
	src       io.Reader
	blockSize int
	max       int
	parser    blkParser

	free    chan *parJob  // blocks Next is done with
	ordered chan *parJob  // blocks in trace order, for Next
	work    chan *parJob  // blocks to parse
	stop    chan struct{} // closed by halt
	halted  bool
	wg      sync.WaitGroup

	cur   *parJob
	i     int    // the next record of cur
	base  int    // lines before cur
	okDev uint64 // blkRec.dev of the device noteDevice last accepted, 0 if none
	// offDev is blkRec.dev of the device noteDevice last refused while a
	// device is selected, 0 if none: it would refuse it again, changing
	// nothing (the device is listed already, or the list is full).
	offDev uint64
}

// startParallel starts the goroutines of the parallel path reading src in
// blocks of blockSize bytes.
func startParallel(src io.Reader, workers, blockSize, max int, p blkParser) *parallel {
	jobs := 2*workers + 2
	par := &parallel{
		src: src, blockSize: blockSize, max: max, parser: p,
		free:    make(chan *parJob, jobs),
		ordered: make(chan *parJob, jobs),
		work:    make(chan *parJob, jobs),
		stop:    make(chan struct{}),
	}
	for range jobs {
		par.free <- &parJob{done: make(chan struct{}, 1)}
	}
	par.wg.Add(1 + workers)
	go par.read()
	for range workers {
		go par.parse()
	}
	return par
}

// halt asks the goroutines to end, without waiting for them.
func (p *parallel) halt() {
	if !p.halted {
		p.halted = true
		close(p.stop)
	}
}

// close ends the goroutines and waits for them: a Read of the underlying
// reader in progress delays it until it returns.
func (p *parallel) close() {
	p.halt()
	p.wg.Wait()
}

// parse is a worker: it parses blocks until the reading goroutine ends.
func (p *parallel) parse() {
	defer p.wg.Done()
	for j := range p.work {
		select {
		case <-p.stop: // no one will read the records
		default:
			j.recs, j.lines = p.parser.parse(j.buf, j.recs[:0])
		}
		j.done <- struct{}{}
	}
}

// read reads blocks of whole lines and hands them to the workers and, in
// order, to Next; it returns after the block that ends the trace (an
// error, io.EOF or a line too long), or when halted.
func (p *parallel) read() {
	defer p.wg.Done()
	defer close(p.work)
	var carry []byte // the start of a line that the last block did not end
	for {
		var j *parJob
		select {
		case j = <-p.free:
		case <-p.stop:
			return
		}
		if cap(j.buf) < p.blockSize {
			j.buf = make([]byte, 0, p.blockSize)
		}
		j.buf = append(j.buf[:0], carry...)
		j.tooLong, j.err, j.lines, j.recs = false, nil, 0, j.recs[:0]
		carry = carry[:0]
		// last is the index after the last '\n' in j.buf (0: none).
		last := bytes.LastIndexByte(j.buf, '\n') + 1
		for empty := 0; ; {
			if len(j.buf)-last >= p.max+2 {
				// A line longer than any accepted: as bufio.Reader
				// reports one once its buffer of MaxLineLength+2 bytes
				// is full.
				j.tooLong = true
				break
			}
			if len(j.buf) == cap(j.buf) {
				if last > 0 {
					break // a full block
				}
				// One line longer than a block: grow it (it stays
				// below MaxLineLength+2 bytes, checked above).
				j.buf = append(j.buf, 0)[:len(j.buf)]
			}
			want := cap(j.buf) - len(j.buf)
			n, err := p.src.Read(j.buf[len(j.buf):cap(j.buf)])
			if n > 0 {
				if k := bytes.LastIndexByte(j.buf[len(j.buf):len(j.buf)+n], '\n'); k >= 0 {
					last = len(j.buf) + k + 1
				}
				j.buf = j.buf[:len(j.buf)+n]
				empty = 0
			}
			if err != nil {
				j.err = err
				break
			}
			if n == 0 {
				if empty++; empty == 100 {
					j.err = io.ErrNoProgress
					break
				}
				continue
			}
			if n < want && last > 0 {
				// Less than asked for: the input is a pipe or a terminal
				// and its writer has nothing more yet; give it the lines
				// that have come.
				break
			}
		}
		if j.err != io.EOF {
			// The lines end at the last '\n'; the rest is carried over
			// (or, after another error or a line too long, dropped).
			carry = append(carry, j.buf[last:]...)
			j.buf = j.buf[:last]
		}
		if j.tooLong || j.err != nil {
			carry = carry[:0]
		}
		if len(j.buf) > 0 {
			p.work <- j // never blocks: it holds as many as there are jobs
		} else {
			j.done <- struct{}{}
		}
		p.ordered <- j // likewise
		if j.tooLong || j.err != nil {
			return
		}
	}
}

// step applies the next record to r, as Next applies a line: it returns
// io.EOF at the end of the trace and sets r.line.
func (p *parallel) step(r *Reader) error {
	for p.cur == nil || p.i == len(p.cur.recs) {
		if j := p.cur; j != nil {
			r.line = p.base + j.lines
			switch {
			case j.tooLong:
				r.line++
				return r.tooLong()
			case j.err == io.EOF:
				return io.EOF
			case j.err != nil:
				return fmt.Errorf("trace: reading line %d: %w", r.line+1, j.err)
			}
			p.base = r.line
			p.cur = nil
			p.free <- j // never blocks
		}
		j := <-p.ordered
		<-j.done
		p.cur, p.i = j, 0
	}
	j := p.cur
	rec := &j.recs[p.i]
	p.i++
	r.line = p.base + int(rec.line)
	switch {
	case rec.kind == recTooLong:
		return r.tooLong()
	case r.summary:
		return nil
	case rec.kind == recFields:
		return r.parseBlkparseFields(j.buf[rec.off : rec.off+rec.n])
	}
	if rec.dev == 0 || rec.dev != p.okDev {
		// noteDevice, unless the device is the last one it accepted:
		// it would accept it again, changing nothing (it accepts no
		// device once it has found several, and forgets okDev when it
		// refuses one without a device selected); or, a device being
		// selected, the last one it refused.
		if rec.dev != 0 && rec.dev == p.offDev {
			return nil
		}
		if !r.noteDevice(j.buf[rec.off:rec.off+rec.n], rec.sel) {
			if r.selected {
				p.offDev = rec.dev
			} else {
				p.okDev = 0
			}
			return nil
		}
		p.okDev = rec.dev
	}
	return r.push(rec.t, rec.seq, Kind(rec.kind), rec.id)
}

// fill is step, push and popTo for the records that need nothing more
// than the window's back (what almost every record of a blkparse trace
// needs): from the next record of the current block on, while each is an
// event of the device last accepted (p.okDev) that sorts after the
// window's back, it appends it to r.buf as push does (skipping the events
// of the device last refused, p.offDev) and, once the window holds more
// than its size, moves the oldest (or the heap's top, the lesser) to
// evs[n] as popTo does: one loop, without a call per event. It returns n plus the number of events
// written, and leaves every other record (and every other state: no event
// out yet, an empty window, a buffer to grow) to step, push and popTo.
func (p *parallel) fill(r *Reader, evs []Event, n int) int {
	j := p.cur
	// Called when the window is not ready (it holds at most its size):
	// each event in is followed by one out once it holds more. Once an
	// event is out the window holds at least its size (1 or more) until
	// the end: its back is an event at or after the last one out, so
	// that an event after the back is after that one too.
	// The heap may hold events (an event that sorted before the back,
	// such as one of another CPU at the same time with a lower sequence
	// number): each stays there until it is the least held, up to a
	// window of events later, so the events in order keep to this loop
	// meanwhile, the one out being the least of the back's front and the
	// heap's top, as popTo chooses it.
	if j == nil || p.okDev == 0 || !r.emitted || r.head == len(r.buf) || r.summary || r.eof {
		return n
	}
	recs, i := j.recs, p.i
	buf, head := r.buf, r.head
	for ; i < len(recs) && n < len(evs) && head < len(buf); i++ {
		rec := &recs[i]
		t, tie := rec.t, rec.seq
		if rec.kind > uint8(Completion) {
			break
		}
		if rec.dev != p.okDev {
			if rec.dev != 0 && rec.dev == p.offDev {
				continue // refused again, changing nothing (see step)
			}
			break
		}
		if t > MaxEventTime || t < -MaxEventTime {
			break
		}
		if b := &buf[len(buf)-1]; b.t > t || b.t == t && b.tie > tie {
			break // before an event held: the heap's
		}
		if len(buf) == cap(buf) {
			if head == 0 || head < len(buf)/2 {
				break // push grows it
			}
			k := copy(buf, buf[head:]) // as push does
			buf, head = buf[:k], 0
		}
		buf = buf[:len(buf)+1]
		it := &buf[len(buf)-1]
		it.t, it.tie, it.arr, it.id = t, tie, r.arrival<<1|uint64(rec.kind-1), rec.id
		r.arrival++
		if len(buf)-head+len(r.heap) > r.window {
			var it *item
			if len(r.heap) == 0 || itemLess(buf[head], r.heap[0]) {
				it = &buf[head]
				head++
			} else {
				top := r.heapPop()
				it = &top
			}
			r.last = it.t
			ev := &evs[n]
			n++
			ev.Time, ev.Kind, ev.Device, ev.ID = it.t-r.origin, Kind(it.arr&1)+1, r.device, it.id
		}
	}
	if i > p.i {
		r.line = p.base + int(recs[i-1].line)
		p.i = i
	}
	if head == len(buf) { // as popTo leaves it
		buf, head = buf[:0], 0
	}
	r.buf, r.head = buf, head
	return n
}
