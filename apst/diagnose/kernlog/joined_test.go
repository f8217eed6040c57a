package kernlog_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// notJoinable are the shapes whose lines, joined, are not split: a
// record of many lines (JSON, journal export and verbose), a line number
// or file name before each line (grep, cat -n: the head is not the time's),
// markup or a table around each line, or no time at all.
var notJoinable = map[string]bool{
	"dmesg --json": true, "journalctl -k -o export": true, "journalctl -k -o json-pretty": true,
	"journalctl -k -o verbose": true, "journalctl -o json": true, "journalctl -o json-seq": true,
	"grep -Hn syslog, RFC 3339": true, "grep -n dmesg.txt": true, "cat -n": true, "grep over kern.log files": true,
	"Markdown bold": true, "BBCode": true, "BBCode font": true, "Markdown table row": true, "Markdown table, journal columns": true,
	"Markdown table, time and message": true, "Markdown table, time, device and message": true,
	"serial console with host times": true, "no time stamp": true,
	"Elasticsearch document": true, "elasticdump": true, "logcli --output jsonl": true, "Splunk export": true,
	"Fluent Bit kmsg": true, "GELF": true,
}

// A log whose line ends a copy lost (a web form, a chat client: every
// message on one line, a blank between; here quoted, with trailing
// blanks) reads to the same incidents, in every shape whose head (a time,
// a host and the kernel's tag) can tell where a message starts; a
// message holding bracketed numbers that are no time ("[ 0] RxErr") is not
// split.
func TestJoinedLines(t *testing.T) {
	n := 0
	for shape := range shapes {
		if notJoinable[shape] {
			continue
		}
		n++
		t.Run(shape, func(t *testing.T) {
			want, err := kernlog.ReadString(render(shape), kernlog.Options{})
			require.NoError(t, err)
			joined := "> " + strings.ReplaceAll(strings.TrimSpace(strings.ReplaceAll(render(shape), "\r", "")), "\n", " ") + "  \n"
			l, err := kernlog.ReadString(joined, kernlog.Options{})
			require.NoError(t, err)
			assert.Equal(t, int64(1), l.Lines)
			assert.Equal(t, summarize(want), summarize(l))
			assert.Empty(t, l.Unread)
			// The line ends written as "\n" (a JSON string or a script's
			// repr of the log, copied), the last one's too.
			escaped := strings.ReplaceAll(strings.ReplaceAll(render(shape), "\r", ""), "\n", `\n`) + "\n"
			l, err = kernlog.ReadString(escaped, kernlog.Options{})
			require.NoError(t, err)
			assert.Equal(t, summarize(want), summarize(l), "line ends written as \\n")
		})
	}
	assert.GreaterOrEqual(t, n, 45, "the shapes split")
	for _, tc := range []struct{ name, line string }{
		{"dmesg -d with AER's detail", "[  133.848529 <    0.000123>] pcieport 0001:00:00.0: AER:    [ 0] RxErr                  (First)"},
		{"a message's bracketed number", "[Tue Dec  1 10:00:00 2026] pcieport 0001:00:00.0: AER:    [ 0] RxErr                  (First)"},
		{"a time of day in a message", "Dec  1 10:00:00 thinkpad kernel: nvme nvme0: Abort status: 0x371 10:00:01 in the morning"},
	} {
		l, err := kernlog.ReadString(tc.line+"\n", kernlog.Options{})
		require.NoError(t, err, tc.name)
		assert.Empty(t, l.Unread, tc.name)
		for _, in := range l.Incidents {
			for _, e := range in.Events {
				assert.Equal(t, tc.line, e.Raw, "%s: the line whole", tc.name)
			}
		}
	}
	l, err := kernlog.ReadString("[  133.848529] pcieport 0001:00:00.0: AER:    [ 0] RxErr                  (First)\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Unread, "an AER report's detail, whole")
	const whole = "[   12.345678] nvme nvme0: I/O 9 QID 0 timeout, reset controller [   12345678] in brackets"
	l, err = kernlog.ReadString(whole+"\n", kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	assert.Equal(t, whole, l.Incidents[0].Events[0].Raw, "a bracketed number with no decimals is no time")
}

// A "\n" that is no line end (a message's own text, a JSON record's
// escaped MESSAGE) leaves its line whole.
func TestEscapedLineEndInMessage(t *testing.T) {
	for _, line := range []string{
		`[  100.123456] nvme nvme0: I/O 9 QID 0 timeout, reset controller \n then more`,
		`{"MESSAGE":"nvme nvme0: I/O 9 QID 0 timeout, reset controller\n[  100.2] x","_TRANSPORT":"kernel"}`,
	} {
		l, err := kernlog.ReadString(line+"\n", kernlog.Options{})
		require.NoError(t, err, line)
		require.Len(t, l.Incidents, 1, line)
		require.Len(t, l.Incidents[0].Events, 1, line)
		assert.Equal(t, 1, l.Incidents[0].Events[0].Line, line)
	}
}
