package kernlog_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// radxa is a log quoted in a reply on linux-pci: printk caller ids, and
// Thunderbird's format=flowed wrapping at 80 columns that leaves a blank
// before each soft break (FUKAUMI Naoki, "Re: PCIe probe failure on AmLogic
// A311D after 6.18-rc1", 2025-10-27,
// https://lore.kernel.org/linux-pci/665677F9F810B6C1+af6c83fd-f262-4721-b544-4336aaa83bfe@radxa.com/).
const radxa = "> [    5.651205] [     T50] pci 0000:01:00.0: ASPM: DT platform, enabling \n" +
	"> L0s-up L0s-dw L1 ASPM-L1.1 ASPM-L1.2 PCI-PM-L1.1 PCI-PM-L1.2\n" +
	"> [    5.664912] [     T50] pci 0000:01:00.0: ASPM: DT platform, enabling \n" +
	"> ClockPM\n" +
	"> [    5.706596] [     T50] meson-pcie fc000000.pcie: error: wait linkup \n" +
	"> timeout\n" +
	"> [    6.181556] [     T50] pcieport 0000:00:00.0: AER: enabled with IRQ 25\n" +
	"> [   11.722728] [    T491] iwlwifi 0000:01:00.0: Unable to change power \n" +
	"> state from D3cold to D0, device inaccessible\n" +
	"> [   11.945931] [    T491] iwlwifi 0000:01:00.0: HW_REV=0xFFFFFFFF, PCI \n" +
	"> issues?\n" +
	"> [   11.952685] [    T491] iwlwifi 0000:01:00.0: probe with driver \n" +
	"> iwlwifi failed with error -5\n" +
	"> \n" +
	"> Booting with the patch and pcie_aspm=off made the PCIe card work again.(snip)\n"

