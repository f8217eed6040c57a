package main

import "io"

// surveyHoldMax bounds what a heldWriter keeps before the first drive: past
// it (an ndjson list of many unreadable files) the report is written as it
// comes, even if it ends without a drive.
const surveyHoldMax = 1 << 20

// heldWriter keeps what is written to it until release, so that a survey
// refused for having no readable capture writes nothing: the report goes
// to w once the first drive is reported (or the survey ends with one), and
// as it comes after that. What it holds is bounded by max: beyond it, it
// releases on its own.
type heldWriter struct {
	w        io.Writer
	held     []byte
	max      int
	released bool
}

func (h *heldWriter) Write(p []byte) (int, error) {
	if h.released {
		return h.w.Write(p)
	}
	h.held = append(h.held, p...)
	if len(h.held) > h.max {
		if err := h.release(); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// release writes what is held and lets later writes through.
func (h *heldWriter) release() error {
	if h.released {
		return nil
	}
	h.released = true
	b := h.held
	h.held = nil
	_, err := h.w.Write(b)
	return err
}
