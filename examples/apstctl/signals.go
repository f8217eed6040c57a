package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/nvmeapst/nvmeapst/examples/apstctl/internal/earlysignal"
	"github.com/nvmeapst/nvmeapst/internal/errlist"
)

// stopSignals are the signals that cancel a command and, once received, get
// their default action back: ^C (SIGINT), SIGTERM, SIGHUP (a closed
// terminal or SSH session) and SIGQUIT (^\). SIGPIPE (the reader of
// standard output went away: `apstctl survey ... | head -1`) cancels too.
// Each cancels the command's context, so that live state it changed is
// restored and its temporary files are removed before apstctl exits with
// 128+N. (On Windows only os.Interrupt is ever delivered.) They are caught
// from the start of the process (package earlysignal), so that one
// arriving while apstctl starts is handled the same way.
var stopSignals = earlysignal.StopSignals

// errSignal is the cause of a context a signal cancelled.
type errSignal struct{ sig os.Signal }

func (e errSignal) Error() string { return "signal " + e.sig.String() }

// isBrokenPipe reports whether the command was cancelled by SIGPIPE: its
// output has no reader, so apstctl exits quietly (no message to a reader
// that is gone, and nothing about it on standard error either, as with
// any Unix filter).
func isBrokenPipe(ctx context.Context) bool {
	var e errSignal
	return errors.As(context.Cause(ctx), &e) && e.sig == syscall.SIGPIPE
}

// signalContext returns a context that the first of stopSignals or SIGPIPE
// cancels.
// After that first signal the default action of the others is restored, so
// a second one ends apstctl at once: no signal is swallowed, except while
// a command changes live state (liveChange): then signals are held until
// the writes are done and undone, so that no signal can end apstctl with a
// value half-written. SIGPIPE stays caught until stop (a write to the
// closed pipe then fails with EPIPE instead of killing apstctl before it
// has cleaned up). signalled returns the number of the first signal
// received, or 0 when none was, or when its exit status was decided
// otherwise (a change that stood or could not be undone); stop releases
// the handler and cancels the context (calling it again does nothing).
func signalContext(parent context.Context) (ctx context.Context, signalled func() int, stop func()) {
	ch, pipe, early := earlysignal.Take()
	if !early {
		ch, pipe = make(chan os.Signal, 1), make(chan os.Signal, 1)
		signal.Notify(ch, stopSignals...)
		signal.Notify(pipe, syscall.SIGPIPE)
	}
	st := &signalState{}
	ctx, st.cancel = context.WithCancelCause(context.WithValue(parent, signalStateKey{}, st))
	// A signal that arrived while apstctl started is acted on before the
	// command starts.
	select {
	case s := <-ch:
		if st.deliver(s) {
			signal.Stop(ch)
		}
	case s := <-pipe:
		st.deliver(s)
	default:
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-ch:
				if st.deliver(s) {
					signal.Stop(ch)
				}
			case s := <-pipe:
				st.deliver(s) // later ones are drained here: EPIPE does the rest
			case <-done:
				return
			}
		}
	}()
	var once sync.Once
	return ctx, st.signalled, func() {
		once.Do(func() {
			signal.Stop(ch)
			signal.Stop(pipe)
			close(done)
			st.cancel(context.Canceled)
		})
	}
}

// signalStateKey is the context key of a *signalState.
type signalStateKey struct{}

// signalState is what the signal handler and a command changing live state
// share. mu is held by a command while it writes (liveChange.write) and by
// the handler while it undoes the writes, so that a signal is acted on
// only between write sequences.
type signalState struct {
	mu       sync.Mutex
	cancel   context.CancelCauseFunc
	got      int            // the first signal acted upon, or 0
	final    bool           // the exit status is decided: later signals are swallowed
	undo     []func() error // the writes' undo steps, oldest first
	undoErrs []error        // what undo could not put back

	pending atomic.Int32 // the first signal, as soon as it arrives

	hmu        sync.Mutex
	heldCancel context.CancelFunc // cancels the context of a write sequence in progress
}

