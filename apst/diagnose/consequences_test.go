package diagnose_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// A log that holds only a file system's I/O errors on an NVMe disk (a
// paste of the lines a user grepped for) is not "no failure seen": it
// says the lines that tell why are missing. Beside the drive's own
// failure the file system's lines change nothing, and they are not the
// failure of another controller named.
func TestFileSystemErrorsAlone(t *testing.T) {
	// The lines of linux-block <CABXGCsPWS8mCsGFR_NbhCv-8p1JxBbmV_L4C=zPzev8y-omwow@mail.gmail.com>
	// and linux-nvme <CABXGCsMiKe31UaoMV02gW4iJSKnBiO5jGQKej=Zem24mD0ObQw@mail.gmail.com>.
	xfs := "[  517.654795] XFS (nvme0n1p2): log I/O error -5\n"
	btrfs := "[ 4626.590776] BTRFS error (device nvme0n1p3): bdev /dev/nvme0n1p3 errs: wr 1, rd 0, flush 0, corrupt 0, gen 0\n" +
		"[ 4626.593059] BTRFS: error (device nvme0n1p3) in btrfs_commit_transaction:2418: errno=-5 IO failure (Error while writing out transaction)\n"
	d := summaryOf(t, xfs, false, "no failure seen in the kernel log, but line 1: XFS met an I/O error on nvme0n1p2 (1 such line(s)): the drive's, the PCI core's and the block layer's lines that say why are not in the log; give the whole log of that boot")
	assert.Empty(t, d.Causes)
	assert.Equal(t, []diagnose.Line{{Source: "kernel log line 1 (517.654795s after boot)", Text: "XFS met an I/O error on nvme0n1p2", Line: 1, Quote: strings.TrimSuffix(xfs, "\n")}}, d.Consequences)
	d = summaryOf(t, btrfs, false, "but line 1: BTRFS met an I/O error on nvme0n1p3 (2 such line(s))")
	require.Len(t, d.Consequences, 2)
	assert.Equal(t, 2, d.Consequences[1].Line)

	down := "[ 4626.500000] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n"
	with := summaryOf(t, down+btrfs, true, "")
	alone := summaryOf(t, down, true, "")
	assert.Equal(t, alone.Summary, with.Summary)
	assert.Equal(t, alone.Causes, with.Causes)
	assert.Nil(t, with.Consequences)

	// Another controller named: nvme1's log holds nothing of its own.
	l, err := kernlog.ReadString(xfs, kernlog.Options{})
	require.NoError(t, err)
	d = diagnose.Diagnose(diagnose.Input{Controller: "nvme1", Log: l})
	assert.Equal(t, "no failure seen in the kernel log for nvme1", d.Summary)
	assert.Nil(t, d.Consequences)
	d = diagnose.Diagnose(diagnose.Input{Controller: "nvme0", Log: l})
	assert.Len(t, d.Consequences, 1)
	assert.Contains(t, d.Summary, "no failure seen in the kernel log for nvme0, but line 1: XFS met an I/O error on nvme0n1p2")
}

// nvme's hints after a controller-down with CSTS all ones, pasted without
// the controller-down line, are no "no failure seen": the line they follow
// is missing. Beside it they change nothing. The lines of linux-kernel's
// revert of 101bd907b424 (the Dell XPS 15 9560's card reader), whose
// poster's log has them.
func TestHintAlone(t *testing.T) {
	hint := "kernel: nvme nvme0: Does your device have a faulty power saving mode enabled?\n" +
		"kernel: nvme nvme0: Try \"nvme_core.default_ps_max_latency_us=0 pcie_aspm=off\" and report a bug\n"
	d := summaryOf(t, hint, false, "no failure line seen in the kernel log, but line 1 is the hint the kernel prints only after it found the controller down with CSTS=0xffffffff")
	assert.Empty(t, d.Causes)
	require.Len(t, d.Consequences, 1)
	assert.Equal(t, "kernel: nvme nvme0: Does your device have a faulty power saving mode enabled?", d.Consequences[0].Quote)
	summaryOf(t, hint[strings.Index(hint, "\n")+1:], false, "but line 1 is the hint")

	down := "kernel: nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff\n"
	with := summaryOf(t, down+hint, true, "")
	assert.NotContains(t, with.Summary, "hint")
	assert.Nil(t, with.Consequences)

	l, err := kernlog.ReadString(hint, kernlog.Options{})
	require.NoError(t, err)
	d = diagnose.Diagnose(diagnose.Input{Controller: "nvme1", Log: l})
	assert.Equal(t, "no failure seen in the kernel log for nvme1", d.Summary)
}

