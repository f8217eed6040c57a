package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

type planOut struct {
	Sent           bool      `json:"sent"`
	Enabled        bool      `json:"enabled"`
	MaxPS          int       `json:"max_ps"`
	MaxRoundTripUS uint64    `json:"max_round_trip_us"`
	Entries        []anEntry `json:"entries"`
	AssumedAPSTA   bool      `json:"assumed_apsta"`
	PCIIDInferred  *struct {
		ID   string `json:"id"`
		From string `json:"from"`
	} `json:"pci_id_inferred"`
	PCIQuirksUnchecked []string `json:"pci_quirks_unchecked"`
	QuirkNotes         []string `json:"quirk_notes"`
}

func planOf(t *testing.T, stdin []byte, args ...string) planOut {
	t.Helper()
	code, out, errOut := apstctl(t, stdin, append([]string{"plan", "-o", "json"}, args...)...)
	require.Equal(t, 0, code, errOut)
	var p planOut
	require.NoError(t, json.Unmarshal([]byte(out), &p), out)
	require.Len(t, p.Entries, 32)
	return p
}

func TestPlanJSON(t *testing.T) {
	p := planOf(t, nil, evoImage)
	assert.True(t, p.Sent)
	assert.True(t, p.Enabled)
	assert.Equal(t, 4, p.MaxPS)
	assert.Equal(t, uint64(44600), p.MaxRoundTripUS)
	assert.Equal(t, anEntry{0, "0x0000000000006418", 3, 100}, p.Entries[0])
	assert.Equal(t, "0x000000000007d020", p.Entries[3].Value)
	assert.Equal(t, "0x0000000000000000", p.Entries[4].Value)
	assert.Nil(t, p.PCIIDInferred)
	assert.Equal(t, []string{}, p.PCIQuirksUnchecked)

	p = planOf(t, nil, "--ps-max-latency-us", "25000", evoImage)
	assert.Equal(t, 3, p.MaxPS)
	assert.Equal(t, uint64(6200), p.MaxRoundTripUS)

	// pm-qos auto means unlimited: with the current algorithm the bands still apply.
	assert.Equal(t, 4, planOf(t, nil, "--pm-qos", "auto", evoImage).MaxPS)

	p = planOf(t, nil, "--ps-max-latency-us", "0", evoImage)
	assert.True(t, p.Sent)
	assert.False(t, p.Enabled)
	assert.Equal(t, -1, p.MaxPS)

	p = planOf(t, nil, "--default-ps-max-latency-us", "3000000000", "--kernel", "v4.12", evoImage)
	assert.Equal(t, 4, p.MaxPS)
	assert.Equal(t, "0x0000000000013618", p.Entries[0].Value, "ceil(6200/20) = 310 ms to ps3")

	// A release picks the generation: 5.13 is the 2% heuristic, 5.14 the bands.
	assert.Equal(t, "0x0000000000013618", planOf(t, nil, "--kernel", "5.13", evoImage).Entries[0].Value)
	assert.Equal(t, "0x0000000000006418", planOf(t, nil, "--kernel", "5.15.0-91-generic", evoImage).Entries[0].Value)

	img, err := os.ReadFile(evoImage)
	require.NoError(t, err)
	assert.Equal(t, 4, planOf(t, img, "-").MaxPS)
}

// The Intel 600p's PCI ID brings NO_DEEPEST_PS, which keeps it out of ps4
// under both the current algorithm and v4.12; without --pci-id the ID is
// inferred from the model, and the output says so; force_apst cancels it.
func TestPlanIntel600pQuirk(t *testing.T) {
	p := planOf(t, nil, intelImage)
	assert.Equal(t, 3, p.MaxPS)
	require.NotNil(t, p.PCIIDInferred)
	assert.Equal(t, "8086:f1a5", p.PCIIDInferred.ID)
	assert.NotEmpty(t, p.PCIIDInferred.From)
	for _, k := range []string{"current", "v4.12", "6.8"} {
		p := planOf(t, nil, "--kernel", k, "--pci-id", "8086:f1a5", intelImage)
		assert.Equal(t, 3, p.MaxPS, k)
		assert.Nil(t, p.PCIIDInferred, "--pci-id settles it")
	}
	assert.Equal(t, 4, planOf(t, nil, "--pci-id", "8086:f1a5", "--force-apst", intelImage).MaxPS)
	assert.Equal(t, 3, planOf(t, nil, "--quirks", "no-deepest-ps", intelImage).MaxPS)
	code, _, errOut := apstctl(t, nil, "plan", "--quirks", "none", "--pci-id", "8086:f1a5", intelImage)
	assert.Equal(t, exitUsage, code, "--quirks replaces what --pci-id picks: %s", errOut)
	assert.Equal(t, 4, planOf(t, nil, "--pci-id", "8086:0001", intelImage).MaxPS)
}

