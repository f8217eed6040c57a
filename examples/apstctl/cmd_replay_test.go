package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
	"github.com/nvmeapst/nvmeapst/apst/analysis/trace/tracetest"
	"github.com/nvmeapst/nvmeapst/internal/safeio"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// runReplay runs "apstctl replay ARGS" in-process through the command's
// table entry (the parser, the exit status and the messages of main.go),
// as it runs once registered.
func runReplay(t *testing.T, stdin []byte, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := runCommand(context.Background(), replayCommand(), args, bytes.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// The generated traces of testdata/replay, as docs/replay.md uses them
// (paths from the top of the repository).
const (
	replayDir         = "examples/apstctl/testdata/replay/"
	replayWriteback   = replayDir + "writeback.blkparse"
	replayInteractive = replayDir + "interactive.biosnoop"
	replayRun600p     = replayDir + "intel-600p-run.plain"
	replayEVO         = "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin"
	replay600p        = "testdata/identify/intel-ssdpekkw256g7-PSF109C.bin"
)

// replayTraces are the generated traces: a minute of writeback every 5 s
// (12 bursts of 3 writes, blkparse with its summary blocks), an interactive
// reader (100 reads of 200 µs, exponential gaps of mean 1 s, seed 1, bcc
// biosnoop) and the 13-second run shaped like the Intel 600p report (plain).
var replayTraces = []struct {
	path   string
	format trace.Format
	cmds   iter.Seq[tracetest.Command]
	opt    tracetest.Options
}{
	{replayWriteback, trace.FormatBlkparse, tracetest.Writeback(12, 5*time.Second, 3), tracetest.Options{Summary: true}},
	{replayInteractive, trace.FormatBiosnoop, tracetest.Interactive(1, 100, time.Second, 200*time.Microsecond), tracetest.Options{}},
	{replayRun600p, trace.FormatPlain, tracetest.Intel600pRun(), tracetest.Options{}},
}

// The trace files are what tracetest renders (go test -update rewrites
// them), and stay small.
func TestReplayTraceFiles(t *testing.T) {
	inRepoRoot(t)
	for _, tc := range replayTraces {
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, tracetest.Render(&b, tc.format, tc.cmds, tc.opt))
			if *update {
				require.NoError(t, os.WriteFile(tc.path, b.Bytes(), 0o644))
			}
			got, err := os.ReadFile(tc.path)
			require.NoError(t, err, "run go test ./examples/apstctl -update")
			assert.Equal(t, b.String(), string(got))
			assert.Less(t, len(got), 8<<10, "a few KB")
		})
	}
}

// replayGoldenCases are replay command lines (from the top of the
// repository) whose standard output is kept in testdata/replay/NAME.
var replayGoldenCases = []struct {
	name string
	args []string
}{
	{"writeback-evo.txt", []string{replayEVO, replayWriteback, "--with", "ps-max-latency-us=100000", "--with", "ps-max-latency-us=25000"}},
	{"writeback-evo.json", []string{replayEVO, replayWriteback, "--with", "ps-max-latency-us=100000", "--with", "ps-max-latency-us=25000", "-o", "json"}},
	{"interactive-evo.txt", []string{replayEVO, replayInteractive, "--with", "ps-max-latency-us=100000", "--with", "ps-max-latency-us=25000"}},
	{"intel-600p-run-evo.txt", []string{replayEVO, replayRun600p, "--with", "ps-max-latency-us=100000", "--with", "ps-max-latency-us=25000"}},
	{"writeback-600p.txt", []string{"--pci-id", "8086:f1a5", replay600p, replayWriteback, "--with", "ps-max-latency-us=100000", "--with", "ps-max-latency-us=25000"}},
	{"interactive-600p.txt", []string{"--pci-id", "8086:f1a5", replay600p, replayInteractive, "--with", "ps-max-latency-us=100000", "--with", "ps-max-latency-us=25000"}},
	{"intel-600p-run-600p.txt", []string{"--pci-id", "8086:f1a5", replay600p, replayRun600p, "--with", "ps-max-latency-us=100000", "--with", "ps-max-latency-us=25000"}},
	{"intel-600p-run-600p.json", []string{"--pci-id", "8086:f1a5", replay600p, replayRun600p, "--with", "ps-max-latency-us=100000", "--with", "ps-max-latency-us=25000", "-o", "json"}},
	{"intel-600p-run-600p-history.txt", []string{replay600p, replayRun600p, "--with", "kernel=v4.11,quirks=none", "--with", "kernel=v4.12", "--with", "kernel=current,quirks=none"}},
	{"interactive-evo-flags.txt", []string{"--ps-max-latency-us", "25000", "--exit-factor", "0.78", "--cpu-wake-us", "150", replayEVO, replayInteractive}},
}

