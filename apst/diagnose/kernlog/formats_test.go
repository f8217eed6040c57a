package kernlog_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// More shapes users paste logs in; shapes_test.go's tests and FuzzRead run
// over them all.
func init() {
	for name, f := range map[string]func(d time.Duration, msg string) string{
		// CONFIG_PRINTK_CALLER kernels: the caller's thread or CPU after the
		// time, attached or apart (https://github.com/RVCK-Project/rvck/issues/81,
		// https://github.com/util-linux/util-linux/issues/2637).
		"dmesg with caller id": func(d time.Duration, msg string) string {
			return fmt.Sprintf("[%12.6f][%7s] %s", d.Seconds(), "T64", msg)
		},
		"dmesg with caller id apart": func(d time.Duration, msg string) string {
			return fmt.Sprintf("[%12.6f] [%7s] %s", d.Seconds(), "C3", msg)
		},
		"syslog with caller id": func(d time.Duration, msg string) string {
			return bootWall.Add(d).Format("Jan _2 15:04:05") + fmt.Sprintf(" thinkpad kernel: [%12.6f][T64] %s", d.Seconds(), msg)
		},
		// A bare "kernel: " (https://github.com/KastB/r8169/issues/8), after
		// the dmesg time (https://github.com/thesofproject/sof-test/issues/616),
		// after a time of day, and after an ISO time without a host
		// (https://github.com/omacom/omarchy/issues/11332).
		"bare kernel:": func(_ time.Duration, msg string) string { return "kernel: " + msg },
		"dmesg time then kernel:": func(d time.Duration, msg string) string {
			return fmt.Sprintf("[%12.6f] kernel: %s", d.Seconds(), msg)
		},
		"time of day then kernel:": func(d time.Duration, msg string) string {
			return bootWall.Add(d).Format("15:04:05") + " kernel: " + msg
		},
		"ISO time then kernel:": func(d time.Duration, msg string) string {
			return bootWall.Add(d).Format("2006-01-02T15:04:05.000000-07:00") + " kernel: " + msg
		},
		"journalctl -o short-full": func(d time.Duration, msg string) string {
			return bootWall.Add(d).Format("Mon 2006-01-02 15:04:05 MST") + " thinkpad kernel: " + msg
		},
		"journalctl -o json": func(d time.Duration, msg string) string {
			m, _ := json.Marshal(msg)
			return fmt.Sprintf(`{"__CURSOR":"s=1","__REALTIME_TIMESTAMP":"%d","__MONOTONIC_TIMESTAMP":"%d","_BOOT_ID":"a0d3f7e9ebb24b3caddaf45891a22066","_TRANSPORT":"kernel","PRIORITY":"3","SYSLOG_FACILITY":"0","SYSLOG_IDENTIFIER":"kernel","_SOURCE_MONOTONIC_TIMESTAMP":"%d","MESSAGE":%s}`,
				bootWall.Add(d).UnixMicro(), (d+time.Second)/time.Microsecond, d/time.Microsecond, m)
		},
		// journalctl under a German or a Chinese locale
		// (https://github.com/AsahiLinux/linux/issues/70,
		// https://github.com/NixOS/nixpkgs/issues/78286).
		"journalctl -k, LC_TIME=de_DE": func(d time.Duration, msg string) string {
			return strings.Replace(bootWall.Add(d).Format("Jan 02 15:04:05"), "Dec", "Dez", 1) + " thinkpad kernel: " + msg
		},
		"journalctl -k, LC_TIME=zh_CN": func(d time.Duration, msg string) string {
			return bootWall.Add(d).Format(" 1月 02 15:04:05") + " thinkpad kernel: " + msg
		},
		"tabs": func(d time.Duration, msg string) string {
			return fmt.Sprintf("\t[%12.6f]\t%s", d.Seconds(), msg)
		},
		// A line made bold in a Markdown issue
		// (https://github.com/QubesOS/qubes-issues/issues/9719).
		"Markdown bold": func(d time.Duration, msg string) string {
			return fmt.Sprintf("**[%12.6f] %s**", d.Seconds(), msg)
		},
		"quoted at depth": func(d time.Duration, msg string) string {
			return fmt.Sprintf(">> > [%12.6f] %s", d.Seconds(), msg)
		},
		// journalctl -o short-unix (systemd's journalctl(1), "short-unix").
		"journalctl -o short-unix": func(d time.Duration, msg string) string {
			w := bootWall.Add(d)
			return fmt.Sprintf("%d.%06d thinkpad kernel: %s", w.Unix(), w.Nanosecond()/1000, msg)
		},
		// dmesg --json (util-linux 2.38+; the layout of util-linux's
		// tests/expected/dmesg/json and cid-json): a record over lines.
		"dmesg --json": func(d time.Duration, msg string) string {
			m, _ := json.Marshal(msg)
			return fmt.Sprintf("      },{\n         \"pri\": 4,\n         \"time\": %12.6f,\n         \"caller\": \"T64\",\n         \"msg\": %s", d.Seconds(), m)
		},
		// dmesg -d (--show-delta), alone, with -T, and
		// --time-format=delta: the time since the line before in angle
		// brackets (util-linux's tests/expected/dmesg/delta and
		// timestamp-format-delta).
		"dmesg -d": func(d time.Duration, msg string) string {
			return fmt.Sprintf("[%12.6f <%12.6f>] %s", d.Seconds(), 0.000123, msg)
		},
		"dmesg -T -d": func(d time.Duration, msg string) string {
			return fmt.Sprintf("[%s <%12.6f>] %s", bootWall.Add(d).Format("Mon Jan _2 15:04:05 2006"), 0.000123, msg)
		},
		// A forum's BBCode pasted raw around the block's lines.
		"BBCode": func(d time.Duration, msg string) string {
			return fmt.Sprintf("[code][%12.6f] %s[/code]", d.Seconds(), msg)
		},
		// A forum's font tags around a journal's line (a Linux Mint
		// forum post, posted zk-04: "[FONT=courier new]kernel: nvme
		// nvme0: ..." and "...[/FONT]").
		"BBCode font": func(d time.Duration, msg string) string {
			return fmt.Sprintf("[FONT=courier new][%12.6f] %s[/FONT]", d.Seconds(), msg)
		},
		// journalctl -o json-seq (RFC 7464): a record separator before
		// each record.
		"journalctl -o json-seq": func(d time.Duration, msg string) string {
			m, _ := json.Marshal(msg)
			return fmt.Sprintf("\x1e"+`{"__REALTIME_TIMESTAMP":"%d","__MONOTONIC_TIMESTAMP":"%d","_BOOT_ID":"a0d3f7e9ebb24b3caddaf45891a22066","_TRANSPORT":"kernel","MESSAGE":%s}`,
				bootWall.Add(d).UnixMicro(), d/time.Microsecond, m)
		},
		// Log shippers' JSON records, one a line: an Elasticsearch or
		// Filebeat document (ECS: "@timestamp", "host.name", "message",
		// and "log" an object), its dump with elasticdump ("_source"),
		// Grafana Loki's logcli --output jsonl (its encoder's keys in
		// order: labels, line, timestamp), a Splunk export of the raw
		// syslog line (splunk search ... -output json: "result" holds
		// "_raw", "_time" and "host"), Fluent Bit's kmsg input ("sec",
		// "usec" since boot, "msg") and a GELF message ("short_message",
		// seconds since 1970).
		"Elasticsearch document": func(d time.Duration, msg string) string {
			m, _ := json.Marshal(msg)
			return fmt.Sprintf(`{"@timestamp":"%s","log":{"file":{"path":"/var/log/kern.log"},"offset":%d},"message":%s,"process":{"name":"kernel"},"host":{"name":"thinkpad"},"ecs":{"version":"8.0.0"}}`,
				bootWall.Add(d).Format("2006-01-02T15:04:05.000Z07:00"), d/time.Millisecond, m)
		},
		"elasticdump": func(d time.Duration, msg string) string {
			m, _ := json.Marshal(msg)
			return fmt.Sprintf(`{"_index":"filebeat-8.15.0","_id":"x%d","_score":1,"_source":{"@timestamp":"%s","message":%s,"host":{"hostname":"thinkpad"}}}`,
				d/time.Millisecond, bootWall.Add(d).Format(time.RFC3339Nano), m)
		},
		"logcli --output jsonl": func(d time.Duration, msg string) string {
			m, _ := json.Marshal(bootWall.Add(d).Format("Jan _2 15:04:05") + " thinkpad kernel: " + msg)
			return fmt.Sprintf(`{"labels":{"filename":"/var/log/kern.log","host":"thinkpad","job":"varlogs"},"line":%s,"timestamp":"%s"}`,
				m, bootWall.Add(d).Format(time.RFC3339Nano))
		},
		"Splunk export": func(d time.Duration, msg string) string {
			m, _ := json.Marshal(bootWall.Add(d).Format("Jan _2 15:04:05") + " thinkpad kernel: " + msg)
			return fmt.Sprintf(`{"preview":false,"offset":%d,"result":{"_raw":%s,"_time":"%s","host":"thinkpad","source":"/var/log/kern.log","sourcetype":"syslog"}}`,
				d/time.Millisecond, m, bootWall.Add(d).Format("2006-01-02T15:04:05.000-07:00"))
		},
		"Fluent Bit kmsg": func(d time.Duration, msg string) string {
			m, _ := json.Marshal(msg)
			return fmt.Sprintf(`{"date":%d.%03d,"priority":3,"sequence":%d,"sec":%d,"usec":%d,"msg":%s}`,
				bootWall.Add(d).Unix(), bootWall.Add(d).Nanosecond()/1e6, d/time.Millisecond, d/time.Second, d%time.Second/time.Microsecond, m)
		},
		// A log put through a word processor (or a page's typography):
		// soft hyphens inside long words, an en dash for the minus of an
		// error number, non-breaking hyphens in words.
		"word processor": func(d time.Duration, msg string) string {
			for _, w := range []string{"controller", "Disabling", "function", "inaccessible", "Corrected"} {
				msg = strings.ReplaceAll(msg, w, w[:3]+"\u00ad"+w[3:])
			}
			msg = strings.ReplaceAll(msg, ": -", ": \u2013")
			msg = strings.ReplaceAll(msg, "-", "\u2011")
			return fmt.Sprintf("[%12.6f] %s", d.Seconds(), msg)
		},
		// A date and time in brackets before each line, as a logger's or
		// a terminal's time-stamping writes them (ts '[%Y-%m-%d
		// %H:%M:%S]', a serial terminal's log).
		"bracketed date and time": func(d time.Duration, msg string) string {
			return bootWall.Add(d).Format("[2006-01-02 15:04:05] ") + msg
		},
		// A row of Kibana's Discover table, copied: the time in Kibana's
		// default format (in the browser's zone), a tab, the message.
		"Kibana Discover, copied": func(d time.Duration, msg string) string {
			return bootWall.Add(d).Format("Jan 2, 2006 @ 15:04:05.000") + "\t" + msg
		},
		"GELF": func(d time.Duration, msg string) string {
			m, _ := json.Marshal(msg)
			return fmt.Sprintf(`{"version":"1.1","host":"thinkpad","short_message":%s,"timestamp":%d.%06d,"level":3,"_facility":"kernel"}`,
				m, bootWall.Add(d).Unix(), bootWall.Add(d).Nanosecond()/1e3)
		},
		// journalctl -k -o verbose: a record over lines, its fields
		// indented under its time and cursor (the boot, and the times in
		// hex); -o export: the same fields unindented, a blank line after
		// each record (systemd's journalctl(1), "verbose" and "export";
		// the fields in journald's order for the kernel's records).
		"journalctl -k -o verbose": func(d time.Duration, msg string) string {
			w := bootWall.Add(d)
			return fmt.Sprintf("%s [s=6c1a0b2e0f7e4d4f9e4e2a4b1c3d5e6f;i=4d2;b=a0d3f7e9ebb24b3caddaf45891a22066;m=%x;t=%x;x=2f0e5c7b9a1d3e4f]\n", w.Format("Mon 2006-01-02 15:04:05.000000 MST"), int64(d/time.Microsecond), w.UnixMicro()) +
				fmt.Sprintf("    _SOURCE_MONOTONIC_TIMESTAMP=%d\n    _TRANSPORT=kernel\n    PRIORITY=3\n    SYSLOG_FACILITY=0\n    SYSLOG_IDENTIFIER=kernel\n    MESSAGE=%s\n", d/time.Microsecond, msg) +
				"    _BOOT_ID=a0d3f7e9ebb24b3caddaf45891a22066\n    _MACHINE_ID=5d3c1e2f4a6b4c8d9e0f1a2b3c4d5e6f\n    _HOSTNAME=thinkpad\n    _RUNTIME_SCOPE=system"
		},
		"journalctl -k -o export": func(d time.Duration, msg string) string {
			return fmt.Sprintf("__CURSOR=s=6c1a0b2e0f7e4d4f9e4e2a4b1c3d5e6f;i=4d2;b=a0d3f7e9ebb24b3caddaf45891a22066;m=%x;t=%x;x=2f0e5c7b9a1d3e4f\n", int64(d/time.Microsecond), bootWall.Add(d).UnixMicro()) +
				fmt.Sprintf("__REALTIME_TIMESTAMP=%d\n__MONOTONIC_TIMESTAMP=%d\n_BOOT_ID=a0d3f7e9ebb24b3caddaf45891a22066\n_SOURCE_MONOTONIC_TIMESTAMP=%d\n", bootWall.Add(d).UnixMicro(), d/time.Microsecond, d/time.Microsecond) +
				fmt.Sprintf("_TRANSPORT=kernel\nPRIORITY=3\nSYSLOG_FACILITY=0\nSYSLOG_IDENTIFIER=kernel\nMESSAGE=%s\n_MACHINE_ID=5d3c1e2f4a6b4c8d9e0f1a2b3c4d5e6f\n_HOSTNAME=thinkpad\n", msg)
		},
		// grep's file name before each line (grep -H, or grep over
		// several files: grep nvme /var/log/kern.log*), with the line
		// number after it (-n); grep -n of dmesg saved to a file; cat -n.
		"grep over kern.log files": func(d time.Duration, msg string) string {
			return "/var/log/kern.log.1:" + bootWall.Add(d).Format("Jan _2 15:04:05") + " thinkpad kernel: " + msg
		},
		"grep -Hn syslog, RFC 3339": func(d time.Duration, msg string) string {
			return fmt.Sprintf("syslog.2.gz:%d:", 100+d/time.Second) + bootWall.Add(d).Format("2006-01-02T15:04:05.000000-07:00") + " thinkpad kernel: " + msg
		},
		"grep -n dmesg.txt": func(d time.Duration, msg string) string {
			return fmt.Sprintf("%d:[%12.6f] %s", 1+d/time.Second, d.Seconds(), msg)
		},
		"cat -n": func(d time.Duration, msg string) string {
			return fmt.Sprintf("%6d\t[%12.6f] %s", 1+d/time.Second, d.Seconds(), msg)
		},
		// A serial console captured with the host's time before each
		// line (tio --timestamp, grabserial -t, minicom).
		"serial console with host times": func(d time.Duration, msg string) string {
			return bootWall.Add(d).Format("[15:04:05.000] ") + fmt.Sprintf("[%12.6f] %s", d.Seconds(), msg)
		},
		// A log put in a Markdown table, a row a line.
		"Markdown table row": func(d time.Duration, msg string) string {
			return fmt.Sprintf("| [%12.6f] %s |", d.Seconds(), msg)
		},
		// A log put in a Markdown table of several columns, as an issue
		// or a log viewer's export lays it out: the time in a cell, then
		// the message (in one cell, or the device's prefix in one and the
		// rest in the next, that cell empty for a message of no device),
		// or the journal's time, program and message.
		"Markdown table, time and message": func(d time.Duration, msg string) string {
			return fmt.Sprintf("| [%12.6f] | %s |", d.Seconds(), msg)
		},
		"Markdown table, time, device and message": func(d time.Duration, msg string) string {
			dev, rest, ok := strings.Cut(msg, ": ")
			if !ok || strings.Count(dev, " ") != 1 {
				dev, rest = "", msg
			}
			return fmt.Sprintf("| %.6f | %s | %s |", d.Seconds(), dev, rest)
		},
		"Markdown table, journal columns": func(d time.Duration, msg string) string {
			return "| " + bootWall.Add(d).Format("Jan 02 15:04:05") + " | thinkpad | kernel | " + msg + " |"
		},
		// A journal line with its time cut off ("cut -d' ' -f4-").
		"host kernel:": func(d time.Duration, msg string) string {
			return "thinkpad kernel: " + msg
		},
	} {
		shapes[name] = f
	}
}

