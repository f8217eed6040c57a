package kernlog_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// Two dmesg outputs pasted one after the other (the lines of
// https://lore.kernel.org/all/aQEElhSCRNqaPf8m@aurel32.net/): the time
// since boot starting again is a new boot, not a line out of order, and
// each boot's failure is an incident of its own.
func TestDmesgTimeStartingAgainIsANewBoot(t *testing.T) {
	l, err := kernlog.ReadString(`[    5.199513] nvme nvme0: pci function 0000:01:00.0
[   48.108400] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10
[   48.246914] nvme nvme0: Disabling device after reset failure: -19

[    5.215631] nvme nvme0: pci function 0000:01:00.0
[   66.540485] nvme nvme0: I/O tag 28 (401c) QID 0 timeout, disable controller
`, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 2)
	assert.Equal(t, 0, l.Incidents[0].Boot)
	assert.Equal(t, 1, l.Incidents[1].Boot)
	assert.Zero(t, l.Backwards)

	// A line a few seconds out of order is only that.
	l, err = kernlog.ReadString(`[   48.108400] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10
[   47.000000] nvme nvme0: I/O 5 QID 1 timeout, aborting
`, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	assert.Equal(t, int64(1), l.Backwards)
}

// A file system naming its NVMe partition is no NVMe failure, whatever
// its words (the bcachefs line of
// https://lore.kernel.org/all/54fcc150f287216593b19271f443bf13@redpilled.dev/);
// a driver line that a mail wrapped before its status is joined
// ("Removing after probe failure" / "status: -22", and the "Duplicate
// cntlid" line before it, of
// https://lore.kernel.org/all/20220619132039.GA1243474@bhelgaas/).
func TestFileSystemLinesAndWrappedStatus(t *testing.T) {
	l, err := kernlog.ReadString(`[   34.890988] bcachefs (nvme0n1p3): recovering from clean shutdown, journal seq 1782
Jun 09 03:33:08 kubuntu kernel: nvme nvme1: Duplicate cntlid 0 with nvme0,
rejecting
Jun 09 03:33:08 kubuntu kernel: nvme nvme1: Removing after probe failure
status: -22
`, kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Unread)
	require.Len(t, l.Incidents, 1)
	kinds := []kernlog.Kind{}
	for _, e := range l.Incidents[0].Events {
		kinds = append(kinds, e.Kind)
	}
	assert.Equal(t, []kernlog.Kind{kernlog.DriverError, kernlog.ProbeFailure}, kinds)
	assert.Equal(t, -22, l.Incidents[0].Events[1].Errno)
	assert.Equal(t, "Jun 09 03:33:08 kubuntu kernel: nvme nvme1: Removing after probe failure status: -22", l.Incidents[0].Events[1].Raw)
}

// A stacked block layer's complaint and the frames of a stack dump are
// not NVMe failure lines (the lines of
// https://lore.kernel.org/all/rokg8t$u8n$1@ciao.gmane.io/ and
// https://lore.kernel.org/all/20230323095333.GI1005120@linux.vnet.ibm.com/).
func TestStackedAndStackLinesAreNotUnread(t *testing.T) {
	l, err := kernlog.ReadString(`Nov 11 00:24:58 tiare kernel: bcache: bch_count_io_errors() nvme0n1p4: IO error on reading from cache, recovering.
Workqueue: nvme-reset-wq nvme_reset_work [nvme]
[c00007fd4c7ebac0] [c008000109326034] nvme_reset_work+0x44c/0x1870 [nvme]
[   12.000000] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10
`, kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Unread)
	// The controller's line, and bcache's, kept apart as a file system's
	// report of the disk's I/O error.
	assert.Equal(t, int64(2), l.Events)
	require.Len(t, l.Incidents, 1)
	require.Len(t, l.FileSystemErrors, 1)
	assert.Equal(t, "bcache", l.FileSystemErrors[0].Driver)
	assert.Equal(t, "nvme0n1p4", l.FileSystemErrors[0].Disk)
}
