package kernlog_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// reversed is text with its lines in the reverse order (tac).
func reversed(text string) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for i, j := 0, len(lines)-1; i < j; i, j = i+1, j-1 {
		lines[i], lines[j] = lines[j], lines[i]
	}
	return strings.Join(lines, "\n") + "\n"
}

// A log whose lines run newest first (journalctl -r, an export sorted by
// time, descending) reads to the incidents of the same log oldest first,
// each line numbered from the log's end, as its reversal (tac) numbers
// it; Log.NewestFirst says so.
func TestNewestFirst(t *testing.T) {
	for _, shape := range []string{"journalctl -k", "dmesg -T", "Elasticsearch document", "Splunk export", "Kibana Discover, copied", "dmesg"} {
		t.Run(shape, func(t *testing.T) {
			forward := render(shape)
			want, err := kernlog.ReadString(forward, kernlog.Options{})
			require.NoError(t, err)
			require.False(t, want.NewestFirst)
			l, err := kernlog.ReadString(reversed(forward), kernlog.Options{})
			require.NoError(t, err)
			assert.True(t, l.NewestFirst)
			assert.Equal(t, summarize(want), summarize(l))
			assert.Zero(t, l.Backwards)
			assert.Equal(t, want.Lines, l.Lines)
			lines := strings.Split(forward, "\n")
			for _, in := range l.Incidents {
				for _, e := range in.Events {
					// Line k of the reversed log is line n+1-k of the file.
					assert.Equal(t, strings.TrimSuffix(lines[e.Line-1], "\r"), e.Raw, "line %d", e.Line)
				}
			}
			assert.Equal(t, eventLines(want), eventLines(l), "the lines of the log oldest first")
		})
	}
	t.Run("a CSV export, its header first", func(t *testing.T) {
		x := csvExports["Kibana CSV report"]
		var rows []string
		for _, l := range failure {
			rows = append(rows, x.row(l.mono, l.msg))
		}
		asc := x.header + "\n" + strings.Join(rows, "\n") + "\n"
		desc := x.header + "\n" + reversed(strings.Join(rows, "\n"))
		want, err := kernlog.ReadString(asc, kernlog.Options{})
		require.NoError(t, err)
		l, err := kernlog.ReadString(desc, kernlog.Options{})
		require.NoError(t, err)
		assert.True(t, l.NewestFirst)
		assert.Equal(t, summarize(want), summarize(l))
		// The header is the file's line 1, the reversed log's last.
		first := l.Incidents[0].Events[0]
		assert.Equal(t, strings.Split(desc, "\n")[len(failure)+1-first.Line], first.Raw)
	})
}

// eventLines are the lines of a log's events, as each quotes its line.
func eventLines(l *kernlog.Log) []string {
	var out []string
	for _, in := range l.Incidents {
		for _, e := range in.Events {
			out = append(out, e.Raw)
		}
	}
	return out
}

// A log that runs forward with a few lines out of order (a merge of two
// sources, a console's late line) is read as it comes, its steps back
// counted.
func TestForwardWithLinesOutOfOrder(t *testing.T) {
	var b strings.Builder
	for i := range 20 {
		d := time.Duration(i) * time.Second
		if i == 7 || i == 13 {
			d -= 1500 * time.Millisecond
		}
		b.WriteString(shapes["journalctl -k"](d, "nvme nvme0: I/O 12 QID 3 timeout, aborting") + "\n")
	}
	l, err := kernlog.ReadString(b.String(), kernlog.Options{})
	require.NoError(t, err)
	assert.False(t, l.NewestFirst)
	assert.Equal(t, int64(2), l.Backwards)
}

// Any part of the canonical failure, newest first, reads to the incidents
// it has oldest first, when it is read reversed.
func TestRapidNewestFirst(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		shape := rapid.SampledFrom([]string{"journalctl -k", "Elasticsearch document", "Kibana Discover, copied"}).Draw(t, "shape")
		var b strings.Builder
		for _, l := range failure {
			if rapid.Bool().Draw(t, "keep") {
				b.WriteString(shapes[shape](l.mono, l.msg) + "\n")
			}
		}
		if b.Len() == 0 {
			return
		}
		want, err := kernlog.ReadString(b.String(), kernlog.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := kernlog.ReadString(reversed(b.String()), kernlog.Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkLog(t, got)
		if got.NewestFirst && !equalSummaries(summarize(want), summarize(got)) {
			t.Fatalf("newest first:\nwant %+v\ngot  %+v", summarize(want), summarize(got))
		}
	})
}

// One step back among times that otherwise keep still (an export of whole
// seconds, newest first) is read newest first; one step back alone, or of
// less than a second, is a line out of order.
func TestNewestFirstOneStepBack(t *testing.T) {
	row := func(s, msg string) string { return "Dec  5 04:55:" + s + " web1 kernel: " + msg + "\n" }
	down := "nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10"
	d3 := "nvme 0000:04:00.0: Unable to change power state from D3cold to D0, device inaccessible"
	pci := "nvme nvme0: pci function 0000:04:00.0"
	l, err := kernlog.ReadString(row("59", d3)+row("59", down)+row("30", pci), kernlog.Options{})
	require.NoError(t, err)
	assert.True(t, l.NewestFirst)
	l, err = kernlog.ReadString(row("59", down)+row("30", d3), kernlog.Options{})
	require.NoError(t, err)
	assert.False(t, l.NewestFirst, "one step back alone")
	l, err = kernlog.ReadString("[  100.000200] "+d3+"\n[  100.000200] "+down+"\n[  100.000100] "+pci+"\n", kernlog.Options{})
	require.NoError(t, err)
	assert.False(t, l.NewestFirst, "microseconds back")
}