// --pci-id wins over the Identify VID: the kernel matches the PCI ID of
// config space, and the HP EX920 reports VID 1dee with PCI ID 126f:2262
// (Silicon Motion, NO_DEEPEST_PS since 6.9). The note says the two differ.
func TestPlanPCIIDOfAnotherVendor(t *testing.T) {
	ex920 := "../../testdata/corpus/smartctl/HP_SSD_EX920_1TB_SVN163.txt"
	p := planOf(t, nil, "--pci-id", "126f:2262", "--kernel", "6.9", ex920)
	assert.Equal(t, 3, p.MaxPS)
	assert.Contains(t, strings.Join(p.QuirkNotes, "\n"), "the PCI vendor 0x126f differs from the Identify VID 0x1dee")
	assert.Equal(t, 4, planOf(t, nil, "--pci-id", "126f:2262", "--kernel", "6.8", ex920).MaxPS, "before the quirk")
	code, _, errOut := apstctl(t, nil, "plan", "--pci-id", "126f:2262", ex920)
	assert.Equal(t, 0, code, errOut)
}

// A distribution release X.Y.0-N hides its stable base: the Kingston A2000
// got its NO_DEEPEST_PS in 5.10.15, so 5.10.0-28-amd64 said nothing of it
// and planned ps4. Now the newest 5.10.z tables apply with a note naming
// the entries at stake, and the base, given in any of the distributions'
// forms, settles it.
func TestPlanDistributionRelease(t *testing.T) {
	a2000 := "../../testdata/corpus/smartctl/Kingston_SA2000M8250G_S5Z42105.txt"
	p := planOf(t, nil, "--kernel", "5.10.0-28-amd64", a2000)
	assert.Equal(t, 3, p.MaxPS)
	notes := strings.Join(p.QuirkNotes, "\n")
	assert.Contains(t, notes, "distribution kernel 5.10.0-N: its upstream stable base is unknown")
	assert.Contains(t, notes, "2646:2263 Kingston A2000 (added in 5.10.15)")
	for _, k := range []string{"5.10.0-28-amd64 (Debian 5.10.209-2)", "#1 SMP Debian 5.10.209-2 (2024-01-31)", "5.10.209"} {
		p := planOf(t, nil, "--kernel", k, a2000)
		assert.Equal(t, 3, p.MaxPS, k)
		assert.NotContains(t, strings.Join(p.QuirkNotes, "\n"), "distribution kernel", k)
	}
	assert.Equal(t, 4, planOf(t, nil, "--kernel", "5.10.0-28-amd64 (Debian 5.10.14-1)", a2000).MaxPS, "before the backport")
	p = planOf(t, nil, "--kernel", "Ubuntu 5.15.0-91.101-generic 5.15.131", a2000)
	assert.Equal(t, 3, p.MaxPS)
}

