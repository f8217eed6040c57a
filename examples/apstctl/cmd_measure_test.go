package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/measure"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/ioctl"
	"github.com/nvmeapst/nvmeapst/ioctl/ioctltest"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

var evoCapture = testfixture.Path(testfixture.Samsung990EVOPlus)

// measureRun runs measure through the command table with the hooks of a
// test (nil: none) and returns its exit status and output.
func measureRun(t *testing.T, ctx context.Context, h *measureHooks, args ...string) (int, string, string) {
	t.Helper()
	var hooks measureHooks
	if h != nil {
		hooks = *h
	}
	var out, errOut bytes.Buffer
	code := runCommand(ctx, newMeasureCommand(hooks), args, nil, &out, &errOut)
	return code, out.String(), errOut.String()
}

// measureGolden compares got with testdata/measure/NAME (-update rewrites it).
func measureGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "measure", name)
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./examples/apstctl -run Measure -update")
	assert.Equal(t, string(want), got)
}

func TestMeasureSimulateGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"simulate-evo.txt", []string{"--simulate", evoCapture, "--exit-factor", "0.78", "--seed", "1"}},
		{"simulate-evo-idle-list.txt", []string{"--simulate", evoCapture, "--exit-factor", "0.78", "--seed", "2", "--trials", "10", "--idle-list", "50ms,500ms,3s", "--foreign-io", "0.2"}},
		{"simulate-evo-late-descent.txt", []string{"--simulate", evoCapture, "--exit-factor", "0.78", "--seed", "1", "--late-descent", "0.8333"}},
		{"simulate-evo.json", []string{"--simulate", evoCapture, "--exit-factor", "0.78", "--seed", "1", "--trials", "3", "--idle-list", "50ms,3s", "-o", "json", "--trials-detail"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			code, out, errOut := measureRun(t, context.Background(), nil, tt.args...)
			require.Equal(t, exitOK, code, errOut)
			assert.Less(t, time.Since(start), time.Second, "a simulated run takes no real time")
			assert.Contains(t, errOut, "holds 100000")
			if strings.HasSuffix(tt.name, ".json") {
				require.True(t, json.Valid([]byte(out)), out)
			}
			measureGolden(t, tt.name, out)
			_, again, _ := measureRun(t, context.Background(), nil, tt.args...)
			assert.Equal(t, out, again, "deterministic for a seed")
		})
	}
}

