package sysfs_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/sysfs"
)

// A write that fails in a copy of the tree (a bundle, a fake root) leaves
// the attribute as it was, never empty or half-written, and no temporary
// file behind; one that succeeds keeps the file's mode.
func TestWriteToCopyIsAtomic(t *testing.T) {
	for _, tt := range []struct {
		name, rel string
		set       func(fs sysfs.FS) error
	}{
		{"tolerance", toleranceFile, func(fs sysfs.FS) error { _, _, err := fs.SetLatencyTolerance("nvme0", "5"); return err }},
		{"cpu latency", "class/nvme/nvme0/cpu_latency_us", func(fs sysfs.FS) error { _, _, err := fs.SetCPULatency("nvme0", 7); return err }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := sysfs.CopyFixture(t, "../testdata/sys")
			p := filepath.Join(root, filepath.FromSlash(tt.rel))
			if _, err := os.Stat(p); os.IsNotExist(err) {
				require.NoError(t, os.WriteFile(p, []byte("-1\n"), 0o644))
			}
			require.NoError(t, os.Chmod(p, 0o604))
			was := readFile(t, root, tt.rel)
			require.NotEmpty(t, strings.TrimSpace(was))

			err := tt.set(sysfs.WithWriteDataError(newFS(t, root), syscall.ENOSPC))
			require.ErrorIs(t, err, syscall.ENOSPC)
			assert.Equal(t, was, readFile(t, root, tt.rel), "the old value stays")
			ents, err := os.ReadDir(filepath.Dir(p))
			require.NoError(t, err)
			for _, e := range ents {
				assert.NotContains(t, e.Name(), ".tmp-", "temporary file left")
			}

			require.NoError(t, tt.set(newFS(t, root)))
			assert.NotEqual(t, was, readFile(t, root, tt.rel))
			fi, err := os.Stat(p)
			require.NoError(t, err)
			assert.Equal(t, os.FileMode(0o604), fi.Mode().Perm(), "mode kept")
		})
	}
}
