package kernlog_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// journalctl -o json: only the kernel's records are read; a MESSAGE that
// is not UTF-8 comes as an array of bytes; a field the record holds twice
// as an array of strings; a change of _BOOT_ID is a new boot. The messages
// are those of https://github.com/raspberrypi/linux/issues/6661.
func TestJournalJSON(t *testing.T) {
	log := `{"__REALTIME_TIMESTAMP":"1769615720000000","__MONOTONIC_TIMESTAMP":"4866000000","_BOOT_ID":"a0d3f7e9ebb24b3caddaf45891a22066","_TRANSPORT":"kernel","SYSLOG_IDENTIFIER":"kernel","MESSAGE":"nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10"}
{"__REALTIME_TIMESTAMP":"1769615720000100","__MONOTONIC_TIMESTAMP":"4866000100","_BOOT_ID":"a0d3f7e9ebb24b3caddaf45891a22066","_TRANSPORT":"stdout","SYSLOG_IDENTIFIER":"smartd","MESSAGE":"nvme nvme0: controller is down; will reset: CSTS=0x1, PCI_STATUS=0x10"}
{"__REALTIME_TIMESTAMP":"1769615720000200","__MONOTONIC_TIMESTAMP":"4866000200","_BOOT_ID":"a0d3f7e9ebb24b3caddaf45891a22066","_TRANSPORT":"kernel","MESSAGE":[110,118,109,101,32,110,118,109,101,48,58,32,68,111,101,115,32,121,111,117,114,32,100,101,118,105,99,101,32,104,97,118,101,32,97,32,102,97,117,108,116,121,32,112,111,119,101,114,32,115,97,118,105,110,103,32,109,111,100,101,32,101,110,97,98,108,101,100,63,255]}
{"__REALTIME_TIMESTAMP":"1769619587000000","__MONOTONIC_TIMESTAMP":"2000000","_BOOT_ID":"b85b43d5b76d462a88269c6129969899","_TRANSPORT":"kernel","SYSLOG_IDENTIFIER":["kernel","kernel"],"MESSAGE":"nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10"}
{"MESSAGE":"a line cut off by the tracker","_TRANSP
`
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 2)
	first := l.Incidents[0]
	assert.Equal(t, 0, first.Boot)
	assert.Equal(t, map[kernlog.Kind]int{kernlog.ControllerDown: 1, kernlog.PowerSavingHint: 1}, first.Counts)
	assert.Equal(t, uint32(0xffffffff), first.Events[0].CSTS, "the smartd record is no kernel line")
	assert.Equal(t, "nvme nvme0: Does your device have a faulty power saving mode enabled?\ufffd", first.Events[1].Text)
	assert.Equal(t, 1, l.Incidents[1].Boot, "a new _BOOT_ID")
	assert.Equal(t, time.Duration(4866000000000), first.Start.Mono)
	assert.True(t, first.Start.HasWall)
	assert.Zero(t, l.UnreadLines)
}

// journalctl's "-- Boot ... --" separators start boots, as "Linux version"
// lines do, but a boot is not counted twice when both are there.
func TestJournalBootSeparators(t *testing.T) {
	// https://github.com/raspberrypi/linux/issues/6661 (its separators),
	// with a failure in each boot.
	log := `Jun 02 15:00:00 argon kernel: nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10
-- Boot b85b43d5b76d462a88269c6129969899 --
Jun 02 16:29:19 argon kernel: Linux version 6.6.62+rpt-rpi-2712 (serge@raspberrypi.com) #1 SMP PREEMPT Debian 1:6.6.62-1+rpt1 (2024-11-25)
Jun 02 16:29:19 argon kernel: nvme nvme0: pci function 0000:01:00.0
Jun 02 16:30:00 argon kernel: nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10
-- Boot 254925c6ae6f4eddb348c38e529f5079 --
Jun 02 16:35:55 argon kernel: nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10
`
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 3)
	assert.Equal(t, []int{0, 1, 2}, []int{l.Incidents[0].Boot, l.Incidents[1].Boot, l.Incidents[2].Boot})
	assert.Equal(t, 1, l.Boots)
	assert.Equal(t, "6.6.62+rpt-rpi-2712", l.Release)
}

