package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// The survey's JSON and NDJSON reports escape the bidirectional and C1
// controls of a model, a path or an error (as every JSON report of
// apstctl does: safeio.AppendJSONSafe), carrying the same values; a
// report so written merges, keeping its identity.
func TestSurveyJSONEscapesBidi(t *testing.T) {
	const model = "Evil\u202eDSS\u0085 SSD"
	dir := t.TempDir()
	c := powerstate.Controller{VendorID: 0xabcd, Model: model, Firmware: "1.0\u2066", NPSS: 1, APSTA: 1}
	c.PowerStates[0].MaxPower = powerstate.MaxPowerOf(500, false)
	c.PowerStates[1] = powerstate.Descriptor{NonOperational: true, EntryLatency: 1000, ExitLatency: 40000, MaxPower: powerstate.MaxPowerOf(30, true)}
	var buf bytes.Buffer
	require.NoError(t, capture.WriteNVMeCLIJSON(&buf, &c))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "drive\u202etxt.json"), buf.Bytes(), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bad\u202e.txt"), []byte("not a capture\n"), 0o644))

	raw := []string{"\u202e", "\u2066", "\u0085"}
	for _, args := range [][]string{{"--format", "json"}, {"--format", "ndjson"}, {"--format", "json", "--full"}} {
		code, out, errOut := anRun(t, cmdFunc("survey"), nil, append(args, dir)...)
		require.Equal(t, exitOK, code, errOut)
		for _, r := range raw {
			assert.NotContains(t, out, r, "%v", args)
		}
		assert.Contains(t, out, `Evil\u202eDSS\u0085 SSD`, "%v", args)
		assert.Contains(t, out, `bad\u202e.txt`, "%v: the unreadable file", args)
		if args[1] == "json" {
			var v surveyOut
			require.NoError(t, json.Unmarshal([]byte(out), &v), out)
			require.Len(t, v.Drives, 1)
			assert.Equal(t, model, v.Drives[0].Model, "the same value")
			assert.True(t, strings.HasSuffix(v.Drives[0].Path, "drive\u202etxt.json"))
		}
	}

	// The escaped report merges, and is the same survey.
	code, out, errOut := anRun(t, cmdFunc("survey"), nil, "--format", "json", dir)
	require.Equal(t, exitOK, code, errOut)
	report := filepath.Join(t.TempDir(), "report.json")
	require.NoError(t, os.WriteFile(report, []byte(out), 0o644))
	code, merged, errOut := anRun(t, cmdFunc("survey"), nil, "--format", "json", "--merge", report)
	require.Equal(t, exitOK, code, errOut)
	var a, b struct {
		Summary struct {
			Shards []string `json:"shards"`
		} `json:"summary"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &a))
	require.NoError(t, json.Unmarshal([]byte(merged), &b))
	assert.Equal(t, a.Summary.Shards, b.Summary.Shards)
	for _, r := range raw {
		assert.NotContains(t, merged, r)
	}
}
