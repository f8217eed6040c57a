package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// What the reader of a capture noted ("read as 5 states: a paste cut after
// a whole row would look the same", a quoted-printable body decoded) can
// change every answer on it: each command that reads a capture says it in
// its text, as plan does, and lists it in the JSON's capture_notes.
func TestCaptureNotesInEveryCommand(t *testing.T) {
	const cut = "../../testdata/forms/evo.smartctl.table-only.txt"
	const qp = "../../testdata/forms/evo.nvme-cli-v2_12.qp.txt"
	const trace = "testdata/replay/writeback.blkparse"
	for _, tc := range []struct {
		args []string
		note string
	}{
		{[]string{"plan", cut}, "the power state table runs to the end of the capture"},
		{[]string{"plan", cut, "--kernel", "4.10"}, "the power state table runs to the end of the capture"},
		{[]string{"check", cut, feature100}, "the power state table runs to the end of the capture"},
		{[]string{"sweep", cut}, "the power state table runs to the end of the capture"},
		{[]string{"compare", cut, "--with", "ps-max-latency-us=25000"}, "the power state table runs to the end of the capture"},
		{[]string{"simulate", cut, "--gap", "1s"}, "the power state table runs to the end of the capture"},
		{[]string{"recommend", cut, "--max-stall", "25ms"}, "the power state table runs to the end of the capture"},
		{[]string{"replay", cut, trace}, "the power state table runs to the end of the capture"},
		{[]string{"measure", "--simulate", cut, "--trials", "2"}, "the power state table runs to the end of the capture"},
		{[]string{"persist", qp, "--bound", "25000"}, "the capture was quoted-printable"},
	} {
		t.Run(tc.args[0], func(t *testing.T) {
			code, out, errOut := apstctl(t, nil, tc.args...)
			require.Contains(t, []int{exitOK, exitFailure}, code, errOut)
			assert.Contains(t, out, "note: capture: ")
			assert.Contains(t, out, tc.note)

			code, out, errOut = apstctl(t, nil, append(tc.args, "-o", "json")...)
			require.Contains(t, []int{exitOK, exitFailure}, code, errOut)
			var v struct {
				CaptureNotes []string `json:"capture_notes"`
			}
			require.NoError(t, json.Unmarshal([]byte(out), &v))
			require.Len(t, v.CaptureNotes, 1)
			assert.Contains(t, v.CaptureNotes[0], tc.note)
		})
	}
	code, out, errOut := apstctl(t, nil, "diagnose", "--log", "../../apst/diagnose/testdata/apst.log", "--id-ctrl", qp)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "note: capture: the capture was quoted-printable")
}
