package kernlog_test

import (
	"mime/quotedprintable"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// qpEncode is s as a mail archive that shows messages as stored holds it:
// quoted-printable (RFC 2045), by the standard library's encoder.
func qpEncode(s string) string {
	var b strings.Builder
	w := quotedprintable.NewWriter(&b)
	w.Write([]byte(s)) // a strings.Builder takes every write
	w.Close()
	return b.String()
}

// notMailed are the shapes no mail carries: a terminal's escape sequences
// are not copied with its text, and a mail client that sent a file's would
// write them as "=1B", which quoted-printable's readers leave as it is (a
// control character; decode).
//
// Numeric entities leave no "=" for quoted-printable to escape, which the
// test needs to see.
var notMailed = map[string]bool{"dmesg --color=always": true, "numeric HTML entities": true}

// TestQuotedPrintableReadsAsPlain: the canonical failure, in every shape
// a mail carries, reads to the same incidents once quoted-printable has
// broken its long lines and escaped its "=".
func TestQuotedPrintableReadsAsPlain(t *testing.T) {
	want, err := kernlog.ReadString(render("dmesg"), kernlog.Options{})
	require.NoError(t, err)
	for shape := range shapes {
		if notMailed[shape] {
			continue
		}
		t.Run(shape, func(t *testing.T) {
			enc := qpEncode(render(shape))
			require.Contains(t, enc, "=\r\n", "the encoder broke no line")
			require.Contains(t, enc, "=3D")
			l, err := kernlog.ReadString(enc, kernlog.Options{})
			require.NoError(t, err)
			assert.Equal(t, summarize(want), summarize(l))
			assert.Empty(t, l.Unread)
			assert.Equal(t, want.CommandLine, l.CommandLine)
		})
	}
}

// TestQuotedPrintableLines: real lines from mailing list archives that
// show the message as stored.
func TestQuotedPrintableLines(t *testing.T) {
	tests := []struct {
		name, log string
		kind      kernlog.Kind
		raw       string
		from, to  int
	}{
		{
			// linux-pci, Message-ID <CH2PR19MB4024E04EBD0E4958F0BBB2ACA0809@CH2PR19MB4024.namprd19.prod.outlook.com>:
			// soft break inside the value, "=" escaped.
			name: "controller down, escaped and broken in its value",
			log: "[   47.651842][    C0] random: crng init done\n" +
				"[   81.448128][   T64] nvme nvme0: controller is down; will reset: CSTS=3D0=\n" +
				"x3, PCI_STATUS=3D0x2010\n" +
				"[   81.481139][    T7] nvme 0000:05:00.0: enabling bus mastering\n",
			kind: kernlog.ControllerDown,
			raw:  "[   81.448128][   T64] nvme nvme0: controller is down; will reset: CSTS=0x3, PCI_STATUS=0x2010",
			from: 2, to: 3,
		},
		{
			// linux-acpi, Message-ID <f18bafacbd8316c9623658e2935f8fc3b276af64.camel@web.de>:
			// Evolution's 75-column soft breaks, no escape in the log.
			name: "d3cold, broken inside a word",
			log: "[76621.147515] [    T140] ---[ end trace 0000000000000000 ]---\n" +
				"[76621.870884] [    T140] pcieport 0000:01:00.0: Unable to change power st=\n" +
				"ate from D3cold to D0, device inaccessible\n",
			kind: kernlog.ResumeFailure,
			raw:  "[76621.870884] [    T140] pcieport 0000:01:00.0: Unable to change power state from D3cold to D0, device inaccessible",
			from: 2, to: 3,
		},
		{
			// The same message: a soft break before a blank keeps the blank.
			name: "link down, broken inside a word",
			log: "[76621.007575] [    T140] pcieport 0000:00:01.1: pciehp: Slot(0): Link Dow=\n" +
				"n\n" +
				"[76621.007592] [    T140] pcieport 0000:00:01.1: pciehp: Slot(0): Card not=\n" +
				" present\n",
			kind: kernlog.LinkDown,
			raw:  "[76621.007575] [    T140] pcieport 0000:00:01.1: pciehp: Slot(0): Link Down",
			from: 1, to: 2,
		},
		{
			// A quoted reply encoded after quoting: the continuation has no
			// "> > " of its own.
			name: "quoted, continuation without the quoting",
			log: "> > [ 3064.944407] nvme nvme5: controller is down; will reset: CSTS=3D0x2=\n" +
				", PCI_STATUS=3D0x10\n",
			kind: kernlog.ControllerDown,
			raw:  "> > [ 3064.944407] nvme nvme5: controller is down; will reset: CSTS=0x2, PCI_STATUS=0x10",
			from: 1, to: 2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tt.log, kernlog.Options{})
			require.NoError(t, err)
			require.Len(t, l.Incidents, 1)
			e, ok := l.Incidents[0].First(tt.kind)
			require.True(t, ok, "no %s in %+v", tt.kind, l.Incidents[0].Counts)
			assert.Equal(t, strings.TrimSpace(strings.TrimLeft(tt.raw, "> ")), e.Raw)
			assert.Equal(t, tt.from, e.Line)
			assert.Equal(t, tt.to, max(e.EndLine, e.Line))
			assert.Empty(t, l.Unread)
		})
	}
}

