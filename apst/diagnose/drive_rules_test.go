package diagnose_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// Errors the drive's media caused (an unrecoverable read, a write fault)
// convict the drive: no power setting makes flash unreadable. Statuses
// the driver sets itself on a reset (Host Aborted Command) and answers
// about the data asked for (Compare Failure) do not. The nvme lines are
// the kernel's error logging as blktests' nvme/039 expects it
// (tests/nvme/039.out), with dmesg's prefix; the block layer's line is
// its "critical medium error" (block/blk-core.c's blk_errors).
func TestMediaErrorsConvictTheDrive(t *testing.T) {
	for _, tc := range []struct {
		name, log string
		drive     bool // the drive is the first cause, likely
	}{
		{
			name: "unrecovered read",
			log: "[ 8812.100000] nvme0n1: Read(0x2) @ LBA 0, 1 blocks, Unrecovered Read Error (sct 0x2 / sc 0x81) DNR\n" +
				"[ 8812.100010] critical medium error, dev nvme0n1, sector 0 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 2\n",
			drive: true,
		},
		{
			name:  "write fault",
			log:   "[ 8812.100000] nvme0n1: Write(0x1) @ LBA 0, 1 blocks, Write Fault (sct 0x2 / sc 0x80) DNR\n",
			drive: true,
		},
		{
			name:  "the block layer's line alone",
			log:   "[ 8812.100010] critical medium error, dev nvme0n1, sector 1953520 op 0x0:(READ) flags 0x80700 phys_seg 1 prio class 2\n",
			drive: true,
		},
		{
			name: "commands aborted by a reset",
			log: "[  100.000000] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n" +
				"[  100.100000] nvme0n1: Read(0x2) @ LBA 55523248, 16 blocks, Host Aborted Command (sct 0x3 / sc 0x71)\n" +
				"[  100.100010] I/O error, dev nvme0n1, sector 55523248 op 0x0:(READ) flags 0x80700 phys_seg 2 prio class 2\n",
		},
		{
			// The drive checks a read's stored data against its
			// protection information: what it kept is wrong.
			name:  "a read that failed its guard check",
			log:   "[ 8812.100000] nvme0n1: Read(0x2) @ LBA 16, 8 blocks, End-to-end Guard Check Error (sct 0x2 / sc 0x82) DNR\n",
			drive: true,
		},
		{
			name: "a write that failed its guard check (TestProtectedWriteIsTheHosts)",
			log:  "[  151.252172] nvme2n1: I/O Cmd(0x1) @ LBA 16, 8 blocks, I/O Error (sct 0x2 / sc 0x82) MORE\n",
		},
		{
			name: "a compare that failed",
			log:  "[ 8812.100000] nvme0n1: Compare(0x5) @ LBA 0, 1 blocks, Compare Failure (sct 0x2 / sc 0x85) DNR\n",
		},
		{
			// A locked self-encrypting drive refusing reads
			// (https://github.com/Drive-Trust-Alliance/sedutil/issues/507):
			// the block layer's "critical medium error" is nvme's Access
			// Denied, which nvme's own line names.
			name: "access denied, and the block layer's medium error for it",
			log: "[    8.056640] nvme0n1: I/O Cmd(0x2) @ LBA 0, 8 blocks, I/O Error (sct 0x2 / sc 0x86) DNR \n" +
				"[    8.056662] critical medium error, dev nvme0n1, sector 0 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 2\n" +
				"[    8.056678] Buffer I/O error on dev nvme0n1, logical block 0, async page read\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tc.log, kernlog.Options{})
			require.NoError(t, err)
			require.Empty(t, l.Unread)
			d := diagnose.Diagnose(diagnose.Input{Log: l})
			if !tc.drive {
				for _, c := range d.Causes {
					if c.Layer == diagnose.LayerDrive {
						for _, e := range c.Evidence {
							assert.NotContains(t, e.Text, "media caused", d.Summary)
						}
					}
				}
				return
			}
			require.True(t, d.Failure, d.Summary)
			require.Empty(t, d.Undecided, d.Summary)
			require.NotEmpty(t, d.Causes)
			c := d.Causes[0]
			assert.Equal(t, diagnose.LayerDrive, c.Layer, d.Summary)
			assert.Equal(t, diagnose.Likely, c.Likelihood, d.Summary)
			assert.Contains(t, c.Evidence[0].Text, "1 I/O error(s) the drive's media caused", "nvme's line and the block layer's are one error")
		})
	}
}

