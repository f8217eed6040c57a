package kernlog_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// Log.Controllers are the controllers the log names, whatever their lines
// say (a probe, a "pci function" line, an event), in the order of their
// numbers; a disk the log ties to one names it, a log of no drive none.
func TestControllersTheLogNames(t *testing.T) {
	for _, tc := range []struct {
		name, log string
		want      []string
	}{
		{"a probe and an event", "[ 1.0] nvme nvme10: 16/0/0 default/read/poll queues\n[ 2.0] nvme nvme2: I/O 1 QID 1 timeout, aborting\n", []string{"nvme2", "nvme10"}},
		{"a pci function line", "[ 1.0] nvme nvme1: pci function 0000:04:00.0\n", []string{"nvme1"}},
		{"bare lines", "nvme nvme0: Shutdown timeout set to 10 seconds\nnvme nvme3: 8/0/0 default/read/poll queues\n", []string{"nvme0", "nvme3"}},
		{"a disk of a path", "[ 1.0] nvme1c0n1: I/O Cmd(0x2) @ LBA 0, 8 blocks, I/O Error (sct 0x3 / sc 0x71)\n", []string{"nvme0"}},
		{"no drive", "[ 1.0] usb 1-1: new high-speed USB device number 2 using xhci_hcd\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tc.log, kernlog.Options{})
			require.NoError(t, err)
			assert.Equal(t, tc.want, l.Controllers)
		})
	}
}
