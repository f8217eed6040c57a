package capture_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// An input of no known format that is an output users paste in a
// capture's place is refused with what it looks like, by the Identify and
// the feature readers alike. The lines are the shapes the tools print:
// printk and syslog (dmesg, journalctl -k), nvme-cli's smart-log, id-ns
// and list, lspci -vv.
func TestLookalikeInputs(t *testing.T) {
	for _, tc := range []struct {
		name, in, looks string
	}{
		{"dmesg", "[    1.234567] nvme nvme0: pci function 0000:01:00.0\n[  217.417507] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n", "a kernel log"},
		{"syslog", "Jan  5 06:19:22 atom kernel: nvme nvme0: Removing after probe failure status: -19\n", "a kernel log"},
		{"journalctl quoted in a mail", "> Dec 03 10:00:00 host kernel: nvme nvme0: I/O 5 QID 0 timeout, completion polled\n", "a kernel log"},
		{"dmesg --notime", "nvme nvme0: controller is down; will reset: CSTS=0x3, PCI_STATUS=0x10\nnvme 0000:01:00.0: enabling device (0000 -> 0002)\nnvme0n1: I/O Cmd(0x2) @ LBA 4953008, I/O Error (sct 0x3 / sc 0x71)\npcieport 0000:00:02.1: AER: Correctable error message received from 0000:bf:00.0\n", "a kernel log"},
		{"dmesg -T", "[Mon Feb 17 21:24:01 2025] nvme nvme0: pci function 0000:08:00.0\n[Mon Feb 17 21:24:01 2025] nvme nvme0: 8/0/0 default/read/poll queues\n", "a kernel log"},
		{"dmesg --human", "[Sep12 13:16] nvme nvme0: I/O 0 QID 4 timeout, aborting\n[  +0,000009] nvme nvme0: I/O 1 QID 4 timeout, aborting\n", "a kernel log"},
		{"console with levels, backticked", "`<3>[  306.381146] handle_linkdown_irq: PCIe link is down for RC1`\n`<4>[  307.063915] nvme 0001:01:00.0: Failed status: 0xffffffff, reset controller.`\n", "a kernel log"},
		{"prose that names a device", "My nvme0: it is slow\nand hot, and the fan: loud\nsince Monday\n", ""},
		{"smart-log", "Smart Log for NVME device:nvme0 namespace-id:ffffffff\ncritical_warning\t\t\t: 0\ntemperature\t\t\t\t: 35 °C (308 K)\navailable_spare\t\t\t\t: 100%\n", "nvme smart-log output"},
		{"smart-log JSON", "{\n  \"critical_warning\":0,\n  \"temperature\":308,\n  \"avail_spare\":100\n}\n", "nvme smart-log output"},
		{"id-ns", "NVME Identify Namespace 1:\nnsze    : 0x3a386030\nncap    : 0x3a386030\nnuse    : 0x1b49c650\nlbaf  0 : ms:0   lbads:9  rp:0 (in use)\n", "nvme id-ns output"},
		{"lspci", "01:00.0 Non-Volatile memory controller: Samsung Electronics Co Ltd NVMe SSD Controller (prog-if 02 [NVM Express])\n\t\tLnkCap:\tPort #0, Speed 16GT/s, Width x4, ASPM L1, Exit Latency L1 <64us\n", "lspci output"},
		{"nvme list", "Node                  Generic               SN                   Model                                    Namespace  Usage                      Format           FW Rev\n--------------------- --------------------- -------------------- ---------------------------------------- ---------- -------------------------- ---------------- --------\n/dev/nvme0n1          /dev/ng0n1            S7U6NJ0X000000       Samsung SSD 990 EVO Plus 2TB             0x1          1.02  TB /   2.00  TB    512   B +  0 B   2B2QKXG7\n", "nvme list output"},
		{"a document that quotes one log line", "# Notes\n\nThe drive logged:\n\n[  217.417507] nvme nvme0: controller is down\n\nand then it was gone.\n", ""},
		{"plain text", "hello\n", ""},
		// nvme-cli JSON and smartctl text as a page's source holds them
		// (testdata/corpus's captures, escaped).
		{"HTML-escaped JSON", "{\n  &quot;vid&quot;:5197,\n  &quot;mn&quot;:&quot;Samsung SSD 990 EVO Plus 1TB&quot;,\n  &quot;apsta&quot;:1\n}\n", "text escaped for a web page"},
		{"HTML-escaped text", "Model&nbsp;Number:&nbsp;Samsung&nbsp;SSD&nbsp;990&nbsp;EVO&nbsp;Plus&nbsp;1TB\nSt&nbsp;Op&nbsp;&nbsp;Max\n", "text escaped for a web page"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := capture.Parse(strings.NewReader(tc.in))
			require.ErrorIs(t, err, capture.ErrUnknownFormat)
			_, ferr := capture.ParseFeatureCapture(strings.NewReader(tc.in))
			require.ErrorIs(t, ferr, capture.ErrUnknownFormat)
			for _, e := range []error{err, ferr} {
				var pe *capture.ParseError
				require.True(t, errors.As(e, &pe))
				if tc.looks == "" {
					assert.Empty(t, pe.Looks)
					assert.NotContains(t, e.Error(), "looks like")
					continue
				}
				assert.Contains(t, pe.Looks, tc.looks)
				assert.Contains(t, e.Error(), "; it looks like "+tc.looks)
			}
		})
	}
}

// smartctl's report of a SATA drive (text and JSON, the keys smartctl
// prints for one) is refused as having no power states, and says why.
func TestSmartctlOfSATADrive(t *testing.T) {
	for name, in := range map[string]string{
		"text": "smartctl 7.4 2023-08-01 r5530 [x86_64-linux-6.8.0-45-generic] (local build)\n\n=== START OF INFORMATION SECTION ===\n" +
			"Device Model:     Samsung SSD 870 EVO 1TB\nFirmware Version: SVT02B6Q\nATA Version is:   ACS-4 T13/BSR INCITS 529 revision 5\nSATA Version is:  SATA 3.3, 6.0 Gb/s (current: 6.0 Gb/s)\n",
		"json": "{\n  \"json_format_version\": [1, 0],\n  \"smartctl\": {\"version\": [7, 4]},\n  \"device\": {\"name\": \"/dev/sda\", \"type\": \"sat\", \"protocol\": \"ATA\"},\n" +
			"  \"model_name\": \"Samsung SSD 870 EVO 1TB\",\n  \"ata_version\": {\"string\": \"ACS-4 T13/BSR INCITS 529 revision 5\"}\n}\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := capture.Parse(strings.NewReader(in))
			require.ErrorIs(t, err, capture.ErrNoPowerStates)
			var pe *capture.ParseError
			require.True(t, errors.As(err, &pe))
			assert.Contains(t, pe.Looks, "a SATA or SAS drive")
		})
	}
}
