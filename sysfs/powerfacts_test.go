package sysfs_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

// PowerFacts gives the facts a diagnosis takes, each naming its file as
// the machine names it, with the roles of the path.
func TestPowerFacts(t *testing.T) {
	fs, err := sysfs.NewFS("testdata/laptop-tlp")
	require.NoError(t, err)
	f, errs, err := fs.PowerFacts("nvme0")
	require.NoError(t, err)
	assert.Empty(t, errs)
	assert.Equal(t, "nvme0", f.Controller)
	assert.Equal(t, "0000:04:00.0", f.Address)
	assert.Equal(t, diagnose.Fact{Source: "/sys/class/nvme/nvme0/state", Value: "live", Status: diagnose.Read}, f.State)
	assert.Equal(t, "3", f.ResetCount.Value)
	assert.Equal(t, "powersupersave", f.ASPMPolicy.Value)
	require.Len(t, f.Path, 2)
	assert.Equal(t, "device", f.Path[0].Role)
	assert.Equal(t, "root port", f.Path[1].Role)
	assert.Equal(t, "1", f.Path[0].Link.L1_2.Value)
	assert.Equal(t, "/sys/devices/pci0000_00/0000_00_1d.0/link/l1_2_aspm", f.Path[1].Link.L1_2.Source)

	old, err := sysfs.NewFS("../testdata/sys")
	require.NoError(t, err)
	f, _, err = old.PowerFacts("nvme0")
	require.NoError(t, err)
	assert.Equal(t, diagnose.NotExposed, f.ResetCount.Status, "an older kernel: not exposed, no error")

	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS("testdata/laptop-tlp")))
	dev := filepath.Join(dir, "devices/pci0000_00/0000_00_1d.0/0000_04_00.0")
	require.NoError(t, os.Remove(filepath.Join(dev, "d3cold_allowed")))
	testfixture.Mkfifo(t, filepath.Join(dev, "d3cold_allowed"))
	fs, err = sysfs.NewFS(dir)
	require.NoError(t, err)
	f, errs, err = fs.PowerFacts("nvme0")
	require.NoError(t, err)
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], sysfs.ErrNotRegular)
	assert.Equal(t, diagnose.Unreadable, f.Path[0].D3coldAllowed.Status)
	_, _, err = fs.PowerFacts("nvme9")
	assert.ErrorIs(t, err, os.ErrNotExist)
}
