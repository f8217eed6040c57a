package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/safeio"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// copyTo copies the file src to dst, making dst's directory.
func copyTo(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Dir(dst), 0o755))
	require.NoError(t, os.WriteFile(dst, b, 0o644))
}

// A symbolic link given as the argument is followed: the directory it
// points to is surveyed, under the link's name.
func TestSurveyCommandSymlinkArgument(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "captures")
	copyTo(t, filepath.Join(surveySmartctl, surveyEVOName+".txt"), filepath.Join(target, "evo.txt"))
	copyTo(t, filepath.Join(surveyBinary, "SKhynix_PC401_NVMe_512GB_80003E00.id-ctrl.bin"), filepath.Join(target, "deep", "pc401.bin"))
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(target, link))
	v, _ := surveyRunJSON(t, link)
	require.Len(t, v.Drives, 2)
	assert.Equal(t, filepath.Join(link, "deep", "pc401.bin"), v.Drives[0].Path)
	assert.Equal(t, filepath.Join(link, "evo.txt"), v.Drives[1].Path)

	// A link to a directory inside a surveyed directory is not followed
	// into: it is listed as not a regular file.
	v, _ = surveyRunJSON(t, dir)
	require.Len(t, v.Drives, 2, "the files under captures/, once")
	require.Len(t, v.Unreadable, 1)
	assert.Equal(t, link, v.Unreadable[0].Path)
	assert.Contains(t, v.Unreadable[0].Error, "not a regular file: a directory")
}

// A dangling symbolic link met in a walk is said to be one, with where it
// points, not "no such file or directory" as if the walk had invented it.
func TestSurveyDanglingSymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	dir := t.TempDir()
	copyTo(t, filepath.Join(surveySmartctl, surveyEVOName+".txt"), filepath.Join(dir, "evo.txt"))
	abs := filepath.Join(dir, "gone", "target.bin")
	require.NoError(t, os.Symlink(abs, filepath.Join(dir, "abs.bin")))
	require.NoError(t, os.Symlink("missing.txt", filepath.Join(dir, "rel.txt")))
	require.NoError(t, os.Symlink("abs.bin", filepath.Join(dir, "chain.bin")))
	v, _ := surveyRunJSON(t, dir)
	require.Len(t, v.Drives, 1)
	got := map[string]string{}
	for _, u := range v.Unreadable {
		got[filepath.Base(u.Path)] = u.Error
	}
	assert.Equal(t, "a dangling symbolic link (to "+abs+", which does not exist)", got["abs.bin"])
	assert.Equal(t, "a dangling symbolic link (to missing.txt, which does not exist)", got["rel.txt"])
	assert.Equal(t, "a dangling symbolic link (to abs.bin, a link that leads to no file)", got["chain.bin"])

	// Named on the command line, it is refused as one too.
	code, _, errOut := apstctl(t, nil, "survey", filepath.Join(dir, "rel.txt"))
	assert.Equal(t, exitUsage, code)
	assert.Equal(t, "apstctl survey: "+filepath.Join(dir, "rel.txt")+": a dangling symbolic link (to missing.txt, which does not exist)\n", errOut)
}

// The message of an unreadable file, which quotes the file's first line
// escaped already, is not escaped a second time ("\\u202e") in the text
// report and on standard error; a control character in it still is.
func TestSurveyUnreadableEscapedOnce(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "note.txt"), []byte("remember \u202ethe \x1b[31mmilk\n"), 0o644))
	code, out, errOut := apstctl(t, nil, "survey", dir)
	assert.Equal(t, exitUsage, code, "no readable capture")
	want := `(its first line is "remember \u202ethe \x1b[31mmilk")`
	assert.Contains(t, errOut, want)
	assert.NotContains(t, out+errOut, `\\`)
	copyTo(t, filepath.Join(surveySmartctl, surveyEVOName+".txt"), filepath.Join(dir, "evo.txt"))
	code, out, errOut = apstctl(t, nil, "survey", dir)
	assert.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, want)
	assert.NotContains(t, out, `\\`)
}

// hostileCapture writes an Identify image whose model and firmware hold
// terminal escapes and spreadsheet formulas, and returns its directory.
func hostileCapture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	c := powerstate.Controller{VendorID: 0xabcd, Model: "=HYPERLINK(\"x\")\x1b[2J\rforged", Firmware: "@SUM(1)", NPSS: 1, APSTA: 1}
	c.PowerStates[0].MaxPower = powerstate.MaxPowerOf(500, false)
	c.PowerStates[1] = powerstate.Descriptor{NonOperational: true, EntryLatency: 1000, ExitLatency: 40000, MaxPower: powerstate.MaxPowerOf(30, true)}
	// An image with a control character in its model is refused as no
	// drive's (powerstate.CheckIdentify); nvme-cli's JSON carries it.
	var buf bytes.Buffer
	require.NoError(t, capture.WriteNVMeCLIJSON(&buf, &c))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "-evil\x1b]0;title\a.bin"), buf.Bytes(), 0o644))
	return dir
}

