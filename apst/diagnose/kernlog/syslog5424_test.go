package kernlog_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// The syslog protocol's lines (RFC 5424 §6): the kernel's are read with
// their time, whatever their structured data (none, several elements, a
// "]" escaped in a quoted value) and with no time at all ("-"); another
// program's are not; a line whose structured data does not end is not
// taken for one.
func TestSyslogProtocol(t *testing.T) {
	const msg = "nvme nvme0: I/O 9 QID 0 timeout, reset controller"
	for _, tc := range []struct {
		name, line string
		read       bool
		wall       time.Time
	}{
		{"no structured data", "<3>1 2026-12-05T04:55:59.123456+00:00 host kernel - - - " + msg, true, time.Date(2026, 12, 5, 4, 55, 59, 123456000, time.UTC)},
		{"elements", `<3>1 2026-12-05T04:55:59Z host kernel - - [meta sequenceId="7" x="a\"]b"][origin ip="10.0.0.1"] ` + msg, true, time.Date(2026, 12, 5, 4, 55, 59, 0, time.UTC)},
		{"no time", "<3>1 - host kernel - - - " + msg, true, time.Time{}},
		{"another program", "<27>1 2026-12-05T04:55:59Z host smartd 912 - - " + msg, false, time.Time{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tc.line+"\n", kernlog.Options{})
			require.NoError(t, err)
			if !tc.read {
				assert.Empty(t, l.Incidents)
				assert.Zero(t, l.UnreadLines)
				return
			}
			require.Len(t, l.Incidents, 1)
			e := l.Incidents[0].Events[0]
			assert.Equal(t, kernlog.AdminTimeout, e.Kind)
			assert.Equal(t, msg, e.Text)
			assert.Equal(t, !tc.wall.IsZero(), e.Time.HasWall)
			if !tc.wall.IsZero() {
				assert.True(t, tc.wall.Equal(e.Time.Wall), "%v", e.Time.Wall)
			}
		})
	}
	// Structured data that does not end: no syslog protocol line.
	l, err := kernlog.ReadString(`<3>1 2026-12-05T04:55:59Z host kernel - - [meta x="1" `+msg+"\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Incidents)
}

// The syslog protocol's lines stored without their "<PRI>" (as collectors
// that keep the priority apart store rsyslog's
// RSYSLOG_SyslogProtocol23Format) start a message each, as they do with
// it: a line the joiner holds ("nvme0n1: p1 p2", a keyword and no event)
// does not take the next line as its continuation.
func TestSyslogProtocolWithoutPRI(t *testing.T) {
	const log = `1 2026-12-05T04:55:58.123456+00:00 host kernel - - - nvme nvme0: pci function 0000:04:00.0
1 2026-12-05T04:55:58.223456+00:00 host kernel - - -  nvme0n1: p1 p2
1 2026-12-05T04:55:59.123456+00:00 host kernel - - - nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10
1 2026-12-05T04:55:59.223456+00:00 host kernel - - - nvme 0000:04:00.0: Unable to change power state from D3cold to D0, device inaccessible
1 - host kernel - - - nvme nvme0: Disabling device after reset failure: -19
`
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	withPRI, err := kernlog.ReadString(strings.ReplaceAll("\n"+log, "\n1 ", "\n<3>1 ")[1:], kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	in := l.Incidents[0]
	assert.Equal(t, "nvme0", in.Controller)
	var kinds []kernlog.Kind
	var lines []int
	for _, e := range in.Events {
		kinds = append(kinds, e.Kind)
		lines = append(lines, e.Line, e.EndLine)
	}
	assert.Equal(t, []kernlog.Kind{kernlog.ControllerDown, kernlog.ResumeFailure, kernlog.ResetFailure}, kinds)
	assert.Equal(t, []int{3, 3, 4, 4, 5, 5}, lines, "each line a message")
	assert.True(t, time.Date(2026, 12, 5, 4, 55, 59, 123456000, time.UTC).Equal(in.Events[0].Time.Wall))
	require.Len(t, withPRI.Incidents, 1)
	for i, e := range withPRI.Incidents[0].Events {
		e.Raw = strings.TrimPrefix(e.Raw, "<3>")
		assert.Equal(t, e, in.Events[i], "as with the PRI")
	}
	assert.Zero(t, l.UnreadLines)
}
