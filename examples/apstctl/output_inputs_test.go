package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A file a command writes that it also reads (--output, --svg,
// --persist-rules or --factor-out naming a capture, a log, a shard, a
// rules file, or a file inside a directory survey walks) is refused before
// anything is read or written, naming both: the same file however it is
// spelt (x and ./x, an absolute path, a symbolic or hard link). The input
// is left as it was, and nothing else is written.
func TestOutputRefusesTheCommandsInput(t *testing.T) {
	pkg := origWD(t)
	dir := t.TempDir()
	t.Chdir(dir)
	copyTo(t, filepath.Join(pkg, evoImage), "self.bin")
	copyTo(t, filepath.Join(pkg, smartctlEVO), "evo.txt")
	copyTo(t, filepath.Join(pkg, "testdata/replay/interactive.biosnoop"), "trace.biosnoop")
	copyTo(t, filepath.Join(pkg, "testdata/persist/evo-family.rules"), "evo.rules")
	copyTo(t, filepath.Join(pkg, "../../testdata/kernlog/ml-spacemit-k1-bpi-f3-aspm-l1.log"), "kern.log")
	require.NoError(t, os.Symlink("self.bin", "link.bin"))
	require.NoError(t, os.Link("evo.txt", "hard.txt"))
	require.NoError(t, os.WriteFile("factor.txt", []byte("0.78\n"), 0o644))
	require.NoError(t, os.MkdirAll("fleet/rack", 0o755))
	copyTo(t, "evo.txt", "fleet/rack/evo.txt")
	require.NoError(t, os.WriteFile("fleet/report.json", []byte("{}\n"), 0o644))
	code, shard, errOut := apstctl(t, nil, "survey", "evo.txt", "-o", "json")
	require.Equal(t, exitOK, code, errOut)
	require.NoError(t, os.WriteFile("shard.json", []byte(shard), 0o644))
	abs := filepath.Join(dir, "self.bin")

	inputs := []string{"self.bin", "evo.txt", "trace.biosnoop", "evo.rules", "kern.log", "factor.txt", "fleet/rack/evo.txt", "fleet/report.json", "shard.json"}
	before := map[string][]byte{}
	for _, f := range inputs {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		before[f] = b
	}
	entries := func() []string {
		var names []string
		require.NoError(t, filepath.WalkDir(".", func(p string, _ os.DirEntry, err error) error {
			names = append(names, p)
			return err
		}))
		return names
	}
	was := entries()

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"plan, one spelling", []string{"plan", "self.bin", "--output", "self.bin"}, "apstctl plan: --output self.bin and CAPTURE self.bin name the same file: plan reads it, and --output would replace it; give --output another file"},
		{"plan, ./x and x", []string{"plan", "./self.bin", "--output", "self.bin"}, "--output self.bin and CAPTURE ./self.bin name the same file"},
		{"plan, an absolute path", []string{"plan", abs, "-o", "json", "--output", "self.bin"}, "--output self.bin and CAPTURE " + abs + " name the same file"},
		{"plan, a symbolic link", []string{"plan", "self.bin", "--output", "link.bin"}, "--output link.bin and CAPTURE self.bin name the same file"},
		{"plan, through the link", []string{"plan", "link.bin", "--output", "./self.bin"}, "--output ./self.bin and CAPTURE link.bin name the same file"},
		{"sweep, a hard link", []string{"sweep", "evo.txt", "--output", "hard.txt"}, "apstctl sweep: --output hard.txt and CAPTURE evo.txt name the same file"},
		{"check, the second capture", []string{"check", "evo.txt", "self.bin", "--output", "self.bin"}, "apstctl check: --output self.bin and FEATURE-CAPTURE self.bin name the same file"},
		{"convert", []string{"convert", "--to", "nvme-cli-text", "self.bin", "--output", "self.bin"}, "apstctl convert: --output self.bin and CAPTURE self.bin name the same file"},
		{"replay, the trace", []string{"replay", "self.bin", "trace.biosnoop", "--output", "trace.biosnoop"}, "apstctl replay: --output trace.biosnoop and TRACE trace.biosnoop name the same file"},
		{"simulate, --exit-factor FILE", []string{"simulate", "self.bin", "--gap", "1s", "--exit-factor", "factor.txt", "--output", "factor.txt"}, "apstctl simulate: --output factor.txt and --exit-factor factor.txt name the same file"},
		{"diagnose --log", []string{"diagnose", "--log", "kern.log", "--output", "./kern.log"}, "apstctl diagnose: --output ./kern.log and --log kern.log name the same file"},
		{"diagnose --id-ctrl", []string{"diagnose", "--log", "kern.log", "--id-ctrl", "self.bin", "--output", "link.bin"}, "apstctl diagnose: --output link.bin and --id-ctrl self.bin name the same file"},
		{"persist --check", []string{"persist", "--check", "evo.rules", "--output", "evo.rules"}, "apstctl persist: --output evo.rules and --check evo.rules name the same file"},
		{"persist --check, a capture", []string{"persist", "--check", "evo.rules", "self.bin", "--output", "self.bin"}, "apstctl persist: --output self.bin and CAPTURE self.bin name the same file"},
		{"persist --from", []string{"persist", "--from", "shard.json", "--output", "shard.json"}, "apstctl persist: --output shard.json and --from shard.json name the same file"},
		{"measure --simulate --factor-out", []string{"measure", "--simulate", "self.bin", "--trials", "2", "--factor-out", "self.bin"}, "apstctl measure: --factor-out self.bin and --simulate self.bin name the same file"},
		{"survey --merge", []string{"survey", "--merge", "shard.json", "-o", "json", "--output", "./shard.json"}, "apstctl survey: --output ./shard.json and SHARD shard.json name the same file"},
		{"survey, a capture", []string{"survey", "evo.txt", "--svg", "hard.txt"}, "apstctl survey: --svg hard.txt and DIR evo.txt name the same file"},
		{"survey, a file the walk reads", []string{"survey", "fleet", "-o", "json", "--output", "fleet/report.json"}, "apstctl survey: --output fleet/report.json is a file in fleet, which survey walks: it would be read as a capture and then replaced; write it outside fleet"},
		{"survey, deeper", []string{"survey", "./fleet", "--output", "fleet/rack/evo.txt"}, "--output fleet/rack/evo.txt is a file in ./fleet, which survey walks"},
		{"survey --persist-rules", []string{"survey", "fleet", "--persist", "stall=25ms", "--persist-rules", "fleet/report.json"}, "--persist-rules fleet/report.json is a file in fleet, which survey walks"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := apstctl(t, nil, tc.args...)
			assert.Equal(t, exitUsage, code, errOut)
			assert.Empty(t, out)
			assert.Contains(t, errOut, tc.want)
			assert.Contains(t, errOut, "\nsee 'apstctl ")
			for f, b := range before {
				got, err := os.ReadFile(f)
				require.NoError(t, err)
				assert.Equal(t, b, got, "%s left as it was", f)
			}
			assert.Equal(t, was, entries(), "nothing written")
		})
	}

	// Another file is written; so is a file survey's walk skips (a hidden
	// one, a .csv), a new one in the walked directory, and a file named as
	// --exit-factor's factors.
	for _, f := range []string{"0.78", "fleet/.report.txt", "fleet/report.csv"} {
		require.NoError(t, os.WriteFile(f, []byte("old\n"), 0o644))
	}
	for _, args := range [][]string{
		{"plan", "self.bin", "--output", "plan.txt"},
		{"plan", "link.bin", "--output", "./plan.txt"},
		{"survey", "fleet", "--output", "fleet/.report.txt"},
		{"survey", "fleet", "--output", "fleet/report.csv", "-o", "csv"},
		{"survey", "fleet", "--output", "fleet/new.txt"},
		{"simulate", "self.bin", "--gap", "1s", "--exit-factor", "0.78", "--output", "0.78"},
	} {
		code, _, errOut := apstctl(t, nil, args...)
		assert.Equal(t, exitOK, code, "%q: %s", args, errOut)
	}
}

