package analysis_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
)

// ShortestLost is the shortest command of those counted lost whose
// completion came later: what LostAfter would have had to be for one of
// them to be matched. 0 when no lost command's completion came.
func TestReplayShortestLost(t *testing.T) {
	for _, tc := range []struct {
		name      string
		trace     string
		lostAfter time.Duration
		lost      uint64
		shortest  time.Duration
	}{
		{"every command lost", "1 0.0002\n2 0.00015\n3 0.0003\n", time.Microsecond, 3, 150 * time.Microsecond},
		{"one lost, one matched", "1 0.0002\n2 0.00015\n", 160 * time.Microsecond, 1, 200 * time.Microsecond},
		{"none lost", "1 0.0002\n2 0.00015\n", 0, 0, 0},
		{"one command", "1 0.0002\n", time.Microsecond, 1, 200 * time.Microsecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := replayString(t, tc.trace, analysis.ReplayOptions{LostAfter: tc.lostAfter})
			assert.Equal(t, tc.lost, rep.LostCommands)
			assert.Equal(t, tc.shortest, rep.ShortestLost)
		})
	}

	// A dispatch that never completes is lost with no duration.
	c := replayController(t, replay990)
	r, err := analysis.NewReplayerWithOptions(c, analysis.ReplayOptions{LostAfter: time.Second}, replayConfig(t, "ps-max-latency-us=100000"))
	require.NoError(t, err)
	require.NoError(t, r.Add(trace.Event{Time: 0, Kind: trace.Dispatch, ID: 1}))
	require.NoError(t, r.Add(trace.Event{Time: int64(3 * time.Second), Kind: trace.Dispatch, ID: 2}))
	require.NoError(t, r.Add(trace.Event{Time: int64(3*time.Second + 5), Kind: trace.Completion, ID: 2}))
	rep := r.Report()
	assert.Equal(t, uint64(1), rep.LostCommands)
	assert.Zero(t, rep.ShortestLost)
}

// With every command lost, ShortestLost is the trace's shortest command,
// and a LostAfter that long matches it: no longer every command is lost.
func TestPropertyShortestLostIsTheBound(t *testing.T) {
	c := replayController(t, replay990)
	cfg := replayConfig(t, "ps-max-latency-us=100000")
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 40).Draw(t, "commands")
		type cmd struct{ d, c int64 }
		var cmds []cmd
		shortest := int64(-1)
		at := int64(0)
		for range n {
			at += rapid.Int64Range(1, 1000).Draw(t, "gap") * int64(time.Millisecond)
			d := rapid.Int64Range(2, 500).Draw(t, "us") * int64(time.Microsecond)
			cmds = append(cmds, cmd{at, at + d})
			at += d // one command at a time
			if shortest < 0 || d < shortest {
				shortest = d
			}
		}
		replay := func(lostAfter time.Duration) analysis.ReplayReport {
			r, err := analysis.NewReplayerWithOptions(c, analysis.ReplayOptions{LostAfter: lostAfter}, cfg)
			require.NoError(t, err)
			for i, cm := range cmds {
				require.NoError(t, r.Add(trace.Event{Time: cm.d, Kind: trace.Dispatch, ID: uint64(i + 1)}))
				require.NoError(t, r.Add(trace.Event{Time: cm.c, Kind: trace.Completion, ID: uint64(i + 1)}))
			}
			return r.Report()
		}
		rep := replay(time.Microsecond)
		require.Equal(t, uint64(n), rep.LostCommands)
		require.Equal(t, uint64(n), rep.UnmatchedCompletions)
		require.Equal(t, time.Duration(shortest), rep.ShortestLost)
		rep = replay(rep.ShortestLost)
		require.Less(t, rep.LostCommands, uint64(n))
	})
}
