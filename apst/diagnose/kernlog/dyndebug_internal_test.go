package kernlog

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A dynamic-debug decoration comes off; a message that only starts the
// same way keeps its words.
func TestAfterDynDebug(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// The decorations (dynamic-debug-howto.rst's flags t, m, f, s, l).
		{"[222] pcie_do_recovery:201: pcieport 0000:00:01.1: broadcast error_detected message", "pcieport 0000:00:01.1: broadcast error_detected message"},
		{"[6198] acpi_pci_set_power_state:1055: thunderbolt 0000:2c:00.0: power state changed by ACPI to D0", "thunderbolt 0000:2c:00.0: power state changed by ACPI to D0"},
		{"pcieportdrv:pcie_do_recovery:err.c:201: pcieport 0000:00:01.1: AER: broadcast resume message", "pcieport 0000:00:01.1: AER: broadcast resume message"},
		{"drivers/pci/pcie/err.c:201: pcieport 0000:00:01.1: AER: broadcast resume message", "pcieport 0000:00:01.1: AER: broadcast resume message"},
		{"<intr> 201: pcieport 0000:00:01.1: AER: broadcast slot_reset message", "pcieport 0000:00:01.1: AER: broadcast slot_reset message"},
		// 'f' alone, as a DPC test's log on linux-pci shows it
		// (d9ee4151-b28d-a52a-b5be-190a75e0e49b@intel.com, 5.10).
		{"pcie_do_recovery: pcieport 0000:97:02.0: AER: broadcast error_detected message", "pcieport 0000:97:02.0: AER: broadcast error_detected message"},
		{"nvme_timeout: nvme nvme0: I/O 12 QID 2 timeout, aborting", "nvme nvme0: I/O 12 QID 2 timeout, aborting"},
		// Messages of their own.
		{"[21] ACSViol                (First)", "[21] ACSViol                (First)"},
		{"[222] nvme nvme0: resetting controller", "[222] nvme nvme0: resetting controller"},
		{"ACPI: PM: Preparing to enter system sleep state S3", "ACPI: PM: Preparing to enter system sleep state S3"},
		{"md/raid1:md0: Disk failure on nvme0n1p2, disabling device.", "md/raid1:md0: Disk failure on nvme0n1p2, disabling device."},
		{"i8042: PNP: PS/2 Controller [PNP0303:KBD0] at 0x60,0x64 irq 1", "i8042: PNP: PS/2 Controller [PNP0303:KBD0] at 0x60,0x64 irq 1"},
		{"0000:00:01.1: broadcast error_detected message", "0000:00:01.1: broadcast error_detected message"},
		{"12:34:56: nvme nvme0: resetting controller", "12:34:56: nvme nvme0: resetting controller"},
		{"201: nvme nvme0: resetting controller", "201: nvme nvme0: resetting controller"},
		{"foo:: nvme nvme0: resetting controller", "foo:: nvme nvme0: resetting controller"},
		{"nvme_log_error: 337 callbacks suppressed", "nvme_log_error: 337 callbacks suppressed"},
		{"blk_update_request: I/O error, dev nvme0n1, sector 0", "blk_update_request: I/O error, dev nvme0n1, sector 0"},
		{"pci_bus 0000:00: root bus resource [bus 00-ff]", "pci_bus 0000:00: root bus resource [bus 00-ff]"},
		{"acpi_foo: ACPI: PM: something", "acpi_foo: ACPI: PM: something"},
		{"[222] ", "[222] "},
		{"<intr> ", "<intr> "},
		{"", ""},
	} {
		assert.Equal(t, c.want, afterDynDebug(c.in), c.in)
	}
}