func TestFlowedMailIsJoined(t *testing.T) {
	l, err := kernlog.ReadString(radxa, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	ev := l.Incidents[0].Events
	require.Len(t, ev, 3)
	assert.Equal(t, kernlog.ASPMPlatform, ev[0].Kind)
	assert.Equal(t, "ASPM: DT platform, enabling L0s-up L0s-dw L1 ASPM-L1.1 ASPM-L1.2 PCI-PM-L1.1 PCI-PM-L1.2", ev[0].Text)
	assert.Equal(t, "[    5.651205] [     T50] pci 0000:01:00.0: ASPM: DT platform, enabling L0s-up L0s-dw L1 ASPM-L1.1 ASPM-L1.2 PCI-PM-L1.1 PCI-PM-L1.2", ev[0].Raw)
	assert.Equal(t, []int{1, 2}, []int{ev[0].Line, ev[0].EndLine})
	assert.Equal(t, "ASPM: DT platform, enabling ClockPM", ev[1].Text, "a flowed break joins even a capitalised word")
	assert.Equal(t, kernlog.ResumeFailure, ev[2].Kind)
	assert.Equal(t, "D3cold", ev[2].FromState)
	assert.Equal(t, []int{8, 9}, []int{ev[2].Line, ev[2].EndLine})
	assert.Equal(t, "[   11.722728] [    T491] iwlwifi 0000:01:00.0: Unable to change power state from D3cold to D0, device inaccessible", ev[2].Raw)
	// The driver's probe failure names a PCI function and "failed": a line
	// that is no event, and said so.
	require.Len(t, l.Unread, 1)
	assert.Equal(t, kernlog.UnreadLine{Line: 12, Text: "[   11.952685] [    T491] iwlwifi 0000:01:00.0: probe with driver iwlwifi failed with error -5"}, l.Unread[0])
}

// The wraps of the brief: a message cut after a colon or a comma, by a
// tracker that keeps no blank, each part on its own line; and one cut where
// only the joined text reads.
func TestWrappedMessages(t *testing.T) {
	for _, tc := range []struct {
		name, log string
		kind      kernlog.Kind
		raw       string
		end       int
	}{
		// https://github.com/raspberrypi/linux/issues/6661, wrapped after the colon.
		{"after a colon", "Jan 28 16:15:20 argon kernel: nvme nvme0: controller is down; will reset:\nCSTS=0xffffffff, PCI_STATUS=0x10\n",
			kernlog.ControllerDown, "Jan 28 16:15:20 argon kernel: nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10", 2},
		// https://github.com/clearlinux/distribution/issues/3291, wrapped after the comma.
		{"after a comma", "Mar 26 12:24:25 DadsGram kernel: pcieport 0000:03:02.0: Unable to change power state from D3hot to D0,\n    device inaccessible\n",
			kernlog.ResumeFailure, "Mar 26 12:24:25 DadsGram kernel: pcieport 0000:03:02.0: Unable to change power state from D3hot to D0, device inaccessible", 2},
		// https://github.com/raspberrypi/linux/issues/6661, the hint wrapped inside its quotes.
		{"inside quotes", "Jan 28 16:15:20 argon kernel: nvme nvme0: Try \"nvme_core.\ndefault_ps_max_latency_us=0 pcie_aspm=off\" and report a bug\n",
			kernlog.WorkaroundHint, "Jan 28 16:15:20 argon kernel: nvme nvme0: Try \"nvme_core. default_ps_max_latency_us=0 pcie_aspm=off\" and report a bug", 2},
		// https://github.com/Joshua-Riek/ubuntu-rockchip/issues/155, cut
		// where neither part says what it is.
		{"keyword on the second line", "[   43.609510] Buffer I/O error on dev\nnvme0n1, logical block 62514752, async page read\n",
			kernlog.IOError, "[   43.609510] Buffer I/O error on dev nvme0n1, logical block 62514752, async page read", 2},
		// https://lore.kernel.org/all/20210310132323.463924004@linuxfoundation.org/,
		// wrapped at 48 columns: a step that failed, and its status.
		{"a failed step's status", "[   13.239627] nvme nvme0: Identify Descriptors\nfailed (8194)\n",
			kernlog.DriverError, "[   13.239627] nvme nvme0: Identify Descriptors failed (8194)", 2},
		// https://github.com/FrameworkComputer/SoftwareFirmwareIssueTracker/issues/41, quoted twice.
		{"quoted, three lines", "> > pcieport 0000:00:02.1: AER: Correctable error\n> > message received from\n> > 0000:bf:00.0\n",
			kernlog.AERReceived, "pcieport 0000:00:02.1: AER: Correctable error message received from 0000:bf:00.0", 3},
		// The lines of real threads wrapped once more by a mail client at
		// 64 to 78 columns (TestThreadsInEveryShape in package diagnose
		// does it to every thread). A fixed format cut before a capital:
		// aer.c's "(%s)" is still to come (https://lore.kernel.org/all/20210102170303.m555l4fmv3ht76yo@function/).
		{"fixed format, before a capital", "Jan  1 23:30:53 begin kernel: [   46.675933] nvme 0000:02:00.0: PCIe Bus Error: severity=Corrected, type=Physical\nLayer, (Receiver ID)\n",
			kernlog.AERError, "Jan  1 23:30:53 begin kernel: [   46.675933] nvme 0000:02:00.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)", 2},
		// A stamp alone, then its message (https://github.com/Joshua-Riek/ubuntu-rockchip/issues/155).
		{"a stamp alone", "May 21 18:07:14 sangje-desktop kernel: [   43.992405]\nblk_update_request: I/O error, dev nvme0n1, sector 500118016 op 0x0:(READ) flags 0x80700 phys_seg 1 prio class 0\n",
			kernlog.IOError, "May 21 18:07:14 sangje-desktop kernel: [   43.992405] blk_update_request: I/O error, dev nvme0n1, sector 500118016 op 0x0:(READ) flags 0x80700 phys_seg 1 prio class 0", 2},
		// A stamp and the driver's name, then the device and the message (the same thread).
		{"a stamp and one word", "May 21 18:21:53 sangje-desktop kernel: [   43.594151] nvme\nnvme0: Removing after probe failure status: -19\n",
			kernlog.ProbeFailure, "May 21 18:21:53 sangje-desktop kernel: [   43.594151] nvme nvme0: Removing after probe failure status: -19", 2},
		// A capital after a stamped line, in a log whose lines all have one
		// (the same thread; a last word, "read", with no keyword, stays
		// apart: noise never changes an event).
		{"a capital, in a stamped log", "May 21 18:21:53 sangje-desktop kernel: [   43.609510] Buffer\nI/O error on dev nvme0n1, logical block 62514752, async page\nread\n",
			kernlog.IOError, "May 21 18:21:53 sangje-desktop kernel: [   43.609510] Buffer I/O error on dev nvme0n1, logical block 62514752, async page", 2},
		// nvme-pci's "PCI_STATUS read failed (%d)" cut inside it (the same thread).
		{"PCI_STATUS cut", "May 21 18:07:14 sangje-desktop kernel: [   40.991192] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS read\nfailed (134)\n",
			kernlog.ControllerDown, "May 21 18:07:14 sangje-desktop kernel: [   40.991192] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS read failed (134)", 2},
		// The timeout's action cut inside it (https://lore.kernel.org/all/ZpaJaM1G721FdLFn@hovoldconsulting.com/).
		{"timeout action cut", "[  132.084740] nvme nvme0: I/O tag 17 (1011) QID 0 timeout, completion\npolled\n",
			kernlog.AdminTimeout, "[  132.084740] nvme nvme0: I/O tag 17 (1011) QID 0 timeout, completion polled", 2},
		// The 6.x timeout line cut after its queue, the mail's own wrap
		// then cutting it again (https://lore.kernel.org/all/CABXGCsMd_xv8jPDF_sFYhwd8GtANZ23nbaSJuCxQRO7cjPtgWg@mail.gmail.com/).
		{"after the queue", "nvme nvme0: I/O tag 960 (33c0) opcode 0x2 (I/O Cmd) QID 7\ntimeout,\naborting req_op:READ(0) size:16384\n",
			kernlog.IOTimeout, "nvme nvme0: I/O tag 960 (33c0) opcode 0x2 (I/O Cmd) QID 7 timeout, aborting req_op:READ(0) size:16384", 3},
		// AER's device cut off, twice (https://lore.kernel.org/all/CA+enf=v9rY_xnZML01oEgKLmvY1NGBUUhnSJaETmXtDtXfaczA@mail.gmail.com/).
		{"AER's device cut off", "[   11.524622] pcieport 0000:00:00.0: AER: Corrected error\nreceived:\n0000:01:00.0\n",
			kernlog.AERReceived, "[   11.524622] pcieport 0000:00:00.0: AER: Corrected error received: 0000:01:00.0", 3},
		// Narrower wraps of real lines (48 to 60 columns). The driver
		// core's probe failure is a message the reader knows, so the
		// rest of it joins (https://lore.kernel.org/all/11e39001-e5bc-4556-b3dd-4e1a49d9089c@oldschoolsolutions.biz/).
		{"probe failure, wrapped", "[    1.524788] nvme 0002:01:00.0: probe with driver nvme\nfailed with error -12\n",
			kernlog.DriverError, "[    1.524788] nvme 0002:01:00.0: probe with driver nvme failed with error -12", 2},
		// "error received:" is no device's prefix; "AER:" after the device is
		// its tag, the message to come (https://lore.kernel.org/all/20211115212050.GA1588607@bhelgaas/).
		{"AER's severity alone", "[    1.579028] pcieport 10000:e0:06.0: AER: Corrected\nerror received: 10000:e1:00.0\n",
			kernlog.AERReceived, "[    1.579028] pcieport 10000:e0:06.0: AER: Corrected error received: 10000:e1:00.0", 2},
		{"AER's tag alone", "  [    1.579028] pcieport 10000:e0:06.0: AER:\nCorrected error received: 10000:e1:00.0\n",
			kernlog.AERReceived, "[    1.579028] pcieport 10000:e0:06.0: AER: Corrected error received: 10000:e1:00.0", 2},
		// A failure word across the break, and a line ending in "to"
		// (https://lore.kernel.org/all/20190715071149.GA24206@nasledov.com/).
		{"a failure word across the break", "[ 0.942706] nvme nvme1: ignoring ctrl due to duplicate\nsubnqn\n(nqn.2018-05.com.example:nvme:nvm-subsystem-OUI00E04C).\n",
			kernlog.DriverError, "[ 0.942706] nvme nvme1: ignoring ctrl due to duplicate subnqn (nqn.2018-05.com.example:nvme:nvm-subsystem-OUI00E04C).", 3},
		{"a line ending in to", "[ 0.942706] nvme nvme1: ignoring ctrl due to\nduplicate subnqn\n(nqn.2018-05.com.example:nvme:nvm-subsystem-OUI00E04C).\n",
			kernlog.DriverError, "[ 0.942706] nvme nvme1: ignoring ctrl due to duplicate subnqn (nqn.2018-05.com.example:nvme:nvm-subsystem-OUI00E04C).", 3},
		// The host memory buffer's limit is still to come (https://github.com/raspberrypi/linux/issues/7445).
		{"the HMB limit cut off", "nvme nvme0: min host memory (64 MiB) above\nlimit (32 MiB).\n",
			kernlog.HostMemoryBuffer, "nvme nvme0: min host memory (64 MiB) above limit (32 MiB).", 2},
		// The timeout line cut before its queue's number, or before its
		// opcode (https://lore.kernel.org/all/CABXGCsMd_xv8jPDF_sFYhwd8GtANZ23nbaSJuCxQRO7cjPtgWg@mail.gmail.com/).
		{"before the queue's number", "nvme nvme0: I/O tag 960 (33c0) opcode 0x2 (I/O Cmd) QID\n7 timeout,\naborting req_op:READ(0) size:16384\n",
			kernlog.IOTimeout, "nvme nvme0: I/O tag 960 (33c0) opcode 0x2 (I/O Cmd) QID 7 timeout, aborting req_op:READ(0) size:16384", 3},
		{"before the opcode", "nvme nvme0: I/O tag 960 (33c0) opcode\n0x2 (I/O Cmd) QID 7 timeout,\naborting req_op:READ(0) size:16384\n",
			kernlog.IOTimeout, "nvme nvme0: I/O tag 960 (33c0) opcode 0x2 (I/O Cmd) QID 7 timeout, aborting req_op:READ(0) size:16384", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tc.log, kernlog.Options{})
			require.NoError(t, err)
			require.Len(t, l.Incidents, 1)
			require.Len(t, l.Incidents[0].Events, 1)
			e := l.Incidents[0].Events[0]
			assert.Equal(t, tc.kind, e.Kind)
			assert.Equal(t, tc.raw, e.Raw)
			assert.Equal(t, 1, e.Line)
			assert.Equal(t, tc.end, e.EndLine)
			assert.Zero(t, l.UnreadLines)
		})
	}
}

