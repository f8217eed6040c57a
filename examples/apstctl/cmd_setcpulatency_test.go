package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSetCPULatencyCommand(t *testing.T) {
	root := copyBundle(t)
	ctrlFile := filepath.Join(root, "class/nvme/nvme0/cpu_latency_us")
	diskLimit := filepath.Join(root, "block/nvme0n1/cpu_lat_limit_us")
	diskTimeout := filepath.Join(root, "block/nvme0n1/cpu_lat_timeout_ms")
	read := func(p string) string {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		return strings.TrimSpace(string(b))
	}

	code, out, errOut := runCmd(runSetCPULatency, "--root", root, "nvme0", "150")
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, "nvme0: cpu_latency_us off -> 150\n", out)
	assert.Equal(t, "150", read(ctrlFile))

	code, out, errOut = runCmd(runSetCPULatency, "--root", root, "/dev/nvme0", "off")
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, "nvme0: cpu_latency_us 150 -> off\n", out)

	code, out, errOut = runCmd(runSetCPULatency, "--root", root, "--timeout-ms", "20", "nvme0n1", "200")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "nvme0n1: cpu_lat_limit_us ")
	assert.Contains(t, out, "-> 200\n")
	assert.Contains(t, out, "nvme0n1: cpu_lat_timeout_ms ")
	assert.Equal(t, "200", read(diskLimit))
	assert.Equal(t, "20", read(diskTimeout))

	// Refused values leave every file as it was.
	before := []string{read(ctrlFile), read(diskLimit), read(diskTimeout)}
	for _, args := range [][]string{
		{"nvme0", "-5"}, {"nvme0", "2147483648"}, {"nvme0", "12abc"}, {"nvme0", ""},
		{"--timeout-ms", "5", "nvme0", "100"}, {"--timeout-ms", "-1", "nvme0n1", "100"},
	} {
		code, out, errOut := runCmd(runSetCPULatency, append([]string{"--root", root}, args...)...)
		assert.Equal(t, exitUsage, code, "%q", args)
		assert.Empty(t, out)
		assert.Contains(t, errOut, "nothing written", "%q", args)
	}
	assert.Equal(t, before, []string{read(ctrlFile), read(diskLimit), read(diskTimeout)})

	// A kernel without the patch: the attribute is absent.
	require.NoError(t, os.Remove(ctrlFile))
	code, _, errOut = runCmd(runSetCPULatency, "--root", root, "nvme0", "150")
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errOut, "not supported by this kernel")
	_, err := os.Stat(ctrlFile)
	assert.True(t, os.IsNotExist(err), "no file is created")

	code, _, _ = runCmd(runSetCPULatency, "--root", root, "nvme0")
	assert.Equal(t, exitUsage, code)

	code, out, errOut = runCmd(runSetCPULatency, "--root", root, "nvme0n1", "300", "-o", "json", "--timeout-ms", "5")
	require.Equal(t, exitOK, code, errOut)
	assert.JSONEq(t, `{"target":"nvme0n1","changes":[{"attribute":"cpu_lat_limit_us","old":200,"new":300},{"attribute":"cpu_lat_timeout_ms","old":20,"new":5}]}`, out)
}

// set-cpu-latency --timeout-ms whose cpu_lat_timeout_ms cannot be written
// (a kernel with the limit but not the timeout, or a timeout that reads
// back otherwise) puts cpu_lat_limit_us back: nothing is left half-changed,
// and the status (1) and message say so.
func TestSetCPULatencyTimeoutFailureRollsBack(t *testing.T) {
	for name, breakTimeout := range map[string]func(p string) error{
		"absent":    os.Remove,
		"directory": func(p string) error { require.NoError(t, os.Remove(p)); return os.Mkdir(p, 0o755) },
	} {
		t.Run(name, func(t *testing.T) {
			root := copyBundle(t)
			limit := filepath.Join(root, "block/nvme0n1/cpu_lat_limit_us")
			was, err := os.ReadFile(limit)
			require.NoError(t, err)
			require.NoError(t, breakTimeout(filepath.Join(root, "block/nvme0n1/cpu_lat_timeout_ms")))
			code, out, errOut := runCmd(runSetCPULatency, "--root", root, "--timeout-ms", "3", "nvme0n1", "321")
			assert.Equal(t, exitFailure, code, errOut)
			assert.Empty(t, out)
			assert.Contains(t, errOut, "nothing changed: cpu_lat_limit_us off put back")
			require.Equal(t, "-1", strings.TrimSpace(string(was)))
			now, err := os.ReadFile(limit)
			require.NoError(t, err)
			assert.Equal(t, strings.TrimSpace(string(was)), strings.TrimSpace(string(now)))
		})
	}
}

// What the tree holds (a malformed attribute) is a failure, 1, as for
// set-latency; what the user named wrongly (a controller that is not
// there) is status 2. Nothing is written either way.
func TestSetCPULatencyStatusSaysWhoIsAtFault(t *testing.T) {
	root := copyBundle(t)
	ctrlFile := filepath.Join(root, "class/nvme/nvme0/cpu_latency_us")
	require.NoError(t, os.WriteFile(ctrlFile, []byte("12abc\n"), 0o644))
	for _, tt := range []struct {
		target string
		code   int
	}{{"nvme0", exitFailure}, {"nvme9", exitUsage}, {"nvme0n9", exitUsage}} {
		code, out, errOut := runCmd(runSetCPULatency, "--root", root, tt.target, "100")
		assert.Equal(t, tt.code, code, "%s: %s", tt.target, errOut)
		assert.Empty(t, out)
	}
	_, _, errOut := runCmd(runSetCPULatency, "--root", root, "nvme0", "100")
	assert.Contains(t, errOut, "nothing written")
	b, err := os.ReadFile(ctrlFile)
	require.NoError(t, err)
	assert.Equal(t, "12abc\n", string(b))
}
