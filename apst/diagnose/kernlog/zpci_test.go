package kernlog_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// s390's zPCI error handling is read (IBM's "Recovering a PCIe device",
// Linux on IBM Z; posted o-09): the firmware's error event and the
// recovery's failing steps are AERRecovery events of the function, the event ties
// the function to the controller whose handler speaks right after it, and
// a function of another PCI domain that failed its recovery stays its own.
func TestZPCI(t *testing.T) {
	l, err := kernlog.ReadString(`zpci: 000e:00:00.0: Event 0x3a reports an error for PCI function 0x1004
nvme nvme0: frozen state error detected, reset controller
zpci: 000e:00:00.0: Initiating reset
nvme nvme0: restart after slot reset
zpci: 000e:00:00.0: The device is ready to resume operations
nvme nvme0: 63/0/0 default/read/poll queues
zpci: 000d:00:00.0: Automatic recovery failed after slot reset
zpci: 000d:00:00.0: Automatic recovery failed; operator intervention is required
zpci: 000f:00:00.0: Event 0x304 reconfigured PCI function 0x1005
`, kernlog.Options{})
	require.NoError(t, err)
	assert.Zero(t, l.UnreadLines)
	assert.Equal(t, "nvme0", l.Addresses["000e:00:00.0"])
	require.Len(t, l.Incidents, 2)
	var actions []string
	for _, e := range l.Incidents[0].Events {
		assert.Equal(t, kernlog.AERRecovery, e.Kind)
		if e.Driver == "zpci" {
			assert.Equal(t, "000e:00:00.0", e.PCI)
			actions = append(actions, e.Action)
		}
	}
	assert.Equal(t, "nvme0", l.Incidents[0].Controller)
	assert.Equal(t, []string{kernlog.ActionPlatformError, "slot reset"}, actions)
	other := l.Incidents[1]
	assert.Empty(t, other.Controller)
	require.Len(t, other.Events, 2)
	assert.Equal(t, "failed", other.Events[0].Action)
	assert.Equal(t, "000d:00:00.0", other.Events[0].PCI)
}

// A zpci line of another shape, or without a function's address, is no
// event ("n/a" when the function had no device yet).
func TestZPCIOtherLines(t *testing.T) {
	for _, line := range []string{
		"zpci: n/a: Event 0x3a reports an error for PCI function 0x1004",
		"zpci: 000e:00:00.0: Event 0x301 reconfigured PCI function 0x1004",
		"zpci: PCI host bridge to bus 000e:00",
	} {
		l, err := kernlog.ReadString("nvme nvme0: 63/0/0 default/read/poll queues\n"+line+"\n", kernlog.Options{})
		require.NoError(t, err)
		assert.Empty(t, l.Incidents, line)
	}
}