// rockchip is a real incident: an SK Hynix BC511 on a Rockchip board drops
// off the bus; the PCI core of that kernel spells the D3cold failure the
// older way and the block layer reports through blk_update_request
// (https://github.com/Joshua-Riek/ubuntu-rockchip/issues/155, the lines as
// posted, in syslog with the dmesg time).
const rockchip = `May 21 18:21:53 sangje-desktop kernel: [    7.972193] nvme nvme0: pci function 0004:41:00.0
May 21 18:21:53 sangje-desktop kernel: [    7.972285] nvme 0004:41:00.0: enabling device (0000 -> 0002)
May 21 18:21:53 sangje-desktop kernel: [    7.987211] nvme nvme0: 8/0/0 default/read/poll queues
May 21 18:21:53 sangje-desktop kernel: [    7.991799]  nvme0n1: p1 p2
May 21 18:21:53 sangje-desktop kernel: [   40.994094] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS read failed (134)
May 21 18:21:53 sangje-desktop kernel: [   43.508836] blk_update_request: I/O error, dev nvme0n1, sector 500118016 op 0x0:(READ) flags 0x80700 phys_seg 1 prio class 0
May 21 18:21:53 sangje-desktop kernel: [   43.542743] nvme 0004:41:00.0: can't change power state from D3cold to D0 (config space inaccessible)
May 21 18:21:53 sangje-desktop kernel: [   43.594151] nvme nvme0: Removing after probe failure status: -19
May 21 18:21:53 sangje-desktop kernel: [   43.609510] Buffer I/O error on dev nvme0n1, logical block 62514752, async page read
May 21 18:21:53 sangje-desktop kernel: [   43.650902] Buffer I/O error on dev nvme0n1p1, logical block 16256, async page read
`

