package kernlog_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// journalctl -o export (systemd's JOURNAL_EXPORT_FORMATS: a field a line,
// the journal's __CURSOR, __REALTIME_TIMESTAMP and __MONOTONIC_TIMESTAMP
// first, a blank line after each record). Records of the kernel's (in
// journald's order for them) and of smartd, whose _TRANSPORT follows its
// MESSAGE, as journald appends its trusted fields; a kernel record whose
// transport comes after its MESSAGE; a new boot's record without the
// kernel's own time.
const exportLog = `__CURSOR=s=6c1a0b2e0f7e4d4f9e4e2a4b1c3d5e6f;i=4d2;b=a0d3f7e9ebb24b3caddaf45891a22066;m=da37f458;t=661dbcf03b800;x=2f0e5c7b9a1d3e4f
__REALTIME_TIMESTAMP=1796446559123456
__MONOTONIC_TIMESTAMP=3661100120
_BOOT_ID=a0d3f7e9ebb24b3caddaf45891a22066
_SOURCE_MONOTONIC_TIMESTAMP=3661100000
_TRANSPORT=kernel
PRIORITY=4
SYSLOG_FACILITY=0
SYSLOG_IDENTIFIER=kernel
_UDEV_SYSNAME=nvme0
_UDEV_DEVNODE=/dev/nvme0
MESSAGE=nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10
_MACHINE_ID=5d3c1e2f4a6b4c8d9e0f1a2b3c4d5e6f
_HOSTNAME=thinkpad
_RUNTIME_SCOPE=system

__CURSOR=s=6c1a0b2e0f7e4d4f9e4e2a4b1c3d5e6f;i=4d3;b=a0d3f7e9ebb24b3caddaf45891a22066;m=da3919e8;t=661dbcf04e0c0;x=9e1d3c5b7a2f4e6d
__REALTIME_TIMESTAMP=1796446559200000
__MONOTONIC_TIMESTAMP=3661176664
_BOOT_ID=a0d3f7e9ebb24b3caddaf45891a22066
MESSAGE=nvme nvme0: controller is down; will reset: CSTS=0x1, PCI_STATUS=0x10
PRIORITY=2
SYSLOG_FACILITY=3
SYSLOG_IDENTIFIER=smartd
SYSLOG_PID=912
_PID=912
_COMM=smartd
_TRANSPORT=syslog
_HOSTNAME=thinkpad

__CURSOR=s=6c1a0b2e0f7e4d4f9e4e2a4b1c3d5e6f;i=4d4;b=a0d3f7e9ebb24b3caddaf45891a22066;m=da397b48;t=661dbcf053ea0;x=1b2c3d4e5f6a7b8c
__REALTIME_TIMESTAMP=1796446559223456
__MONOTONIC_TIMESTAMP=3661200200
_BOOT_ID=a0d3f7e9ebb24b3caddaf45891a22066
_SOURCE_MONOTONIC_TIMESTAMP=3661200000
MESSAGE=nvme 0000:04:00.0: Unable to change power state from D3cold to D0, device inaccessible
_TRANSPORT=kernel
PRIORITY=3

__CURSOR=s=0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a;i=1a;b=b85b43d5b76d462a88269c6129969899;m=bebc20;t=661dc01489fa0;x=5e6f7a8b9c0d1e2f
__REALTIME_TIMESTAMP=1796447402500000
__MONOTONIC_TIMESTAMP=12500000
_BOOT_ID=b85b43d5b76d462a88269c6129969899
_TRANSPORT=kernel
SYSLOG_IDENTIFIER=kernel
MESSAGE=nvme nvme0: Removing after probe failure status: -19

`

