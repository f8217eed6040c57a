package kernlog_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// A Thunderbolt/USB4 host that could not activate the PCIe tunnel to an
// enclosure it found (linux-usb,
// 2fd4b2b0-0526-4946-ad05-058366f3127a@initramfs.io, posted u-01; an
// ASMedia 2464PD NVMe enclosure) says so in tunnel.c's and tb.c's words:
// a LinkDown of the host's function (Reporter) naming no drive. The
// driver's other lines name its host, never a drive, and are not left
// unread.
func TestTunnelFailed(t *testing.T) {
	l, err := kernlog.ReadString("[  138.736546] thunderbolt 0000:00:0d.2: 1:1: failed to enable lane bonding\n"+
		"[  138.736888] thunderbolt 0000:00:0d.2: 1: failed to enable CL states\n"+
		"[  138.739422] thunderbolt 0000:00:0d.2: path activation failed\n"+
		"[  138.739888] thunderbolt 0000:00:0d.2: 0:8 <-> 1:3 (PCI): activation failed\n"+
		"[  138.740586] thunderbolt 0000:00:0d.2: 1:3: PCIe tunnel activation failed, aborting\n"+
		"[  138.740791] thunderbolt 0-1: device disconnected\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Zero(t, l.UnreadLines, "%+v", l.Unread)
	require.Len(t, l.Incidents, 1)
	in := l.Incidents[0]
	assert.Equal(t, 2, in.Counts[kernlog.LinkDown])
	for _, e := range in.Events {
		assert.Equal(t, kernlog.ActionTunnelFailed, e.Action)
		assert.Equal(t, "0000:00:0d.2", e.Reporter)
		assert.Empty(t, e.Controller)
	}
	assert.Equal(t, []int{4, 5}, []int{in.Events[0].Line, in.Events[1].Line})

	// A DisplayPort or USB3 tunnel's failure is no drive's.
	l, err = kernlog.ReadString("[  138.739888] thunderbolt 0000:00:0d.2: 0:5 <-> 1:11 (DP): activation failed\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Incidents)
	assert.Zero(t, l.UnreadLines)
}
