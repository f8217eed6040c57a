package kernlog_test

import (
	"encoding/json"
	"fmt"
	"html"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// line is one message of the canonical failure with its time since boot.
type line struct {
	mono time.Duration
	msg  string
}

// failure is a drive that drops off the bus (kernel-apst.md §15 shapes).
var failure = []line{
	{1 * time.Second, "Linux version 6.8.0-45-generic (buildd@lcy02-amd64-075) (x86_64-linux-gnu-gcc-13 (Ubuntu 13.2.0-23ubuntu4) 13.2.0) #45-Ubuntu SMP PREEMPT_DYNAMIC"},
	{1*time.Second + 100*time.Microsecond, "Kernel command line: BOOT_IMAGE=/vmlinuz-6.8.0-45-generic root=UUID=0b1c ro quiet splash"},
	{2100 * time.Millisecond, "nvme nvme0: pci function 0000:04:00.0"},
	{2200 * time.Millisecond, "nvme nvme0: 8/0/0 default/read/poll queues"},
	{3600 * time.Second, "pcieport 0000:00:1d.0: AER: Corrected error received: 0000:04:00.0"},
	{3600*time.Second + 10*time.Microsecond, "nvme 0000:04:00.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)"},
	{3600*time.Second + 20*time.Microsecond, "nvme 0000:04:00.0:   device [144d:a80c] error status/mask=00000001/0000e000"},
	{3630*time.Second + 500*time.Millisecond, "nvme nvme0: I/O tag 123 (a07b) opcode 0x2 (Read) QID 4 timeout, aborting req_op:READ(0) size:4096"},
	{3630*time.Second + 500100*time.Microsecond, "nvme nvme0: I/O 124 QID 4 timeout, aborting"},
	{3661 * time.Second, "nvme nvme0: I/O tag 123 (a07b) opcode 0x2 (Read) QID 4 timeout, reset controller"},
	{3661*time.Second + 100*time.Millisecond, "nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff"},
	{3661*time.Second + 100010*time.Microsecond, "nvme nvme0: Does your device have a faulty power saving mode enabled?"},
	{3661*time.Second + 100020*time.Microsecond, `nvme nvme0: Try "nvme_core.default_ps_max_latency_us=0 pcie_aspm=off pcie_port_pm=off" and report a bug`},
	{3661*time.Second + 200*time.Millisecond, "nvme 0000:04:00.0: Unable to change power state from D3cold to D0, device inaccessible"},
	{3661*time.Second + 300*time.Millisecond, "nvme nvme0: Disabling device after reset failure: -19"},
	{3661*time.Second + 400*time.Millisecond, "I/O error, dev nvme0n1, sector 123456 op 0x0:(READ) flags 0x80700 phys_seg 1 prio class 2"},
	{3661*time.Second + 400010*time.Microsecond, "nvme0n1: I/O Cmd(0x2) @ LBA 123456, 8 blocks, I/O Error (sct 0x3 / sc 0x71)"},
}

var bootWall = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

// shapes renders a message at a time in each log format users paste.
var shapes = map[string]func(d time.Duration, msg string) string{
	"dmesg": func(d time.Duration, msg string) string { return fmt.Sprintf("[%12.6f] %s", d.Seconds(), msg) },
	"dmesg -T": func(d time.Duration, msg string) string {
		return "[" + bootWall.Add(d).Format("Mon Jan _2 15:04:05 2006") + "] " + msg
	},
	"dmesg -x": func(d time.Duration, msg string) string {
		return fmt.Sprintf("kern  :err   : [%12.6f] %s", d.Seconds(), msg)
	},
	"dmesg --time-format=iso": func(d time.Duration, msg string) string {
		return bootWall.Add(d).Format("2006-01-02T15:04:05,000000-07:00") + " " + msg
	},
	"journalctl -k": func(d time.Duration, msg string) string {
		return bootWall.Add(d).Format("Jan 02 15:04:05") + " thinkpad kernel: " + msg
	},
	"journalctl -k -o short-precise": func(d time.Duration, msg string) string {
		return bootWall.Add(d).Format("Jan 02 15:04:05.000000") + " thinkpad kernel: " + msg
	},
	"journalctl -k -o short-monotonic": func(d time.Duration, msg string) string {
		return fmt.Sprintf("[%12.6f] thinkpad kernel: %s", d.Seconds(), msg)
	},
	"journalctl -k -o short-iso": func(d time.Duration, msg string) string {
		return bootWall.Add(d).Format("2006-01-02T15:04:05-0700") + " thinkpad kernel: " + msg
	},
	"syslog": func(d time.Duration, msg string) string {
		return bootWall.Add(d).Format("Jan _2 15:04:05") + fmt.Sprintf(" thinkpad kernel: [%12.6f] %s", d.Seconds(), msg)
	},
	// dmesg -T's lines fed to a logger (dmesg -T -w | logger -t kernel):
	// a syslog time, then dmesg's own in brackets, which holds a syslog
	// time too ("... kernel: [Wed May  1 12:00:00 2024] ...").
	"dmesg -T through syslog": func(d time.Duration, msg string) string {
		return bootWall.Add(d).Format("Jan _2 15:04:05") + " thinkpad kernel: [" + bootWall.Add(d).Format("Mon Jan _2 15:04:05 2006") + "] " + msg
	},
	"rsyslog RFC 3339": func(d time.Duration, msg string) string {
		return bootWall.Add(d).Format("2006-01-02T15:04:05.000000-07:00") + " thinkpad kernel: " + msg
	},
	// The syslog protocol (RFC 5424), as rsyslog's
	// RSYSLOG_SyslogProtocol23Format writes it: PRI and version, time,
	// host, app, PROCID, MSGID, structured data.
	"syslog protocol": func(d time.Duration, msg string) string {
		return "<3>1 " + bootWall.Add(d).Format("2006-01-02T15:04:05.000000-07:00") + " thinkpad kernel - - [timeQuality tzKnown=\"1\"] " + msg
	},
	// The same without its "<PRI>", as rsyslog's
	// RSYSLOG_SyslogProtocol23Format is stored by collectors that keep the
	// priority apart.
	"syslog protocol without PRI": func(d time.Duration, msg string) string {
		return "1 " + bootWall.Add(d).Format("2006-01-02T15:04:05.000000-07:00") + " thinkpad kernel - - - " + msg
	},
	// BusyBox's syslogd (facility and level before the program) on a
	// kernel without printk times, and OpenWrt's logread (a ctime with
	// its year, no host) with them.
	"BusyBox syslogd": func(d time.Duration, msg string) string {
		return bootWall.Add(d).Format("Jan _2 15:04:05") + " router kern.err kernel: " + msg
	},
	"OpenWrt logread": func(d time.Duration, msg string) string {
		return bootWall.Add(d).Format("Mon Jan _2 15:04:05 2006") + fmt.Sprintf(" kern.warn kernel: [%12.6f] %s", d.Seconds(), msg)
	},
	// Grafana Loki's logcli, as a fleet's kernel logs are queried: the
	// time, the stream's labels, the line.
	"Loki logcli": func(d time.Duration, msg string) string {
		return bootWall.Add(d).Format("2006-01-02T15:04:05.000000Z07:00") + ` {host="node3", transport="kernel"} ` + msg
	},
	// A date in an order of its own before the time of day, as NAS pages,
	// log viewers and locales write it: month first or day first (which
	// one is not known, so the date is dropped), the year first with a
	// month's name.
	"date with slashes": func(d time.Duration, msg string) string {
		return bootWall.Add(d).Format("01/02/2006 15:04:05") + " thinkpad kernel: " + msg
	},
	"date with dots": func(d time.Duration, msg string) string {
		return bootWall.Add(d).Format("02.01.2006 15:04:05.000") + " thinkpad kernel: " + msg
	},
	"year first": func(d time.Duration, msg string) string {
		return bootWall.Add(d).Format("2006 Jan _2 15:04:05") + " thinkpad kernel: " + msg
	},
	"/dev/kmsg": func(d time.Duration, msg string) string {
		return fmt.Sprintf("3,%d,%d,-;%s", d/time.Millisecond, d/time.Microsecond, msg)
	},
	"printk level":  func(d time.Duration, msg string) string { return fmt.Sprintf("<3>[%12.6f] %s", d.Seconds(), msg) },
	"no time stamp": func(_ time.Duration, msg string) string { return msg },
	"indented dmesg": func(d time.Duration, msg string) string {
		return fmt.Sprintf("    [%12.6f] %s", d.Seconds(), msg)
	},
	// dmesg -T under a pt_BR and an fr_FR locale, as glibc spells their
	// days and months ("[Ter Set 19 06:01:41 2017]" in a posted log).
	"dmesg -T, pt_BR": func(d time.Duration, msg string) string {
		t := bootWall.Add(d)
		return fmt.Sprintf("[%s %s %2d %s] %s", ptDays[t.Weekday()], ptMonths[t.Month()-1], t.Day(), t.Format("15:04:05 2006"), msg)
	},
	"dmesg -T, fr_FR": func(d time.Duration, msg string) string {
		t := bootWall.Add(d)
		return fmt.Sprintf("[%s %s %2d %s] %s", frDays[t.Weekday()], frMonths[t.Month()-1], t.Day(), t.Format("15:04:05 2006"), msg)
	},
	"quoted dmesg -T": func(d time.Duration, msg string) string {
		return "> [" + bootWall.Add(d).Format("Mon Jan _2 15:04:05 2006") + "] " + msg
	},
	// A journal pasted as comments of a Nix file (a flake.nix on GitHub).
	"journal in comments": func(d time.Duration, msg string) string {
		return "    # " + bootWall.Add(d).Format("Jan 02 15:04:05") + " mistral kernel: " + msg
	},
	"twice quoted journal": func(d time.Duration, msg string) string {
		return ">> " + bootWall.Add(d).Format("Jan 02 15:04:05") + " thinkpad kernel: " + msg
	},
	// dmesg --color=always (or a terminal's scrollback copied with its
	// colours): the time green, the device's prefix brown, the message of
	// an error bold red, as util-linux colours them.
	"dmesg --color=always": func(d time.Duration, msg string) string {
		if dev, rest, ok := strings.Cut(msg, ": "); ok {
			msg = "\x1b[33m" + dev + "\x1b[0m: \x1b[1;31m" + rest + "\x1b[0m"
		}
		return fmt.Sprintf("\x1b[32m[%12.6f]\x1b[0m %s", d.Seconds(), msg)
	},
	// Copied from a web page that kept a log's blanks as &nbsp;: every
	// blank a no-break space, one word break a zero-width space.
	"copied from a web page": func(d time.Duration, msg string) string {
		return strings.ReplaceAll(fmt.Sprintf("[%12.6f] %s", d.Seconds(), msg), " ", "\u00a0") + "\u200b"
	},
	// Copied from a page's source: HTML's entities for <, >, &, " and '.
	"HTML source": func(d time.Duration, msg string) string {
		return html.EscapeString(fmt.Sprintf("<3>[%12.6f] %s", d.Seconds(), msg))
	},
	// Copied from a page whose source writes "=" and ":" as numeric
	// entities (&#61; &#x3A;), as some forum engines and mail archives do.
	"numeric HTML entities": func(d time.Duration, msg string) string {
		return strings.NewReplacer("=", "&#61;", ":", "&#x3A;").Replace(fmt.Sprintf("[%12.6f] %s", d.Seconds(), msg))
	},
	// Pasted into a Markdown editor that escapes what it would format
	// (Reddit's): brackets, and underscores inside words.
	"Markdown-escaped dmesg": func(d time.Duration, msg string) string {
		return strings.NewReplacer("[", `\[`, "]", `\]`, "_", `\_`, "*", `\*`).Replace(fmt.Sprintf("[%12.6f] %s", d.Seconds(), msg))
	},
	// rsyslog's reduction of repeated messages, on in Debian's and
	// Ubuntu's rsyslog.conf: "kernel: message repeated 7 times: [ EDID
	// block 0 is all zeroes]" in a posted syslog, "[[T92772] nfs: ...]"
	// with a caller id in another.
	"rsyslog, repeated messages": func(d time.Duration, msg string) string {
		return bootWall.Add(d).Format("Jan _2 15:04:05") + " thinkpad kernel: message repeated 2 times: [ " + msg + "]"
	},
	// A record over lines, a field a line, the kernel's transport after
	// its message (journald keeps fields in the order it received them).
	"journalctl -k -o json-pretty": func(d time.Duration, msg string) string {
		return prettyRecord(d, "kernel", msg)
	},
}

// prettyRecord is a record as journalctl -o json-pretty prints it.
func prettyRecord(d time.Duration, transport, msg string) string {
	m, _ := json.Marshal(msg)
	return fmt.Sprintf("{\n\t\"__REALTIME_TIMESTAMP\" : \"%d\",\n\t\"__MONOTONIC_TIMESTAMP\" : \"%d\",\n\t\"_BOOT_ID\" : \"b03ed610f21d46ab8243a495ba5a0058\",\n\t\"PRIORITY\" : \"3\",\n\t\"MESSAGE\" : %s,\n\t\"_TRANSPORT\" : \"%s\"\n}",
		bootWall.Add(d).UnixMicro(), d/time.Microsecond, m, transport)
}

var (
	ptDays   = []string{"Dom", "Seg", "Ter", "Qua", "Qui", "Sex", "Sáb"}
	ptMonths = []string{"Jan", "Fev", "Mar", "Abr", "Mai", "Jun", "Jul", "Ago", "Set", "Out", "Nov", "Dez"}
	frDays   = []string{"dim.", "lun.", "mar.", "mer.", "jeu.", "ven.", "sam."}
	frMonths = []string{"janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."}
)

// noise is what real logs hold between the events: other programs' lines
// (which mention the drive but are not kernel events) and unrelated kernel
// lines.
func noise(shape string, d time.Duration) []string {
	out := []string{shapes[shape](d, "usb 1-1: new high-speed USB device number 2 using xhci_hcd")}
	switch shape {
	case "journalctl -k", "syslog", "twice quoted journal":
		out = append(out, bootWall.Add(d).Format("Jan _2 15:04:05")+" thinkpad smartd[912]: Device: /dev/nvme0, I/O tag 1 QID 1 timeout, aborting")
	case "Loki logcli":
		out = append(out, `Common labels: {job="systemd-journal"}`)
	case "BusyBox syslogd":
		out = append(out, bootWall.Add(d).Format("Jan _2 15:04:05")+" router daemon.info smartd[912]: Device: /dev/nvme0, I/O tag 1 QID 1 timeout, aborting")
	case "OpenWrt logread":
		out = append(out, bootWall.Add(d).Format("Mon Jan _2 15:04:05 2006")+" daemon.info smartd[912]: Device: /dev/nvme0, I/O tag 1 QID 1 timeout, aborting")
	case "syslog protocol":
		out = append(out, "<30>1 "+bootWall.Add(d).Format("2006-01-02T15:04:05.000000-07:00")+" thinkpad smartd 912 - - Device: /dev/nvme0, I/O tag 1 QID 1 timeout, aborting")
	case "journalctl -k -o json-pretty":
		out = append(out, prettyRecord(d, "syslog", "Device: /dev/nvme0, I/O tag 1 QID 1 timeout, aborting"))
	case "journalctl -k -o short-iso":
		out = append(out, bootWall.Add(d).Format("2006-01-02T15:04:05-0700")+" thinkpad systemd[1]: nvme nvme0: controller is down; will reset: CSTS=0x1, PCI_STATUS=0x10")
	}
	return out
}

func render(shape string) string {
	var b strings.Builder
	for i, l := range failure {
		if i%3 == 0 {
			for _, n := range noise(shape, l.mono) {
				b.WriteString(n + "\n")
			}
		}
		b.WriteString(shapes[shape](l.mono, l.msg))
		if shape == "dmesg -T" && i == 4 {
			b.WriteString("\r") // a paste from Windows
		}
		b.WriteString("\n")
	}
	return b.String()
}

// summary is an incident without times and line numbers, what every shape
// must agree on.
type summary struct {
	Controller, PCI string
	Boot            int
	Events          []kernlog.Event
	Counts          map[kernlog.Kind]int
}

func summarize(l *kernlog.Log) []summary {
	var out []summary
	for _, in := range l.Incidents {
		s := summary{Controller: in.Controller, PCI: in.PCI, Boot: in.Boot, Counts: in.Counts}
		for _, e := range in.Events {
			e.Line, e.EndLine, e.Time, e.Raw = 0, 0, kernlog.Timestamp{}, ""
			s.Events = append(s.Events, e)
		}
		out = append(out, s)
	}
	return out
}

func TestShapesParseToTheSameIncidents(t *testing.T) {
	ref, err := kernlog.ReadString(render("dmesg"), kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, ref.Incidents, 1)
	in := ref.Incidents[0]
	assert.Equal(t, "nvme0", in.Controller)
	assert.Equal(t, "0000:04:00.0", in.PCI)
	assert.Equal(t, map[kernlog.Kind]int{
		kernlog.AERReceived: 1, kernlog.AERError: 1, kernlog.IOTimeout: 3, kernlog.ControllerDown: 1,
		kernlog.PowerSavingHint: 1, kernlog.WorkaroundHint: 1, kernlog.ResumeFailure: 1,
		kernlog.ResetFailure: 1, kernlog.IOError: 2,
	}, in.Counts)
	assert.Equal(t, "6.8.0-45-generic", ref.Release)
	assert.Equal(t, "BOOT_IMAGE=/vmlinuz-6.8.0-45-generic root=UUID=0b1c ro quiet splash", ref.CommandLine)
	assert.Equal(t, map[string]string{"0000:04:00.0": "nvme0"}, ref.Addresses)
	want := summarize(ref)
	for shape := range shapes {
		t.Run(shape, func(t *testing.T) {
			l, err := kernlog.ReadString(render(shape), kernlog.Options{})
			require.NoError(t, err)
			assert.Equal(t, want, summarize(l))
			assert.Equal(t, ref.Release, l.Release)
			assert.Equal(t, ref.CommandLine, l.CommandLine)
			assert.Zero(t, l.Backwards)
			if shape != "no time stamp" && shape != "bare kernel:" && shape != "host kernel:" {
				assert.False(t, l.Incidents[0].Start.IsZero(), "times kept")
				assert.False(t, l.Incidents[0].End.IsZero())
			}
		})
	}
}

func TestEventValues(t *testing.T) {
	l, err := kernlog.ReadString(render("dmesg"), kernlog.Options{})
	require.NoError(t, err)
	ev := l.Incidents[0].Events
	byKind := func(k kernlog.Kind) []kernlog.Event {
		var out []kernlog.Event
		for _, e := range ev {
			if e.Kind == k {
				out = append(out, e)
			}
		}
		return out
	}
	down := byKind(kernlog.ControllerDown)[0]
	assert.Equal(t, uint32(0xffffffff), down.CSTS)
	assert.Equal(t, uint16(0xffff), down.PCIStatus)
	assert.True(t, down.Gone())
	assert.True(t, down.Fatal())
	assert.Equal(t, 15, down.Line, "noise lines are counted")
	assert.Equal(t, 3661*time.Second+100*time.Millisecond, down.Time.Mono)

	to := byKind(kernlog.IOTimeout)
	assert.Equal(t, kernlog.Event{Kind: kernlog.IOTimeout, Line: to[0].Line, EndLine: to[0].Line, Time: to[0].Time, Driver: "nvme", Device: "nvme0", Controller: "nvme0",
		Tag: 123, CommandID: "a07b", QID: 4, Opcode: 2, OpName: "Read", ReqOp: "READ(0)", Size: 4096, Action: "aborting",
		Text: "nvme nvme0: I/O tag 123 (a07b) opcode 0x2 (Read) QID 4 timeout, aborting req_op:READ(0) size:4096",
		Raw:  "[ 3630.500000] nvme nvme0: I/O tag 123 (a07b) opcode 0x2 (Read) QID 4 timeout, aborting req_op:READ(0) size:4096"}, to[0])
	assert.Equal(t, 124, to[1].Tag)
	assert.Equal(t, "aborting", to[1].Action)
	assert.Equal(t, "reset controller", to[2].Action)

	aer := byKind(kernlog.AERReceived)[0]
	assert.Equal(t, "0000:00:1d.0", aer.Reporter)
	assert.Equal(t, "0000:04:00.0", aer.PCI)
	assert.Equal(t, "Corrected", aer.Severity)
	bus := byKind(kernlog.AERError)[0]
	assert.Equal(t, "Physical Layer", bus.Layer)
	assert.True(t, bus.Corrected())
	assert.Equal(t, "D3cold", byKind(kernlog.ResumeFailure)[0].FromState)
	assert.Equal(t, -19, byKind(kernlog.ResetFailure)[0].Errno)
	ioe := byKind(kernlog.IOError)
	assert.Equal(t, "READ", ioe[0].ReqOp)
	assert.Equal(t, "nvme0n1", ioe[0].Disk)
	assert.Equal(t, 3, ioe[1].SCT)
	assert.Equal(t, 0x71, ioe[1].SC)
	assert.Equal(t, "nvme_core.default_ps_max_latency_us=0 pcie_aspm=off pcie_port_pm=off", byKind(kernlog.WorkaroundHint)[0].Text)
}

func TestMessages(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		want kernlog.Event
	}{
		{"nvme nvme1: I/O 12 QID 0 timeout, reset controller", kernlog.Event{Kind: kernlog.AdminTimeout, Tag: 12, Action: "reset controller"}},
		{"nvme nvme1: I/O 123 (Read) QID 4 timeout, aborting", kernlog.Event{Kind: kernlog.IOTimeout, Tag: 123, QID: 4, OpName: "Read", Action: "aborting"}},
		{"nvme nvme1: I/O tag 28 (401c) QID 0 timeout, disable controller", kernlog.Event{Kind: kernlog.AdminTimeout, Tag: 28, CommandID: "401c", Action: "disable controller"}},
		{"nvme nvme1: Abort status: 0x371", kernlog.Event{Kind: kernlog.AbortStatus, Status: 0x371}},
		{"nvme nvme1: Removing after probe failure status: -19", kernlog.Event{Kind: kernlog.ProbeFailure, Errno: -19}},
		{"nvme nvme1: Device not ready; aborting reset, CSTS=0x1", kernlog.Event{Kind: kernlog.ResetNotReady, CSTS: 1, HasCSTS: true}},
		{"nvme nvme1: Device not ready; aborting initialisation, CSTS=0x0", kernlog.Event{Kind: kernlog.ResetNotReady, HasCSTS: true}},
		{"nvme nvme1: failed to set APST feature (-19)", kernlog.Event{Kind: kernlog.APSTFailed, Errno: -19}},
		{"nvme nvme1: failed to set APST feature (2)", kernlog.Event{Kind: kernlog.APSTFailed, Errno: 2}},
		{"nvme nvme1: controller is down; will reset: CSTS=0x3, PCI_STATUS=0x10", kernlog.Event{Kind: kernlog.ControllerDown, CSTS: 3, HasCSTS: true, PCIStatus: 0x10, HasPCIStatus: true}},
		{"nvme nvme1: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS read failed (134)", kernlog.Event{Kind: kernlog.ControllerDown, CSTS: 0xffffffff, HasCSTS: true, PCIStatusFailed: true}},
		{"nvme nvme1: resetting controller", kernlog.Event{Kind: kernlog.Reset}},
	} {
		t.Run(tc.msg, func(t *testing.T) {
			l, err := kernlog.ReadString("[  5.000000] "+tc.msg+"\n", kernlog.Options{})
			require.NoError(t, err)
			require.Len(t, l.Incidents, 1)
			require.Len(t, l.Incidents[0].Events, 1)
			got := l.Incidents[0].Events[0]
			assert.Equal(t, "nvme1", got.Controller)
			assert.Equal(t, 1, got.EndLine)
			assert.Equal(t, "[  5.000000] "+tc.msg, got.Raw)
			got.Line, got.EndLine, got.Time, got.Driver, got.Device, got.Controller, got.Text, got.Raw = 0, 0, kernlog.Timestamp{}, "", "", "", "", ""
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestAERNewSpellingAndPorts(t *testing.T) {
	log := `[ 10.0] pcieport 0000:00:1c.4: AER: Correctable error message received from 0000:3e:00.0
[ 10.1] nvme 0000:3e:00.0: PCIe Bus Error: severity=Correctable, type=Data Link Layer, (Transmitter ID)
[ 10.2] pcieport 0000:00:1c.4: AER: Uncorrected (Fatal) error received: 0000:3e:00.0
[ 10.3] pcieport 0000:00:1c.4: pciehp: Slot(4): Link Down
[ 10.4] pcieport 0000:00:1c.4: Unable to change power state from D3hot to D0, device inaccessible
`
	l, err := kernlog.ReadString(log, kernlog.Options{Addresses: map[string]string{"0000:3e:00.0": "nvme1", "0000:00:1c.4": "nvme1"}})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	in := l.Incidents[0]
	assert.Equal(t, "nvme1", in.Controller)
	assert.Equal(t, "Corrected", in.Events[0].Severity)
	assert.Equal(t, "Data Link Layer", in.Events[1].Layer)
	assert.Equal(t, "Uncorrected (Fatal)", in.Events[2].Severity)
	assert.Equal(t, kernlog.LinkDown, in.Events[3].Kind)
	assert.Equal(t, "0000:00:1c.4", in.Events[3].Reporter)
	assert.Equal(t, "D3hot", in.Events[4].FromState)

	// Without the addresses the events stay with the PCI function.
	l, err = kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	require.NotEmpty(t, l.Incidents)
	assert.Equal(t, "0000:3e:00.0", l.Incidents[0].PCI)
	assert.Equal(t, "0000:3e:00.0", l.Incidents[0].Name())
}

func TestIncidentsSplitOnGapsAndBoots(t *testing.T) {
	log := `[  100.0] nvme nvme0: I/O 1 QID 1 timeout, aborting
[  101.0] nvme nvme0: I/O 1 QID 1 timeout, reset controller
[ 2000.0] nvme nvme0: I/O 7 QID 2 timeout, aborting
[ 2000.5] nvme nvme1: I/O 7 QID 2 timeout, aborting
[    0.0] Linux version 6.12.110 (root@build) #1 SMP
[   50.0] nvme nvme0: Removing after probe failure status: -19
`
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 4)
	assert.Equal(t, []int{2, 1, 1, 1}, []int{len(l.Incidents[0].Events), len(l.Incidents[1].Events), len(l.Incidents[2].Events), len(l.Incidents[3].Events)})
	assert.Equal(t, []string{"nvme0", "nvme0", "nvme1", "nvme0"}, []string{l.Incidents[0].Controller, l.Incidents[1].Controller, l.Incidents[2].Controller, l.Incidents[3].Controller})
	assert.Equal(t, 1, l.Incidents[3].Boot)
	assert.Equal(t, 0, l.Incidents[2].Boot)
	assert.Equal(t, "6.12.110", l.Release)
	assert.Zero(t, l.Backwards, "a boot restarts the clock")

	l, err = kernlog.ReadString(log, kernlog.Options{Gap: time.Hour})
	require.NoError(t, err)
	assert.Len(t, l.Incidents, 3)
}

// Empty input, or blank lines alone, is no log: refused, not read as a
// log without a failure.
func TestEmptyIsNoLog(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "kernlog: not a kernel log: it holds no text"},
		{"\n\n", "kernlog: not a kernel log: it holds no text (2 blank lines)"},
		{" \t\r\n\n", "kernlog: not a kernel log: it holds no text (2 blank lines)"},
		{"> \n>\n", "kernlog: not a kernel log: it holds no text (2 blank lines)"},
		{" \n", "kernlog: not a kernel log: it holds no text (1 blank line)"},
	} {
		l, err := kernlog.ReadString(tc.in, kernlog.Options{})
		require.ErrorIs(t, err, kernlog.ErrEmpty, "%q", tc.in)
		require.ErrorIs(t, err, kernlog.ErrNotKernelLog, "%q", tc.in)
		assert.EqualError(t, err, tc.want, "%q", tc.in)
		require.NotNil(t, l)
	}
	// Lines skipped for their length and nothing else (a log joined into
	// one line by a form) are no log read either: refused, with what they
	// look like; beside a line of text they are a log that was there.
	long := strings.Repeat("x", kernlog.MaxLineLength+1) + "\n"
	_, err := kernlog.ReadString(long, kernlog.Options{})
	require.ErrorIs(t, err, kernlog.ErrNotKernelLog)
	assert.EqualError(t, err, "kernlog: not a kernel log: its one line is longer than any kernel log line (65536 bytes read at most), and no other line is text: were its line breaks lost on the way?")
	_, err = kernlog.ReadString(long+"\n"+long, kernlog.Options{})
	assert.ErrorContains(t, err, "its 2 lines are longer")
	l, err := kernlog.ReadString(long+"[    1.000000] Linux version 6.8.0\n", kernlog.Options{})
	require.NoError(t, err)
	assert.EqualValues(t, 1, l.LongLines)
}

func TestSkipsWhatIsNotAnEvent(t *testing.T) {
	for _, s := range []string{
		"[ 1.0]", "nvme nvme0: 8/0/0 default/read/poll queues",
		"Dec  1 10:00:00 host systemd[1]: Linux version 6.8",
		"2026-12-01T10:00:00+0000 host sshd[1]: nvme nvme0: Removing after probe failure status: -19",
		"nvme nvme0: pci function not-an-address",
		"[    2.000000] nvme0n1: detected capacity change from 0 to 1000215216",
		// A drive without the Timestamp feature answers with an NVMe
		// status (core.c's nvme_configure_timestamp): no failure.
		"[    1.204511] nvme nvme0: could not set timestamp (2)",
		// A /dev/kmsg record and a journal JSON record of another driver:
		// a log without the drive's lines, not text of another kind.
		"6,1234,5678901,-;usb 1-1: new high-speed USB device number 2 using xhci_hcd",
		`{"__CURSOR":"s=1","__REALTIME_TIMESTAMP":"1700000000000000","_TRANSPORT":"kernel","MESSAGE":"usb 1-1: new device"}`,
		// AER's note on the first of several errors logged together
		// (drivers/pci/pcie/aer.c), as a linux-pci thread quoted it
		// (Message-ID <20220506142254.mzl7jotubvebptlp@pali>): a detail
		// of the report above it, not a driver's failure.
		"[ 2733.385120] nvme 0000:01:00.0: AER:   Error of this Agent is reported first",
		// A console's lines pasted without their stamps (posted log h-04:
		// a homelab's notes, "Console Output Before Crash"): the kernel's
		// own messages (kernel/events/core.c, kernel/time/hrtimer.c,
		// arch/x86/mm/fault.c) make it a kernel log, one without an NVMe
		// line, not text of another kind.
		"perf: interrupt took too long (2501 > 2500), lowering kernel.perf_event_max_sample_rate to 79000\nhrtimer: interrupt took 28038 ns\n",
		"pvestatd[17411]: segfault at 11 ip 0000061b4a78e3aa0 sp 00007ffdda275750 error 6 in perl[...] likely on CPU 3 (core 4, socket 0)\n",
		"EXT4-fs (sda1): mounted filesystem with ordered data mode\nsome words\n",
	} {
		l, err := kernlog.ReadString(s, kernlog.Options{})
		require.NoError(t, err, "%q", s)
		assert.Empty(t, l.Incidents, "%q", s)
		assert.Zero(t, l.Events, "%q", s)
	}
}

// Text in which nothing reads as a kernel log is refused, with what it
// lacks: prose, brackets, a word, and the captures users give in place of
// a log (an nvme-cli id-ctrl listing, a smartctl report).
func TestRefusesWhatIsNotAKernelLog(t *testing.T) {
	for _, s := range []string{
		"hello\n", "[", "[]", "nvme", "nvme nvme0:",
		"NVME Identify Controller:\nvid       : 0x1cc1\nssvid     : 0x1cc1\nmn        : ADATA SX8200PNP\nsubnqn    : nqn.2014.08.org.nvmexpress:1cc11cc1\nps    0 : mp:9.00W operational enlat:0 exlat:0 rrt:0 rrl:0\n",
		"=== START OF INFORMATION SECTION ===\nModel Number:                       Samsung SSD 990 EVO Plus 1TB\nFirmware Version:                   2B2QKXG7\n",
		// blkparse's lines start with the device, "259,0", not a
		// /dev/kmsg record's "6,1234,5678901,-;".
		"259,0    0        1     0.000000000  4242  Q   R 0 + 8 [fio]\n259,0    0        4     0.000000000  4242  D   R 0 + 8 [fio]\n  8,0    3        1     0.000000000   697  G  WS 1050624 + 8 [kworker]\n",
		// JSON that is no journal record: nvme-cli's and smartctl's, one
		// a line.
		`{"feature: 0x0c": {"name": "Autonomous Power State Transition", "Current": "0x00000001"}}` + "\n",
		`{"json_format_version": [1, 0], "smartctl": {"version": [7, 4]}, "device": {"name": "/dev/sda"}}`,
		// Prose that names a kernel message without being one.
		"the log said perf: interrupt took too long (2501 > 2500)\nand a segfault at 11\n",
	} {
		l, err := kernlog.ReadString(s, kernlog.Options{})
		require.ErrorIs(t, err, kernlog.ErrNotKernelLog, "%q", s)
		if strings.Count(strings.TrimSuffix(s, "\n"), "\n") == 0 {
			assert.Contains(t, err.Error(), "its one line has no kernel time stamp", "%q", s)
		} else {
			assert.Contains(t, err.Error(), "none of its", "%q", s)
		}
		assert.Zero(t, l.Events, "%q", s)
	}
}

// AER's report of an error message whose requester ID names no device it
// knows (drivers/pci/pcie/aer.c: "can't find device of ID%04x"), as behind
// Intel VMD (a five-digit domain): an AER event of the port that received
// it, the source unknown, and never a failure-looking line left unread.
func TestAERSourceNotFound(t *testing.T) {
	for _, line := range []string{
		"[    1.595252] pcieport 10000:e0:1d.0: AER: can't find device of ID00e8",
		"[  300.000000] pcieport 0000:00:1c.0: AER: can't find device of ID0300",
	} {
		l, err := kernlog.ReadString(line+"\n", kernlog.Options{})
		require.NoError(t, err)
		assert.Empty(t, l.Unread, line)
		require.Len(t, l.Incidents, 1, line)
		e := l.Incidents[0].Events[0]
		assert.Equal(t, kernlog.AERReceived, e.Kind)
		assert.Equal(t, "source not found", e.Action)
		assert.Empty(t, e.PCI)
		assert.Contains(t, line, e.Reporter)
	}
}

// A port's "error received" line that journalctl's pager cut at the
// terminal's width and marked with '>' (posted h-03, pop-os/pop#3132:
// "set 09 14:54:33 pop-os kernel: pcieport 0000:00:01.3: AER: Multiple
// Corrected e>") is the port's report of an error of that severity, its
// source lost, and not a line left unread; a cut that leaves no whole
// severity word, or another AER line, is not read so.
func TestAERReceivedCutByPager(t *testing.T) {
	for _, c := range []struct{ line, severity string }{
		{"set 09 14:54:33 pop-os kernel: pcieport 0000:00:01.3: AER: Multiple Corrected e>", "Corrected"},
		{"[  12.000000] pcieport 0000:00:1c.0: AER: Corrected error rece>", "Corrected"},
		{"[  12.000000] pcieport 0000:00:1c.0: AER: Uncorrected (Fatal) err>", "Uncorrected (Fatal)"},
		{"[  12.000000] pcieport 0000:00:1c.0: AER: Multiple Uncorrected (Non>", "Uncorrected"},
	} {
		l, err := kernlog.ReadString(c.line+"\n", kernlog.Options{})
		require.NoError(t, err)
		assert.Empty(t, l.Unread, c.line)
		require.Len(t, l.Incidents, 1, c.line)
		e := l.Incidents[0].Events[0]
		assert.Equal(t, kernlog.AERReceived, e.Kind, c.line)
		assert.Equal(t, c.severity, e.Severity, c.line)
		assert.Equal(t, "source cut off", e.Action, c.line)
		assert.Empty(t, e.PCI, c.line)
		assert.Contains(t, c.line, e.Reporter, c.line)
	}
	for _, line := range []string{
		"[  12.000000] pcieport 0000:00:1c.0: AER: Corr>",
		"[  12.000000] pcieport 0000:00:1c.0: AER: Corrected error received: 0000:01:00.0",
	} {
		l, err := kernlog.ReadString(line+"\n", kernlog.Options{})
		require.NoError(t, err)
		for _, in := range l.Incidents {
			for _, e := range in.Events {
				assert.NotEqual(t, "source cut off", e.Action, line)
			}
		}
	}
}

// nvme's refusal of a controller whose subsystem NQN another already has
// (drivers/nvme/host/core.c, "ignoring ctrl due to duplicate subnqn (%s)."),
// as the ADATA SX6000LNP thread quotes it, is a driver error of that
// controller, not a line passed over.
func TestDuplicateSubsystemNQN(t *testing.T) {
	l, err := kernlog.ReadString("[ 0.942706] nvme nvme1: ignoring ctrl due to duplicate subnqn (nqn.2018-05.com.example:nvme:nvm-subsystem-OUI00E04C).\n", kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	e := l.Incidents[0].Events[0]
	assert.Equal(t, kernlog.DriverError, e.Kind)
	assert.Equal(t, "nvme1", e.Controller)
}

// TestCommandLineForms reads both lines a kernel prints its command line
// in: init/main.c's "Kernel command line:" on every architecture, and
// x86's earlier "Command line:" (arch/x86/kernel/setup.c), which a paste
// of the top of dmesg may hold alone.
func TestCommandLineForms(t *testing.T) {
	const args = "BOOT_IMAGE=/boot/vmlinuz-6.8.0-45-generic root=UUID=0b1c ro nvme_core.default_ps_max_latency_us=0"
	for _, log := range []string{
		"[    0.000000] Command line: " + args + "\n",
		"[    0.041222] Kernel command line: " + args + "\n",
		"Jan 28 14:54:37 argon kernel: Command line: " + args + "\n",
		"[    0.000000] Command line: " + args + "\n[    0.041222] Kernel command line: " + args + "\n",
	} {
		l, err := kernlog.ReadString(log, kernlog.Options{})
		require.NoError(t, err)
		assert.Equal(t, args, l.CommandLine, "%q", log)
	}
	// A message that only mentions the words is not the command line.
	l, err := kernlog.ReadString("[    5.000000] nvme nvme0: Command line: not this\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.CommandLine)
}

// TestDeviceIDs reads the PCI core's enumeration line of an NVMe function
// (drivers/pci/probe.c; " PCIe Endpoint" added in 6.x), in any prefix,
// and no other class's but Apple's NVMe controllers'.
func TestDeviceIDs(t *testing.T) {
	for _, tc := range []struct {
		line string
		want map[string]string
	}{
		{"[    0.412500] pci 0000:04:00.0: [144d:a80c] type 00 class 0x010802 PCIe Endpoint", map[string]string{"0000:04:00.0": "144d:a80c"}},
		{"Jan 28 14:54:37 argon kernel: pci 0000:01:00.0: [2646:2263] type 00 class 0x010802", map[string]string{"0000:01:00.0": "2646:2263"}},
		{"kernel: pci 10000:E1:00.0: [8086:F1A5] type 00 class 0x010802", map[string]string{"10000:e1:00.0": "8086:f1a5"}},
		{"[    0.400000] pci 0000:00:14.0: [8086:a0ed] type 00 class 0x0c0330", map[string]string{}},
		{"[    0.400000] pci 0000:00:1d.0: [8086:a0b0] type 01 class 0x060400", map[string]string{}},
		{"[    0.400000] pci 0000:04:00.0: [144d:a80c type 00 class 0x010802", map[string]string{}},
		// Apple's NVMe controllers, another class of mass storage that
		// nvme-pci binds by ID (a MacBook10,1's, posted zt-08); no other
		// device of that class.
		{"[    0.156476] pci 0000:01:00.0: [106b:2003] type 00 class 0x018002", map[string]string{"0000:01:00.0": "106b:2003"}},
		{"[    0.156476] pci 0000:01:00.0: [1234:5678] type 00 class 0x018002", map[string]string{}},
	} {
		l, err := kernlog.ReadString(tc.line+"\n", kernlog.Options{})
		require.NoError(t, err)
		assert.Equal(t, tc.want, l.DeviceIDs, tc.line)
		assert.Empty(t, l.Incidents, tc.line)
		assert.Empty(t, l.Unread, tc.line)
	}
}

// TestFabrics reads nvme-core's line of a controller connected over a
// fabric (nvme-tcp's and nvme-rdma's, nvme-fc's behind its prefix,
// nvme-loop's without "NQN"), the first of a controller's, and no other.
func TestFabrics(t *testing.T) {
	for _, tc := range []struct {
		source, line string
		want         map[string]int // controller: line
	}{
		{"posted g-19", "[  724.681350] nvme nvme0: new ctrl: NQN \"blktests-subsystem-1\", addr 127.0.0.1:4420\n", map[string]int{"nvme0": 1}},
		{"posted f-12", "> [4164487.114535] nvme nvme0: NVME-FC{0}: new ctrl: NQN \"nqn.2014-08.org.nvmexpress.discovery\"\n", map[string]int{"nvme0": 1}},
		{"posted f-02", "[  176.037674] nvme nvme1: new ctrl: \"blktests-subsystem-1\"\n", map[string]int{"nvme1": 1}},
		{"posted d-37, the discovery controller and then the subsystem's on one number", "> [   65.974085] nvme nvme2: new ctrl: NQN \"nqn.2014-08.org.nvmexpress.discovery\", addr 172.31.45.186:4420\n" +
			"> [   66.053802] nvme nvme2: new ctrl: NQN \"testnqn\", addr 172.31.45.186:4420\n", map[string]int{"nvme2": 1}},
		{"no controller", "[  176.037674] nvme: new ctrl: \"blktests-subsystem-1\"\n", map[string]int{}},
		{"a disk's line", "[  176.037674] nvme0n1: new ctrl: \"blktests-subsystem-1\"\n", map[string]int{}},
		{"another word", "[  176.037674] nvme nvme1: new ctrl: blktests\n", map[string]int{}},
	} {
		l, err := kernlog.ReadString(tc.line, kernlog.Options{})
		require.NoError(t, err)
		got := map[string]int{}
		for c, e := range l.Fabrics {
			assert.Equal(t, kernlog.FabricsConnect, e.Kind, tc.source)
			got[c] = e.Line
		}
		assert.Equal(t, tc.want, got, tc.source)
		assert.Empty(t, l.Incidents, tc.source)
		assert.Empty(t, l.Unread, tc.source)
	}
}

// The enumeration line is an NVMe function the log names: the only one,
// with the only controller, ties the address-keyed lines to it.
func TestDeviceIDJoins(t *testing.T) {
	l, err := kernlog.ReadString("[    0.412500] pci 0000:01:00.0: [2646:2263] type 00 class 0x010802\n"+
		"[ 7336.014307] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n"+
		"[ 7336.200000] nvme 0000:01:00.0: Unable to change power state from D3cold to D0, device inaccessible\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"0000:01:00.0": "nvme0"}, l.Addresses)
	require.Len(t, l.Incidents, 1)
	assert.Equal(t, 2, len(l.Incidents[0].Events))
}

// A journal's JSON records are read as the plain lines are: the PCI
// core's lines that hold no keyword but name a function (its enumeration
// line, a DPC containment) included.
func TestJournalJSONReadsWhatPlainReads(t *testing.T) {
	msgs := []string{
		"Command line: BOOT_IMAGE=/vmlinuz ro nvme_core.default_ps_max_latency_us=0",
		"pci 0000:01:00.0: [2646:2263] type 00 class 0x010802",
		"pcieport 0000:00:1c.0: DPC: containment event, status:0x1f01 source:0x0100",
		"nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10",
	}
	var plain, js strings.Builder
	for i, m := range msgs {
		fmt.Fprintf(&plain, "[%5d.000000] %s\n", 100*i, m)
		fmt.Fprintf(&js, `{"__REALTIME_TIMESTAMP":"%d","__MONOTONIC_TIMESTAMP":"%d","_BOOT_ID":"b1","_TRANSPORT":"kernel","MESSAGE":%q}`+"\n", int64(1700000000000000)+int64(i)*100000000, int64(i)*100000000, m)
	}
	p, err := kernlog.ReadString(plain.String(), kernlog.Options{})
	require.NoError(t, err)
	j, err := kernlog.ReadString(js.String(), kernlog.Options{})
	require.NoError(t, err)
	assert.Equal(t, p.CommandLine, j.CommandLine)
	assert.Equal(t, map[string]string{"0000:01:00.0": "2646:2263"}, j.DeviceIDs)
	assert.Equal(t, p.DeviceIDs, j.DeviceIDs)
	assert.Equal(t, p.Events, j.Events)
	assert.Equal(t, summarize(p), summarize(j))
}

// The release of a "Linux version" line, with the stable update a
// distribution's X.Y.0-N kernel is built on where the line gives it (the
// lines as Ubuntu's, Debian's, Raspberry Pi OS's and Arch's kernels print
// them), in the form apst.ParseRelease reads.
func TestBootRelease(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"Linux version 5.4.0-72-generic (buildd@lcy01-amd64-019) (gcc version 9.3.0 (Ubuntu 9.3.0-17ubuntu1~20.04)) #80-Ubuntu SMP Mon Apr 12 17:35:00 UTC 2021 (Ubuntu 5.4.0-72.80-generic 5.4.106)",
			"5.4.0-72-generic (Ubuntu 5.4.0-72.80-generic 5.4.106)"},
		{"Linux version 5.10.0-28-amd64 (debian-kernel@lists.debian.org) (gcc-10 (Debian 10.2.1-6) 10.2.1 20210110, GNU ld (GNU Binutils for Debian) 2.35.2) #1 SMP Debian 5.10.209-2 (2024-01-31)",
			"5.10.0-28-amd64 (Debian 5.10.209-2)"},
		{"Linux version 6.6.31+rpt-rpi-2712 (serge@raspberrypi.com) (gcc-12 (Debian 12.2.0-14) 12.2.0) #1 SMP PREEMPT Debian 1:6.6.31-1+rpt1 (2024-05-29)",
			"6.6.31+rpt-rpi-2712"},
		{"Linux version 6.12.48-1-lts (linux-lts@archlinux) (gcc (GCC) 15.2.1 20250813) #1 SMP PREEMPT_DYNAMIC Fri, 19 Sep 2025 10:00:00 +0000",
			"6.12.48-1-lts"},
		{"Linux version 5.15.0-91-generic (buildd@lcy02-amd64-045) #101-Ubuntu SMP", "5.15.0-91-generic"},
		// Cut short before its uname -v: the compiler's "(Ubuntu ...)" is
		// no base.
		{"Linux version 5.15.0-91-generic (buildd@lcy02-amd64-045) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38)",
			"5.15.0-91-generic"},
		{"Linux version 6.1.0-12-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40)",
			"6.1.0-12-amd64"},
		// Raspberry Pi OS's first Bookworm kernels: Debian's numbering.
		{"Linux version 6.1.0-rpi7-rpi-2712 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT Debian 1:6.1.63-1+rpt1 (2023-11-24)",
			"6.1.0-rpi7-rpi-2712 (Debian 6.1.63-1+rpt1)"},
		{"Linux version 6.5.0-0.deb12.4-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Debian 6.5.10-1~bpo12+1 (2023-11-23)",
			"6.5.0-0.deb12.4-amd64 (Debian 6.5.10-1~bpo12+1)"},
		// NixOS names itself in uname -v (a Dell's dmesg quoted in a
		// GitHub issue, 2025); an -rc on the linux-acpi list, 2024.
		{"Linux version 6.12.28 (nixbld@localhost) (gcc (GCC) 14.2.1 20250322, GNU ld (GNU Binutils) 2.44) #1-NixOS SMP PREEMPT_DYNAMIC Fri May  9 07:50:53 UTC 2025",
			"6.12.28 (NixOS 6.12.28)"},
		{"Linux version 6.8.0-rc4 (nixbld@localhost) (gcc (GCC) 12.3.0, GNU ld (GNU Binutils) 2.40) #1-NixOS SMP PREEMPT_DYNAMIC Sun Feb 11 20:18:13 UTC 2024",
			"6.8.0-rc4 (NixOS 6.8.0-rc4)"},
	} {
		l, err := kernlog.ReadString("[    0.000000] "+tc.line+"\n", kernlog.Options{})
		require.NoError(t, err)
		assert.Equal(t, tc.want, l.Release)
		_, err = apst.ParseRelease(l.Release)
		assert.NoError(t, err, "apst.ParseRelease reads what Release holds")
	}
}

// Lines that a kernel log is made of are a log without a failure, not
// text of another kind: a time of day alone in brackets before dmesg's
// lines (smartmontools/smartmontools#496, posted v-03) and a driver's
// lines about a PCI function without stamps (a CM4 with a MegaRAID card,
// geerlingguy/raspberry-pi-pcie-devices#196, posted w-10). lspci -D's
// listing names functions too, not as a driver's message does: refused.
func TestKernelLinesWithoutAFailure(t *testing.T) {
	l, err := kernlog.ReadString("[18:14:04] usb 2-6: new SuperSpeed USB device number 14 using xhci_hcd\n"+
		"[18:14:04] usb 2-6: UAS is ignored for this device, using usb-storage instead\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Incidents)
	l, err = kernlog.ReadString("[18:14:04] nvme nvme0: I/O 5 QID 2 timeout, aborting\n", kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	ts := l.Incidents[0].Start
	assert.True(t, ts.HasWall && ts.NoDate, "%+v", ts)
	assert.Equal(t, "18:14:04", ts.Wall.Format("15:04:05"))

	_, err = kernlog.ReadString("megasas: 07.714.04.00-rc1\n"+
		"pci 0000:00:00.0: enabling device (0000 -> 0002)\n"+
		"megaraid_sas 0000:01:00.0: FW now in Ready state\n", kernlog.Options{})
	require.NoError(t, err)

	_, err = kernlog.ReadString("0000:00:00.0 Host bridge: Broadcom Inc. and subsidiaries BCM2711 PCIe Bridge (rev 20)\n"+
		"0000:01:00.0 RAID bus controller: Broadcom / LSI MegaRAID Tri-Mode SAS3408 (rev 01)\n", kernlog.Options{})
	require.ErrorIs(t, err, kernlog.ErrNotKernelLog)
}

// A test harness's collector writes a level column between the host and
// the program (ScyllaDB's SCT, scylladb/scylladb#23168, posted za-04):
// the kernel's lines read as syslog's do.
func TestLevelColumn(t *testing.T) {
	l, err := kernlog.ReadString("2025-03-05T13:09:27.955+00:00 longevity-tls-1tb-7d-add-remo-db-node-c9bfaa46-eastus-1     !INFO | kernel: Future hung task reports are suppressed, see sysctl kernel.hung_task_warnings\n"+
		"2025-03-05T13:09:36.192+00:00 longevity-tls-1tb-7d-add-remo-db-node-c9bfaa46-eastus-1  !WARNING | kernel: nvme nvme0: I/O tag 832 (3340) opcode 0x1 (I/O Cmd) QID 2 timeout, aborting req_op:WRITE(1) size:131072\n"+
		"2025-03-05T13:09:36.300+00:00 longevity-tls-1tb-7d-add-remo-db-node-c9bfaa46-eastus-1  !WARNING | scylla: commitlog - Failed to persist commits to disk\n", kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	e := l.Incidents[0].Events[0]
	assert.Equal(t, kernlog.IOTimeout, e.Kind)
	assert.Equal(t, 2, e.QID)
	assert.Equal(t, "2025-03-05 13:09:36", e.Time.Wall.Format("2006-01-02 15:04:05"))
	assert.Zero(t, l.UnreadLines)
}

// A log collector's template that writes the program and the level
// before the dmesg line ("kernel:warning: [10419813.132359] ...", an
// Oracle field report quoted on linux-pci, Message-ID:
// <0081d0f6-871f-3d07-1af7-0e8e41f5d983@oracle.com>, posted zc-03): the
// lines read with their times.
func TestProgramLevelPrefix(t *testing.T) {
	l, err := kernlog.ReadString(">> kernel:warning: [10419813.132342] Call Trace:\n"+
		">> kernel:warning: [10419813.132359]  nvme_wait_freeze+0x33/0x50 [nvme_core]\n", kernlog.Options{})
	require.NoError(t, err)
	require.NotNil(t, l.DriverFrame)
	assert.Equal(t, 2, l.DriverFrame.Line)
	assert.Equal(t, 10419813132359*time.Microsecond, l.DriverFrame.Time.Mono)

	l, err = kernlog.ReadString("kernel:err: [  105.5] nvme nvme0: I/O 5 QID 2 timeout, aborting\n", kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	e := l.Incidents[0].Events[0]
	assert.Equal(t, kernlog.IOTimeout, e.Kind)
	assert.Equal(t, 105500*time.Millisecond, e.Time.Mono)

}

// A clock gone back starts the next boot when the log says it is
// another boot's, and is lines out of order otherwise (Log.Backwards):
// a syslog whose lines carry the kernel's time since boot after the clock
// (a SLES supportconfig's grep, lines in backticks, posted zc-04), where
// the time since boot starts again while the clock goes on; a dated clock
// (dmesg -T) gone back by days, another boot's lines pasted after the
// first's (a PM9A1 failing its probe on two days, posted zf-01).
func TestClockBackNextBoot(t *testing.T) {
	const (
		fc1 = "`messages_localwarn.txt:%s xxidb3 kernel: [10795.893801][T31147] nvme nvme4: NVME-FC{4}: controller connectivity lost.`\n"
		fc2 = "`messages_localwarn.txt:%s xxidb3 kernel: [  202.345727][  T552] nvme nvme3: NVME-FC{3}: resetting controller`\n"
		tT1 = "[%s] nvme nvme1: Removing after probe failure status: -4\n"
		tT2 = "[%s] nvme nvme0: I/O tag 29 (001d) QID 0 timeout, disable controller\n"
	)
	tests := []struct {
		name      string
		log       string
		next      bool
		backwards int64
	}{
		{"syslog, clock on", fmt.Sprintf(fc1, "2023-03-05T15:43:44.783047+03:00") + fmt.Sprintf(fc2, "2023-03-05T16:00:55.904020+03:00"), true, 0},
		{"syslog, clock back", fmt.Sprintf(fc1, "2023-03-05T16:00:55.904020+03:00") + fmt.Sprintf(fc2, "2023-03-05T15:43:44.783047+03:00"), false, 1},
		{"dmesg -T, back by months", fmt.Sprintf(tT1, "Mon Feb 17 21:25:03 2025") + "\n" + fmt.Sprintf(tT2, "Sat Nov 23 12:15:11 2024"), true, 0},
		{"dmesg -T, back by an hour", fmt.Sprintf(tT1, "Mon Feb 17 21:25:03 2025") + fmt.Sprintf(tT2, "Mon Feb 17 20:25:03 2025"), false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tt.log, kernlog.Options{})
			require.NoError(t, err)
			require.Len(t, l.Incidents, 2)
			assert.Equal(t, 0, l.Incidents[0].Boot)
			want := 0
			if tt.next {
				want = 1
			}
			assert.Equal(t, want, l.Incidents[1].Boot)
			assert.Equal(t, tt.backwards, l.Backwards)
		})
	}
}

// A log in any shape that holds no line of the drive's is a kernel log
// without a failure, not text of another kind: its stamps say what it
// is. (A shape with no stamp of its own says nothing, and a line of no
// device in it is prose.)
func TestShapesKernelLogWithoutEvents(t *testing.T) {
	// Shapes that show no stamp: no time at all, a table's bare seconds,
	// and a shipper's record that names no program and holds no syslog
	// line (an application's reads the same).
	unstamped := map[string]bool{"no time stamp": true, "Markdown table, time, device and message": true, "elasticdump": true}
	for shape, render1 := range shapes {
		if unstamped[shape] {
			continue
		}
		t.Run(shape, func(t *testing.T) {
			text := render1(3*time.Second, "usb 1-1: new high-speed USB device number 2 using xhci_hcd") + "\n" +
				render1(4*time.Second, "usb 1-1: New USB device found, idVendor=0bda, idProduct=8153, bcdDevice=30.00") + "\n"
			l, err := kernlog.ReadString(text, kernlog.Options{})
			require.NoError(t, err)
			assert.Empty(t, l.Incidents)
		})
	}
}