func TestReplayGolden(t *testing.T) {
	here := inRepoRoot(t)
	for _, tc := range replayGoldenCases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runReplay(t, nil, tc.args...)
			require.Equal(t, 0, code, errOut)
			checkGolden(t, filepath.Join(here, "testdata", "replay", tc.name), out)
		})
	}
}

// Every file of testdata/replay is a generated trace or a golden case.
func TestReplayGoldenFilesHaveCases(t *testing.T) {
	names := map[string]bool{}
	for _, tc := range replayGoldenCases {
		names[tc.name] = true
	}
	for _, tc := range replayTraces {
		names[filepath.Base(tc.path)] = true
	}
	files, err := filepath.Glob("testdata/replay/*")
	require.NoError(t, err)
	for _, f := range files {
		assert.True(t, names[filepath.Base(f)], "%s has no case", f)
	}
}

// The JSON of the library's hand-worked basic workload (see
// apst/analysis/replay_test.go for the figures): the keys of
// docs/spec/replay.md §4, wakes_by_state in timeline order with every
// state of the timeline, break_even_us for the states that save power.
func TestReplayJSONView(t *testing.T) {
	const basic = "../../apst/analysis/testdata/replay/basic.plain"
	code, out, errOut := runReplay(t, nil, evoImage, basic, "--with", "ps-max-latency-us=100000", "--with", "ps-max-latency-us=25000", "-o", "json")
	require.Equal(t, 0, code, errOut)
	// The assumptions are said once, at the top: the configurations add
	// none (cmd_assumptions_test.go checks their keys).
	var v map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	require.Contains(t, v, "assumptions")
	assert.Equal(t, false, v["assumptions"].(map[string]any)["dmi_unchecked"])
	assert.NotEmpty(t, v["assumptions"].(map[string]any)["machine_dmi_rules"])
	delete(v, "assumptions")
	assert.Equal(t, []any{}, v["capture_notes"])
	delete(v, "capture_notes")
	assert.Equal(t, map[string]any{"model": "Samsung SSD 990 EVO Plus 1TB", "firmware": "2B2QKXG7", "vendor_id": "0x144d", "npss": 4.0, "apsta": 1.0, "format": "binary", "fabrics": false}, v["capture"])
	delete(v, "capture")
	for _, c := range v["configs"].([]any) {
		cm := c.(map[string]any)
		require.Contains(t, cm, "assumptions")
		assert.Nil(t, cm["assumptions"])
		delete(cm, "assumptions")
	}
	rest, err := json.Marshal(v)
	require.NoError(t, err)
	const want = `{"device":"","events":7,"span_us":5260000,"idle_periods":4,"lost_commands":0,"unmatched_completions":0,"configs":[` +
		`{"config":"kernel=current,ps-max-latency-us=100000","wakes":4,"stall_total_us":90600,"stall_p50_us":4600,"stall_p90_us":43000,"stall_p99_us":43000,"stall_max_us":43000,` +
		`"wakes_by_state":{"ps0":1,"ps3":1,"ps4":2},"idle_us":5250000,"idle_energy_uj":2426300,"transition_energy_max_uj":591600,"break_even_us":{"ps3":6284,"ps4":3665754}},` +
		`{"config":"kernel=current,ps-max-latency-us=25000","wakes":4,"stall_total_us":13800,"stall_p50_us":4600,"stall_p90_us":4600,"stall_p99_us":4600,"stall_max_us":4600,` +
		`"wakes_by_state":{"ps0":1,"ps3":3},"idle_us":5250000,"idle_energy_uj":2492000,"transition_energy_max_uj":111600,"break_even_us":{"ps3":6284}}]}`
	assert.JSONEq(t, want, string(rest))

	// The same in text: the stall and energy differences in one line.
	code, out, errOut = runReplay(t, nil, evoImage, basic, "--with", "ps-max-latency-us=100000", "--with", "ps-max-latency-us=25000")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "[2] vs [1]: -76.8 ms of stall, +65.7 mJ of idle energy (transitions at most -480.0 mJ); p99 stall -38.4 ms; wakes ps3 +2, ps4 -2\n")
	assert.Contains(t, out, "    stall 90.6 ms over 4 wakes: p50 4600us, p90 43000us, p99 43000us, max 43000us\n")
	assert.Contains(t, out, "    idle 5.250 s: 2.4263 J at an average 0.4622 W; transitions 0 to 0.5916 J more\n")
}