// TestQuotedPrintableWithoutSoftBreaks: a log stored quoted-printable
// whose lines were short enough to keep whole shows itself by its "=3D"
// alone, or by a "=20" (a blank at a line's end, format=flowed mail's soft
// break) before the rest of a message; a value that ends in "=20" before a
// line with a time stamp of its own is a value, and so is an escape in a
// log whose kernel lines are longer than quoted-printable writes.
func TestQuotedPrintableWithoutSoftBreaks(t *testing.T) {
	tests := []struct {
		name, log string
		kind      kernlog.Kind
		text      string
	}{
		{"escape alone", "nvme nvme0: Device not ready; aborting reset, CSTS=3D0x1\n",
			kernlog.ResetNotReady, "nvme nvme0: Device not ready; aborting reset, CSTS=0x1"},
		{"flowed and encoded", "nvme nvme0: controller is down; will reset: CSTS:0xffffffff,=20\nPCI_STATUS=3D0xffff\n",
			kernlog.ControllerDown, "nvme nvme0: controller is down; will reset: CSTS:0xffffffff, PCI_STATUS=0xffff"},
		{"not encoded", "[   81.448128] nvme nvme0: controller is down; will reset: CSTS=0x3, PCI_STATUS=0x10 (CSTS=3D)\n",
			kernlog.ControllerDown, "nvme nvme0: controller is down; will reset: CSTS=0x3, PCI_STATUS=0x10 (CSTS=3D)"},
		{"a raw mail", "From: someone@example.org\nContent-Type: text/plain; charset=\"UTF-8\"\nContent-Transfer-Encoding: quoted-printable\n\n" +
			"[   81.448128][   T64] nvme nvme0: I/O 5 QID 0 timeout, reset controller=20\n" +
			"[   81.481139][   T64] nvme nvme0: Device not ready; aborting reset, CSTS=3D0x1\n",
			kernlog.AdminTimeout, "nvme nvme0: I/O 5 QID 0 timeout, reset controller"},
		{"a long value line", "Kernel command line: BOOT_IMAGE=/boot/vmlinuz-6.8.0-45-generic root=/dev/nvme0n1p2 maxcpus=20\nquiet splash\nnvme nvme0: controller is down; will reset: CSTS=0x3, PCI_STATUS=0x10\n",
			kernlog.ControllerDown, "nvme nvme0: controller is down; will reset: CSTS=0x3, PCI_STATUS=0x10"},
		{"a value", "[    0.000000] Kernel command line: root=/dev/nvme0n1p2 nr_cpus=20\n[   81.448128] nvme nvme0: controller is down; will reset: CSTS=0x3, PCI_STATUS=0x10\n",
			kernlog.ControllerDown, "nvme nvme0: controller is down; will reset: CSTS=0x3, PCI_STATUS=0x10"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tt.log, kernlog.Options{})
			require.NoError(t, err)
			require.Len(t, l.Incidents, 1)
			e, ok := l.Incidents[0].First(tt.kind)
			require.True(t, ok, "no %s in %+v", tt.kind, l.Incidents[0].Counts)
			assert.Equal(t, tt.text, e.Text)
			if tt.name == "a value" {
				assert.Equal(t, "root=/dev/nvme0n1p2 nr_cpus=20", l.CommandLine)
			}
			if tt.name == "a long value line" {
				assert.Contains(t, l.CommandLine, "maxcpus=20")
			}
		})
	}
}

