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

// signalContext returns a context that the first SIGINT (^C) or SIGTERM
// cancels. After that first signal the default action is restored, so a
// second one ends apstctl at once: no signal is swallowed. signalled
// returns the number of the signal received, or 0; stop releases the
// handler and cancels the context (calling it again does nothing).
func signalContext(parent context.Context) (ctx context.Context, signalled func() int, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	var got atomic.Int32
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			signal.Stop(ch)
			if n, ok := s.(syscall.Signal); ok {
				got.Store(int32(n))
			}
			cancel(errors.New("signal " + s.String()))
		case <-done:
		}
	}()
	var once sync.Once
	return ctx, func() int { return int(got.Load()) }, func() {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
			cancel(context.Canceled)
		})
	}
}
