package kernlog_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// twoHosts is a syslog server's file: two machines' kernel lines, each
// with its own nvme0, and another program's line.
const twoHosts = "Dec  5 04:55:59 node1 kernel: nvme nvme0: I/O 12 QID 3 timeout, aborting\n" +
	"Dec  5 04:56:29 node1 kernel: nvme nvme0: I/O 12 QID 3 timeout, reset controller\n" +
	"Dec  5 04:56:30 node2 kernel: nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n" +
	"Dec  5 04:56:30 node3 smartd[912]: Device: /dev/nvme0, I/O tag 1 QID 1 timeout, aborting\n" +
	"Dec  5 04:56:30 node2 kernel: nvme nvme0: Removing after probe failure status: -19\n" +
	"Dec  5 04:56:31 node1 kernel: nvme nvme0: 8/0/0 default/read/poll queues\n"

// The hosts a log's kernel lines name are listed, in the order they first
// come, in every shape that names one; a line of another program names
// none, nor does a log without hosts.
func TestHosts(t *testing.T) {
	for _, tc := range []struct {
		name, log string
		hosts     []string
	}{
		{"a syslog server's file", twoHosts, []string{"node1", "node2"}},
		{"journalctl -k, one host", "Dec 05 04:55:59 thinkpad kernel: nvme nvme0: I/O 12 QID 3 timeout, aborting\n", []string{"thinkpad"}},
		{"BusyBox syslogd's facility", "Dec  5 04:55:59 router kern.err kernel: nvme nvme0: I/O 12 QID 3 timeout, aborting\n", []string{"router"}},
		{"an ISO time (a Synology)", "2024-05-01T12:00:00+08:00 DS920 kernel: [  100.1] nvme nvme0: I/O 12 QID 3 timeout, aborting\n", []string{"DS920"}},
		{"Loki logcli, two hosts", `2026-12-05T04:55:59Z {host="node3", unit="kernel"} nvme nvme0: I/O 12 QID 3 timeout, aborting` + "\n" +
			`2026-12-05T04:56:59Z {unit="kernel", hostname="node4"} nvme nvme0: I/O 12 QID 3 timeout, aborting` + "\n", []string{"node3", "node4"}},
		{"Loki logcli, a label that only ends in host", `2026-12-05T04:55:59Z {vhost="x", unit="kernel"} nvme nvme0: I/O 12 QID 3 timeout, aborting` + "\n", nil},
		{"RFC 5424", "<14>1 2024-05-01T12:00:00.123456+02:00 myhost kernel - - - nvme nvme0: I/O 12 QID 3 timeout, aborting\n", []string{"myhost"}},
		{"journalctl -k -o short-monotonic", "[  100.123456] thinkpad kernel: nvme nvme0: I/O 12 QID 3 timeout, aborting\n", []string{"thinkpad"}},
		{"journalctl -o json of a journal gathered from two machines", `{"MESSAGE":"nvme nvme0: I/O 12 QID 3 timeout, aborting","_HOSTNAME":"node1","_TRANSPORT":"kernel"}` + "\n" +
			`{"MESSAGE":"nvme nvme0: I/O 12 QID 3 timeout, aborting","_HOSTNAME":"node2","_TRANSPORT":"kernel"}` + "\n", []string{"node1", "node2"}},
		{"journalctl -o export", "__CURSOR=s=1\n_TRANSPORT=kernel\n_HOSTNAME=node5\nMESSAGE=nvme nvme0: I/O 12 QID 3 timeout, aborting\n\n", []string{"node5"}},
		{"dmesg", "[  100.1] nvme nvme0: I/O 12 QID 3 timeout, aborting\n", nil},
		{"ChromeOS's severity where the host would be", "2025-03-14T03:22:41.112232+01:00 WARNING kernel: [ 3901.112233] nvme nvme0: I/O 12 QID 3 timeout, aborting\n" +
			"2025-03-14T03:22:42.112232+01:00 ERR kernel: [ 3902.112233] nvme nvme0: I/O 12 QID 3 timeout, reset controller\n", nil},
		{"a bare kernel tag", "Dec  5 04:55:59 kernel: nvme nvme0: I/O 12 QID 3 timeout, aborting\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tc.log, kernlog.Options{})
			require.NoError(t, err)
			assert.Equal(t, tc.hosts, l.Hosts)
			assert.Zero(t, l.OtherHostLines)
		})
	}
}

// Options.Host reads one machine's lines: node2's nvme0 alone, node1's
// lines counted as left out; its name is compared without regard to case,
// and a name no syslog line could hold is refused.
func TestOptionsHost(t *testing.T) {
	all, err := kernlog.ReadString(twoHosts, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, all.Incidents, 1)
	assert.Len(t, all.Incidents[0].Events, 4, "both machines' nvme0 read as one")

	for _, h := range []string{"node2", "NODE2"} {
		l, err := kernlog.ReadString(twoHosts, kernlog.Options{Host: h})
		require.NoError(t, err)
		require.Len(t, l.Incidents, 1)
		var lines []int
		for _, e := range l.Incidents[0].Events {
			lines = append(lines, e.Line)
		}
		assert.Equal(t, []int{3, 5}, lines)
		assert.Equal(t, int64(3), l.OtherHostLines)
		assert.Equal(t, []string{"node1", "node2"}, l.Hosts, "every host is still listed")
	}
	_, err = kernlog.ReadString(twoHosts, kernlog.Options{Host: "node9"})
	require.ErrorIs(t, err, kernlog.ErrNoSuchHost)
	assert.EqualError(t, err, `kernlog: no line of that host: Host "node9", but the log's NVMe and PCIe lines name "node1", "node2"`)
	_, err = kernlog.ReadString("[  100.1] nvme nvme0: I/O 12 QID 3 timeout, aborting\n", kernlog.Options{Host: "node2"})
	require.ErrorIs(t, err, kernlog.ErrNoSuchHost, "dmesg's lines name no host")
	_, err = kernlog.ReadString("Dec  5 04:56:30 node3 smartd[912]: Device: /dev/nvme0, I/O tag 1 QID 1 timeout, aborting\n", kernlog.Options{Host: "node3"})
	require.ErrorIs(t, err, kernlog.ErrNoSuchHost, "another program's line is no kernel line of the host")

	for _, bad := range []string{"node 2", "node2\n", "a/b", "\x1b[31m"} {
		_, err := kernlog.ReadString(twoHosts, kernlog.Options{Host: bad})
		require.ErrorIs(t, err, kernlog.ErrInvalidOptions, "%q", bad)
	}
}

// Log.Hosts names the first MaxHosts hosts; MoreHosts says that lines of
// further hosts came, which a log of exactly MaxHosts does not.
func TestMoreHosts(t *testing.T) {
	lines := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "Dec  5 04:55:59 n%02d kernel: nvme nvme0: I/O 12 QID 3 timeout, aborting\n", i)
		}
		return b.String()
	}
	l, err := kernlog.ReadString(lines(kernlog.MaxHosts), kernlog.Options{})
	require.NoError(t, err)
	assert.Len(t, l.Hosts, kernlog.MaxHosts)
	assert.False(t, l.MoreHosts)
	l, err = kernlog.ReadString(lines(kernlog.MaxHosts+1)+lines(1), kernlog.Options{})
	require.NoError(t, err)
	assert.Len(t, l.Hosts, kernlog.MaxHosts)
	assert.Equal(t, "n15", l.Hosts[kernlog.MaxHosts-1])
	assert.True(t, l.MoreHosts)
}
