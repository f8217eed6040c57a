package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden")

// goldenCases are command lines (run from the repository's top directory,
// as the README writes them) whose standard output is kept in
// testdata/golden/NAME: the text and JSON views of every command on the
// fixtures. Regenerate with go test ./examples/apstctl -update, and read
// the diff.
var goldenCases = []struct {
	name string
	args []string
	code int
}{
	{"demo.txt", nil, 0},
	{"help.txt", []string{"help"}, 0},
	{"diagnose-aspm.txt", []string{"diagnose", "--log", "apst/diagnose/testdata/aspm.log"}, 0},
	{"diagnose-apst.txt", []string{"diagnose", "--log", "apst/diagnose/testdata/apst.log", "--id-ctrl", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin"}, 0},
	{"diagnose-apst.json", []string{"diagnose", "--log", "apst/diagnose/testdata/apst.log", "--id-ctrl", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "-o", "json"}, 0},
	{"diagnose-root.txt", []string{"diagnose", "--root", "sysfs/testdata/laptop-tlp", "--log", "apst/diagnose/testdata/aspm.log"}, 0},
	// A file system's I/O errors alone (linux-nvme
	// <CABXGCsMiKe31UaoMV02gW4iJSKnBiO5jGQKej=Zem24mD0ObQw@mail.gmail.com>,
	// its btrfs lines): what is missing, and the lines quoted.
	{"diagnose-filesystem-only.txt", []string{"diagnose", "--log", "apst/diagnose/testdata/filesystem-only.log"}, 0},
	{"diagnose-filesystem-only.json", []string{"diagnose", "--log", "apst/diagnose/testdata/filesystem-only.log", "-o", "json"}, 0},
	// An NVMe drive in a USB enclosure on a Pi 4, its uas resets
	// (home-assistant/operating-system#796, posted f-15): no failure of
	// an NVMe drive, the disk and its transport named, the lines quoted.
	{"diagnose-usb-enclosure.txt", []string{"diagnose", "--log", "apst/diagnose/testdata/usb-enclosure.log"}, 0},
	{"diagnose-usb-enclosure.json", []string{"diagnose", "--log", "apst/diagnose/testdata/usb-enclosure.log", "-o", "json"}, 0},
	{"diagnose-relayed-only.txt", []string{"diagnose", "--log", "apst/diagnose/testdata/relayed-only.log"}, 0},
	{"diagnose-relayed-only.json", []string{"diagnose", "--log", "apst/diagnose/testdata/relayed-only.log", "-o", "json"}, 0},
	{"inspect-laptop.txt", []string{"inspect", "--root", "sysfs/testdata/laptop-tlp"}, 0},
	{"diagnose-root.json", []string{"diagnose", "--root", "sysfs/testdata/laptop-tlp", "--log", "apst/diagnose/testdata/aspm.log", "-o", "json"}, 0},
	{"help-plan.txt", []string{"help", "plan"}, 0},
	{"plan-evo.txt", []string{"plan", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin"}, 0},
	{"plan-evo-25ms.txt", []string{"plan", "--ps-max-latency-us", "25000", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin"}, 0},
	{"plan-evo.json", []string{"plan", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "-o", "json"}, 0},
	{"plan-evo-unlimited.json", []string{"plan", "--ps-max-latency-us", "unlimited", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "-o", "json"}, 0},
	{"plan-intel.txt", []string{"plan", "testdata/identify/intel-ssdpekkw256g7-PSF109C.bin"}, 0},
	{"plan-intel.json", []string{"plan", "--format", "json", "testdata/identify/intel-ssdpekkw256g7-PSF109C.bin"}, 0},
	{"plan-intel-v4.12.txt", []string{"plan", "--kernel", "v4.12", "--pci-id", "8086:f1a5", "testdata/identify/intel-ssdpekkw256g7-PSF109C.bin"}, 0},
	{"plan-smartctl.txt", []string{"plan", "testdata/corpus/smartctl/Samsung_SSD_990_EVO_Plus_1TB_2B2QKXG7.txt"}, 0},
	{"plan-table-only.txt", []string{"plan", "testdata/forms/evo.smartctl.table-only.txt"}, 0},
	// An NVMe over Fabrics controller (Linux nvmet): APSTA 0, said to be
	// the target's.
	{"plan-fabrics.txt", []string{"plan", "testdata/fabrics/nvmet-loop.nvme-cli.txt"}, 0},
	{"plan-fabrics.json", []string{"plan", "-o", "json", "testdata/fabrics/nvmet-loop.bin"}, 0},
	{"plan-kernel-5.15.txt", []string{"plan", "--kernel", "5.15", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin"}, 0},
	{"sweep-evo.txt", []string{"sweep", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin"}, 0},
	{"sweep-evo.json", []string{"sweep", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "-o", "json"}, 0},
	{"sweep-intel-v4.12.txt", []string{"sweep", "--pci-id", "8086:f1a5", "--kernel", "v4.12", "testdata/identify/intel-ssdpekkw256g7-PSF109C.bin"}, 0},
	{"compare-evo.txt", []string{"compare", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "--with", "ps-max-latency-us=100000", "--with", "ps-max-latency-us=25000"}, 0},
	{"compare-evo.json", []string{"compare", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "--with", "ps-max-latency-us=100000", "--with", "ps-max-latency-us=25000", "-o", "json"}, 0},
	{"simulate-evo.txt", []string{"simulate", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "--gap", "3s", "--gaps", "exp:10s", "--exit-factor", "0.78", "--cpu-wake-us", "150"}, 0},
	{"simulate-evo.json", []string{"simulate", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "--gap", "3s", "--gaps", "50ms,1s,3s", "-o", "json"}, 0},
	{"recommend-evo.txt", []string{"recommend", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "--max-stall", "25ms"}, 0},
	{"recommend-evo-factor.txt", []string{"recommend", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "--max-stall", "4ms", "--exit-factor", "0.78", "--cpu-wake-us", "150"}, 0},
	{"recommend-evo.json", []string{"recommend", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "--max-stall", "25ms", "-o", "json"}, 0},
	{"recommend-pc401.txt", []string{"recommend", "--ps-max-latency-us", "5500", "testdata/corpus/binary/synthetic/SKhynix_PC401_NVMe_512GB_80003E00.id-ctrl.bin", "--bar-state", "ps4"}, 0},
	{"decode-text.txt", []string{"decode", "examples/apstctl/testdata/feature/samsung-990-evo-plus-100ms.txt"}, 0},
	{"decode-text.json", []string{"decode", "-o", "json", "examples/apstctl/testdata/feature/samsung-990-evo-plus-100ms.txt"}, 0},
	{"decode-partial.txt", []string{"decode", "testdata/forms/evo-feature.wiki-partial.txt"}, 0},
	{"decode-partial.json", []string{"decode", "-o", "json", "testdata/forms/evo-feature.wiki-partial.txt"}, 0},
	{"check-partial.txt", []string{"check", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "testdata/forms/evo-feature.wiki-partial.txt"}, 0},
	{"check-apste-only.txt", []string{"check", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "testdata/forms/evo-feature.blog-partial.txt"}, 1},
	{"decode-raw.txt", []string{"decode", "examples/apstctl/testdata/feature/samsung-990-evo-plus-100ms.raw"}, 0},
	{"decode-raw.json", []string{"decode", "examples/apstctl/testdata/feature/samsung-990-evo-plus-100ms.raw", "-o", "json"}, 0},
	{"convert-nvme-cli-text.txt", []string{"convert", "--to", "nvme-cli-text", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin"}, 0},
	{"convert-nvme-cli-json.json", []string{"convert", "-o", "json", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin"}, 0},
	{"convert-smartctl-text.txt", []string{"convert", "--to", "smartctl-text", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin"}, 0},
	{"inspect-bundle.txt", []string{"inspect", "--root", "testdata/bundle"}, 0},
	{"inspect-bundle.json", []string{"inspect", "--root", "testdata/bundle", "-o", "json"}, 0},
	{"metrics-bundle.prom", []string{"metrics", "--root", "testdata/bundle"}, 0},
	{"metrics-bundle.json", []string{"metrics", "--root", "testdata/bundle", "-o", "json"}, 0},
	{"metrics-laptop.prom", []string{"metrics", "--root", "sysfs/testdata/laptop-tlp"}, 0},
	{"metrics-v7.prom", []string{"metrics", "--root", "sysfs/testdata/v7"}, 0},
	{"metrics-v5.10.prom", []string{"metrics", "--root", "sysfs/testdata/v5.10"}, 0},
	{"check-match.txt", []string{"check", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "examples/apstctl/testdata/feature/samsung-990-evo-plus-100ms.txt"}, 0},
	{"check-mismatch.txt", []string{"check", "--ps-max-latency-us", "25000", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "examples/apstctl/testdata/feature/samsung-990-evo-plus-100ms.txt"}, 1},
	{"check-mismatch.json", []string{"check", "--ps-max-latency-us", "25000", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "examples/apstctl/testdata/feature/samsung-990-evo-plus-100ms.txt", "-o", "json"}, 1},
	{"check-raw.txt", []string{"check", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "examples/apstctl/testdata/feature/samsung-990-evo-plus-100ms.raw"}, 0},
	{"check-itpt0.txt", []string{"check", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "examples/apstctl/testdata/feature/samsung-990-evo-plus-100ms-itpt0.txt"}, 0},
	{"set-latency.txt", []string{"set-latency", "--root", bundleCopy, "nvme2", "100000"}, 0},
	{"set-latency.json", []string{"set-latency", "--root", bundleCopy, "nvme2", "auto", "-o", "json"}, 0},
	{"set-cpu-latency.txt", []string{"set-cpu-latency", "--root", bundleCopy, "--timeout-ms", "20", "nvme0n1", "200"}, 0},
	{"completion-bash.txt", []string{"completion", "bash"}, 0},
	{"completion-zsh.txt", []string{"completion", "zsh"}, 0},
	{"completion-fish.txt", []string{"completion", "fish"}, 0},
}

// bundleCopy in a golden case's arguments stands for a fresh copy of
// testdata/bundle, for the commands that write into it.
const bundleCopy = "BUNDLE-COPY"

// inRepoRoot runs the test from the repository's top directory, where the
// README's command lines are written.
func inRepoRoot(t *testing.T) string {
	t.Helper()
	here, err := os.Getwd()
	require.NoError(t, err)
	t.Chdir("../..")
	return here
}

func TestGolden(t *testing.T) {
	here := inRepoRoot(t)
	for _, tc := range goldenCases {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string(nil), tc.args...)
			for i, a := range args {
				if a == bundleCopy {
					args[i] = filepath.Join(t.TempDir(), "bundle")
					require.NoError(t, os.CopyFS(args[i], os.DirFS("testdata/bundle")))
				}
			}
			code, out, errOut := apstctl(t, nil, args...)
			require.Equal(t, tc.code, code, errOut)
			checkGolden(t, filepath.Join(here, "testdata", "golden", tc.name), out)
		})
	}
}

// checkGolden compares out with the golden file at path (rewriting it with
// -update); a .json file must hold JSON.
func checkGolden(t *testing.T, path, out string) {
	t.Helper()
	if strings.HasSuffix(path, ".json") {
		require.True(t, json.Valid([]byte(out)), "not JSON:\n%s", out)
	}
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(out), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./examples/apstctl -update")
	assert.Equal(t, string(want), out)
}

// Every golden file is a case: a stale file fails.
func TestGoldenFilesHaveCases(t *testing.T) {
	names := map[string]bool{}
	for _, tc := range goldenCases {
		names[tc.name] = true
	}
	files, err := filepath.Glob("testdata/golden/*")
	require.NoError(t, err)
	for _, f := range files {
		assert.True(t, names[filepath.Base(f)], "%s has no case in goldenCases", f)
	}
}

// Every command that prints takes -o json and --format json, before or
// after its arguments, and prints JSON that parses.
func TestEveryCommandPrintsJSON(t *testing.T) {
	inRepoRoot(t)
	evo := "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin"
	feature := "examples/apstctl/testdata/feature/samsung-990-evo-plus-100ms.txt"
	for _, args := range [][]string{
		{"plan", evo},
		{"check", evo, feature},
		{"sweep", evo},
		{"compare", evo, "--with", "ps-max-latency-us=25000"},
		{"simulate", evo, "--gap", "1s"},
		{"recommend", evo, "--max-stall", "25ms"},
		{"decode", feature},
		{"inspect", "--root", "testdata/bundle"},
		{"metrics", "--root", "testdata/bundle"},
		{"version"},
		{"survey", "testdata/corpus/smartctl/Samsung_SSD_990_EVO_Plus_1TB_2B2QKXG7.txt"},
		{"measure", "--simulate", evo, "--trials", "2", "--seed", "1"},
	} {
		for _, flagArgs := range [][]string{{"-o", "json"}, {"--format", "json"}, {"--output-format=json"}} {
			for _, before := range []bool{true, false} {
				line := append(append([]string{args[0]}, flagArgs...), args[1:]...)
				if !before {
					line = append(append([]string{}, args...), flagArgs...)
				}
				code, out, errOut := apstctl(t, nil, line...)
				assert.Equal(t, 0, code, "%q: %s", line, errOut)
				assert.True(t, json.Valid([]byte(out)), "%q: not JSON:\n%s", line, out)
			}
		}
	}
}

// A u64 keeps its exact number in JSON, with the unlimited marker beside it.
func TestJSONUnlimitedMarkers(t *testing.T) {
	code, out, errOut := apstctl(t, nil, "sweep", evoImage, "-o", "json")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, `"max_us": 18446744073709551615,`)
	assert.Contains(t, out, `"max_unlimited": true`)
	var sw struct {
		Intervals []struct {
			MaxUS        uint64 `json:"max_us"`
			MaxUnlimited bool   `json:"max_unlimited"`
		} `json:"intervals"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &sw))
	for i, iv := range sw.Intervals {
		assert.Equal(t, iv.MaxUS == 1<<64-1, iv.MaxUnlimited, "interval %d", i)
	}
	code, out, _ = apstctl(t, nil, "plan", "--pm-qos", "auto", evoImage, "-o", "json")
	require.Equal(t, 0, code)
	assert.Contains(t, out, `"ps_max_latency_us": 18446744073709551615,`)
	assert.Contains(t, out, `"ps_max_latency_unlimited": true`)
}
