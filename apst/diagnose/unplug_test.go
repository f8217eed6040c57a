package diagnose_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// A dock unplugged (a Surface Thunderbolt 4 dock, fwupd/fwupd#5878, posted
// v-05) leaves its switch's ports unable to wake around the slot's report:
// in a log that names no NVMe drive that is an unplug, no failure. The
// same ports' failure without the slot's report, or beside the nvme
// driver's lines, is diagnosed as before.
func TestUnplugIsNoFailure(t *testing.T) {
	const ports = "[ 2943.152537] pcieport 0000:02:00.0: can't change power state from D3cold to D0 (config space inaccessible)\n"
	const slot = "[ 2943.152574] pcieport 0000:00:07.0: pciehp: Slot(0): Card not present\n"
	const more = "[ 2943.152592] pcieport 0000:03:04.0: can't change power state from D3cold to D0 (config space inaccessible)\n"

	l, err := kernlog.ReadString(ports+slot+more, kernlog.Options{})
	require.NoError(t, err)
	d := diagnose.Diagnose(diagnose.Input{Log: l})
	assert.False(t, d.Failure)
	assert.Empty(t, d.Causes)
	assert.Contains(t, d.Summary, "line 2: the hot-plug slot of 0000:00:07.0 lost its card, and the PCIe ports behind it (0000:02:00.0, 0000:03:04.0)")
	require.Len(t, d.Consequences, 1)
	assert.Equal(t, 2, d.Consequences[0].Line)

	for name, log := range map[string]string{
		"without the slot's report": ports + more,
		"beside the drive's lines":  "[    1.000000] nvme nvme0: pci function 0000:04:00.0\n" + ports + slot + more,
		"the slot alone":            slot,
	} {
		l, err := kernlog.ReadString(log, kernlog.Options{})
		require.NoError(t, err, name)
		assert.True(t, diagnose.Diagnose(diagnose.Input{Log: l}).Failure, name)
	}
}
