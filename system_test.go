package nvmeapst_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/ioctl"
)

func TestDevOpener(t *testing.T) {
	o := nvmeapst.DevOpener(t.TempDir())
	c, err := o.OpenController(context.Background(), "nvme0")
	assert.Nil(t, c)
	if runtime.GOOS == "linux" {
		assert.ErrorIs(t, err, os.ErrNotExist)
	} else {
		assert.ErrorIs(t, err, ioctl.ErrUnsupported)
	}
	for _, name := range []string{"nvme0n1", "../nvme0", "sda", "nvme"} {
		c, err := o.OpenController(context.Background(), name)
		assert.Nil(t, c)
		assert.ErrorContains(t, err, "not an NVMe controller name", name)
	}
}

func TestFileRelease(t *testing.T) {
	p := filepath.Join(t.TempDir(), "osrelease")
	require.NoError(t, os.WriteFile(p, []byte("6.18.44-test\n"), 0o644))
	rel, err := nvmeapst.FileRelease(p)()
	require.NoError(t, err)
	assert.Equal(t, "6.18.44-test", rel)

	require.NoError(t, os.WriteFile(p, []byte(strings.Repeat("x", 5000)), 0o644))
	_, err = nvmeapst.FileRelease(p)()
	assert.ErrorContains(t, err, "longer than")

	_, err = nvmeapst.FileRelease(filepath.Join(t.TempDir(), "missing"))()
	assert.ErrorIs(t, err, os.ErrNotExist)
}

func TestKernelReleaseSelectsV411(t *testing.T) {
	s := system(t, fixtureRoot, consistentDrives(t))
	s.KernelRelease = func() (string, error) { return "4.11.12-generic", nil }
	r := inspect(t, s, "nvme2")
	assert.Equal(t, "v4.11", r.Generation.String())
	assert.Equal(t, "v4.11", r.Controllers[0].Params.Generation.String())
}