// rockchipLines are its messages with their times since boot.
func rockchipLines(t *testing.T) []line {
	var out []line
	for _, l := range strings.Split(strings.TrimSpace(rockchip), "\n") {
		_, rest, ok := strings.Cut(l, "kernel: [")
		require.True(t, ok)
		sec, msg, ok := strings.Cut(rest, "] ")
		require.True(t, ok)
		d, err := time.ParseDuration(strings.TrimSpace(sec) + "s")
		require.NoError(t, err)
		out = append(out, line{d, strings.TrimPrefix(msg, " ")})
	}
	return out
}

// essence is what every shape of a log must read alike: the incidents'
// controllers and addresses, and each event's kind, controller, address,
// disk and register values.
type essence struct {
	Controller, PCI string
	Events          []essential
}

type essential struct {
	Kind                       kernlog.Kind
	Controller, PCI, Disk      string
	CSTS                       uint32
	PCIStatus                  uint16
	HasCSTS, PCIStatusFailed   bool
	Errno, Status, SCT, SC     int
	FromState, Severity, Phase string
}

func essenceOf(l *kernlog.Log) []essence {
	var out []essence
	for _, in := range l.Incidents {
		s := essence{Controller: in.Controller, PCI: in.PCI}
		for _, e := range in.Events {
			s.Events = append(s.Events, essential{e.Kind, e.Controller, e.PCI, e.Disk, e.CSTS, e.PCIStatus, e.HasCSTS, e.PCIStatusFailed,
				e.Errno, e.Status, e.SCT, e.SC, e.FromState, e.Severity, e.Phase})
		}
		out = append(out, s)
	}
	return out
}

