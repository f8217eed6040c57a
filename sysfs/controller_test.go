package sysfs_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

func i64(v int64) *int64 { return &v }

func newFS(t *testing.T, root string) sysfs.FS {
	t.Helper()
	fs, err := sysfs.NewFS(root)
	require.NoError(t, err)
	return fs
}

// skipIfRoot skips permission assertions: root ignores file modes.
func skipIfRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() == 0 {
		t.Skip("running as root, which ignores file modes")
	}
}

// makeUnreadable sets mode 000 on a file of a fixture copy.
func makeUnreadable(t *testing.T, root, rel string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	require.NoError(t, os.Chmod(p, 0))
	t.Cleanup(func() { _ = os.Chmod(p, 0o644) })
}

func writeFile(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
}

// restoreAfter puts the file at path p back as it is now (its content, or
// its absence) when t ends, whatever took its place (a file, a directory,
// a FIFO, a socket), so that the subtests of a test share one copy of a
// fixture tree (a copy costs a tenth of a second of system time on some
// disks).
func restoreAfter(t *testing.T, p string) {
	t.Helper()
	old, err := os.ReadFile(p)
	existed := err == nil
	if !existed {
		require.ErrorIs(t, err, os.ErrNotExist)
	}
	t.Cleanup(func() {
		require.NoError(t, os.RemoveAll(p))
		if existed {
			require.NoError(t, os.WriteFile(p, old, 0o644))
		}
	})
}

// patchFile writes content to the file rel of a fixture copy, or removes
// it when remove is set, and puts it back when t ends (restoreAfter).
func patchFile(t *testing.T, root, rel, content string, remove bool) {
	t.Helper()
	restoreAfter(t, filepath.Join(root, filepath.FromSlash(rel)))
	if remove {
		require.NoError(t, os.Remove(filepath.Join(root, filepath.FromSlash(rel))))
		return
	}
	writeFile(t, root, rel, content)
}

var (
	wantSysNvme0 = sysfs.Controller{
		Name:            "nvme0",
		Model:           "INTEL SSDPEKKW256G7",
		Serial:          "BTPY72910KCW256D",
		FirmwareRev:     "PSF109C",
		Transport:       "pcie",
		State:           "live",
		Address:         "0000:3d:00.0",
		ControllerID:    1,
		HasControllerID: true,
		PCI:             apst.PCIID{Vendor: 0x8086, Device: 0xf1a5},
		SubsystemVendor: 0x8086,
		SubsystemDevice: 0x390a,
		HasPCI:          true,
		Tolerance:       apst.Tolerance{Kind: apst.ToleranceValue, Value: 100000},
		HasTolerance:    true,
		CPULatency:      i64(-1),
		Disks: []sysfs.Disk{
			{Name: "nvme0n1", Entry: "nvme0c0n1", CPULatencyLimit: i64(-1), CPULatencyTimeout: i64(0)},
		},
	}
	wantSysNvme1 = sysfs.Controller{
		Name:            "nvme1",
		Model:           "Samsung SSD 960 EVO 500GB",
		Serial:          "S3EUNX0J512345A",
		FirmwareRev:     "3B7QCXE7",
		Transport:       "pcie",
		State:           "live",
		Address:         "0000:3e:00.0",
		ControllerID:    2,
		HasControllerID: true,
		PCI:             apst.PCIID{Vendor: 0x144d, Device: 0xa804},
		SubsystemVendor: 0x144d,
		SubsystemDevice: 0xa801,
		HasPCI:          true,
		CPULatency:      i64(50),
		Disks: []sysfs.Disk{
			{Name: "nvme1n1", Entry: "nvme1c1n1", CPULatencyLimit: i64(20), CPULatencyTimeout: i64(3)},
		},
	}
	wantSysNvme2 = sysfs.Controller{
		Name:            "nvme2",
		Model:           "Samsung SSD 990 EVO Plus 1TB",
		Serial:          "S7U6NJ0X123456B",
		FirmwareRev:     "2B2QKXG7",
		Transport:       "pcie",
		State:           "live",
		Address:         "0000:01:00.0",
		ControllerID:    6,
		HasControllerID: true,
		PCI:             apst.PCIID{Vendor: 0x144d, Device: 0xa80d},
		SubsystemVendor: 0x144d,
		SubsystemDevice: 0xa801,
		HasPCI:          true,
		Tolerance:       apst.Tolerance{Kind: apst.ToleranceValue, Value: 25000},
		HasTolerance:    true,
		Disks:           []sysfs.Disk{{Name: "nvme2n1", Entry: "nvme2c2n1"}},
	}
	wantV510Nvme0 = sysfs.Controller{
		Name:            "nvme0",
		Model:           "KINGSTON SA2000M8500G",
		Serial:          "50026B7682AD1234",
		FirmwareRev:     "S5Z42105",
		Transport:       "pcie",
		State:           "live",
		Address:         "0000:04:00.0",
		ControllerID:    1,
		HasControllerID: true,
		PCI:             apst.PCIID{Vendor: 0x2646, Device: 0x2263},
		SubsystemVendor: 0x2646,
		SubsystemDevice: 0x2263,
		HasPCI:          true,
		Tolerance:       apst.Tolerance{Kind: apst.ToleranceValue, Value: 5500},
		HasTolerance:    true,
		Disks:           []sysfs.Disk{{Name: "nvme0n1", Entry: "nvme0n1"}},
	}
)

