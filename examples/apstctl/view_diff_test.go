package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A table difference has one JSON shape (cli.md): check's differences and
// inspect's verdict differences for the same drive, table and bound are the
// same objects; inspect adds only the deprecated "kernel" string, equal to
// expected.value.
func TestTableDifferenceOneShape(t *testing.T) {
	inRepoRoot(t)
	code, out, errOut := runCmd(runCheck, "--ps-max-latency-us", "25000",
		"testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin",
		"examples/apstctl/testdata/feature/samsung-990-evo-plus-100ms.txt", "-o", "json")
	require.Equal(t, 1, code, errOut)
	var check struct {
		Differences []map[string]any `json:"differences"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &check))
	require.Len(t, check.Differences, 1)

	code, out, errOut = runCmd(runInspect, "--root", "testdata/bundle", "-o", "json")
	require.Equal(t, 0, code, errOut)
	var report struct {
		Controllers []struct {
			Name    string `json:"name"`
			Verdict struct {
				Differences []map[string]any `json:"differences"`
			} `json:"verdict"`
		} `json:"controllers"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &report))
	var inspected []map[string]any
	for _, c := range report.Controllers {
		inspected = append(inspected, c.Verdict.Differences...)
	}
	require.Len(t, inspected, 1, "the bundle's 990 EVO Plus holds the 100 ms table under a 25 ms bound")
	got := inspected[0]
	want := check.Differences[0]
	assert.Equal(t, want["expected"].(map[string]any)["value"], got["kernel"], "the deprecated key is expected.value")
	delete(got, "kernel")
	assert.Equal(t, want, got)
	for _, side := range []string{"expected", "drive"} {
		assert.IsType(t, map[string]any{}, got[side], side+" is an entry object")
	}
}
