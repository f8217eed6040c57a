package trace

import (
	"fmt"
	"strconv"
)

// Kind says what an Event is. The zero value is no kind: an Event with it
// is invalid.
type Kind uint8

const (
	// Dispatch is a command sent to the device (blkparse action D).
	Dispatch Kind = 1 + iota
	// Completion is a command completed by the device (blkparse action C).
	Completion
)

// String returns "dispatch", "completion" or "Kind(N)".
func (k Kind) String() string {
	switch k {
	case Dispatch:
		return "dispatch"
	case Completion:
		return "completion"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Event is one dispatch or completion of a command on a device.
//
// The zero Event is invalid: its Kind is neither Dispatch nor Completion,
// so a replay (package analysis) refuses it with an error wrapping
// analysis.ErrReplayEvent.
type Event struct {
	// Time is the event's time in nanoseconds from the trace's first event
	// (the earliest one the Reader returns, whose Time is 0).
	Time int64
	// Kind is Dispatch or Completion.
	Kind Kind
	// Device names the device: "MAJ,MIN" for blkparse, the disk name for
	// biosnoop, the file name for fio, "" for plain traces.
	Device string
	// ID identifies the command, so that a completion can be matched with
	// its dispatch: blkparse gives the sector plus 1 (a dispatch and its
	// completion name the same sector), the formats that record a command
	// on one line give its number (from 1) to both events. 0: unknown.
	ID uint64
}

// String formats the event as "12.000345678s dispatch 259,0".
func (e Event) String() string {
	return fmt.Sprintf("%s %s %s", formatNanos(e.Time), e.Kind, e.Device)
}

// formatNanos formats a time in nanoseconds as seconds with 9 decimals.
func formatNanos(ns int64) string {
	sign := ""
	u := uint64(ns)
	if ns < 0 {
		sign, u = "-", uint64(-ns)
	}
	return fmt.Sprintf("%s%d.%09ds", sign, u/1e9, u%1e9)
}