func TestPlanBadInput(t *testing.T) {
	dir := t.TempDir()
	short := filepath.Join(dir, "short.bin")
	require.NoError(t, os.WriteFile(short, make([]byte, 4000), 0o644))
	npss, err := os.ReadFile(evoImage)
	require.NoError(t, err)
	npss[263], npss[265] = 255, 1
	npssPath := filepath.Join(dir, "npss255.bin")
	require.NoError(t, os.WriteFile(npssPath, npss, 0o644))

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"missing file", []string{"plan", filepath.Join(dir, "nope.bin")}, "nope.bin"},
		{"short image", []string{"plan", short}, "identify controller image is 4000 bytes, want exactly 4096"},
		{"feature capture", []string{"plan", feature100}, "read it with 'apstctl decode'"},
		{"raw feature buffer", []string{"plan", featureRaw}, "read it with 'apstctl decode'"},
		{"unknown generation", []string{"plan", "--kernel", "banana", evoImage}, "banana"},
		{"release without APST, in a command that compares tables", []string{"sweep", "--kernel", "4.10", evoImage}, "4.10"},
		{"unknown quirk", []string{"plan", "--quirks", "no-sleep", evoImage}, "no-sleep"},
		{"bound not a number", []string{"plan", "--ps-max-latency-us", "25ms", evoImage}, "25ms"},
		{"bound negative", []string{"plan", "--ps-max-latency-us", "-1", evoImage}, "-1"},
		{"pm-qos rejected", []string{"plan", "--pm-qos", "-5", evoImage}, "EINVAL"},
		{"two bounds", []string{"plan", "--pm-qos", "auto", "--ps-max-latency-us", "5", evoImage}, "contradict each other"},
		{"bad pci id", []string{"plan", "--pci-id", "zz", evoImage}, "zz"},
		{"bad format", []string{"plan", "--format", "xml", evoImage}, "want normal or json"},
		{"no capture", []string{"plan"}, "want 1 argument"},
		{"two captures", []string{"plan", evoImage, evoImage}, "want 1 argument"},
		{"unknown flag", []string{"plan", "--bogus", evoImage}, "unknown flag --bogus"},
		{"flag typo", []string{"plan", "--ps-max-latency", "5", evoImage}, "did you mean --ps-max-latency-us?"},
		{"missing value", []string{"plan", evoImage, "--kernel"}, "needs a value"},
		{"unknown command", []string{"frobnicate"}, "frobnicate"},
		{"command typo", []string{"sweeep"}, "did you mean sweep?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := apstctl(t, nil, tc.args...)
			assert.Equal(t, 2, code)
			assert.Empty(t, out)
			assert.Contains(t, errOut, tc.want)
			lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
			assert.LessOrEqual(t, len(lines), 2, "one line, and the pointer to the help: %q", errOut)
			if len(lines) == 2 {
				assert.Regexp(t, `^see 'apstctl( [a-z-]+)? (--)?help'$`, lines[1])
			}
		})
	}

	// NPSS 255 is no drive's: refused, and with --force the kernel sends
	// nothing.
	code, _, errOut := apstctl(t, nil, "plan", npssPath)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "NPSS 255 at offset 263: the specification allows at most 31")
	p := planOf(t, nil, "--force", npssPath)
	assert.False(t, p.Sent)
	assert.Equal(t, -1, p.MaxPS)
}

// A usage error is one line naming the problem and the pointer to the
// command's help, exit 2.
func TestUsageErrorShape(t *testing.T) {
	code, out, errOut := apstctl(t, nil, "plan", evoImage, "extra")
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	assert.Equal(t, "apstctl plan: want 1 argument, got 2 ("+evoImage+" extra): usage: apstctl plan [flags] CAPTURE\n"+
		"see 'apstctl plan --help'\n", errOut)
}

// help CMD and CMD --help print that command's help on standard output,
// exit 0, for every command.
func TestHelpOnStdout(t *testing.T) {
	for _, c := range commands() {
		t.Run(c.name, func(t *testing.T) {
			code, viaHelp, errOut := apstctl(t, nil, "help", c.name)
			require.Equal(t, 0, code, errOut)
			assert.Empty(t, errOut)
			assert.Contains(t, viaHelp, "usage: apstctl "+c.name)
			for _, h := range []string{"--help", "-h", "-help"} {
				code, out, errOut := apstctl(t, nil, c.name, h)
				assert.Equal(t, 0, code, errOut)
				assert.Equal(t, viaHelp, out, h)
			}
			assert.Contains(t, viaHelp, "\nExamples:\n  apstctl "+c.name)
			for _, n := range c.flags.order {
				assert.Contains(t, viaHelp, "--"+n, "flag %s in the help", n)
			}
		})
	}
	code, out, _ := apstctl(t, nil, "help")
	assert.Equal(t, 0, code)
	for _, c := range commands() {
		assert.Contains(t, out, "\n  "+c.name+" ")
	}
	_, out2, _ := apstctl(t, nil, "--help")
	assert.Equal(t, out, out2)
	code, _, errOut := apstctl(t, nil, "help", "plna")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "did you mean plan?")
}

