package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lookFiles writes inputs of each kind a command may be given by mistake
// into dir and returns their paths by kind.
func lookFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	random := make([]byte, 256)
	r := rand.New(rand.NewPCG(3, 3))
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	evoJSON, err := os.ReadFile(corpusDir + "/nvme-cli/synthetic/Samsung_SSD_990_EVO_Plus_1TB_2B2QKXG7.json")
	require.NoError(t, err)
	smart, err := os.ReadFile(smartctlEVO)
	require.NoError(t, err)
	feat, err := os.ReadFile(feature100)
	require.NoError(t, err)
	files := map[string][]byte{
		"kernel.log":     []byte("[    0.000000] Linux version 6.12.48-1-lts\n[    1.234567] nvme nvme0: pci function 0000:01:00.0\n[    1.300000] nvme nvme0: 8/0/0 default/read/poll queues\n"),
		"trace.blkparse": []byte("259,0    0        1     0.000000000  4242  Q   R 0 + 8 [fio]\n259,0    0        2     0.000100000  4242  C   R 0 + 8 [0]\n"),
		"random.raw":     random,
		"id.json":        evoJSON,
		"smart.txt":      smart,
		"feat.txt":       feat,
		"recommend.json": []byte("{\n  \"recommended_us\": \"x\"\n}\n"),
	}
	paths := map[string]string{}
	for name, b := range files {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, b, 0o644))
		paths[name] = p
	}
	return paths
}

// TestRefusalsSayWhatTheInputLooksLike: a file given to a command that
// does not read it is refused (exit 2) naming what it looks like and the
// command that reads it, never a Go function.
func TestRefusalsSayWhatTheInputLooksLike(t *testing.T) {
	f := lookFiles(t, t.TempDir())
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"plan", f["trace.blkparse"]}, []string{"unknown capture format", "it looks like a block I/O trace", "'apstctl replay CAPTURE TRACE' reads"}},
		{[]string{"plan", f["kernel.log"]}, []string{"it looks like a kernel log", "'apstctl diagnose --log' reads"}},
		{[]string{"replay", evoImage, f["kernel.log"]}, []string{"unknown trace format", "it looks like a kernel log"}},
		{[]string{"replay", evoImage, evoImage}, []string{"unknown trace format", "it looks like an Identify Controller image", "'apstctl plan' reads"}},
		{[]string{"replay", evoImage, f["feat.txt"]}, []string{"unknown trace format", "it looks like a get-feature capture", "'apstctl decode' reads"}},
		{[]string{"persist", "--check", f["smart.txt"]}, []string{"it looks like a smartctl report", "'apstctl plan' reads"}},
		{[]string{"persist", "--check", f["feat.txt"]}, []string{"it looks like a get-feature capture", "'apstctl decode' reads"}},
		{[]string{"survey", "--merge", f["id.json"]}, []string{"not a survey report", "it looks like an Identify Controller capture", "'apstctl plan' reads"}},
		{[]string{"survey", "--merge", f["kernel.log"]}, []string{"not a survey report", "it looks like a kernel log"}},
		{[]string{"measure", "--simulate", f["feat.txt"]}, []string{"get-feature (APST table) capture", "'apstctl decode'"}},
		{[]string{"decode", f["trace.blkparse"]}, []string{"it looks like a block I/O trace"}},
		{[]string{"persist", "--from", f["kernel.log"]}, []string{"line 1, column 16", "it looks like a kernel log"}},
		{[]string{"persist", "--from", f["recommend.json"]}, []string{"line 2, column 23: recommended_us: want an unsigned integer, found a JSON string"}},
	} {
		code, _, stderr := apstctl(t, nil, tc.args...)
		assert.Equal(t, 2, code, "%v: %s", tc.args, stderr)
		for _, w := range tc.want {
			assert.Contains(t, stderr, w, tc.args)
		}
		assert.NotContains(t, stderr, "capture.Parse", tc.args)
		assert.NotContains(t, stderr, "Go struct", tc.args)
	}
	// A survey's unreadable line speaks to the CLI user too.
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "feat.txt"), []byte(mustRead(t, feature100)), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "evo.bin"), []byte(mustRead(t, evoImage)), 0o644))
	code, stdout, stderr := apstctl(t, nil, "survey", dir)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "read it with 'apstctl decode'")
	assert.NotContains(t, stdout, "capture.Parse")
}

// TestRandomFeatureBytesAreRefused: 256 random bytes are no APST table:
// decode and check refuse them (exit 2) naming the reserved bits, and
// --force reads them with a note.
func TestRandomFeatureBytesAreRefused(t *testing.T) {
	f := lookFiles(t, t.TempDir())
	for _, args := range [][]string{{"decode", f["random.raw"]}, {"check", evoImage, f["random.raw"]}} {
		code, _, stderr := apstctl(t, nil, args...)
		assert.Equal(t, 2, code, "%v: %s", args, stderr)
		assert.Contains(t, stderr, "not an APST table: it looks like random bytes", args)
		assert.Contains(t, stderr, "reserved bits 2:0 set in", args)
		assert.Contains(t, stderr, "give --force", args)
	}
	code, stdout, stderr := apstctl(t, nil, "decode", "--force", f["random.raw"])
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "note: read with --force although it does not look like an APST table")
	code, _, stderr = apstctl(t, nil, "check", "--force", evoImage, f["random.raw"])
	assert.Equal(t, 1, code, stderr) // read, and it does not match
	code, _, stderr = apstctl(t, nil, "decode", featureRaw)
	assert.Equal(t, 0, code, stderr)
}