// The patch's table: p90 of the 100 ms row about 33.5 ms, of the 25 ms row
// about 3.6 ms, both states at 0.78.
func TestMeasureSimulatePatchTable(t *testing.T) {
	code, out, errOut := measureRun(t, context.Background(), nil, "--simulate", evoCapture, "--exit-factor", "0.78", "--seed", "9", "-o", "json")
	require.Equal(t, exitOK, code, errOut)
	var doc struct {
		Rows []struct {
			Config string `json:"config"`
			State  string `json:"state"`
			P90    int64  `json:"p90_us"`
			Trials int    `json:"trials"`
			Kept   int    `json:"kept"`
		} `json:"rows"`
		States []struct {
			State  string `json:"state"`
			Factor string `json:"factor"`
			Trials int    `json:"trials"`
		} `json:"states"`
		ExitFactor string `json:"exit_factor"`
		Restored   bool   `json:"restored"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.Len(t, doc.Rows, 2)
	assert.Equal(t, "ps-max-latency-us=100000", doc.Rows[0].Config)
	assert.Equal(t, "ps4", doc.Rows[0].State)
	assert.InEpsilon(t, 33500, doc.Rows[0].P90, 0.02)
	assert.Equal(t, "ps3", doc.Rows[1].State)
	assert.InEpsilon(t, 3600, doc.Rows[1].P90, 0.03)
	for _, r := range doc.Rows {
		assert.Equal(t, 60, r.Trials)
		assert.Equal(t, 60, r.Kept)
	}
	require.Len(t, doc.States, 2)
	for _, s := range doc.States {
		assert.Equal(t, "0.78", s.Factor, s.State)
	}
	assert.Equal(t, "0.78", doc.ExitFactor)
	assert.True(t, doc.Restored)
}

func TestMeasureJSONKeys(t *testing.T) {
	for _, detail := range []bool{false, true} {
		args := []string{"--simulate", evoCapture, "--trials", "2", "--idle", "1s", "-o", "json"}
		if detail {
			args = append(args, "--trials-detail")
		}
		code, out, errOut := measureRun(t, context.Background(), nil, args...)
		require.Equal(t, exitOK, code, errOut)
		var doc map[string]any
		require.NoError(t, json.Unmarshal([]byte(out), &doc))
		rows := doc["rows"].([]any)
		require.Len(t, rows, 2)
		for _, k := range []string{"config", "idle_us", "trials", "kept", "p50_us", "p90_us", "p99_us", "max_us", "state"} {
			assert.Contains(t, rows[0], k)
		}
		assert.Equal(t, float64(1e6), rows[0].(map[string]any)["idle_us"])
		for _, k := range []string{"p50_us", "p90_us", "p99_us", "max_us"} {
			assert.Contains(t, doc["warm"], k)
		}
		if detail {
			require.Len(t, doc["trials_detail"], 4)
			tr := doc["trials_detail"].([]any)[1].(map[string]any)
			assert.Equal(t, "ps-max-latency-us=25000", tr["config"])
		} else {
			assert.NotContains(t, doc, "trials_detail")
		}
	}
}

func TestMeasureFactorOut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "factor")
	code, _, errOut := measureRun(t, context.Background(), nil, "--simulate", evoCapture, "--exit-factor", "39/50", "--trials", "5", "--factor-out", path)
	require.Equal(t, exitOK, code, errOut)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "0.78,ps3=0.78,ps4=0.78\n", string(b))
	f, err := parseExitFactor(path)
	require.NoError(t, err, "simulate and replay --exit-factor read it as it is")
	f78 := analysis.Factor{Num: 39, Den: 50}
	assert.Equal(t, f78, f.Default)
	assert.Equal(t, apst.StatesOf(3, 4), f.Set)
	assert.Equal(t, f78, f.For(4))
	code, out, errOut := apstctl(t, nil, "simulate", evoCapture, "--gap", "3s", "--exit-factor", path)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "penalty 33540us", "43000us x 0.78")
}

func TestMeasureUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		err  string
	}{
		{"bad idle", []string{"--simulate", evoCapture, "--idle", "soon"}, `--idle "soon"`},
		{"zero idle", []string{"--simulate", evoCapture, "--idle", "0s"}, "not a duration from 1us to 1h"},
		{"bad idle list", []string{"--simulate", evoCapture, "--idle-list", "1s,,2s"}, `--idle-list "1s,,2s"`},
		{"idle and idle list", []string{"--simulate", evoCapture, "--idle", "1s", "--idle-list", "1s,2s"}, "--idle and --idle-list contradict each other"},
		{"bad offsets", []string{"--simulate", evoCapture, "--offsets", "middle"}, `--offsets "middle": want random or fixed`},
		{"offset without fixed", []string{"--simulate", evoCapture, "--offset", "4096"}, "--offset needs --offsets fixed"},
		{"unaligned offset", []string{"--simulate", evoCapture, "--offsets", "fixed", "--offset", "100"}, "fixed offset 100"},
		{"no trials", []string{"--simulate", evoCapture, "--trials", "0"}, "--trials 0"},
		{"bad format", []string{"--simulate", evoCapture, "-o", "yaml"}, `-o yaml: want normal or json`},
		{"bad factor", []string{"--simulate", evoCapture, "--exit-factor", "-1"}, "--exit-factor"},
		{"factor without simulate", []string{"--exit-factor", "0.78", "nvme0n1"}, "--exit-factor needs --simulate"},
		{"pci-id without simulate", []string{"--pci-id", "8086:f1a5", "nvme0n1"}, "--pci-id needs --simulate"},
		{"bad pci-id", []string{"--simulate", evoCapture, "--pci-id", "zz"}, "--pci-id zz: "},
		{"device with simulate", []string{"--simulate", evoCapture, "nvme0n1"}, "no device argument"},
		{"no device", nil, "want 1 argument"},
		{"two devices", []string{"nvme0n1", "nvme1n1"}, "want 0 to 1 arguments"},
		{"bad with", []string{"--simulate", evoCapture, "--with", "ps-max-latency-us=soon"}, `--with "ps-max-latency-us=soon"`},
		{"with beyond the bound", []string{"--simulate", evoCapture, "--with", "ps-max-latency-us=100000", "--with", "apst-primary-timeout-ms=50"}, "changes more than the bound"},
		// One configuration that changes a module parameter would be
		// labelled with a plan the simulated drive, which takes only the
		// bound, does not follow: refused as on a live machine.
		{"one with beyond the bound", []string{"--simulate", evoCapture, "--with", "apst-primary-timeout-ms=50"}, `--with "apst-primary-timeout-ms=50": measure: invalid measurement: configuration "apst-primary-timeout-ms=50" changes more than the bound`},
		{"one with of another kernel", []string{"--simulate", evoCapture, "--with", "kernel=v4.12"}, "changes more than the bound"},
		{"quirks the capture does not imply", []string{"--simulate", "../../testdata/identify/intel-ssdpekkw256g7-PSF109C.bin", "--with", "quirks=none"}, "changes more than the bound"},
		{"missing capture", []string{"--simulate", "no-such-file"}, "--simulate: open no-such-file"},
		{"not a capture", []string{"--simulate", "cmd_measure.go"}, "--simulate cmd_measure.go"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := measureRun(t, context.Background(), nil, tt.args...)
			assert.Equal(t, exitUsage, code)
			assert.Contains(t, errOut, tt.err)
			assert.Empty(t, out)
			assert.NotContains(t, errOut, "holds", "nothing was read or changed")
			assert.Contains(t, errOut, "see 'apstctl measure --help'")
		})
	}
}

// A configuration that names the quirks the capture implies, or only a
// bound, is what the simulated drive follows: measured.
func TestMeasureSimulateSameQuirks(t *testing.T) {
	code, out, errOut := measureRun(t, context.Background(), nil, "--simulate", evoCapture, "--with", "pm-qos=auto", "--with", "quirks=none", "--trials", "2")
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `(?m)^quirks=none +3s +2 +2 +ps4 `, out)
}

// A row whose trials were all discarded has no figures: "-" in the text,
// null in JSON, never a 0 that was not measured.
func TestMeasureNoFiguresWhenAllDiscarded(t *testing.T) {
	args := []string{"--simulate", evoCapture, "--foreign-io", "1", "--trials", "3"}
	code, out, errOut := measureRun(t, context.Background(), nil, args...)
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `(?m)^ps-max-latency-us=100000 +3s +3 +0 +ps4 +- +- +- +-$`, out)
	assert.Regexp(t, `(?m)^warm +- +6 +6 +- +60us`, out, "the warm reads were kept")
	code, out, errOut = measureRun(t, context.Background(), nil, append(args, "-o", "json")...)
	require.Equal(t, 0, code, errOut)
	var v struct {
		Rows []map[string]json.RawMessage `json:"rows"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	require.NotEmpty(t, v.Rows)
	for _, k := range []string{"p50_us", "p90_us", "p99_us", "max_us"} {
		assert.Equal(t, "null", string(v.Rows[0][k]), k)
	}
}

func TestMeasureCommandLine(t *testing.T) {
	code, out, _ := apstctl(t, nil, "measure", "--help")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "usage: apstctl measure")
	assert.Contains(t, out, "--idle-list")

	code, out, errOut := apstctl(t, nil, "measure", "--simulate", evoCapture, "--trials", "2", "-o", "json", "--seed", "3")
	require.Equal(t, exitOK, code, errOut)
	assert.True(t, json.Valid([]byte(out)))

	code, _, errOut = apstctl(t, nil, "measure", "--bogus")
	require.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "--bogus")
}