// origWD is the package's directory, where the fixtures' relative paths
// start (for a test that changes directory).
func origWD(t *testing.T) string {
	t.Helper()
	wd, err := filepath.Abs(".")
	require.NoError(t, err)
	return wd
}

// A file written inside the tree --root names is refused before anything
// is read or written: set-latency's report over the attribute it writes
// had left the report where the value was (exit 0), and diagnose's over a
// bundle's manifest had broken the bundle. Outside the root it is written.
func TestOutputInsideRootRefused(t *testing.T) {
	root := copyBundle(t)
	attr := filepath.Join(root, "class/nvme/nvme2/power/pm_qos_latency_tolerance_us")
	before, err := os.ReadFile(attr)
	require.NoError(t, err)
	manifest := filepath.Join(root, "manifest.json")
	mbefore, err := os.ReadFile(manifest)
	require.NoError(t, err)
	for _, args := range [][]string{
		{"set-latency", "--root", root, "nvme2", "5000", "--output", attr},
		{"diagnose", "--root", root, "--output", manifest},
		{"inspect", "--root", root, "--output", filepath.Join(root, "report.txt")},
		{"metrics", "--root", root, "--output", filepath.Join(root, "class", "x.prom")},
	} {
		code, _, errOut := apstctl(t, nil, args...)
		assert.Equal(t, exitUsage, code, "%v: %s", args, errOut)
		assert.Contains(t, errOut, "is inside --root", args)
	}
	after, err := os.ReadFile(attr)
	require.NoError(t, err)
	assert.Equal(t, before, after, "the attribute is as it was")
	mafter, err := os.ReadFile(manifest)
	require.NoError(t, err)
	assert.Equal(t, mbefore, mafter)
	assert.NoFileExists(t, filepath.Join(root, "report.txt"))
	out := filepath.Join(t.TempDir(), "report.txt")
	code, _, errOut := apstctl(t, nil, "inspect", "--root", root, "--output", out)
	assert.Equal(t, exitOK, code, errOut)
	assert.FileExists(t, out)
}
