package kernlog_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// checkLog checks what holds for every Log Read returns.
func checkLog(t interface {
	Fatalf(string, ...any)
}, l *kernlog.Log) {
	var counted int64
	for _, in := range l.Incidents {
		n := 0
		for _, c := range in.Counts {
			if c <= 0 {
				t.Fatalf("count %d", c)
			}
			n += c
		}
		// Every event is counted, but a run of sleep lines of one
		// direction counts once.
		sleeps := in.Counts[kernlog.SuspendEntry] + in.Counts[kernlog.SuspendExit]
		if kept := len(in.Events) + in.Omitted; sleeps == 0 && kept != n || kept < n {
			t.Fatalf("incident %s: %d kept + %d omitted, %d counted (%d sleep runs)", in.Name(), len(in.Events), in.Omitted, n, sleeps)
		}
		if len(in.Events) > kernlog.MaxIncidentEvents || len(in.Events) == 0 {
			t.Fatalf("incident %s keeps %d events", in.Name(), len(in.Events))
		}
		for _, e := range in.Events {
			if e.Kind == kernlog.Boot || e.Kind == kernlog.CommandLine || e.Kind == kernlog.PCIFunction || e.Kind == kernlog.PCIDevice || e.Kind == kernlog.Machine || e.Kind == kernlog.Hypervisor || e.Kind == kernlog.FabricsConnect {
				t.Fatalf("%s in an incident", e.Kind)
			}
			if len(e.Text) > kernlog.MaxTextLength {
				t.Fatalf("text of %d bytes", len(e.Text))
			}
			if e.Line < 1 || int64(e.Line) > l.Lines {
				t.Fatalf("line %d of %d", e.Line, l.Lines)
			}
			// A message wrapped spans at most MaxWrapLines physical
			// lines; one line quoted-printable broke with soft breaks
			// (one line as the mail reads) at most the 64 qp.go joins.
			if e.EndLine < e.Line || e.EndLine-e.Line >= max(kernlog.MaxWrapLines, 64) || int64(e.EndLine) > l.Lines {
				t.Fatalf("lines %d-%d of %d", e.Line, e.EndLine, l.Lines)
			}
			if len(e.Raw) > kernlog.MaxTextLength || e.Raw == "" {
				t.Fatalf("raw of %d bytes", len(e.Raw))
			}
			if in.Counts[e.Kind] == 0 {
				t.Fatalf("incident %s keeps a %s event it does not count", in.Name(), e.Kind)
			}
			if e.GuessedController && (e.Disk == "" || e.Controller == "") {
				t.Fatalf("guessed controller %q of disk %q", e.Controller, e.Disk)
			}
		}
		counted += int64(n)
	}
	if len(l.Incidents) > kernlog.MaxIncidents {
		t.Fatalf("%d incidents", len(l.Incidents))
	}
	if len(l.Unread) > kernlog.MaxUnread || l.UnreadLines < int64(len(l.Unread)) {
		t.Fatalf("%d unread lines listed, %d counted", len(l.Unread), l.UnreadLines)
	}
	for _, u := range l.Unread {
		if u.Line < 1 || int64(u.Line) > l.Lines || len(u.Text) > kernlog.MaxTextLength || u.Program != "" {
			t.Fatalf("unread %+v of %d lines", u, l.Lines)
		}
	}
	if len(l.Relayed) > kernlog.MaxUnread || l.RelayedLines < int64(len(l.Relayed)) {
		t.Fatalf("%d relayed lines listed, %d counted", len(l.Relayed), l.RelayedLines)
	}
	for _, u := range l.Relayed {
		if u.Line < 1 || int64(u.Line) > l.Lines || len(u.Text) > kernlog.MaxTextLength || u.Program == "" || u.Program == "kernel" || len(u.Program) > kernlog.MaxTextLength {
			t.Fatalf("relayed %+v of %d lines", u, l.Lines)
		}
	}
	if len(l.FileSystemErrors) > kernlog.MaxUnread || l.FileSystemErrorLines < int64(len(l.FileSystemErrors)) {
		t.Fatalf("%d file system errors listed, %d counted", len(l.FileSystemErrors), l.FileSystemErrorLines)
	}
	for _, e := range l.FileSystemErrors {
		if e.Kind != kernlog.FileSystemError || !strings.HasPrefix(e.Disk, "nvme") || e.Driver == "" ||
			e.Line < 1 || int64(e.Line) > l.Lines || e.Raw == "" || len(e.Raw) > kernlog.MaxTextLength {
			t.Fatalf("file system error %+v of %d lines", e, l.Lines)
		}
	}
	if len(l.Namespaces) > kernlog.MaxAddresses || len(l.Addresses) > kernlog.MaxAddresses || len(l.DeviceIDs) > kernlog.MaxAddresses || len(l.Fabrics) > kernlog.MaxAddresses {
		t.Fatalf("%d namespaces, %d addresses", len(l.Namespaces), len(l.Addresses))
	}
	if l.DroppedIncidents == 0 && counted > l.Events {
		t.Fatalf("%d events in incidents, %d recognised", counted, l.Events)
	}
}