// verboseLog is the same records as journalctl -o verbose prints them:
// each under a line of its time and cursor (the boot, the journal's
// monotonic and wall-clock times in hex), its fields indented.
const verboseLog = `Sat 2026-12-05 04:55:59.123456 UTC [s=6c1a0b2e0f7e4d4f9e4e2a4b1c3d5e6f;i=4d2;b=a0d3f7e9ebb24b3caddaf45891a22066;m=da37f458;t=661dbcf03b800;x=2f0e5c7b9a1d3e4f]
    _BOOT_ID=a0d3f7e9ebb24b3caddaf45891a22066
    _SOURCE_MONOTONIC_TIMESTAMP=3661100000
    _TRANSPORT=kernel
    PRIORITY=4
    SYSLOG_FACILITY=0
    SYSLOG_IDENTIFIER=kernel
    _UDEV_SYSNAME=nvme0
    _UDEV_DEVNODE=/dev/nvme0
    MESSAGE=nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10
    _MACHINE_ID=5d3c1e2f4a6b4c8d9e0f1a2b3c4d5e6f
    _HOSTNAME=thinkpad
    _RUNTIME_SCOPE=system
Sat 2026-12-05 04:55:59.200000 UTC [s=6c1a0b2e0f7e4d4f9e4e2a4b1c3d5e6f;i=4d3;b=a0d3f7e9ebb24b3caddaf45891a22066;m=da3919e8;t=661dbcf04e0c0;x=9e1d3c5b7a2f4e6d]
    _BOOT_ID=a0d3f7e9ebb24b3caddaf45891a22066
    MESSAGE=nvme nvme0: controller is down; will reset: CSTS=0x1, PCI_STATUS=0x10
    PRIORITY=2
    SYSLOG_FACILITY=3
    SYSLOG_IDENTIFIER=smartd
    SYSLOG_PID=912
    _PID=912
    _COMM=smartd
    _TRANSPORT=syslog
    _HOSTNAME=thinkpad
Sat 2026-12-05 04:55:59.223456 UTC [s=6c1a0b2e0f7e4d4f9e4e2a4b1c3d5e6f;i=4d4;b=a0d3f7e9ebb24b3caddaf45891a22066;m=da397b48;t=661dbcf053ea0;x=1b2c3d4e5f6a7b8c]
    _BOOT_ID=a0d3f7e9ebb24b3caddaf45891a22066
    _SOURCE_MONOTONIC_TIMESTAMP=3661200000
    MESSAGE=nvme 0000:04:00.0: Unable to change power state from D3cold to D0, device inaccessible
    _TRANSPORT=kernel
    PRIORITY=3
Sat 2026-12-05 05:10:02.500000 UTC [s=0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a;i=1a;b=b85b43d5b76d462a88269c6129969899;m=bebc20;t=661dc01489fa0;x=5e6f7a8b9c0d1e2f]
    _BOOT_ID=b85b43d5b76d462a88269c6129969899
    _TRANSPORT=kernel
    SYSLOG_IDENTIFIER=kernel
    MESSAGE=nvme nvme0: Removing after probe failure status: -19
`

