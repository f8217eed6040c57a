package kernlog_test

import (
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