// A write the drive refused because its data did not match the
// protection information the host sent with it is the host's: two
// mirrors' drives refused the same block within 15 ms, md's bitmap page
// having changed after it was protected (Jinyoung Choi, linux-raid,
// Message-ID:
// <20230720092957epcms2p6cbd0ecdf7f5bf0db3c04eefaf0a6644d@epcms2p6>,
// posted zh-03). No replace verdict; the test lets the drive compute the
// protection information instead.
func TestProtectedWriteIsTheHosts(t *testing.T) {
	d := diagnoseFailure(t, `[  151.252172] nvme2n1: I/O Cmd(0x1) @ LBA 16, 8 blocks, I/O Error (sct 0x2 / sc 0x82) MORE
[  151.252180] protection error, dev nvme2n1, sector 16 op 0x1:(WRITE) flags 0x10800 phys_seg 1 prio class 2
[  151.267450] nvme3n1: I/O Cmd(0x1) @ LBA 16, 8 blocks, I/O Error (sct 0x2 / sc 0x82) MORE
[  151.267457] protection error, dev nvme3n1, sector 16 op 0x1:(WRITE) flags 0x10800 phys_seg 1 prio class 2
`)
	assert.False(t, d.Replace, d.Summary)
	require.NotEmpty(t, d.Causes)
	c := d.Causes[0]
	assert.Equal(t, diagnose.LayerPlatform, c.Layer, d.Summary)
	require.NotEmpty(t, c.Evidence)
	assert.Contains(t, c.Evidence[0].Text, "the drive refused a write whose data did not match the protection information the host sent with it")
	require.NotEmpty(t, c.Tests)
	assert.Equal(t, "echo 0 | sudo tee /sys/block/"+d.Controller+"n1/integrity/write_generate", c.Tests[0].Command)
	assert.Empty(t, causeOf(&d, diagnose.LayerDrive).Evidence)
}

// A drive that raises a Persistent Internal Error or fails its I/O with
// Internal Error, and completions with a command ID the host never
// issued: the drive's own word, and a controller (or a DMA path) that
// mishandles command IDs. The lines are the kernel's formats
// (drivers/nvme/host/core.c's nvme_log_error, nvme.h, pci.c); a drive
// that failed every command with Internal Error was a dead one
// (https://github.com/TUM-DSE/doctor-cluster-config/issues/1796).
func TestDriveSaysItIsBroken(t *testing.T) {
	for _, tc := range []struct {
		name, log string
		first     []diagnose.Layer
	}{
		{
			name:  "persistent internal error",
			log:   "[ 5123.104211] nvme nvme0: resetting controller due to persistent internal error\n",
			first: []diagnose.Layer{diagnose.LayerFirmware, diagnose.LayerDrive},
		},
		{
			name:  "persistent internal error, first worded",
			log:   "[ 5123.104211] nvme nvme0: resetting controller due to AER\n",
			first: []diagnose.Layer{diagnose.LayerFirmware, diagnose.LayerDrive},
		},
		{
			name:  "persistent internal error, as its result (zm-01)",
			log:   "Aug 26 15:00:56 testhost kernel: nvme nvme4: async event result 00010300\n",
			first: []diagnose.Layer{diagnose.LayerFirmware, diagnose.LayerDrive},
		},
		{
			name:  "internal error on I/O",
			log:   "[  812.330114] nvme1n1: Read(0x2) @ LBA 2048, 8 blocks, Internal Error (sct 0x0 / sc 0x6) DNR\n",
			first: []diagnose.Layer{diagnose.LayerFirmware, diagnose.LayerDrive},
		},
		{
			name: "bogus completions",
			log: "[  100.000000] nvme nvme0: request 0x3f genctr mismatch (got 0x1 expected 0x2)\n" +
				"[  100.000100] nvme nvme0: invalid id 63 completed on queue 2\n",
			first: []diagnose.Layer{diagnose.LayerPlatform, diagnose.LayerFirmware},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tc.log, kernlog.Options{})
			require.NoError(t, err)
			d := diagnose.Diagnose(diagnose.Input{Log: l})
			assert.Equal(t, tc.first, firstOf(&d), d.Summary)
			require.NotNil(t, d.Separate, d.Summary)
		})
	}
}

