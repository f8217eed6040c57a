package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/testfixture"
)

// inspect exits 1 when a controller (an attribute of one) could not be
// read, after printing the whole report; a malformed module parameter is
// shown as malformed, with the default the plan assumed in its place.
func TestInspectUnreadableAndMalformed(t *testing.T) {
	root := copyBundle(t)
	param := filepath.Join(root, "module/nvme_core/parameters/default_ps_max_latency_us")
	require.NoError(t, os.WriteFile(param, []byte("lots\n"), 0o644))
	code, out, errOut := apstctl(t, nil, "inspect", "--root", root)
	assert.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "default_ps_max_latency_us=(malformed: assumed 100000)")
	assert.NotContains(t, out, "default_ps_max_latency_us=(absent)")

	model := filepath.Join(root, "class/nvme/nvme2/model")
	require.NoError(t, os.Remove(model))
	testfixture.Mkfifo(t, model)
	for _, format := range []string{"normal", "json"} {
		code, out, errOut = apstctl(t, nil, "inspect", "--root", root, "-o", format)
		assert.Equal(t, exitFailure, code, "%s: %s", format, errOut)
		assert.Contains(t, out, "nvme0", "the whole report is printed")
		assert.Contains(t, out, "named pipe", format)
	}
}

// collect from a bundle whose APST table file is no regular file records
// why (a warning) and does not blame permissions for it: "needs root" is
// said only when the reason is one.
func TestCollectAPSTReason(t *testing.T) {
	root := copyBundle(t)
	table := filepath.Join(root, "ioctl/nvme2/apst.bin")
	require.NoError(t, os.Remove(table))
	testfixture.Mkfifo(t, table)
	code, out, errOut := apstctl(t, nil, "collect", "--root", root, filepath.Join(t.TempDir(), "b"))
	assert.Equal(t, exitOK, code, errOut)
	assert.Contains(t, errOut, "named pipe")
	assert.Contains(t, out, "nvme2: identify only (the APST table could not be read)")
	assert.NotContains(t, out, "needs root")
}
