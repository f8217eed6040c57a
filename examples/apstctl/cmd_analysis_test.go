package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
)

const (
	anEVO   = "../../testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin"
	anIntel = "../../testdata/identify/intel-ssdpekkw256g7-PSF109C.bin"
	anPC401 = "../../testdata/corpus/binary/synthetic/SKhynix_PC401_NVMe_512GB_80003E00.id-ctrl.bin"
)

type anCmd func(args []string, stdin io.Reader, stdout, stderr io.Writer) int

func anRun(t *testing.T, cmd anCmd, stdin []byte, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := cmd(args, bytes.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func anJSON(t *testing.T, cmd anCmd, v any, args ...string) {
	t.Helper()
	code, out, errOut := anRun(t, cmd, nil, append([]string{"--format", "json"}, args...)...)
	require.Equal(t, 0, code, errOut)
	require.NoError(t, json.Unmarshal([]byte(out), v), out)
}

type anEntry struct {
	State       int    `json:"state"`
	Value       string `json:"value"`
	TargetState int    `json:"target_state"`
	IdleTimeMS  uint64 `json:"idle_time_ms"`
}

func TestSweepCommand(t *testing.T) {
	var out struct {
		Intervals []struct {
			MinUS              uint64    `json:"min_us"`
			MaxUS              uint64    `json:"max_us"`
			MaxPS              int       `json:"max_ps"`
			WorstExitLatencyUS uint64    `json:"worst_exit_latency_us"`
			Entries            []anEntry `json:"entries"`
		} `json:"intervals"`
	}
	anJSON(t, runSweep, &out, anEVO)
	require.Len(t, out.Intervals, 4)
	iv := out.Intervals[2]
	assert.Equal(t, uint64(4600), iv.MinUS)
	assert.Equal(t, uint64(42999), iv.MaxUS)
	assert.Equal(t, 3, iv.MaxPS)
	assert.Equal(t, uint64(4600), iv.WorstExitLatencyUS)
	require.Len(t, iv.Entries, 32)
	assert.Equal(t, anEntry{0, "0x0000000000006418", 3, 100}, iv.Entries[0])
	last := out.Intervals[3]
	assert.Equal(t, uint64(18446744073709551615), last.MaxUS)
	assert.Equal(t, uint64(43000), last.WorstExitLatencyUS)

	// Flags may follow the capture; the 600p with its PCI ID never reaches ps4.
	for _, kernel := range []string{"current", "v4.12"} {
		anJSON(t, runSweep, &out, anIntel, "--pci-id", "8086:f1a5", "--kernel", kernel)
		for _, iv := range out.Intervals {
			assert.NotEqual(t, 4, iv.MaxPS, kernel)
		}
	}

	// Standard input gives what the file gives.
	img, err := os.ReadFile(anEVO)
	require.NoError(t, err)
	_, fromFile, _ := anRun(t, runSweep, nil, anEVO)
	code, fromStdin, _ := anRun(t, runSweep, img, "-")
	require.Equal(t, 0, code)
	assert.Equal(t, fromFile, fromStdin)
}

func TestCompareCommand(t *testing.T) {
	var out struct {
		Configs []struct {
			Name                  string    `json:"name"`
			Sent                  bool      `json:"sent"`
			Enabled               bool      `json:"enabled"`
			MaxPS                 int       `json:"max_ps"`
			MaxRoundTripUS        uint64    `json:"max_round_trip_us"`
			Entries               []anEntry `json:"entries"`
			DeepestState          int       `json:"deepest_state"`
			WorstExitLatencyUS    uint64    `json:"worst_exit_latency_us"`
			DeepestStateMaxPowerW float64   `json:"deepest_state_max_power_w"`
		} `json:"configs"`
		IdlePowerDeltaMW float64 `json:"idle_power_delta_mw"`
	}
	anJSON(t, runCompare, &out, anEVO, "--with", "ps-max-latency-us=100000", "--with", "ps-max-latency-us=25000")
	require.Len(t, out.Configs, 2)
	a, b := out.Configs[0], out.Configs[1]
	assert.Equal(t, 4, a.DeepestState)
	assert.Equal(t, uint64(43000), a.WorstExitLatencyUS)
	assert.InDelta(t, 0.007, a.DeepestStateMaxPowerW, 1e-12)
	assert.Equal(t, 3, b.DeepestState)
	assert.Equal(t, uint64(4600), b.WorstExitLatencyUS)
	assert.InDelta(t, 0.08, b.DeepestStateMaxPowerW, 1e-12)
	assert.InDelta(t, 73.0, out.IdlePowerDeltaMW, 1e-9)
	assert.True(t, a.Sent && a.Enabled)
	assert.Equal(t, uint64(44600), a.MaxRoundTripUS)
	assert.Len(t, a.Entries, 32)

	// A single --with compares against the flags; policies work.
	anJSON(t, runCompare, &out, "--ps-max-latency-us", "25000", anEVO, "--with", "policy=windows-balanced-dc")
	require.Len(t, out.Configs, 2)
	assert.Equal(t, "flags", out.Configs[0].Name)
	assert.InDelta(t, -73.0, out.IdlePowerDeltaMW, 1e-9)
}

func TestSimulateCommand(t *testing.T) {
	var out struct {
		Timeline []struct {
			State  int    `json:"state"`
			FromUS uint64 `json:"from_us"`
		} `json:"timeline"`
		Wakes []struct {
			GapUS     uint64 `json:"gap_us"`
			State     int    `json:"state"`
			PenaltyUS uint64 `json:"penalty_us"`
		} `json:"wakes"`
		Summary struct {
			Gaps  uint64 `json:"gaps"`
			MaxUS uint64 `json:"max_us"`
			P50US uint64 `json:"p50_us"`
		} `json:"summary"`
	}
	anJSON(t, runSimulate, &out, anEVO, "--gap", "3s", "--gaps", "50ms,1s,3s", "--exit-factor", "0.78", "--cpu-wake-us", "150")
	require.Len(t, out.Timeline, 3)
	assert.Equal(t, uint64(100000), out.Timeline[1].FromUS)
	assert.Equal(t, uint64(2100000), out.Timeline[2].FromUS)
	require.Len(t, out.Wakes, 1)
	assert.Equal(t, 4, out.Wakes[0].State)
	assert.Equal(t, uint64(33690), out.Wakes[0].PenaltyUS)
	assert.Equal(t, uint64(3), out.Summary.Gaps)
	assert.Equal(t, uint64(33690), out.Summary.MaxUS)
	assert.Equal(t, uint64(3738), out.Summary.P50US)

	// Seeded distributions are reproducible.
	_, a, _ := anRun(t, runSimulate, nil, anEVO, "--gaps", "exp:500ms", "--seed", "7")
	_, b, _ := anRun(t, runSimulate, nil, anEVO, "--gaps", "exp:500ms", "--seed", "7")
	_, c, _ := anRun(t, runSimulate, nil, anEVO, "--gaps", "exp:500ms", "--seed", "8")
	assert.Equal(t, a, b)
	assert.NotEqual(t, a, c)
}

func TestRecommendCommand(t *testing.T) {
	var out struct {
		Possible    bool `json:"possible"`
		Recommended []struct {
			MinUS uint64 `json:"min_us"`
			MaxUS uint64 `json:"max_us"`
		} `json:"recommended"`
		GivenUp []int `json:"given_up"`
		Current struct {
			BoundUS uint64   `json:"bound_us"`
			Meets   bool     `json:"meets"`
			Why     []string `json:"why"`
		} `json:"current"`
	}
	anJSON(t, runRecommend, &out, anPC401, "--bar-state", "ps4", "--ps-max-latency-us", "5500")
	assert.True(t, out.Possible)
	require.Len(t, out.Recommended, 1)
	assert.Equal(t, uint64(1000), out.Recommended[0].MinUS)
	assert.Equal(t, uint64(4999), out.Recommended[0].MaxUS)
	assert.Equal(t, []int{4}, out.GivenUp)
	assert.False(t, out.Current.Meets)
	assert.Contains(t, strings.Join(out.Current.Why, " "), "exit latency 5000us is within the bound")

	anJSON(t, runRecommend, &out, anEVO, "--max-stall", "25ms")
	assert.Equal(t, uint64(4600), out.Recommended[0].MinUS)
	assert.Equal(t, uint64(42999), out.Recommended[0].MaxUS)
	anJSON(t, runRecommend, &out, anEVO, "--max-stall-us", "25000")
	assert.Equal(t, uint64(42999), out.Recommended[0].MaxUS)

	// The stall is the exit latency scaled by --exit-factor plus
	// --cpu-wake-us: ps3's 4600us is a 3738us stall at 0.78 and 150us, so a
	// 4ms limit keeps ps3, and without them it does not.
	var cost struct {
		Recommended []struct {
			MinUS                 uint64  `json:"min_us"`
			MaxUS                 uint64  `json:"max_us"`
			DeepestState          int     `json:"deepest_state"`
			WorstExitLatencyUS    uint64  `json:"worst_exit_latency_us"`
			WorstWakeStallUS      uint64  `json:"worst_wake_stall_us"`
			DeepestStateMaxPowerW float64 `json:"deepest_state_max_power_w"`
		} `json:"recommended"`
		Possible bool `json:"possible"`
	}
	anJSON(t, runRecommend, &cost, anEVO, "--max-stall", "4ms", "--exit-factor", "0.78", "--cpu-wake-us", "150")
	require.True(t, cost.Possible)
	require.Len(t, cost.Recommended, 1)
	r := cost.Recommended[0]
	assert.Equal(t, uint64(4600), r.MinUS)
	assert.Equal(t, uint64(42999), r.MaxUS)
	assert.Equal(t, 3, r.DeepestState)
	assert.Equal(t, uint64(4600), r.WorstExitLatencyUS)
	assert.Equal(t, uint64(3738), r.WorstWakeStallUS)
	assert.InDelta(t, 0.08, r.DeepestStateMaxPowerW, 1e-12)
	anJSON(t, runRecommend, &cost, anEVO, "--max-stall", "4ms")
	assert.False(t, cost.Possible)
}

func TestExitLatencyLimit(t *testing.T) {
	opt, err := (&wakeFlags{factor: ptr("0.78"), cpuWake: ptr("150")}).options(t.Context())
	require.NoError(t, err)
	for _, limit := range []apst.Microseconds{150, 151, 4000, 25000, 1 << 40} {
		e := exitLatencyLimit(opt, limit)
		assert.LessOrEqual(t, stall(opt, e), limit, "%d", limit)
		assert.Greater(t, stall(opt, e+1), limit, "%d: not the largest", limit)
	}
	assert.Equal(t, apst.NoLimit, exitLatencyLimit(opt, apst.NoLimit))
}

func ptr[T any](v T) *T { return &v }

func TestAnalysisCommandErrors(t *testing.T) {
	for _, tc := range []struct {
		cmd  anCmd
		args []string
		want string
	}{
		{runSweep, []string{}, "want 1 argument"},
		{runSweep, []string{"/nonexistent/capture.bin"}, "/nonexistent/capture.bin"},
		{runSweep, []string{"--format", "yaml", anEVO}, "--format"},
		{runSweep, []string{"--kernel", "v9", anEVO}, "v9"},
		{runSweep, []string{"--bogus", anEVO}, "bogus"},
		{runCompare, []string{anEVO}, "--with"},
		{runCompare, []string{anEVO, "--with", "nope=1", "--with", "ps-max-latency-us=1"}, "nope"},
		{runCompare, []string{anEVO, "--with", "policy=windows-turbo"}, "windows-turbo"},
		{runSimulate, []string{anEVO, "--gap", "soon"}, "--gap"},
		{runSimulate, []string{anEVO, "--gaps", "gauss:1s"}, "--gaps"},
		{runSimulate, []string{anEVO, "--exit-factor", "-1"}, "--exit-factor"},
		{runSimulate, []string{anEVO, "--cpu-wake-us", "x"}, "--cpu-wake-us"},
		{runRecommend, []string{anEVO}, "give a goal"},
		{runRecommend, []string{anEVO, "--bar-state", "ps40"}, "--bar-state"},
		{runRecommend, []string{anEVO, "--max-stall", "25ms", "--max-stall-us", "1"}, "contradict each other"},
		{runRecommend, []string{anEVO, "--max-stall", "100us", "--cpu-wake-us", "150"}, "CPU wake alone"},
		{runRecommend, []string{anEVO, "--max-stall", "25ms", "--exit-factor", "x"}, "--exit-factor"},
	} {
		code, _, errOut := anRun(t, tc.cmd, nil, tc.args...)
		assert.Equal(t, 2, code, "%q", tc.args)
		assert.Contains(t, errOut, tc.want, "%q", tc.args)
	}
	code, _, _ := anRun(t, runSweep, nil, "-h")
	assert.Equal(t, 0, code)
	code, _, _ = anRun(t, runSweep, []byte("short"), "-")
	assert.Equal(t, 2, code)
}

// A gap is a duration with its unit: simulate refuses exp:10 (10 µs to the
// parser, 10 s to the user who typed it) rather than guess.
func TestSimulateGapsNeedUnits(t *testing.T) {
	for _, args := range [][]string{{"--gaps", "exp:10"}, {"--gap", "10"}, {"--gaps", "5,10ms"}, {"--gaps", "uniform:1..2s"}} {
		code, _, errOut := runCmd(runSimulate, append([]string{evoImage}, args...)...)
		assert.Equal(t, 2, code, "%v", args)
		assert.Contains(t, errOut, "has no unit", "%v", args)
	}
	code, _, errOut := runCmd(runSimulate, evoImage, "--gaps", "exp:10s", "--count", "50")
	assert.Equal(t, 0, code, errOut)
}

// --count and --seed draw from a distribution: with none they would be
// ignored, so they are refused; gaps that are all 0 hold no idle time to
// summarise.
func TestSimulateRefusesWhatWouldBeIgnored(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--count", "5"}, "--count draws gaps from a --gaps distribution"},
		{[]string{"--count", "5", "--gaps", "1s,2s"}, "with --gaps 1s,2s (a list) it would be ignored"},
		{[]string{"--seed", "5", "--gap", "3s"}, "--seed draws gaps from a --gaps distribution (fixed:D, uniform:D1..D2, exp:D); with no --gaps it would be ignored"},
		{[]string{"--gaps", "exp:0s"}, "--gaps exp:0s: analysis: every gap is 0: no idle time to summarise"},
		{[]string{"--gaps", "0s,0ms"}, "every gap is 0"},
	} {
		code, out, errOut := runCmd(runSimulate, append([]string{evoImage}, tc.args...)...)
		assert.Equal(t, 2, code, "%v", tc.args)
		assert.Empty(t, out, "%v", tc.args)
		assert.Contains(t, errOut, tc.msg, "%v", tc.args)
	}
	for _, args := range [][]string{{"--gaps", "exp:10s", "--count", "5", "--seed", "2"}, {"--gaps", "0s,1ms"}} {
		code, _, errOut := runCmd(runSimulate, append([]string{evoImage}, args...)...)
		assert.Equal(t, 0, code, "%v: %s", args, errOut)
	}
}
