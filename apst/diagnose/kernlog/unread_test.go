package kernlog_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// Lines that look like NVMe or PCIe failure messages but are no event are
// counted and listed; the lines a healthy boot prints are not.
func TestUnreadLines(t *testing.T) {
	log := strings.Join([]string{
		// A controller-down line in a shape the reader does not know
		// (Android's logcat -b kernel): it names nvme and fails to read.
		"12-01 10:00:00.000     0     0 E nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10",
		// Another driver's failure about its own function (posted d-37,
		// an NVMe-oF host's RDMA NIC).
		"[  102.418367] bnxt_en 0000:19:00.0: QPLIB: cmdq[0x0]=0x3 send failed",
		// Not failures: a healthy boot's PCI and NVMe lines
		// (https://github.com/QubesOS/qubes-issues/issues/9719 and the
		// fixtures), a file system's complaint, an AER report's detail, and
		// another program's line about the drive.
		"[    0.412400] pci 0000:00:1d.0: PME# supported from D0 D3hot D3cold",
		"[    0.900000] pcieport 0000:00:1c.0: AER: enabled with IRQ 122",
		// Older kernels' and some vendors' spelling (a Rockchip PCIe
		// guide, posted e-20).
		"[ 2.427712] pcieport 0000:00:00.0: AER enabled with IRQ 115",
		"[    4.628239] nvme nvme0: D3 entry latency set to 10 seconds",
		"[    4.628240] nvme nvme0: Shutdown timeout set to 10 seconds",
		"[   50.000000] EXT4-fs error (device nvme0n1p2): ext4_find_entry:1463: inode #2: comm systemd: reading directory lblock 0",
		"nvme 0000:bf:00.0:   device [15b7:5017] error status/mask=00000001/0000e000",
		// A firmware-first report's registers (posted l-11).
		"[   79.321993] pcieport 0000:6f:02.0: AER: aer_status: 0x00001000, aer_mask: 0x00000000",
		"Dec  1 10:00:00 thinkpad smartd[912]: Device: /dev/nvme0, I/O tag 1 QID 1 timeout, aborting",
	}, "\n") + "\n"
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Incidents)
	assert.Equal(t, int64(2), l.UnreadLines)
	assert.Equal(t, []kernlog.UnreadLine{
		{Line: 1, Text: "12-01 10:00:00.000     0     0 E nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10"},
		{Line: 2, Text: "[  102.418367] bnxt_en 0000:19:00.0: QPLIB: cmdq[0x0]=0x3 send failed"},
	}, l.Unread)

	// The PCI core's resume failure cut before its state (a guide
	// converted from a PDF, posted e-21): an nvme line with a failure
	// word is the driver's error; another driver's is unread.
	l, err = kernlog.ReadString("[  848.871600] nvme 0000:01:00.0: Refused to change power state, currently in   \n"+
		"[  848.946128] rtl88x2ce 0000:02:00.0: Refused to change power state, currently in   \n", kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	assert.Equal(t, kernlog.DriverError, l.Incidents[0].Events[0].Kind)
	assert.Equal(t, []kernlog.UnreadLine{{Line: 2, Text: "[  848.946128] rtl88x2ce 0000:02:00.0: Refused to change power state, currently in"}}, l.Unread)
}

