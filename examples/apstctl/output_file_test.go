package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// An --output that cannot be written (its directory missing, or a regular
// file where a directory should be: this fails for root too) is a failed
// write: exit 1, one line naming --output, no pointer to the help. A path
// that is a device is a usage error.
func TestOutputWriteFailure(t *testing.T) {
	dir := t.TempDir()
	notDir := filepath.Join(dir, "afile")
	require.NoError(t, os.WriteFile(notDir, nil, 0o644))
	for _, tc := range []struct {
		cmd  []string
		path string
	}{
		{[]string{"plan", evoImage}, filepath.Join(notDir, "x.txt")},
		{[]string{"plan", evoImage}, filepath.Join(dir, "no", "such", "x.txt")},
		{[]string{"convert", "--to", "json", evoImage}, filepath.Join(notDir, "x.json")},
		{[]string{"survey", corpusDir + "/smartctl"}, filepath.Join(notDir, "s.txt")},
		{[]string{"metrics", "--root", bundleDir}, filepath.Join(notDir, "m.prom")},
	} {
		code, out, errOut := apstctl(t, nil, append(tc.cmd, "--output", tc.path)...)
		assert.Equal(t, exitFailure, code, "%v: %s", tc.cmd, errOut)
		assert.Empty(t, out)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
		assert.Contains(t, errOut, "apstctl "+tc.cmd[0]+": --output: ")
	}
	code, _, errOut := apstctl(t, nil, "plan", evoImage, "--output", "/dev/null")
	assert.Equal(t, exitUsage, code, errOut)
	assert.Contains(t, errOut, "character device")
}

// --output - and --output /dev/stdout write the report to standard output,
// whatever it is (here a buffer: neither a file nor a terminal).
func TestOutputStdout(t *testing.T) {
	code, want, errOut := apstctl(t, nil, "plan", evoImage)
	require.Equal(t, exitOK, code, errOut)
	for _, name := range []string{"-", "/dev/stdout"} {
		code, out, errOut := apstctl(t, nil, "plan", evoImage, "--output", name)
		require.Equal(t, exitOK, code, errOut)
		assert.Equal(t, want, out, name)
		code, out, errOut = apstctl(t, nil, "convert", "--to", "json", evoImage, "--output", name)
		require.Equal(t, exitOK, code, errOut)
		assert.Contains(t, out, `"mn"`)
		code, out, errOut = apstctl(t, nil, "survey", corpusDir+"/smartctl", "-o", "csv", "--output", name)
		require.Equal(t, exitOK, code, errOut)
		assert.True(t, strings.HasPrefix(out, "path,vendor,"), out)
	}
	_, err := os.Stat("-")
	assert.True(t, os.IsNotExist(err), "no file called -")
}

// A survey with no readable capture writes nothing: no --output file, no
// report on standard output; the unreadable files are on standard error.
func TestSurveyRefusedWritesNothing(t *testing.T) {
	empty := t.TempDir()
	junk := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(junk, "junk.txt"), []byte("not a capture\n"), 0o644))
	for _, format := range []string{"text", "json", "ndjson", "csv"} {
		for _, dir := range []string{empty, junk} {
			file := filepath.Join(t.TempDir(), "sv.txt")
			code, out, errOut := apstctl(t, nil, "survey", "-o", format, "--output", file, dir)
			assert.Equal(t, exitUsage, code, errOut)
			assert.Empty(t, out)
			assert.Contains(t, errOut, "no readable capture under")
			_, err := os.Stat(file)
			assert.True(t, os.IsNotExist(err), "%s: --output written", format)
			code, out, errOut = apstctl(t, nil, "survey", "-o", format, dir)
			assert.Equal(t, exitUsage, code, errOut)
			assert.Empty(t, out, format)
			if dir == junk {
				assert.Contains(t, errOut, "apstctl survey: unreadable: "+filepath.Join(junk, "junk.txt"))
			}
		}
	}
}

// The CSV cells of text from a capture carry its control characters
// escaped, as the text report does, and the CSV stays valid.
func TestSurveyCSVEscapes(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{escapeText, escapeJSON} {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644))
	}
	code, out, errOut := apstctl(t, nil, "survey", "-o", "csv", dir)
	require.Equal(t, exitOK, code, errOut)
	assert.False(t, safeio.HasControl(strings.ReplaceAll(out, "\n", "")), "raw control characters in:\n%s", out)
	rows, err := csv.NewReader(bytes.NewReader([]byte(out))).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 3)
	assert.Equal(t, `AGA\x1b]0;pwned\x07\x1b[2J"\\*?[\r\n`, rows[1][3])
	assert.Equal(t, `F\x1b[31m`, rows[1][4])
	assert.Equal(t, `AGA\x1b]0;pwned\x07\x1b[2J"\\x*?[ \xff`, rows[2][3])
}
