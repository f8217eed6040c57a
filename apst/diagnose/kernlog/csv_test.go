package kernlog_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// csvQuote quotes a cell as Kibana and Splunk write every text cell.
func csvQuote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// csvExports are log stores' CSV exports of a kernel log: Kibana's CSV
// report of a Discover search (the header its columns' names, quoted when
// they hold more than letters; the time in Kibana's default format, in
// the browser's zone) and Splunk's export of a search's events (the raw
// syslog line in _raw), each with its header and a row renderer.
var csvExports = map[string]struct {
	header string
	row    func(d time.Duration, msg string) string
}{
	"Kibana CSV report": {`"@timestamp",message,"host.name","process.name"`, func(d time.Duration, msg string) string {
		return csvQuote(bootWall.Add(d).Format("Jan 2, 2006 @ 15:04:05.000")) + "," + csvQuote(msg) + ",thinkpad,kernel"
	}},
	"Splunk CSV export": {`"_time","host","source","_raw"`, func(d time.Duration, msg string) string {
		return csvQuote(bootWall.Add(d).Format("2006-01-02T15:04:05.000-0700")) + `,"thinkpad","/var/log/kern.log",` +
			csvQuote(bootWall.Add(d).Format("Jan _2 15:04:05")+" thinkpad kernel: "+msg)
	}},
}

// Every CSV export of the canonical failure reads to the incidents its
// dmesg does, each event quoting its row, with the export's times and
// host; another program's row is relayed, not read as the kernel's.
func TestCSVExports(t *testing.T) {
	ref, err := kernlog.ReadString(render("dmesg"), kernlog.Options{})
	require.NoError(t, err)
	for name, x := range csvExports {
		t.Run(name, func(t *testing.T) {
			var b strings.Builder
			b.WriteString(x.header + "\r\n")
			var rows []string
			for i, l := range failure {
				if i%3 == 0 {
					b.WriteString(x.row(l.mono, "usb 1-1: new high-speed USB device number 2 using xhci_hcd") + "\r\n")
				}
				row := x.row(l.mono, l.msg)
				rows = append(rows, row)
				b.WriteString(row + "\r\n")
			}
			l, err := kernlog.ReadString(b.String(), kernlog.Options{})
			require.NoError(t, err)
			assert.Equal(t, summarize(ref), summarize(l))
			assert.Equal(t, ref.Release, l.Release)
			assert.Equal(t, []string{"thinkpad"}, l.Hosts)
			assert.Zero(t, l.Backwards)
			e := l.Incidents[0].Events[0]
			assert.Contains(t, rows, e.Raw, "an event quotes its row")
			assert.True(t, e.Time.HasWall)
			assert.Equal(t, name == "Kibana CSV report", e.Time.NoZone, "Kibana's time does not say its zone")
			assert.False(t, e.Time.NoYear)
		})
	}
}

// A CSV export's header is told by its columns' names; a row's cells may
// hold commas and doubled quotes, in any order of columns; another
// program's row is relayed; an export of no kernel lines is no kernel log.
func TestCSVExportRows(t *testing.T) {
	const down = "nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10"
	for _, tc := range []struct {
		name, log string
		events    int
		relayed   string
		host      string
	}{
		{"a header escaped as a formula would be", `"'@timestamp",message` + "\n" + `"Dec 5, 2024 @ 04:55:59.123",` + csvQuote(down) + "\n", 1, "", ""},
		{"unquoted header, message first", "message,@timestamp\n" + csvQuote(down) + ",2024-12-05T04:55:59.123Z\n", 1, "", ""},
		{"a doubled quote in a cell", "_time,_raw\n2024-12-05T04:55:59Z," + csvQuote(`Dec  5 04:55:59 web1 kernel: nvme nvme0: Try "nvme_core.default_ps_max_latency_us=0 pcie_aspm=off" and report a bug`) + "\n", 1, "", "web1"},
		{"extra columns", `"@timestamp","agent.name","message","host.hostname","log.offset"` + "\n" + `"Dec 5, 2024 @ 04:55:59.123","fb, 8.15",` + csvQuote(down) + ",node2,1234\n", 1, "", "node2"},
		{"Azure Monitor's Syslog table, from the portal", "TimeGenerated [UTC],Computer,Facility,SeverityLevel,ProcessName,SyslogMessage\n" + `"12/5/2024, 4:55:59.123 PM",vm-web-01,kern,err,kernel,` + csvQuote(down) + "\n", 1, "", "vm-web-01"},
		{"CloudWatch Logs Insights", "@timestamp,@message,@logStream,@log\n" + `2024-12-05 04:55:59.123,` + csvQuote(down) + ",i-0a1b2c3d4e5f60718,123456789012:/ec2/kmsg\n", 1, "", "i-0a1b2c3d4e5f60718"},
		{"another program's row", `"@timestamp",message,"process.name"` + "\n" + `"Dec 5, 2024 @ 04:55:59.123",` + csvQuote(down) + ",smartd\n", 0, "smartd", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tc.log, kernlog.Options{})
			require.NoError(t, err)
			assert.Equal(t, int64(tc.events), l.Events)
			if tc.relayed != "" {
				require.Len(t, l.Relayed, 1)
				assert.Equal(t, tc.relayed, l.Relayed[0].Program)
			}
			if tc.host != "" {
				assert.Equal(t, []string{tc.host}, l.Hosts)
			}
		})
	}
	for _, text := range []string{
		"message,level\n\"listening on :8080\",info\n", // an application's export
		"time,value\n12,3\n",
	} {
		_, err := kernlog.ReadString(text, kernlog.Options{})
		assert.ErrorIs(t, err, kernlog.ErrNotKernelLog, text)
	}
	// A first line with a comma that is no header is read as a line.
	l, err := kernlog.ReadString(fmt.Sprintf("[    1.0] pci 0000:04:00.0: [144d:a80c] type 00, class 0x010802\n[    2.0] %s\n", down), kernlog.Options{})
	require.NoError(t, err)
	assert.Equal(t, int64(1), l.Events)
}