// wrap breaks a line at width columns between words, as a mail client or
// a bug tracker does; flowed keeps the blank before each break
// (format=flowed).
func wrap(s string, width int, flowed bool) string {
	var b strings.Builder
	col := 0
	for i, w := range strings.Split(s, " ") {
		if i > 0 {
			if col+1+len(w) > width {
				if flowed {
					b.WriteByte(' ')
				}
				b.WriteString("\n")
				col = 0
			} else {
				b.WriteByte(' ')
				col++
			}
		}
		b.WriteString(w)
		col += len(w)
	}
	return b.String()
}

// The same real incident reads to the same events in every shape a log is
// pasted in: as posted (syslog with the dmesg time), in each shape of
// shapes, and wrapped at 72 columns with and without format=flowed's
// blanks.
func TestRealIncidentInEveryShape(t *testing.T) {
	posted, err := kernlog.ReadString(rockchip, kernlog.Options{})
	require.NoError(t, err)
	want := essenceOf(posted)
	require.Len(t, want, 1)
	assert.Equal(t, "nvme0", want[0].Controller)
	assert.Equal(t, "0004:41:00.0", want[0].PCI)
	var kinds []kernlog.Kind
	for _, e := range want[0].Events {
		kinds = append(kinds, e.Kind)
	}
	assert.Equal(t, []kernlog.Kind{kernlog.ControllerDown, kernlog.IOError, kernlog.ResumeFailure, kernlog.ProbeFailure, kernlog.IOError, kernlog.IOError}, kinds)
	down := want[0].Events[0]
	assert.Equal(t, uint32(0xffffffff), down.CSTS)
	assert.True(t, down.PCIStatusFailed)
	assert.Equal(t, "D3cold", want[0].Events[2].FromState)
	assert.Equal(t, "0004:41:00.0", want[0].Events[2].PCI)
	assert.Equal(t, -19, want[0].Events[3].Errno)
	assert.Equal(t, "nvme0n1p1", want[0].Events[5].Disk)
	assert.Equal(t, map[string]string{"nvme0n1": "nvme0"}, posted.Namespaces)
	assert.Zero(t, posted.UnreadLines)

	lines := rockchipLines(t)
	render := func(f func(time.Duration, string) string, each func(string) string) string {
		var b strings.Builder
		for _, l := range lines {
			b.WriteString(each(f(l.mono, l.msg)) + "\n")
		}
		return b.String()
	}
	same := func(s string) string { return s }
	for name, f := range shapes {
		t.Run(name, func(t *testing.T) {
			l, err := kernlog.ReadString(render(f, same), kernlog.Options{})
			require.NoError(t, err)
			assert.Equal(t, want, essenceOf(l))
			assert.Zero(t, l.UnreadLines)
		})
	}
	for _, flowed := range []bool{false, true} {
		t.Run(fmt.Sprintf("dmesg wrapped at 72, flowed %v", flowed), func(t *testing.T) {
			text := render(shapes["dmesg"], func(s string) string { return wrap(s, 72, flowed) })
			require.Greater(t, strings.Count(text, "\n"), len(lines), "some lines wrapped")
			l, err := kernlog.ReadString(text, kernlog.Options{})
			require.NoError(t, err)
			assert.Equal(t, want, essenceOf(l))
			assert.Zero(t, l.UnreadLines)
		})
		t.Run(fmt.Sprintf("quoted syslog wrapped at 78, flowed %v", flowed), func(t *testing.T) {
			var b strings.Builder
			for _, l := range strings.Split(strings.TrimSpace(rockchip), "\n") {
				for _, p := range strings.Split(wrap(l, 76, flowed), "\n") {
					b.WriteString("> " + p + "\r\n")
				}
			}
			l, err := kernlog.ReadString(b.String(), kernlog.Options{})
			require.NoError(t, err)
			assert.Equal(t, want, essenceOf(l))
		})
	}
}