// Every example of every command's help runs (from the repository's top
// directory), except those that need a live machine or write outside the
// test's directory.
func TestHelpExamplesRun(t *testing.T) {
	inRepoRoot(t)
	for _, c := range commands() {
		for _, e := range c.examples {
			args := strings.Fields(e)
			if needsLiveMachine(args) {
				continue
			}
			for i, a := range args {
				if strings.HasPrefix(a, "/tmp/") {
					args[i] = filepath.Join(t.TempDir(), filepath.Base(a))
				}
			}
			if args[0] == "set-latency" || args[0] == "set-cpu-latency" {
				continue // covered on a copy of the bundle in cmd_inspect_test.go
			}
			code, out, errOut := apstctl(t, nil, args...)
			if args[0] == "check" && code == 1 {
				code = 0 // a mismatch is the example's point
			}
			assert.Equal(t, 0, code, "apstctl %s: %s", e, errOut)
			assert.NotEmpty(t, out, "apstctl %s", e)
		}
	}
}

// needsLiveMachine reports whether a command line reads or writes the
// running machine.
func needsLiveMachine(args []string) bool {
	switch args[0] {
	case "measure":
		for _, a := range args {
			if a == "--simulate" {
				return false
			}
		}
		return true
	case "inspect", "collect", "set-latency", "set-cpu-latency", "metrics":
		for _, a := range args {
			if a == "--root" {
				return false
			}
		}
		return true
	case "diagnose":
		for _, a := range args {
			if a == "--root" || a == "--log" || strings.HasPrefix(a, "--log=") || strings.HasPrefix(a, "--root=") {
				return false
			}
		}
		return true
	}
	return false
}

func TestDemo(t *testing.T) {
	code, out, _ := apstctl(t, nil)
	require.Equal(t, 0, code)
	assert.Contains(t, out, "bound 100000us: the drive can sleep down to ps4 (exit latency 43.0 ms")
	assert.Contains(t, out, "bound  25000us: the drive can sleep down to ps3 (exit latency 4.6 ms")
}

// failingWriter fails every write, as a full disk does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errNoSpace }

var errNoSpace = errors.New("no space left on device")

// With standard output failing, every command that prints exits 1 with one
// line on standard error.
func TestFailedWriteIsExit1(t *testing.T) {
	inRepoRoot(t)
	evo := "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin"
	feature := "examples/apstctl/testdata/feature/samsung-990-evo-plus-100ms.txt"
	for _, args := range [][]string{
		nil,
		{"help"},
		{"help", "plan"},
		{"plan", "--help"},
		{"plan", evo},
		{"plan", evo, "-o", "json"},
		{"check", evo, feature},
		{"sweep", evo},
		{"compare", evo, "--with", "ps-max-latency-us=25000"},
		{"simulate", evo, "--gaps", "1s,2s"},
		{"recommend", evo, "--max-stall", "25ms"},
		{"decode", feature},
		{"convert", "--to", "binary", evo},
		{"inspect", "--root", "testdata/bundle"},
		{"collect", "--root", "testdata/bundle", filepath.Join(t.TempDir(), "b")},
		{"version"},
		{"completion", "bash"},
		{"survey", "testdata/corpus/smartctl"},
	} {
		var errOut bytes.Buffer
		code := run(args, bytes.NewReader(nil), failingWriter{}, &errOut)
		assert.Equal(t, 1, code, "%q", args)
		assert.Contains(t, errOut.String(), "no space left on device", "%q", args)
		if args == nil || args[0] != "survey" {
			assert.Equal(t, 1, strings.Count(errOut.String(), "\n"), "%q: one line: %q", args, errOut.String())
		}
	}
}

// set-latency's status says whether sysfs changed, whatever happens to the
// report.
func TestSetLatencyStatusAfterFailedPrint(t *testing.T) {
	root := copyBundle(t)
	var errOut bytes.Buffer
	code := run([]string{"set-latency", "--root", root, "nvme2", "100000"}, bytes.NewReader(nil), failingWriter{}, &errOut)
	assert.Equal(t, 0, code, "the value was written")
	assert.Contains(t, errOut.String(), "25000 -> 100000 written; printing the report failed")
	b, err := os.ReadFile(filepath.Join(root, "class/nvme/nvme2/power/pm_qos_latency_tolerance_us"))
	require.NoError(t, err)
	assert.Equal(t, "100000", strings.TrimSpace(string(b)))
}