// toleranceProbe keeps the simulated tolerance file of a run, to read it
// after the run.
type toleranceProbe struct{ file measure.ToleranceFile }

func (p *toleranceProbe) value(t *testing.T) apst.Tolerance {
	t.Helper()
	v, err := p.file.Tolerance()
	require.NoError(t, err)
	return v
}

// sleepHook calls fn at the idle wait numbered at.
type sleepHook struct {
	measure.Clock
	at, n int
	fn    func(ctx context.Context)
}

func (c *sleepHook) Sleep(ctx context.Context, d time.Duration) error {
	c.n++
	if c.n == c.at {
		c.fn(ctx)
	}
	return c.Clock.Sleep(ctx, d)
}

// failingRead fails the read numbered at.
type failingRead struct {
	measure.Drive
	at, n int
}

func (d *failingRead) ReadAt(off int64) error {
	d.n++
	if d.n == d.at {
		return errors.New("read: input/output error")
	}
	return d.Drive.ReadAt(off)
}

func TestMeasureRestoresOnErrorCancelAndSignal(t *testing.T) {
	want := apst.Tolerance{Kind: apst.ToleranceValue, Value: 100000}
	tests := []struct {
		name string
		wrap func(s *measure.Setup, cancel context.CancelFunc)
		err  string
	}{
		{
			name: "read error",
			wrap: func(s *measure.Setup, _ context.CancelFunc) {
				s.Drive = &failingRead{Drive: s.Drive, at: 6}
			},
			err: "input/output error",
		},
		{
			name: "cancel",
			wrap: func(s *measure.Setup, cancel context.CancelFunc) {
				s.Clock = &sleepHook{Clock: s.Clock, at: 3, fn: func(context.Context) { cancel() }}
			},
			err: "interrupted after 2 of 120 trials",
		},
		{
			name: "SIGTERM",
			wrap: func(s *measure.Setup, _ context.CancelFunc) {
				s.Clock = &sleepHook{Clock: s.Clock, at: 3, fn: func(ctx context.Context) {
					p, err := os.FindProcess(os.Getpid())
					require.NoError(t, err)
					require.NoError(t, p.Signal(syscall.SIGTERM))
					select { // the signal arrives asynchronously
					case <-ctx.Done():
					case <-time.After(10 * time.Second):
						t.Error("SIGTERM did not cancel the measurement")
					}
				}}
			},
			err: "interrupted after 2 of 120 trials",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "SIGTERM" && runtime.GOOS == "windows" {
				t.Skip("no SIGTERM to send on Windows")
			}
			ctx, _, stop := signalContext(context.Background())
			defer stop()
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			probe := &toleranceProbe{}
			hooks := &measureHooks{setup: func(s *measure.Setup) {
				probe.file = s.Tolerance
				tt.wrap(s, cancel)
			}}
			code, out, errOut := measureRun(t, ctx, hooks, "--simulate", evoCapture, "--exit-factor", "0.78")
			assert.Equal(t, exitFailure, code)
			assert.Contains(t, errOut, tt.err)
			assert.Empty(t, out)
			assert.Contains(t, errOut, "holds 100000", "the value to restore was printed first")
			assert.Contains(t, errOut, "restored to 100000")
			assert.Equal(t, want, probe.value(t))
		})
	}
}

