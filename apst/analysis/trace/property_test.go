package trace_test

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
	"github.com/nvmeapst/nvmeapst/apst/analysis/trace/tracetest"
)

// genCommands draws a workload on a microsecond grid: commands sorted by
// dispatch, overlapping or not, some of length 0.
func genCommands(t *rapid.T) []tracetest.Command {
	n := rapid.IntRange(1, 60).Draw(t, "n")
	cs := make([]tracetest.Command, n)
	var at int64
	for i := range cs {
		at += rapid.Int64Range(0, 3000).Draw(t, "gap") * 1000
		cs[i] = tracetest.Command{Dispatch: at, Completion: at + rapid.Int64Range(0, 5000).Draw(t, "len")*1000}
	}
	return cs
}

type timeKind struct {
	t int64
	k trace.Kind
}

// modelEvents returns the (time, kind) of the workload's events as format f
// records them, relative to the first one, sorted.
func modelEvents(cs []tracetest.Command, f trace.Format) []timeKind {
	var out []timeKind
	for _, c := range cs {
		comp := c.Completion
		if f == trace.FormatFioIolog {
			comp = c.Dispatch
		}
		out = append(out, timeKind{c.Dispatch, trace.Dispatch}, timeKind{comp, trace.Completion})
	}
	slices.SortFunc(out, func(a, b timeKind) int { return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.k, b.k)) })
	o := out[0].t
	for i := range out {
		out[i].t -= o
	}
	return out
}

// Every format gives back the workload's events in time order, relative to
// the first; at a tie, dispatches come first except in blkparse, which
// keeps the sequence of its lines.
func TestPropertyRenderedTracesReadBack(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cs := genCommands(t)
		for _, f := range []trace.Format{trace.FormatBlkparse, trace.FormatBiosnoop, trace.FormatFioIolog, trace.FormatPlain} {
			var b bytes.Buffer
			require.NoError(t, tracetest.Render(&b, f, tracetest.Commands(cs...), tracetest.Options{Summary: true}))
			r, err := trace.NewReader(&b, trace.Options{ReorderWindow: 2*len(cs) + 2})
			require.NoError(t, err)
			require.Equal(t, f, r.Format())
			var got []timeKind
			for ev, err := range r.All() {
				require.NoError(t, err, "%s", f)
				got = append(got, timeKind{ev.Time, ev.Kind})
			}
			want := modelEvents(cs, f)
			require.True(t, slices.IsSortedFunc(got, func(a, b timeKind) int { return cmp.Compare(a.t, b.t) }), "%s: sorted by time", f)
			if f != trace.FormatBlkparse {
				require.Equal(t, want, got, "%s", f)
				continue
			}
			sorted := slices.Clone(got)
			slices.SortStableFunc(sorted, func(a, b timeKind) int { return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.k, b.k)) })
			require.Equal(t, want, sorted, "blkparse: the same events")
		}
	})
}

// Shuffled blkparse lines come out in time order, or the Reader says they
// are out of order beyond its window: never in a wrong order. The error
// comes exactly at the first line whose event is earlier than more events
// read before it than the window holds (as its message says); events of
// equal times never make one. A window as long as the trace always sorts
// it, by (time, sequence).
func TestPropertyReorderWindow(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 80).Draw(t, "n")
		type line struct {
			t   int64
			seq int
			k   byte
		}
		lines := make([]line, n)
		var at int64
		for i := range lines {
			at += rapid.Int64Range(0, 3).Draw(t, "dt")
			lines[i] = line{at, i + 1, "DC"[rapid.IntRange(0, 1).Draw(t, "kind")]}
		}
		shuffled := slices.Clone(lines)
		k := rapid.IntRange(0, 10).Draw(t, "k")
		for i := range shuffled {
			j := min(len(shuffled)-1, i+rapid.IntRange(0, k).Draw(t, "swap"))
			shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
		}
		var b strings.Builder
		for _, l := range shuffled {
			fmt.Fprintf(&b, "8,0 %d %d %d.%09d 1 %c R 0 + 8 [x]\n", l.seq%4, l.seq, l.t/1e9, l.t%1e9, l.k)
		}
		window := rapid.IntRange(1, n+1).Draw(t, "window")
		// badLine is the first line (1-based) whose event is earlier than
		// more than window events read before it; 0 when none is.
		badLine := 0
		for i, l := range shuffled {
			later := 0
			for _, o := range shuffled[:i] {
				if o.t > l.t {
					later++
				}
			}
			if later > window {
				badLine = i + 1
				break
			}
		}
		r, err := trace.NewReader(strings.NewReader(b.String()), trace.Options{ReorderWindow: window})
		require.NoError(t, err)
		var got []trace.Event
		for {
			ev, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				require.ErrorIs(t, err, trace.ErrOutOfOrder)
				require.Less(t, window, n, "a window of the trace's length sorts it")
				var se *trace.SyntaxError
				require.ErrorAs(t, err, &se)
				require.Equal(t, badLine, se.Line, "the first line out of place beyond the window: %v", err)
				return
			}
			got = append(got, ev)
		}
		require.Zero(t, badLine, "line %d is out of place beyond the window, and was read", badLine)
		require.Len(t, got, n)
		kinds := map[byte]trace.Kind{'D': trace.Dispatch, 'C': trace.Completion}
		for i, ev := range got {
			require.Equal(t, lines[i].t-lines[0].t, ev.Time, "event %d", i)
			if window >= n {
				require.Equal(t, kinds[lines[i].k], ev.Kind, "event %d", i)
			}
		}
		// Whatever the window, each time has the kinds of its lines.
		count := func(t int64, k trace.Kind) (in, out int) {
			for i := range lines {
				if lines[i].t-lines[0].t == t && kinds[lines[i].k] == k {
					in++
				}
				if got[i].Time == t && got[i].Kind == k {
					out++
				}
			}
			return in, out
		}
		for _, ev := range got {
			in, out := count(ev.Time, ev.Kind)
			require.Equal(t, in, out, "%s events at %d ns", ev.Kind, ev.Time)
		}
	})
}

