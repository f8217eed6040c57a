package main

import (
	"context"
	"fmt"
	"io"

	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
)

// directCheck is how often directSource looks at its context: every this
// many events.
const directCheck = 4096

// directSource is the event source of apstctl replay for a trace the
// Reader parses on goroutines of its own (trace.Options.Workers: a
// blkparse trace): reading and parsing run ahead already, so the replay
// takes the events from Reader.Next itself, without the batches of
// aheadSource to fill and copy. The events and the error after them are
// exactly the Reader's. It ends with the context's error once ctx is done
// (checked every directCheck events, so that ^C stops a long replay; a
// read of standard input waiting for a writer ends with the context
// too). With progress set it writes the count of events read every 2^20
// events, and clears the line at the end, as aheadSource does.
type directSource struct {
	ctx      context.Context
	r        *trace.Reader
	n        uint
	err      error
	progress io.Writer
}

// Next returns the next event of the trace, io.EOF after the last one, or
// the error that ended the trace or the context; once it has returned an
// error it returns it again.
func (s *directSource) Next() (trace.Event, error) {
	if s.err != nil {
		return trace.Event{}, s.err
	}
	if s.n%directCheck == 0 && s.ctx.Err() != nil {
		s.err = s.ctx.Err()
		return trace.Event{}, s.err
	}
	ev, err := s.r.Next()
	if err != nil {
		s.err = err
		if s.progress != nil && s.n >= 1<<20 {
			fmt.Fprint(s.progress, "\r\x1b[K")
		}
		return trace.Event{}, err
	}
	s.n++
	if s.progress != nil && s.n%(1<<20) == 0 {
		fmt.Fprintf(s.progress, "\r\x1b[Kapstctl replay: %d events read", s.n)
	}
	return ev, nil
}

// NextEvents is Next a batch at a time (analysis.EventBatchSource): at
// most directCheck events, the context checked before each batch.
func (s *directSource) NextEvents(evs []trace.Event) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	if s.ctx.Err() != nil {
		s.err = s.ctx.Err()
		return 0, s.err
	}
	n, err := s.r.NextEvents(evs[:min(len(evs), directCheck)])
	if err != nil {
		s.err = err
		if s.progress != nil && s.n >= 1<<20 {
			fmt.Fprint(s.progress, "\r\x1b[K")
		}
		return 0, err
	}
	before := s.n
	s.n += uint(n)
	if s.progress != nil && s.n>>20 != before>>20 {
		fmt.Fprintf(s.progress, "\r\x1b[Kapstctl replay: %d events read", s.n&^(1<<20-1))
	}
	return n, nil
}