func FuzzRead(f *testing.F) {
	for shape := range shapes {
		f.Add(render(shape))
	}
	f.Add(rockchip)
	f.Add(radxa)
	f.Add(wrap(render("dmesg"), 72, false))
	f.Add(qpEncode("> " + strings.ReplaceAll(render("dmesg"), "\n", "\n> ")))
	f.Add("\x00\x01\x02")
	// A compressed log, whole and cut short.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(render("dmesg")))
	zw.Close()
	f.Add(gz.String())
	f.Add(gz.String()[:gz.Len()/2])
	// UTF-16 with its byte order mark, as PowerShell saves a log.
	f.Add("\xff\xfe[\x00 \x001\x00]\x00 \x00n\x00v\x00m\x00e\x00 \x00n\x00v\x00m\x00e\x000\x00:\x00 \x00I\x00/\x00O\x00\n\x00")
	f.Add("[ 1.0] nvme nvme0: I/O tag 1 (0001) opcode 0x2 (Read) QID 0 timeout, aborting req_op:READ(0) size:1\n")
	f.Add("Dec 31 23:59:59 h kernel: nvme nvme0: Abort status: 0x0\nJan  1 00:00:01 h kernel: nvme nvme0: Abort status: 0x1\n")
	f.Add("[ 4626.590776] BTRFS error (device nvme0n1p3): bdev /dev/nvme0n1p3 errs: wr 1, rd 0, flush 0, corrupt 0, gen 0\n[  517.654795] XFS (nvme0n1p2): log I/O error -5\n")
	// This round's readers: a USB enclosure's uas resets, a SCSI disk's
	// failure, a firmware-first CPER record, a tunnel, a level column.
	f.Add("[  115.691139] sd 0:0:0:0: [sda] tag#19 uas_eh_abort_handler 0 uas-tag 1 inflight: CMD IN\n[  115.727145] scsi host0: uas_eh_device_reset_handler start\n[  115.864065] usb 2-1: reset SuperSpeed Gen 1 USB device number 2 using xhci_hcd\n")
	f.Add("[    2.1] scsi host2: usb-storage 2-1:1.0\n[   40.0] sd 2:0:0:0: [sdb] tag#0 FAILED Result: hostbyte=DID_ERROR\n[   41.0] I/O error, dev sdb, sector 2048 op 0x0:(READ)\n[   50.0] ata3.00: failed command: READ FPDMA QUEUED\n")
	f.Add("[1.0] {1}[Hardware Error]: event severity: fatal\n[1.0] {1}[Hardware Error]:   section_type: PCIe error\n[1.0] {1}[Hardware Error]:   device_id: 0000:5e:00.0\n")
	f.Add("[  138.740586] thunderbolt 0000:00:0d.2: 1:3: PCIe tunnel activation failed, aborting\n")
	f.Add("2025-03-05T13:09:36.192+00:00 host  !WARNING | kernel: nvme nvme0: I/O xxx QID x timeout, completion polled\n[18:14:04] usb 2-6: USB disconnect, device number 14\n")
	// And the next round's: a hung driver, taint lines, a collector's
	// level prefix, a syslog's next boot.
	f.Add("[   75.549201] INFO: task systemd-shutdow:1 blocked for more than 15 seconds.\n[   75.549636]       Not tainted 6.7.0-rc5-00173-g34d71db9cce2 #4540\n[   75.552157]  nvme_wait_freeze_timeout+0x68/0xa4\n")
	f.Add("[  100.1] CPU: 3 PID: 1 Comm: kworker/3:1 Not tainted 6.1.0-18-amd64 #1 Debian 6.1.76-1\n[  100.1] Tainted: [W]=WARN, [O]=OOT_MODULE\n")
	f.Add(">> kernel:warning: [10419813.132359]  nvme_wait_freeze+0x33/0x50 [nvme_core]\n")
	f.Add("[   50.947829] pcieport 0000:00:1b.0: PCIe Bus Error: severity=Uncorrected (Non-Fatal), type=Transaction Layer, (Receiver\nID)\n[   50.947830] pcieport 0000:00:1b.0:   device [8086:06ac] error status/mask=00200000/\n")
	f.Add(">   $ echo 1 > /sys/class/pci_bus/0000\\:00/device/0000\\:00\\:00.0/remove\n  nvme nvme0: ctrl state 1 is not RESETTING\nnvme0: I/O tag XXX (cid Y) QID N timeout, completion polled\n")
	f.Add("[  1.0] blk_update_request: I/O error, dev nvme0n1, sector 113319936\nop 0x9:(WRITE_ZEROES) flags 0x0\nAfter:\n")
	f.Add("2023-03-05T15:43:44.783047+03:00 h kernel: [10795.893801][T31147] nvme nvme4: NVME-FC{4}: controller connectivity lost.\n2023-03-05T16:00:55.904020+03:00 h kernel: [  202.345727][  T552] nvme nvme3: NVME-FC{3}: resetting controller\n")
	f.Fuzz(func(t *testing.T, s string) {
		l, err := kernlog.ReadString(s, kernlog.Options{})
		if err != nil && !errors.Is(err, kernlog.ErrBinary) && !errors.Is(err, kernlog.ErrNotKernelLog) {
			t.Fatalf("error %v", err)
		}
		// No log is refused as no kernel log while it holds an event or a
		// failure-looking line it could not read; another system's log
		// (ErrNotLinux: a Raspberry Pi bootloader's "37.63 nvme: error
		// 8", Windows's stornvme events) is refused by the line that says
		// whose it is, and its failure-looking lines are that system's.
		if errors.Is(err, kernlog.ErrNotKernelLog) && (l.Events > 0 || l.UnreadLines > 0 && !errors.Is(err, kernlog.ErrNotLinux)) {
			t.Fatalf("refused as no kernel log, with %d events and %d unread lines", l.Events, l.UnreadLines)
		}
		checkLog(t, l)
	})
}

