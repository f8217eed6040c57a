package kernlog_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

func TestBinaryInputIsAnError(t *testing.T) {
	bin := make([]byte, 64<<10)
	for i := range bin {
		bin[i] = byte(i * 7)
	}
	_, err := kernlog.Read(context.Background(), bytes.NewReader(bin), kernlog.Options{})
	require.ErrorIs(t, err, kernlog.ErrBinary)
	assert.Contains(t, err.Error(), "kernlog: input is binary")

	// A log with a few binary lines among events is still read.
	mixed := string(bin[:300]) + "\n" + render("dmesg")
	l, err := kernlog.ReadString(mixed, kernlog.Options{})
	require.NoError(t, err)
	assert.Positive(t, l.BinaryLines)
	assert.Len(t, l.Incidents, 1)
}

func TestLongLinesAreSkipped(t *testing.T) {
	huge := strings.Repeat("nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff ", kernlog.MaxLongLine/80)
	in := "[ 1.0] nvme nvme0: I/O 1 QID 1 timeout, aborting\n" + huge + "\n[ 2.0] nvme nvme0: Abort status: 0x0\n" + huge
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	l, err := kernlog.Read(context.Background(), strings.NewReader(in), kernlog.Options{})
	require.NoError(t, err)
	assert.Equal(t, int64(2), l.LongLines)
	assert.Equal(t, int64(4), l.Lines)
	require.Len(t, l.Incidents, 1)
	assert.Equal(t, map[kernlog.Kind]int{kernlog.IOTimeout: 1, kernlog.AbortStatus: 1}, l.Incidents[0].Counts, "the long lines are not events, the lines around them are")
}

// The "pci function" lines of a hostile log, each naming a new address,
// map at most MaxAddresses of them (the map grew with the log); a known
// address is still updated, and the rest are counted.
func TestPCIAddressesAreBounded(t *testing.T) {
	var b strings.Builder
	const n = kernlog.MaxAddresses + 1000
	for i := range n {
		fmt.Fprintf(&b, "[ 1.0] nvme nvme%d: pci function 0000:%02x:%02x.%d\n", i%8, i>>8&0xff, i>>3&0x1f, i&7)
	}
	b.WriteString("[ 2.0] nvme nvme9: pci function 0000:00:00.0\n")
	b.WriteString("[ 3.0] nvme nvme1: I/O 1 QID 1 timeout, aborting\n")
	l, err := kernlog.ReadString(b.String(), kernlog.Options{Addresses: map[string]string{"0000:ff:1f.7": "nvme7"}})
	require.NoError(t, err)
	assert.Len(t, l.Addresses, kernlog.MaxAddresses)
	assert.Equal(t, int64(n-kernlog.MaxAddresses+1), l.DroppedAddresses)
	assert.Equal(t, "nvme9", l.Addresses["0000:00:00.0"], "a known address is updated")
	assert.Equal(t, "nvme7", l.Addresses["0000:ff:1f.7"], "the options' addresses are kept")
	require.Len(t, l.Incidents, 1)
}

func TestReorderedAndRepeatedTimes(t *testing.T) {
	lines := strings.Split(strings.TrimSpace(render("dmesg")), "\n")
	// Reverse the order, then repeat every line.
	var b strings.Builder
	for i := len(lines) - 1; i >= 0; i-- {
		b.WriteString(lines[i] + "\n" + lines[i] + "\n")
	}
	l, err := kernlog.ReadString(b.String(), kernlog.Options{})
	require.NoError(t, err)
	assert.True(t, l.NewestFirst, "a log whose times run back is read reversed")
	assert.Zero(t, l.Backwards)
	var total int
	for _, in := range l.Incidents {
		total += len(in.Events) + in.Omitted
	}
	assert.Equal(t, 2*(len(failure)-4-1), total, "every event of the reversed, doubled log is counted (boot, command line, pci function and the non-event line aside)")
}

