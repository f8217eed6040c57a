package trace_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
)

// fuzzReader reads data as format f (FormatAuto: detected) and checks what
// every trace must give: no panic, events in time order from 0 with a
// valid kind, every error a "trace: " error, and no more events than the
// input has lines times two.
func fuzzReader(t *testing.T, f trace.Format, data []byte) {
	r, err := trace.NewReader(bytes.NewReader(data), trace.Options{Format: f, MaxLineLength: 1024, ReorderWindow: 8})
	if err != nil {
		if !strings.HasPrefix(err.Error(), "trace: ") {
			t.Fatalf("error without the package prefix: %v", err)
		}
		return
	}
	maxEvents := 2 * (bytes.Count(data, []byte{'\n'}) + 1)
	var last int64
	for i := 0; ; i++ {
		ev, err := r.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "trace: ") {
				t.Fatalf("error without the package prefix: %v", err)
			}
			var se *trace.SyntaxError
			var de *trace.DeviceError
			if !errors.As(err, &se) && !errors.As(err, &de) && !errors.Is(err, trace.ErrFioV2) {
				t.Fatalf("untyped error: %v", err)
			}
			if se != nil && (se.Line < 1 || se.Line > r.Line()) {
				t.Fatalf("line %d of %d", se.Line, r.Line())
			}
			if _, err2 := r.Next(); err2 != err {
				t.Fatalf("error not final: %v then %v", err, err2)
			}
			return
		}
		switch {
		case i == 0 && ev.Time != 0:
			t.Fatalf("first event at %d", ev.Time)
		case ev.Time < last:
			t.Fatalf("event %d at %d before %d", i, ev.Time, last)
		case ev.Kind != trace.Dispatch && ev.Kind != trace.Completion:
			t.Fatalf("event %d kind %d", i, ev.Kind)
		case i >= maxEvents:
			t.Fatalf("%d events from %d lines", i, maxEvents/2)
		}
		last = ev.Time
	}
}

func FuzzReaderAuto(f *testing.F) {
	for _, name := range []string{"blkparse.txt", "biosnoop.txt", "bpftrace.txt", "fio.txt", "plain.txt"} {
		f.Add(readTestdata(f, name))
	}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzReader(t, trace.FormatAuto, data) })
}

func FuzzReaderBlkparse(f *testing.F) {
	f.Add(readTestdata(f, "blkparse.txt"))
	f.Add(readTestdata(f, "blkparse-two-devices.txt"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzReader(t, trace.FormatBlkparse, data) })
}

func FuzzReaderBiosnoop(f *testing.F) {
	f.Add(readTestdata(f, "biosnoop.txt"))
	f.Add(readTestdata(f, "biosnoop-two-disks.txt"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzReader(t, trace.FormatBiosnoop, data) })
}

func FuzzReaderBpftrace(f *testing.F) {
	f.Add(readTestdata(f, "bpftrace.txt"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzReader(t, trace.FormatBiosnoopBpftrace, data) })
}

func FuzzReaderFio(f *testing.F) {
	f.Add(readTestdata(f, "fio.txt"))
	f.Add(readTestdata(f, "fio-v2.txt"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzReader(t, trace.FormatFioIolog, data) })
}

func FuzzReaderPlain(f *testing.F) {
	f.Add(readTestdata(f, "plain.txt"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzReader(t, trace.FormatPlain, data) })
}