// What is not joined: a complete line before text without a stamp, a line
// before one with a stamp or prefix of its own, a word broken in two (the
// line before reads complete), and lines beyond MaxWrapLines.
func TestNotJoined(t *testing.T) {
	l, err := kernlog.ReadString("[  217.417507] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff\n"+
		"this is what I saw after resume\n"+
		"[  217.417514] nvme nvme0: Does your device have a faulty power saving mode enabled?\n"+
		"nvme nvme0: Abort status: 0x0\n", kernlog.Options{})
	require.NoError(t, err)
	ev := l.Incidents[0].Events
	require.Len(t, ev, 3)
	for _, e := range ev {
		assert.Equal(t, e.Line, e.EndLine, e.Raw)
	}
	assert.Equal(t, "[  217.417507] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff", ev[0].Raw)

	// A remark that starts with "failed" but is more than a status.
	l, err = kernlog.ReadString("[   13.239627] nvme nvme0: Identify Descriptors\nfailed (after resume) and then the drive was gone\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Incidents)

	// https://lore.kernel.org/all/92ee253f-bf6a-481a-acc2-daf26d268395@riscstar.com/:
	// "AS" + "PM-L1.1" stays apart, the first line reading complete.
	l, err = kernlog.ReadString("   pci 0000:01:00.0: ASPM: DT platform, enabling L0s-up L0s-dw L1 AS\nPM-L1.1 ASPM-L1.2 PCI-PM-L1.1 PCI-PM-L1.2\n", kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	assert.Equal(t, 1, l.Incidents[0].Events[0].EndLine)

	// AER's set-up line cut is no failure either (https://lore.kernel.org/all/20211115212050.GA1588607@bhelgaas/).
	l, err = kernlog.ReadString("[    1.486704] pcieport 10000:e0:06.0: AER: enabled with\nIRQ 146\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Incidents)
	assert.Empty(t, l.Unread)

	// A message wrapped over more lines than MaxWrapLines keeps the first ones.
	long := "[  1.000000] nvme nvme0: controller is down; will reset:\n" + strings.Repeat("x,\n", kernlog.MaxWrapLines+5)
	l, err = kernlog.ReadString(long, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	assert.Equal(t, kernlog.MaxWrapLines, l.Incidents[0].Events[0].EndLine)
}

// TestWrappedAmongBareLines reads AER's lines wrapped at 60 columns in a
// log where some wrapped lines stayed apart ("support [AER]" has a keyword
// and completes nothing), so that not every held line had a stamp: a
// severity or a tag with its message on the next line still joins, and
// AER's set-up line cut is no failure
// (https://lore.kernel.org/all/20211115212050.GA1588607@bhelgaas/, wrapped
// again by TestThreadsInEveryShape).
func TestWrappedAmongBareLines(t *testing.T) {
	const log = "  [    0.410076] acpi PNP0A08:00: _OSC: platform does not\n" +
		"support [AER]\n" +
		"  [    1.569083] nvme nvme0: pci function 10000:e1:00.0\n" +
		"  [    1.579028] pcieport 10000:e0:06.0: AER: Corrected\n" +
		"error received: 10000:e1:00.0\n" +
		"  [    1.591509] pcieport 10000:e0:06.0: AER:\n" +
		"Corrected error received: 10000:e1:00.0\n" +
		"[    1.486704] pcieport 10000:e0:06.0: AER: enabled with\n" +
		"IRQ 146\n"
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Unread)
	require.Len(t, l.Incidents, 1)
	var raws []string
	for _, e := range l.Incidents[0].Events {
		raws = append(raws, e.Raw)
	}
	assert.Equal(t, []string{
		"[    1.579028] pcieport 10000:e0:06.0: AER: Corrected error received: 10000:e1:00.0",
		"[    1.591509] pcieport 10000:e0:06.0: AER: Corrected error received: 10000:e1:00.0",
	}, raws)
}

// Early in a log wrapped at 48 columns, the rest of a stamped line that
// joined nothing (drivers/acpi/pci_root.c's "_OSC: OS supports [...]",
// which holds a keyword but is no event) is a wrap, not a message pasted
// without its stamp: later wraps that break before a capital (AER's
// "PCIe Bus" + "Error: severity=...") still join.
func TestWrapRemnantsKeepTheLogStamped(t *testing.T) {
	log := "  [    0.408995] acpi PNP0A08:00: _OSC: OS\n" +
		"supports [ExtendedConfig ASPM ClockPM Segments\n" +
		"MSI HPX-Type3]\n" +
		"  [    0.410076] acpi PNP0A08:00: _OSC:\n" +
		"platform does not support [AER]\n" +
		"  [    1.569083] nvme nvme0: pci function\n" +
		"10000:e1:00.0\n" +
		"  [    1.584839] nvme 10000:e1:00.0: PCIe Bus\n" +
		"Error: severity=Corrected, type=Physical Layer,\n" +
		"(Receiver)\n"
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	require.Len(t, l.Incidents[0].Events, 1)
	e := l.Incidents[0].Events[0]
	assert.Equal(t, kernlog.AERError, e.Kind)
	assert.Equal(t, []int{8, 10}, []int{e.Line, e.EndLine})
	assert.Equal(t, "Corrected", e.Severity)
}

// A console where another program's output ran into the kernel's line
// ("Jobs: 6 (" of fio, a shell prompt) is read from the kernel's time
// stamp on; text in brackets that is no time stamp is not. The lines as
// posted to linux-block
// (3db522f4-c0c3-ce0f-b0e3-57ee1176bbf8@huawei.com and, a progress line
// that ends in a word, 56502aa9-d4ad-5ede-5184-13f1817c77d7@huawei.com,
// wrapped by the mail) and linux-pci
// (3ac0d6c5-0c49-45fd-b855-d9b040249096@rock-chips.com).
func TestConsoleInterleaving(t *testing.T) {
	l, err := kernlog.ReadString("[  509.679776]  page_wait_table+0x1500/0x1800\n"+
		"Jobs: 6 ([  519.858094] nvme nvme1: controller is down; will reset: \n"+
		"CSTS=0xffffffff, PCI_STATUS=0xffff\n"+
		"Jobs: 6 (f=6): [R(6)][96.0%][r=0KiB/s[  278.195193] nvme nvme1: \n"+
		"controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff\n"+
		"[   17.766211] nvme 0000:01:00.0: PCIe Bus Error: severity=Correctable, \n"+
		"type=Data Link Layer, (Receiver ID)\n"+
		"root@debian:/userdata# [   17.767045] nvme 0000:01:00.0:   device \n"+
		"[144d:a80a] error status/mask=00000040/0000e000\n"+
		"Jobs: 6 (f=6): [W(6)] nvme nvme1: controller is down\n", kernlog.Options{})
	require.NoError(t, err)
	var got []string
	for _, in := range l.Incidents {
		for _, e := range in.Events {
			got = append(got, fmt.Sprintf("%d %s %s", e.Line, e.Kind, e.Raw))
		}
	}
	assert.Equal(t, []string{
		"2 controller-down [  519.858094] nvme nvme1: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff",
		"4 controller-down [  278.195193] nvme nvme1: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff",
		"6 aer-error [   17.766211] nvme 0000:01:00.0: PCIe Bus Error: severity=Correctable, type=Data Link Layer, (Receiver ID)",
	}, got)
	assert.Len(t, l.Unread, 1, "the line with no time stamp in it stays unread: %v", l.Unread)
}

// A kernel message quoted in a sentence of a bug report, in backticks or
// double quotes (typographic ones too), is read from the quote; another program's line that
// quotes one is not the kernel's. The sentences as posted.
func TestMessageQuotedInASentence(t *testing.T) {
	const (
		rawa33 = "https://github.com/vmware/open-vm-tools/issues/579"
		rawa32 = "https://github.com/linux-nvme/libnvme/issues/444"
	)
	for _, tc := range []struct {
		source, line string
		kind         kernlog.Kind
	}{
		{rawa33, "I see quite often warnings messages like `nvme nvme0: I/O 34 QID 13 timeout, aborting` in the journal and sometimes it correlates with I/O appearing to hang a bit. Why is this happening?", kernlog.IOTimeout},
		{rawa32, "\"nvme0n1: I/O Cmd(0x2) @ LBA 2305843009213693951, 0 blocks, I/O Error (sct 0x0 / sc 0x2) DNR\".", kernlog.IOError},
		// A forum's editor curled the quotes (Level1Techs, "Looking for
		// PMC/Microsemi NV-1616 NVRAM drive documentation/tools").
		{"https://forum.level1techs.com/t/looking-for-pmc-microsemi-nv-1616-nvram-drive-documentation-tools/217534",
			"Strangely though, during bootup there is a long delay before an error shows up stating \u201cnvme nvme0: Device not ready; aborting reset, CSTS=0x130df1\u201d.", kernlog.ResetNotReady},
	} {
		l, err := kernlog.ReadString(tc.line+"\n", kernlog.Options{})
		require.NoError(t, err, tc.source)
		require.Len(t, l.Incidents, 1, tc.source)
		assert.Equal(t, tc.kind, l.Incidents[0].Events[0].Kind, tc.source)
		assert.Empty(t, l.Unread, tc.source)
	}
	l, err := kernlog.ReadString("Dec  1 10:00:00 thinkpad smartd[912]: Device: /dev/nvme0, log says \"nvme nvme0: I/O 34 QID 13 timeout, aborting\"\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Incidents, "smartd's line is not the kernel's")
}

// Incident notes chain the messages of one drive in a sentence: each
// quoted message is read, where only the first was, and one that names no
// device is the controller's the chain named before it; a quote that is
// no message ("reset controller") is no event, and nothing is completed
// with words the quote does not have. The lines are a Japanese README's
// and Korean handoff notes' (code-index files 70401086385, 71047241848).
func TestMessagesChainedInASentence(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string // "kind controller raw"
	}{
		{"- 2026-10-09: APST を切っても、SSD を差し直しても、SSD が起動から約 52・60 分で返事をしなくなった（`/sys/fs/pstore/console-ramoops-0` に `nvme nvme0: I/O ... timeout` → `reset controller` → `Device not ready; aborting reset, CSTS=0x1`）。次の手として HMB を切った。",
			[]string{"io-timeout nvme0 nvme nvme0: I/O ... timeout", "reset-not-ready nvme0 Device not ready; aborting reset, CSTS=0x1"}},
		{"- J-Link 사용 시: dmesg `AER: Multiple Correctable … 0000:00:01.1 [8086:a72d] Physical Layer RxErr` → `nvme0: resetting controller due to AER` → `Disabling device after reset failure: -19`.",
			[]string{"driver-error nvme0 nvme0: resetting controller due to AER", "reset-failure nvme0 Disabling device after reset failure: -19"}},
	} {
		l, err := kernlog.ReadString(tc.line+"\n", kernlog.Options{})
		require.NoError(t, err)
		var got []string
		for _, in := range l.Incidents {
			for _, e := range in.Events {
				got = append(got, fmt.Sprintf("%s %s %s", e.Kind, e.Controller, e.Raw))
			}
		}
		assert.Equal(t, tc.want, got, tc.line)
	}
}

// A list's items are lines of their own: two prose bullets of a Chinese
// post-mortem (code-index file 55662835172) were joined into one
// "failure-looking" line; each stands alone now, and only the one with a
// failure word is listed.
func TestListItemsAreNotJoined(t *testing.T) {
	l, err := kernlog.ReadString("- 物理硬盘 `nvme1n1` 报告容量为 **0B**。\n"+
		"- 分区 `nvme1n1p2` 仍挂载于 `/opt`，但任何读写请求均返回 I/O Error。\n", kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Unread, 1)
	assert.Equal(t, 2, l.Unread[0].Line)
}

// AMD-Vi's fault wrapped after "Event logged " leaves its bracketed
// details on the next line, which is no dmesg -T time for its capitals:
// the two are one fault of the drive's function (linux-block, Message-ID
// bdb8e486-bcda-1b11-0fd7-f25bc48eeb2c@tds.net, 2019, twenty such pairs
// that were dropped without a word). A date's bracket still starts a line.
func TestBracketedDetailsAreNoStamp(t *testing.T) {
	l, err := kernlog.ReadString("  [Fri Jul 19 17:05:08 2019] nvme 0000:01:00.0: AMD-Vi: Event logged \n"+
		"[IO_PAGE_FAULT domain=0x0000 address=0x0 flags=0x0000]\n"+
		"[Fri Jul 19 17:05:09 2019] nvme 0000:01:00.0: AMD-Vi: Event logged \n"+
		"[IO_PAGE_FAULT domain=0x0000 address=0x0 flags=0x0000]\n", kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	in := l.Incidents[0]
	assert.Equal(t, 2, in.Counts[kernlog.PlatformFault], "%+v", in.Counts)
	assert.Equal(t, [2]int{1, 2}, [2]int{in.Events[0].Line, in.Events[0].EndLine})
	assert.Equal(t, "iommu-fault", in.Events[0].Action)
}

// Lines that name their program and nothing else, as journalctl prints
// them without their times, are each a program's message: a kernel line
// is not joined to the next program's (a lab's notes,
// https://github.com/projectbluefin/lab/issues/298). A message's own
// lower-case first word still continues a wrapped kernel line.
func TestOtherProgramsLinesAreNotJoined(t *testing.T) {
	l, err := kernlog.ReadString("kernel: nvme nvme1: I/O tag ... timeout, completion polled\n"+
		"rtkit-daemon: pthread_create failed: Resource temporarily unavailable\n"+
		"GdmLocalDisplayFactory: ... org.freedesktop.login1 ... startup job failed\n", kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	assert.Equal(t, "kernel: nvme nvme1: I/O tag ... timeout, completion polled", l.Incidents[0].Events[0].Raw)

	l, err = kernlog.ReadString("kernel: nvme nvme0: Removing after probe failure\nstatus: -19\n", kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	assert.Equal(t, -19, l.Incidents[0].Events[0].Errno, "%+v", l.Incidents[0].Events[0])
}

// A poster's mark of lines left out ("...", "…", "[...]") is never the
// rest of the line before it (a blog's syslog excerpt, posted v-09).
func TestElisionIsNoContinuation(t *testing.T) {
	for _, mark := range []string{"...", "…", "[...]", "  ....  "} {
		l, err := kernlog.ReadString("Jul 4 14:48:15 microbox kernel: [ 1672.852110] Buffer I/O error on dev sda, logical block 53777216, lost async page write\n"+
			mark+"\n"+
			"Jul 4 14:48:16 microbox kernel: [ 1672.886164] nvme nvme0: I/O 5 QID 2 timeout, aborting\n", kernlog.Options{})
		require.NoError(t, err)
		require.Len(t, l.OtherDisks, 1, "%q", mark)
		assert.True(t, strings.HasSuffix(l.OtherDisks[0].Text, "lost async page write"), "%q: %q", mark, l.OtherDisks[0].Text)
		require.Len(t, l.Incidents, 1, "%q", mark)
		assert.Equal(t, 3, l.Incidents[0].Events[0].Line, "%q", mark)
	}
}

// A writer's label of the lines after it ("After:" between a patch's
// before and after runs, posted zj-03: stable, Message-Id:
// <20220705115618.708454802@linuxfoundation.org>) is never the rest of the
// kernel line before it.
func TestLabelIsNoContinuation(t *testing.T) {
	for _, lbl := range []string{"After:", "Before:", "Log:  "} {
		l, err := kernlog.ReadString("[    2.347197] nvme nvme2: globally duplicate IDs for nsid 1\n"+lbl+"\n[    2.427715] nvme nvme1: pci function 0000:06:00.0\n", kernlog.Options{})
		require.NoError(t, err)
		require.NotEmpty(t, l.Incidents, lbl)
		e := l.Incidents[0].Events[0]
		assert.Equal(t, "nvme nvme2: globally duplicate IDs for nsid 1", e.Text, lbl)
		assert.Equal(t, 1, e.EndLine, lbl)
	}
}

// The block layer's error line wrapped by a mail client or tracker at any
// of its fields goes on with them, so its operation is read (the lines of
// Dmitry Monakhov's PM1725a quirk, linux-nvme, Message-Id:
// <20210310120641.1633-1-dmtrmonakhov@yandex-team.ru>, posted zi-01, cut
// where 72 and 78 columns cut them); an old kernel's line that ends at its
// sector stays whole.
func TestBlockErrorLineWrapped(t *testing.T) {
	const line = "[  100.000001] blk_update_request: I/O error, dev nvme0n1, sector 113319936 op 0x9:(WRITE_ZEROES) flags 0x0 phys_seg 0 prio class 0"
	for _, at := range []string{" sector 113319936 ", " op ", " flags ", " prio "} {
		i := strings.Index(line, at) + len(at) - 1
		log := line[:i] + "\n" + line[i+1:] + "\n"
		l, err := kernlog.ReadString(log, kernlog.Options{})
		require.NoError(t, err)
		require.Len(t, l.Incidents, 1, "%q", log)
		e := l.Incidents[0].Events[0]
		assert.Equal(t, "WRITE_ZEROES", e.ReqOp, "%q", log)
		assert.Equal(t, 2, e.EndLine, "%q", log)
	}
	l, err := kernlog.ReadString("blk_update_request: I/O error, dev nvme0n1, sector 1234\nBuffer I/O error on dev nvme0n1p1, logical block 5, lost async page write\n", kernlog.Options{})
	require.NoError(t, err)
	require.NotEmpty(t, l.Incidents)
	assert.Equal(t, 1, l.Incidents[0].Events[0].EndLine)
}
