package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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

// collect's --output inside the bundle directory is refused before
// anything is written: the report's temporary file would make the empty
// directory "not empty", or the report would become part of the bundle.
func TestCollectOutputInsideTheBundle(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", "testdata", "bundle"))
	require.NoError(t, err)
	dir := t.TempDir()
	t.Chdir(dir)
	require.NoError(t, os.Mkdir("b", 0o755))
	require.NoError(t, os.Symlink("b", "link"))
	for _, tc := range [][]string{
		{"b", "--output", "b/manifest.txt"},
		{"b", "--output", filepath.Join(dir, "b", "sub", "m.txt")},
		{"link", "--output", "b/m.txt"},
		{"b/", "--output", "./b/../b/m.txt"},
		{"new", "--output", "new"},
	} {
		code, out, errOut := apstctl(t, nil, append([]string{"collect", "--root", root}, tc...)...)
		assert.Equal(t, exitUsage, code, "%q: %s", tc, errOut)
		assert.Empty(t, out)
		assert.Contains(t, errOut, "is inside the bundle directory", tc)
		entries, err := os.ReadDir("b")
		require.NoError(t, err)
		assert.Empty(t, entries, "%q wrote into the bundle directory", tc)
		assert.NoFileExists(t, "new")
	}
	// Beside it is fine.
	code, _, errOut := apstctl(t, nil, "collect", "--root", root, "b", "--output", "manifest.txt")
	require.Equal(t, exitOK, code, errOut)
	assert.FileExists(t, "manifest.txt")
	assert.FileExists(t, filepath.Join("b", "manifest.json"))
}

// persist --check writes its report to --output, atomically, as every
// command does (it was refused: --output is persist's form file); a serious
// mistake still ends in status 1 with the whole report in the file, and a
// refused check leaves an existing file as it was.
func TestPersistCheckOutput(t *testing.T) {
	inRepoRoot(t)
	file := filepath.Join(t.TempDir(), "check.txt")
	code, out, errOut := apstctl(t, nil, "persist", "--check", "examples/apstctl/testdata/persist/evo-family.rules", "--root", "testdata/bundle", "--output", file)
	require.Equal(t, exitOK, code, errOut)
	assert.Empty(t, out)
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Contains(t, string(b), "udev rules (1)")

	code, out, errOut = apstctl(t, nil, "persist", "--check", "examples/apstctl/testdata/persist/tuned-zero.conf", "--root", "testdata/bundle", "--output", file, "-o", "json")
	require.Equal(t, exitFailure, code, errOut)
	assert.Empty(t, out)
	b, err = os.ReadFile(file)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"mistake": "global-zero"`)

	code, _, errOut = apstctl(t, nil, "persist", "--check-line", "x", "--bound", "1", "--output", file)
	require.Equal(t, exitUsage, code, errOut)
	after, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, b, after, "a refused check replaced the file")
	entries, err := os.ReadDir(filepath.Dir(file))
	require.NoError(t, err)
	assert.Len(t, entries, 1, "a temporary file was left behind")
}

// A path that is standard input by another name (/dev/stdin, /dev/fd/0: the
// same file as standard input) counts as "-": named twice, it is refused
// naming both as given. Here standard input is a file, and its path names it.
func TestStandardInputNamedTwiceBySpelling(t *testing.T) {
	inRepoRoot(t)
	f, err := os.Open("apst/diagnose/testdata/aspm.log")
	require.NoError(t, err)
	defer f.Close()
	saved := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = saved }()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"diagnose", "--log", f.Name(), "--id-ctrl", "-"}, "--log apst/diagnose/testdata/aspm.log and --id-ctrl - both name standard input"},
		{[]string{"check", "-", f.Name()}, "ID-CAPTURE - and FEATURE-CAPTURE apst/diagnose/testdata/aspm.log both name standard input"},
		{[]string{"persist", "--check", f.Name(), "-"}, "--check apst/diagnose/testdata/aspm.log and CAPTURE - both name standard input"},
	} {
		code, _, errOut := apstctl(t, nil, tc.args...)
		assert.Equal(t, exitUsage, code, "%q: %s", tc.args, errOut)
		assert.Contains(t, errOut, tc.want, tc.args)
	}
}
