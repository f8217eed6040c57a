package kernlog_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// A disk on another transport than NVMe shows its failures in the SCSI
// midlayer's, UAS's, the block layer's and libata's words; they are kept
// in Log.OtherDisks with the disk, the host and the transport the log ties
// them to, and join no incident. The lines are real: an NVMe enclosure on
// a Raspberry Pi (home-assistant/operating-system#796, posted f-15) and on
// an Apple Silicon Mac (UbuntuAsahi/ubuntu-asahi#81, posted u-07), a
// ZFS pool's disks (openzfs/zfs#16806, posted x-05); the libata lines are
// those libata-eh.c prints (drivers/ata/libata-eh.c), the host line the
// one scsi_add_host prints.
func TestOtherDisks(t *testing.T) {
	for _, tc := range []struct {
		name string
		log  string
		want []kernlog.OtherDiskLine
		n    int64
	}{{
		name: "UAS enclosure: an abort, the device reset, the USB reset",
		log: "[  115.691139] sd 0:0:0:0: [sda] tag#19 uas_eh_abort_handler 0 uas-tag 1 inflight: CMD IN\n" +
			"[  115.702260] sd 0:0:0:0: [sda] tag#19 CDB: opcode=0x28 28 00 01 55 c8 00 00 00 08 00\n" +
			"[  115.727145] scsi host0: uas_eh_device_reset_handler start\n" +
			"[  115.864065] usb 2-1: reset SuperSpeed Gen 1 USB device number 2 using xhci_hcd\n" +
			"[  115.897891] scsi host0: uas_eh_device_reset_handler success\n",
		want: []kernlog.OtherDiskLine{
			{Line: 1, Disk: "sda", Host: "scsi host0", Transport: "uas"},
			{Line: 3, Disk: "sda", Host: "scsi host0", Transport: "uas"},
			{Line: 4, Disk: "sda", Host: "scsi host0", Transport: "uas", Port: "2-1"},
		},
		n: 3,
	}, {
		name: "a SCSI disk's failed command and the block layer's error",
		log: "[Sat Mar 22 09:37:13 2025] sd 6:0:0:1: [sdc] tag#0 CDB: Write(16) 8a 00 00 00 00 00 14 19 f5 40 00 00 04 00 00 00\n" +
			"[Sat Mar 22 09:37:13 2025] blk_update_request: I/O error, dev sdc, sector 337245504 op 0x1:(WRITE) flags 0x4700 phys_seg 128 prio class 0\n" +
			"[Sat Mar 22 09:37:13 2025] sd 6:0:0:1: [sdc] tag#1 FAILED Result: hostbyte=DID_OK driverbyte=DRIVER_OK cmd_age=0s\n" +
			"[Sat Mar 22 09:37:13 2025] sd 6:0:0:1: [sdc] tag#1 Sense Key : Aborted Command [current] \n",
		want: []kernlog.OtherDiskLine{
			{Line: 2, Disk: "sdc", Host: "scsi host6", Transport: "scsi"},
			{Line: 3, Disk: "sdc", Host: "scsi host6", Transport: "scsi"},
		},
		n: 2,
	}, {
		name: "a usb-storage host named at its probe; libata",
		log: "[    2.100000] scsi host2: usb-storage 2-1:1.0\n" +
			"[   40.000000] sd 2:0:0:0: [sdb] tag#0 FAILED Result: hostbyte=DID_ERROR driverbyte=DRIVER_OK cmd_age=30s\n" +
			"[   41.000000] I/O error, dev sdb, sector 2048 op 0x0:(READ) flags 0x80700 phys_seg 1 prio class 2\n" +
			"[   50.000000] ata3.00: exception Emask 0x0 SAct 0x0 SErr 0x0 action 0x6 frozen\n" +
			"[   50.000001] ata3.00: failed command: READ FPDMA QUEUED\n" +
			"[   50.000002] ata3: hard resetting link\n" +
			"[   51.000000] ata1: SATA link down (SStatus 0 SControl 300)\n" +
			"[   52.000000] usb 1-1: reset high-speed USB device number 2 using xhci_hcd\n",
		want: []kernlog.OtherDiskLine{
			{Line: 2, Disk: "sdb", Host: "scsi host2", Transport: "usb-storage"},
			{Line: 3, Disk: "sdb", Host: "scsi host2", Transport: "usb-storage"},
			{Line: 4, Host: "ata3", Transport: "ata"},
			{Line: 5, Host: "ata3", Transport: "ata"},
			{Line: 6, Host: "ata3", Transport: "ata"},
		},
		n: 5,
	}, {
		// home-assistant/operating-system#3674 (posted v-02): the uas
		// driver's abort names its host, which no line added.
		name: "an abort of uas without the host's line",
		log: "2024-11-16 19:58:19.609 homeassistant kernel: sd 0:0:0:0: [sda] tag#24 uas_eh_abort_handler 0 uas-tag 11 inflight: CMD OUT \n" +
			"2024-11-16 19:58:19.609 homeassistant kernel: sd 0:0:0:0: [sda] tag#24 CDB: opcode=0x2a 2a 00 01 24 0d 88 00 00 08 00\n",
		want: []kernlog.OtherDiskLine{{Line: 1, Disk: "sda", Host: "scsi host0", Transport: "uas"}},
		n:    1,
	}, {
		// bensuperpc/rtl9210#62 (posted v-01): an RTL9210 enclosure on a
		// Pi 4 that stopped answering; the disk's line names no host.
		name: "a USB device that failed beside the disk",
		log: "[25097.688289] usb 1-1.4: reset high-speed USB device number 3 using xhci_hcd\n" +
			"[25102.772347] usb 1-1.4: device descriptor read/64, error -110\n" +
			"[25119.396364] usb 1-1.4: device not accepting address 3, error -71\n" +
			"[25119.877660] usb 1-1.4: USB disconnect, device number 3\n" +
			"[25119.892446] device offline error, dev sda, sector 321381 op 0x1:(WRITE) flags 0x8800 phys_seg 1 prio class 2\n",
		want: []kernlog.OtherDiskLine{
			{Line: 2, Transport: "usb", Port: "1-1.4"},
			{Line: 3, Transport: "usb", Port: "1-1.4"},
			{Line: 4, Transport: "usb", Port: "1-1.4"},
			{Line: 5, Disk: "sda", Transport: "usb"},
		},
		n: 4,
	}, {
		// linux-usb, ea5b932c-bfa6-40f5-b33c-11bfa4daf7a5@suse.com (posted
		// v-08): the host's number is used again by the next device
		// plugged in, a uas one; the failed disk's was not.
		name: "a host number used again after a disconnect",
		log: "[  428.347209] sd 2:0:0:0: [sdb] Attached SCSI disk\n" +
			"[  433.575528] sd 2:0:0:0: [sdb] Synchronize Cache(10) failed: Result: hostbyte=DID_ERROR driverbyte=DRIVER_OK\n" +
			"[  454.100000] scsi host2: uas\n",
		want: []kernlog.OtherDiskLine{{Line: 2, Disk: "sdb", Host: "scsi host2", Transport: "scsi"}},
		n:    1,
	}, {
		// A USB device that left with no disk failing near it is no
		// disk's: a keyboard unplugged.
		name: "a USB disconnect alone",
		log:  "[   12.000000] usb 1-2: USB disconnect, device number 4\n",
		n:    0,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			lines := strings.Split(tc.log, "\n")
			for i := range tc.want {
				tc.want[i].Text = strings.TrimSpace(lines[tc.want[i].Line-1]) // the line as the log has it
			}
			l, err := kernlog.ReadString(tc.log, kernlog.Options{})
			require.NoError(t, err)
			assert.Equal(t, tc.want, l.OtherDisks)
			assert.Equal(t, tc.n, l.OtherDiskLines)
			assert.Empty(t, l.Incidents, "other disks join no incident")
			assert.Zero(t, l.UnreadLines)
		})
	}
}