// Azure's portal writes a row's time as its locale does, US English's
// "12/5/2024, 4:55:59.123 PM", and says in the header that it is UTC;
// CloudWatch Logs Insights writes an ISO time without its zone.
func TestCSVExportTimes(t *testing.T) {
	const down = "nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10"
	for _, tc := range []struct {
		name, log string
		wall      time.Time
		noZone    bool
	}{
		{"Azure, PM, UTC", "TimeGenerated [UTC],SyslogMessage\n\"12/5/2024, 4:55:59.123 PM\"," + csvQuote(down) + "\n", time.Date(2024, 12, 5, 16, 55, 59, 123e6, time.UTC), false},
		{"Azure, 12 AM is midnight", "TimeGenerated,SyslogMessage\n\"12/5/2024, 12:05:59 AM\"," + csvQuote(down) + "\n", time.Date(2024, 12, 5, 0, 5, 59, 0, time.UTC), true},
		{"Azure, 12 PM is noon", "TimeGenerated,SyslogMessage\n\"12/5/2024, 12:05:59 PM\"," + csvQuote(down) + "\n", time.Date(2024, 12, 5, 12, 5, 59, 0, time.UTC), true},
		{"CloudWatch Logs Insights", "@timestamp,@message\n2024-12-05 04:55:59.123," + csvQuote(down) + "\n", time.Date(2024, 12, 5, 4, 55, 59, 123e6, time.UTC), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tc.log, kernlog.Options{})
			require.NoError(t, err)
			require.Len(t, l.Incidents, 1)
			ts := l.Incidents[0].Events[0].Time
			assert.True(t, ts.HasWall)
			assert.Equal(t, tc.wall, ts.Wall)
			assert.Equal(t, tc.noZone, ts.NoZone)
		})
	}
	for _, bad := range []string{"13/5/2024, 4:55:59 AM", "12/5/2024, 13:55:59 PM", "12/5/24, 4:55:59 AM", "12/5/2024 4:55:59 AM"} {
		l, err := kernlog.ReadString("TimeGenerated,SyslogMessage\n\""+bad+"\","+csvQuote(down)+"\n", kernlog.Options{})
		require.NoError(t, err)
		require.Len(t, l.Incidents, 1, bad)
		assert.False(t, l.Incidents[0].Events[0].Time.HasWall, bad)
	}
}

// Synology's Log Center exports a title line, then "Level,Log,Time,User,
// Event", the message in Event and the time year first, newest first and
// to the second: the rows read as the log oldest first.
func TestCSVSynologyLogCenter(t *testing.T) {
	const log = "System\r\nLevel,Log,Time,User,Event\r\n" +
		"Warning,System,2025/03/14 03:22:41,SYSTEM,nvme nvme0: Disabling device after reset failure: -19\r\n" +
		"Error,System,2025/03/14 03:22:41,SYSTEM,\"nvme 0000:04:00.0: Unable to change power state from D3cold to D0, device inaccessible\"\r\n" +
		"Warning,System,2025/03/14 03:22:41,SYSTEM,nvme nvme0: Does your device have a faulty power saving mode enabled?\r\n" +
		"Warning,System,2025/03/14 03:22:41,SYSTEM,\"nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\"\r\n" +
		"Info,System,2025/03/14 02:17:41,SYSTEM,nvme nvme0: pci function 0000:04:00.0\r\n"
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	assert.True(t, l.NewestFirst)
	require.Len(t, l.Incidents, 1)
	in := l.Incidents[0]
	assert.Equal(t, "0000:04:00.0", in.PCI)
	var kinds []kernlog.Kind
	for _, e := range in.Events {
		kinds = append(kinds, e.Kind)
	}
	assert.Equal(t, []kernlog.Kind{kernlog.ControllerDown, kernlog.PowerSavingHint, kernlog.ResumeFailure, kernlog.ResetFailure}, kinds)
	assert.Equal(t, time.Date(2025, 3, 14, 3, 22, 41, 0, time.UTC), in.Start.Wall)
	assert.True(t, in.Start.NoZone)
}