// Logs as they were posted, each with the line that a shape the reader did
// not know used to hide.
func TestPostedShapes(t *testing.T) {
	for _, tc := range []struct {
		name, log string
		kind      kernlog.Kind
		ctrl      string
	}{
		// https://github.com/thesofproject/sof-test/issues/616
		{"dmesg time then kernel:", "[ 6846.214748] kernel: nvme nvme0: Device shutdown incomplete; abort shutdown\n", kernlog.DriverError, "nvme0"},
		// https://github.com/RVCK-Project/rvck/issues/81
		{"caller id", "[   37.920588][  T117] nvme nvme0: I/O 457 QID 1 timeout, completion polled\n", kernlog.IOTimeout, "nvme0"},
		// https://github.com/omacom/omarchy/issues/11332
		{"ISO time, no host", "2026-09-11T01:19:30-07:00 kernel: PM: suspend entry (s2idle)\n", kernlog.SuspendEntry, ""},
		// https://github.com/OpenMandrivaAssociation/distribution/issues/260 (Polish month)
		{"journal, Polish month", "lis 02 20:23:06 tpgbox.localdomain kernel: irq 16: nobody cared (try booting with the \"irqpoll\" option)\n", kernlog.LostInterrupt, ""},
		// https://github.com/zen-kernel/zen-kernel/issues/264 (Malayalam month)
		{"journal, Malayalam month", "നവം 27 11:06:53 archie kernel: ACPI: PM: Waking up from system sleep state S3\n", kernlog.SuspendExit, ""},
		// https://github.com/NixOS/nixpkgs/issues/78286 (Chinese month)
		{"journal, Chinese month", " 3月 13 18:33:21 tejo kernel: PM: suspend entry (deep)\n", kernlog.SuspendEntry, ""},
		// https://github.com/KastB/r8169/issues/8
		{"bare kernel:", "kernel: r8169 0000:02:00.0: can't disable ASPM; OS doesn't have ASPM control\n", kernlog.ASPMPlatform, ""},
		// https://github.com/QubesOS/qubes-issues/issues/9719
		{"Markdown bold", "**[    4.641186] nvme nvme1: failed to allocate host memory buffer.**\n", kernlog.HostMemoryBuffer, "nvme1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tc.log, kernlog.Options{})
			require.NoError(t, err)
			require.Len(t, l.Incidents, 1, "%+v", l)
			e := l.Incidents[0].Events[0]
			assert.Equal(t, tc.kind, e.Kind)
			assert.Equal(t, tc.ctrl, e.Controller)
			assert.Equal(t, strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(tc.log), "**"), "**"), e.Raw)
		})
	}
}

