package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dialectCase is one command of the table as the dialect test runs it: a
// command line that succeeds, a flag that does nothing for it (or that it
// does not have) and a contradictory pair, each with the words of the
// refusal.
type dialectCase struct {
	// args is a command line (after the command's name) that succeeds;
	// BUNDLE-COPY stands for a copy of testdata/bundle made once for the
	// command (its runs all write the same value), NEW-DIR for a directory
	// that does not exist yet.
	args []string
	// ignored is a flag (with its value) that does nothing here, and what
	// the refusal says.
	ignored []string
	ignMsg  string
	// contradiction is a pair of flags that cannot both hold, and what the
	// refusal says.
	contradiction []string
	contraMsg     string
	// noReport: the command prints no report (no -o, no --output).
	noReport bool
	// bare, when set, is args without the format flag, for -ojson and the
	// contradiction (convert, whose -o is --to).
	bare []string
	// ownOutput: --output is the command's own file, not its report
	// (persist writes the one form's file there and still prints).
	ownOutput bool
}

// dialectCases holds every command of the table: a command without a case
// fails the test, so that a new command is held to the dialect too.
var dialectCases = map[string]dialectCase{
	"plan": {args: []string{evoRoot}, ignored: []string{"--gap", "1s"}, ignMsg: "unknown flag --gap",
		contradiction: []string{"--kernel", "v4.11", "--force-apst"}, contraMsg: "--kernel v4.11 and --force-apst contradict each other"},
	"check": {args: []string{evoRoot, "examples/apstctl/" + feature100}, ignored: []string{"--with", "kernel=v4.12"}, ignMsg: "unknown flag --with",
		contradiction: []string{"--pm-qos", "auto", "--ps-max-latency-us", "5"}, contraMsg: "contradict each other"},
	"sweep": {args: []string{evoRoot}, ignored: []string{"--ps-max-latency-us", "25000"}, ignMsg: "--ps-max-latency-us does nothing for sweep: the sweep covers every bound",
		contradiction: []string{"-o", "json", "--output-format", "normal"}, contraMsg: "-o json and --output-format normal contradict each other"},
	"compare": {args: []string{evoRoot, "--with", "ps-max-latency-us=25000"}, ignored: []string{"--gap", "1s"}, ignMsg: "unknown flag --gap",
		contradiction: []string{"--kernel", "v4.11", "--force-apst"}, contraMsg: "contradict each other"},
	"simulate": {args: []string{evoRoot, "--gap", "3s"}, ignored: []string{"--with", "kernel=v4.12"}, ignMsg: "unknown flag --with",
		contradiction: []string{"--count", "10", "--count", "20"}, contraMsg: "--count 10 and --count 20 contradict each other"},
	"recommend": {args: []string{evoRoot, "--max-stall", "25ms"}, ignored: []string{"--gap", "1s"}, ignMsg: "unknown flag --gap",
		contradiction: []string{"--max-stall", "25ms", "--max-stall-us", "1"}, contraMsg: "contradict each other"},
	"survey": {args: []string{"testdata/corpus/smartctl/Samsung_SSD_990_EVO_Plus_1TB_2B2QKXG7.txt"}, ignored: []string{"--full"}, ignMsg: "--full does nothing for --output-format text",
		contradiction: []string{"--summary", "-o", "csv"}, contraMsg: "--summary and --output-format csv contradict each other"},
	"measure": {args: []string{"--simulate", evoRoot, "--trials", "2"}, ignored: []string{"--trials-detail"}, ignMsg: "--trials-detail does nothing for text output",
		contradiction: []string{"--seed", "1", "--seed", "2"}, contraMsg: "--seed 1 and --seed 2 contradict each other"},
	"replay": {args: []string{evoRoot, "examples/apstctl/testdata/replay/writeback.blkparse"}, ignored: []string{"--gap", "1s"}, ignMsg: "unknown flag --gap",
		contradiction: []string{"--device", "259,0", "--disk", "nvme0n1"}, contraMsg: "--device and --disk contradict each other"},
	"decode": {args: []string{"examples/apstctl/" + feature100}, ignored: []string{"--kernel", "6.8"}, ignMsg: "unknown flag --kernel",
		contradiction: []string{"-o", "json", "-o", "normal"}, contraMsg: "contradict each other"},
	"convert": {args: []string{"--to", "nvme-cli-text", evoRoot}, bare: []string{evoRoot}, ignored: []string{"--kernel", "6.8"}, ignMsg: "unknown flag --kernel",
		contradiction: []string{"--to", "binary", "-o", "json"}, contraMsg: "--to binary and -o json contradict each other"},
	"inspect": {args: []string{"--root", "testdata/bundle"}, ignored: []string{"--kernel", "6.8"}, ignMsg: "unknown flag --kernel",
		contradiction: []string{"--root", "a", "--root", "b"}, contraMsg: "contradict each other"},
	"metrics": {args: []string{"--root", "testdata/bundle"}, ignored: []string{"--kernel", "6.8"}, ignMsg: "unknown flag --kernel",
		contradiction: []string{"--textfile-dir", "a", "--listen", "localhost:1"}, contraMsg: "--textfile-dir and --listen contradict each other"},
	"collect": {args: []string{"--root", "testdata/bundle", "NEW-DIR"}, ignored: []string{"--kernel", "6.8"}, ignMsg: "unknown flag --kernel",
		contradiction: []string{"-o", "json", "--format", "normal"}, contraMsg: "contradict each other"},
	"set-latency": {args: []string{"--root", "BUNDLE-COPY", "nvme2", "100000"}, ignored: []string{"--kernel", "6.8"}, ignMsg: "unknown flag --kernel",
		contradiction: []string{"--root", "a", "--root", "b"}, contraMsg: "contradict each other"},
	"set-cpu-latency": {args: []string{"--root", "BUNDLE-COPY", "nvme0n1", "200"}, ignored: []string{"--kernel", "6.8"}, ignMsg: "unknown flag --kernel",
		contradiction: []string{"--timeout-ms", "1", "--timeout-ms", "2"}, contraMsg: "contradict each other"},
	"persist": {args: []string{"--bound", "25000", "--form", "modprobe"}, ownOutput: true, ignored: []string{"--gap", "1s"}, ignMsg: "unknown flag --gap",
		contradiction: []string{"--bound", "25000", "--bound", "100000"}, contraMsg: "contradict each other"},
	"diagnose": {args: []string{"--log", "apst/diagnose/testdata/aspm.log"}, ignored: []string{"--kernel", "6.8"}, ignMsg: "unknown flag --kernel",
		contradiction: []string{"--log", "a", "--log", "b"}, contraMsg: "contradict each other"},
	"version": {args: nil, ignored: []string{"--kernel", "6.8"}, ignMsg: "unknown flag --kernel",
		contradiction: []string{"-o", "json", "-o", "normal"}, contraMsg: "contradict each other"},
	"completion": {args: []string{"bash"}, noReport: true, ignored: []string{"-o", "json"}, ignMsg: "unknown flag -o"},
	"help":       {args: []string{"plan"}, noReport: true, ignored: []string{"-o", "json"}, ignMsg: "unknown flag -o"},
}

