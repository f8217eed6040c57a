package kernlog_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// Below answers from the PCI core's bridge lines (a Dell XPS 13's
// hw-probe dmesg, posted zt-05: the Thunderbolt switch's ports and the
// drive's root port); a bridge whose buses the log never printed is
// unknown, as is every bridge of the zero Log.
func TestBelow(t *testing.T) {
	l, err := kernlog.ReadString(`[    0.437377] pci 0000:00:1d.0: PCI bridge to [bus 3c]
[   44.636428] pci 0000:02:00.0: PCI bridge to [bus 03]
[   44.637500] pci 0000:01:00.0: PCI bridge to [bus 02-39]
[    2.619705] nvme nvme0: pci function 0000:3c:00.0
`, kernlog.Options{})
	require.NoError(t, err)
	for _, tt := range []struct {
		port, fn     string
		below, known bool
	}{
		{"0000:00:1d.0", "0000:3c:00.0", true, true},
		{"0000:02:00.0", "0000:3c:00.0", false, true},
		{"0000:01:00.0", "0000:03:00.0", true, true},
		{"0000:01:00.0", "0001:03:00.0", false, true},
		{"0000:00:1c.0", "0000:3c:00.0", false, false},
		{"0000:00:1d.0", "nvme0", false, false},
	} {
		below, known := l.Below(tt.port, tt.fn)
		assert.Equal(t, tt.below, below, "%s above %s", tt.port, tt.fn)
		assert.Equal(t, tt.known, known, "%s above %s", tt.port, tt.fn)
	}
	var zero kernlog.Log
	below, known := zero.Below("0000:00:1d.0", "0000:3c:00.0")
	assert.False(t, below || known)
}