// dmesg --json's closing brackets after its last record are no part of
// that record's message (util-linux's tests/expected/dmesg/json ends so).
func TestDmesgJSONLastRecord(t *testing.T) {
	log := "{\n   \"dmesg\": [\n      {\n         \"pri\": 4,\n         \"time\":    13.239627,\n" +
		"         \"msg\": \"nvme nvme0: Identify Descriptors failed (8194)\"\n      }\n   ]\n}\n"
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	e := l.Incidents[0].Events[0]
	assert.Equal(t, "[   13.239627] nvme nvme0: Identify Descriptors failed (8194)", e.Raw)
	assert.Equal(t, 8194, e.Status)
}

// journalctl -o json-pretty, as a mail quoted it (linux-scsi,
// Message-ID <c6b031b8-f617-0580-52a5-26532da4ee03@redhat.com>, Tony
// Asleson, 2020-09-30): a record over lines, its MESSAGE and __CURSOR
// values wrapped by the mail client. The record reads as its one-line
// -o json form does, its event quoted from its MESSAGE line, at the time
// the kernel gave it (_SOURCE_MONOTONIC_TIMESTAMP).
func TestJournalJSONPretty(t *testing.T) {
	const mail = `Here is what we get today when we encounter a read error
which uses printk in the block layer:

{
        "_HOSTNAME" : "pn",
        "_TRANSPORT" : "kernel",
        "__MONOTONIC_TIMESTAMP" : "1806379233",
        "SYSLOG_IDENTIFIER" : "kernel",
        "_SOURCE_MONOTONIC_TIMESTAMP" : "1805611354",
        "SYSLOG_FACILITY" : "0",
        "MESSAGE" : "blk_update_request: critical medium error, dev
nvme0n1, sector 10000 op 0x0:(READ) flags 0x80700 phys_seg 3 prio class 0",
        "PRIORITY" : "3",
        "_MACHINE_ID" : "3f31a0847cea4c95b7a9cec13d07deeb",
        "__REALTIME_TIMESTAMP" : "1601471260802301",
        "_BOOT_ID" : "b03ed610f21d46ab8243a495ba5a0058",
        "__CURSOR" :
"s=a063a22bbb384da0b0412e8f652deabb;i=23c2;b=b03ed610f21d46ab8243a495ba5a0058;m=6bab28e1;t=5b087959e3cfd;x=20528862f8f765c9"
}

Unless you parse the message text you cannot make the association.
`
	for _, quoted := range []bool{false, true} {
		in := mail
		if quoted {
			in = "> " + strings.ReplaceAll(strings.TrimSuffix(mail, "\n"), "\n", "\n> ") + "\n"
		}
		l, err := kernlog.ReadString(in, kernlog.Options{})
		require.NoError(t, err)
		require.Len(t, l.Incidents, 1, "quoted %v", quoted)
		e := l.Incidents[0].Events[0]
		assert.Equal(t, kernlog.IOError, e.Kind)
		assert.Equal(t, "nvme0n1", e.Disk)
		assert.Equal(t, 11, e.Line, "the MESSAGE line")
		assert.Equal(t, `"MESSAGE" : "blk_update_request: critical medium error, dev nvme0n1, sector 10000 op 0x0:(READ) flags 0x80700 phys_seg 3 prio class 0",`, e.Raw)
		assert.Equal(t, 1805611354*time.Microsecond, e.Time.Mono)
		assert.Zero(t, l.UnreadLines)
	}

	// The record's first field wrapped after its colon.
	l, err := kernlog.ReadString("{\n\t\"__CURSOR\" :\n\"s=a063a22bbb384da0b0412e8f652deabb;i=23c2\",\n\t\"_TRANSPORT\" : \"kernel\",\n\t\"MESSAGE\" : \"nvme nvme0: I/O 9 QID 0 timeout, reset controller\"\n}\n", kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	assert.Equal(t, 5, l.Incidents[0].Events[0].Line)

	// Not a record: dmesg --json's "{" and its lowercase keys, and a brace
	// in prose, read as before.
	l, err = kernlog.ReadString("{\n   \"dmesg\": [\n      {\n         \"pri\": 3,\n         \"time\":    12.000001,\n         \"msg\": \"nvme nvme0: I/O 9 QID 0 timeout, reset controller\"\n      }\n   ]\n}\n", kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	assert.Equal(t, 12000001*time.Microsecond, l.Incidents[0].Events[0].Time.Mono)
}
