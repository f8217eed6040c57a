package analysis_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
)

// pairsTrace is a blkparse trace of n dispatch/complete pairs every
// `every` seconds (sector 8k for pair k, each taking 1 ms), with extra
// lines inserted before pair at[i].
func pairsTrace(n int, every float64, extra map[int]string) string {
	var b strings.Builder
	seq := 1
	for k := range n {
		if line, ok := extra[k]; ok {
			b.WriteString(line)
		}
		t := float64(k+1) * every
		fmt.Fprintf(&b, "259,0 0 %d %.9f 100 D R %d + 8 [fio]\n", seq, t, 8*k+1000)
		fmt.Fprintf(&b, "259,0 0 %d %.9f 0 C R %d + 8 [0]\n", seq+1, t+0.001, 8*k+1000)
		seq += 2
	}
	return b.String()
}

func replayString(t *testing.T, in string, opts analysis.ReplayOptions) analysis.ReplayReport {
	t.Helper()
	r, err := trace.NewReader(strings.NewReader(in), trace.Options{})
	require.NoError(t, err)
	rep, err := analysis.ReplayWithOptions(replayController(t, replay990), r, opts,
		replayConfig(t, "ps-max-latency-us=100000"), replayConfig(t, "ps-max-latency-us=25000"))
	require.NoError(t, err)
	return rep
}

// One lost completion changes the replay by that one event: a dispatch
// whose completion never comes, at the start of the trace or between two
// pairs, is counted lost after LostAfter and every idle period it hid is
// counted, so the figures are those of the trace without it. A stray
// completion is ignored and counted.
func TestReplayLostCompletion(t *testing.T) {
	const n = 100
	want := replayString(t, pairsTrace(n, 3, nil), analysis.ReplayOptions{})
	require.Equal(t, uint64(n-1), want.IdlePeriods)
	require.Equal(t, uint64(n-1), want.Configs[0].Wakes)
	require.Zero(t, want.LostCommands)

	stray := "259,0 1 9999 %.9f 100 D W 77 + 8 [fio]\n"
	for _, tc := range []struct {
		name  string
		extra map[int]string
		lost  uint64
		opts  analysis.ReplayOptions
	}{
		{"a dispatch before the first pair", map[int]string{0: fmt.Sprintf(stray, 1.0)}, 1, analysis.ReplayOptions{}},
		{"a dispatch between two pairs", map[int]string{40: fmt.Sprintf(stray, 40.5)}, 1, analysis.ReplayOptions{}},
		{"two, far apart", map[int]string{10: fmt.Sprintf(stray, 10.5), 60: fmt.Sprintf("259,0 1 9998 %.9f 100 D W 99 + 8 [fio]\n", 60.5)}, 2, analysis.ReplayOptions{}},
		{"a dispatch, a shorter bound", map[int]string{40: fmt.Sprintf(stray, 40.5)}, 1, analysis.ReplayOptions{LostAfter: 2 * time.Second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := replayString(t, pairsTrace(n, 3, tc.extra), tc.opts)
			assert.Equal(t, tc.lost, got.LostCommands)
			assert.Equal(t, want.Events+tc.lost, got.Events)
			assert.Equal(t, want.IdlePeriods, got.IdlePeriods)
			for i := range want.Configs {
				assert.Equal(t, figures(&want.Configs[i]), figures(&got.Configs[i]), "configuration %d", i)
			}
		})
	}

	t.Run("a completion of nothing", func(t *testing.T) {
		got := replayString(t, pairsTrace(n, 3, map[int]string{30: "259,0 1 9999 90.5 0 C W 77 + 8 [0]\n"}), analysis.ReplayOptions{})
		assert.Equal(t, uint64(1), got.UnmatchedCompletions)
		assert.Zero(t, got.LostCommands)
		for i := range want.Configs {
			assert.Equal(t, figures(&want.Configs[i]), figures(&got.Configs[i]), "configuration %d", i)
		}
	})

	// A command slower than the bound is lost too; one within it is not.
	slow := pairsTrace(3, 3, map[int]string{1: "259,0 1 9999 4.0 100 D W 77 + 8 [fio]\n259,0 1 10000 9.5 0 C W 77 + 8 [0]\n"})
	assert.Zero(t, replayString(t, slow, analysis.ReplayOptions{}).LostCommands)
	assert.Equal(t, uint64(1), replayString(t, slow, analysis.ReplayOptions{LostAfter: time.Second}).LostCommands)

	// The bound's range.
	for _, d := range []time.Duration{-time.Second, analysis.MaxLostAfter + 1} {
		_, err := analysis.NewReplayerWithOptions(replayController(t, replay990), analysis.ReplayOptions{LostAfter: d}, replayConfig(t, "ps-max-latency-us=100000"))
		assert.ErrorIs(t, err, analysis.ErrReplayConfig, "%v", d)
	}
}