// nvme-cli's own error among the kernel's lines is user space's, the
// errno's text after a colon, not an unread kernel line: as posted after a
// prompt (linux-nvme, Message-ID:
// <619411460.27128070.1562838433020.JavaMail.zimbra@redhat.com>, posted
// f-19) and made bold in a CI log (https://github.com/spdk/spdk/issues/1913,
// posted g-04).
// A user's nvme-cli commands pasted with the log, after a shell trace's
// "+" (posted l-20: linux-block, Message-ID:
// <CAHj4cs_Ckhz4sL5k5ug_Dc5XfjSo9QDRSrHMfBj2XYGm_gb2+g@mail.gmail.com>),
// a prompt or sudo, are no kernel lines left unread, nor are the commands
// that read the log; a user's paraphrase of a kernel line is.
func TestCLICommandIsNotUnread(t *testing.T) {
	l, err := kernlog.ReadString(`+ nvme format -l1 -f /dev/nvme4n1
Success formatting namespace:1
+ nvme reset /dev/nvme4
Reset: Network dropped connection on reset

dmesg:
[  752.177475] nvme nvme4: resetting controller
[  752.227653] nvme nvme4: Disabling device after reset failure: -22
`, kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Unread)
	require.Len(t, l.Incidents, 1)
	for _, line := range []string{"root@host:~# sudo nvme subsystem-reset /dev/nvme0", "$ nvme error-log /dev/nvme0", "# /usr/sbin/nvme reset /dev/nvme1",
		// The commands that read the log, as a TrueNAS guide gives them
		// (posted z-04).
		"sudo dmesg -T | grep -iE 'nvme|pcie|aer|reset' | tail -150", `journalctl -k --since "-3 hours" | grep -iE 'nvme|pcie|reset'`} {
		l, err := kernlog.ReadString("[    1.0] nvme nvme0: pci function 0000:01:00.0\n"+line+"\n", kernlog.Options{})
		require.NoError(t, err)
		assert.Empty(t, l.Unread, line)
	}
	l, err = kernlog.ReadString("[    1.0] nvme nvme0: pci function 0000:01:00.0\nnvme unable to change power state from d3cold to d0, device inaccessible\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Len(t, l.Unread, 1)
}

// Other tools' output and comments pasted beside a log are no kernel
// lines left unread: a "zpool status" row of an NVMe disk (posted zh-06,
// a blog's "The day when ZFS saved my data"), a root prompt's command; a
// failure line after them still is.
func TestToolOutputIsNotUnread(t *testing.T) {
	for _, line := range []string{
		"            nvme-LENSE30256GMSP34MEAT3TA_FBBS19071030004166-part1  DEGRADED    206     0    96  too many errors  (reparing)",
		"  nvme0n1p3  FAULTED  1.2K  0  0  too many errors",
		"# nvme smart-log /dev/nvme0 | grep -i error",
	} {
		l, err := kernlog.ReadString("[    1.0] nvme nvme0: pci function 0000:01:00.0\n"+line+"\n", kernlog.Options{})
		require.NoError(t, err)
		assert.Empty(t, l.Unread, line)
	}
	l, err := kernlog.ReadString("nvme0n1  DEGRADED  x  0  0\nnvme unable to change power state from d3cold to d0, device inaccessible\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Len(t, l.Unread, 1)
}

// Apple's nvme-apple relays its controller's firmware log; the failed
// command's own line is read (posted m-19: linux-btrfs, Message-ID:
// <8a52f55e-9b91-c6da-f2f6-eb8ccb87093d@marcan.st>).
func TestRTKitLogIsNotUnread(t *testing.T) {
	l, err := kernlog.ReadString(`[ 1240.000104] nvme-apple 393cc0000.nvme: RTKit: syslog message: host_ans2.c:1564: cmd parsing error for tag 12 fast decode err 0x1
[ 1240.000767] nvme0n1: Read(0x2) @ LBA 322753843, 0 blocks, Invalid Field in Command (sct 0x0 / sc 0x2)
`, kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Unread)
	require.Len(t, l.Incidents, 1)
	assert.Equal(t, kernlog.IOError, l.Incidents[0].Events[0].Kind)
}

func TestUserSpaceErrorIsNotUnread(t *testing.T) {
	for _, log := range []string{
		"[root@rdma-perf-07 ~]$ nvme connect -t rdma -a 172.31.40.125 -s 4420 -n testnqn\n" +
			"Failed to write to /dev/nvme-fabrics: Bad address\n\n" +
			"[  476.332525] nvme nvme2: rdma_connect failed (-14).\n",
		"00:04:40.433   18:50:50\t# nvme connect -t tcp -n nqn.2016-06.io.spdk:cnode1 -a 10.0.0.2 -s 4420\n" +
			"**00:04:43.530  Failed to write to /dev/nvme-fabrics: Connection timed out**\n",
	} {
		l, err := kernlog.ReadString(log, kernlog.Options{})
		require.NoError(t, err)
		assert.Empty(t, l.Unread, log)
	}
}

// A healthy boot shows no failure: no incident and no unread line.
func TestNoFailure(t *testing.T) {
	// https://github.com/raspberrypi/linux/issues/6661, a boot after the
	// failures.
	log := `-- Boot a0d3f7e9ebb24b3caddaf45891a22066 --
Jun 21 14:18:28 argon kernel: nvme nvme0: pci function 0000:01:00.0
Jun 21 14:18:28 argon kernel: nvme 0000:01:00.0: enabling device (0000 -> 0002)
Jun 21 14:18:28 argon kernel: nvme nvme0: missing or invalid SUBNQN field.
Jun 21 14:18:28 argon kernel: nvme nvme0: 4/0/0 default/read/poll queues
Jun 21 14:18:28 argon kernel: nvme nvme0: Ignoring bogus Namespace Identifiers
Jun 21 14:18:28 argon kernel:  nvme0n1: p1 p2 p3
Jun 21 14:18:28 argon kernel: EXT4-fs (nvme0n1p2): mounted filesystem fc7a1f9e-4967-4f41-a1f5-1b5927e6c5f9 ro with ordered data mode. Quota mode: none.
`
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Incidents)
	assert.Zero(t, l.UnreadLines)
	assert.Empty(t, l.Unread)
	assert.Equal(t, map[string]string{"nvme0n1": "nvme0"}, l.Namespaces)
}

// Lines that name the drive and hold a failure word but are no failure of
// their own are not listed as unread: an error injected on purpose, the
// count of lines printk's rate limit left out, jbd2 giving up a journal
// (the I/O errors before it say why), a recovery's narration and an
// error's details. Lines as posted logs show them.
func TestNotFailuresOfTheirOwn(t *testing.T) {
	for _, line := range []string{
		"[   17.764272] pcieport 0000:00:00.0: aer_inject: Injecting errors 00000040/00000000 into device 0000:01:00.0",
		"Jun 17 08:41:25 sm-1125hs-502 kernel: nvme_log_error: 337 callbacks suppressed",
		"[  310.903626] Aborting journal on device nvme0n1p3-8.",
		// ZFS's report of a failed I/O on a vdev (its own lines say less
		// than the disk's).
		"Nov 8 00:26:18 kernel: [306450.056380] zio pool=zfs vdev=/dev/disk/by-id/nvme-eui.0025385b81b21500-part1 error=61 type=1 offset=88327696896 size=131072 flags=1808b0",
		"mount: /mnt/nv: can't read superblock on /dev/nvme0n1p1. dmesg(1) may have more information after failed mount system call. qizhou@raspberrypi:~ $ dmesg | tail -15",
		// POWER's EEH narrating its recovery (linux-nvme,
		// 4bc44911-afc2-4886-86cc-e0adb6be4457@linux.ibm.com), and a DPC
		// event's details (linux-pci,
		// a70a936d-d031-7199-4ed7-30753b3e7cfa@gmail.com): the lines that
		// say what failed are read.
		"[  177.579212] EEH: [c008000004c261cc] nvme_timeout+0x254/0x4e0 [nvme]",
		// The faulting instruction of a crash dump cut after it
		// (https://github.com/spdk/spdk/issues/2201).
		"[  234.416036] RIP: 0010:nvme_reset_work.cold+0x163/0x316 [nvme]",
		"[  177.579276] PCI 0018:01:00.0#10000: EEH: Invoking nvme->error_detected(IO frozen)",
		"[  177.698719] PCI 0018:01:00.0#10000: EEH: nvme driver reports: 'need reset'",
		"> [  180.325229] pcieport 0000:64:02.0: DPC: RP PIO error detected",
		"> [  180.325237] pcieport 0000:64:02.0: DPC: RP PIO severity=0x00010000, syserror=0x00000000, exception=0x00000000",
		// "available" and an e-mail address hold no "fail": core.c's note
		// at a namespace scan (a Japanese blog's dmesg, posted i-06) and a
		// mail's attribution line naming linux-nvme.
		"[19.575770] block nvme0n1: No UUID available providing old NGUID",
		"On Thu, Sep 12, 2019 at 5:36 AM Gabriel C <nix.or.die@gmail.com> wrote to linux-nvme:",
		// A call trace typed from a photo, its offsets left out
		// (https://github.com/NixOS/nixpkgs/issues/96466), two frames a
		// wrap joined.
		"  nvme_alloc_queue",
		"  nvme_alloc_queue nvme_reset_work",
		"  ? nvm_irq_check",
	} {
		l, err := kernlog.ReadString("[    1.000000] nvme nvme0: pci function 0000:01:00.0\n"+line+"\n", kernlog.Options{})
		require.NoError(t, err)
		assert.Empty(t, l.Unread, line)
		assert.Empty(t, l.Incidents, line)
	}
}

// The module list of a crash dump names nvme among words a failure word
// search would find: it is part of the dump, not a message of its own
// (a pseries crash as posted to the iommu list).
func TestModuleListIsNoFailure(t *testing.T) {
	l, err := kernlog.ReadString("[   32.494575] Modules linked in: ibmvscsi ibmveth scsi_transport_srp bnx2x ipr libata xhci_pci xhci_hcd nvme xts vmx_crypto nvme_core mdio t10_pi libcrc32c dm_mirror dm_region_hash dm_log dm_mod\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Zero(t, l.UnreadLines)

	// Wrapped by a mail client, the list's rest stands alone.
	l, err = kernlog.ReadString("[   32.494575] Modules linked in: ibmvscsi ibmveth scsi_transport_srp\n"+
		"bnx2x ipr libata xhci_pci xhci_hcd nvme xts vmx_crypto nvme_core mdio t10_pi libcrc32c dm_mirror\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Zero(t, l.UnreadLines)
}

// At most MaxUnread lines are listed, all are counted, each clipped.
func TestUnreadIsBounded(t *testing.T) {
	var b strings.Builder
	n := kernlog.MaxUnread + 7
	for i := range n {
		fmt.Fprintf(&b, "[ %d.0] vfio-pci 0000:01:00.%d: timed out waiting for pending transaction%s\n", i, i%8, strings.Repeat(" x", 400))
	}
	l, err := kernlog.ReadString(b.String(), kernlog.Options{})
	require.NoError(t, err)
	assert.Equal(t, int64(n), l.UnreadLines)
	require.Len(t, l.Unread, kernlog.MaxUnread)
	for _, u := range l.Unread {
		assert.LessOrEqual(t, len(u.Text), kernlog.MaxTextLength)
	}
	assert.Equal(t, kernlog.MaxUnread, l.Unread[kernlog.MaxUnread-1].Line)
}

// The PCI core still waiting for a function after a resume is no failure
// (drivers/pci/pci.c, pci_dev_wait): neither an event nor an unread line.
func TestStillWaitingIsNoFailure(t *testing.T) {
	l, err := kernlog.ReadString("[  100.000000] nvme 0000:01:00.0: not ready 1023ms after resume; waiting\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Incidents)
	assert.Zero(t, l.UnreadLines)
}

// What nvme and the PCI core say at a probe or after a tool's command,
// with a failure word but no failure: no event and no unread line. Formats of
// drivers/nvme/host/pci.c (nvme_pci_enable, printed at every boot of the
// MacBooks it names, as a MacBook Air's posted log shows) and core.c
// (nvme_get_fw_slot_info, nvme_passthru_end).
func TestNoticesAreNoFailure(t *testing.T) {
	for _, line := range []string{
		"[    2.332179] nvme nvme0: detected Apple NVMe controller, set queue depth=2 to work around controller resets",
		"[   12.000000] nvme nvme0: Firmware is activated after next Controller Level Reset",
		"[  900.000000] nvme nvme0: controller capabilities changed, reset may be required to take effect.",
		// The PCI core's (drivers/pci/pcie/dpc.c's dpc_probe,
		// hotplug/pciehp_ctrl.c, pci.c's function reset as
		// https://github.com/kata-containers/kata-containers/issues/11708
		// shows it, aspm.c behind Intel VMD).
		"[    1.000000] pcieport 0000:00:1c.0: DPC: error containment capabilities: Int Msg #0, RPExt+ PoisonedTLP+ SwTrigger+ RP PIO Log 4, DL_ActiveErr+",
		"[  900.000000] pcieport 0000:00:1c.0: pciehp: Slot(1): Already disabled",
		"[586739.361003] vfio-pci 0000:01:00.0: resetting",
		"[  900.000000] nvme 0000:01:00.0: resetting",
		// core.c of 4.14 to 5.15 (nvme_configure_directives).
		"[    5.000000] nvme nvme0: too few streams (2) available",
		// vpd.c, a program's read of the vpd file (posted zo-02, a
		// Layerscape board's).
		"nvme 0004:01:00.0: VPD access failed.  This is likely a firmware bug on this device.  Contact the card vendor for a firmware update",
		// The firmware loader's and ath10k's notices of healthy boots
		// (hw-probe dmesg, posted zt-10, zt-11).
		"[    0.408283] i915 0000:00:02.0: Direct firmware load for i915/kbl_dmc_ver1_04.bin failed with error -2",
		"[    3.311272] ath10k_pci 0000:3a:00.0: pci irq msi oper_irq_mode 2 irq_mode 0 reset_mode 0",
	} {
		l, err := kernlog.ReadString(line+"\n", kernlog.Options{})
		require.NoError(t, err)
		assert.Empty(t, l.Incidents, line)
		assert.Empty(t, l.Unread, line)
	}
}

// Three lines of the posted logs once left unread are read, each as what
// its source prints it for: the PCI core's function level reset that
// found transactions never completed (drivers/pci/pci.c, pcie_flr; posted
// a-10, https://github.com/kata-containers/kata-containers/issues/11708),
// the Amiga partition reader's failed read (block/partitions/amiga.c;
// posted f-02, a blktests run) and the device tree's missing legacy
// interrupt of a port (drivers/pci/of.c; posted e-20, a Rockchip guide).
func TestPCICoreAndBlockLinesRead(t *testing.T) {
	for _, tc := range []struct {
		line   string
		kind   kernlog.Kind
		action string
		pci    string
		disk   string
	}{
		{"[586740.080470] vfio-pci 0000:01:00.0: timed out waiting for pending transaction; performing function level reset anyway",
			kernlog.DriverError, kernlog.ActionPendingTransactions, "0000:01:00.0", ""},
		{"[  217.492958] Dev nvme1n1: unable to read RDB block 0", kernlog.IOError, "", "", "nvme1n1"},
		{"[ 2.426183] pcieport 0000:00:00.0: of_irq_parse_pci: failed with rc=-22", kernlog.PlatformFault, kernlog.ActionIRQMap, "0000:00:00.0", ""},
	} {
		l, err := kernlog.ReadString(tc.line+"\n", kernlog.Options{})
		require.NoError(t, err, tc.line)
		assert.Empty(t, l.Unread, tc.line)
		require.Len(t, l.Incidents, 1, tc.line)
		e := l.Incidents[0].Events[0]
		assert.Equal(t, tc.kind, e.Kind, tc.line)
		assert.Equal(t, tc.action, e.Action, tc.line)
		assert.Equal(t, tc.pci, e.PCI, tc.line)
		assert.Equal(t, tc.disk, e.Disk, tc.line)
	}
	// A bare errno of the device tree's line is kept.
	l, err := kernlog.ReadString("[ 2.426183] pcieport 0000:00:00.0: of_irq_parse_pci: failed with rc=-22\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Equal(t, -22, l.Incidents[0].Events[0].Errno)
}

// What posted logs i-04, i-09, i-10 and i-14 held around their kernel
// lines is read as what it is: a journalctl a coding agent ran, nested
// under a tree's branch ("  └ "); nvme-cli's connect errors run into a
// prompt or its next line; the task line of a hung-task report
// (sched_show_task's older format); a kernel command line wrapped onto a
// line of its own. None is an unread kernel line, and the kernel lines
// among them are read.
func TestPastedAroundKernelLines(t *testing.T) {
	l, err := kernlog.ReadString("• Ran journalctl -k --since '10 minutes ago' --no-pager -n 60\n"+
		"  └ Oct 09 19:24:37 pekka kernel: nvme nvme0: I/O tag 792 (4318) opcode 0x1 (I/O Cmd) QID 3 timeout, aborting req_op:WRITE(1) size:20480\n"+
		"    Oct 09 19:24:37 pekka kernel: nvme nvme0: Abort status: 0x0\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Unread)
	require.Len(t, l.Incidents, 1)
	assert.Equal(t, 2, len(l.Incidents[0].Events))
	assert.Equal(t, kernlog.IOTimeout, l.Incidents[0].Events[0].Kind)
	assert.Equal(t, 2, l.Incidents[0].Events[0].Line)

	// nvme-rdma's line of the same connect (posted i-09).
	const rdma = "[Mon Dec 26 06:14:36 2022] nvme nvme0: rdma connection establishment failed (-104)"
	for _, s := range []string{
		"Failed to write to /dev/nvme-fabrics: Connection reset by peer root@dev-quill-touch-0:~#\n" + rdma,
		"Failed to write to /dev/nvme-fabrics: Connection reset by peer\nfailed to add controller, error failed to write to nvme-fabrics device\n" + rdma,
		"Aug 14 18:31:12 kdevops-xfs-dev kernel: INFO: task xfsaild/nvme1n1:289 blocked for more than 120 seconds.\n" +
			"Aug 14 18:31:12 kdevops-xfs-dev kernel: xfsaild/nvme1n1 D    0   289      2 0x80004000",
		"[    5.1] task:jbd2/nvme0n1p2-8 state:D stack:0     pid:402   ppid:2      flags:0x00004000",
		"`[Mon Dec 26 05:29:47 2022] Command line: BOOT_IMAGE=/boot/vmlinuz-5.4.0-107-generic\n" +
			"root=UUID=a594bda9-1e75-41f4-a95e-6b3d836803de ro maybe-ubiquity net.ifnames=0\n" +
			"biosdevname=0 ipv6.disable=1 nvme_core.multipath=N\n\n" +
			"[Mon Dec 26 05:29:47 2022] Kernel command line: BOOT_IMAGE=/boot/vmlinuz-5.4.0-107-generic\n" +
			"root=UUID=a594bda9-1e75-41f4-a95e-6b3d836803de ro maybe-ubiquity net.ifnames=0 biosdevname=0 ipv6.disable=1 nvme_core.multipath=N\n" + rdma,
	} {
		l, err := kernlog.ReadString(s+"\n", kernlog.Options{})
		require.NoError(t, err, s)
		assert.Empty(t, l.Unread, s)
	}
	// A sentence is no parameter list, and a line of the kernel's is
	// still flagged when nothing reads it.
	l, err = kernlog.ReadString("[  155.366568] nvmet: ctrl 1 fatal error occurred!\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Len(t, l.Unread, 1)
}

// A device of another bus named after its PCI parent (a MEI client of a
// Surface's touch screen, linux-surface/kernel#20, posted zb-04) is no
// PCI function: its errors are not the drive's lines left unread.
func TestBusDeviceNamedAfterItsParentIsNotUnread(t *testing.T) {
	l, err := kernlog.ReadString("[24860.316810] ipts 0000:00:16.4-3e8d0870-271a-4208-8eb5-9acb9402ae04: mei_cldev_send() error 0x4:-19\n"+
		"[24860.317963] ipts 0000:00:16.4-3e8d0870-271a-4208-8eb5-9acb9402ae04: error in reading m2h msg\n"+
		"[24860.400000] iwlwifi 0000:00:14.3: Microcode SW error detected. Restarting 0x0.\n", kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Unread, 1, "%+v", l.Unread)
	assert.Equal(t, 3, l.Unread[0].Line, "a function's own line still counts")
}

// A shell's command that asks the PCI core to remove a device, pasted
// with the kernel's lines, is Log.RemoveRequest: a root port removed on
// an R-Car board (posted zj-05, linux-pci: the colons escaped, quoted
// with "> " and a prompt), the forms with tee and a device's own path.
// A command that writes elsewhere, or 0, is none.
func TestRemoveRequest(t *testing.T) {
	for line, want := range map[string]string{
		`>   $ echo 1 > /sys/class/pci_bus/0000\:00/device/0000\:00\:00.0/remove`: `echo 1 > /sys/class/pci_bus/0000\:00/device/0000\:00\:00.0/remove`,
		"root@host:~# echo 1 | sudo tee /sys/bus/pci/devices/0000:01:00.0/remove": "echo 1 | sudo tee /sys/bus/pci/devices/0000:01:00.0/remove",
		"# echo 1 > /sys/bus/pci/devices/0000:01:00.0/remove":                     "echo 1 > /sys/bus/pci/devices/0000:01:00.0/remove",
		"$ echo 1 > /sys/bus/pci/rescan":                                          "",
		"$ echo 0 > /sys/bus/pci/devices/0000:01:00.0/remove":                     "",
		"$ cat /sys/bus/pci/devices/0000:01:00.0/remove":                          "",
	} {
		l, err := kernlog.ReadString("[    1.0] nvme nvme0: pci function 0000:01:00.0\n"+line+"\n", kernlog.Options{})
		require.NoError(t, err)
		if want == "" {
			assert.Nil(t, l.RemoveRequest, line)
			continue
		}
		require.NotNil(t, l.RemoveRequest, line)
		assert.Equal(t, 2, l.RemoveRequest.Line)
		assert.Equal(t, want, l.RemoveRequest.Text)
	}
}
