package kernlog_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// The shapes of the real threads of apst/diagnose/testdata/threads whose
// failure lines the reader used to miss.

// dmesg -H: a wall-clock minute, then the time since the line before, with
// the decimal comma of the reporter's locale
// (https://github.com/clearlinux/distribution/issues/2121).
func TestDmesgHuman(t *testing.T) {
	log := `[Sep12 13:16] nvme nvme0: I/O 0 QID 4 timeout, aborting
[  +0,000009] nvme nvme0: I/O 1 QID 4 timeout, aborting
[  +0,000002] nvme nvme0: I/O 2 QID 4 timeout, aborting
[  +0,000003] nvme nvme0: I/O 3 QID 4 timeout, aborting
[  +0,000060] nvme nvme0: Abort status: 0x0
`
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	in := l.Incidents[0]
	assert.Equal(t, map[kernlog.Kind]int{kernlog.IOTimeout: 4, kernlog.AbortStatus: 1}, in.Counts)
	start := time.Date(0, 9, 12, 13, 16, 0, 0, time.UTC)
	assert.Equal(t, start, in.Start.Wall)
	assert.Equal(t, start.Add(74*time.Microsecond), in.End.Wall, "the deltas add up")
	assert.Zero(t, l.UnreadLines)
	// The minute's second is not in the log: the times say so rather
	// than print a made-up ":00".
	assert.True(t, in.Start.NoSecond)
	assert.Equal(t, "Sep 12 13:16", in.Start.String())
	assert.Equal(t, "Sep 12 13:16 +0.000074s", in.End.String())
}