// Times of the new shapes: a time of day alone, a localised month, a
// journal record's two clocks.
func TestShapeTimes(t *testing.T) {
	read := func(s string) kernlog.Timestamp {
		l, err := kernlog.ReadString(s+"\n", kernlog.Options{})
		require.NoError(t, err)
		require.NotEmpty(t, l.Incidents, s)
		return l.Incidents[0].Events[0].Time
	}
	ts := read("07:45:58 kernel: nvme nvme0: Abort status: 0x0")
	assert.True(t, ts.HasWall && ts.NoDate && ts.NoYear)
	assert.Equal(t, "07:45:58", ts.String(), "no fraction the line did not have")

	ts = read("Mär 21 22:57:44.123 host kernel: nvme nvme0: Abort status: 0x0")
	assert.Equal(t, time.Date(0, 3, 21, 22, 57, 44, 123e6, time.UTC), ts.Wall)
	assert.False(t, ts.NoDate)

	ts = read("നവം 27 11:06:53 archie kernel: nvme nvme0: Abort status: 0x0")
	assert.True(t, ts.NoDate, "an unknown month leaves the date out")
	assert.Equal(t, "11:06:53", ts.String())

	ts = read("Tue 2026-12-01 10:00:00 UTC thinkpad kernel: nvme nvme0: Abort status: 0x0")
	assert.Equal(t, time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), ts.Wall)
	assert.Equal(t, "2026-12-01 10:00:00 +0000", ts.String())

	// A time without its offset from UTC is shown without one: dmesg -T
	// (local time), an ISO time without a zone, a zone named but not
	// given as an offset.
	for line, want := range map[string]string{
		"[Wed Dec  2 10:00:00 2026] nvme nvme0: Abort status: 0x0":                        "2026-12-02 10:00:00",
		"Wed 2026-12-02 10:00:00 CET thinkpad kernel: nvme nvme0: Abort status: 0x0":      "2026-12-02 10:00:00",
		"2026-12-02T10:00:00.250000 thinkpad kernel: nvme nvme0: Abort status: 0x0":       "2026-12-02 10:00:00.250000",
		"2026-12-02T10:00:00,250000+01:00 thinkpad kernel: nvme nvme0: Abort status: 0x0": "2026-12-02 10:00:00.250000 +0100",
		"2026-12-02T10:00:00+0100 thinkpad kernel: nvme nvme0: Abort status: 0x0":         "2026-12-02 10:00:00 +0100",
	} {
		ts = read(line)
		assert.Equal(t, want, ts.String(), line)
	}

	ts = read(`{"__REALTIME_TIMESTAMP":"1789236000000000","__MONOTONIC_TIMESTAMP":"15123456","_SOURCE_MONOTONIC_TIMESTAMP":"12500001","_TRANSPORT":"kernel","MESSAGE":"nvme nvme0: Abort status: 0x0"}`)
	assert.Equal(t, 12500001*time.Microsecond, ts.Mono, "the kernel's own time, not the journal's")
	assert.Equal(t, time.UnixMicro(1789236000000000).UTC(), ts.Wall)

	ts = read("[  520.899558] [   T3919] nvme nvme0: Abort status: 0x0")
	assert.Equal(t, 520899558*time.Microsecond, ts.Mono)
}

