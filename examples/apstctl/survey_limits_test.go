package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A survey of more unreadable files than its list keeps counts them all,
// lists the first surveyUnreadableListMax in text and JSON (and says how
// many more there are), and the JSON report of it merges back to the same
// counts; NDJSON lists every one.
func TestSurveyCommandUnreadableListBounded(t *testing.T) {
	const listMax = 20 // surveyUnreadableListMax, lowered so that 25 files overflow it
	unreadableListLimit = listMax
	t.Cleanup(func() { unreadableListLimit = 0 })
	dir := t.TempDir()
	copyTo(t, filepath.Join(surveyBinary, "SKhynix_PC401_NVMe_512GB_80003E00.id-ctrl.bin"), filepath.Join(dir, "drive.bin"))
	const extra = 5
	for i := range listMax + extra {
		require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("junk-%05d.txt", i)), []byte("x"), 0o644))
	}
	total := listMax + extra
	code, out, errOut := anRun(t, cmdFunc("survey"), nil, dir)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, fmt.Sprintf("1 drive surveyed; %d unreadable files", total))
	assert.Equal(t, listMax, strings.Count(out, "  unreadable: "))
	assert.Contains(t, out, fmt.Sprintf("... and %d more unreadable files, not listed (the list keeps the first %d)", extra, listMax))

	js := filepath.Join(t.TempDir(), "s.json")
	surveyTo(t, js, "--format", "json", dir)
	raw, err := os.ReadFile(js)
	require.NoError(t, err)
	assert.Equal(t, listMax, strings.Count(string(raw), `"path": "`))
	assert.Contains(t, string(raw), fmt.Sprintf(`"unreadable_files": %d,`, total))
	assert.Contains(t, string(raw), fmt.Sprintf(`"unreadable_not_listed": %d,`, extra))
	code, merged, errOut := anRun(t, cmdFunc("survey"), nil, "--merge", js)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, merged, fmt.Sprintf("1 drive surveyed; %d unreadable files", total))

	code, nd, errOut := anRun(t, cmdFunc("survey"), nil, "--format", "ndjson", dir)
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, total, strings.Count(nd, `{"unreadable":`))
}

// One configuration, one table: with quirks=none in both
// configurations the WD Blue SN550 report's table changes in the survey as
// in compare (the survey applied the quirk it inferred and said it did
// not).
func TestSurveyCommandQuirksNoneAsCompare(t *testing.T) {
	sn550 := filepath.Join(surveySmartctl, "WDC_WDS200T2B0C-00PXH0_21705000.txt")
	with := []string{"--with", "ps-max-latency-us=100000,quirks=none", "--with", "ps-max-latency-us=25000,quirks=none"}
	code, out, errOut := anRun(t, cmdFunc("survey"), nil, append(with, sn550)...)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "* SanDisk/WD       ps4    39000us     0.0050W  ps3    11000us     0.0250W      +20.0 mW")
	assert.Contains(t, out, "the table changes on 1 of 1 drive")
	code, out, errOut = anRun(t, cmdFunc("compare"), nil, append(with, sn550)...)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "deepest-state: ps4 -> ps3")
}
