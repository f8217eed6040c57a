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
