package pastedlog

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A pasted log's parameters: the module defaults of the release's
// generation (the current kernel's without a release), the bound of the
// command line when it sets one, and the note that says so.
func TestParams(t *testing.T) {
	c, err := powerstate.DecodeIdentify(testfixture.ReadFile(t, testfixture.Samsung990EVOPlus))
	require.NoError(t, err)

	p, a, note := Params(&c, apst.Release{}, "BOOT_IMAGE=/vmlinuz root=UUID=5e1f rw")
	assert.Equal(t, apst.DefaultParams(apst.Current).Bound, p.Bound)
	assert.Equal(t, apst.Current, p.Generation)
	assert.False(t, a.APSTAUnknown, "a binary capture carries APSTA")
	assert.Equal(t, "a pasted log: the plan assumes the module defaults of current (bound 100000us) and the quirks the model's tables give (none); the machine's own settings were not read", note)

	rel, err := apst.ParseRelease("4.11.0")
	require.NoError(t, err)
	p, _, note = Params(&c, rel, "root=/dev/sda1 nvme_core.default_ps_max_latency_us=5500 quiet")
	assert.Equal(t, apst.V4_11, p.Generation)
	assert.Equal(t, apst.Microseconds(5500), p.Bound)
	assert.Contains(t, note, "(bound 5500us)")

	// An unreadable bound on the command line leaves the default.
	p, _, _ = Params(&c, apst.Release{}, "nvme_core.default_ps_max_latency_us=lots")
	assert.Equal(t, apst.DefaultParams(apst.Current).Bound, p.Bound)

	c.Missing |= powerstate.FieldAPSTA
	_, a, _ = Params(&c, apst.Release{}, "")
	assert.True(t, a.APSTAUnknown)
}

// Text refused as no kernel log is told for what it is: a capture to give
// as one (its format named), an APST feature capture, or neither. Other
// errors of kernlog.Read come back unchanged.
func TestNotALog(t *testing.T) {
	read := func(s string) error {
		_, err := kernlog.ReadString(s, kernlog.Options{})
		require.ErrorIs(t, err, kernlog.ErrNotKernelLog)
		return err
	}
	for _, tc := range []struct {
		name, text, says string
	}{
		{"nvme id-ctrl", "NVME Identify Controller:\nvid       : 0x1cc1\nssvid     : 0x1cc1\nmn        : ADATA SX8200PNP\n", "Identify Controller capture (nvme-cli-text): give it as --id-ctrl, and the kernel log of the boot that failed as --log"},
		{"smartctl", "=== START OF INFORMATION SECTION ===\nModel Number:                       Samsung SSD 990 EVO Plus 1TB\nFirmware Version:                   2B2QKXG7\n", "(smartctl-text)"},
		{"prose", "the drive keeps dropping out\nhelp\n", "paste the kernel log as the system wrote it"},
		{"APST feature", string(testfixture.ReadFile(t, "forms/evo-feature.raw.xxd.txt")), "an APST feature capture"},
		// nvme-cli's smart-log and lspci -vv, as they print.
		{"nvme smart-log", "Smart Log for NVME device:nvme0 namespace-id:ffffffff\ncritical_warning\t\t\t: 0\navailable_spare\t\t\t\t: 100%\n", "it looks like nvme smart-log output (the SMART / Health log) instead: paste the kernel log"},
		{"lspci", "01:00.0 Non-Volatile memory controller: Samsung Electronics Co Ltd NVMe SSD Controller (prog-if 02 [NVM Express])\n\t\tLnkCap:\tPort #0, Speed 16GT/s, Width x4\n", "it looks like lspci output instead"},
		// A SATA drive's smartctl report is no --id-ctrl either.
		{"JSON of no journal", `{"configs":[{"name":"ps-max-latency-us=100000"}]}` + "\n", "it looks like JSON, but holds no kernel log's records (one a line: journalctl -o json's, each with its MESSAGE, or a log shipper's, each with a kernel message in its message, line or _raw)"},
		{"a JSON array", "[]\n", "it looks like JSON, but holds no kernel log's records"},
		{"smartctl of a SATA drive", "=== START OF INFORMATION SECTION ===\nDevice Model:     Samsung SSD 870 EVO 1TB\nATA Version is:   ACS-4 T13/BSR INCITS 529 revision 5\n", "a SATA or SAS drive (no NVMe power states) instead"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := NotALog(read(tc.text), []byte(tc.text), "--id-ctrl", "--log")
			require.ErrorIs(t, err, kernlog.ErrNotKernelLog)
			assert.Contains(t, err.Error(), tc.says)
		})
	}
	// A kernel log refused for a line too long is not said to look like
	// a kernel log instead.
	long := "[    1.000000] nvme nvme0: pci function 0000:01:00.0\n" + strings.Repeat("a", kernlog.MaxLongLine+1)
	err := NotALog(read(long), []byte(long[:64<<10]), "--id-ctrl", "--log")
	require.ErrorIs(t, err, kernlog.ErrLineTooLong)
	assert.Contains(t, err.Error(), "paste the kernel log as the system wrote it")
	assert.NotContains(t, err.Error(), "it looks like a kernel log")
	// The binary captures given in the log's place are told too.
	feature := make([]byte, 256)
	feature[0], feature[1] = 0x18, 0x64 // an APST entry: PS3 after 100 ms
	for _, tc := range []struct {
		name string
		b    []byte
		says string
	}{
		{"nvme id-ctrl -b", testfixture.ReadFile(t, "identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin"), "it looks like a binary Identify Controller capture (nvme id-ctrl -b): give it as --id-ctrl, and the kernel log of the boot that failed as --log"},
		{"nvme get-feature -b", feature, "it looks like a binary APST feature capture"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, rerr := kernlog.Read(context.Background(), bytes.NewReader(tc.b), kernlog.Options{})
			require.ErrorIs(t, rerr, kernlog.ErrBinary)
			err := NotALog(rerr, tc.b, "--id-ctrl", "--log")
			require.ErrorIs(t, err, kernlog.ErrBinary)
			assert.Contains(t, err.Error(), tc.says)
		})
	}
	other := errors.New("kernlog: a read error")
	assert.Same(t, other, NotALog(other, []byte("NVME Identify Controller:\n"), "--id-ctrl", "--log"))
}