func TestNewFS(t *testing.T) {
	fs, err := sysfs.NewFS("../testdata/sys")
	require.NoError(t, err)
	assert.Equal(t, "../testdata/sys", fs.Root())

	_, err = sysfs.NewFS("testdata/nonexistent")
	require.ErrorIs(t, err, os.ErrNotExist)
	assert.Contains(t, err.Error(), "testdata/nonexistent")
	assert.True(t, strings.HasPrefix(err.Error(), "sysfs: "), err.Error())

	_, err = sysfs.NewFS("testdata/README.md")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not a directory")
}

func TestControllers(t *testing.T) {
	tests := []struct {
		root string
		want []sysfs.Controller
	}{
		{"../testdata/sys", []sysfs.Controller{wantSysNvme0, wantSysNvme1, wantSysNvme2}},
		{"testdata/v5.10", []sysfs.Controller{wantV510Nvme0}},
	}
	for _, tt := range tests {
		t.Run(tt.root, func(t *testing.T) {
			got, err := newFS(t, tt.root).Controllers()
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestControllerAPSTDisabled(t *testing.T) {
	c, err := newFS(t, "../testdata/sys").Controller("nvme1")
	require.NoError(t, err)
	assert.False(t, c.HasTolerance)
	assert.False(t, c.APSTEnabled())
	c, err = newFS(t, "../testdata/sys").Controller("nvme0")
	require.NoError(t, err)
	assert.True(t, c.APSTEnabled())
}

func TestControllersSortedNumerically(t *testing.T) {
	root := t.TempDir()
	for _, n := range []string{"nvme10", "nvme2", "nvme0", "nvme-fabrics", "README"} {
		writeFile(t, root, "class/nvme/"+n+"/model", "m\n")
	}
	cs, err := newFS(t, root).Controllers()
	require.NoError(t, err)
	var names []string
	for _, c := range cs {
		names = append(names, c.Name)
	}
	assert.Equal(t, []string{"nvme0", "nvme2", "nvme10"}, names)
	// Attributes absent from the tree are empty or flagged absent.
	assert.Equal(t, sysfs.Controller{Name: "nvme0", Model: "m"}, cs[0])
}

func TestControllersNoClass(t *testing.T) {
	_, err := newFS(t, t.TempDir()).Controllers()
	require.ErrorIs(t, err, os.ErrNotExist)
	assert.Contains(t, err.Error(), "class/nvme")
	assert.Contains(t, err.Error(), "no sysfs at ", "a tree without class/ is no sysfs: said as such, not as a failed stat")
	assert.ErrorIs(t, err, sysfs.ErrNotSysfs)
	// A sysfs tree without the nvme class is one: the driver is not loaded.
	root := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(root, "class"), 0o755))
	_, err = newFS(t, root).Controllers()
	require.ErrorIs(t, err, os.ErrNotExist)
	assert.NotErrorIs(t, err, sysfs.ErrNotSysfs)
}

func TestControllerErrors(t *testing.T) {
	fs := newFS(t, "../testdata/sys")
	_, err := fs.Controller("nvme9")
	require.ErrorIs(t, err, os.ErrNotExist)
	assert.Contains(t, err.Error(), filepath.Join("../testdata/sys", "class/nvme/nvme9"))
	assert.True(t, strings.HasPrefix(err.Error(), "sysfs: "), err.Error())

	for _, name := range []string{"", ".", "..", "../nvme0", "nvme0/power", `a\b`} {
		_, err := fs.Controller(name)
		require.ErrorIs(t, err, sysfs.ErrInvalidName, name)
	}
}

func TestControllerMalformed(t *testing.T) {
	tests := []struct {
		name, rel, content string
		is                 []error
	}{
		{"cntlid", "class/nvme/nvme0/cntlid", "one\n", []error{sysfs.ErrInvalidAttribute}},
		{"cntlid range", "class/nvme/nvme0/cntlid", "65536\n", []error{sysfs.ErrInvalidAttribute}},
		{"vendor", "class/nvme/nvme0/device/vendor", "8086\n", []error{sysfs.ErrInvalidAttribute}},
		{"tolerance", "class/nvme/nvme0/power/pm_qos_latency_tolerance_us", "sometimes\n",
			[]error{sysfs.ErrInvalidAttribute, apst.ErrInvalidTolerance}},
		{"cpu latency", "class/nvme/nvme0/cpu_latency_us", "2147483648\n", []error{sysfs.ErrInvalidAttribute}},
		{"disk limit", "block/nvme0n1/cpu_lat_limit_us", "x\n", []error{sysfs.ErrInvalidAttribute}},
		{"too large", "class/nvme/nvme0/model", strings.Repeat("x", sysfs.MaxAttributeSize), []error{sysfs.ErrInvalidAttribute}},
	}
	root := sysfs.CopyFixture(t, "../testdata/sys")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			patchFile(t, root, tt.rel, tt.content, false)
			_, err := newFS(t, root).Controller("nvme0")
			for _, is := range tt.is {
				require.ErrorIs(t, err, is)
			}
			assert.Contains(t, err.Error(), filepath.Base(tt.rel))
		})
	}
}

