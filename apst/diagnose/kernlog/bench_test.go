package kernlog_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// dmesgNoise is what a plain dmesg holds between NVMe events: PCI
// enumeration, other drivers, and nvme lines that are not events. The
// drive's own enumeration line ("[144d:a80c] type 00 class 0x010802"),
// which Read keeps as the drive's PCI ID, stands once a pattern, as in a
// boot; the noise repeats another function's (an Ethernet controller's).
var dmesgNoise = []string{
	"[    0.412345] pci 0000:00:1d.0: [8086:a330] type 01 class 0x060400 PCIe Root Port",
	"[    0.412400] pci 0000:00:1d.0: PME# supported from D0 D3hot D3cold",
	"[    0.412500] pci 0000:00:1f.6: [8086:15fa] type 00 class 0x020000 conventional PCI endpoint",
	"[    0.412600] pci 0000:04:00.0: reg 0x10: [mem 0xd1100000-0xd1103fff 64bit]",
	"[    1.100000] usb 1-1: new high-speed USB device number 2 using xhci_hcd",
	"[    1.200000] EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode. Quota mode: none.",
	"[    1.300000] nvme nvme0: 8/0/0 default/read/poll queues",
	"[    1.300100]  nvme0n1: p1 p2 p3",
	"[    1.400000] e1000e 0000:00:1f.6 eth0: NIC Link is Up 1000 Mbps Full Duplex, Flow Control: Rx/Tx",
	"[    1.500000] audit: type=1400 audit(1700000000.000:2): apparmor=\"STATUS\" operation=\"profile_load\"",
	"[    1.600000] wlp0s20f3: authenticated",
	"[    1.700000] usb 1-1: reset high-speed USB device number 2 using xhci_hcd",
}

// BenchmarkReadDmesg reads a plain dmesg log of 64 MiB: the failure of
// shapes_test.go among 20 times as many other lines.
func BenchmarkReadDmesg(b *testing.B) {
	var p strings.Builder
	p.WriteString("[    0.412500] pci 0000:04:00.0: [144d:a80c] type 00 class 0x010802 PCIe Endpoint\n")
	p.WriteString(render("dmesg"))
	for range 20 {
		for _, n := range dmesgNoise {
			p.WriteString(n + "\n")
		}
	}
	readRepeated(b, p.String())
}

// BenchmarkReadShapes reads 64 MiB of the log of BenchmarkReadDmesg in
// the other shapes users paste most: journalctl -k (the journal's short
// form, as forum threads show it) and dmesg -T (wall-clock times); and as
// a fleet exports it, Filebeat's documents from Elasticsearch (the ECS
// fields Filebeat's system module writes: "@timestamp", "log.file.path",
// "message", "process.name", "host.name").
func BenchmarkReadShapes(b *testing.B) {
	for _, shape := range []string{"journalctl -k", "dmesg -T", "Elasticsearch document"} {
		b.Run(shape, func(b *testing.B) {
			render1 := shapes[shape]
			var p strings.Builder
			p.WriteString(render1(412500*time.Microsecond, "pci 0000:04:00.0: [144d:a80c] type 00 class 0x010802 PCIe Endpoint") + "\n")
			p.WriteString(render(shape))
			for range 20 {
				for _, n := range dmesgNoise {
					end := strings.IndexByte(n, ']')
					secs, err := strconv.ParseFloat(strings.TrimSpace(n[1:end]), 64)
					if err != nil {
						b.Fatal(err)
					}
					p.WriteString(render1(time.Duration(secs*float64(time.Second)), n[end+2:]) + "\n")
				}
			}
			readRepeated(b, p.String())
		})
	}
}

// readRepeated times Read over 64 MiB of pattern repeated.
func readRepeated(b *testing.B, text string) {
	b.Helper()
	pattern := []byte(text)
	const size = 64 << 20
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := kernlog.Read(context.Background(), &repeatReader{pattern: pattern, left: size}, kernlog.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadHeldBARs reads a log whose PCI core could assign no BAR of
// 4,096 functions, then 200,000 timeouts of a controller: each of the
// controller's lines asks whether a failure of its function is held, which
// a search of every held failure made 7 s of a quarter of a second (the
// lines are the kernel's formats, "BAR 0: failed to assign [mem size
// 0x00004000 64bit]" and nvme-pci's timeout, filled in).
func BenchmarkReadHeldBARs(b *testing.B) {
	var sb strings.Builder
	for i := range 4096 {
		sb.WriteString("[    0.2] pci 0001:" + hex2(i/256) + ":" + hex2(i/8%32) + "." + strconv.Itoa(i%8) + ": BAR 0: failed to assign [mem size 0x00004000 64bit]\n")
	}
	for i := range 200000 {
		sb.WriteString("[  " + strconv.Itoa(10+i) + ".0] nvme nvme0: I/O " + strconv.Itoa(i) + " QID 2 timeout, aborting\n")
	}
	log := sb.String()
	b.SetBytes(int64(len(log)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := kernlog.ReadString(log, kernlog.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// hex2 is n in two lower-case hex digits.
func hex2(n int) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[n>>4&0xf], digits[n&0xf]})
}
