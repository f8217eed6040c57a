package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
)

// --exit-factor takes a factor, or the file measure writes: --factor-out's
// one line or its JSON.
func TestParseExitFactor(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		return p
	}
	want := analysis.ExitFactors{Default: analysis.Factor{Num: 39, Den: 50}}
	perState := want
	perState.ByState[4], perState.Set = analysis.Factor{Num: 81, Den: 100}, apst.StatesOf(4)
	for _, tc := range []struct {
		arg, err string
	}{
		{"0.78", ""},
		{"78%", ""},
		{write("factor.txt", "# measured by apstctl measure\n0.78\n"), ""},
		{write("measure-one.json", `{"rows": [], "exit_factor": "0.78"}`), ""},
		{"0.78,ps4=0.81", "per-state"},
		{write("factors.txt", "0.78,ps4=0.81\n"), "per-state"},
		{write("measure.json", `{"rows": [], "exit_factor": "0.78", "exit_factor_by_state": "ps4=0.81"}`), "per-state"},
		{write("empty.txt", "\n# nothing\n"), "holds no exit factor"},
		{write("bad.txt", "fast\n"), "invalid exit-latency factor"},
		{write("other.json", `{"rows": []}`), `want measure's JSON with an "exit_factor" key`},
		{filepath.Join(dir, "missing"), "invalid exit-latency factor"},
		{dir, "invalid exit-latency factor"},
	} {
		got, err := parseExitFactor(tc.arg)
		if tc.err == "per-state" {
			require.NoError(t, err, tc.arg)
			assert.Equal(t, perState, got, tc.arg)
			continue
		}
		if tc.err != "" {
			require.Error(t, err, tc.arg)
			assert.Contains(t, err.Error(), tc.err, tc.arg)
			continue
		}
		require.NoError(t, err, tc.arg)
		assert.Equal(t, want, got, tc.arg)
	}
}

// --max-stall 0 is a goal (no wake stall at all), not a misuse of the
// library's Goal.
func TestRecommendZeroStall(t *testing.T) {
	code, out, errOut := apstctl(t, nil, "recommend", evoImage, "--max-stall", "0")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "goal: worst wake stall <= 0us")
	assert.Contains(t, out, "bound 100000us does not meet the goal")
}

// recommend takes one factor: a bound is one limit on every state.
func TestRecommendRefusesPerStateFactors(t *testing.T) {
	code, _, errOut := apstctl(t, nil, "recommend", evoImage, "--max-stall", "25ms", "--exit-factor", "0.78,ps4=0.81")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "recommend takes one factor for every state")
}
