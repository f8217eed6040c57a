package analysis_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
)

func TestDrawGaps(t *testing.T) {
	ms := apst.Microseconds(1000)
	for _, tc := range []struct {
		spec    string
		count   int
		want    []apst.Microseconds // nil: only the count is checked
		n       int
		source  string
		errIs   error
		errText string
		fails   bool
	}{
		{spec: "10ms,2s,0s", count: 99, want: []apst.Microseconds{10 * ms, 2000 * ms, 0}, source: "list"},
		{spec: " 25ms ", count: 0, want: []apst.Microseconds{25 * ms}, source: "list"},
		{spec: "fixed:2s", count: 3, want: []apst.Microseconds{2000 * ms, 2000 * ms, 2000 * ms}, source: "fixed:2s, seed 7"},
		{spec: "exp:10s", count: 500, n: 500, source: "exp:10s, seed 7"},
		{spec: "uniform:10ms..5s", count: 1, n: 1, source: "uniform:10ms..5s, seed 7"},
		{spec: "exp:0s", count: 10, errIs: analysis.ErrNoIdle},
		{spec: "0s,0ms", count: 10, errIs: analysis.ErrNoIdle},
		{spec: "", count: 10, errIs: analysis.ErrInvalidGaps, errText: "no gaps"},
		{spec: "   ", count: 10, errIs: analysis.ErrInvalidGaps, errText: "no gaps"},
		{spec: "10ms,,2s", count: 10, fails: true},
		{spec: "10,2s", count: 10, errIs: analysis.ErrInvalidGaps, errText: "has no unit"},
		{spec: "exp:10s", count: 0, errIs: analysis.ErrInvalidGaps, errText: "count 0: want 1 to 10000000"},
		{spec: "exp:10s", count: analysis.MaxGapDraws + 1, errIs: analysis.ErrInvalidGaps, errText: "want 1 to"},
		{spec: "poisson:10s", count: 10, errIs: analysis.ErrInvalidGaps, errText: "want fixed:D"},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			g, err := analysis.DrawGaps(tc.spec, tc.count, 7)
			if tc.errIs != nil || tc.errText != "" || tc.fails {
				require.Error(t, err)
				if tc.errIs != nil {
					require.ErrorIs(t, err, tc.errIs)
				}
				assert.Contains(t, err.Error(), tc.errText)
				assert.Empty(t, g.Gaps, "no gaps beside an error")
				return
			}
			require.NoError(t, err)
			if tc.want != nil {
				assert.Equal(t, tc.want, g.Gaps)
			} else {
				assert.Len(t, g.Gaps, tc.n)
			}
			assert.Equal(t, tc.source, g.Source())
			assert.Equal(t, !strings.Contains(tc.spec, ":"), g.Listed())
		})
	}
}

func TestDrawnGapsZero(t *testing.T) {
	var g analysis.DrawnGaps
	assert.False(t, g.Listed())
	assert.Empty(t, g.Source())
}

// TestDrawGapsInvariants: the same spec, count and seed draw the same
// gaps; a distribution draws count gaps; every result has idle time.
func TestDrawGapsInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		kind := rapid.SampledFrom([]string{"fixed:%dms", "exp:%dms", "uniform:0ms..%dms"}).Draw(t, "kind")
		spec := fmt.Sprintf(kind, rapid.IntRange(0, 5000).Draw(t, "ms"))
		count := rapid.IntRange(1, 200).Draw(t, "count")
		seed := rapid.Uint64().Draw(t, "seed")
		a, errA := analysis.DrawGaps(spec, count, seed)
		b, errB := analysis.DrawGaps(spec, count, seed)
		require.Equal(t, errA, errB)
		require.Equal(t, a, b)
		if errA != nil {
			require.ErrorIs(t, errA, analysis.ErrNoIdle)
			return
		}
		require.Len(t, a.Gaps, count)
		require.False(t, a.Listed())
		require.Equal(t, seed, a.Seed)
		require.True(t, slicesAnyAbove0(a.Gaps))
	})
}

func slicesAnyAbove0(gs []apst.Microseconds) bool {
	for _, g := range gs {
		if g > 0 {
			return true
		}
	}
	return false
}

// FuzzDrawGaps: a spec either draws gaps with some idle time (count of
// them for a distribution) or is refused; never a panic.
func FuzzDrawGaps(f *testing.F) {
	for _, s := range []string{"exp:10s", "10ms,2s", "0s", "fixed:0s", "uniform:1s..0s", ",", "exp:", "1ms,,", "5000000000000s", ""} {
		f.Add(s, uint16(3), uint64(1))
	}
	f.Fuzz(func(t *testing.T, spec string, count uint16, seed uint64) {
		g, err := analysis.DrawGaps(spec, int(count), seed)
		if err != nil {
			if g.Gaps != nil {
				t.Fatalf("%q: gaps %v beside the error %v", spec, g.Gaps, err)
			}
			return
		}
		if !slicesAnyAbove0(g.Gaps) {
			t.Fatalf("%q: no idle time in %v", spec, g.Gaps)
		}
		if !g.Listed() && len(g.Gaps) != int(count) {
			t.Fatalf("%q: %d gaps drawn, want %d", spec, len(g.Gaps), count)
		}
	})
}

func ExampleDrawGaps() {
	g, err := analysis.DrawGaps("fixed:2s", 3, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.Gaps, g.Source())
	l, _ := analysis.DrawGaps("10ms,2s", 0, 0)
	fmt.Println(l.Gaps, l.Source())
	_, err = analysis.DrawGaps("0s,0ms", 0, 0)
	fmt.Println(err)
	// Output:
	// [2000000us 2000000us 2000000us] fixed:2s, seed 1
	// [10000us 2000000us] list
	// analysis: every gap is 0: no idle time to summarise
}