// The JSON keys are those of the spec whatever the trace: a trace of one
// command, with no idle period, still lists the timeline's states.
func TestReplayJSONEmptyTrace(t *testing.T) {
	code, out, errOut := runReplay(t, []byte("# one command\n0.5 0.001\n"), evoImage, "-", "-o", "json")
	require.Equal(t, 0, code, errOut)
	var v struct {
		Configs []map[string]json.RawMessage `json:"configs"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	require.Len(t, v.Configs, 1)
	keys := []string{}
	for k := range v.Configs[0] {
		keys = append(keys, k)
	}
	assert.ElementsMatch(t, []string{"config", "wakes", "stall_total_us", "stall_p50_us", "stall_p90_us", "stall_p99_us",
		"stall_max_us", "wakes_by_state", "idle_us", "idle_energy_uj", "transition_energy_max_uj", "break_even_us", "assumptions"}, keys)
	assert.JSONEq(t, `{"ps0":0,"ps3":0,"ps4":0}`, string(v.Configs[0]["wakes_by_state"]))
	assert.JSONEq(t, `"kernel=current,ps-max-latency-us=100000"`, string(v.Configs[0]["config"]))
}

// TRACE - reads standard input: the same report as the file.
func TestReplayStdin(t *testing.T) {
	inRepoRoot(t)
	b, err := os.ReadFile(replayInteractive)
	require.NoError(t, err)
	code, fromFile, errOut := runReplay(t, nil, replayEVO, replayInteractive, "-o", "json")
	require.Equal(t, 0, code, errOut)
	code, fromStdin, errOut := runReplay(t, b, replayEVO, "-", "-o", "json")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, fromFile, fromStdin)
	// The capture from standard input instead.
	img, err := os.ReadFile(replayEVO)
	require.NoError(t, err)
	code, fromStdin, errOut = runReplay(t, img, "-", replayInteractive, "-o", "json")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, fromFile, fromStdin)
}

// One --with is that configuration alone; no --with is the flags'.
func TestReplayConfigurations(t *testing.T) {
	inRepoRoot(t)
	names := func(out string) []string {
		var v struct {
			Configs []struct {
				Config string `json:"config"`
			} `json:"configs"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &v))
		var n []string
		for _, c := range v.Configs {
			n = append(n, c.Config)
		}
		return n
	}
	_, out, _ := runReplay(t, nil, replayEVO, replayWriteback, "-o", "json")
	assert.Equal(t, []string{"kernel=current,ps-max-latency-us=100000"}, names(out))
	_, out, _ = runReplay(t, nil, "--kernel", "6.8", replayEVO, replayWriteback, "-o", "json", "--with", "ps-max-latency-us=25000")
	assert.Equal(t, []string{"kernel=6.8,ps-max-latency-us=25000"}, names(out))
	_, out, _ = runReplay(t, nil, replayEVO, replayWriteback, "-o", "json", "--with", "policy=linux-25ms", "--with", "ps-max-latency-us=0")
	assert.Equal(t, []string{"kernel=current,ps-max-latency-us=25000", "kernel=current,ps-max-latency-us=0"}, names(out))
	// APST off: every wake from ps0, no stall, ps0's power all along.
	_, out, _ = runReplay(t, nil, replayEVO, replayWriteback, "--with", "ps-max-latency-us=0")
	assert.Contains(t, out, "    stall 0.0 ms over 11 wakes: p50 0us, p90 0us, p99 0us, max 0us\n")
	assert.Contains(t, out, "    APST disabled (APSTE=0, zero table): the bound is 0\n")
}

