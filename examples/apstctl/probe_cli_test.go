package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// --pci-id is the capture's PCI ID whatever --quirks says: an invalid one
// is refused, and a --with quirks=tables (which looks the tables up again)
// uses it, instead of inferring the ID from the model and telling the user
// to give the --pci-id they gave.
func TestPCIIDBesideQuirks(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		code    int
		want    string // in standard error, or in standard output when code is exitOK
		notWant string // nowhere
	}{
		{"invalid ID refused", []string{"plan", intelImage, "--quirks", "none", "--pci-id", "garbage"},
			exitUsage, "--pci-id garbage: ", ""},
		{"invalid ID refused, sweep", []string{"sweep", intelImage, "--quirks", "no-apst", "--pci-id", "8086"},
			exitUsage, "--pci-id 8086: ", ""},
		{"tables of a --with use it", []string{"compare", intelImage, "--quirks", "none", "--pci-id", "8086:f1a5",
			"--with", "quirks=tables", "--with", "kernel=4.11"},
			exitOK, "quirks no-deepest-ps", "was inferred from model"},
		{"tables of a --with use it, replay", []string{"replay", intelImage, "testdata/replay/intel-600p-run.plain",
			"--quirks", "none", "--pci-id", "8086:f1a5", "--with", "quirks=tables"},
			exitOK, "quirks no-deepest-ps", "give --pci-id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := apstctl(t, nil, tc.args...)
			assert.Equal(t, tc.code, code, errOut)
			if tc.code == exitOK {
				assert.Contains(t, out, tc.want)
			} else {
				assert.Empty(t, out)
				assert.Contains(t, errOut, tc.want)
			}
			if tc.notWant != "" {
				assert.NotContains(t, out+errOut, tc.notWant)
			}
		})
	}
}

// A kernel before v4.11 has no APST: plan answers that it sends nothing,
// whatever the parameters, so a parameter flag beside it changes nothing
// and is refused, as the tolerance-band flags are beside v4.12.
func TestPreAPSTKernelRefusesParameterFlags(t *testing.T) {
	for _, tc := range []struct {
		extra []string
		want  string
	}{
		{[]string{"--ps-max-latency-us", "5"}, "--kernel 4.10 and --ps-max-latency-us contradict each other: Linux 4.10 has no APST"},
		{[]string{"--pm-qos", "auto"}, "--kernel 4.10 and --pm-qos contradict each other"},
		{[]string{"--quirks", "no-apst"}, "--kernel 4.10 and --quirks contradict each other"},
		{[]string{"--apst-primary-timeout-ms", "3"}, "--kernel 4.10 and --apst-primary-timeout-ms contradict each other"},
		{[]string{"--pci-id", "144d:a80d"}, "--kernel 4.10 and --pci-id contradict each other"},
		{[]string{"--force-apst"}, "--kernel 4.10 and --force-apst contradict each other"},
	} {
		t.Run(tc.extra[0], func(t *testing.T) {
			code, out, errOut := apstctl(t, nil, append([]string{"plan", evoImage, "--kernel", "4.10"}, tc.extra...)...)
			assert.Equal(t, exitUsage, code)
			assert.Empty(t, out)
			assert.Contains(t, errOut, "apstctl plan: "+tc.want)
		})
	}
	// Alone, or with what changes the answer's form, it is the answer.
	for _, extra := range [][]string{nil, {"-o", "json"}, {"--force-apst=false"}} {
		code, out, errOut := apstctl(t, nil, append([]string{"plan", evoImage, "--kernel", "4.10"}, extra...)...)
		assert.Equal(t, exitOK, code, errOut)
		assert.Contains(t, out, "has no APST")
	}
}

