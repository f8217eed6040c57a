package nvmeapst_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/ioctl"
	"github.com/nvmeapst/nvmeapst/ioctl/ioctltest"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

// tlpLog is a laptop on battery losing its drive: corrected Physical Layer
// errors, then the drive gone from the bus.
const tlpLog = `6,1201,1204411,-;nvme nvme0: pci function 0000:04:00.0
6,1202,1300000,-;usb 1-1: new high-speed USB device number 2 using xhci_hcd
4,5120,5320331002,-;pcieport 0000:00:1d.0: AER: Corrected error received: 0000:04:00.0
4,5121,5320331010,-;nvme 0000:04:00.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)
4,5125,5380512004,-;nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff
4,5126,5380512009,-;nvme nvme0: Does your device have a faulty power saving mode enabled?
`

func tlpSystem(t *testing.T) *nvmeapst.System {
	health := diagnose.EncodeHealthLog(diagnose.HealthLog{PowerCycles: 412, UnsafeShutdowns: 37, PowerOnHours: 3120, TemperatureK: 311})
	s := system(t, "sysfs/testdata/laptop-tlp", drives{
		"nvme0": func() ioctl.Controller {
			d := ioctltest.New(samsung990Image(t), apst.Feature{APSTE: apst.APSTEEnabled}, ioctl.PowerManagement{State: 4})
			d.SetHealthLog(health)
			return d
		},
	})
	s.CommandLine = func() (string, error) { return "BOOT_IMAGE=/vmlinuz root=UUID=5e1f ro quiet", nil }
	s.KernelLog = func(context.Context) (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(tlpLog)), nil
	}
	return s
}

func TestDiagnoseLiveTree(t *testing.T) {
	d, err := tlpSystem(t).Diagnose(t.Context(), nvmeapst.DiagnoseOptions{})
	require.NoError(t, err)
	assert.Equal(t, "nvme0", d.Controller)
	require.NotNil(t, d.Log)
	assert.Equal(t, diagnose.LayerASPM, d.Causes[0].Layer, d.Summary)
	assert.Empty(t, d.Undecided, d.Summary)
	assert.Contains(t, d.Summary, "nvme0: most likely aspm (L1 substates are enabled on the drive's link)")
	assert.Equal(t, "powersupersave", d.Facts.ASPMPolicy.Value)
	assert.Equal(t, "BOOT_IMAGE=/vmlinuz root=UUID=5e1f ro quiet", d.Facts.CommandLine.Value)
	assert.Equal(t, "3", d.Facts.ResetCount.Value)
	require.Len(t, d.Facts.Path, 2)
	assert.Equal(t, "root port", d.Facts.Path[1].Role)
	assert.Equal(t, "0000:04:00.0", d.Facts.Address)
	require.NotNil(t, d.Facts.Health)
	assert.Equal(t, uint64(37), d.Facts.Health.UnsafeShutdowns)
	assert.Contains(t, texts(d.Cause(diagnose.LayerPowerLoss).Against), "37 unsafe shutdowns in 412 power cycles")
	// The Identify data reached the APST verdict.
	assert.Contains(t, texts(d.Cause(diagnose.LayerAPST).Evidence), "the table takes an idle drive to ps4")
	// Runtime PM and D3cold are allowed on this machine: both possible.
	assert.NotEqual(t, diagnose.Unlikely, d.Cause(diagnose.LayerRuntimePM).Likelihood)
	assert.NotEqual(t, diagnose.Unlikely, d.Cause(diagnose.LayerD3cold).Likelihood)

	_, err = tlpSystem(t).Diagnose(t.Context(), nvmeapst.DiagnoseOptions{Controller: "nvme7"})
	require.ErrorIs(t, err, nvmeapst.ErrNoController)
}

func TestDiagnoseBundleMatchesTheMachine(t *testing.T) {
	s := tlpSystem(t)
	live, err := s.Diagnose(t.Context(), nvmeapst.DiagnoseOptions{})
	require.NoError(t, err)
	dir := filepath.Join(t.TempDir(), "bundle")
	man, err := s.Collect(t.Context(), dir)
	require.NoError(t, err)
	assert.Equal(t, "kern.log", man.KernelLog)
	assert.Equal(t, map[string]string{"nvme0": "devices/pci0000_00/0000_00_1d.0/0000_04_00.0"}, man.PCIPaths)
	assert.Contains(t, man.Files, "devices/pci0000_00/0000_00_1d.0/link/l1_2_aspm")
	assert.Contains(t, man.Files, "module/pcie_aspm/parameters/policy")
	b, _, err := nvmeapst.OpenBundle(dir)
	require.NoError(t, err)
	got, err := b.Diagnose(t.Context(), nvmeapst.DiagnoseOptions{})
	require.NoError(t, err)
	require.Len(t, got.Causes, len(live.Causes))
	for i := range live.Causes {
		assert.Equal(t, live.Causes[i].Layer, got.Causes[i].Layer)
		assert.Equal(t, live.Causes[i].Score, got.Causes[i].Score, live.Causes[i].Layer)
		assert.Equal(t, live.Causes[i].Tests, got.Causes[i].Tests, live.Causes[i].Layer)
	}
	assert.Equal(t, live.Facts.CommandLine.Value, got.Facts.CommandLine.Value)
	assert.Len(t, got.Facts.Path, 2)
	require.NotNil(t, got.Facts.Health, "the bundle keeps the SMART / Health log")
	assert.Equal(t, live.Facts.Health, got.Facts.Health)
	// The log the bundle kept holds only the NVMe and PCIe lines.
	assert.Equal(t, int64(5), got.Log.Lines)
}