func TestConvert(t *testing.T) {
	data, err := os.ReadFile(smartctlEVO)
	require.NoError(t, err)
	want, err := capture.Parse(bytes.NewReader(data))
	require.NoError(t, err)
	for _, to := range []struct {
		name   string
		format powerstate.Format
	}{
		{"binary", powerstate.FormatBinary},
		{"nvme-cli-text", powerstate.FormatNVMeCLIText},
		{"nvme-cli-json", powerstate.FormatNVMeCLIJSON},
		{"json", powerstate.FormatNVMeCLIJSON},
		{"normal", powerstate.FormatNVMeCLIText},
		{"smartctl-text", powerstate.FormatSmartctlText},
	} {
		t.Run(to.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			code, stdout, stderr := runCmd(runConvert, "--to", to.name, "--output", out, smartctlEVO)
			require.Equal(t, 0, code, stderr)
			assert.Empty(t, stdout)
			b, err := os.ReadFile(out)
			require.NoError(t, err)
			if to.format == powerstate.FormatBinary {
				assert.Len(t, b, powerstate.IdentifySize)
				assert.Contains(t, stderr, "does not record APSTA")
				assert.Equal(t, byte(1), b[265], "APSTA assumed, as apst.Build does")
			}
			if to.format == powerstate.FormatSmartctlText {
				assert.Empty(t, stderr)
			} else {
				assert.Contains(t, stderr, "does not record the states' idle and active power")
			}
			got, err := capture.Parse(bytes.NewReader(b))
			require.NoError(t, err)
			assert.Equal(t, to.format, got.Format)
			assert.Equal(t, want.States(), got.States())
			assert.Equal(t, want.Model, got.Model)
		})
	}
}

func TestConvertOutputFile(t *testing.T) {
	dir := t.TempDir()
	// A value that names a format where a file is expected is refused, and
	// nothing is written: no command writes a file named json.
	t.Chdir(dir)
	for _, args := range [][]string{
		{"--to", "binary", "--output", "json"},
		{"--to", "binary", "--output", "nvme-cli-text"},
		{"-o", filepath.Join(dir, "file")},
	} {
		code, _, errOut := runCmd(runConvert, append(args, smartctlEVOFrom(t))...)
		assert.Equal(t, 2, code, "%q", args)
		assert.NotEmpty(t, errOut)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries)

	// An existing file survives a failed conversion and is replaced whole by
	// a good one.
	out := filepath.Join(dir, "out.txt")
	require.NoError(t, os.WriteFile(out, []byte("old"), 0o644))
	code, _, _ := runCmd(runConvert, "--to", "nvme-cli-text", "--output", out, filepath.Join(dir, "missing"))
	assert.Equal(t, 2, code)
	b, _ := os.ReadFile(out)
	assert.Equal(t, "old", string(b))
	code, _, errOut := runCmd(runConvert, "--to", "nvme-cli-text", "--output", out, smartctlEVOFrom(t))
	require.Equal(t, 0, code, errOut)
	b, _ = os.ReadFile(out)
	assert.True(t, strings.HasPrefix(string(b), "NVME Identify Controller:\n"))
	code, _, errOut = runCmd(runConvert, "--to", "binary", "--output", "/nonexistent/dir/out", smartctlEVOFrom(t))
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "/nonexistent/dir")
	entries, err = os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file is left")
}

// smartctlEVOFrom is the smartctl fixture's absolute path (for tests that
// change directory).
func smartctlEVOFrom(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join(testDir, smartctlEVO))
	require.NoError(t, err)
	return p
}

// testDir is this package's directory, read before any test changes it.
var testDir, _ = os.Getwd()