// survey's CSV holds the per-drive rows only, so a --stall-budget, whose
// answer is in the summary, would be dropped: refused like --summary.
func TestSurveyCSVRefusesStallBudget(t *testing.T) {
	capture := corpusDir + "/smartctl/Samsung_SSD_990_EVO_Plus_1TB_2B2QKXG7.txt"
	code, out, errOut := apstctl(t, nil, "survey", "-o", "csv", "--stall-budget", "25ms", capture)
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "apstctl survey: --stall-budget and --output-format csv contradict each other")
	for _, format := range []string{"normal", "json", "ndjson"} {
		code, out, errOut := apstctl(t, nil, "survey", "-o", format, "--stall-budget", "25ms", capture)
		assert.Equal(t, exitOK, code, errOut)
		assert.Contains(t, strings.ToLower(out), "budget", format)
	}
}

// "-" is standard input in the dialect; a survey, which walks files and
// directories, says it reads it with --merge only, rather than "stat -: no
// such file or directory".
func TestSurveyStandardInput(t *testing.T) {
	code, out, errOut := apstctl(t, nil, "survey", "-")
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "apstctl survey: - (standard input) is read by survey --merge only")
	assert.NotContains(t, errOut, "stat -")
}

// recommend --max-stall-us 18446744073709551615 (2^64-1, the largest value
// it reads) is a stall goal every bound meets, as persist reads it
// (stall=unlimited), not "give a goal"; the JSON marks it unlimited.
func TestRecommendUnlimitedStallGoal(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-stall-us", "18446744073709551615"}, "goal: worst wake stall <= unlimited\n"},
		{[]string{"--max-stall-us", "18446744073709551615", "--cpu-wake-us", "10"}, "goal: worst wake stall <= unlimited (stall goal;"},
		{[]string{"--max-stall-us", "18446744073709551615", "--exit-factor", "0.5,ps4=0.7"}, "goal: worst wake stall <= unlimited with a factor per state"},
		{[]string{"--max-stall-us", "18446744073709551615", "--bar-state", "4"}, "goal: worst wake stall <= unlimited, bar ps4\n"},
	} {
		code, out, errOut := apstctl(t, nil, append([]string{"recommend", evoImage}, tc.args...)...)
		assert.Equal(t, exitOK, code, errOut)
		assert.Contains(t, out, tc.want, "%q", tc.args)
	}
	var v struct {
		MaxStallUS        *uint64 `json:"max_stall_us"`
		MaxStallUnlimited *bool   `json:"max_stall_unlimited"`
	}
	code, out, errOut := apstctl(t, nil, "recommend", evoImage, "--max-stall-us", "18446744073709551615", "-o", "json")
	require.Equal(t, exitOK, code, errOut)
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	require.NotNil(t, v.MaxStallUS)
	assert.Equal(t, uint64(math.MaxUint64), *v.MaxStallUS)
	require.NotNil(t, v.MaxStallUnlimited)
	assert.True(t, *v.MaxStallUnlimited)

	code, out, errOut = apstctl(t, nil, "recommend", evoImage, "--max-stall", "25ms", "-o", "json")
	require.Equal(t, exitOK, code, errOut)
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	assert.Equal(t, uint64(25000), *v.MaxStallUS)
	assert.False(t, *v.MaxStallUnlimited)
}

