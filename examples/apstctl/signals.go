package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
)

// stopSignals are the signals that cancel a command and, once received, get
// their default action back: ^C (SIGINT), SIGTERM, SIGHUP (a closed
// terminal or SSH session) and SIGQUIT (^\). SIGPIPE (the reader of
// standard output went away: `apstctl survey ... | head -1`) cancels too.
// Each cancels the command's context, so that live state it changed is
// restored and its temporary files are removed before apstctl exits with
// 128+N. (On Windows only os.Interrupt is ever delivered.)
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

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
// a second one ends apstctl at once: no signal is swallowed. SIGPIPE stays
// caught until stop (a write to the closed pipe then fails with EPIPE
// instead of killing apstctl before it has cleaned up). signalled returns
// the number of the first signal received, or 0; stop releases the handler
// and cancels the context (calling it again does nothing).
func signalContext(parent context.Context) (ctx context.Context, signalled func() int, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	pipe := make(chan os.Signal, 1)
	signal.Notify(ch, stopSignals...)
	signal.Notify(pipe, syscall.SIGPIPE)
	var got atomic.Int32
	done := make(chan struct{})
	first := func(s os.Signal) {
		if n, ok := s.(syscall.Signal); ok {
			got.CompareAndSwap(0, int32(n))
		}
		cancel(errSignal{s})
	}
	go func() {
		for {
			select {
			case s := <-ch:
				signal.Stop(ch)
				first(s)
			case s := <-pipe:
				first(s) // later ones are drained here: EPIPE does the rest
			case <-done:
				return
			}
		}
	}()
	var once sync.Once
	return ctx, func() int { return int(got.Load()) }, func() {
		once.Do(func() {
			signal.Stop(ch)
			signal.Stop(pipe)
			close(done)
			cancel(context.Canceled)
		})
	}
}