// A log quoted in a commit message with "  |  " before each line, and a
// serial console's capture with the level before each kernel line, read as
// the plain lines do; the kernel's own messages that start with "INFO: "
// keep it. The lines are the posted ones: a KASAN report in a swiotlb fix
// (https://lore.kernel.org/all/20210719123054.6844-3-will@kernel.org/) and
// a Xen guest's BUG in nvme's reset work
// (https://lore.kernel.org/all/20210812130930.127134-1-mheyne@amazon.de/).
func TestCommitAndConsoleShapes(t *testing.T) {
	for _, tc := range []struct {
		name, log string
		kind      kernlog.Kind
		raw       string
		stack     string
	}{
		{"commit message quoting", "  |  BUG: KASAN: use-after-free in __iommu_dma_unmap_swiotlb+0x64/0xb0\n  |   nvme_pci_complete_rq+0x73/0x130\n",
			kernlog.PlatformFault, "BUG: KASAN: use-after-free in __iommu_dma_unmap_swiotlb+0x64/0xb0", "nvme_pci_complete_rq+0x73/0x130"},
		{"console levels", "  CRIT: kernel BUG at drivers/xen/events/events_base.c:427!\n  WARN: invalid opcode: 0000 [#1] SMP NOPTI\n  WARN: Workqueue: nvme-reset-wq nvme_reset_work [nvme]\n",
			kernlog.PlatformFault, "CRIT: kernel BUG at drivers/xen/events/events_base.c:427!", "WARN: Workqueue: nvme-reset-wq nvme_reset_work [nvme]"},
		{"console level before a driver's line", "  INFO: nvme nvme77: I/O 5 QID 0 timeout, reset controller\n",
			kernlog.AdminTimeout, "INFO: nvme nvme77: I/O 5 QID 0 timeout, reset controller", ""},
		{"the kernel's own INFO", "INFO: task jbd2/nvme0n1p3-:375 blocked for more than 122 seconds.\n",
			kernlog.HungTask, "INFO: task jbd2/nvme0n1p3-:375 blocked for more than 122 seconds.", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tc.log, kernlog.Options{})
			require.NoError(t, err)
			require.Len(t, l.Incidents, 1, "%+v", l)
			require.Len(t, l.Incidents[0].Events, 1)
			e := l.Incidents[0].Events[0]
			assert.Equal(t, tc.kind, e.Kind)
			assert.Equal(t, tc.raw, e.Raw)
			assert.Equal(t, tc.stack, e.Stack)
			assert.Zero(t, l.UnreadLines)
		})
	}
}

