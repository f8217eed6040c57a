package kernlog_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// A log shipper's record is read for its message, time, host and program:
// the times as the record gives them (RFC 3339 with its offset, seconds
// since 1970 or their thousandths, millionths and billionths, Fluent
// Bit's seconds since boot), the host from whichever field names it, and
// a bare message of another program kept as relayed, not the kernel's.
func TestShipperRecords(t *testing.T) {
	const timeout = "nvme nvme0: I/O 12 QID 3 timeout, aborting"
	at := time.Date(2024, 12, 5, 4, 55, 59, 123000000, time.UTC)
	for _, tc := range []struct {
		name, rec string
		wall      time.Time
		mono      time.Duration
		host      string
	}{
		{"ECS document", `{"@timestamp":"2024-12-05T04:55:59.123Z","host":{"name":"web1"},"message":"` + timeout + `"}`, at, -1, "web1"},
		{"ECS, host.name flattened, an offset", `{"@timestamp":"2024-12-05T05:55:59.123+01:00","host.name":"web1","message":"` + timeout + `"}`, at, -1, "web1"},
		{"elasticdump", `{"_index":"i","_source":{"@timestamp":"2024-12-05T04:55:59.123Z","message":"` + timeout + `","host":{"hostname":"web1"}}}`, at, -1, "web1"},
		{"Loki jsonl, the line's own syslog time", `{"labels":{"job":"x","nodename":"web1"},"line":"Dec  5 04:55:59 web1 kernel: [  812.5] ` + timeout + `","timestamp":"2024-12-05T04:55:59.123Z"}`, at, 812500 * time.Millisecond, "web1"},
		{"Splunk", `{"preview":false,"result":{"_raw":"Dec  5 04:55:59 web1 kernel: ` + timeout + `","_time":"2024-12-05T04:55:59.123+00:00","host":"web1"}}`, at, -1, "web1"},
		{"Fluent Bit kmsg", `{"date":1733374559.123,"priority":3,"sec":812,"usec":500000,"msg":"` + timeout + `"}`, at, 812500 * time.Millisecond, ""},
		{"GELF", `{"version":"1.1","host":"web1","short_message":"` + timeout + `","timestamp":1733374559.123}`, at, -1, "web1"},
		{"milliseconds", `{"time":1733374559123,"log":"` + timeout + `"}`, at, -1, ""},
		{"microseconds in a string", `{"time":"1733374559123000","log":"` + timeout + `"}`, at, -1, ""},
		{"nanoseconds", `{"time":1733374559123000000,"log":"` + timeout + `"}`, at, -1, ""},
		{"a time without its offset", `{"@timestamp":"2024-12-05T04:55:59.123","message":"` + timeout + `"}`, at, -1, ""},
		{"Papertrail", `{"id":"1","program":"kernel","message":"` + timeout + `","received_at":"2024-12-05T04:56:00+00:00","generated_at":"2024-12-05T04:55:59.123+00:00","source_name":"web1","hostname":"web1"}`, at, -1, "web1"},
		{"Google Cloud Logging, textPayload", `{"insertId":"x","textPayload":"` + timeout + `","labels":{"compute.googleapis.com/resource_name":"web-1"},"timestamp":"2024-12-05T04:55:59.123Z"}`, at, -1, "web-1"},
		{"Google Cloud Logging, jsonPayload", `{"insertId":"x","jsonPayload":{"message":"` + timeout + `"},"timestamp":"2024-12-05T04:55:59.123Z"}`, at, -1, ""},
		{"CloudWatch Logs, an event a line", `{"logStreamName":"i-0a1b2c3d4e5f60718","timestamp":1733374559123,"message":"` + timeout + `","ingestionTime":1733374560000}`, at, -1, "i-0a1b2c3d4e5f60718"},
		{"a number of another size is no time", `{"time":17333745,"message":"` + timeout + `"}`, time.Time{}, -1, ""},
		{"the kernel as the process", `{"process":{"name":"kernel"},"message":"` + timeout + `"}`, time.Time{}, -1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tc.rec+"\n", kernlog.Options{})
			require.NoError(t, err)
			require.Len(t, l.Incidents, 1)
			e := l.Incidents[0].Events[0]
			assert.Equal(t, kernlog.IOTimeout, e.Kind)
			assert.Equal(t, tc.rec, e.Raw, "the line as it appears")
			assert.Equal(t, !tc.wall.IsZero(), e.Time.HasWall)
			if e.Time.HasWall {
				assert.Equal(t, tc.wall, e.Time.Wall)
				assert.False(t, e.Time.NoYear || e.Time.NoDate, "the record's time is whole")
				assert.Equal(t, strings.Contains(tc.name, "without its offset"), e.Time.NoZone)
			}
			assert.Equal(t, tc.mono >= 0, e.Time.HasMono)
			if tc.mono >= 0 {
				assert.Equal(t, tc.mono, e.Time.Mono)
			}
			if tc.host == "" {
				assert.Empty(t, l.Hosts)
			} else {
				assert.Equal(t, []string{tc.host}, l.Hosts)
			}
		})
	}
}

