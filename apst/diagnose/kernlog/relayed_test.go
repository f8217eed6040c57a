package kernlog_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// A syslog or journal line of another program that repeats the kernel's
// failure message (smartd, a monitor, a relay) is not the kernel's line:
// it joins no incident and is not unread either, but Log.Relayed keeps it
// with its program, so that a log holding only such copies is not "no
// failure". A program's line with no failure message, or with a failure in
// its own words, is kept nowhere.
func TestRelayedLines(t *testing.T) {
	const msg = "nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff"
	for _, tc := range []struct {
		name, line, program string
	}{
		{"syslog", "Dec  5 10:00:00 thinkpad smartd[912]: " + msg, "smartd"},
		{"journalctl short-iso", "2026-12-05T10:00:00+0100 thinkpad node-problem-detector[77]: " + msg, "node-problem-detector"},
		{"journalctl short-full", "Sat 2026-12-05 10:00:00 CET thinkpad monitor.sh[4242]: " + msg, "monitor.sh"},
		{"no pid", "Dec  5 10:00:00 thinkpad logger: " + msg, "logger"},
		{"time and host cut off", "smartd[912]: " + msg, "smartd"},
		{"journalctl short-precise", "Dec 05 10:00:00.123456 thinkpad systemd[1]: " + msg, "systemd"},
		// A one-digit pid is no dmesg time stamp run into the line.
		{"one-digit pid, the PCI core's line", "Dec  5 10:00:00 thinkpad mon[9]: nvme 0000:01:00.0: Unable to change power state from D3cold to D0, device inaccessible", "mon"},
		{"one-digit pid, the block layer's line", "Dec  5 10:00:00 thinkpad mon[9]: I/O error, dev nvme0n1, sector 5 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 2", "mon"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tc.line+"\n", kernlog.Options{})
			require.NoError(t, err)
			assert.Empty(t, l.Incidents)
			assert.Zero(t, l.UnreadLines)
			assert.Equal(t, int64(1), l.RelayedLines)
			require.Len(t, l.Relayed, 1)
			assert.Equal(t, kernlog.UnreadLine{Line: 1, Text: tc.line, Program: tc.program}, l.Relayed[0])
		})
	}
	t.Run("beside the kernel's own line", func(t *testing.T) {
		l, err := kernlog.ReadString("Dec  5 10:00:00 thinkpad kernel: "+msg+"\nDec  5 10:00:01 thinkpad smartd[912]: "+msg+"\n", kernlog.Options{})
		require.NoError(t, err)
		require.Len(t, l.Incidents, 1)
		require.Len(t, l.Incidents[0].Events, 1)
		assert.Equal(t, 1, l.Incidents[0].Events[0].Line)
		assert.Equal(t, int64(1), l.RelayedLines)
	})
	t.Run("no failure in it", func(t *testing.T) {
		// Programs' own words about a device, udev's among them
		// (journalctl without -k), are no kernel message repeated.
		l, err := kernlog.ReadString("Dec  5 10:00:00 thinkpad smartd[912]: Device: /dev/nvme0, opened\n"+
			"Dec  5 10:00:00 thinkpad systemd-udevd[412]: nvme0n1: Process '/usr/bin/foo' failed with exit code 1.\n"+
			"Dec  5 10:00:00 thinkpad systemd-udevd[412]: nvme0n1p1: Failed to update device symlinks: Too many levels of symbolic links\n"+
			"Dec  5 10:00:00 thinkpad kernel: nvme nvme0: 8/0/0 default/read/poll queues\n", kernlog.Options{})
		require.NoError(t, err)
		assert.Zero(t, l.RelayedLines)
		assert.Empty(t, l.Relayed)
	})
	t.Run("at most MaxUnread", func(t *testing.T) {
		var s string
		for range kernlog.MaxUnread + 3 {
			s += "Dec  5 10:00:00 thinkpad smartd[912]: " + msg + "\n"
		}
		l, err := kernlog.ReadString(s, kernlog.Options{})
		require.NoError(t, err)
		assert.Len(t, l.Relayed, kernlog.MaxUnread)
		assert.Equal(t, int64(kernlog.MaxUnread+3), l.RelayedLines)
	})
}

// A journal record of another program (journalctl -o json, without -k)
// that repeats a kernel failure message is relayed the same way, named by
// its SYSLOG_IDENTIFIER, else its _COMM.
func TestRelayedJournalRecords(t *testing.T) {
	const msg = "nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff"
	for _, tc := range []struct{ name, line, program string }{
		{"identifier", `{"__REALTIME_TIMESTAMP":"1764928800000000","_TRANSPORT":"syslog","SYSLOG_IDENTIFIER":"smartd","MESSAGE":"` + msg + `"}`, "smartd"},
		{"command alone", `{"__REALTIME_TIMESTAMP":"1764928800000000","_TRANSPORT":"stdout","_COMM":"dmesg-watch","MESSAGE":"` + msg + `"}`, "dmesg-watch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tc.line+"\n", kernlog.Options{})
			require.NoError(t, err)
			assert.Empty(t, l.Incidents)
			assert.Zero(t, l.UnreadLines)
			require.Len(t, l.Relayed, 1)
			assert.Equal(t, tc.program, l.Relayed[0].Program)
		})
	}
	// A record that names no program (its fields damaged) is nobody's
	// copy: kept nowhere, as before.
	l, err := kernlog.ReadString(`{"__REALTIME_TIMESTAMP":"1764928800000000","_TR>NSPORT":"kernel","MESSAGE":"`+msg+`"}`+"\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Relayed)
	assert.Empty(t, l.Incidents)
}
