package analysis_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
	"github.com/nvmeapst/nvmeapst/apst/analysis/trace/tracetest"
)

// nextOnly hides NextEvents: Replay takes the events one at a time.
type nextOnly struct{ r *trace.Reader }

func (s nextOnly) Next() (trace.Event, error) { return s.r.Next() }

// Replay gives the same report from a trace.Reader taken a batch at a
// time (EventBatchSource) as one event at a time, errors included.
func TestReplayBatchesIsNext(t *testing.T) {
	var b strings.Builder
	require.NoError(t, tracetest.Render(&b, trace.FormatBlkparse, tracetest.Interactive(7, 5000, 2e6, 1e5), tracetest.Options{}))
	for _, text := range []string{b.String(), b.String() + "not a line\n"} {
		c := exampleController("../../testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin")
		open := func() *trace.Reader {
			r, err := trace.NewReader(strings.NewReader(text), trace.Options{Workers: 2})
			require.NoError(t, err)
			t.Cleanup(func() { r.Close() })
			return r
		}
		want, wantErr := analysis.Replay(c, nextOnly{open()}, analysis.ReplayConfig{Name: "default"})
		got, gotErr := analysis.Replay(c, open(), analysis.ReplayConfig{Name: "default"})
		require.Equal(t, want, got)
		require.Equal(t, wantErr, gotErr)
	}
}