// copyFixture copies the sysfs fixture, keeping its symbolic links, so
// that a test may write to it, with I/O counters for nvme2n1.
func copyFixture(t *testing.T) string {
	t.Helper()
	dst := testfixture.CopyTree(t, testfixture.Path("sys"))
	require.NoError(t, os.WriteFile(filepath.Join(dst, "block/nvme2n1/stat"), []byte("1 0 8 0 2 0 16 0 0 0 0 0 0 0 0 0 0\n"), 0o644))
	return dst
}

// fakeLiveSystem is the live machine measure opens: the sysfs tree at
// root, every controller answering Identify with the 990 EVO Plus image,
// kernel 6.8.0.
func fakeLiveSystem(root string, identify []byte) func() (*nvmeapst.System, error) {
	return func() (*nvmeapst.System, error) {
		fsys, err := sysfs.NewFS(root)
		if err != nil {
			return nil, err
		}
		return &nvmeapst.System{
			FS: fsys,
			Opener: nvmeapst.OpenerFunc(func(context.Context, string) (ioctl.Controller, error) {
				return ioctltest.New(identify, apst.Feature{}, ioctl.PowerManagement{}), nil
			}),
			KernelRelease: func() (string, error) { return "6.8.0", nil },
		}, nil
	}
}

func TestMeasureLive(t *testing.T) {
	root := copyFixture(t)
	tolPath := filepath.Join(root, "class/nvme/nvme2/power/pm_qos_latency_tolerance_us")
	identify := testfixture.ReadFile(t, testfixture.Samsung990EVOPlus)
	live := fakeLiveSystem(root, identify)
	t.Run("needs root", func(t *testing.T) {
		hooks := &measureHooks{liveSystem: live}
		hooks.openOptions.OpenDrive = func(p string) (measure.Drive, error) {
			return nil, &os.PathError{Op: "open", Path: p, Err: os.ErrPermission}
		}
		code, out, errOut := measureRun(t, context.Background(), hooks, "nvme2n1")
		assert.Equal(t, exitFailure, code)
		assert.Contains(t, errOut, "measure needs root")
		assert.Contains(t, errOut, "cannot read /dev/nvme2n1")
		assert.Contains(t, errOut, "nothing changed")
		assert.NotContains(t, errOut, "holds", "nothing was changed")
		assert.Empty(t, out)
		b, err := os.ReadFile(tolPath)
		require.NoError(t, err)
		assert.Equal(t, "25000\n", string(b))
	})
	t.Run("measures and restores", func(t *testing.T) {
		var sim *measure.Simulation
		hooks := &measureHooks{liveSystem: live, setup: func(s *measure.Setup) { s.Clock = sim }}
		hooks.openOptions.OpenDrive = func(string) (measure.Drive, error) {
			s, err := simulatedEvo(t)
			sim = s
			return s, err
		}
		code, out, errOut := measureRun(t, context.Background(), hooks, "--trials", "2", "nvme2n1", "--with", "pm-qos=100000", "--with", "pm-qos=25000")
		require.Equal(t, exitOK, code, errOut)
		assert.Contains(t, errOut, tolPath+" holds 25000; if this run is killed, restore it with: echo 25000 > "+tolPath)
		assert.Contains(t, out, "nvme2n1 on nvme2")
		assert.Contains(t, out, "restored to 25000")
		b, err := os.ReadFile(tolPath)
		require.NoError(t, err)
		assert.Equal(t, "25000", strings.TrimSpace(string(b)))

		// What was assumed is the controller's (the machine's quirk
		// lookup), said once for every configuration.
		code, out, errOut = measureRun(t, context.Background(), hooks, "--trials", "2", "nvme2n1", "--with", "pm-qos=100000", "--with", "pm-qos=25000", "-o", "json")
		require.Equal(t, exitOK, code, errOut)
		var doc struct {
			Assumptions *assumptionsJSON `json:"assumptions"`
			Configs     []struct {
				Config      string           `json:"config"`
				Assumptions *assumptionsJSON `json:"assumptions"`
			} `json:"configs"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &doc))
		require.NotNil(t, doc.Assumptions)
		require.Len(t, doc.Configs, 2)
		assert.Equal(t, "pm-qos=25000", doc.Configs[1].Config)
		assert.Nil(t, doc.Configs[0].Assumptions)
		assert.Nil(t, doc.Configs[1].Assumptions)
	})
}

// measure says what its plans assumed as compare does, and its
// warnings name a flag it takes: --pci-id settles the PCI ID it inferred.
func TestMeasureSimulateAssumptions(t *testing.T) {
	code, out, errOut := measureRun(t, context.Background(), nil, "--simulate", intelImage, "--trials", "2", "--idle", "1s")
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, 1, strings.Count(out, "warning: the capture carries no PCI ID; 8086:f1a5 was inferred"), out)
	assert.Contains(t, out, "give --pci-id to override")

	code, out, errOut = measureRun(t, context.Background(), nil, "--simulate", intelImage, "--trials", "2", "--idle", "1s", "--pci-id", "8086:f1a5", "-o", "json")
	require.Equal(t, exitOK, code, errOut)
	var doc struct {
		Assumptions assumptionsJSON `json:"assumptions"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	assert.Nil(t, doc.Assumptions.PCIIDInferred, "given, not inferred")
	assert.True(t, doc.Assumptions.ReleaseUnknown, "no release: the newest tables, and the 600p's entry is at stake")
}

// simulatedEvo is a simulated 990 EVO Plus at 0.78.
func simulatedEvo(t *testing.T) (*measure.Simulation, error) {
	t.Helper()
	o := &measureOptions{simulate: evoCapture, exitFactor: "0.78", seed: 1}
	sim, _, _, err := o.simulation()
	return sim, err
}

func FuzzParseIdleList(f *testing.F) {
	for _, s := range []string{"3s", "100ms,500ms,3s", "", ",", "1h1ns", "-1s", "1e9s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := parseIdleList("3s", s)
		if err != nil {
			require.NotContains(t, err.Error(), "\n")
			return
		}
		require.NotEmpty(t, d)
		for _, v := range d {
			require.True(t, v > 0 && v <= time.Hour)
		}
	})
}

// TestMeasureSimulateStdin: --simulate - reads the capture on standard
// input, as every CAPTURE of "-" does (it was read as empty whatever the
// pipe held).
func TestMeasureSimulateStdin(t *testing.T) {
	image, err := os.ReadFile(evoCapture)
	require.NoError(t, err)
	tests := []struct {
		name    string
		stdin   []byte
		code    int
		wantOut string
		wantErr string
	}{
		{"image", image, 0, "simulated drive", ""},
		{"empty", nil, 2, "", "the capture is empty"},
		{"not a capture", []byte("hello\n"), 2, "", "unknown capture format"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := apstctl(t, tt.stdin, "measure", "--simulate", "-", "--trials", "1", "--idle", "10ms", "--noise", "0")
			require.Equal(t, tt.code, code, errOut)
			assert.Contains(t, out, tt.wantOut)
			assert.Contains(t, errOut, tt.wantErr)
		})
	}
}

// TestMeasureFactorOutWithoutFactor: with no exit factor measured (no
// trial idle long enough to meet a non-operational state), --factor-out
// fails (exit 1) after the report, and leaves FILE as it was: it exited 0
// and an old factor passed for the run's.
func TestMeasureFactorOutWithoutFactor(t *testing.T) {
	for _, format := range []string{"text", "json"} {
		t.Run(format, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "factor")
			require.NoError(t, os.WriteFile(path, []byte("0.5\n"), 0o644))
			code, out, errOut := measureRun(t, context.Background(), nil, "--simulate", evoCapture, "--trials", "1", "--idle", "10ms", "-o", format, "--factor-out", path)
			assert.Equal(t, exitFailure, code, errOut)
			assert.Contains(t, out, "ps-max-latency-us=25000", "the report is written")
			assert.Contains(t, errOut, "--factor-out "+path+": no exit factor was measured")
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, "0.5\n", string(b), "FILE left as it was")
		})
	}
}
