package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

const corpus = "../../../testdata/corpus/smartctl"

// Every file fleetgen writes parses, in its format, to the drive Drive
// describes: its serial, its model and its scaled latencies.
func TestFleetParsesToItsDrives(t *testing.T) {
	out := filepath.Join(t.TempDir(), "fleet")
	const n = 2 * 4 * 10 // two passes of every format over ten files a directory
	require.NoError(t, run([]string{"-n", fmt.Sprint(n), "-out", out, "-corpus", corpus, "-per-dir", "10"}, io.Discard))
	templates, err := readTemplates(corpus)
	require.NoError(t, err)
	cs := make([]powerstate.Controller, len(templates))
	for i := range templates {
		cs[i] = templates[i].c
	}
	wantFormat := []powerstate.Format{powerstate.FormatBinary, powerstate.FormatNVMeCLIText, powerstate.FormatNVMeCLIJSON, powerstate.FormatSmartctlText}
	for i := range n {
		matches, err := filepath.Glob(filepath.Join(out, fmt.Sprintf("rack%04d", i/10), fmt.Sprintf("host%07d.*", i)))
		require.NoError(t, err)
		require.Len(t, matches, 1, "drive %d", i)
		b, err := os.ReadFile(matches[0])
		require.NoError(t, err)
		got, err := capture.ParseBytes(b)
		require.NoError(t, err, matches[0])
		want := Drive(cs, i)
		assert.Equal(t, wantFormat[i%4].String(), got.Format.String(), matches[0])
		assert.Equal(t, want.Serial, got.Serial, matches[0])
		assert.Equal(t, want.Model, got.Model, matches[0])
		require.Equal(t, want.NPSS, got.NPSS, matches[0])
		if got.APSTAKnown() {
			assert.Equal(t, uint8(1), got.APSTA, matches[0])
		}
		for s := range want.States() {
			assert.Equal(t, want.PowerStates[s].ExitLatency, got.PowerStates[s].ExitLatency, "%s ps%d", matches[0], s)
			assert.Equal(t, want.PowerStates[s].EntryLatency, got.PowerStates[s].EntryLatency, "%s ps%d", matches[0], s)
			assert.Equal(t, want.PowerStates[s].MaxPower.MicroWatts(), got.PowerStates[s].MaxPower.MicroWatts(), "%s ps%d", matches[0], s)
		}
	}
	// A second run into the same directory is refused.
	require.Error(t, run([]string{"-n", "1", "-out", out, "-corpus", corpus}, io.Discard))
	require.Error(t, run([]string{"-n", "1", "-out", t.TempDir(), "-corpus", corpus, "-format", "xml"}, io.Discard))
}
