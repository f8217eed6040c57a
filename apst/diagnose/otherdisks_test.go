package diagnose_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// A log whose failures are a USB enclosure's (UbuntuAsahi/ubuntu-asahi#81,
// posted u-07) or a SCSI disk's (openzfs/zfs#16806, posted x-05) has no
// failure of an NVMe drive, and says whose failures it has instead of
// "names no NVMe drive": for a disk on USB, that the host's NVMe and PCIe
// power settings do not reach it and what is tried instead, with its USB
// port; the lines are quoted. A failure of an NVMe drive beside them is
// diagnosed as ever.
func TestOtherDisksAnswer(t *testing.T) {
	const uas = "[  180.226879] sd 0:0:0:0: [sda] tag#4 uas_eh_abort_handler 0 uas-tag 5 inflight: CMD OUT \n" +
		"[  180.226891] sd 0:0:0:0: [sda] tag#4 CDB: Write(10) 2a 00 2b a3 58 00 00 00 08 00\n" +
		"[  180.242866] scsi host0: uas_eh_device_reset_handler start\n" +
		"[  180.371004] usb 4-1: reset SuperSpeed Plus Gen 2x1 USB device number 2 using xhci-hcd\n" +
		"[  180.392109] scsi host0: uas_eh_device_reset_handler success\n"
	const scsi = "[Sat Mar 22 09:37:13 2025] blk_update_request: I/O error, dev sdc, sector 337246528 op 0x1:(WRITE) flags 0x700 phys_seg 128 prio class 0\n" +
		"[Sat Mar 22 09:37:13 2025] sd 6:0:0:0: [sdb] tag#21 FAILED Result: hostbyte=DID_OK driverbyte=DRIVER_OK cmd_age=0s\n" +
		"[Sat Mar 22 09:37:13 2025] sd 6:0:0:0: [sdb] tag#21 Sense Key : Aborted Command [current] \n"
	for _, tc := range []struct {
		name, log string
		want      []string
		quotes    int
	}{
		{"uas", uas, []string{"no failure of an NVMe drive seen", "are of sda, a disk on USB (the uas driver", "in 3 line(s) from line 1",
			"do not reach it", "usb-storage.quirks=VID:PID:u", "/sys/bus/usb/devices/4-1/power/control"}, 3},
		{"scsi", scsi, []string{"are of sdc and sdb, disks on a SCSI host whose driver the log does not name", "do not reach them; their own transport's lines say why they failed"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tc.log, kernlog.Options{})
			require.NoError(t, err)
			d := diagnose.Diagnose(diagnose.Input{Log: l})
			assert.False(t, d.Failure)
			assert.Empty(t, d.Causes)
			for _, w := range tc.want {
				assert.Contains(t, d.Summary, w)
			}
			require.Len(t, d.Consequences, tc.quotes)
			assert.Equal(t, 1, d.Consequences[0].Line)
			first, _, _ := strings.Cut(tc.log, "\n")
			assert.Equal(t, strings.TrimSpace(first), d.Consequences[0].Quote, "the line as the log has it")
		})
	}

	// The NVMe drive's failure beside a USB disk's is the answer.
	l, err := kernlog.ReadString(uas+"[  200.000000] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n", kernlog.Options{})
	require.NoError(t, err)
	d := diagnose.Diagnose(diagnose.Input{Log: l})
	assert.True(t, d.Failure)
	assert.Equal(t, "nvme0", d.Controller)
	assert.NotContains(t, d.Summary, "USB")
}

// A Thunderbolt/USB4 host that could not activate the PCIe tunnel to an
// enclosure (posted u-01) is no failure of an NVMe drive, and not lines
// to paste again: the answer names the tunnel and what is tried.
func TestTunnelFailedAnswer(t *testing.T) {
	l, err := kernlog.ReadString("[  138.736546] thunderbolt 0000:00:0d.2: 1:1: failed to enable lane bonding\n"+
		"[  138.739888] thunderbolt 0000:00:0d.2: 0:8 <-> 1:3 (PCI): activation failed\n"+
		"[  138.740586] thunderbolt 0000:00:0d.2: 1:3: PCIe tunnel activation failed, aborting\n", kernlog.Options{})
	require.NoError(t, err)
	d := diagnose.Diagnose(diagnose.Input{Log: l})
	assert.False(t, d.Failure)
	assert.Empty(t, d.Unread)
	assert.Contains(t, d.Summary, "line 2: the Thunderbolt/USB4 host (thunderbolt 0000:00:0d.2) could not activate the PCIe tunnel")
	assert.Contains(t, d.Summary, "thunderbolt.dyndbg=+p")
	require.Len(t, d.Consequences, 1)
	assert.Equal(t, 2, d.Consequences[0].Line)
}

// A USB host controller that died after a resume, beside a drive that
// came back, is no failure of the drive: the summary names the host (an
// HP EliteBook 840's xhci, posted zl-04, was "no failure seen").
func TestUSBHostDiedIsAnotherDevices(t *testing.T) {
	summaryOf(t, `[162640.100000] nvme nvme0: 8/0/0 default/read/poll queues
[162644.651068] xhci_hcd 0000:c3:00.3: xHCI host controller not responding, assume dead
[162644.651076] xhci_hcd 0000:c3:00.3: HC died; cleaning up
`, false, "the failures it holds are of other devices (xhci_hcd 0000:c3:00.3)")
}
