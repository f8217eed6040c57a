package blockdev

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOpenRefusesWhatIsNotABlockDevice(t *testing.T) {
	file := filepath.Join(t.TempDir(), "image")
	require.NoError(t, os.WriteFile(file, make([]byte, 8192), 0o644))
	for _, p := range []string{file, "/dev/null"} {
		_, err := Open(p)
		if err != nil && strings.Contains(err.Error(), "invalid argument") {
			t.Logf("%s: O_DIRECT refused by the file system: %v", p, err)
			continue
		}
		require.ErrorIs(t, err, ErrNotBlockDevice, p)
		assert.Contains(t, err.Error(), p)
	}
	_, err := Open(filepath.Join(t.TempDir(), "missing"))
	require.ErrorIs(t, err, os.ErrNotExist)
}

// TestRealDevice reads one block of the first namespace of the controller
// NVMEAPST_TEST_DEVICE names (e.g. /dev/nvme0 reads /dev/nvme0n1).
func TestRealDevice(t *testing.T) {
	path := os.Getenv("NVMEAPST_TEST_DEVICE")
	if path == "" {
		t.Skip("set NVMEAPST_TEST_DEVICE=/dev/nvmeN to read its first namespace")
	}
	d, err := Open(path + "n1")
	require.NoError(t, err)
	defer func() { require.NoError(t, d.Close()) }()
	require.Positive(t, d.Size())
	require.NoError(t, d.ReadAt(0))
	require.NoError(t, d.ReadAt(d.Size()-int64(d.ReadLength())))
	t.Logf("%s: %d bytes, logical block %d", d.Path(), d.Size(), d.LogicalBlockSize())
}
