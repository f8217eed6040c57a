//go:build unix

package safeio_test

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// mkfifo makes a named pipe in dir and returns its path.
func mkfifo(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(p, 0o644))
	return p
}