func TestDecode(t *testing.T) {
	var got struct {
		APSTE   string    `json:"apste"`
		Enabled *bool     `json:"enabled"`
		Masked  bool      `json:"masked"`
		Entries []anEntry `json:"entries"`
	}
	code, out, errOut := runCmd(runDecode, feature100, "--format", "json") // flags after the capture
	require.Equal(t, 0, code, errOut)
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, "enabled", got.APSTE)
	require.NotNil(t, got.Enabled)
	assert.True(t, *got.Enabled)
	assert.True(t, got.Masked, "-H text shows ITPS and ITPT only")
	require.Len(t, got.Entries, 32)
	assert.Equal(t, anEntry{3, "0x000000000007d020", 4, 2000}, got.Entries[3])

	// A raw buffer does not record APSTE: unknown, never "disabled".
	code, out, errOut = runCmd(runDecode, "-o", "json", featureRaw)
	require.Equal(t, 0, code, errOut)
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, "unknown", got.APSTE)
	assert.Nil(t, got.Enabled)
	assert.False(t, got.Masked)
	assert.Equal(t, "0x000000000007d020", got.Entries[3].Value)

	data, err := os.ReadFile(feature100)
	require.NoError(t, err)
	for _, tc := range []struct {
		name  string
		stdin []byte
		args  []string
		want  string
	}{
		{"truncated names stdin and line", data[:500], []string{"-"}, "apstctl decode: standard input:"},
		{"missing file", nil, []string{"/nonexistent/apst.txt"}, "/nonexistent/apst.txt"},
		{"identify capture", nil, []string{evoImage}, "plan it with 'apstctl plan'"},
		{"no capture", nil, nil, "want 1 argument"},
		{"bad format", nil, []string{"--format", "yaml", "-"}, "want normal or json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := runDecode(tc.args, bytes.NewReader(tc.stdin), &out, &errOut)
			assert.Equal(t, 2, code)
			assert.Contains(t, errOut.String(), tc.want)
		})
	}
}

// check's exit status is diff's.
func TestCheck(t *testing.T) {
	var v struct {
		Verdict     string `json:"verdict"`
		Differences []struct {
			State    int     `json:"state"`
			Expected anEntry `json:"expected"`
			Drive    anEntry `json:"drive"`
		} `json:"differences"`
		ReproducedBy []struct {
			Config     string `json:"config"`
			BoundMinUS uint64 `json:"bound_min_us"`
			BoundMaxUS uint64 `json:"bound_max_us"`
		} `json:"reproduced_by"`
	}
	code, out, errOut := runCmd(runCheck, "--ps-max-latency-us", "25000", evoImage, feature100, "-o", "json")
	require.Equal(t, 1, code, errOut)
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	assert.Equal(t, "mismatch", v.Verdict)
	require.Len(t, v.Differences, 1)
	assert.Equal(t, 3, v.Differences[0].State)
	assert.Equal(t, anEntry{3, "0x0000000000000000", 0, 0}, v.Differences[0].Expected)
	assert.Equal(t, anEntry{3, "0x000000000007d020", 4, 2000}, v.Differences[0].Drive)
	require.NotEmpty(t, v.ReproducedBy)
	r := v.ReproducedBy[0]
	assert.Equal(t, uint64(43000), r.BoundMinUS)
	assert.Equal(t, uint64(1<<64-1), r.BoundMaxUS)
	assert.Contains(t, r.Config, "kernel=")

	code, _, errOut = runCmd(runCheck, evoImage, feature100)
	assert.Equal(t, 0, code, errOut)
	code, _, errOut = runCmd(runCheck, evoImage, feature25)
	assert.Equal(t, 1, code, errOut)
	code, _, errOut = runCmd(runCheck, feature100, evoImage)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "apstctl decode")
	code, _, _ = runCmd(runCheck, evoImage)
	assert.Equal(t, 2, code)
	code, _, errOut = runCmd(runCheck, "-", "-")
	assert.Equal(t, 2, code, errOut)
	// Refused naming both before standard input is read (an empty one
	// would otherwise be reported as an empty capture).
	assert.Equal(t, "apstctl check: ID-CAPTURE - and FEATURE-CAPTURE - both name standard input, which holds one file: give one of them as a file\nsee 'apstctl check --help'\n", errOut)
}