// A controller that stayed paused activating a firmware image past its
// MTFA, which nvme-core's nvme_fw_act_work resets ("Fw activation
// timeout, reset controller"): the drive's firmware, with the way to
// activate an image at a reset instead. The line is as a Samsung engineer
// posted it to linux-nvme (Message-ID
// 2f876efff1484f5f95b852584b27efc6@samsung.com, 2019-10-10, in dmesg -x
// -T's columns).
func TestFirmwareActivationTimeout(t *testing.T) {
	l, err := kernlog.ReadString("kern  :warn  : [Wed Oct  2 14:21:06 2019] nvme nvme0: Fw activation timeout, reset controller\n", kernlog.Options{})
	require.NoError(t, err)
	d := diagnose.Diagnose(diagnose.Input{Log: l})
	assert.Equal(t, []diagnose.Layer{diagnose.LayerFirmware}, firstOf(&d), d.Summary)
	require.NotEmpty(t, d.Causes)
	assert.Contains(t, d.Causes[0].Evidence[0].Text, "MTFA")
	assert.Contains(t, d.Causes[0].Evidence[0].Text, "--action=1")
}

// A hot-plug slot's power fault (pciehp's "Slot(1): Power fault",
// drivers/pci/hotplug) is the slot's supply failing: power-loss, likely,
// not the link, though the link goes down with it.
func TestSlotPowerFault(t *testing.T) {
	fault := "[ 7200.000000] pcieport 0000:00:1c.0: pciehp: Slot(1): Power fault\n"
	d := diagnoseFailure(t, fault)
	assert.Equal(t, []diagnose.Layer{diagnose.LayerPowerLoss}, firstOf(&d), d.Summary)
	assert.Equal(t, diagnose.Likely, d.Causes[0].Likelihood)
	assert.LessOrEqual(t, causeOf(&d, diagnose.LayerLink).Score, 0, d.Summary)

	down := "[ 7200.000100] pcieport 0000:00:1c.0: pciehp: Slot(1): Link Down\n"
	d = diagnoseFailure(t, fault+down)
	assert.Contains(t, texts(causeOf(&d, diagnose.LayerPowerLoss).Evidence), "reported a power fault")
	assert.Contains(t, texts(causeOf(&d, diagnose.LayerLink).Evidence), "reported the link down")
}