func TestControllerPCIGap(t *testing.T) {
	tests := []struct {
		name   string
		remove []string
		gap    string
	}{
		{"device missing", []string{"device"}, "device/device is absent"},
		{"vendor missing", []string{"vendor"}, "device/vendor is absent"},
		{"both missing, pcie", []string{"vendor", "device", "subsystem_vendor", "subsystem_device"}, "device/vendor is absent"},
	}
	root := sysfs.CopyFixture(t, "../testdata/sys")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, f := range tt.remove {
				patchFile(t, root, "devices/pci0000_00/0000_00_1d.0/0000_3d_00.0/"+f, "", true)
			}
			c, err := newFS(t, root).Controller("nvme0")
			require.NoError(t, err, "a missing PCI file is a gap, not an error")
			assert.False(t, c.HasPCI)
			assert.Zero(t, c.PCI)
			assert.Contains(t, c.PCIGap, tt.gap)
			assert.Contains(t, c.PCIGap, "class/nvme/nvme0/device/")
		})
	}
	c, err := newFS(t, "../testdata/sys").Controller("nvme0")
	require.NoError(t, err)
	assert.Empty(t, c.PCIGap)
}

// A PCI ID file that exists but cannot be read or parsed leaves the PCI ID
// unknown: a stated gap naming the file, never "not a PCI function".
func TestControllerPCIGapUnreadable(t *testing.T) {
	const dev = "devices/pci0000_00/0000_00_1d.0/0000_3d_00.0/"
	tests := []struct {
		name, file string
		fifo       bool
	}{
		{"vendor malformed", "vendor", false},
		{"device malformed", "device", false},
		{"vendor a FIFO", "vendor", true},
		{"device a FIFO", "device", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := sysfs.CopyFixture(t, "../testdata/sys")
			if tt.fifo {
				patchFile(t, root, dev+tt.file, "", true)
				testfixture.Mkfifo(t, filepath.Join(root, filepath.FromSlash(dev+tt.file)))
			} else {
				patchFile(t, root, dev+tt.file, "0xzz\n", false)
			}
			c, err := newFS(t, root).Controller("nvme0")
			require.Error(t, err)
			require.Len(t, c.Unreadable, 1)
			assert.False(t, c.HasPCI)
			assert.Contains(t, c.PCIGap, "class/nvme/nvme0/device/"+tt.file+" could not be read")
		})
	}
}

func TestControllerNotPCI(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "class/nvme/nvme3/transport", "tcp\n")
	writeFile(t, root, "class/nvme/nvme3/device/dev", "10:125\n") // fabrics: the ctl misc device
	c, err := newFS(t, root).Controller("nvme3")
	require.NoError(t, err)
	assert.False(t, c.HasPCI)
	assert.Empty(t, c.PCIGap, "a fabrics controller has no PCI ID to miss")
	assert.Equal(t, "tcp", c.Transport)
}

