package main

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
)

// plain600p is replay's plain trace of 233 commands, the shortest 300 µs
// (from examples/apstctl).
const plain600p = "testdata/replay/intel-600p-run.plain"

// The three commands that take --exit-factor, each with what it needs
// besides.
var exitFactorCommands = [][]string{
	{"simulate", evoImage, "--gaps", "exp:10s"},
	{"recommend", evoImage, "--max-stall", "25ms"},
	{"replay", evoImage, plain600p},
}

// simulate, recommend and replay refuse alike, as a usage error naming
// the value and the range, every factor that is not above 0 and at most
// 10000 (one that saturated every wake at "unlimited" with exit status 0),
// and what is no factor at all; the bound itself is taken.
func TestExitFactorRangeAgrees(t *testing.T) {
	const outOfRange = "want a factor above 0 and at most 10000"
	const noFactor = "want a decimal (0.78), a percentage (78%) or a fraction (39/50)"
	dir := t.TempDir()
	file := filepath.Join(dir, "huge.factor")
	require.NoError(t, os.WriteFile(file, []byte("# measured\n18446744073709551615\n"), 0o644))
	jsonFile := filepath.Join(dir, "zero.json")
	require.NoError(t, os.WriteFile(jsonFile, []byte(`{"exit_factor": "0"}`), 0o644))
	for _, tc := range []struct {
		factor, want string
	}{
		{"18446744073709551615", "--exit-factor 18446744073709551615: analysis: invalid exit-latency factor: out of range: 18446744073709551615: " + outOfRange},
		{"10001", "out of range: 10001: " + outOfRange},
		{"1000001%", "out of range: 10000.01: " + outOfRange},
		{"0", "out of range: 0: " + outOfRange},
		{"0.0", "out of range: 0: " + outOfRange},
		{"0.78,ps4=0", "out of range: ps4=0: " + outOfRange},
		{"ps3=50000", "out of range: ps3=50000: " + outOfRange},
		{"NaN", `"NaN": ` + noFactor},
		{"Inf", `"Inf": ` + noFactor},
		{"-1", `"-1": ` + noFactor},
		{"-0.5", `"-0.5": ` + noFactor},
		{"1e308", `"1e308": ` + noFactor},
		{file, file + ": line 2: analysis: invalid exit-latency factor: out of range: 18446744073709551615: " + outOfRange},
		{jsonFile, jsonFile + ": its exit_factor or exit_factor_by_state: analysis: invalid exit-latency factor: out of range: 0: " + outOfRange},
	} {
		for _, cmd := range exitFactorCommands {
			args := append(append([]string{}, cmd...), "--exit-factor", tc.factor)
			code, out, errOut := apstctl(t, nil, args...)
			assert.Equal(t, exitUsage, code, "%q: %s", args, out)
			assert.Empty(t, out, "%q", args)
			assert.Contains(t, errOut, "apstctl "+cmd[0]+": --exit-factor ", "%q", args)
			assert.Contains(t, errOut, tc.want, "%q", args)
			assert.Contains(t, errOut, "see 'apstctl "+cmd[0]+" --help'", "%q", args)
		}
	}
	for _, f := range []string{"10000", "1000000%", "0.000001", "0.78,ps4=1000"} {
		for _, cmd := range exitFactorCommands {
			args := append(append([]string{}, cmd...), "--exit-factor", f)
			code, out, errOut := apstctl(t, nil, args...)
			assert.Equal(t, exitOK, code, "%q: %s", args, errOut)
			for _, saturated := range []string{"stall unlimited", "p50 unlimited", "max unlimited"} {
				assert.NotContains(t, out, saturated, "%q: a stall saturated", args)
			}
		}
	}
}

// replay's stall total is refused beyond 2^63-1 all the same (a trace of
// billions of wakes at the largest factor could reach it).
func TestReplaySaturatedRefused(t *testing.T) {
	rep := analysis.ReplayReport{Configs: []analysis.ReplayResult{{StallTotal: apst.Microseconds(math.MaxInt64) + 1}}}
	err := replaySaturated(&rep)
	var ue *usageError
	require.ErrorAs(t, err, &ue)
	assert.Contains(t, err.Error(), "exceeds 2^63-1")
	rep.Configs[0].StallTotal = math.MaxInt64
	assert.NoError(t, replaySaturated(&rep))
}

// --lost-after takes a duration with its unit, as simulate's --gap and
// measure's --idle do: a bare number (taken as µs once, every command of
// a trace lost) is a usage error naming the units. A --lost-after shorter
// than every command of the trace is refused saying so, with the shortest
// command: the least --lost-after that keeps one (not "no completion",
// which the trace has).
func TestReplayLostAfter(t *testing.T) {
	for _, tc := range []struct {
		name, lostAfter string
		code            int
		want            string
	}{
		{"every command lost", "1us", exitUsage, "apstctl replay: " + plain600p + ": no command completed within --lost-after 1us of its dispatch: 233 commands were counted lost and the completions ignored, so there is no idle period to replay (the shortest command took 300us: give --lost-after 300us or more)\n"},
		{"just shorter than the shortest", "299us", exitUsage, "within --lost-after 299us of its dispatch: 233 commands were counted lost"},
		{"the shortest command", "300us", exitOK, ""},
		{"the default", "30s", exitOK, ""},
		{"a bare number", "100", exitUsage, "apstctl replay: --lost-after 100: a number needs its unit: write 100us, 100ms or 100s (from 1us to 24h)\nsee 'apstctl replay --help'\n"},
		{"a bare number with blanks", " 30 ", exitUsage, `--lost-after " 30 ": a number needs its unit: write 30us, 30ms or 30s`},
		{"0", "0", exitUsage, "--lost-after 0: want a duration from 1us to 24h (500ms, 30s)"},
		{"beyond the range", "25h", exitUsage, "--lost-after 25h: want a duration from 1us to 24h (500ms, 30s)"},
		{"a decimal without a unit", "1.5", exitUsage, "--lost-after 1.5: want a duration from 1us to 24h"},
		{"a fraction of a microsecond", "1ns", exitUsage, "--lost-after 1ns: want a duration from 1us to 24h"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := apstctl(t, nil, "replay", evoImage, plain600p, "--lost-after", tc.lostAfter)
			assert.Equal(t, tc.code, code, errOut)
			if tc.code != exitOK {
				assert.Empty(t, out)
				assert.Contains(t, errOut, tc.want)
				assert.NotContains(t, errOut, "no completion of one", "the trace has completions")
				return
			}
			assert.Empty(t, errOut)
		})
	}
	// One command, lost: said in the singular.
	one := filepath.Join(t.TempDir(), "one.plain")
	require.NoError(t, os.WriteFile(one, []byte("1 0.0025\n"), 0o644))
	code, _, errOut := apstctl(t, nil, "replay", evoImage, one, "--lost-after", "2ms")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, ": 1 command was counted lost and the completions ignored, so there is no idle period to replay (the shortest command took 2500us: give --lost-after 2500us or more)")

	// The other duration flags that are no latency bound refuse a bare
	// number the same way.
	code, _, errOut = apstctl(t, nil, "simulate", evoImage, "--gap", "100")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "has no unit: write 100us, 100ms or 100s")
}