// evoRoot is the 990 EVO Plus capture from the top of the repository.
const evoRoot = "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin"

// Every command speaks one dialect: --output FILE writes the report to FILE
// (nothing on standard output), -ojson and -o=json are -o json, a flag that
// does nothing is refused with the reason, and a contradictory pair is
// refused naming both, each refusal a usage error (exit 2) that quotes the
// flags as given.
func TestDialect(t *testing.T) {
	inRepoRoot(t)
	outer := t // the copies of testdata/bundle live as long as the test
	for _, c := range commands() {
		tc, ok := dialectCases[c.name]
		if !assert.True(t, ok, "command %s has no case in dialectCases", c.name) {
			continue
		}
		bundle := "" // the command's copy of testdata/bundle, made at its first use
		line := func(t *testing.T, extra ...string) []string {
			args := append([]string{c.name}, tc.args...)
			if tc.bare != nil && len(extra) > 0 && extra[0] != "--output" {
				args = append([]string{c.name}, tc.bare...)
			}
			for i, a := range args {
				switch a {
				case "BUNDLE-COPY":
					if bundle == "" {
						bundle = filepath.Join(outer.TempDir(), "bundle")
						require.NoError(t, os.CopyFS(bundle, os.DirFS("testdata/bundle")))
					}
					args[i] = bundle
				case "NEW-DIR":
					args[i] = filepath.Join(t.TempDir(), "new")
				}
			}
			return append(args, extra...)
		}
		t.Run(c.name, func(t *testing.T) {
			code, plain, errOut := apstctl(t, nil, line(t)...)
			require.Equal(t, exitOK, code, "%s: %s", c.name, errOut)

			t.Run("output", func(t *testing.T) {
				file := filepath.Join(t.TempDir(), "report")
				code, out, errOut := apstctl(t, nil, line(t, "--output", file)...)
				if tc.noReport {
					assert.Equal(t, exitUsage, code)
					assert.Contains(t, errOut, "unknown flag --output")
					return
				}
				require.Equal(t, exitOK, code, errOut)
				b, err := os.ReadFile(file)
				require.NoError(t, err)
				assert.NotEmpty(t, b)
				if tc.ownOutput {
					return
				}
				assert.Empty(t, out, "the report went to the file")
				if c.name != "collect" && c.name != "set-latency" && c.name != "set-cpu-latency" {
					assert.Equal(t, plain, string(b), "the file holds what standard output would")
				}
				code, _, errOut = apstctl(t, nil, line(t, "--output", "json")...)
				assert.Equal(t, exitUsage, code)
				assert.Contains(t, errOut, "names a format, not a file")
			})
			t.Run("ojson", func(t *testing.T) {
				for _, form := range [][]string{{"-ojson"}, {"-o=json"}, {"-o", "json"}} {
					code, out, errOut := apstctl(t, nil, line(t, form...)...)
					if tc.noReport {
						assert.Equal(t, exitUsage, code, "%q", form)
						assert.Contains(t, errOut, "unknown flag -o", "%q", form)
						continue
					}
					require.Equal(t, exitOK, code, "%q: %s", form, errOut)
					assert.True(t, json.Valid([]byte(out)), "%q: not JSON:\n%s", form, out)
				}
			})
			t.Run("ignored", func(t *testing.T) {
				code, out, errOut := apstctl(t, nil, line(t, tc.ignored...)...)
				assert.Equal(t, exitUsage, code, errOut)
				assert.Empty(t, out)
				assert.Contains(t, errOut, tc.ignMsg)
				assert.Contains(t, errOut, "see 'apstctl "+c.name+" --help'")
			})
			t.Run("contradiction", func(t *testing.T) {
				if tc.contradiction == nil {
					t.Skip(c.name + " has a single flag at most: nothing can contradict it")
				}
				code, out, errOut := apstctl(t, nil, line(t, tc.contradiction...)...)
				assert.Equal(t, exitUsage, code, errOut)
				assert.Empty(t, out)
				assert.Contains(t, errOut, tc.contraMsg)
			})
		})
	}
}

