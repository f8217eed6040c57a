package trace_test

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
)

// genBlkparseRun draws a long blkparse trace of one device, mostly in time
// order as blkparse writes it: runs of events at increasing or equal
// times, with a few events late (within the reorder window or beyond it),
// sequence numbers that go back (blkparse numbers each CPU's events),
// other actions, and now and then a line of another kind (another device,
// a device written with a leading zero, a line the scanner leaves to the
// field splitter, a bad line).
func genBlkparseRun(t *rapid.T) string {
	n := rapid.IntRange(0, 400).Draw(t, "lines")
	odd := rapid.IntRange(0, 3).Draw(t, "odd lines") // 0: none
	var b strings.Builder
	var at int64
	seq := uint64(1)
	for i := 0; i < n; i++ {
		at += rapid.SampledFrom([]int64{0, 0, 1, 1000, 250000}).Draw(t, "dt")
		tm := at
		if rapid.IntRange(0, 15).Draw(t, "late?") == 0 {
			tm = max(0, at-rapid.SampledFrom([]int64{1, 1000, 5000, 1e6}).Draw(t, "late"))
		}
		seq++
		if rapid.IntRange(0, 7).Draw(t, "seq back?") == 0 {
			seq -= min(seq, rapid.Uint64Range(1, 3).Draw(t, "seq back"))
		}
		act := rapid.SampledFrom([]string{"D", "C", "D", "C", "Q"}).Draw(t, "act")
		line := fmt.Sprintf("259,0 %d %d %d.%09d 4242 %s R %d + 8 [fio]", i%2, seq, tm/1e9, tm%1e9, act, 2048+8*i%5)
		if odd > 0 && rapid.IntRange(0, 40/odd).Draw(t, "odd?") == 0 {
			switch rapid.IntRange(0, 4).Draw(t, "odd") {
			case 0:
				line = strings.Replace(line, "259,0", "8,16", 1)
			case 1:
				line = strings.Replace(line, "259,0", "259,00", 1)
			case 2:
				line = fmt.Sprintf("259,0 1 %d %d.5 4242 %s", seq, tm/1e9, act) // another time shape
			case 3:
				line = "259,0 1 x"
			case 4:
				line = ""
			}
		}
		b.WriteString(line)
		b.WriteString("\n")
	}
	return b.String()
}

// batchOutcome reads src with opt in batches of batch events
// (NextEvents), or one event a call (Next) when batch is 0, and returns
// every call's events and Line after it, then the final error and state.
func batchOutcome(t *rapid.T, src io.Reader, opt trace.Options, block, batch int) (calls []string, o outcome) {
	r, err := trace.NewReaderBlocks(src, opt, block)
	require.NoError(t, err)
	defer r.Close()
	evs := make([]trace.Event, max(batch, 1))
	for {
		var n int
		if batch == 0 {
			evs[0], err = r.Next()
			if err == nil {
				n = 1
			}
		} else {
			n, err = r.NextEvents(evs)
		}
		if err != nil {
			require.Zero(t, n)
			o.Err = err.Error()
			_, again := r.Next()
			require.Equal(t, err, again, "the error is final")
			break
		}
		calls = append(calls, fmt.Sprintf("%v line %d", evs[:n], r.Line()))
		o.Events = append(o.Events, evs[:n]...)
	}
	o.Line, o.Device, o.Format = r.Line(), r.Device(), r.Format()
	return calls, o
}

// On long traces mostly in order, the parallel path (whose NextEvents
// applies most records in one loop, parallel.fill) gives, call after
// call, the events and Line of the sequential Reader, then its error and
// state, whether read by Next or NextEvents.
func TestPropertyParallelInOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := genBlkparseRun(t)
		opt := trace.Options{
			Format:        trace.FormatBlkparse,
			Device:        rapid.SampledFrom([]string{"", "", "259,0"}).Draw(t, "device"),
			ReorderWindow: rapid.IntRange(1, 40).Draw(t, "window"),
		}
		batch := rapid.IntRange(0, 64).Draw(t, "batch") // 0: Next
		wantCalls, want := batchOutcome(t, strings.NewReader(text), opt, 0, batch)
		opt.Workers = rapid.IntRange(1, 3).Draw(t, "workers")
		gotCalls, got := batchOutcome(t, strings.NewReader(text), opt, rapid.IntRange(1, 3000).Draw(t, "block"), batch)
		require.Equal(t, want, got)
		require.Equal(t, wantCalls, gotCalls)
	})
}
