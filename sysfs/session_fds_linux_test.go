package sysfs_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// openFDs is the number of file descriptors this process has open.
func openFDs(t *testing.T) int {
	ents, err := os.ReadDir("/proc/self/fd")
	require.NoError(t, err)
	return len(ents)
}

// TestSessionBoundsOpenDirs holds a session to a bounded number of
// directories kept open: a tree of thousands of controllers (NVMe over
// Fabrics, or a hostile --root) read through one session must not take a
// descriptor per folder until the process runs out of them (EMFILE made
// every later read of the report fail: "too many open files").
func TestSessionBoundsOpenDirs(t *testing.T) {
	for _, tc := range []struct {
		name        string
		controllers int
	}{
		{"a few", 4},
		{"thousands", 3000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for i := range tc.controllers {
				dir := filepath.Join(root, "class", "nvme", fmt.Sprintf("nvme%d", i))
				require.NoError(t, os.MkdirAll(filepath.Join(dir, "power"), 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(dir, "model"), []byte("Model\n"), 0o644))
				require.NoError(t, os.WriteFile(filepath.Join(dir, "power", "pm_qos_latency_tolerance_us"), []byte("25000\n"), 0o644))
			}
			fs := newFS(t, root)
			before := openFDs(t)
			sess, end := fs.Session()
			defer end()
			for i := range tc.controllers {
				c, err := sess.Controller(fmt.Sprintf("nvme%d", i))
				require.NoError(t, err)
				assert.Equal(t, "Model", c.Model)
			}
			assert.Less(t, openFDs(t)-before, 300, "descriptors held by the session")
			// Read again, newest first: a folder closed to stay within
			// the bound is opened anew, and reads as before.
			for i := tc.controllers - 1; i >= 0; i-- {
				c, err := sess.Controller(fmt.Sprintf("nvme%d", i))
				require.NoError(t, err)
				assert.Equal(t, "Model", c.Model)
				assert.True(t, c.HasTolerance)
			}
			assert.Less(t, openFDs(t)-before, 300, "descriptors held by the session")
			end()
			assert.LessOrEqual(t, openFDs(t), before+8, "descriptors left after end")
		})
	}
}
