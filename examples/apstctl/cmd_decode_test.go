package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
)

// decodeCapture is "nvme get-feature -f 0x0c -H" (v2.9 and later) of the
// table the kernel programs on a Samsung 990 EVO Plus.
func decodeCapture() string {
	var b strings.Builder
	b.WriteString("get-feature:0x0c (Autonomous Power State Transition), Current value:0x00000001\n")
	b.WriteString("\tAutonomous Power State Transition Enable (APSTE): Enabled\n")
	b.WriteString("\tAuto PST Entries\t.................\n")
	for i := range apst.Entries {
		itpt, itps := 0, 0
		switch {
		case i < 3:
			itpt, itps = 100, 3
		case i == 3:
			itpt, itps = 2000, 4
		}
		fmt.Fprintf(&b, "\tEntry[%2d]\n\t.................\n", i)
		fmt.Fprintf(&b, "\tIdle Time Prior to Transition (ITPT): %d ms\n", itpt)
		fmt.Fprintf(&b, "\tIdle Transition Power State   (ITPS): %d\n\t.................\n", itps)
	}
	return b.String()
}

func runTool(f func([]string, *strings.Reader, *bytes.Buffer, *bytes.Buffer) int, stdin string, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := f(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func decode(args []string, in *strings.Reader, out, errb *bytes.Buffer) int {
	return runDecode(args, in, out, errb)
}

func TestDecodeJSON(t *testing.T) {
	code, out, stderr := runTool(decode, decodeCapture(), "--format", "json", "-")
	require.Equal(t, 0, code, stderr)
	var got struct {
		Enabled bool `json:"enabled"`
		Entries []struct {
			State       int    `json:"state"`
			Value       string `json:"value"`
			TargetState int    `json:"target_state"`
			IdleTimeMS  uint64 `json:"idle_time_ms"`
		} `json:"entries"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.True(t, got.Enabled)
	require.Len(t, got.Entries, 32)
	assert.Equal(t, "0x0000000000006418", got.Entries[0].Value)
	assert.Equal(t, 3, got.Entries[0].TargetState)
	assert.Equal(t, uint64(100), got.Entries[0].IdleTimeMS)
	assert.Equal(t, "0x000000000007d020", got.Entries[3].Value)
	assert.Equal(t, 31, got.Entries[31].State)
	assert.Empty(t, stderr)
}

func TestDecodeText(t *testing.T) {
	code, out, stderr := runTool(decode, decodeCapture(), "-")
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	assert.Equal(t, "APSTE: enabled", lines[0])
	assert.Equal(t, "Select: Current", lines[1])
	var rows [][]string
	for _, l := range lines {
		rows = append(rows, strings.Fields(l))
	}
	assert.Contains(t, rows, []string{"state", "target", "idle_ms", "value"})
	assert.Contains(t, rows, []string{"0", "3", "100", "0x0000000000006418"})
	assert.Contains(t, rows, []string{"3", "4", "2000", "0x000000000007d020"})
	assert.Contains(t, rows, []string{"31", "0", "0", "0x0000000000000000"})
	assert.Len(t, lines, 3+1+32)
}

func TestDecodeRawFileAfterFlags(t *testing.T) {
	var tbl apst.Table
	tbl[0] = apst.NewEntry(3, 100)
	raw, err := tbl.MarshalBinary()
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "apst.bin")
	require.NoError(t, os.WriteFile(path, raw, 0o644))
	code, out, stderr := runTool(decode, "", path, "--format", "json") // flags after the capture
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, `"enabled": false`)
	assert.Contains(t, stderr, "does not record APSTE")
}

func TestDecodeErrors(t *testing.T) {
	cut := decodeCapture()[:500]
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  []string
	}{
		{"truncated names stdin and line", cut, []string{"-"}, 2, []string{"apstctl decode: standard input:", "line 16", "truncated"}},
		{"missing file", "", []string{"/nonexistent/apst.txt"}, 2, []string{"/nonexistent/apst.txt"}},
		{"no capture", "", nil, 2, []string{"want 1 argument"}},
		{"two captures", "", []string{"a", "b"}, 2, []string{"want 1 argument"}},
		{"bad format", "", []string{"--format", "yaml", "-"}, 2, []string{"want text or json"}},
		{"unknown flag", "", []string{"--bogus", "-"}, 2, []string{"bogus"}},
		{"help", "", []string{"-h"}, 0, []string{"usage: apstctl decode"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runTool(decode, tc.stdin, tc.args...)
			assert.Equal(t, tc.code, code)
			for _, w := range tc.want {
				assert.Contains(t, stderr, w)
			}
		})
	}
}