// The inferred PCI ID of the 600p is said: in the text, and on standard
// error beside JSON.
func TestReplayQuirkWarning(t *testing.T) {
	inRepoRoot(t)
	code, out, errOut := runReplay(t, nil, replay600p, replayRun600p)
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `(?m)^warning: the capture carries no PCI ID.*8086:f1a5.*inferred|^warning: the capture carries no PCI ID.*inferred.*8086:f1a5`, out)
	assert.Contains(t, out, "quirks no-deepest-ps")
	code, out, errOut = runReplay(t, nil, replay600p, replayRun600p, "-o", "json")
	require.Equal(t, 0, code, errOut)
	var v struct {
		Assumptions assumptionsJSON `json:"assumptions"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	require.NotNil(t, v.Assumptions.PCIIDInferred, "the JSON says what was inferred")
	assert.Equal(t, "8086:f1a5", v.Assumptions.PCIIDInferred.ID)
	assert.NotContains(t, errOut, "8086:f1a5", "said once, in the JSON")
}

func TestReplayErrors(t *testing.T) {
	inRepoRoot(t)
	twoDevices := "  259,0    0  1  0.000000000  1  D  R 0 + 8 [a]\n" +
		"  8,0    0  2  0.000100000  1  D  R 0 + 8 [a]\n"
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		code  int
		msg   string
	}{
		{"both stdin", "", []string{"-", "-"}, 2, "apstctl replay: CAPTURE - and TRACE - both name standard input, which holds one file: give one of them as a file\nsee 'apstctl replay --help'\n"},
		{"one argument", "", []string{replayEVO}, 2, "apstctl replay: want 2 arguments, got 1"},
		{"device and disk", "", []string{replayEVO, replayWriteback, "--device", "259,0", "--disk", "nvme0n1"}, 2, "--device and --disk contradict each other"},
		{"disk on blkparse", "", []string{replayEVO, replayWriteback, "--disk", "nvme0n1"}, 2, "apstctl replay: examples/apstctl/testdata/replay/writeback.blkparse: trace: invalid options: Disk \"nvme0n1\" selects a biosnoop disk or a fio file; a blkparse trace is selected by Device (MAJ,MIN)\nsee"},
		{"absent device", "", []string{replayEVO, replayWriteback, "--device", "8,0"}, 2, "device (MAJ,MIN) 8,0 not in the blkparse trace; found: 259,0"},
		{"two devices", twoDevices, []string{replayEVO, "-"}, 2, "apstctl replay: standard input: analysis: replay: trace: blkparse trace has events for 2 devices (259,0, 8,0): select one device (MAJ,MIN)\n"},
		{"syntax", "1\n2\nx\n", []string{replayEVO, "-"}, 2, "apstctl replay: standard input: analysis: replay: trace: plain line 3: expected"},
		{"no command", "# seconds duration\n", []string{replayEVO, "-"}, 2, "apstctl replay: standard input: the trace holds no command: want commands with their completions"},
		{"no completion", "  259,0    0  1  0.000000000  1  D  R 0 + 8 [a]\n  259,0    0  2  0.000100000  1  D  R 8 + 8 [a]\n", []string{replayEVO, "-"}, 2,
			"apstctl replay: standard input: the trace holds 2 dispatch events but no completion of one"},
		{"unknown format", "hello world\n", []string{replayEVO, "-"}, 2, "apstctl replay: standard input: trace: unknown trace format"},
		{"fio v2", "fio version 2 iolog\n/dev/nvme0n1 add\n", []string{replayEVO, "-"}, 2, "version 2 has no timestamps"},
		{"missing trace", "", []string{replayEVO, "examples/apstctl/testdata/replay/nope.plain"}, 2, "nope.plain: no such file"},
		{"directory", "", []string{replayEVO, "examples/apstctl/testdata/replay"}, 2, "is a directory, not a regular file"},
		{"feature capture", "", []string{"examples/apstctl/testdata/feature/samsung-990-evo-plus-100ms.txt", replayWriteback}, 2, "get-feature"},
		{"bad with", "", []string{replayEVO, replayWriteback, "--with", "ps-max-latency-us=x"}, 2, "apstctl replay: --with ps-max-latency-us=x: "},
		{"bad factor", "", []string{replayEVO, replayWriteback, "--exit-factor", "x"}, 2, "apstctl replay: --exit-factor x: "},
		{"factor beyond its range", "", []string{replayEVO, replayWriteback, "--exit-factor", "300000000000000"}, 2, "want a factor above 0 and at most 10000"},
		{"cpu wake beyond its range", "", []string{replayEVO, replayWriteback, "--cpu-wake-us", "18446744073709551614"}, 2, "want 0 to 4294967295"},
		{"unknown flag", "", []string{replayEVO, replayWriteback, "--devise", "259,0"}, 2, "unknown flag --devise (did you mean --device?)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runReplay(t, []byte(tc.stdin), tc.args...)
			assert.Equal(t, tc.code, code, errOut)
			assert.Empty(t, out)
			assert.Contains(t, errOut, tc.msg)
		})
	}
}

// The examples of replay's help run (from the top of the repository).
func TestReplayHelpExamples(t *testing.T) {
	inRepoRoot(t)
	c := replayCommand()
	require.NotEmpty(t, c.examples)
	for _, e := range c.examples {
		args := strings.Fields(e)
		require.Equal(t, "replay", args[0])
		code, out, errOut := runReplay(t, nil, args[1:]...)
		assert.Equal(t, 0, code, "apstctl %s: %s", e, errOut)
		assert.NotEmpty(t, out, "apstctl %s", e)
	}
	code, out, _ := runReplay(t, nil, "--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "usage: apstctl replay [flags] CAPTURE TRACE [--with CONFIG]...\n")
	assert.Contains(t, out, "  --device MAJ,MIN\n")
}

// A cancelled context ends the replay with its cause.
func TestReplayCancelled(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	r := tracetest.NewReader(trace.FormatPlain, tracetest.Writeback(10000, time.Second, 1), tracetest.Options{})
	defer r.Close()
	c := replayCommand()
	x := &invocation{cmd: c, stdin: r, out: safeio.NewWriter(io.Discard), errw: safeio.NewWriter(io.Discard), stderr: io.Discard}
	cause := io.ErrClosedPipe
	cancel(cause)
	require.ErrorIs(t, c.run(ctx, x, []string{evoImage, "-"}), cause)
}

// replay without standard input reads an empty one: no trace.
func TestReplayWithoutStdin(t *testing.T) {
	code, out, errOut := runReplay(t, nil, evoImage, "-")
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, out)
	assert.Equal(t, "apstctl replay: standard input: trace: unknown trace format: empty trace\n", errOut)
}

// The break-even times of simulate's helper are replay's: on the 990 EVO
// Plus at the default bound, MP(ps0) × (ENLAT + EXLAT) over the power saved
// against the step before, rounded up (the library's hand-worked 6284 and
// 3665754 µs).
func TestBreakEvenByState(t *testing.T) {
	c, err := loadController(evoImage, nil, false)
	require.NoError(t, err)
	for _, tc := range []struct {
		bound apst.Microseconds
		want  map[string]uint64
		text  string
	}{
		{100000, map[string]uint64{"ps3": 6284, "ps4": 3665754}, "break-even idle time: ps3 6284us, ps4 3665754us"},
		{25000, map[string]uint64{"ps3": 6284}, "break-even idle time: ps3 6284us"},
		{0, map[string]uint64{}, "break-even idle time: none"},
	} {
		p := apst.DefaultParams(apst.Current)
		p.Bound = tc.bound
		plan, err := apst.Build(c, p)
		require.NoError(t, err)
		assert.Equal(t, tc.want, breakEvenByState(c, &plan), "bound %d", tc.bound)
		assert.Equal(t, tc.text, breakEvenText(c, &plan), "bound %d", tc.bound)
	}
	// A state that draws no less than the one before it has none.
	cc := *c
	cc.PowerStates[3].MaxPower = cc.PowerStates[0].MaxPower
	plan, err := apst.Build(&cc, apst.DefaultParams(apst.Current))
	require.NoError(t, err)
	assert.NotContains(t, breakEvenByState(&cc, &plan), "ps3")
	assert.Contains(t, breakEvenByState(&cc, &plan), "ps4")
}

// A state without a reported max power is said to count as 0 W.
func TestReplayPowerWarning(t *testing.T) {
	c, err := loadController(evoImage, nil, false)
	require.NoError(t, err)
	cc := *c
	cc.PowerStates[4].MaxPower = powerstate.Power{}
	require.False(t, cc.PowerStates[4].MaxPower.Reported())
	configs, err := replayConfigs(&powerstate.Controller{}, apst.DefaultParams(apst.Current), nil, analysis.SimOptions{})
	require.NoError(t, err)
	report := func(c *powerstate.Controller) analysis.ReplayReport {
		r, err := analysis.NewReplayer(c, configs...)
		require.NoError(t, err)
		return r.Report()
	}
	rep := report(&cc)
	assert.Equal(t, []string{"warning: ps4 reports no max power (-): its energy counts as 0"}, powerWarnings(&cc, &rep))
	rep = report(c)
	assert.Empty(t, powerWarnings(c, &rep))
}

func TestReplayNumberFormats(t *testing.T) {
	assert.Equal(t, "+90.6 ms", signed(millis(90600)))
	assert.Equal(t, "-76.8 ms", signed(millis(-76800)))
	assert.Equal(t, "+0.0 ms", signed(millis(-50)), "no minus sign before a zero")
	assert.Equal(t, "+65.7 mJ", signed(millijoules(65700)))
	assert.Equal(t, "2.4263 J", joules(2426300))
	assert.Equal(t, "0.0000 J", joules(0))
	assert.Equal(t, "5.250 s", seconds(5250000000))
	assert.Equal(t, "0.000 s", seconds(999999))
}

// The JSON example of cli.md's replay section is what replay prints for
// the writeback trace on the 990 EVO Plus at the flags' configuration.
func TestReplayCLIExample(t *testing.T) {
	inRepoRoot(t)
	b, err := os.ReadFile("docs/spec/cli.md")
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(b), "\n## replay\n")
	require.True(t, ok, "cli.md has a replay section")
	var example []string
	for _, l := range strings.Split(section, "\n") {
		if strings.HasPrefix(l, "    {") || len(example) > 0 && strings.HasPrefix(l, "    ") {
			example = append(example, l)
			continue
		}
		if len(example) > 0 {
			break
		}
	}
	require.NotEmpty(t, example, "the JSON example")
	code, out, errOut := runReplay(t, nil, replayEVO, replayWriteback, "-o", "json")
	require.Equal(t, 0, code, errOut)
	assert.JSONEq(t, strings.Join(example, "\n"), out)
}
