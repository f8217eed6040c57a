package main

import (
	"errors"
	"fmt"

	"github.com/nvmeapst/nvmeapst/sysfs"
)

// Exit statuses (cli.md): diff's convention.
const (
	exitOK      = 0
	exitFailure = 1 // a runtime failure (device, permission, a failed write), or check's mismatch
	exitUsage   = 2 // a usage error or an input that cannot be read or parsed
)

// A usageError is a command line apstctl cannot run: one line naming the
// problem, then "see 'apstctl CMD --help'", exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// usagef returns a *usageError.
func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// An inputError is an input that cannot be read or parsed (a capture, a
// bundle): its message, exit status 2, no pointer to the help.
type inputError struct{ err error }

func (e *inputError) Error() string { return e.err.Error() }
func (e *inputError) Unwrap() error { return e.err }

// inputErr wraps err as an *inputError.
func inputErr(err error) error { return &inputError{err: err} }

// An exitStatus ends a command with that status and no message: the command
// has said what there was to say (check's mismatch), or must keep its
// status whatever happens to its output (set-latency after a write).
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// statusOf maps what a command's run returned to an exit status, and the
// message to print (empty for none) and whether the help pointer follows.
func statusOf(err error) (code int, msg string, hint bool) {
	var ue *usageError
	var ie *inputError
	var es exitStatus
	var pre *preAPSTKernel
	switch {
	case err == nil:
		return exitOK, "", false
	case errors.As(err, &pre):
		return exitUsage, "--kernel: " + pre.Error() + " (this command compares tables: give a release from 4.11 on)", true
	case errors.As(err, &es):
		return int(es), "", false
	case errors.As(err, &ue):
		return exitUsage, ue.msg, true
	case errors.As(err, &ie):
		return exitUsage, ie.Error(), false
	case errors.Is(err, sysfs.ErrNotSysfs):
		// --root names a directory that is no sysfs tree or bundle: an
		// input that cannot be read, not a failure of the machine.
		return exitUsage, err.Error(), false
	}
	return exitFailure, err.Error(), false
}

// hintError replaces the message of err, a library error, with one for
// people at the command line (which command to use instead), keeping err
// for errors.Is.
type hintError struct {
	msg string
	err error
}

func (e *hintError) Error() string { return e.msg }
func (e *hintError) Unwrap() error { return e.err }