// journalctl -o export and -o verbose are read with each record's time
// (the kernel's _SOURCE_MONOTONIC_TIMESTAMP, else the journal's monotonic
// time; the wall-clock time), only the kernel's records are events
// whichever order their fields come in (another program's repeating a
// failure is relayed), and a new boot ID is a new boot: as the plain
// dmesg of the same messages reads, each event quoted from its MESSAGE
// line.
func TestJournalExportAndVerbose(t *testing.T) {
	wall := func(s string) time.Time {
		w, err := time.Parse("2006-01-02 15:04:05.000000", s)
		require.NoError(t, err)
		return w
	}
	plain, err := kernlog.ReadString(`[ 3661.100000] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10
[ 3661.200000] nvme 0000:04:00.0: Unable to change power state from D3cold to D0, device inaccessible
[    0.000000] Linux version 6.8.0-45-generic (buildd@lcy02-amd64-075) #45-Ubuntu SMP PREEMPT_DYNAMIC
[   12.500000] nvme nvme0: Removing after probe failure status: -19
`, kernlog.Options{})
	require.NoError(t, err)
	for _, tc := range []struct {
		name, log string
		lines     []int
	}{
		{"export", exportLog, []int{12, 36, 46}},
		{"verbose", verboseLog, []int{10, 28, 35}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tc.log, kernlog.Options{})
			require.NoError(t, err)
			require.Len(t, l.Incidents, 2)
			assert.Equal(t, summarize(plain), summarize(l))
			first, second := l.Incidents[0], l.Incidents[1]
			assert.Equal(t, []int{0, 1}, []int{first.Boot, second.Boot}, "a new boot ID")
			require.Len(t, first.Events, 2)
			down, d3 := first.Events[0], first.Events[1]
			assert.Equal(t, uint32(0xffffffff), down.CSTS, "the kernel's record, not smartd's")
			assert.Equal(t, kernlog.Timestamp{Mono: 3661100 * time.Millisecond, HasMono: true, Wall: wall("2026-12-05 04:55:59.123456"), HasWall: true}, down.Time)
			assert.Equal(t, kernlog.Timestamp{Mono: 3661200 * time.Millisecond, HasMono: true, Wall: wall("2026-12-05 04:55:59.223456"), HasWall: true}, d3.Time, "its transport after its MESSAGE")
			probe := second.Events[0]
			assert.Equal(t, kernlog.Timestamp{Mono: 12500 * time.Millisecond, HasMono: true, Wall: wall("2026-12-05 05:10:02.500000"), HasWall: true}, probe.Time, "the journal's monotonic time")
			assert.Equal(t, tc.lines, []int{down.Line, d3.Line, probe.Line})
			assert.Equal(t, "MESSAGE=nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10", down.Raw)
			assert.Equal(t, int64(1), l.RelayedLines, "smartd's record")
			require.Len(t, l.Relayed, 1)
			assert.Equal(t, "smartd", l.Relayed[0].Program)
			assert.Zero(t, l.UnreadLines)
			assert.Zero(t, l.Backwards)
		})
	}
}

// A record that names no transport (journalctl -o export
// --output-fields=MESSAGE) is read as the kernel's, as -o cat's lines
// are, with its time; a MESSAGE line outside a record (a paste that
// starts in the middle of one) as a bare message.
func TestJournalExportWithoutTransport(t *testing.T) {
	log := `MESSAGE=nvme nvme0: I/O tag 28 (401c) QID 0 timeout, reset controller
_BOOT_ID=a0d3f7e9ebb24b3caddaf45891a22066

__CURSOR=s=6c1a0b2e0f7e4d4f9e4e2a4b1c3d5e6f;i=4d2;b=a0d3f7e9ebb24b3caddaf45891a22066;m=da37f458;t=661dbcf03b800;x=2f0e5c7b9a1d3e4f
__REALTIME_TIMESTAMP=1796446559123456
__MONOTONIC_TIMESTAMP=3661100120
MESSAGE=nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10
`
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	ev := l.Incidents[0].Events
	require.Len(t, ev, 2)
	assert.Equal(t, kernlog.AdminTimeout, ev[0].Kind)
	assert.True(t, ev[0].Time.IsZero())
	assert.Equal(t, kernlog.ControllerDown, ev[1].Kind)
	assert.Equal(t, 3661100120*time.Microsecond, ev[1].Time.Mono)
	assert.True(t, ev[1].Time.HasWall)
	assert.Equal(t, 7, ev[1].Line)
}

// Quoted in a reply, indented, with CRLF line ends: the same.
func TestJournalExportQuoted(t *testing.T) {
	want, err := kernlog.ReadString(exportLog, kernlog.Options{})
	require.NoError(t, err)
	for _, q := range []string{"> ", "    "} {
		got, err := kernlog.ReadString(q+strings.ReplaceAll(strings.TrimSuffix(exportLog, "\n"), "\n", "\r\n"+q)+"\r\n", kernlog.Options{})
		require.NoError(t, err)
		assert.Equal(t, summarize(want), summarize(got), "%q", q)
		assert.Equal(t, want.Incidents[0].Events[0].Time, got.Incidents[0].Events[0].Time, "%q", q)
		assert.Equal(t, want.RelayedLines, got.RelayedLines, "%q", q)
	}
}