// Once the reorder window has grown, Next does not allocate.
func TestNextDoesNotAllocate(t *testing.T) {
	for _, f := range trace.Formats() {
		t.Run(f.String(), func(t *testing.T) {
			src := tracetest.NewReader(f, tracetest.Interactive(1, 1<<30, 1e6, 1e5), tracetest.Options{})
			defer src.Close()
			r, err := trace.NewReader(src, trace.Options{ReorderWindow: 64})
			require.NoError(t, err)
			for range 1000 {
				_, err := r.Next()
				require.NoError(t, err)
			}
			allocs := testing.AllocsPerRun(10000, func() {
				if _, err := r.Next(); err != nil {
					t.Fatal(err)
				}
			})
			// The renderer behind the Reader allocates now and then; the
			// Reader itself never does (checked on an in-memory trace below).
			assert.Less(t, allocs, 0.1)
		})
	}
	var b bytes.Buffer
	require.NoError(t, tracetest.Render(&b, trace.FormatBlkparse, tracetest.Interactive(2, 20000, 1e6, 1e5), tracetest.Options{}))
	r, err := trace.NewReader(bytes.NewReader(b.Bytes()), trace.Options{ReorderWindow: 64})
	require.NoError(t, err)
	for range 1000 {
		_, err := r.Next()
		require.NoError(t, err)
	}
	assert.Zero(t, testing.AllocsPerRun(20000, func() {
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
	}))
}

func benchTrace(b *testing.B, f trace.Format, n int) []byte {
	var buf bytes.Buffer
	require.NoError(b, tracetest.Render(&buf, f, tracetest.Interactive(3, n, 2e6, 1e5), tracetest.Options{}))
	return buf.Bytes()
}

// readEvents reads every event of the trace data with opt
// and returns how many there were; a benchmark's loop body.
func readEvents(b *testing.B, data []byte, opt trace.Options) int {
	r, err := trace.NewReader(bytes.NewReader(data), opt)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for {
		_, err := r.Next()
		if err == io.EOF {
			return n
		}
		if err != nil {
			b.Fatal(err)
		}
		n++
	}
}

func BenchmarkReader(b *testing.B) {
	const n = 100_000 // commands: 2n events
	for _, f := range trace.Formats() {
		b.Run(f.String(), func(b *testing.B) {
			data := benchTrace(b, f, n)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			events := 0
			for b.Loop() {
				events += readEvents(b, data, trace.Options{})
			}
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkReaderParallel reads a blkparse trace (3 lines a command, as
// blkparse writes Q, D and C) through the parallel path, workers=N, and
// the sequential Reader, workers=0: compare them with -cpu 1,2,4.
func BenchmarkReaderParallel(b *testing.B) {
	const n = 100_000 // commands: 2n events
	data := benchTrace(b, trace.FormatBlkparse, n)
	for _, w := range []int{0, 1, 2, 4} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			events := 0
			for b.Loop() {
				events += readEvents(b, data, trace.Options{Workers: w})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(events), "ns/event")
		})
	}
}

// BenchmarkBlkparseDefault reads traces in blkparse's default layout
// (tracetest: "%D %2c %8s %5T.%9t %5p %2a %3d ", the completions' PID 0)
// through the parallel path with one worker: the five lines blkparse
// prints of each command (QGIDC) and the two of `blkparse -a issue -a
// complete` (DC), 4 CPUs.
func BenchmarkBlkparseDefault(b *testing.B) {
	for _, mix := range []string{"QGIDC", "DC"} {
		b.Run(mix, func(b *testing.B) {
			var buf bytes.Buffer
			cmds := 300_000 / len(mix)
			require.NoError(b, tracetest.Render(&buf, trace.FormatBlkparse, tracetest.Interactive(3, cmds, 2e6, 1e5), tracetest.Options{Actions: mix, CPUs: 4}))
			data := buf.Bytes()
			lines := bytes.Count(data, []byte("\n"))
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				readEvents(b, data, trace.Options{Workers: 1})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*lines), "ns/line")
		})
	}
}
