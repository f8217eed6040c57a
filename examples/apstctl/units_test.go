package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The service of examples/metrics runs a metrics command line apstctl
// accepts (run here on the bundle, into a temporary textfile directory it
// is allowed to write), the timer starts that service, and both say how to
// undo them.
func TestMetricsUnits(t *testing.T) {
	inRepoRoot(t)
	svc, err := os.ReadFile("examples/metrics/nvmeapst-metrics.service")
	require.NoError(t, err)
	timer, err := os.ReadFile("examples/metrics/nvmeapst-metrics.timer")
	require.NoError(t, err)
	assert.Contains(t, string(timer), "Unit=nvmeapst-metrics.service")
	assert.Contains(t, string(timer), "WantedBy=timers.target")
	assert.Contains(t, string(svc), "undo:")
	var exec, rw string
	for _, l := range strings.Split(string(svc), "\n") {
		if v, ok := strings.CutPrefix(l, "ExecStart="); ok {
			exec = v
		}
		if v, ok := strings.CutPrefix(l, "ReadWritePaths="); ok {
			rw = v
		}
	}
	args := strings.Fields(exec)
	require.GreaterOrEqual(t, len(args), 2)
	assert.Equal(t, "/usr/bin/apstctl", args[0])
	doc, err := os.ReadFile("docs/metrics.md")
	require.NoError(t, err)
	assert.Contains(t, string(doc), "install -m 0755 apstctl "+args[0]+"\n", "docs/metrics.md installs the binary where the service runs it")
	assert.Contains(t, string(doc), "rm "+args[0], "docs/metrics.md's undo removes it")
	i := strings.Index(exec, "--textfile-dir ")
	require.GreaterOrEqual(t, i, 0)
	assert.Equal(t, rw, strings.Fields(exec[i:])[1], "the service may write where it writes")

	dir := t.TempDir()
	for k, a := range args {
		if a == rw {
			args[k] = dir
		}
	}
	code, _, errOut := apstctl(t, nil, append(args[1:], "--root", "testdata/bundle")...)
	require.Equal(t, 0, code, errOut)
	_, err = os.Stat(filepath.Join(dir, textfileName))
	assert.NoError(t, err)
}