// A controller that answers Set Features Number of Queues with an NVMe
// status is what nvme_set_queue_count's comment calls degraded: its
// firmware in a failure or recovery mode. The kernel keeps its admin
// queue alone ("IO queues not created"). Firmware and drive both fit,
// and a firmware update tells them apart; the admin-queue line alone is
// not this sign. The status is Invalid Field in Command with DNR set.
func TestDegradedController(t *testing.T) {
	const (
		status = "[    3.104512] nvme nvme0: Could not set queue count (16386)\n"
		noIO   = "[    3.104600] nvme nvme0: IO queues not created\n"
	)
	d := diagnoseFailure(t, status+noIO)
	require.Equal(t, []diagnose.Layer{diagnose.LayerFirmware, diagnose.LayerDrive}, d.Undecided, d.Summary)
	for _, l := range []diagnose.Layer{diagnose.LayerFirmware, diagnose.LayerDrive} {
		c := d.Cause(l)
		require.NotEmpty(t, c.Evidence)
		assert.Equal(t, 1, c.Evidence[0].Line)
		assert.Contains(t, c.Evidence[0].Text, "NVMe status 0x4002")
		assert.Contains(t, c.Evidence[0].Text, "degraded controller")
	}
	require.NotNil(t, d.Separate)
	assert.Contains(t, d.Separate.Action, "update the drive's firmware")

	d = diagnoseFailure(t, noIO)
	assert.LessOrEqual(t, d.Cause(diagnose.LayerDrive).Score, 0, d.Summary)
	assert.LessOrEqual(t, d.Cause(diagnose.LayerFirmware).Score, 0, d.Summary)
}

// An admin command the drive declines (an Identify of a kind it does not
// implement, answered Invalid Field: sof-test's suspend CI, posted zb-01)
// is no failure, and the answer says what the line is; the same status
// of an I/O command is read as before.
func TestDeclinedAdminCommand(t *testing.T) {
	d := summaryOf(t, "[  894.167961] kernel: nvme0: Admin Cmd(0x6), I/O Error (sct 0x0 / sc 0x2)\n", false,
		"line 1: the drive declined an admin command it does not implement (status 0x2, Invalid Field in Command)")
	assert.Empty(t, d.Causes)
	summaryOf(t, "[  894.167961] nvme0n1: Write(0x1) @ LBA 100492368, 2048 blocks, Invalid Field in Command (sct 0x0 / sc 0x2)\n", true, "")
}

// A Data Transfer Error keeps the drive possible (its own DMA can fail
// so), below the platform (posted za-07); the APST table it could not
// fetch does not.
func TestTransferErrorKeepsTheDrivePossible(t *testing.T) {
	d := summaryOf(t, "[74942.261934] nvme0c0n1: I/O Cmd(0x1) @ LBA 218630656, 256 blocks, I/O Error (sct 0x0 / sc 0x4) DNR\n", true, "")
	c := d.Cause(diagnose.LayerDrive)
	require.NotNil(t, c)
	assert.Equal(t, 1, c.Score)
	d = summaryOf(t, "[    6.052184] nvme nvme0: failed to set APST feature (4)\n", true, "")
	if c := d.Cause(diagnose.LayerDrive); c != nil {
		assert.Zero(t, c.Score)
	}
}

// I/O errors that are Write Zeroes, but for a write a reset aborted
// beside them, speak for a firmware that mishandles the command, which
// the kernel quirks some models for (Dmitry Monakhov's PM1725a quirk,
// linux-nvme, Message-Id: <20210310120641.1633-1-dmtrmonakhov@yandex-team.ru>,
// posted zi-01). Writes alone do not.
func TestWriteZeroesFailures(t *testing.T) {
	line := func(op string, sector int) string {
		return fmt.Sprintf("blk_update_request: I/O error, dev nvme0n1, sector %d op %s flags 0x0 phys_seg 0 prio class 0\n", sector, op)
	}
	const down = "nvme nvme0: I/O 528 QID 10 timeout, reset controller\n"
	zeroes := down + line("0x1:(WRITE)", 32776)
	for i := range 4 {
		zeroes += line("0x9:(WRITE_ZEROES)", 113319936-256*i)
	}
	d := diagnoseFailure(t, zeroes)
	var ev string
	for _, e := range causeOf(&d, diagnose.LayerFirmware).Evidence {
		if strings.HasPrefix(e.Text, "the commands that failed were Write Zeroes") {
			ev = e.Text
		}
	}
	assert.Contains(t, ev, "(4 of the 5 I/O errors that name their operation, op 0x9)")

	writes := down
	for i := range 4 {
		writes += line("0x1:(WRITE)", 32776+8*i)
	}
	d = diagnoseFailure(t, writes)
	for _, e := range causeOf(&d, diagnose.LayerFirmware).Evidence {
		assert.NotContains(t, e.Text, "Write Zeroes")
	}
}

