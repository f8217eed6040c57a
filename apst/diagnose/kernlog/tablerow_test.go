package kernlog_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// A Markdown table of several columns (an issue's or a log viewer's
// layout) is read row by row when its first cell is a time stamp: the
// time, then the device's prefix or the program in the middle cells, then
// the message; each row a message of its own. A row whose first cell is
// no time (the header, the separator, a table of drives) is not read as
// one, and a failure-looking row that reads as no event is listed unread,
// never dropped.
func TestMarkdownTableColumns(t *testing.T) {
	const table = `| Time | Device | Message |
|------|--------|---------|
| 12.345678 | nvme nvme0 | controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10 |
| 12.445678 | nvme 0000:04:00.0 | Unable to change power state from D3cold to D0, device inaccessible |
| 12.545678 |  | I/O error, dev nvme0n1, sector 123456 op 0x0:(READ) flags 0x80700 phys_seg 1 prio class 2 |
| Dec 05 10:00:00 | kernel | nvme nvme1: Disabling device after reset failure: -19 |
| 2026-12-05T10:00:01+0000 | thinkpad | kernel | nvme nvme2: I/O 12 QID 0 timeout, reset controller |
| [   13.000000] | nvme nvme3: I/O 13 QID 0 timeout, reset controller |
| Dec 05 10:00:02 | smartd[912] | nvme nvme1: controller is down; will reset: CSTS=0x1, PCI_STATUS=0x10 |
| 14.000000 | err | nvme nvme4: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10 |

| Drive | State |
|-------|-------|
| nvme0 | controller is down |
`
	l, err := kernlog.ReadString(table, kernlog.Options{})
	require.NoError(t, err)
	type row struct {
		line       int
		kind       kernlog.Kind
		controller string
		mono       time.Duration
		wall       bool
	}
	var got []row
	for _, in := range l.Incidents {
		for _, e := range in.Events {
			got = append(got, row{e.Line, e.Kind, e.Controller, e.Time.Mono, e.Time.HasWall})
		}
	}
	assert.ElementsMatch(t, []row{
		{3, kernlog.ControllerDown, "nvme0", 12345678 * time.Microsecond, false},
		{4, kernlog.ResumeFailure, "nvme0", 12445678 * time.Microsecond, false},
		{5, kernlog.IOError, "nvme0", 12545678 * time.Microsecond, false},
		{6, kernlog.ResetFailure, "nvme1", 0, true},
		{7, kernlog.AdminTimeout, "nvme2", 0, true},
		{8, kernlog.AdminTimeout, "nvme3", 13 * time.Second, false},
	}, got)
	assert.Equal(t, int64(1), l.RelayedLines, "smartd's row")
	var unread []int
	for _, u := range l.Unread {
		unread = append(unread, u.Line)
	}
	assert.Equal(t, []int{10, 14}, unread, "a level's column, a table of drives: listed, not read")
}