// TestJSONCaptureTrailingData: text run into the end of a JSON capture, or
// a bracket or value after it, is refused with its line; a final newline
// is not.
func TestJSONCaptureTrailingData(t *testing.T) {
	f := lookFiles(t, t.TempDir())
	js := strings.TrimRight(mustRead(t, f["id.json"]), "\n")
	lines := strings.Count(js, "\n") + 1
	dir := t.TempDir()
	for _, tc := range []struct {
		after string
		line  int
	}{{"garbage\n", lines}, {"\n]\n", lines + 1}, {"\n}\n", lines + 1}, {"\n{\"a\":1}\n", lines + 1}, {"\r\n", 0}, {"\n", 0}} {
		p := filepath.Join(dir, "t.json")
		require.NoError(t, os.WriteFile(p, []byte(js+tc.after), 0o644))
		code, _, stderr := apstctl(t, nil, "plan", p)
		if tc.line == 0 {
			assert.Equal(t, 0, code, "%q: %s", tc.after, stderr)
			continue
		}
		assert.Equal(t, 2, code, "%q: %s", tc.after, stderr)
		assert.Contains(t, stderr, "line "+strconv.Itoa(tc.line)+": expected nothing but white space after the JSON document", tc.after)
		assert.Contains(t, stderr, "more after the end of the JSON document", tc.after)
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

// TestUnknownCaptureSaysWhatItIs: a capture of no format that looks like
// nothing apstctl reads (another tool's JSON, prose) is refused saying
// what it is: the keys of the JSON object, or the first line of the text.
func TestUnknownCaptureSaysWhatItIs(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"package.json": `{"name": "x", "version": "1.0.0", "dependencies": {}}` + "\n",
		"deep.json":    strings.Repeat("[", 100000),
		"notes.txt":    "remember \xffthe milk\n",
		"esc.json":     `{"a\u001b[2J\u202e": 1}`,
	}
	for name, s := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644))
	}
	pkg := `it looks like JSON of another tool (an object with the keys "name", "version", "dependencies") instead`
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"plan", "package.json"}, pkg},
		{[]string{"decode", "package.json"}, pkg},
		{[]string{"check", evoImage, "package.json"}, pkg},
		{[]string{"convert", "--to", "binary", "package.json"}, pkg},
		{[]string{"plan", "esc.json"}, `it looks like JSON of another tool (an object with the keys "a\x1b[2J\u202e") instead`},
		{[]string{"plan", "deep.json"}, "it looks like JSON of another tool (an array) instead"},
		{[]string{"plan", "notes.txt"}, `it looks like text of another kind (its first line is "remember \xffthe milk") instead`},
		{[]string{"decode", "notes.txt"}, `it looks like text of another kind (its first line is "remember \xffthe milk") instead`},
	} {
		for i, a := range tc.args {
			if _, ok := files[a]; ok {
				tc.args[i] = filepath.Join(dir, a)
			}
		}
		code, _, stderr := apstctl(t, nil, tc.args...)
		assert.Equal(t, 2, code, "%v: %s", tc.args, stderr)
		assert.Contains(t, stderr, "unknown capture format; "+tc.want, tc.args)
	}
}

// TestEmptyJSONInputSaysSo: an empty survey report or recommend result is
// refused saying it is empty (it said "EOF", or "the JSON document ends
// early (truncated)").
func TestEmptyJSONInputSaysSo(t *testing.T) {
	dir := t.TempDir()
	empty, blank := filepath.Join(dir, "empty"), filepath.Join(dir, "blank")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	require.NoError(t, os.WriteFile(blank, []byte(" \n\n"), 0o644))
	for _, tc := range []struct {
		args  []string
		stdin string
		want  string
	}{
		{[]string{"survey", "--merge", empty}, "", "--merge " + empty + ": not a survey report (JSON or NDJSON): it is empty, or white space alone"},
		{[]string{"survey", "--merge", blank}, "", "not a survey report (JSON or NDJSON): it is empty, or white space alone"},
		{[]string{"survey", "--merge", "-"}, "", "--merge standard input: not a survey report (JSON or NDJSON): it is empty, or white space alone"},
		{[]string{"persist", "--from", empty}, "", "--from " + empty + ": not a recommend -o json result: it is empty, or white space alone"},
		{[]string{"persist", "--from", "-"}, "\n", "not a recommend -o json result: it is empty, or white space alone"},
	} {
		code, _, stderr := apstctl(t, []byte(tc.stdin), tc.args...)
		assert.Equal(t, 2, code, "%v: %s", tc.args, stderr)
		assert.Contains(t, stderr, tc.want, tc.args)
		assert.NotContains(t, stderr, "EOF", tc.args)
		assert.NotContains(t, stderr, "truncated", tc.args)
	}
}
