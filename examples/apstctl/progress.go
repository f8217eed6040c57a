package main

import (
	"io"
	"os"
)

// terminalWriter is a standard error or input that says whether it is a
// terminal (a test's stand-in for one).
type terminalWriter interface {
	IsTerminal() bool
}

// stderrIsTerminal reports whether the invocation's standard error, as
// given (never the checked wrapper around it), is a terminal: progress
// lines are written there only then, and never into a file or a pipe.
func (x *invocation) stderrIsTerminal() bool { return writerIsTerminal(x.stderr) }

// stdoutIsTerminal is stderrIsTerminal for standard output.
func (x *invocation) stdoutIsTerminal() bool { return writerIsTerminal(x.stdout) }

// writerIsTerminal reports whether w, a standard stream as given, is a
// terminal.
func writerIsTerminal(w io.Writer) bool {
	switch w := w.(type) {
	case terminalWriter:
		return w.IsTerminal()
	case *os.File:
		return isTerminal(w)
	}
	return false
}

// progress returns where progress lines go: standard error when it is a
// terminal, nil otherwise.
func (x *invocation) progress() io.Writer {
	if x.stderrIsTerminal() {
		return x.errw
	}
	return nil
}
