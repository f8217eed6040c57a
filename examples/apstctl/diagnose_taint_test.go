package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The log's JSON says the release and the taint flags a dump's taint line
// gives when the log has no "Linux version" line (a QEMU guest's oops
// under an out-of-tree module, posted ze-05).
func TestDiagnoseJSONTaint(t *testing.T) {
	const log = "[  575.807349] BUG: kernel NULL pointer dereference, address: 00000000000000fe\n" +
		"[  575.812327] CPU: 3 PID: 2542 Comm: xio-tester Tainted: G           OE      6.8.0-117-generic #117-Ubuntu\n"
	code, out, errOut := apstctl(t, []byte(log), "diagnose", "--log", "-", "-o", "json")
	require.Contains(t, []int{exitOK, exitFailure}, code, errOut)
	var v struct {
		Log struct {
			Release string `json:"release"`
			Taint   string `json:"taint"`
		} `json:"log"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &v), out)
	assert.Equal(t, "6.8.0-117-generic", v.Log.Release)
	assert.Equal(t, "OE", v.Log.Taint)
}
