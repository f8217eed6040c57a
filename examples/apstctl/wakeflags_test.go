package main

import (
	"encoding/json"
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
		{write("bad.txt", "fast\n"), "bad.txt: line 1 is not an exit factor"},
		{write("secret.txt", "\n# header\nhunter2 \x1b[2J\n"), "secret.txt: line 3 is not an exit factor"},
		{write("bad.json", `{"exit_factor": "hunter2"}`), "bad.json: its exit_factor"},
		{write("other.json", `{"rows": []}`), `want measure's JSON with an "exit_factor" key`},
		{filepath.Join(dir, "missing"), "invalid exit-latency factor"},
		{dir, "is a directory: want factors (0.78, 78%, 39/50) or a file holding them"},
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
			assert.NotContains(t, err.Error(), "hunter2", "%s: an error names the file, never quotes its contents", tc.arg)
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

// recommend takes a factor per state, as measure writes them: a state is
// barred when its own stall is over the limit, and the output says which
// state sets the bound.
func TestRecommendPerStateFactors(t *testing.T) {
	dir := t.TempDir()
	factors := filepath.Join(dir, "factor")
	require.NoError(t, os.WriteFile(factors, []byte("0.78,ps3=0.8,ps4=0.81\n"), 0o644))
	code, out, errOut := apstctl(t, nil, "recommend", evoImage, "--max-stall", "4ms", "--exit-factor", factors)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "goal: worst wake stall <= 4000us with a factor per state (0.78,ps3=0.8,ps4=0.81): bars ps4")
	assert.Contains(t, out, "4600..42999: deepest reachable ps3")
	assert.Contains(t, out, "worst wake stall 3680us", "4600us x 0.8, ps3's own factor")
	assert.Contains(t, out, "ps4 sets the bound: above 42999us it is reachable, and its stall 34830us (exit latency 43000us x 0.81) is over 4000us")

	// measure's JSON reads the same, and the JSON view uses each state's factor.
	doc := filepath.Join(dir, "measure.json")
	require.NoError(t, os.WriteFile(doc, []byte(`{"exit_factor": "0.78", "exit_factor_by_state": "ps3=0.8,ps4=0.81"}`), 0o644))
	code, out, errOut = apstctl(t, nil, "recommend", evoImage, "--max-stall", "4ms", "--exit-factor", doc, "-o", "json")
	require.Equal(t, exitOK, code, errOut)
	var v struct {
		Recommended []struct {
			Max   uint64 `json:"max_us"`
			Stall uint64 `json:"worst_wake_stall_us"`
		} `json:"recommended"`
		Current struct {
			Stall uint64 `json:"worst_wake_stall_us"`
		} `json:"current"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	require.Len(t, v.Recommended, 1)
	assert.Equal(t, uint64(42999), v.Recommended[0].Max)
	assert.Equal(t, uint64(3680), v.Recommended[0].Stall)
	assert.Equal(t, uint64(34830), v.Current.Stall)

	// Where every state's own stall is within the limit, nothing is barred.
	code, out, errOut = apstctl(t, nil, "recommend", evoImage, "--max-stall", "25ms", "--exit-factor", "0.78,ps3=0.9,ps4=0.55")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "every state's own stall is within it")
	assert.Contains(t, out, "bound 100000us meets the goal: deepest reachable ps4, worst wake stall 23650us")
}