// Sustained load, every command overlapping the next for longer than the
// bound, loses nothing: completions are matched by ID.
func TestReplaySustainedLoadLosesNothing(t *testing.T) {
	var b strings.Builder
	seq := 1
	for k := range 2000 {
		t0 := float64(k) * 0.05
		fmt.Fprintf(&b, "259,0 0 %d %.9f 100 D R %d + 8 [fio]\n", seq, t0, 8*k)
		fmt.Fprintf(&b, "259,0 0 %d %.9f 0 C R %d + 8 [0]\n", seq+1, t0+0.07, 8*k)
		seq += 2
	}
	rep := replayString(t, b.String(), analysis.ReplayOptions{LostAfter: time.Second})
	assert.Zero(t, rep.LostCommands)
	assert.Zero(t, rep.IdlePeriods)
}

// The queue of outstanding dispatches is searched while it is short and
// indexed by ID while it is long: the report is the same whatever the
// length at which the index starts (0: always indexed, as before the
// search; 1<<20: never), on events with repeated IDs, completions out of
// order, completions of nothing and lost commands.
func TestReplayLostQueueSearchedOrIndexed(t *testing.T) {
	c := replayController(t, replay990)
	cfgs := []analysis.ReplayConfig{replayConfig(t, "ps-max-latency-us=100000"), replayConfig(t, "ps-max-latency-us=25000")}
	rapid.Check(t, func(t *rapid.T) {
		ids := rapid.Uint64Range(1, uint64(rapid.IntRange(1, 80).Draw(t, "ids"))).Draw(t, "maxID")
		var evs []trace.Event
		at := int64(0)
		for range rapid.IntRange(0, 400).Draw(t, "events") {
			at += rapid.Int64Range(0, 40).Draw(t, "gap") * int64(time.Millisecond)
			k := trace.Dispatch
			if rapid.Bool().Draw(t, "completion") {
				k = trace.Completion
			}
			evs = append(evs, trace.Event{Time: at, Kind: k, Device: "nvme0n1", ID: rapid.Uint64Range(0, ids).Draw(t, "id")})
		}
		lostAfter := time.Duration(rapid.Int64Range(1, 2000).Draw(t, "lostAfterMs")) * time.Millisecond
		var reps []analysis.ReplayReport
		for _, scan := range []int{0, 1, 32, 1 << 20} {
			r, err := analysis.NewReplayerWithOptions(c, analysis.ReplayOptions{LostAfter: lostAfter}, cfgs...)
			require.NoError(t, err)
			analysis.SetReplayScanMax(r, scan)
			for _, ev := range evs {
				require.NoError(t, r.Add(ev))
			}
			reps = append(reps, r.Report())
		}
		for i := 1; i < len(reps); i++ {
			require.Equal(t, reps[0], reps[i], "scan limit %d", []int{0, 1, 32, 1 << 20}[i])
		}
	})
}

// A command is counted lost once more than LostAfter has passed since its
// dispatch: an event exactly LostAfter later finds it still outstanding,
// one a nanosecond later does not.
func TestReplayLostAfterBoundary(t *testing.T) {
	c := replayController(t, replay990)
	cfg := replayConfig(t, "ps-max-latency-us=100000")
	for _, tc := range []struct {
		after time.Duration
		lost  uint64
	}{{time.Second, 0}, {time.Second - 1, 1}} {
		r, err := analysis.NewReplayerWithOptions(c, analysis.ReplayOptions{LostAfter: tc.after}, cfg)
		require.NoError(t, err)
		require.NoError(t, r.Add(trace.Event{Time: 0, Kind: trace.Dispatch, ID: 1}))
		require.NoError(t, r.Add(trace.Event{Time: int64(time.Second), Kind: trace.Dispatch, ID: 2}))
		assert.Equal(t, tc.lost, r.Report().LostCommands, "LostAfter %v", tc.after)
	}
}