// Invariants: any selection of the failure's lines, in any shape, quoted or
// not, gives the incidents of the same selection in plain dmesg.
func TestRapidShapeInvariance(t *testing.T) {
	names := make([]string, 0, len(shapes))
	for s := range shapes {
		names = append(names, s)
	}
	rapid.Check(t, func(t *rapid.T) {
		var picked []line
		for _, l := range failure {
			if rapid.Bool().Draw(t, "keep") {
				picked = append(picked, l)
			}
		}
		if len(picked) == 0 {
			// An empty paste is refused (ErrEmpty), in every shape: keep
			// one line.
			picked = append(picked, rapid.SampledFrom(failure).Draw(t, "one"))
		}
		shape := rapid.SampledFrom(names).Draw(t, "shape")
		quote := rapid.SampledFrom([]string{"", "> ", "    ", "\t", ">> ", "  |  "}).Draw(t, "quote")
		// A serial console's capture puts its level before what the
		// console printed: dmesg's lines.
		level := ""
		if consoleShapes[shape] {
			level = rapid.SampledFrom([]string{"", "CRIT: ", "WARN: ", "INFO: "}).Draw(t, "level")
		}
		var plain, shaped strings.Builder
		for _, l := range picked {
			plain.WriteString(shapes["dmesg"](l.mono, l.msg) + "\n")
			shaped.WriteString(quote + level + shapes[shape](l.mono, l.msg) + "\n")
		}
		want, err := kernlog.ReadString(plain.String(), kernlog.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := kernlog.ReadString(shaped.String(), kernlog.Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkLog(t, got)
		if a, b := summarize(want), summarize(got); !equalSummaries(a, b) {
			t.Fatalf("shape %q quote %q level %q:\nwant %+v\ngot  %+v", shape, quote, level, a, b)
		}
	})
}

// consoleShapes are the shapes a console prints: dmesg's.
var consoleShapes = map[string]bool{"dmesg": true, "no time stamp": true, "printk level": true, "dmesg -T": true}

func equalSummaries(a, b []summary) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Controller != b[i].Controller || a[i].PCI != b[i].PCI || len(a[i].Events) != len(b[i].Events) {
			return false
		}
		for j := range a[i].Events {
			if a[i].Events[j] != b[i].Events[j] {
				return false
			}
		}
	}
	return true
}

// Invariant: arbitrary lines mixed into a log never change its events.
func TestRapidNoiseDoesNotChangeEvents(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		for _, l := range failure {
			for range rapid.IntRange(0, 2).Draw(t, "noise") {
				junk := rapid.StringMatching(`[ -~]{0,60}`).Draw(t, "junk")
				if strings.Contains(junk, "nvme") || strings.Contains(junk, "Linux version") || strings.Contains(junk, "command line") || strings.Contains(junk, "Slot(") || strings.Contains(junk, "AER") || strings.Contains(junk, "PCIe Bus Error") ||
					strings.Contains(junk, "PM: ") || strings.Contains(junk, "ASPM") || strings.Contains(junk, "IRQ") || strings.Contains(junk, "nobody cared") || strings.Contains(junk, "sleep state") {
					junk = "x"
				}
				b.WriteString(junk + "\n")
			}
			b.WriteString(shapes["dmesg"](l.mono, l.msg) + "\n")
		}
		got, err := kernlog.ReadString(b.String(), kernlog.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := kernlog.ReadString(render("dmesg"), kernlog.Options{})
		if !equalSummaries(summarize(want), summarize(got)) {
			t.Fatalf("noise changed the incidents")
		}
	})
}