// A flag is quoted as it was given: -kernal stays -kernal.
func TestFlagQuotedAsGiven(t *testing.T) {
	for _, spelt := range []string{"-kernal", "--kernal"} {
		code, _, errOut := apstctl(t, nil, "plan", evoImage, spelt, "6.8")
		assert.Equal(t, exitUsage, code)
		assert.Contains(t, errOut, "unknown flag "+spelt+" (did you mean --kernel?)")
	}
	code, _, errOut := apstctl(t, nil, "plan", evoImage, "-output-format", "yaml")
	assert.Equal(t, exitUsage, code)
	assert.True(t, strings.HasPrefix(errOut, "apstctl plan: -output-format yaml: want normal or json\n"), errOut)
}

// A flag given twice with two spellings of one value (-o text and -o
// normal, -o json and -ojson, --force-apst and --force-apst=1) is no
// contradiction; two values are, however spelt.
func TestFlagGivenTwiceSpelledTwoWays(t *testing.T) {
	_, plain, _ := apstctl(t, nil, "plan", evoImage)
	for _, args := range [][]string{
		{"-o", "text", "-o", "normal"},
		{"--output-format=normal", "--format", "text"},
		{"--force-apst=false", "--force-apst=0"},
	} {
		code, out, errOut := apstctl(t, nil, append([]string{"plan", evoImage}, args...)...)
		assert.Equal(t, exitOK, code, "%q: %s", args, errOut)
		assert.Equal(t, plain, out, "%q", args)
	}
	code, out, errOut := apstctl(t, nil, "plan", evoImage, "-o", "json", "-ojson", "--force-apst", "--force-apst=true")
	assert.Equal(t, exitOK, code, errOut)
	assert.True(t, strings.HasPrefix(out, "{"), out)
	for args, msg := range map[string]string{
		"-o json -o text":                 "-o json and -o text contradict each other",
		"--force-apst --force-apst=false": "--force-apst=true and --force-apst=false contradict each other",
		"--force-apst=1 --force-apst=f":   "--force-apst=1 and --force-apst=f contradict each other",
	} {
		code, _, errOut := apstctl(t, nil, append([]string{"plan", evoImage}, strings.Fields(args)...)...)
		assert.Equal(t, exitUsage, code, args)
		assert.Contains(t, errOut, msg, args)
	}
}

