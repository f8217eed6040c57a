package kernlog_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// A log whose line ends a copy lost (a web form, a chat client: every
// message on one line, a blank between; here quoted, with trailing
// blanks) reads to the same incidents, in
// the three shapes whose time stamp can tell where a message starts; a
// message holding bracketed numbers that are no time ("[ 0] RxErr") is not
// split.
func TestJoinedLines(t *testing.T) {
	for _, shape := range []string{"dmesg", "journalctl -k", "rsyslog RFC 3339", "syslog"} {
		t.Run(shape, func(t *testing.T) {
			want, err := kernlog.ReadString(render(shape), kernlog.Options{})
			require.NoError(t, err)
			joined := "> " + strings.ReplaceAll(strings.TrimSpace(strings.ReplaceAll(render(shape), "\r", "")), "\n", " ") + "  \n"
			l, err := kernlog.ReadString(joined, kernlog.Options{})
			require.NoError(t, err)
			assert.Equal(t, int64(1), l.Lines)
			assert.Equal(t, summarize(want), summarize(l))
			assert.Empty(t, l.Unread)
		})
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