// dmesg -H on the first nine days of a month: util-linux's strftime
// "%b%e %H:%M" pads the day with a blank ("[Dec 4 08:00]"); and
// --time-format=delta, the time since the line before alone
// ("[<    0.000123>]"), which dates nothing.
func TestDmesgHumanEarlyInTheMonth(t *testing.T) {
	l, err := kernlog.ReadString("[Dec 4 08:00] nvme nvme0: I/O 0 QID 4 timeout, aborting\n"+
		"[  +0.000009] nvme nvme0: I/O 1 QID 4 timeout, aborting\n", kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	start := time.Date(0, 12, 4, 8, 0, 0, 0, time.UTC)
	assert.Equal(t, start, l.Incidents[0].Start.Wall)
	assert.Equal(t, start.Add(9*time.Microsecond), l.Incidents[0].End.Wall)

	l, err = kernlog.ReadString("[<    0.000000>] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n"+
		"[<    0.004712>] nvme nvme0: Removing after probe failure status: -19\n", kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	assert.Equal(t, map[kernlog.Kind]int{kernlog.ControllerDown: 1, kernlog.ProbeFailure: 1}, l.Incidents[0].Counts)
	assert.True(t, l.Incidents[0].Start.IsZero())
}

// A syslog file a mail wrapped after each line's device prefix, and the
// message on the next line starting with its own subsystem's prefix
// (https://lore.kernel.org/all/CAO9zADza=73GsuzAcuyH-YfhS34qjkDtuJjGBReVGpfE6KN_ow@mail.gmail.com/).
func TestWrappedAfterTheDevice(t *testing.T) {
	log := `Jan  5 06:18:52 atom kernel: [295306.524933] pcieport 0000:00:06.0:
AER: Corrected error received: 0000:00:06.0
Jan  5 06:18:52 atom kernel: [295306.524979] pcieport 0000:00:06.0:
PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)
Jan  5 06:18:52 atom kernel: [295306.525004] pcieport 0000:00:06.0:
device [8086:a74d] error status/mask=00000001/00002000
Jan  5 06:18:52 atom kernel: [295306.525027] pcieport 0000:00:06.0:
[ 0] RxErr                  (First)
Jan  5 06:19:22 atom kernel: [295336.554420] nvme nvme0: controller is
down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff
Jan  5 06:19:22 atom kernel: [295336.614898] nvme nvme0: Removing
after probe failure status: -19
`
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	var kinds []kernlog.Kind
	var raws []string
	for _, in := range l.Incidents {
		for _, e := range in.Events {
			kinds = append(kinds, e.Kind)
			raws = append(raws, e.Raw)
		}
	}
	assert.Equal(t, []kernlog.Kind{kernlog.AERReceived, kernlog.AERError, kernlog.ControllerDown, kernlog.ProbeFailure}, kinds)
	assert.Equal(t, "Jan  5 06:18:52 atom kernel: [295306.524933] pcieport 0000:00:06.0: AER: Corrected error received: 0000:00:06.0", raws[0])
	assert.Equal(t, "Jan  5 06:19:22 atom kernel: [295336.554420] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff", raws[2])
	assert.Zero(t, l.UnreadLines)
}

// A Downstream Port Containment and the AER recovery that follows, after
// a resume from S3 (https://lore.kernel.org/all/20200923160327.GA2267374@bjorn-Precision-5520/).
func TestContainmentAndRecovery(t *testing.T) {
	checkKinds(t, []kindCase{
		{"bz209149", "  [   50.947816] pcieport 0000:00:1b.0: DPC: containment event, status:0x1f01 source:0x0000",
			kernlog.Event{Kind: kernlog.AERRecovery, Reporter: "0000:00:1b.0", Action: "containment"}},
		{"bz209149", "  [   50.947817] pcieport 0000:00:1b.0: DPC: unmasked uncorrectable error detected",
			kernlog.Event{Kind: kernlog.AERRecovery, Reporter: "0000:00:1b.0", Action: "containment"}},
		{"bz209149", "  [   50.947841] pcieport 0000:00:1b.0: AER: broadcast error_detected message",
			kernlog.Event{Kind: kernlog.AERRecovery, Reporter: "0000:00:1b.0", Action: "error_detected"}},
		{"bz209149", "  [   50.947843] nvme nvme0: frozen state error detected, reset controller",
			kernlog.Event{Kind: kernlog.AERRecovery, Controller: "nvme0", Action: "reset controller"}},
		{"bz209149", "  [   50.883622] nvme 0000:01:00.0: can't change power state from D3hot to D0 (config space inaccessible)",
			kernlog.Event{Kind: kernlog.ResumeFailure, PCI: "0000:01:00.0", FromState: "D3hot"}},
	})
}

// Lines of the driver that report a failure in words of their own.
func TestDriverLinesOfTheThreads(t *testing.T) {
	checkKinds(t, []kindCase{
		// https://github.com/tomsom/yoga-linux/issues/9
		{"yoga-linux#9", "nvme nvme0: identifiers changed for nsid 1", kernlog.Event{Kind: kernlog.DriverError, Controller: "nvme0"}},
		// https://lore.kernel.org/all/7306256a-b380-489b-8248-b774e6d3d80e@nvidia.com/
		{"tegra", "  [ 1003.050448] nvme nvme0: ctrl state 1 is not RESETTING", kernlog.Event{Kind: kernlog.ResetFailure, Action: kernlog.ActionNotResetting, Errno: -19, Controller: "nvme0"}},
		// https://github.com/hanwckf/immortalwrt-mt798x/pull/322: an older
		// kernel's "not ready" without CSTS.
		{"immortalwrt#322", "[   53.494815] nvme nvme0: Device not ready; aborting initialisation", kernlog.Event{Kind: kernlog.ResetNotReady, Controller: "nvme0"}},
		// https://github.com/MrChromebox/firmware/issues/962: the message
		// alone, as the reporter quoted it.
		{"MrChromebox#962", "Unable to change power state from D3cold to D0, device inaccessible", kernlog.Event{Kind: kernlog.ResumeFailure, FromState: "D3cold"}},
	})
}

// A boot console log transcribed by hand: "CSTS:" for "CSTS=", a
// lower-case "try", format=flowed wrapping, and a program's line about the
// drive, which is no kernel line
// (https://lore.kernel.org/all/5f968b95-6b1c-4d6f-aac7-5d54f66834a8@sapience.com/).
func TestTranscribedConsole(t *testing.T) {
	log := "kernel: nvme nvme0: controller is down; will reset: CSTS:0xffffffff, \n" +
		"PCI_STATUS=0xffff\n" +
		"kernel: nvme nvme0: try \"nvme_core.default_ps_max_latency_us=0 \n" +
		"pcie_aspm=off\" and report a bug\n" +
		"mount[353]: mount /sysroot: can't read suprtblock on /dev/nvme0n1p5.\n"
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	ev := l.Incidents[0].Events
	require.Len(t, ev, 2)
	assert.Equal(t, kernlog.ControllerDown, ev[0].Kind)
	assert.Equal(t, uint32(0xffffffff), ev[0].CSTS)
	assert.Equal(t, uint16(0xffff), ev[0].PCIStatus)
	assert.Equal(t, kernlog.WorkaroundHint, ev[1].Kind)
	assert.Equal(t, "nvme_core.default_ps_max_latency_us=0 pcie_aspm=off", ev[1].Text)
	assert.Zero(t, l.UnreadLines)
}

// dmesg times whose "[" a mail lost (posted l-12: linux-pci, Message-ID:
// <CACK8Z6HLr4tk4UkrzBN7wydDmqk=cqN2a7bQfVdjp9cE_ov_Jw@mail.gmail.com>)
// start lines of their own, with their times; one a wrap split after its
// "[" (posted b-05) still joins the line before.
func TestDmesgTimeWithoutBracket(t *testing.T) {
	l, err := kernlog.ReadString(`1424.464958] nvme nvme1: pci function 0000:59:00.0
1424.470366] nvme 0000:59:00.0: enabling device (0000 -> 0002)
1424.477196] nvme nvme1: Removing after probe failure status: -19
`, kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Unread)
	assert.Equal(t, "nvme1", l.Addresses["0000:59:00.0"])
	require.Len(t, l.Incidents, 1)
	require.Len(t, l.Incidents[0].Events, 1)
	e := l.Incidents[0].Events[0]
	assert.Equal(t, kernlog.ProbeFailure, e.Kind)
	assert.Equal(t, 3, e.Line)
	assert.Equal(t, 1424477196*time.Microsecond, e.Time.Mono)

	// b-05's lines, the last cut after its number.
	l, err = kernlog.ReadString(`nvme0n1p1, logical block 1519, lost async page write       [
310.783038] print_req_error: I/O error, dev nvme0n1, sector 3566 flags
100001                       [  310.783039] Buffer I/O error on dev
nvme0n1p1, logical block 1518, lost async page write       [
310.783040] print_req_error: I/O error, dev nvme0n1, sector 3565 flags
100001
`, kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Unread)
}

// A report's timeline of syslog times with the host and program left out
// (posted m-22, a Proxmox host's incident report): "nvme nvme0:" is the
// message's device, no host and program, and the lines are read with
// their times (they were dropped as another program's, and the log
// answered "names no NVMe drive").
func TestSyslogTimeWithoutHost(t *testing.T) {
	l, err := kernlog.ReadString(`Apr 12 06:23:38  nvme nvme0: I/O tag 588 (524c) opcode 0x1 (I/O Cmd) QID 1 timeout, aborting req_op:WRITE(1) size:40960
Apr 12 06:24:08  nvme nvme0: I/O tag 588 (524c) opcode 0x1 (I/O Cmd) QID 1 timeout, reset controller
                 ↑ 内核尝试重置控制器

Apr 12 06:25:31  nvme nvme0: Device not ready; aborting reset, CSTS=0x1
Apr 12 06:25:51  nvme nvme0: Disabling device after reset failure: -19
Apr 12 06:25:52  nvme 0000:02:00.0: Unable to change power state from D3cold to D0, device inaccessible
`, kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Unread)
	require.Len(t, l.Incidents, 1)
	in := l.Incidents[0]
	assert.Equal(t, map[kernlog.Kind]int{kernlog.IOTimeout: 2, kernlog.ResetNotReady: 1, kernlog.ResetFailure: 1, kernlog.ResumeFailure: 1}, in.Counts)
	assert.Equal(t, time.Date(0, 4, 12, 6, 23, 38, 0, time.UTC), in.Start.Wall)

	// A host's line keeps its host and program.
	l, err = kernlog.ReadString("Apr 12 06:23:38 pve0 smartd[912]: Device: /dev/nvme0, I/O tag 1 QID 1 timeout, aborting\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Incidents)
}

// A Markdown list's marks before pasted lines ("* ", "- ", "+ ", "•"; a
// forum's list of boot errors, posted m-04) come off when a kernel line
// follows; a diff's "+" before a command stays.
func TestListMarks(t *testing.T) {
	for _, line := range []string{
		"* nvme nvme0: failed to set APST feature (2)",
		"- nvme nvme0: failed to set APST feature (2)",
		"+ [    4.5] nvme nvme0: failed to set APST feature (2)",
		"• Jan 27 12:11:23 host kernel: nvme nvme0: failed to set APST feature (2)",
	} {
		l, err := kernlog.ReadString("[    1.0] nvme nvme0: pci function 0000:01:00.0\n"+line+"\n", kernlog.Options{})
		require.NoError(t, err, line)
		assert.Empty(t, l.Unread, line)
		require.Len(t, l.Incidents, 1, line)
		assert.Equal(t, kernlog.APSTFailed, l.Incidents[0].Events[0].Kind, line)
	}
}

// talosctl dmesg (Talos Linux): the node's name when it asked several,
// the facility, the level and an RFC 3339 time in brackets (posted o-12,
// a homelab's evidence note), one node's lines without the name.
func TestTalosctlDmesg(t *testing.T) {
	l, err := kernlog.ReadString(`k8s-3: kern: warning: [2026-05-05T21:49:51.885321319Z]: nvme nvme1: using unchecked data buffer
k8s-3: kern:     err: [2026-05-05T21:50:51.885321319Z]: nvme nvme1: I/O tag 5 (1005) opcode 0x2 (Read) QID 3 timeout, aborting req_op:READ(0) size:4096
kern:    info: [2026-05-05T21:50:52Z]: nvme nvme1: Abort status: 0x0
`, kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Unread)
	require.Len(t, l.Incidents, 1)
	in := l.Incidents[0]
	assert.Equal(t, map[kernlog.Kind]int{kernlog.IOTimeout: 1, kernlog.AbortStatus: 1}, in.Counts)
	assert.Equal(t, "nvme1", in.Controller)
	assert.Equal(t, time.Date(2026, 5, 5, 21, 50, 52, 0, time.UTC), in.End.Wall)
}
