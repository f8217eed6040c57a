package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

const convertCorpus = "../../testdata/corpus"

func convert(args []string, in *strings.Reader, out, errb *bytes.Buffer) int {
	return runConvert(args, in, out, errb)
}

// TestConvertSmartctlToEveryFormat turns a real smartctl report into each
// output format and reads it back.
func TestConvertSmartctlToEveryFormat(t *testing.T) {
	report := filepath.Join(convertCorpus, "smartctl", "Samsung_SSD_990_EVO_Plus_1TB_2B2QKXG7.txt")
	data, err := os.ReadFile(report)
	require.NoError(t, err)
	want, err := powerstate.Parse(bytes.NewReader(data))
	require.NoError(t, err)
	for _, to := range []struct {
		name   string
		format powerstate.Format
	}{
		{"binary", powerstate.FormatBinary},
		{"nvme-cli-text", powerstate.FormatNVMeCLIText},
		{"nvme-cli-json", powerstate.FormatNVMeCLIJSON},
		{"smartctl-text", powerstate.FormatSmartctlText},
	} {
		t.Run(to.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			code, stdout, stderr := runTool(convert, "", "--to", to.name, "-o", out, report)
			require.Equal(t, 0, code, stderr)
			assert.Empty(t, stdout)
			b, err := os.ReadFile(out)
			require.NoError(t, err)
			if to.format == powerstate.FormatBinary {
				assert.Len(t, b, powerstate.IdentifySize)
				assert.Contains(t, stderr, "does not record APSTA")
				assert.Equal(t, byte(1), b[265], "APSTA assumed, as apst.Build does")
			} else {
				assert.Empty(t, stderr)
			}
			got, err := powerstate.Parse(bytes.NewReader(b))
			require.NoError(t, err)
			assert.Equal(t, to.format, got.Format)
			assert.Equal(t, want.States(), got.States())
			assert.Equal(t, want.Model, got.Model)
			assert.Equal(t, want.VendorID, got.VendorID)
		})
	}
}

func TestConvertStdinToStdout(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(convertCorpus, "nvme-cli", "synthetic", "Samsung_SSD_990_EVO_Plus_1TB_2B2QKXG7.v1.txt"))
	require.NoError(t, err)
	code, stdout, stderr := runTool(convert, string(data), "-", "--to", "nvme-cli-text")
	require.Equal(t, 0, code, stderr)
	assert.True(t, strings.HasPrefix(stdout, "NVME Identify Controller:\n"))
	assert.Contains(t, stdout, "ps      4 : mp:0.0070W non-operational enlat:1600 exlat:43000 rrt:4 rrl:4\n")
}

func TestConvertErrors(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(convertCorpus, "smartctl", "Samsung_SSD_990_EVO_Plus_1TB_2B2QKXG7.txt"))
	require.NoError(t, err)
	cut := string(data[:bytes.Index(data, []byte(" 3 -   0.0800W"))+8])
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  []string
	}{
		{"cut report", cut, []string{"--to", "binary", "-"}, 2, []string{"apstctl convert: standard input:", "smartctl-text capture, line 33", "truncated"}},
		{"unknown format", "hello\n", []string{"--to", "binary", "-"}, 2, []string{"unknown capture format"}},
		{"missing --to", "", []string{"-"}, 2, []string{"--to"}},
		{"bad --to", "", []string{"--to", "yaml", "-"}, 2, []string{"yaml"}},
		{"missing file", "", []string{"--to", "binary", "/nonexistent/capture"}, 2, []string{"/nonexistent/capture"}},
		{"unwritable output", string(data), []string{"--to", "binary", "-o", "/nonexistent/dir/out", "-"}, 1, []string{"/nonexistent/dir/out"}},
		{"no capture", "", []string{"--to", "binary"}, 2, []string{"want 1 argument"}},
		{"help", "", []string{"--help"}, 0, []string{"usage: apstctl convert"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runTool(convert, tc.stdin, tc.args...)
			assert.Equal(t, tc.code, code, stderr)
			for _, w := range tc.want {
				assert.Contains(t, stderr, w)
			}
		})
	}
}