// Untrusted strings reach the text report with their control characters
// escaped, and the CSV report with formulas neutralised.
func TestSurveyCommandHostileStrings(t *testing.T) {
	dir := hostileCapture(t)
	code, out, errOut := anRun(t, cmdFunc("survey"), nil, "--stall-budget", "10ms", dir)
	require.Equal(t, exitOK, code, errOut)
	assert.NotContains(t, out, "\x1b")
	assert.NotContains(t, out, "\r")
	assert.NotContains(t, out, "\a")
	assert.Contains(t, out, `\x1b]0;title\x07.bin`)
	assert.Contains(t, out, `=HYPERLINK("x")\x1b[2J`, "the vendor: the model's first word")

	code, out, errOut = anRun(t, cmdFunc("survey"), nil, "--format", "csv", dir)
	require.Equal(t, exitOK, code, errOut)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	require.NoError(t, err)
	require.Len(t, recs, 2)
	for i, cell := range recs[1][:5] {
		if cell != "" && strings.ContainsRune("=+-@", rune(cell[0])) {
			t.Errorf("CSV column %s starts a formula: %q", recs[0][i], cell)
		}
	}
	assert.Equal(t, "'@SUM(1)", recs[1][4])

	// JSON carries the strings as they are, escaped by JSON.
	v, _ := surveyRunJSON(t, dir)
	assert.Equal(t, "=HYPERLINK(\"x\")\x1b[2J\rforged", v.Drives[0].Model)
}

// --output and --svg replace their files only once the report is complete: a
// run that fails leaves the old files as they were and no temporary file.
func TestSurveyCommandAtomicFiles(t *testing.T) {
	dir := t.TempDir()
	report, plot := filepath.Join(dir, "report.json"), filepath.Join(dir, "plot.svg")
	require.NoError(t, os.WriteFile(report, []byte("old report"), 0o644))
	require.NoError(t, os.WriteFile(plot, []byte("old plot"), 0o644))
	args := []string{"-o", "json", "--output", report, "--svg", plot, "--workers", "2", surveySmartctl}
	ctx, cancel := context.WithCancel(context.Background())
	x := &invocation{cmd: surveyCommand(), out: safeio.NewWriter(io.Discard), errw: safeio.NewWriter(io.Discard), stderr: io.Discard}
	parsed, err := parseArgs(x.cmd.flags, args)
	require.NoError(t, err)
	cancel() // ^C before the first capture
	require.ErrorIs(t, x.cmd.run(ctx, x, parsed), context.Canceled)
	for path, want := range map[string]string{report: "old report", plot: "old plot"} {
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, want, string(b))
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "no temporary file left")

	// A run that completes replaces both; --file is --output's old name.
	args[2] = "--file"
	code, out, errOut := apstctl(t, nil, append([]string{"survey"}, args...)...)
	require.Equal(t, exitOK, code, errOut)
	assert.Empty(t, out)
	b, err := os.ReadFile(report)
	require.NoError(t, err)
	var v surveyOut
	require.NoError(t, json.Unmarshal(b, &v))
	assert.Equal(t, testfixture.SmartctlReports(t), v.Summary.Drives)
	b, err = os.ReadFile(plot)
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(string(b), "</svg>\n"))
}

// Progress goes to standard error every 1000 captures when it is on (a
// terminal), and never into the report.
func TestSurveyCommandProgress(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(surveyBinary, "SKhynix_PC401_NVMe_512GB_80003E00.id-ctrl.bin")
	copyTo(t, src, filepath.Join(dir, "0000.bin"))
	for i := 1; i < 1001; i++ { // links: creating 1000 files costs a second of system time on some disks
		require.NoError(t, os.Link(filepath.Join(dir, "0000.bin"), filepath.Join(dir, fmt.Sprintf("%04d.bin", i))))
	}
	var out bytes.Buffer
	tty := &terminalBuffer{}
	require.Equal(t, exitOK, run([]string{"survey", "--workers", "2", dir}, nil, &out, tty), tty.String())
	assert.Contains(t, tty.String(), "\rapstctl survey: 1000 captures, 0 unreadable")
	assert.NotContains(t, out.String(), "captures, 0 unreadable")

	code, _, errOut := apstctl(t, nil, "survey", "--workers", "2", dir)
	require.Equal(t, exitOK, code)
	assert.Empty(t, errOut, "no progress when standard error is not a terminal")
}
