package tracetest_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
	"github.com/nvmeapst/nvmeapst/apst/analysis/trace/tracetest"
)

func sortedByDispatch(t *testing.T, cs []tracetest.Command) {
	t.Helper()
	for i, c := range cs {
		require.GreaterOrEqual(t, c.Completion, c.Dispatch, "command %d", i)
		if i > 0 {
			require.GreaterOrEqual(t, c.Dispatch, cs[i-1].Dispatch, "command %d", i)
		}
	}
}

func TestWriteback(t *testing.T) {
	cs := slices.Collect(tracetest.Writeback(3, 5*time.Second, 4))
	sortedByDispatch(t, cs)
	require.Len(t, cs, 12)
	assert.Equal(t, tracetest.Command{Dispatch: 0, Completion: 200_000}, cs[0])
	assert.Equal(t, tracetest.Command{Dispatch: 150_000, Completion: 350_000}, cs[3])
	assert.Equal(t, tracetest.Command{Dispatch: 5e9, Completion: 5e9 + 200_000}, cs[4])
	assert.Equal(t, int64(10e9+350_000), cs[11].Completion)
	// Stopping early.
	for range tracetest.Writeback(3, time.Second, 4) {
		break
	}
}

func TestInteractive(t *testing.T) {
	a := slices.Collect(tracetest.Interactive(5, 20000, 100*time.Millisecond, 100*time.Microsecond))
	b := slices.Collect(tracetest.Interactive(5, 20000, 100*time.Millisecond, 100*time.Microsecond))
	c := slices.Collect(tracetest.Interactive(6, 20000, 100*time.Millisecond, 100*time.Microsecond))
	assert.Equal(t, a, b, "the same seed gives the same workload")
	assert.NotEqual(t, a, c)
	sortedByDispatch(t, a)
	var sum int64
	for i := 1; i < len(a); i++ {
		g := a[i].Dispatch - a[i-1].Completion
		require.Zero(t, g%1000, "whole microseconds")
		sum += g
	}
	mean := float64(sum) / float64(len(a)-1)
	assert.InDelta(t, 100e6, mean, 3e6, "mean gap")
	assert.Equal(t, tracetest.Command{Dispatch: 0, Completion: 100_000}, a[0])
}

func TestIntel600pRun(t *testing.T) {
	cs := slices.Collect(tracetest.Intel600pRun())
	sortedByDispatch(t, cs)
	require.Len(t, cs, 233)
	assert.Equal(t, int64(0), cs[0].Dispatch)
	assert.Equal(t, int64(13e9), cs[len(cs)-1].Completion)
	for _, c := range cs {
		require.Zero(t, c.Dispatch%1000)
		require.Zero(t, c.Completion%1000)
	}
}

// Each rendered format is detected as itself and gives back 2 events per
// command; NewReader renders lazily and can be closed before its end.
func TestRender(t *testing.T) {
	for _, f := range trace.Formats() {
		var b bytes.Buffer
		require.NoError(t, tracetest.Render(&b, f, tracetest.Intel600pRun(), tracetest.Options{Summary: true, Major: 8, Minor: 16, Disk: "sdb"}))
		r, err := trace.NewReader(&b, trace.Options{})
		require.NoError(t, err)
		assert.Equal(t, f, r.Format())
		n := 0
		for _, err := range r.All() {
			require.NoError(t, err, f)
			n++
		}
		assert.Equal(t, 2*233, n, f)
		assert.Contains(t, []string{"8,16", "sdb", "/dev/sdb", ""}, r.Device())
	}
	rc := tracetest.NewReader(trace.FormatPlain, tracetest.Interactive(1, 1<<30, time.Millisecond, time.Microsecond), tracetest.Options{})
	buf := make([]byte, 100)
	_, err := io.ReadFull(rc, buf)
	require.NoError(t, err)
	require.NoError(t, rc.Close())
	_, err = rc.Read(buf)
	assert.Equal(t, io.EOF, err)
}

// The writeback pattern as a plain trace.
func ExampleRender() {
	err := tracetest.Render(os.Stdout, trace.FormatPlain, tracetest.Writeback(2, 5*time.Second, 2), tracetest.Options{})
	fmt.Println(err)
	// Output:
	// # seconds duration
	// 0.000000000 0.000200000
	// 0.000050000 0.000200000
	// 5.000000000 0.000200000
	// 5.000050000 0.000200000
	// <nil>
}