// TestHardWrapAfterEqualsIsNotQuotedPrintable: a tracker's wrap at 72
// columns that falls after an "=" is not a soft break: the "=" stays.
func TestHardWrapAfterEqualsIsNotQuotedPrintable(t *testing.T) {
	for _, log := range []string{
		// 72 columns.
		"[ 1234.567890] nvme nvme0: controller is down; will reset: CSTS=\n0xffffffff, PCI_STATUS=0x10\n",
		// 80 columns.
		"Dec  3 10:00:00 thinkpad kernel: nvme nvme0: controller is down; will reset: CSTS=\n0xffffffff, PCI_STATUS=0x10\n",
	} {
		l, err := kernlog.ReadString(log, kernlog.Options{})
		require.NoError(t, err)
		require.Len(t, l.Incidents, 1, log)
		e, ok := l.Incidents[0].First(kernlog.ControllerDown)
		require.True(t, ok, log)
		assert.Contains(t, e.Raw, "CSTS=", "the = is the message's")
	}
}

// TestSoftBreakCandidateBeforeAStampedLine: a line as long as a soft-broken
// one that ends in "=" keeps it when the next line starts a message of its
// own.
func TestSoftBreakCandidateBeforeAStampedLine(t *testing.T) {
	banner := "[  170.195732] " + strings.Repeat("=", 60)
	require.Len(t, banner, 75)
	log := banner + "\n[  170.195743] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n"
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	e, ok := l.Incidents[0].First(kernlog.ControllerDown)
	require.True(t, ok)
	assert.Equal(t, 2, e.Line)
	assert.Equal(t, "[  170.195743] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10", e.Raw)
}