// A shipper's record that is not the kernel's is not read as the kernel's
// line: another program's bare message is relayed (a monitor's repeat of
// the kernel's failure), a syslog line of another program in it is that
// program's, and a record nested twice is not looked into.
func TestShipperRecordsNotKernel(t *testing.T) {
	const down = "nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10"
	for _, tc := range []struct {
		name, rec, program string
	}{
		{"ECS, another process", `{"process":{"name":"smartd"},"message":"` + down + `"}`, "smartd"},
		{"rsyslog's programname", `{"programname":"nvme-monitor","msg":"` + down + `"}`, "nvme-monitor"},
		{"a syslog line of another program", `{"_raw":"Dec  5 04:55:59 web1 smartd[912]: ` + down + `"}`, "smartd"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.ReadString("[    1.0] nvme nvme0: pci function 0000:01:00.0\n"+tc.rec+"\n", kernlog.Options{})
			require.NoError(t, err)
			assert.Empty(t, l.Incidents)
			require.Len(t, l.Relayed, 1)
			assert.Equal(t, tc.program, l.Relayed[0].Program)
			assert.Equal(t, 2, l.Relayed[0].Line)
		})
	}
	for _, tc := range []struct{ name, rec string }{
		{"nested twice", `{"result":{"_source":{"message":"` + down + `"}}}`},
		{"a message that is JSON", `{"message":"{\"message\":\"` + down + `\"}"}`},
		{"no message field", `{"text":"` + down + `"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.ReadString("[    1.0] nvme nvme0: pci function 0000:01:00.0\n"+tc.rec+"\n", kernlog.Options{})
			require.NoError(t, err)
			assert.Empty(t, l.Incidents)
		})
	}
}

// A quoted-printable mail may break a shipper's record just before the
// syslog line it holds ("...\"job\":\"varlogs\"=" + "},\"line\":\"Dec  1
// 09:01:01 thinkpad kernel: ..."): the "=" that ends a JSON record's start
// is a soft break, though the next line starts with a time stamp.
func TestShipperRecordSoftBreakBeforeStamp(t *testing.T) {
	const msg = "I/O error, dev nvme0n1, sector 123456 op 0x0:(READ) flags 0x80700 phys_seg 1 prio class 2"
	enc := qpEncode(shapes["logcli --output jsonl"](61400*time.Millisecond, msg) + "\n")
	require.Contains(t, enc, "\"varlogs\"=\r\n},\"line\":\"Dec  1 ", "the encoder breaks the record before its line")
	l, err := kernlog.ReadString(enc, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	assert.Equal(t, msg, l.Incidents[0].Events[0].Text)
	assert.Equal(t, 1, l.Incidents[0].Events[0].Line)
}

// A shipper's export of a healthy machine is a kernel log with no failure
// in it, when its records are the kernel's (its program, or "kernel:" in
// its syslog line); an application's JSON log is none.
func TestShipperRecordsNoFailure(t *testing.T) {
	for _, rec := range []string{
		`{"@timestamp":"2024-12-05T04:55:59.123Z","process":{"name":"kernel"},"message":"usb 1-1: new high-speed USB device number 2 using xhci_hcd"}`,
		`{"labels":{"host":"node1"},"line":"Dec  5 04:55:59 node1 kernel: usb 1-1: new high-speed USB device number 2 using xhci_hcd","timestamp":"2024-12-05T04:55:59.123Z"}`,
		`{"insertId":"x","textPayload":"Dec  5 04:55:59 web-1 kernel: usb 1-1: new high-speed USB device number 2 using xhci_hcd","timestamp":"2024-12-05T04:55:59.123Z"}`,
	} {
		l, err := kernlog.ReadString(rec+"\n"+rec+"\n", kernlog.Options{})
		require.NoError(t, err, rec)
		assert.Empty(t, l.Incidents)
		assert.Equal(t, int64(2), l.Lines)
	}
	for _, rec := range []string{
		`{"level":"info","msg":"listening on :8080","time":"2024-12-05T04:55:59Z"}`,
		`{"@timestamp":"2024-12-05T04:55:59.123Z","message":"GET /index.html 200"}`,
	} {
		_, err := kernlog.ReadString(rec+"\n", kernlog.Options{})
		require.ErrorIs(t, err, kernlog.ErrNotKernelLog, rec)
	}
}

// aws logs tail prints CloudWatch's events with the log stream's name
// (an instance's) between the time and the message, which may be a whole
// syslog line; --format short drops the name. talosctl dmesg of several
// nodes names each line's node first, by name or address. Each reads to
// its event, the stream or node its host.
func TestStreamAndNodeBeforeMessage(t *testing.T) {
	const down = "nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10"
	const d3 = "nvme 0000:04:00.0: Unable to change power state from D3cold to D0, device inaccessible"
	for _, tc := range []struct {
		name, log, host string
	}{
		{"aws logs tail", "2024-12-05T04:55:52.123000+00:00 i-0a1b2c3d4e5f60718 " + down + "\n" +
			"2024-12-05T04:55:53.310000+00:00 i-0a1b2c3d4e5f60718 " + d3 + "\n", "i-0a1b2c3d4e5f60718"},
		{"aws logs tail, a syslog line", "2024-12-05T04:55:52.123000+00:00 i-0a1b2c3d4e5f60718 Dec  5 04:55:52 ip-10-0-1-23 kernel: " + down + "\n" +
			"2024-12-05T04:55:53.310000+00:00 i-0a1b2c3d4e5f60718 Dec  5 04:55:53 ip-10-0-1-23 kernel: " + d3 + "\n", "i-0a1b2c3d4e5f60718"},
		{"aws logs tail --format short, a syslog line", "2024-12-05T04:55:52 Dec  5 04:55:52 ip-10-0-1-23 kernel: " + down + "\n" +
			"2024-12-05T04:55:53 Dec  5 04:55:53 ip-10-0-1-23 kernel: " + d3 + "\n", "ip-10-0-1-23"},
		{"talosctl dmesg, a node's address", "172.20.1.2: kern:     err: [2024-12-05T04:55:52.123000000Z]: " + down + "\n" +
			"172.20.1.2: kern:     err: [2024-12-05T04:55:53.310000000Z]: " + d3 + "\n", "172.20.1.2"},
		{"talosctl dmesg, a node's name", "k8s-3: kern:     err: [2024-12-05T04:55:52.123000000Z]: " + down + "\n" +
			"k8s-3: kern:     err: [2024-12-05T04:55:53.310000000Z]: " + d3 + "\n", "k8s-3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tc.log, kernlog.Options{})
			require.NoError(t, err)
			require.Len(t, l.Incidents, 1)
			in := l.Incidents[0]
			assert.Equal(t, "nvme0", in.Controller)
			assert.Equal(t, map[kernlog.Kind]int{kernlog.ControllerDown: 1, kernlog.ResumeFailure: 1}, in.Counts)
			assert.True(t, in.Start.HasWall)
			assert.Equal(t, 2024, in.Start.Wall.Year())
			assert.Equal(t, []string{tc.host}, l.Hosts)
			assert.Empty(t, l.Unread)
		})
	}
}

// A date whose month is named and whose year is given is kept, in any
// order ("Mar 14 2025", GNOME Logs' export of an earlier year's line;
// "2025 Mar 14"); one of numbers alone, whose month is not known, is left
// out.
func TestDatedClockWithNamedMonth(t *testing.T) {
	const msg = " kernel: nvme nvme0: I/O 12 QID 3 timeout, aborting\n"
	for _, tc := range []struct {
		stamp  string
		noDate bool
	}{
		{"Mar 14 2025 03:22:41", false},
		{"2025 Mar 14 03:22:41", false},
		{"Fri, 14 Mar 2025 03:22:41", false},
		{"03/14/2025 03:22:41", true},
		{"14.03.2025 03:22:41", true},
	} {
		l, err := kernlog.ReadString(tc.stamp+msg, kernlog.Options{})
		require.NoError(t, err, tc.stamp)
		require.Len(t, l.Incidents, 1, tc.stamp)
		ts := l.Incidents[0].Start
		assert.True(t, ts.HasWall, tc.stamp)
		assert.Equal(t, tc.noDate, ts.NoDate, tc.stamp)
		if !tc.noDate {
			assert.Equal(t, time.Date(2025, 3, 14, 3, 22, 41, 0, time.UTC), ts.Wall, tc.stamp)
			assert.True(t, ts.NoZone, tc.stamp)
		}
	}
}

// A chat's clock and nick before a pasted kernel line (an IRC client's
// log) leave the line's own dmesg time and device: the PCI core's line
// joins the controller's incident as it does without them.
func TestChatClockBeforeKernelLine(t *testing.T) {
	for _, head := range []string{"10:14:02 tuxfan: ", "[10:14:02] <tuxfan> ", "10:14:02      tuxfan | ", "2024-05-20 10:14:02\ttuxfan\t"} {
		log := head + "[ 3901.112233] nvme nvme0: pci function 0000:04:00.0\n" +
			head + "[ 3950.200001] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n" +
			head + "[ 3950.300000] nvme 0000:04:00.0: Unable to change power state from D3cold to D0, device inaccessible\n"
		l, err := kernlog.ReadString(log, kernlog.Options{})
		require.NoError(t, err, head)
		require.Len(t, l.Incidents, 1, head)
		assert.Equal(t, map[kernlog.Kind]int{kernlog.ControllerDown: 1, kernlog.ResumeFailure: 1}, l.Incidents[0].Counts, head)
		assert.Equal(t, 3950200001*time.Microsecond, l.Incidents[0].Start.Mono, head)
	}
}

// A failure the PCI core or the nvme driver prints with its device, read
// without it though its line names one (after a prefix no reader knows:
// an asciinema recording's event), is a line that could not be read, not
// a failure of no device; a placeholder's address ("0000:XX:00.0", a
// guide's template) and a name without its number ("nvme nvme:") stay
// the failure they were.
func TestDevicelessFailureNamingADevice(t *testing.T) {
	l, err := kernlog.ReadString(`{"version": 2, "width": 120, "height": 30}`+"\n"+
		`[2.9012, "o", "\u001b[32m[Fri Mar 14 03:22:41 2025]\u001b[0m nvme 0000:04:00.0: Unable to change power state from D3cold to D0, device inaccessible\r\n"]`+"\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Incidents)
	require.Len(t, l.Unread, 1)
	assert.Equal(t, 2, l.Unread[0].Line)
	for _, line := range []string{
		"nvme 0000:XX:00.0: Unable to change power state from D3cold to D0, device inaccessible",
		"nvme nvme: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10",
	} {
		l, err := kernlog.ReadString(line+"\n", kernlog.Options{})
		require.NoError(t, err, line)
		assert.Len(t, l.Incidents, 1, line)
		assert.Empty(t, l.Unread, line)
	}
}