// diagnose --log --id-ctrl warns that a capture carries no PCI ID and says
// which flag settles it: diagnose takes that --pci-id, beside --id-ctrl
// only, and then warns no more.
func TestDiagnosePCIID(t *testing.T) {
	const log = "../../apst/diagnose/testdata/apst.log"
	adata := corpusDir + "/smartctl/ADATA_AGAMMIXS70B-1T-CS_3.2.F.2A.txt"
	for _, tc := range []struct {
		name    string
		args    []string
		code    int
		want    string // in standard output, or in standard error when code is not exitOK
		notWant string
	}{
		{"inferred, settled", []string{"--id-ctrl", intelImage, "--pci-id", "8086:f1a5"}, exitOK, "note: a pasted log", "warning: the capture carries no PCI ID"},
		{"unchecked, settled", []string{"--id-ctrl", adata, "--pci-id", "1cc1:8201"}, exitOK, "quirks the model's tables give (no-deepest-ps)", "PCI quirks unchecked"},
		{"unchecked, another ID", []string{"--id-ctrl", adata, "--pci-id", "1cc1:5766"}, exitOK, "quirks the model's tables give (none)", "PCI quirks unchecked"},
		{"unsettled: says the flag", []string{"--id-ctrl", intelImage}, exitOK, "(give --pci-id to override)", ""},
		{"without --id-ctrl", []string{"--pci-id", "8086:f1a5"}, exitUsage, "apstctl diagnose: --pci-id goes with --id-ctrl", ""},
		{"invalid", []string{"--id-ctrl", intelImage, "--pci-id", "zz"}, exitUsage, "apstctl diagnose: --pci-id zz: ", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := apstctl(t, nil, append([]string{"diagnose", "--log", log}, tc.args...)...)
			assert.Equal(t, tc.code, code, errOut)
			if tc.code == exitOK {
				assert.Contains(t, out, tc.want)
			} else {
				assert.Contains(t, errOut, tc.want)
			}
			if tc.notWant != "" {
				assert.NotContains(t, out+errOut, tc.notWant)
			}
		})
	}
	// The JSON's assumptions say the same.
	code, out, errOut := apstctl(t, nil, "diagnose", "--log", log, "--id-ctrl", intelImage, "--pci-id", "8086:f1a5", "-o", "json")
	require.Equal(t, exitOK, code, errOut)
	var v struct {
		Assumptions struct {
			PCIIDInferred *json.RawMessage `json:"pci_id_inferred"`
		} `json:"assumptions"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	assert.Nil(t, v.Assumptions.PCIIDInferred)
}

// Standard input holds one file: a command line that names it twice is
// refused naming both, as check and replay refuse it, instead of the second
// read meeting an empty input ("the capture is empty").
func TestStandardInputNamedTwice(t *testing.T) {
	const rules = "testdata/persist/evo-family.rules"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"persist", "--check", "-", "-"}, "apstctl persist: --check - and CAPTURE - both name standard input"},
		{[]string{"persist", "--check", rules, "-", "-"}, "apstctl persist: CAPTURE - and CAPTURE - both name standard input"},
		{[]string{"persist", "--from", "-", "-"}, "apstctl persist: --from - and CAPTURE - both name standard input"},
		{[]string{"diagnose", "--log", "-", "--id-ctrl", "-"}, "apstctl diagnose: --log - and --id-ctrl - both name standard input"},
	} {
		code, out, errOut := apstctl(t, []byte("x"), tc.args...)
		assert.Equal(t, exitUsage, code, "%q", tc.args)
		assert.Empty(t, out)
		assert.Contains(t, errOut, tc.want)
	}
	// Once is read.
	rulesText, err := os.ReadFile(rules)
	require.NoError(t, err)
	code, out, errOut := apstctl(t, rulesText, "persist", "--check", "-", evoImage)
	assert.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "reached by the rule of line 3")
}

// persist --check gives each drive the bound of the setting checked (the
// default where it does not reach), and reads the drives of --root or of
// this machine with their own kernel, quirks and PCI ID: a bound flag, and
// without a CAPTURE any plan flag, would change nothing and is refused.
func TestPersistCheckRefusesIgnoredPlanFlags(t *testing.T) {
	const rules = "testdata/persist/evo-family.rules"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--root", bundleDir, "--kernel", "5.10"}, "--kernel applies to a CAPTURE's plan: with --check and no CAPTURE"},
		{[]string{"--root", bundleDir, "--quirks", "none"}, "--quirks applies to a CAPTURE's plan"},
		{[]string{"--root", bundleDir, "--pci-id", "144d:a80d"}, "--pci-id applies to a CAPTURE's plan"},
		{[]string{"--root", bundleDir, "--force-apst"}, "--force-apst applies to a CAPTURE's plan"},
		{[]string{"--root", bundleDir, "--apst-primary-timeout-ms", "5"}, "--apst-primary-timeout-ms applies to a CAPTURE's plan"},
		{[]string{"--root", bundleDir, "--ps-max-latency-us", "5"}, "--ps-max-latency-us does not go with --check: the setting checked gives each drive its bound"},
		{[]string{evoImage, "--pm-qos", "5000"}, "--pm-qos does not go with --check"},
		{[]string{evoImage, "--default-ps-max-latency-us", "5000"}, "--default-ps-max-latency-us does not go with --check"},
	} {
		code, out, errOut := apstctl(t, nil, append([]string{"persist", "--check", rules}, tc.args...)...)
		assert.Equal(t, exitUsage, code, "%q", tc.args)
		assert.Empty(t, out)
		assert.Contains(t, errOut, "apstctl persist: "+tc.want)
	}
	// A plan flag with a CAPTURE plans it.
	code, _, errOut := apstctl(t, nil, "persist", "--check", rules, evoImage, "--root", bundleDir, "--kernel", "5.10")
	assert.Equal(t, exitOK, code, errOut)
}

// --format is the alias of -o, --output-format on every command that
// prints, convert too (whose -o is --to): the same bytes, and a second
// spelling with another value is a contradiction.
func TestConvertFormatAlias(t *testing.T) {
	var outs []string
	for _, spelling := range [][]string{{"--to", "json"}, {"-o", "json"}, {"-ojson"}, {"--output-format", "json"}, {"--format", "json"}, {"--format=nvme-cli-json"}} {
		code, out, errOut := apstctl(t, nil, append([]string{"convert", evoImage}, spelling...)...)
		require.Equal(t, exitOK, code, "%q: %s", spelling, errOut)
		outs = append(outs, out)
	}
	for _, out := range outs[1:] {
		assert.Equal(t, outs[0], out)
	}
	code, _, errOut := apstctl(t, nil, "convert", evoImage, "--format", "json", "--to", "binary")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "--format json and --to binary contradict each other")
}

// A boolean flag given a value that is no boolean says what it wants, as
// --help=x does, not package flag's "parse error".
func TestBoolFlagValue(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"plan", evoImage, "--force-apst=maybe"}, "apstctl plan: --force-apst=maybe: want true or false"},
		{[]string{"survey", corpusDir, "--summary=2x"}, "apstctl survey: --summary=2x: want true or false"},
		{[]string{"survey", corpusDir, "--kernel-quirks="}, `apstctl survey: --kernel-quirks="": want true or false`},
		{[]string{"measure", "--simulate", evoImage, "--trials-detail=on"}, "apstctl measure: --trials-detail=on: want true or false"},
	} {
		code, out, errOut := apstctl(t, nil, tc.args...)
		assert.Equal(t, exitUsage, code)
		assert.Empty(t, out)
		assert.Contains(t, errOut, tc.want)
		assert.NotContains(t, errOut, "parse error")
	}
}

// survey --svg and measure --factor-out write a file beside the report:
// "-" and /dev/stdout (standard output, where the report goes) and a format
// name are refused, as --output and --persist-rules refuse them, instead
// of creating a file called "-" or "json" in the working directory.
func TestSideFilesRefuseStdoutAndFormatNames(t *testing.T) {
	evo, err := filepath.Abs(evoImage)
	require.NoError(t, err)
	dir := t.TempDir()
	t.Chdir(dir)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"survey", evo, "--svg", "-"}, "apstctl survey: --svg -: the report goes to standard output; give a file for --svg"},
		{[]string{"survey", evo, "--svg", "/dev/stdout"}, "apstctl survey: --svg /dev/stdout: the report goes to standard output"},
		{[]string{"survey", evo, "--svg", "json"}, "apstctl survey: --svg json: this names a format, not a file"},
		{[]string{"measure", "--simulate", evo, "--trials", "2", "--factor-out", "-"}, "apstctl measure: --factor-out -: the report goes to standard output"},
		{[]string{"measure", "--simulate", evo, "--trials", "2", "--factor-out", "csv"}, "apstctl measure: --factor-out csv: this names a format, not a file"},
		{[]string{"measure", "--simulate", evo, "--trials", "2", "--factor-out", "/dev/null"}, "apstctl measure: --factor-out: /dev/null is a character device, not a regular file"},
	} {
		code, out, errOut := apstctl(t, nil, tc.args...)
		assert.Equal(t, exitUsage, code, "%q: %s", tc.args, errOut)
		assert.Empty(t, out)
		assert.Contains(t, errOut, tc.want)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing written in the working directory")
}

// Two flags that write files (--output, --svg, --persist-rules,
// --factor-out) naming one file would replace each other: refused before
// the command runs, naming both. A file that exists and is not a regular
// file is refused before the command runs too (a live measure takes
// minutes, and its report was lost when --factor-out failed after it).
func TestWrittenFilesCheckedBeforeTheRun(t *testing.T) {
	evo, err := filepath.Abs(evoImage)
	require.NoError(t, err)
	capture, err := filepath.Abs(corpusDir + "/smartctl/Samsung_SSD_990_EVO_Plus_1TB_2B2QKXG7.txt")
	require.NoError(t, err)
	dir := t.TempDir()
	t.Chdir(dir)
	require.NoError(t, os.WriteFile("kept", []byte("old"), 0o644))
	require.NoError(t, os.Symlink("kept", "link"))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"survey", capture, "--svg", "out", "--output", "out"}, "apstctl survey: --svg out and --output out name the same file"},
		{[]string{"survey", capture, "--svg", "out", "--output", "./out"}, "apstctl survey: --svg out and --output ./out name the same file"},
		{[]string{"survey", capture, "--persist", "stall=25ms", "--persist-rules", dir + "/out", "--output", "out"}, "--persist-rules " + dir + "/out and --output out name the same file"},
		{[]string{"survey", capture, "--svg", "link", "--output", "kept"}, "apstctl survey: --svg link and --output kept name the same file"},
		{[]string{"measure", "--simulate", evo, "--trials", "2", "--factor-out", "out", "--output", "out"}, "apstctl measure: --factor-out out and --output out name the same file"},
		{[]string{"measure", "--simulate", evo, "--trials", "2", "--factor-out", dir}, "apstctl measure: --factor-out: " + dir + " is a directory, not a regular file"},
	} {
		code, out, errOut := apstctl(t, nil, tc.args...)
		assert.Equal(t, exitUsage, code, "%q: %s", tc.args, errOut)
		assert.Empty(t, out)
		assert.Contains(t, errOut, tc.want)
		assert.NotContains(t, errOut, "simulated pm_qos_latency_tolerance_us", "refused before the run")
	}
	b, err := os.ReadFile("kept")
	require.NoError(t, err)
	assert.Equal(t, "old", string(b))
	_, err = os.Stat("out")
	assert.True(t, os.IsNotExist(err), "nothing written")

	// Two files: both written.
	code, _, errOut := apstctl(t, nil, "survey", capture, "--svg", "plot.svg", "--output", "report.txt")
	require.Equal(t, exitOK, code, errOut)
	for _, f := range []string{"plot.svg", "report.txt"} {
		_, err := os.Stat(f)
		assert.NoError(t, err)
	}
}

// What the reader of a capture noted ("read as 5 states: a paste cut after
// a whole row would look the same", a quoted-printable body decoded) can
// change every answer on it: each command that reads a capture says it in
// its text, as plan does, and lists it in the JSON's capture_notes.
func TestCaptureNotesInEveryCommand(t *testing.T) {
	const cut = "../../testdata/forms/evo.smartctl.table-only.txt"
	const qp = "../../testdata/forms/evo.nvme-cli-v2_12.qp.txt"
	const trace = "testdata/replay/writeback.blkparse"
	for _, tc := range []struct {
		args []string
		note string
	}{
		{[]string{"plan", cut}, "the power state table runs to the end of the capture"},
		{[]string{"plan", cut, "--kernel", "4.10"}, "the power state table runs to the end of the capture"},
		{[]string{"check", cut, feature100}, "the power state table runs to the end of the capture"},
		{[]string{"sweep", cut}, "the power state table runs to the end of the capture"},
		{[]string{"compare", cut, "--with", "ps-max-latency-us=25000"}, "the power state table runs to the end of the capture"},
		{[]string{"simulate", cut, "--gap", "1s"}, "the power state table runs to the end of the capture"},
		{[]string{"recommend", cut, "--max-stall", "25ms"}, "the power state table runs to the end of the capture"},
		{[]string{"replay", cut, trace}, "the power state table runs to the end of the capture"},
		{[]string{"measure", "--simulate", cut, "--trials", "2"}, "the power state table runs to the end of the capture"},
		{[]string{"persist", qp, "--bound", "25000"}, "the capture was quoted-printable"},
	} {
		t.Run(tc.args[0], func(t *testing.T) {
			code, out, errOut := apstctl(t, nil, tc.args...)
			require.Contains(t, []int{exitOK, exitFailure}, code, errOut)
			assert.Contains(t, out, "note: capture: ")
			assert.Contains(t, out, tc.note)

			code, out, errOut = apstctl(t, nil, append(tc.args, "-o", "json")...)
			require.Contains(t, []int{exitOK, exitFailure}, code, errOut)
			var v struct {
				CaptureNotes []string `json:"capture_notes"`
			}
			require.NoError(t, json.Unmarshal([]byte(out), &v))
			require.Len(t, v.CaptureNotes, 1)
			assert.Contains(t, v.CaptureNotes[0], tc.note)
		})
	}
	code, out, errOut := apstctl(t, nil, "diagnose", "--log", "../../apst/diagnose/testdata/apst.log", "--id-ctrl", qp)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "note: capture: the capture was quoted-printable")
}

// persist without a CAPTURE uses --pci-id only to key a --scope pci rule:
// beside another scope it would change nothing, and is refused.
func TestPersistPCIIDWithoutItsScope(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--bound", "25000", "--pci-id", "144d:a80d"}, "--pci-id goes with --scope pci (or a CAPTURE, whose quirks it settles): the all scope would not use it"},
		{[]string{"--bound", "25000", "--pci-id", "144d:a80d", "--model", "Samsung*"}, "the model scope would not use it"},
		{[]string{"--ac", "1000", "--battery", "25000", "--pci-id", "144d:a80d"}, "the all scope would not use it"},
	} {
		code, out, errOut := apstctl(t, nil, append([]string{"persist"}, tc.args...)...)
		assert.Equal(t, exitUsage, code, "%q", tc.args)
		assert.Empty(t, out)
		assert.Contains(t, errOut, "apstctl persist: --pci-id goes with --scope pci")
		assert.Contains(t, errOut, tc.want)
	}
	for _, args := range [][]string{
		{"--bound", "25000", "--pci-id", "144d:a80d", "--scope", "pci"},
		{"--bound", "25000", "--pci-id", "144d:a80d", evoImage},
	} {
		code, _, errOut := apstctl(t, nil, append([]string{"persist"}, args...)...)
		assert.Equal(t, exitOK, code, "%q: %s", args, errOut)
	}
}

// measure --seed draws the random offsets of a live drive (and a simulated
// drive's noise): with --offsets fixed on a live drive it would change
// nothing, and is refused before anything is read or written.
func TestMeasureSeedWithFixedOffsets(t *testing.T) {
	code, out, errOut := apstctl(t, nil, "measure", "nvme999n1", "--offsets", "fixed", "--offset", "4096", "--seed", "5") // no such drive, should it get that far
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "apstctl measure: --seed draws the random offsets: with --offsets fixed on a live drive it would be ignored")
	// Simulated, the seed draws the noise.
	code, _, errOut = apstctl(t, nil, "measure", "--simulate", evoImage, "--trials", "2", "--offsets", "fixed", "--seed", "5")
	assert.Equal(t, exitOK, code, errOut)
}

// survey --merge refuses what its shards decide, naming the flag given and
// --merge, as every contradiction is said.
func TestSurveyMergeNamesTheFlag(t *testing.T) {
	shard := filepath.Join(t.TempDir(), "shard.json")
	code, out, errOut := apstctl(t, nil, "survey", corpusDir+"/smartctl/Samsung_SSD_990_EVO_Plus_1TB_2B2QKXG7.txt", "-o", "json")
	require.Equal(t, exitOK, code, errOut)
	require.NoError(t, os.WriteFile(shard, []byte(out), 0o644))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--svg", filepath.Join(t.TempDir(), "p.svg")}, "--svg and --merge contradict each other"},
		{[]string{"--format", "csv"}, "--output-format csv and --merge contradict each other"},
		{[]string{"--with", "ps-max-latency-us=1"}, "--with and --merge contradict each other"},
		{[]string{"--full", "-o", "json"}, "--full and --merge contradict each other"},
	} {
		code, out, errOut := apstctl(t, nil, append([]string{"survey", "--merge", shard}, tc.args...)...)
		assert.Equal(t, exitUsage, code, "%q", tc.args)
		assert.Empty(t, out)
		assert.Contains(t, errOut, "apstctl survey: "+tc.want)
	}
	code, _, errOut = apstctl(t, nil, "survey", "--merge", shard, "--full=false")
	assert.Equal(t, exitOK, code, errOut)
}

// A stall budget every drive meets at any bound gives the bound 2^64-1:
// survey's stall_budget marks it, as every u64 that can be unlimited is
// marked, so that a reader in doubles does not take 18446744073709551616.
func TestSurveyStallBudgetUnlimitedMarkers(t *testing.T) {
	capture := corpusDir + "/smartctl/Samsung_SSD_990_EVO_Plus_1TB_2B2QKXG7.txt"
	type budget struct {
		BudgetUnlimited *bool  `json:"budget_unlimited"`
		BoundUS         uint64 `json:"bound_us"`
		BoundUnlimited  *bool  `json:"bound_unlimited"`
		Acceptable      []struct {
			MaxUS        uint64 `json:"max_us"`
			MaxUnlimited *bool  `json:"max_unlimited"`
		} `json:"acceptable"`
	}
	read := func(b string) budget {
		code, out, errOut := apstctl(t, nil, "survey", "--summary", "--stall-budget", b, capture, "-o", "json")
		require.Equal(t, exitOK, code, errOut)
		var v struct {
			Summary struct {
				StallBudget budget `json:"stall_budget"`
			} `json:"summary"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &v))
		return v.Summary.StallBudget
	}
	for _, tc := range []struct {
		budget    string
		unlimited bool
	}{{"1s", true}, {"25ms", false}, {"18446744073709551615", true}} {
		b := read(tc.budget)
		require.NotNil(t, b.BoundUnlimited, tc.budget)
		assert.Equal(t, tc.unlimited, *b.BoundUnlimited, tc.budget)
		assert.Equal(t, tc.unlimited, b.BoundUS == math.MaxUint64, tc.budget)
		require.NotEmpty(t, b.Acceptable)
		last := b.Acceptable[len(b.Acceptable)-1]
		require.NotNil(t, last.MaxUnlimited)
		assert.Equal(t, last.MaxUS == math.MaxUint64, *last.MaxUnlimited)
		require.NotNil(t, b.BudgetUnlimited)
		assert.Equal(t, tc.budget == "18446744073709551615", *b.BudgetUnlimited)
	}
}