// A setting given to diagnose as tried twice with two outcomes, in one
// --tried or in two, is a contradiction; the same outcome twice is not.
func TestDiagnoseTriedContradiction(t *testing.T) {
	inRepoRoot(t)
	log := "apst/diagnose/testdata/aspm.log"
	for _, args := range [][]string{
		{"--tried", "pcie_aspm=off:helped,pcie_aspm=off"},
		{"--tried", "pcie_aspm=off:helped", "--tried", "pcie_aspm=off:no"},
		// A line copied whole against a typed setting.
		{"--tried", `GRUB_CMDLINE_LINUX_DEFAULT="quiet pcie_aspm=off":helped`, "--tried", "pcie_aspm=off:no"},
	} {
		code, _, errOut := apstctl(t, nil, append([]string{"diagnose", "--log", log}, args...)...)
		assert.Equal(t, exitUsage, code, "%q", args)
		assert.Contains(t, errOut, "pcie_aspm=off (helped) and pcie_aspm=off (did not help) contradict each other", "%q", args)
	}
	code, _, errOut := apstctl(t, nil, "diagnose", "--log", log, "--tried", "pcie_aspm=off", "--tried", "pcie_aspm=off:no")
	assert.Equal(t, exitOK, code, errOut)
}

// diagnose --tried reads a line copied whole from modprobe.d as the
// module parameter it sets, listed as tried; before, it was read as the
// settings "options" and "nvme_core" and APST off was asked for again.
func TestDiagnoseTriedCopiedLine(t *testing.T) {
	inRepoRoot(t)
	code, out, errOut := apstctl(t, nil, "diagnose", "--log", "apst/diagnose/testdata/aspm.log", "--tried", "options nvme_core default_ps_max_latency_us=0")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "tried: nvme_core.default_ps_max_latency_us=0 (did not help)\n")
	assert.NotContains(t, out, "$ add nvme_core.default_ps_max_latency_us=0")
}