// A journal record over lines (journalctl -o verbose, -o export) is read
// at its MESSAGE line, quoted as it appears, with the record's time (the
// kernel's, _SOURCE_MONOTONIC_TIMESTAMP). The lines are the Rockchip
// board's (rockchip).
func TestJournalRecordLines(t *testing.T) {
	lines := rockchipLines(t)
	down := lines[4]
	require.Contains(t, down.msg, "controller is down")
	for _, shape := range []string{"journalctl -k -o verbose", "journalctl -k -o export"} {
		t.Run(shape, func(t *testing.T) {
			text := shapes[shape](lines[0].mono, lines[0].msg) + "\n" + shapes[shape](down.mono, down.msg) + "\n"
			l, err := kernlog.ReadString(text, kernlog.Options{})
			require.NoError(t, err)
			require.Len(t, l.Incidents, 1)
			e := l.Incidents[0].Events[0]
			assert.Equal(t, kernlog.ControllerDown, e.Kind)
			all := strings.Split(text, "\n")
			assert.Equal(t, "MESSAGE="+down.msg, strings.TrimSpace(all[e.Line-1]), "the event's line is its MESSAGE line")
			assert.Equal(t, e.Line, e.EndLine)
			assert.Equal(t, "MESSAGE="+down.msg, e.Raw)
			assert.Equal(t, down.mono, e.Time.Mono)
			assert.True(t, e.Time.HasWall)
			assert.Equal(t, map[string]string{"0004:41:00.0": "nvme0"}, l.Addresses)
			assert.Zero(t, l.UnreadLines)
		})
	}
}
