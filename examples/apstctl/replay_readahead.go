package main

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
)

// Bounds of the read-ahead of apstctl replay.
const (
	// readAheadBatch is the number of events in a batch (40 bytes each on
	// 64-bit machines: 160 KiB).
	readAheadBatch = 4096
	// readAheadBatches is the number of batches in flight: the memory of
	// the read-ahead is at most readAheadBatch*readAheadBatches events.
	readAheadBatches = 4
	// readAheadStep is the number of events the reading goroutine asks
	// the Reader for at a time (trace.Reader.NextEvents), looking for
	// stop between.
	readAheadStep = 256
)

// eventBatch is a run of events in trace order; err, when set, follows
// them (io.EOF after the last event, or the Reader's error).
type eventBatch struct {
	evs []trace.Event
	err error
}

// aheadSource is the event source of apstctl replay: one goroutine reads
// and reorders the trace (trace.Reader.Next, which owns the Reader until
// it ends) while the caller's goroutine replays the events, so that the
// two use both cores. The events and the error after them are exactly the
// Reader's, in its order; batches go back and forth through two channels,
// so at most readAheadBatches batches exist. It ends with the context's
// error once ctx is done (checked at each batch, so that ^C stops a long
// replay). With progress set (standard error is a terminal), it writes the
// count of events read every 2^20 events, and clears the line at the end.
// stop must be called once the caller is done with it, before the trace is
// closed: it waits for the goroutine, which ends at the next event (a read
// of the trace that blocks delays it, as it delayed a Next before).
type aheadSource struct {
	ctx      context.Context
	full     chan *eventBatch // read, in order
	free     chan *eventBatch // replayed, for reuse
	done     chan struct{}    // closed by stop
	stopping atomic.Bool      // set by stop, seen by read between events
	ended    chan struct{}    // closed when read returns
	cur      *eventBatch
	i        int
	n        uint
	err      error
	progress io.Writer
}

// readAhead starts reading r in a goroutine of its own: r must not be used
// again until the source has returned an error (or stop was called and the
// goroutine has ended).
func readAhead(ctx context.Context, r *trace.Reader, progress io.Writer) *aheadSource {
	s := &aheadSource{
		ctx:      ctx,
		full:     make(chan *eventBatch, readAheadBatches),
		free:     make(chan *eventBatch, readAheadBatches),
		done:     make(chan struct{}),
		ended:    make(chan struct{}),
		progress: progress,
	}
	for range readAheadBatches {
		s.free <- &eventBatch{evs: make([]trace.Event, 0, readAheadBatch)}
	}
	go s.read(r)
	return s
}

// read fills free batches with the events of r and sends them in order;
// it returns after sending the batch that ends with an error, or when stop
// is called.
func (s *aheadSource) read(r *trace.Reader) {
	defer close(s.ended)
	for {
		var b *eventBatch
		select {
		case b = <-s.free:
		case <-s.done:
			return
		}
		b.evs, b.err = b.evs[:0], nil
		for len(b.evs) < cap(b.evs) {
			if s.stopping.Load() {
				return
			}
			// A few events at a time, so that stop is seen soon.
			n, err := r.NextEvents(b.evs[len(b.evs):min(cap(b.evs), len(b.evs)+readAheadStep)])
			b.evs = b.evs[:len(b.evs)+n]
			if err != nil {
				b.err = err
				break
			}
		}
		select {
		case s.full <- b:
		case <-s.done:
			return
		}
		if b.err != nil {
			return
		}
	}
}

// stop ends the reading goroutine and waits for it: the Reader and the
// trace are the caller's again.
func (s *aheadSource) stop() {
	if !s.stopping.Swap(true) {
		close(s.done)
	}
	<-s.ended
}

// Next returns the next event of the trace, io.EOF after the last one, or
// the error that ended the trace or the context; once it has returned an
// error it returns it again.
func (s *aheadSource) Next() (trace.Event, error) {
	if err := s.fill(); err != nil {
		return trace.Event{}, err
	}
	ev := s.cur.evs[s.i]
	s.i++
	s.n++
	if s.progress != nil && s.n%(1<<20) == 0 {
		fmt.Fprintf(s.progress, "\r\x1b[Kapstctl replay: %d events read", s.n)
	}
	return ev, nil
}

// NextEvents is Next a batch at a time (analysis.EventBatchSource): the
// events of the current batch, at most len(evs).
func (s *aheadSource) NextEvents(evs []trace.Event) (int, error) {
	if len(evs) == 0 {
		return 0, nil
	}
	if err := s.fill(); err != nil {
		return 0, err
	}
	n := copy(evs, s.cur.evs[s.i:])
	s.i += n
	before := s.n
	s.n += uint(n)
	if s.progress != nil && s.n>>20 != before>>20 {
		fmt.Fprintf(s.progress, "\r\x1b[Kapstctl replay: %d events read", s.n&^(1<<20-1))
	}
	return n, nil
}

// fill makes s.cur a batch with an event left, or returns the error that
// ended the trace or the context.
func (s *aheadSource) fill() error {
	for s.cur == nil || s.i == len(s.cur.evs) {
		if s.err != nil {
			return s.err
		}
		if s.cur != nil {
			if s.cur.err != nil {
				s.err = s.cur.err
				if s.progress != nil && s.n >= 1<<20 {
					fmt.Fprint(s.progress, "\r\x1b[K")
				}
				continue
			}
			s.free <- s.cur // never blocks: free holds at most the other batches
			s.cur = nil
		}
		select {
		case b := <-s.full:
			s.cur, s.i = b, 0
		case <-s.ctx.Done():
			s.err = s.ctx.Err()
		}
	}
	return nil
}