// deliver acts on signal s: the first one undoes the recorded writes
// (waiting for a write sequence to end) and cancels the context. It reports
// whether the default action of the stop signals may come back: not while
// a change that could not be undone, or that stands, is left.
func (st *signalState) deliver(s os.Signal) bool {
	n := int32(syscall.SIGINT)
	if sn, ok := s.(syscall.Signal); ok {
		n = int32(sn)
	}
	if st.pending.CompareAndSwap(0, n) {
		// A write sequence in progress stops waiting for the drive (it
		// has written, or is about to: what it records is undone below),
		// and finish, if it comes first, sees the signal.
		st.hmu.Lock()
		if st.heldCancel != nil {
			st.heldCancel()
		}
		st.hmu.Unlock()
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.final && st.got == 0 {
		// The exit status has been decided (0: the change stands); a
		// signal now must not turn it into 128+N.
		return false
	}
	if st.got == 0 {
		st.got = int(st.pending.Load())
		st.runUndo()
	}
	st.cancel(errSignal{s})
	return len(st.undoErrs) == 0
}

// runUndo puts back the recorded writes, newest first, and forgets them.
// mu is held.
func (st *signalState) runUndo() {
	for i := len(st.undo) - 1; i >= 0; i-- {
		if err := st.undo[i](); err != nil {
			st.undoErrs = append(st.undoErrs, err)
		}
	}
	st.undo = nil
}

// signalled returns the first signal acted upon, or 0 when none was or
// when the writes it should have undone could not all be put back (the
// command's exit status, 1, then says so). A signal that has arrived but
// whose handler has not run yet is acted on here, so that the status
// never depends on which goroutine came first.
func (st *signalState) signalled() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.got == 0 && !st.final {
		if n := st.pending.Load(); n != 0 {
			st.got = int(n)
			st.runUndo()
		}
	}
	if len(st.undoErrs) > 0 {
		return 0
	}
	return st.got
}

// liveChange is a sequence of writes to live state (sysfs) that a signal
// or a failure undoes: the state is either the old one or the new one,
// never a mixture, and the exit status says which. Under signalContext a
// signal arriving during a write sequence waits until the sequence ends,
// then undoes it; a command run with another context (tests) has its
// writes undone by finish when the context is done.
type liveChange struct {
	ctx context.Context
	st  *signalState
}

// newLiveChange starts a change under ctx's signal handler, if any.
func newLiveChange(ctx context.Context) *liveChange {
	st, _ := ctx.Value(signalStateKey{}).(*signalState)
	if st == nil {
		st = &signalState{cancel: func(error) {}}
	}
	return &liveChange{ctx: ctx, st: st}
}

// write runs do with signals held: a signal arriving meanwhile is acted on
// when do returns, undoing what do recorded (and what earlier calls did).
// do records, right after each successful write, how to put it back; the
// context it gets is cancelled as soon as a signal arrives, so that what
// it does after writing (reading a drive back) stops early. When a signal
// has arrived (or the context is done) already, do is not run and the
// error is the context's cause: nothing is written.
func (c *liveChange) write(do func(ctx context.Context, record func(undo func() error)) error) error {
	c.st.mu.Lock()
	defer c.st.mu.Unlock()
	if c.st.pending.Load() != 0 || c.ctx.Err() != nil {
		if c.ctx.Err() == nil {
			return errSignal{syscall.Signal(c.st.pending.Load())}
		}
		return context.Cause(c.ctx)
	}
	ctx, cancel := context.WithCancel(c.ctx)
	defer cancel()
	c.st.hmu.Lock()
	c.st.heldCancel = cancel
	c.st.hmu.Unlock()
	defer func() {
		c.st.hmu.Lock()
		c.st.heldCancel = nil
		c.st.hmu.Unlock()
	}()
	return do(ctx, func(undo func() error) {
		c.st.undo = append(c.st.undo, undo)
	})
}

// rollback undoes the recorded writes now (a later write of the sequence
// failed) and returns what could not be put back.
func (c *liveChange) rollback() error {
	c.st.mu.Lock()
	defer c.st.mu.Unlock()
	c.st.runUndo()
	return errlist.Join(c.st.undoErrs...)
}

// finish decides the outcome of the change. When a signal has arrived (or
// the context is done), the writes have been or are now undone: interrupted
// is true and err says what could not be put back. Otherwise the change
// stands, and a signal arriving from now on is swallowed, so that it
// cannot turn the exit status 0 (the value was written) into 128+N (which
// means the old value is back); apstctl exits at once anyway.
//
// A report that failed with EPIPE (standard output has no reader) counts
// as SIGPIPE, whether or not the signal has been handled yet: the status
// is then 141, and the old values are back.
func (c *liveChange) finish(out *checkedWriter) (interrupted bool, err error) {
	liveChangeHook("finish")
	if out != nil && errors.Is(out.Err(), syscall.EPIPE) {
		c.st.pending.CompareAndSwap(0, int32(syscall.SIGPIPE))
	}
	c.st.mu.Lock()
	defer c.st.mu.Unlock()
	if c.st.final {
		return false, nil
	}
	c.st.final = true
	if n := c.st.pending.Load(); n != 0 {
		c.st.got = int(n) // the signal's handler may still wait for mu
	} else if c.ctx.Err() == nil {
		return false, nil
	}
	c.st.runUndo()
	return true, errlist.Join(c.st.undoErrs...)
}

// liveChangeHook is called at named points of a change (each
// attribute's "before NAME" and "after NAME", "report", "finish"): tests
// replace it to delay a change there and signal it.
var liveChangeHook = func(point string) {}