// Other controllers that failed the same way at other times in the log
// point at a cause they share, or their model's: a note says so and the
// drive alone is spoken against (twelve WD Red SN700s behind PCIe switches
// dropping one by one, Justin Piszcz, linux-nvme, Message-ID:
// <CAO9zADxCYgQVOD9A1WYoS4JcLgvsNtGGr4xEZm9CMFHXsTV8ww@mail.gmail.com>,
// posted zh-02). Another failure, or media errors on two drives (which
// wear out one by one), say nothing of it.
func TestSameFailureOnOtherDrives(t *testing.T) {
	const nvme2 = `[1156824.598513] nvme nvme2: I/O 5 QID 0 timeout, reset controller
[1156896.035355] nvme nvme2: Device not ready; aborting reset, CSTS=0x1
`
	const nvme9 = `[2001664.727044] nvme nvme9: I/O 26 QID 0 timeout, reset controller
[2001736.159123] nvme nvme9: Device not ready; aborting reset, CSTS=0x1
`
	d := diagnoseFailure(t, nvme2+nvme9)
	require.Len(t, d.Notes, 2, "%q", d.Notes)
	assert.Contains(t, d.Notes[1], "1 other controller(s) in this log failed the same way (nvme2, line 1)")
	assert.Equal(t, "nvme9", d.Controller)
	var against bool
	for _, e := range causeOf(&d, diagnose.LayerDrive).Against {
		against = against || strings.HasPrefix(e.Text, "1 other NVMe controller(s) failed the same way")
	}
	assert.True(t, against, "%+v", causeOf(&d, diagnose.LayerDrive))

	for _, log := range []string{
		nvme2 + "[2001664.727044] nvme nvme9: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n",
		"[    8.0] nvme0n1: Read(0x2) @ LBA 0, 1 blocks, Unrecovered Read Error (sct 0x2 / sc 0x81) DNR\n[ 9000.0] nvme1n1: Read(0x2) @ LBA 8, 1 blocks, Unrecovered Read Error (sct 0x2 / sc 0x81) DNR\n",
	} {
		d := diagnoseFailure(t, log)
		for _, n := range d.Notes {
			assert.NotContains(t, n, "failed the same way", log)
		}
	}
}

// Fatal-status incidents escalating count for the drive even when the
// incident diagnosed has no controller-down line of its own (two boots'
// dmesg pasted together, the second ending in a probe failure): the
// evidence quotes the first fatal line. It had dereferenced the diagnosed
// incident's missing line.
func TestFatalEscalationWithoutOwnDownLine(t *testing.T) {
	const down = "nvme nvme0: controller is down; will reset: CSTS=0x3, PCI_STATUS=0x10"
	const fault = "[    0.301278] nvme 0000:41:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0000 address=0x0 flags=0x0000]\n"
	log := "[  110.789207] " + down + "\n" + fault + "[  110.789207] " + down + "\n" + fault +
		"[  110.789207] " + down + "\n[    1.121040] nvme nvme0: Removing after probe failure status: -19\n"
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	d := diagnose.Diagnose(diagnose.Input{Log: l})
	require.True(t, d.Failure, d.Summary)
	for _, c := range d.Causes {
		if c.Layer != diagnose.LayerDrive {
			continue
		}
		require.NotEmpty(t, c.Evidence, d.Summary)
		assert.Equal(t, 1, c.Evidence[0].Line)
		assert.Contains(t, c.Evidence[0].Quote, down)
		return
	}
	t.Fatalf("no drive cause: %s", d.Summary)
}