// Invariant: any selection of the failure's lines, in any shape, quoted or
// not, quoted-printable encoded, reads as the plain dmesg of the same
// selection.
func TestRapidQuotedPrintable(t *testing.T) {
	names := make([]string, 0, len(shapes))
	for s := range shapes {
		if !notMailed[s] {
			names = append(names, s)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		shape := rapid.SampledFrom(names).Draw(t, "shape")
		quote := rapid.SampledFrom([]string{"", "> ", ">> ", "> > "}).Draw(t, "quote")
		var picked []line
		for _, l := range failure {
			if rapid.Bool().Draw(t, "keep") {
				picked = append(picked, l)
			}
		}
		if len(picked) == 0 {
			// An empty paste is refused (ErrEmpty): keep one line.
			picked = append(picked, rapid.SampledFrom(failure).Draw(t, "one"))
		}
		var plain, shaped strings.Builder
		for _, l := range picked {
			plain.WriteString(shapes["dmesg"](l.mono, l.msg) + "\n")
			shaped.WriteString(quote + shapes[shape](l.mono, l.msg) + "\n")
		}
		want, err := kernlog.ReadString(plain.String(), kernlog.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := kernlog.ReadString(qpEncode(shaped.String()), kernlog.Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkLog(t, got)
		if a, b := summarize(want), summarize(got); !equalSummaries(a, b) {
			t.Fatalf("shape %q quote %q:\nwant %+v\ngot  %+v", shape, quote, a, b)
		}
	})
}

// A quoted-printable line's soft breaks count toward MaxWrapLines: a
// message wrapped after one spans no more physical lines than any other
// (a crasher of FuzzRead: lines 1-9 joined).
func TestSoftBreaksCountTowardWrapLines(t *testing.T) {
	l, err := kernlog.ReadString("[0000.000000] nvme nvme0: 0000000000000000000000000000000000000000000000=\neset\n0\n0\n0\n0\n0\n0\n0", kernlog.Options{})
	require.NoError(t, err)
	require.NotEmpty(t, l.Incidents)
	for _, in := range l.Incidents {
		for _, e := range in.Events {
			assert.Less(t, e.EndLine-e.Line, kernlog.MaxWrapLines, "lines %d-%d", e.Line, e.EndLine)
		}
	}
}

// An encoded line end inside a quoted-printable line ("=0A", then a soft
// break: Outlook's way, posted j-11, linux-ext4) ends a message there:
// the lines before were one logical line, so the reader saw one event of
// seven. The same holds for "=0D=0A". Lines of posted log j-11.
func TestQuotedPrintableEncodedLineEnds(t *testing.T) {
	for _, eol := range []string{"=0A", "=0D=0A"} {
		log := "Logs:" + eol + "=\n" +
			"[Wed May 14 16:58:50 2025] Buffer I/O error on dev nvme0n1, logical block 1=\n" +
			"081344, lost sync page write" + eol + "=\n" +
			"[Wed May 14 16:58:50 2025] blk_update_request: recoverable transport error,=\n" +
			" dev nvme0n1, sector 8650752 op 0x1:(WRITE) flags 0x20800 phys_seg 1 prio c=\n" +
			"lass 0" + eol + "=\n" +
			"[Wed May 14 16:58:50 2025] Buffer I/O error on dev nvme0n1, logical block 1=\n" +
			"081344, lost sync page write" + eol + "\n"
		l, err := kernlog.ReadString(log, kernlog.Options{})
		require.NoError(t, err, eol)
		require.Len(t, l.Incidents, 1, eol)
		assert.Equal(t, 3, l.Incidents[0].Counts[kernlog.IOError], eol)
		assert.Empty(t, l.Unread, eol)
	}
}

// A MediaTek host's link that never came up, quoted three deep in a mail
// stored quoted-printable whose client escaped every dot ("[ 5=2E478062]")
// and wrapped the link line after "current" and the probe line inside
// "error" (linux-pci, Message-ID
// D7EAAAC4-B696-422F-A6D6-FF90D351B6F4@fw-web.de, a BPI-R3's MT7986 with
// an NVMe drive, 2023-05-01, as stored). Neither line was read: the cut
// link line held no keyword (the scan wanted "current LTSSM state: "),
// and the probe line ended in "error" where the scan wanted "error ";
// the log was "no failure seen".
func TestQuotedPrintableHostLinkWrapped(t *testing.T) {
	const log = ">>>=20\n" +
		">>> # dmesg | grep 'pci'\n" +
		">>> [ 5=2E235564] mtk-pcie-gen3 11280000=2Epcie: host bridge=20\n" +
		">>> /soc/pcie@11280000 ranges:\n" +
		">>> [ 5=2E478062] mtk-pcie-gen3 11280000=2Epcie: PCIe link down, current\n" +
		">>> LTSSM state: detect=2Eactive (0x10 00001)\n" +
		">>> [ 5=2E487491] mtk-pcie-gen3: probe of 11280000=2Epcie failed with erro=\n" +
		"r\n" +
		">>> -110\n" +
		">>>=20\n"
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	in := l.Incidents[0]
	down, ok := in.First(kernlog.LinkDown)
	require.True(t, ok, "%+v", in.Counts)
	assert.Equal(t, "mtk-pcie-gen3 11280000.pcie: PCIe link down, current LTSSM state: detect.active (0x10 00001)", down.Text)
	assert.Equal(t, [2]int{5, 6}, [2]int{down.Line, down.EndLine})
	// The probe that gave up waiting for the link (-110) is the host's
	// link down too.
	require.Len(t, in.Events, 2, "%+v", in.Counts)
	probe := in.Events[1]
	assert.Equal(t, kernlog.ActionHostLinkDown, probe.Action)
	assert.Equal(t, "probe of 11280000.pcie failed with error -110", probe.Text)
	assert.Equal(t, [2]int{7, 9}, [2]int{probe.Line, probe.EndLine})
	assert.Empty(t, l.Unread)
}
