// Package earlysignal catches apstctl's stop signals from the moment its
// package initialisation runs, before the main package is initialised and
// long before main, so that a signal arriving while apstctl starts (SIGQUIT
// in the first milliseconds) is held for the command's signal policy
// instead of getting the Go runtime's default action (for SIGQUIT: a
// goroutine dump and exit status 2).
//
// It depends on nothing but os/signal, so that it is initialised among the
// first packages. Its channels are process-wide; apstctl's main package
// takes them over (Take) once, and a test binary that is not apstctl gives
// the signals back (Release).
package earlysignal

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// StopSignals are the signals that cancel a command: ^C (SIGINT), SIGTERM,
// SIGHUP (a closed terminal or SSH session) and SIGQUIT (^\).
var StopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

var (
	stop  = make(chan os.Signal, 1)
	pipe  = make(chan os.Signal, 1)
	taken sync.Once
)

func init() {
	signal.Notify(stop, StopSignals...)
	signal.Notify(pipe, syscall.SIGPIPE)
}

// Take returns the channels that have been catching StopSignals and
// SIGPIPE since initialisation (each holds the first signal that arrived
// before Take, if any), the first time it is called; later calls return
// ok false and the caller makes its own.
func Take() (stopCh, pipeCh chan os.Signal, first bool) {
	taken.Do(func() { stopCh, pipeCh = stop, pipe })
	return stopCh, pipeCh, stopCh != nil
}

// Release gives the signals back to their default action, unless Take has
// handed the channels over already: for a test binary that is not acting
// as apstctl (^C and go test's SIGQUIT then work as usual).
func Release() {
	taken.Do(func() {
		signal.Stop(stop)
		signal.Stop(pipe)
	})
}
