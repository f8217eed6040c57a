package sysfs_test

import (
	"os"
	"path/filepath"
	"strings"
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

// PowerFacts reads config, the one binary file, as package diagnose
// decodes it: the slot power limit of each function on the path, unknown
// with the reason when an unprivileged read got its first 64 bytes, and a
// bundle's copy (ReadFile) of it whole, all 256 or 4096 bytes.
func TestPowerFactsSlotPower(t *testing.T) {
	const devDir, portDir = "devices/pci0000_00/0000_00_1d.0/0000_04_00.0", "devices/pci0000_00/0000_00_1d.0"
	// The laptop's root port is runtime suspended: reading a config file
	// on its link would resume it (and the drive, were it in D3cold), so
	// neither is read, and the facts say why.
	var read []string
	fs, err := sysfs.NewFS("testdata/laptop-tlp")
	require.NoError(t, err)
	f, errs, err := fs.WithReadHook(func(rel string) { read = append(read, rel) }).PowerFacts("nvme0")
	require.NoError(t, err)
	assert.Empty(t, errs)
	require.Len(t, f.Path, 2)
	for _, p := range read {
		assert.NotContains(t, p, "config", "a config file read below a suspended bridge")
	}
	assert.Equal(t, diagnose.Unknown, f.Path[0].SlotPower.Status)
	assert.Equal(t, "/sys/"+devDir+"/config", f.Path[0].SlotPower.Source)
	assert.Equal(t, "not read while its bridge is runtime suspended: reading config space below it would wake it (0000:00:1d.0)", f.Path[0].SlotPower.Error)
	assert.Equal(t, "not read while runtime suspended: reading config space would wake it (0000:00:1d.0)", f.Path[1].SlotPower.Error)

	// Awake, both are read.
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS("testdata/laptop-tlp")))
	for _, d := range []string{devDir, portDir} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, d, "power/runtime_status"), []byte("active\n"), 0o644))
	}
	fs, err = sysfs.NewFS(dir)
	require.NoError(t, err)
	f, errs, err = fs.PowerFacts("nvme0")
	require.NoError(t, err)
	assert.Empty(t, errs)
	assert.Equal(t, diagnose.Fact{Source: "/sys/" + devDir + "/config", Value: "25 W", Status: diagnose.Read}, f.Path[0].SlotPower)
	assert.Equal(t, diagnose.Fact{Source: "/sys/" + portDir + "/config", Value: "25 W", Status: diagnose.Read}, f.Path[1].SlotPower)
	// A drive in D3cold is not woken either.
	require.NoError(t, os.WriteFile(filepath.Join(dir, devDir, "power_state"), []byte("D3cold\n"), 0o644))
	f, _, err = fs.PowerFacts("nvme0")
	require.NoError(t, err)
	assert.Contains(t, f.Path[0].SlotPower.Error, "not read while in D3cold")
	require.NoError(t, os.WriteFile(filepath.Join(dir, devDir, "power_state"), []byte("D0\n"), 0o644))
	for _, c := range []struct {
		dir  string
		size int
	}{{devDir, 64}, {portDir, 4096}} {
		p := filepath.Join(dir, c.dir, "config")
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		b = append(b, make([]byte, 4096)...)[:c.size]
		require.NoError(t, os.WriteFile(p, b, 0o644))
	}
	fs, err = sysfs.NewFS(dir)
	require.NoError(t, err)
	for _, session := range []bool{false, true} {
		fs := fs
		if session {
			var end func()
			fs, end = fs.Session()
			defer end()
		}
		f, errs, err = fs.PowerFacts("nvme0")
		require.NoError(t, err)
		assert.Empty(t, errs)
		dev := f.Path[0].SlotPower
		assert.Equal(t, diagnose.Unknown, dev.Status, "64 bytes: never a value")
		assert.Empty(t, dev.Value)
		assert.Contains(t, dev.Error, "needs root")
		assert.Equal(t, "/sys/"+devDir+"/config: unknown ("+dev.Error+")", dev.Describe())
		assert.Equal(t, "25 W", f.Path[1].SlotPower.Value, "4096 bytes, as root reads a PCI Express function's")
		b, err := fs.ReadFile(portDir + "/config")
		require.NoError(t, err)
		assert.Len(t, b, 4096)
	}

	// Past 4096 bytes it is no configuration space: refused, as a text
	// attribute of 4096 bytes is.
	p := filepath.Join(dir, portDir, "config")
	require.NoError(t, os.WriteFile(p, make([]byte, 4097), 0o644))
	f, errs, err = fs.PowerFacts("nvme0")
	require.NoError(t, err)
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], sysfs.ErrInvalidAttribute)
	assert.Equal(t, diagnose.Unreadable, f.Path[1].SlotPower.Status)
	// And config is binary only in a PCI function's folder.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "class/nvme/nvme0/config"), make([]byte, 4096), 0o644))
	_, err = fs.ReadFile("class/nvme/nvme0/config")
	assert.ErrorIs(t, err, sysfs.ErrInvalidAttribute)
}

// Every config is read after every other file of the path: the kernel
// resumes the bridge above a function to read its config, so a root
// port's runtime_status read after the drive's config would say what the
// read made it.
func TestPowerFactsReadConfigLast(t *testing.T) {
	// The laptop with its root port awake (asleep, config is not read at
	// all: TestPowerFactsSlotPower).
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS("testdata/laptop-tlp")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "devices/pci0000_00/0000_00_1d.0/power/runtime_status"), []byte("active\n"), 0o644))
	fs, err := sysfs.NewFS(dir)
	require.NoError(t, err)
	var order []string
	fs = fs.WithReadHook(func(rel string) { order = append(order, rel) })
	_, _, err = fs.PowerFacts("nvme0")
	require.NoError(t, err)
	firstConfig, lastOther := -1, -1
	for i, rel := range order {
		if !strings.HasPrefix(rel, "devices/") {
			continue
		}
		if filepath.Base(rel) == "config" {
			if firstConfig < 0 {
				firstConfig = i
			}
		} else {
			lastOther = i
		}
	}
	require.Positive(t, firstConfig, "%v", order)
	assert.Less(t, lastOther, firstConfig, "%v", order)
}