// An abort's status pasted without the timeout that made the kernel send
// the abort is no "no failure seen" either. The line as
// https://github.com/clearlinux/distribution/issues/2121 shows it. Beside
// its timeout, an abort the drive carried out (status 0) says its
// controller was awake: the platform's evidence (the command lost between
// kernel and drive); one the host took back itself (0x371, Host Aborted
// Command, as a reset does) changes nothing.
func TestAbortStatusAlone(t *testing.T) {
	abort := "nvme nvme0: Abort status: 0x0\n"
	d := summaryOf(t, abort, false, "no failure line seen in the kernel log, but line 1 is the drive's answer to an abort, which the kernel sends only for a command that timed out")
	require.Len(t, d.Consequences, 1)
	assert.Equal(t, "nvme nvme0: Abort status: 0x0", d.Consequences[0].Quote)

	timeout := "nvme nvme0: I/O 14 QID 2 timeout, aborting\n"
	alone := summaryOf(t, timeout, true, "")
	assert.Contains(t, alone.Summary, "undecided between apst and platform (line 1 fits both)")
	with := summaryOf(t, timeout+abort, true, "")
	assert.Contains(t, with.Summary, "undecided between platform (line 2) and apst (line 1)")
	assert.Nil(t, with.Consequences)
	hostAborted := summaryOf(t, timeout+"nvme nvme0: Abort status: 0x371\n", true, "")
	assert.Equal(t, alone.Summary, hostAborted.Summary)
}

// A log that holds only other programs' copies of the kernel's failure
// messages (smartd's, a monitor's) is not "no failure seen": it names the
// programs, lists their lines and asks for the kernel's own. Beside the
// kernel's line the copies change nothing.
func TestRelayedAlone(t *testing.T) {
	const (
		msg    = "nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff"
		smartd = "Dec  5 10:00:01 thinkpad smartd[912]: " + msg + "\n"
		npd    = "Dec  5 10:00:02 thinkpad node-problem-detector[77]: " + msg + "\n"
		kernel = "Dec  5 10:00:00 thinkpad kernel: " + msg + "\n"
	)
	d := summaryOf(t, smartd+npd+smartd, false, "no failure read, but 3 line(s) of other programs (smartd, node-problem-detector) repeat the kernel's NVMe or PCIe failure messages (listed below): the kernel's own lines are not in the log")
	require.Len(t, d.Relayed, 3)
	assert.Empty(t, d.Unread)
	assert.Equal(t, "smartd", d.Relayed[0].Program)
	assert.Equal(t, 2, d.Relayed[1].Line)
	assert.Empty(t, d.Causes)

	with := summaryOf(t, kernel+smartd, true, "")
	alone := summaryOf(t, kernel, true, "")
	assert.Equal(t, alone.Summary, with.Summary)
	assert.Empty(t, with.Unread)
	assert.Empty(t, with.Relayed)
}

// A kernel log that names no NVMe drive (a console's last lines before a
// hang, posted log h-04) is no failure, and the answer says the log holds
// nothing of a drive; one that shows a drive at work is plain "no failure
// seen". kernel/events/core.c's, kernel/time/hrtimer.c's and nvme-pci's
// lines.
func TestNoDriveInLog(t *testing.T) {
	console := "perf: interrupt took too long (2501 > 2500), lowering kernel.perf_event_max_sample_rate to 79000\n" +
		"hrtimer: interrupt took 28038 ns\n"
	d := summaryOf(t, console, false, "no failure seen in the kernel log, which names no NVMe drive in its 2 line(s)")
	assert.Empty(t, d.Causes)
	d = summaryOf(t, console+"[    4.634880] nvme nvme0: 16/0/0 default/read/poll queues\n", false, "")
	assert.Equal(t, "no failure seen in the kernel log", d.Summary)
}

// The drive's media failing a read weighs as much as a timeout when the
// diagnosis picks the incident to answer: a GCP local SSD whose command
// timed out once, then a read hit an unrecoverable sector 49 days later
// (posted k-05, https://github.com/scylladb/scylla-monitoring/issues/1838),
// is answered from the media error, the drive's, not from the timeout.
func TestMediaErrorOutweighsAnOldTimeout(t *testing.T) {
	log := "[    4.402654] nvme nvme0: pci function 0000:00:04.0\n" +
		"[ 4251.742645] nvme nvme0: I/O 778 QID 8 timeout, aborting\n" +
		"[ 4251.745502] nvme nvme0: Abort status: 0x0\n" +
		"[4248459.855286] blk_update_request: critical medium error, dev nvme0n7, sector 222053776 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 0\n"
	d := summaryOf(t, log, true, "most likely drive")
	require.NotEmpty(t, d.Causes)
	assert.Equal(t, diagnose.LayerDrive, d.Causes[0].Layer)
	assert.Equal(t, diagnose.Likely, d.Causes[0].Likelihood)
}