func texts(ls []diagnose.Line) string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l.Text + "\n")
	}
	return b.String()
}

// A pasted log of another machine (its nvme0 at another PCI address) is
// diagnosed alone: this machine's facts for its own nvme0 are not
// borrowed, and the notes say why; the machine's own log is matched and
// its facts used.
func TestDiagnosePastedLogOfAnotherMachine(t *testing.T) {
	s := tlpSystem(t)
	other := strings.ReplaceAll(tlpLog, "0000:04:00.0", "0000:3b:00.0")
	d, err := s.Diagnose(t.Context(), nvmeapst.DiagnoseOptions{Log: strings.NewReader(other)})
	require.NoError(t, err)
	assert.Equal(t, "nvme0", d.Controller)
	assert.Empty(t, d.Facts.Path, "another machine's bridges")
	assert.Nil(t, d.Facts.Health)
	assert.Contains(t, strings.Join(d.Notes, "\n"), "the pasted log is not this machine's (the log's nvme0 is at PCI address 0000:3b:00.0, this machine's at 0000:04:00.0)")

	d, err = s.Diagnose(t.Context(), nvmeapst.DiagnoseOptions{Log: strings.NewReader(tlpLog)})
	require.NoError(t, err)
	require.Len(t, d.Facts.Path, 2)
	assert.Contains(t, strings.Join(d.Notes, "\n"), "the pasted log matches this machine's nvme0 (PCI address 0000:04:00.0)")
}

// The slot power limits of the drive's path (its config files, binary)
// reach the diagnosis, and a bundle collected from the machine keeps them
// whole: the bundle's diagnosis has the same facts.
func TestDiagnoseSlotPowerThroughABundle(t *testing.T) {
	// The laptop's root port is runtime suspended: neither Diagnose nor a
	// collect reads config below it (that would wake it).
	asleep := tlpSystem(t)
	d, err := asleep.Diagnose(t.Context(), nvmeapst.DiagnoseOptions{})
	require.NoError(t, err)
	require.Len(t, d.Facts.Path, 2)
	assert.Contains(t, d.Facts.Path[0].SlotPower.Error, "would wake")
	man, err := asleep.Collect(t.Context(), filepath.Join(t.TempDir(), "asleep"))
	require.NoError(t, err)
	assert.NotContains(t, man.Files, "devices/pci0000_00/0000_00_1d.0/0000_04_00.0/config")
	assert.NotContains(t, man.Files, "devices/pci0000_00/0000_00_1d.0/config")

	// Awake, both are read and copied.
	awake := t.TempDir()
	require.NoError(t, os.CopyFS(awake, os.DirFS("sysfs/testdata/laptop-tlp")))
	require.NoError(t, os.WriteFile(filepath.Join(awake, "devices/pci0000_00/0000_00_1d.0/power/runtime_status"), []byte("active\n"), 0o644))
	live := tlpSystem(t)
	live.FS, err = sysfs.NewFS(awake)
	require.NoError(t, err)
	d, err = live.Diagnose(t.Context(), nvmeapst.DiagnoseOptions{})
	require.NoError(t, err)
	require.Len(t, d.Facts.Path, 2)
	assert.Equal(t, "25 W", d.Facts.Path[0].SlotPower.Value)
	assert.Equal(t, "25 W", d.Facts.Path[1].SlotPower.Value)

	dir := filepath.Join(t.TempDir(), "bundle")
	man, err = live.Collect(t.Context(), dir)
	require.NoError(t, err)
	assert.Contains(t, man.Files, "devices/pci0000_00/0000_00_1d.0/0000_04_00.0/config")
	assert.Empty(t, man.Skipped)
	b, err := os.ReadFile(filepath.Join(dir, "devices/pci0000_00/0000_00_1d.0/config"))
	require.NoError(t, err)
	assert.Len(t, b, 256, "copied whole, untrimmed")
	s, _, err := nvmeapst.OpenBundle(dir)
	require.NoError(t, err)
	bd, err := s.Diagnose(t.Context(), nvmeapst.DiagnoseOptions{Controller: "nvme0"})
	require.NoError(t, err)
	assert.Equal(t, d.Facts.Path[0].SlotPower.Value, bd.Facts.Path[0].SlotPower.Value)
	assert.Equal(t, d.Facts.Path[1].SlotPower.Value, bd.Facts.Path[1].SlotPower.Value)
}

// A machine whose kernel log holds no line (a bundle's kern.log keeps only
// the NVMe and PCIe lines) has no failure and no log problem; the same
// empty text pasted is refused as no log.
func TestDiagnoseEmptyLog(t *testing.T) {
	s := tlpSystem(t)
	s.KernelLog = func(context.Context) (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader("")), nil
	}
	d, err := s.Diagnose(t.Context(), nvmeapst.DiagnoseOptions{})
	require.NoError(t, err)
	assert.Nil(t, d.LogProblem)
	assert.False(t, d.Failure, d.Summary)
	assert.Contains(t, d.Summary, "no failure seen")

	d, err = tlpSystem(t).Diagnose(t.Context(), nvmeapst.DiagnoseOptions{Log: strings.NewReader("\n\n")})
	require.NoError(t, err)
	require.NotNil(t, d.LogProblem)
	assert.Contains(t, d.LogProblem.Message, "it holds no text")
}