// repeatReader yields a pattern again and again up to n bytes, so that a
// test can read a gigabyte without holding it.
type repeatReader struct {
	pattern []byte
	off     int
	left    int64
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.left <= 0 {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && r.left > 0 {
		c := copy(p[n:min(len(p), n+int(min(r.left, int64(len(r.pattern)-r.off))))], r.pattern[r.off:])
		n += c
		r.off = (r.off + c) % len(r.pattern)
		r.left -= int64(c)
	}
	return n, nil
}

func TestLargeLogInBoundedMemory(t *testing.T) {
	// 16 MiB is some 200,000 lines, enough to show that memory does not
	// grow with the log (BenchmarkRead1GB reads 1 GB); under -race or -short
	// the read is ten times slower, so less.
	size := int64(16 << 20)
	if testing.Short() || raceEnabled {
		size = 4 << 20
	}
	// An AER flood: one event every few lines, for hours.
	pattern := []byte(render("dmesg") + strings.Repeat("[ 3700.000000] usb 1-1: reset high-speed USB device number 2 using xhci_hcd\n", 20))
	var peak uint64
	done := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
				runtime.ReadMemStats(&m)
				peak = max(peak, m.HeapInuse)
			}
		}
	}()
	l, err := kernlog.Read(context.Background(), &repeatReader{pattern: pattern, left: size}, kernlog.Options{})
	close(done)
	<-sampled // peak is read only after the sampler has stopped
	require.NoError(t, err)
	assert.Positive(t, l.Events)
	assert.LessOrEqual(t, len(l.Incidents), kernlog.MaxIncidents)
	for _, in := range l.Incidents {
		assert.LessOrEqual(t, len(in.Events), kernlog.MaxIncidentEvents)
	}
	assert.Less(t, peak, uint64(200<<20), "heap stays bounded while reading %d MiB", size>>20)
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := kernlog.Read(ctx, &repeatReader{pattern: []byte("[ 1.0] x\n"), left: 1 << 20}, kernlog.Options{})
	require.ErrorIs(t, err, context.Canceled)
	// A log shorter than the lines between two checks is refused too: a
	// context done before the call is not ignored (it was, below 4096
	// lines).
	l, err := kernlog.Read(ctx, strings.NewReader("[ 1.0] nvme nvme0: I/O 1 QID 2 timeout, aborting\n"), kernlog.Options{})
	require.ErrorIs(t, err, context.Canceled)
	assert.Regexp(t, `^kernlog: `, err.Error())
	require.NotNil(t, l)
	called := false
	err = kernlog.Lines(ctx, strings.NewReader("a\nb\n"), func([]byte) { called = true })
	require.ErrorIs(t, err, context.Canceled)
	assert.False(t, called)

	// Nor is r read at all: a pipe with no writer yet blocked the call
	// (the format was sniffed from r before the context was looked at).
	pr, pw := io.Pipe()
	defer pw.Close()
	done := make(chan error, 2)
	go func() { _, err := kernlog.Read(ctx, pr, kernlog.Options{}); done <- err }()
	go func() { done <- kernlog.Lines(ctx, pr, func([]byte) {}) }()
	for range 2 {
		select {
		case err := <-done:
			require.ErrorIs(t, err, context.Canceled)
		case <-time.After(10 * time.Second):
			t.Fatal("a context done before the call did not stop a read of a blocking reader")
		}
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestReadError(t *testing.T) {
	_, err := kernlog.Read(context.Background(), failingReader{}, kernlog.Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "kernlog: reading line 1: disk on fire")
}

// BenchmarkRead1GB reads a generated 1 GB log (run with -benchtime=1x).
func BenchmarkRead1GB(b *testing.B) {
	pattern := []byte(render("journalctl -k") + strings.Repeat("Dec 01 10:00:00 thinkpad kernel: usb 1-1: reset high-speed USB device number 2 using xhci_hcd\n", 50))
	b.SetBytes(1 << 30)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := kernlog.Read(context.Background(), &repeatReader{pattern: pattern, left: 1 << 30}, kernlog.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// A hostile log's partition scans, each of a new disk, map at most
// MaxAddresses of them; the rest are counted.
func TestNamespacesAreBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("[ 1.0] nvme nvme0: 8/0/0 default/read/poll queues\n")
	const n = kernlog.MaxAddresses + 100
	for i := range n {
		fmt.Fprintf(&b, "[ 1.0]  nvme0n%d: p1\n", i+1)
		if i%32 == 0 {
			b.WriteString("[ 1.0] nvme nvme0: 8/0/0 default/read/poll queues\n") // keep the probe within the window
		}
	}
	l, err := kernlog.ReadString(b.String(), kernlog.Options{})
	require.NoError(t, err)
	assert.Len(t, l.Namespaces, kernlog.MaxAddresses)
	assert.Positive(t, l.DroppedNamespaces)
}

// A message "wrapped" over endless lines is joined over MaxWrapLines at
// most, its text within MaxWrapLength; the rest are lines of their own.
func TestWrapIsBounded(t *testing.T) {
	long := "[ 1.0] nvme nvme0: controller is down; will reset:\n" + strings.Repeat(strings.Repeat("y", 3000)+",\n", 100)
	l, err := kernlog.ReadString(long, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	e := l.Incidents[0].Events[0]
	assert.LessOrEqual(t, e.EndLine, 1+kernlog.MaxWrapLines-1)
	assert.Len(t, e.Raw, kernlog.MaxTextLength)
	checkLog(t, l)
}

// A journal JSON export is read in bounded memory too.
func TestLargeJSONLogInBoundedMemory(t *testing.T) {
	pattern := []byte(render("journalctl -o json") + strings.Repeat(`{"_TRANSPORT":"kernel","MESSAGE":"usb 1-1: reset high-speed USB device number 2 using xhci_hcd","__MONOTONIC_TIMESTAMP":"3700000000"}`+"\n", 20))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	l, err := kernlog.Read(context.Background(), &repeatReader{pattern: pattern, left: 4 << 20}, kernlog.Options{})
	require.NoError(t, err)
	runtime.ReadMemStats(&after)
	assert.Positive(t, l.Events)
	assert.LessOrEqual(t, len(l.Incidents), kernlog.MaxIncidents)
	checkLog(t, l)
	assert.Less(t, after.HeapInuse, before.HeapInuse+64<<20)
}

// Another kernel's NVMe log is refused as no Linux log, saying whose it
// is: FreeBSD's nvme(4), Windows's stornvme, VMware ESXi's vmkernel and
// SPDK's user-space driver, as posted
// (https://github.com/FreeBSDDesktop/kms-drm/issues/53, an ESXi 6 host's
// log in a GitHub issue). A Linux log that holds such a line beside its
// own drivers' is read.
func TestOtherKernelsLogs(t *testing.T) {
	for name, tc := range map[string]struct {
		log, os string
		line    int // the first of its lines
	}{
		"FreeBSD": {"    May 11 09:30:55 c10 kernel: nvme0: Resetting controller due to a timeout.\n" +
			"    May 11 09:30:55 c10 kernel: nvme0: aborting outstanding i/o\n" +
			"    May 11 09:30:55 c10 kernel: nvme0: ABORTED - BY REQUEST (00/07) sqid:6 cid:94 cdw0:0\n", "FreeBSD", 1},
		// Its newer timeout recovery and its older lost interrupt, as
		// sys/dev/nvme/nvme_qpair.c prints them (a TrueNAS CORE syslog).
		"FreeBSD recovery": {"Dec  5 10:00:00 truenas kernel: nvme0: RECOVERY_START 48243977333 vs 48205720723\n" +
			"Dec  5 10:00:00 truenas kernel: nvme0: timeout with nothing complete, resetting\n" +
			"Dec  5 10:00:00 truenas kernel: nvme0: Resetting controller due to a timeout and possible hot unplug.\n", "FreeBSD", 1},
		"FreeBSD lost interrupt": {"Dec  5 10:00:00 truenas kernel: nvme0: Missing interrupt\n", "FreeBSD", 1},
		// Event Viewer's tab-delimited export of stornvme's Event 129.
		"Windows": {"Level\tDate and Time\tSource\tEvent ID\tTask Category\n" +
			"Warning\t12/5/2026 10:00:00 AM\tstornvme\t129\tNone\tReset to device, \\Device\\RaidPort0, was issued.\n", "Windows", 2},
		// SPDK's user-space driver, its lines as its CI and users post
		// them (https://github.com/spdk/spdk/issues/2195 and /1286).
		"SPDK": {"00:05:29.336  [2021-10-11 19:32:06.972870] nvme_pcie_common.c: 770:nvme_pcie_qpair_abort_trackers: *ERROR*: aborting outstanding command\n" +
			"00:05:29.336  [2021-10-11 19:32:06.972920] nvme_qpair.c: 269:nvme_io_qpair_print_command: *NOTICE*: READ sqid:1 cid:190 nsid:1 lba:139976 len:8\n", "SPDK", 1},
		"SPDK bare": {"nvme_ctrlr.c:2684:nvme_ctrlr_keep_alive: *ERROR*: Submitting Keep Alive failed\n", "SPDK", 1},
		// The Raspberry Pi 5's bootloader on its UART, each line after
		// its time in seconds (raspberrypi/rpi-eeprom#869, posted z-07).
		"Raspberry Pi bootloader": {"  37.26 PCIe scan 00001179:00000116\n" +
			" 37.39 Timeout 00000000 00000000 00000000 00000000\n" +
			" 37.63 nvme: error 8\n" +
			" 37.64 Failed to open device: 'nvme'\n", "the Raspberry Pi bootloader", 3},
		"ESXi": {"2016-05-23T09:27:46.684Z cpu1:37205)nvme:NvmeCtrlr_Timeout:2555:In Timer 4\n" +
			"2016-05-23T09:27:46.684Z cpu1:37205)nvme:NvmeCtrlr_Timeout:2618:TimeoutId 4, ctrlrState [2]: Operational\n", "VMware ESXi", 1},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := kernlog.ReadString(tc.log, kernlog.Options{})
			require.ErrorIs(t, err, kernlog.ErrNotLinux)
			require.ErrorIs(t, err, kernlog.ErrNotKernelLog)
			assert.Contains(t, err.Error(), fmt.Sprintf("line %d is %s's", tc.line, tc.os))
		})
	}
	l, err := kernlog.ReadString("[  100.0] nvme nvme0: I/O 5 QID 2 timeout, aborting\n[  100.1] nvd0: aborting outstanding i/o\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Len(t, l.Incidents, 1)
	// An SPDK line beside the kernel's is no unread line of the kernel's;
	// a kernel line that names a file and a level otherwise is not SPDK's.
	l, err = kernlog.ReadString("[  100.0] nvme nvme0: I/O 5 QID 2 timeout, aborting\n"+
		"[2021-10-11 19:32:06.972870] nvme_pcie_common.c: 770:nvme_pcie_qpair_abort_trackers: *ERROR*: aborting outstanding command\n"+
		"[  100.2] nvme nvme0: pci.c: nvme_reset_work: *ERROR*: reset failed\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Unread)
	require.Len(t, l.Incidents, 1)
	lines := []int{}
	for _, e := range l.Incidents[0].Events {
		lines = append(lines, e.Line)
	}
	assert.Equal(t, []int{1, 3}, lines, "the kernel's lines, not SPDK's")
}