func TestArgsParser(t *testing.T) {
	newFS := func() (*flagSet, *string, *bool, *outputFormat) {
		fs := newFlagSet("t")
		s := fs.String("name", "V", "", "")
		b := fs.Bool("force", false, "")
		return fs, s, b, addOutputFormat(fs)
	}
	for _, tc := range []struct {
		args    []string
		pos     []string
		name    string
		force   bool
		json    bool
		wantErr string
	}{
		{args: []string{"a", "--name", "x", "b"}, pos: []string{"a", "b"}, name: "x"},
		{args: []string{"--name=x", "-o", "json", "a"}, pos: []string{"a"}, name: "x", json: true},
		{args: []string{"a", "--format", "text"}, pos: []string{"a"}},
		{args: []string{"-name", "x", "--force"}, name: "x", force: true},
		{args: []string{"--force=false", "a"}, pos: []string{"a"}},
		{args: []string{"a", "--", "--name", "-"}, pos: []string{"a", "--name", "-"}},
		{args: []string{"-", "-5"}, pos: []string{"-", "-5"}},
		{args: []string{"--name"}, wantErr: "needs a value"},
		{args: []string{"--nam", "x"}, wantErr: "did you mean --name?"},
		{args: []string{"---name"}, wantErr: "is not a flag"},
		{args: []string{"-o", "yaml"}, wantErr: "want normal or json"},
		{args: []string{"--force=maybe"}, wantErr: "--force=maybe: want true or false"},
		{args: []string{"--name="}, wantErr: `--name "": want V, not an empty value`},
		{args: []string{"a", "--name", ""}, wantErr: `--name "": want V`},
	} {
		fs, name, force, format := newFS()
		pos, err := parseArgs(fs, tc.args)
		if tc.wantErr != "" {
			var ue *usageError
			require.True(t, errors.As(err, &ue), "%q: %v", tc.args, err)
			assert.Contains(t, err.Error(), tc.wantErr, "%q", tc.args)
			continue
		}
		require.NoError(t, err, "%q", tc.args)
		assert.Equal(t, tc.pos, pos, "%q", tc.args)
		assert.Equal(t, tc.name, *name, "%q", tc.args)
		assert.Equal(t, tc.force, *force, "%q", tc.args)
		assert.Equal(t, tc.json, format.json, "%q", tc.args)
	}
	for _, h := range []string{"-h", "--help", "-help", "--help=true"} {
		fs, _, _, _ := newFS()
		_, err := parseArgs(fs, []string{"a", h})
		assert.Equal(t, errHelp, err)
	}
	// The rest of the line parses beside --help: an unknown flag is
	// refused wherever it stands; --help=false asks for no help.
	for _, args := range [][]string{{"--help", "--bogus"}, {"--bogus", "--help"}, {"--help=maybe"}} {
		fs, _, _, _ := newFS()
		_, err := parseArgs(fs, args)
		var ue *usageError
		assert.True(t, errors.As(err, &ue), "%q: %v", args, err)
	}
	fs, _, _, _ := newFS()
	pos, err := parseArgs(fs, []string{"a", "--help=false"})
	require.NoError(t, err)
	assert.Equal(t, []string{"a"}, pos)
}

func TestSuggest(t *testing.T) {
	cands := []string{"plan", "sweep", "simulate", "set-latency", "set-cpu-latency"}
	assert.Equal(t, "plan", suggest("pln", cands))
	assert.Equal(t, "sweep", suggest("swep", cands))
	assert.Equal(t, "set-latency", suggest("setlatency", cands))
	assert.Equal(t, "simulate", suggest("sim", cands))
	assert.Equal(t, "", suggest("xyz", cands))
	assert.Equal(t, "", suggest("set", cands), "a prefix of two is no suggestion")
}

// A message that quotes a path or a value with control characters shows
// them escaped.
func TestErrorMessagesAreEscaped(t *testing.T) {
	code, _, errOut := apstctl(t, nil, "plan", "/nonexistent/\x1b[2Jevil")
	assert.Equal(t, 2, code)
	assert.NotContains(t, errOut, "\x1b")
	assert.Contains(t, errOut, `\x1b[2Jevil`)
}

// A release before v4.11 has no APST: plan answers that nothing is sent
// (exit 0); the commands that compare tables refuse it with why.
func TestPlanBeforeAPST(t *testing.T) {
	code, out, errOut := apstctl(t, nil, "plan", "--kernel", "4.9", evoImage)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "kernel 4.9: Linux 4.9 has no APST (it arrived in v4.11): the kernel sends nothing")
	code, out, _ = apstctl(t, nil, "plan", "-o", "json", "--kernel", "4.4.0-210-generic", evoImage)
	require.Equal(t, 0, code)
	assert.Contains(t, out, `"sent": false`)
	code, _, errOut = apstctl(t, nil, "sweep", "--kernel", "4.9", evoImage)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "has no APST (it arrived in v4.11)")
}