func TestControllerUnreadable(t *testing.T) {
	skipIfRoot(t)
	for _, rel := range []string{
		"class/nvme/nvme0/model",
		"class/nvme/nvme0/cntlid",
		"class/nvme/nvme0/device/vendor",
		"class/nvme/nvme0/power/pm_qos_latency_tolerance_us",
		"class/nvme/nvme0/cpu_latency_us",
		"block/nvme0n1/cpu_lat_timeout_ms",
	} {
		t.Run(rel, func(t *testing.T) {
			root := sysfs.CopyFixture(t, "../testdata/sys")
			makeUnreadable(t, root, rel)
			fs := newFS(t, root)
			_, err := fs.Controller("nvme0")
			require.ErrorIs(t, err, os.ErrPermission)
			assert.Contains(t, err.Error(), filepath.Base(rel))
			assert.True(t, strings.HasPrefix(err.Error(), "sysfs: "), err.Error())

			// Controllers returns the readable controller with the error.
			cs, err := fs.Controllers()
			require.ErrorIs(t, err, os.ErrPermission)
			require.Len(t, cs, 1)
			assert.Equal(t, "nvme1", cs[0].Name)
		})
	}
}

func TestFiles(t *testing.T) {
	fs := newFS(t, "../testdata/sys")
	files, err := fs.Files("nvme0")
	require.NoError(t, err)
	assert.Equal(t, []string{
		"class/nvme/nvme0/model",
		"class/nvme/nvme0/serial",
		"class/nvme/nvme0/firmware_rev",
		"class/nvme/nvme0/transport",
		"class/nvme/nvme0/state",
		"class/nvme/nvme0/address",
		"class/nvme/nvme0/cntlid",
		"class/nvme/nvme0/device/vendor",
		"class/nvme/nvme0/device/device",
		"class/nvme/nvme0/device/subsystem_vendor",
		"class/nvme/nvme0/device/subsystem_device",
		"class/nvme/nvme0/power/pm_qos_latency_tolerance_us",
		"class/nvme/nvme0/cpu_latency_us",
		"class/nvme/nvme0/nvme0c0n1/",
		"block/nvme0n1/cpu_lat_limit_us",
		"block/nvme0n1/cpu_lat_timeout_ms",
	}, files)

	sys, err := fs.SystemFiles()
	require.NoError(t, err)
	assert.Len(t, sys, 10)

	_, err = fs.Files("nvme7")
	require.ErrorIs(t, err, os.ErrNotExist)
}

// TestFilesMakeABundle copies exactly what Files and SystemFiles list into
// a plain tree (no symbolic links) and checks that it reads back the same.
func TestFilesMakeABundle(t *testing.T) {
	for _, fixture := range []string{"../testdata/sys", "testdata/v5.10"} {
		t.Run(fixture, func(t *testing.T) {
			src := newFS(t, fixture)
			dst := t.TempDir()
			cs, err := src.Controllers()
			require.NoError(t, err)
			paths, err := src.SystemFiles()
			require.NoError(t, err)
			for _, c := range cs {
				f, err := src.Files(c.Name)
				require.NoError(t, err)
				paths = append(paths, f...)
			}
			for _, rel := range paths {
				p := filepath.Join(dst, filepath.FromSlash(rel))
				if strings.HasSuffix(rel, "/") {
					require.NoError(t, os.MkdirAll(p, 0o755))
					continue
				}
				b, err := os.ReadFile(filepath.Join(src.Root(), filepath.FromSlash(rel)))
				require.NoError(t, err)
				writeFile(t, dst, rel, string(b))
			}
			bundle := newFS(t, dst)
			got, err := bundle.Controllers()
			require.NoError(t, err)
			assert.Equal(t, cs, got)
			m1, err := src.ModuleParams()
			require.NoError(t, err)
			m2, err := bundle.ModuleParams()
			require.NoError(t, err)
			assert.Equal(t, m1, m2)
			d1, err := src.DMI()
			require.NoError(t, err)
			d2, err := bundle.DMI()
			require.NoError(t, err)
			assert.Equal(t, d1, d2)
		})
	}
}

func TestLessNatural(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"nvme2", "nvme10", true},
		{"nvme10", "nvme2", false},
		{"nvme1", "nvme1", false},
		{"nvme01", "nvme1", false},
		{"nvme1", "nvme01", true},
		{"nvme0n2", "nvme0n10", true},
		{"nvme", "nvme0", true},
		{"a", "b", true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, sysfs.LessNatural(tt.a, tt.b), "%s < %s", tt.a, tt.b)
	}
}
