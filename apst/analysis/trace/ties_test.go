package trace_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
)

// repeatLines is text repeated n times.
func repeatLines(text string, n int) []byte { return []byte(strings.Repeat(text, n)) }

// Events of equal times are in time order, however many follow each other:
// a trace of them longer than the reorder window is read to its end (it
// was refused as out of order once the window had passed on a completion
// or a higher sequence number of that time). An earlier time beyond the
// window is still refused, saying how far out of place it is.
func TestReaderEqualTimesAreInOrder(t *testing.T) {
	blkDescending := func(n int) []byte { // one time, sequence numbers falling
		var b strings.Builder
		for i := n; i > 0; i-- {
			fmt.Fprintf(&b, "8,0 %d %d 1.000000000 1 %c R %d + 8 [x]\n", i%4, i, "DC"[i%2], 8*(i/2))
		}
		return []byte(b.String())
	}
	for _, tc := range []struct {
		name   string
		in     []byte
		window int // 0: the default
		events int
		err    string
	}{
		{"plain times alone, past the default window", repeatLines("1\n", 20000), 0, 40000, ""},
		{"plain times alone, a window of 1", repeatLines("1\n", 50), 1, 100, ""},
		{"plain times and durations, all in flight, within the window", repeatLines("1.000 0.0001\n", 50), 100, 100, ""},
		{"plain zero durations, a window of 2", repeatLines("5 0\n", 50), 2, 100, ""},
		{"fio, one timestamp, a window of 2", append([]byte("fio version 3 iolog\n"), repeatLines("7 /dev/nvme0n1 read 0 4096\n", 50)...), 2, 100, ""},
		{"biosnoop, one time, a window of 2", append([]byte("TIME(s) COMM PID DISK T SECTOR BYTES LAT(ms)\n"), repeatLines("1.000000 fio 1 nvme0n1 R 0 4096 0.00\n", 50)...), 2, 100, ""},
		{"blkparse, one time, sequence numbers falling, a window of 2", blkDescending(60), 2, 60, ""},
		{"blkparse, one time, sequence numbers falling, the default window", blkDescending(3 * trace.DefaultReorderWindow), 0, 3 * trace.DefaultReorderWindow, ""},
		{"an earlier time beyond the window", append(repeatLines("2\n", 3), "1\n"...), 2, 0,
			"trace: plain line 4: event out of time order beyond the reorder window: an event at 1.000000000s is earlier than 3 events read before it (one at 2.000000000s already passed on); the reorder window holds 2"},
		{"an earlier time within the window", append(repeatLines("2\n", 1), "1\n"...), 2, 4, ""},
		// Not ties: the dispatches at 1 s are earlier than the completions
		// at 1.0001 s read before them, and more commands are in flight
		// at once than the window holds events.
		{"more commands in flight than the window holds", repeatLines("1.000 0.0001\n", 20000), 0, 0,
			"trace: plain line 16386: event out of time order beyond the reorder window: an event at 1.000000000s is earlier than 16385 events read before it (one at 1.000100000s already passed on); the reorder window holds 16384"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, workers := range []int{0, 2} {
				evs, _, err := readAll(t, tc.in, trace.Options{ReorderWindow: tc.window, Workers: workers})
				if tc.err != "" {
					require.ErrorIs(t, err, trace.ErrOutOfOrder)
					assert.EqualError(t, err, tc.err)
					continue
				}
				require.NoError(t, err, "workers %d", workers)
				require.Len(t, evs, tc.events, "workers %d", workers)
				assert.True(t, slices.IsSortedFunc(evs, func(a, b trace.Event) int { return int(a.Time - b.Time) }), "in time order")
			}
		})
	}
}

// A trace whose events come in time order, with any number of equal times
// in a row, however many more than the reorder window holds, is read
// without error: every event, in time order, in any format and on the
// parallel path too.
func TestPropertyEqualTimesReadWithoutError(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		window := rapid.IntRange(1, 8).Draw(t, "window")
		n := rapid.IntRange(1, 30*window).Draw(t, "n")
		blk := rapid.Bool().Draw(t, "blkparse")
		var b strings.Builder
		var times []int64
		at := int64(1e9)
		for i := range n {
			if rapid.IntRange(0, 3).Draw(t, "advance") == 0 {
				at += rapid.Int64Range(1, 1000).Draw(t, "dt")
			}
			if blk {
				// Sequence numbers of any order within a time (several
				// CPUs), dispatches and completions mixed.
				seq := rapid.IntRange(1, 1000).Draw(t, "seq")
				fmt.Fprintf(&b, "8,0 %d %d %d.%09d 1 %c R %d + 8 [x]\n", seq%4, seq, at/1e9, at%1e9, "DC"[rapid.IntRange(0, 1).Draw(t, "kind")], 8*i)
				times = append(times, at)
				continue
			}
			dur := []string{"", " 0", " 0.000"}[rapid.IntRange(0, 2).Draw(t, "duration")]
			fmt.Fprintf(&b, "%d.%09d%s\n", at/1e9, at%1e9, dur)
			times = append(times, at, at)
		}
		workers := rapid.IntRange(0, 2).Draw(t, "workers")
		r, err := trace.NewReader(strings.NewReader(b.String()), trace.Options{ReorderWindow: window, Workers: workers})
		require.NoError(t, err)
		defer r.Close()
		i := 0
		for ev, err := range r.All() {
			require.NoError(t, err, "event %d", i)
			require.Less(t, i, len(times))
			require.Equal(t, times[i]-times[0], ev.Time, "event %d", i)
			i++
		}
		require.Equal(t, len(times), i)
	})
}
