package sysfs_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

// TestSessionWrites: a write through a session's copy reads the value before
// it and the value after it from the tree, not from what the session read
// earlier (the read-back returned the session's old value, so a write that
// happened was an ErrReadBack, and the old value was the session's).
func TestSessionWrites(t *testing.T) {
	root := sysfs.CopyFixture(t, "../testdata/sys")
	sess, end := newFS(t, root).Session()
	defer end()
	c, err := sess.Controller("nvme0")
	require.NoError(t, err)
	require.NotNil(t, c.CPULatency)
	require.NoError(t, os.WriteFile(filepath.Join(root, filepath.FromSlash(toleranceFile)), []byte("30000\n"), 0o644))

	old, got, err := sess.SetLatencyTolerance("nvme0", "25000")
	require.NoError(t, err)
	assert.Equal(t, apst.Tolerance{Kind: apst.ToleranceValue, Value: 30000}, old, "the tree's value before the write")
	assert.Equal(t, apst.Tolerance{Kind: apst.ToleranceValue, Value: 25000}, got)
	assert.Equal(t, "25000", readFile(t, root, toleranceFile))

	oldCPU, gotCPU, err := sess.SetCPULatency("nvme0", 10)
	require.NoError(t, err)
	assert.Equal(t, *c.CPULatency, oldCPU)
	assert.Equal(t, int64(10), gotCPU)

	for range 2 {
		_, _, err = sess.SetDiskCPULatencyLimit("nvme0n1", 20)
		require.NoError(t, err, "a second write of the same file reads back the tree too")
		_, _, err = sess.SetDiskCPULatencyTimeout("nvme0n1", 30)
		require.NoError(t, err)
	}
	_, _, err = sess.SetDiskCPULatencyLimit("nvme0n1", 21)
	require.NoError(t, err)
}
