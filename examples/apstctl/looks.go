package main

import (
	"errors"
	"io"

	"github.com/nvmeapst/nvmeapst/internal/safeio"
	"github.com/nvmeapst/nvmeapst/internal/sniff"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// What a refused input looks like: the refusals of the commands that read
// a capture, a trace, a rules file, a survey report or a recommend result
// name what the input is instead and the command that reads it
// (internal/sniff), so that a file given to the wrong command points at
// the right one.

// withLooks returns err with what b looks like appended ("; it looks like
// a kernel log (dmesg or journalctl -k), which 'apstctl diagnose --log'
// reads"), unless b looks like one of own (the kinds the command reads,
// whose error says what is wrong) or like nothing sniff knows. A capture
// error's own "it looks like" clause is replaced by this one; a capture of
// no format that looks like nothing gets what it is (sniff.Shape: JSON of
// another tool, text with its first line).
func withLooks(err error, b []byte, own ...sniff.Kind) error {
	looks := sniff.Looks(b, own...)
	var pe *capture.ParseError
	if looks == "" && errors.Is(err, capture.ErrUnknownFormat) && errors.As(err, &pe) && pe.Looks == "" {
		// A capture like nothing sniff or the reader knows: what it is.
		if shape := sniff.Shape(b); shape != "" {
			return &hintError{err.Error() + "; it looks like " + safeio.EscapeTerminal(shape) + " instead", err}
		}
	}
	if err == nil || looks == "" {
		return err
	}
	msg := err.Error()
	if errors.As(err, &pe) && pe.Looks != "" && err == error(pe) {
		bare := *pe
		bare.Looks = ""
		msg = bare.Error()
	}
	return &hintError{msg + "; " + looks, err}
}

// captureKinds are the kinds an Identify Controller capture is.
var captureKinds = []sniff.Kind{sniff.IdentifyImage, sniff.IdentifyCapture, sniff.SmartctlReport}

// headRecorder keeps the first bytes read through it (up to its cap), so
// that a refusal of a stream can say what the stream looks like.
type headRecorder struct {
	r    io.Reader
	head []byte
}

func newHeadRecorder(r io.Reader) *headRecorder {
	return &headRecorder{r: r, head: make([]byte, 0, 64<<10)}
}

func (h *headRecorder) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if room := cap(h.head) - len(h.head); room > 0 {
		h.head = append(h.head, p[:min(n, room)]...)
	}
	return n, err
}
