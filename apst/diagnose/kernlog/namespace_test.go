package kernlog_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// diskEvents returns the events with a disk, in log order.
func diskEvents(l *kernlog.Log) []kernlog.Event {
	var out []kernlog.Event
	for _, in := range l.Incidents {
		for _, e := range in.Events {
			if e.Disk != "" {
				out = append(out, e)
			}
		}
	}
	return out
}

// The partition scan that follows a controller's probe ties the namespace
// to that controller; a disk no line ties keeps the controller its number
// suggests, marked as guessed. The probe lines are those of
// https://github.com/QubesOS/qubes-issues/issues/9719 (two controllers).
func TestNamespacesFromTheProbe(t *testing.T) {
	log := `[    4.618617] nvme nvme0: pci function 0000:01:00.0
[    4.621010] nvme nvme1: pci function 0000:02:00.0
[    4.628239] nvme nvme0: D3 entry latency set to 10 seconds
[    4.634880] nvme nvme0: 16/0/0 default/read/poll queues
[    4.641186] nvme nvme1: failed to allocate host memory buffer.
[    4.651220]  nvme0n1: p1 p2 p3 p4 p5 p6
[    4.716788] nvme nvme1: 16/0/0 default/read/poll queues
[  900.000000] I/O error, dev nvme0n1, sector 2048 op 0x1:(WRITE) flags 0x0 phys_seg 1 prio class 2
[  900.000100] I/O error, dev nvme1n1, sector 2048 op 0x1:(WRITE) flags 0x0 phys_seg 1 prio class 2
`
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"nvme0n1": "nvme0"}, l.Namespaces)
	ev := diskEvents(l)
	require.Len(t, ev, 2)
	assert.Equal(t, "nvme0", ev[0].Controller)
	assert.False(t, ev[0].GuessedController)
	assert.Equal(t, "nvme1", ev[1].Controller)
	assert.True(t, ev[1].GuessedController, "no line ties nvme1n1")
}

// Native multipath: namespace 1 of subsystem 1 is nvme1n1 whatever its
// controller is; the log's own lines say which.
func TestMultipathNamespaces(t *testing.T) {
	log := `[    2.000000] nvme nvme0: 8/0/0 default/read/poll queues
[    2.000100]  nvme1n1: p1 p2
[    2.100000] nvme nvme1: 8/0/0 default/read/poll queues
[    2.100200]  nvme0n1: p1
[  300.000000] I/O error, dev nvme1n1p2, sector 0 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 2
[  300.100000] nvme0c1n1: Read(0x2) @ LBA 0, 8 blocks, Internal Error (sct 0x0 / sc 0x6)
`
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"nvme1n1": "nvme0", "nvme0n1": "nvme1"}, l.Namespaces)
	ev := diskEvents(l)
	require.Len(t, ev, 2)
	assert.Equal(t, "nvme0", ev[0].Controller, "nvme1n1 is nvme0's, as its partition scan says")
	assert.False(t, ev[0].GuessedController)
	assert.Equal(t, "nvme1", ev[1].Controller, "a path name names its controller")
	assert.False(t, ev[1].GuessedController)
	require.Len(t, l.Incidents, 2)
	assert.Equal(t, "nvme0", l.Incidents[0].Controller)
	assert.Equal(t, "nvme1", l.Incidents[1].Controller)
}

// With one controller in the log, every namespace is its; two probes at
// once leave a scan to neither.
func TestNamespacesOfOneController(t *testing.T) {
	l, err := kernlog.ReadString(`[   10.000000] nvme nvme3: I/O 1 QID 1 timeout, aborting
[   11.000000] I/O error, dev nvme0n1, sector 0 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 2
`, kernlog.Options{})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"nvme0n1": "nvme3"}, l.Namespaces)
	require.Len(t, l.Incidents, 1)
	assert.Equal(t, "nvme3", l.Incidents[0].Events[1].Controller)
	assert.False(t, l.Incidents[0].Events[1].GuessedController)

	l, err = kernlog.ReadString(`[    2.000000] nvme nvme0: 8/0/0 default/read/poll queues
[    2.000001] nvme nvme1: 8/0/0 default/read/poll queues
[    2.000100]  nvme0n1: p1
[    2.000200]  nvme1n1: p1
`, kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Namespaces)
}
