package sysfs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
)

func TestPowerWalksThePCIPath(t *testing.T) {
	fs, err := NewFS("testdata/laptop-tlp")
	require.NoError(t, err)
	p, errs, err := fs.PowerFacts("nvme0")
	require.NoError(t, err)
	assert.Empty(t, errs)
	assert.Equal(t, "nvme0", p.Controller)
	assert.Equal(t, diagnose.Fact{Source: "/sys/class/nvme/nvme0/state", Value: "live", Status: diagnose.Read}, p.State)
	assert.Equal(t, "3", p.ResetCount.Value)
	assert.Equal(t, "0", p.ReconnectCount.Value)
	assert.Equal(t, "12", p.CommandErrorCount.Value)
	assert.Equal(t, "powersupersave", p.ASPMPolicy.Value)
	_, gap := fs.pciPath("nvme0")
	assert.Empty(t, gap)
	require.Len(t, p.Path, 2)
	dev, port := p.Path[0], p.Path[1]
	assert.Equal(t, "0000:04:00.0", dev.Address)
	assert.Equal(t, "0000:04:00.0", p.Address)
	assert.Equal(t, "device", dev.Role)
	assert.Equal(t, "/sys/devices/pci0000_00/0000_00_1d.0/0000_04_00.0/d3cold_allowed", dev.D3coldAllowed.Source)
	assert.Equal(t, "0000:00:1d.0", port.Address)
	assert.Equal(t, "root port", port.Role)
	assert.Equal(t, "1", dev.D3coldAllowed.Value)
	assert.Equal(t, "auto", dev.Control.Value)
	assert.Equal(t, "D0", dev.PowerState.Value)
	assert.Equal(t, "suspended", port.RuntimeStatus.Value)
	assert.Equal(t, "D3hot", port.PowerState.Value)
	assert.Equal(t, "1", dev.Link.L1_2.Value)
	assert.Equal(t, "0", port.Link.L0s.Value)
	assert.Equal(t, "/sys/devices/pci0000_00/0000_00_1d.0/link/l1_2_aspm", port.Link.L1_2.Source)

	files, pciDir, err := fs.PowerFiles("nvme0")
	require.NoError(t, err)
	assert.Equal(t, "devices/pci0000_00/0000_00_1d.0/0000_04_00.0", pciDir)
	assert.Contains(t, files, "class/nvme/nvme0/diag/reset_count")
	assert.Contains(t, files, "devices/pci0000_00/0000_00_1d.0/power/runtime_status")
	assert.NotContains(t, files, "devices/pci0000_00/0000_00_1d.0/config", "the root port is runtime suspended: its config is not read")
	assert.NotContains(t, files, "devices/pci0000_00/0000_00_1d.0/0000_04_00.0/config", "nor is the drive's, below it")
	assert.Len(t, files, 3+2*11, "the three counters and the eleven text files of each function")
}

// Files an older kernel does not have are "not exposed here": absent, no
// error.
func TestPowerOnAnOlderKernel(t *testing.T) {
	fs, err := NewFS("../testdata/sys")
	require.NoError(t, err)
	p, errs, err := fs.PowerFacts("nvme0")
	require.NoError(t, err)
	assert.Empty(t, errs)
	assert.Equal(t, diagnose.NotExposed, p.ResetCount.Status)
	assert.Equal(t, diagnose.NotExposed, p.ASPMPolicy.Status)
	require.NotEmpty(t, p.Path)
	assert.Equal(t, diagnose.NotExposed, p.Path[0].Link.L1_2.Status)
	assert.Equal(t, diagnose.NotExposed, p.Path[0].PowerState.Status)
}

func TestPowerUnreadableAndEscapes(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS("testdata/laptop-tlp")))
	dev := filepath.Join(dir, "devices/pci0000_00/0000_00_1d.0/0000_04_00.0")
	// A policy without a bracketed word, a FIFO where d3cold_allowed was.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "module/pcie_aspm/parameters/policy"), []byte("default\n"), 0o644))
	require.NoError(t, os.Remove(filepath.Join(dev, "d3cold_allowed")))
	testfixture.Mkfifo(t, filepath.Join(dev, "d3cold_allowed"))
	fs, err := NewFS(dir)
	require.NoError(t, err)
	p, errs, err := fs.PowerFacts("nvme0")
	require.NoError(t, err)
	require.Len(t, errs, 2)
	require.ErrorIs(t, errs[0], ErrInvalidAttribute, "the policy, read before the path")
	require.ErrorIs(t, errs[1], ErrNotRegular)
	assert.Equal(t, diagnose.Unreadable, p.ASPMPolicy.Status)
	assert.Equal(t, diagnose.Unreadable, p.Path[0].D3coldAllowed.Status)
	assert.Equal(t, errs[1].Error(), p.Path[0].D3coldAllowed.Error)

	// A device link that leaves the tree gives no path, with the reason.
	link := filepath.Join(dev, "nvme/nvme0/device")
	require.NoError(t, os.Remove(link))
	require.NoError(t, os.Symlink("../../../../../../../../etc", link))
	p, _, err = fs.PowerFacts("nvme0")
	require.NoError(t, err)
	assert.Empty(t, p.Path)
	_, gap := fs.pciPath("nvme0")
	assert.Contains(t, gap, "leaves the tree")

	// A snapshot (a bundle, whose links are folders) supplies the path.
	require.NoError(t, os.Remove(link))
	require.NoError(t, os.Mkdir(link, 0o755))
	p, _, err = fs.PowerFacts("nvme0")
	require.NoError(t, err)
	assert.Empty(t, p.Path)
	_, gap = fs.pciPath("nvme0")
	assert.Contains(t, gap, "is not a PCI function's")
	p, _, err = fs.WithSnapshot(Snapshot{PCIPaths: map[string]string{"nvme0": "devices/pci0000_00/0000_00_1d.0/0000_04_00.0"}}).PowerFacts("nvme0")
	require.NoError(t, err)
	assert.Len(t, p.Path, 2)

	_, _, err = fs.PowerFacts("../x")
	require.ErrorIs(t, err, ErrInvalidName)
	_, _, err = fs.PowerFacts("nvme9")
	require.ErrorIs(t, err, os.ErrNotExist)
}

func TestParseASPMPolicy(t *testing.T) {
	for in, want := range map[string]string{
		"[default] performance powersave powersupersave": "default",
		"default performance powersave [powersupersave]": "powersupersave",
		"default [performance]\n":                        "performance",
	} {
		got, err := ParseASPMPolicy(in)
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
	for _, bad := range []string{"", "default", "[]", "[ default ]"} {
		_, err := ParseASPMPolicy(bad)
		require.ErrorIs(t, err, ErrInvalidAttribute, bad)
	}
}
