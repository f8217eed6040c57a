package trace_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return b
}

// readAll returns every event of a trace, or the first error, without
// their IDs (TestReadIDs checks those).
func readAll(t testing.TB, in []byte, opt trace.Options) ([]trace.Event, *trace.Reader, error) {
	t.Helper()
	r, err := trace.NewReader(bytes.NewReader(in), opt)
	if err != nil {
		return nil, nil, err
	}
	var evs []trace.Event
	for {
		ev, err := r.Next()
		if err == io.EOF {
			return evs, r, nil
		}
		if err != nil {
			return evs, r, err
		}
		ev.ID = 0
		evs = append(evs, ev)
	}
}

func d(t int64, dev string) trace.Event {
	return trace.Event{Time: t, Kind: trace.Dispatch, Device: dev}
}
func c(t int64, dev string) trace.Event {
	return trace.Event{Time: t, Kind: trace.Completion, Device: dev}
}

func TestReadFormats(t *testing.T) {
	for _, tc := range []struct {
		file   string
		opt    trace.Options
		format trace.Format
		device string
		want   []trace.Event
	}{
		{
			// Only D and C count; the first D (0.000010000) is the origin.
			// The D at 0.000250000 comes after a C at 0.000300000 (another
			// CPU) and is sorted before it. At 0.000400000 the C (seq 2)
			// comes before the D (seq 5): sorted by time, then sequence.
			// The m line and the summary are skipped.
			file: "blkparse.txt", format: trace.FormatBlkparse, device: "8,0",
			want: []trace.Event{
				d(0, "8,0"), d(240_000, "8,0"), c(290_000, "8,0"),
				c(390_000, "8,0"), d(390_000, "8,0"), c(490_000, "8,0"),
			},
		},
		{
			// Each line is dispatched at TIME − LAT: −0.74 ms (the origin),
			// 1.345 ms and 2.39 ms, completed at 0, 2.345 and 2.4 ms.
			// "Web Content" is a COMM with a space.
			file: "biosnoop.txt", format: trace.FormatBiosnoop, device: "nvme0n1",
			want: []trace.Event{
				d(0, "nvme0n1"), c(740_000, "nvme0n1"),
				d(2_085_000, "nvme0n1"), c(3_085_000, "nvme0n1"),
				d(3_130_000, "nvme0n1"), c(3_140_000, "nvme0n1"),
			},
		},
		{
			// 48..50 ms and 60..60 ms; dispatch before completion at a tie.
			file: "bpftrace.txt", format: trace.FormatBiosnoopBpftrace, device: "nvme0n1",
			want: []trace.Event{
				d(0, "nvme0n1"), c(2_000_000, "nvme0n1"),
				d(12_000_000, "nvme0n1"), c(12_000_000, "nvme0n1"),
			},
		},
		{
			// The read at 5 ms and the write at 7.5 ms; add, open and close
			// are skipped.
			file: "fio.txt", format: trace.FormatFioIolog, device: "/dev/nvme0n1",
			want: []trace.Event{
				d(0, "/dev/nvme0n1"), c(0, "/dev/nvme0n1"),
				d(2_500_000, "/dev/nvme0n1"), c(2_500_000, "/dev/nvme0n1"),
			},
		},
		{
			// 1.5..1.75 s, 1.6..1.6 s, 2..2.000000001 s.
			file: "plain.txt", format: trace.FormatPlain, device: "",
			want: []trace.Event{
				d(0, ""), d(100_000_000, ""), c(100_000_000, ""),
				c(250_000_000, ""), d(500_000_000, ""), c(500_000_001, ""),
			},
		},
		{
			file: "blkparse-two-devices.txt", opt: trace.Options{Device: "259,0"}, format: trace.FormatBlkparse, device: "259,0",
			want: []trace.Event{d(0, "259,0"), c(380_000, "259,0")},
		},
		{
			file: "biosnoop-two-disks.txt", opt: trace.Options{Disk: "/dev/nvme0n1"}, format: trace.FormatBiosnoop, device: "nvme0n1",
			want: []trace.Event{d(0, "nvme0n1"), c(50_000, "nvme0n1"), d(100_000, "nvme0n1"), c(150_000, "nvme0n1")},
		},
	} {
		t.Run(tc.file, func(t *testing.T) {
			evs, r, err := readAll(t, readTestdata(t, tc.file), tc.opt)
			require.NoError(t, err)
			assert.Equal(t, tc.format, r.Format())
			assert.Equal(t, tc.device, r.Device())
			assert.Equal(t, tc.want, evs)

			// The same with the format given, read one byte at a time.
			opt := tc.opt
			opt.Format = tc.format
			r2, err := trace.NewReader(iotest.OneByteReader(bytes.NewReader(readTestdata(t, tc.file))), opt)
			require.NoError(t, err)
			var evs2 []trace.Event
			for ev, err := range r2.All() {
				require.NoError(t, err)
				ev.ID = 0
				evs2 = append(evs2, ev)
			}
			assert.Equal(t, tc.want, evs2)
		})
	}
}

func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want trace.Format
		err  error
	}{
		{"  8,0    0        1     0.000000000   697  Q  WS 2048 + 8 [x]\n", trace.FormatBlkparse, nil},
		{"\n\nTIME(s)     COMM   PID    DISK    T SECTOR     BYTES   LAT(ms)\n", trace.FormatBiosnoop, nil},
		{"TIME(s)     COMM   PID    DISK    T SECTOR     BYTES  QUE(ms) LAT(ms)\n", trace.FormatBiosnoop, nil},
		{"Attaching 4 probes...\nTIME(ms)     DISK    COMM             PID    LAT(ms)\n", trace.FormatBiosnoopBpftrace, nil},
		{"fio version 3 iolog\n", trace.FormatFioIolog, nil},
		{"# only comments\n# here\n", trace.FormatPlain, nil},
		{"# c\n12.5 0.001\n", trace.FormatPlain, nil},
		{"7", trace.FormatPlain, nil},
		{"fio version 2 iolog\n/dev/sda add\n", trace.FormatAuto, trace.ErrFioV2},
		{"fio version 4 iolog\n", trace.FormatAuto, trace.ErrUnknownFormat},
		{"TIME(s) COMM PID DISK\n", trace.FormatAuto, trace.ErrUnknownFormat},
		{"hello world\n", trace.FormatAuto, trace.ErrUnknownFormat},
		{"", trace.FormatAuto, trace.ErrUnknownFormat},
		{"\n \n", trace.FormatAuto, trace.ErrUnknownFormat},
	} {
		f, err := trace.Detect([]byte(tc.in))
		if tc.err != nil {
			require.ErrorIs(t, err, tc.err, "%q", tc.in)
			assert.True(t, strings.HasPrefix(err.Error(), "trace: "), err.Error())
			continue
		}
		require.NoError(t, err, "%q", tc.in)
		assert.Equal(t, tc.want, f, "%q", tc.in)
	}
}

func TestFormatText(t *testing.T) {
	for _, f := range append([]trace.Format{trace.FormatAuto}, trace.Formats()...) {
		b, err := f.MarshalText()
		require.NoError(t, err)
		assert.Equal(t, f.String(), string(b))
		var g trace.Format = 99
		require.NoError(t, g.UnmarshalText(b))
		assert.Equal(t, f, g)
	}
	for alias, want := range map[string]trace.Format{
		"bcc": trace.FormatBiosnoop, "BPFTRACE": trace.FormatBiosnoopBpftrace, "fio": trace.FormatFioIolog,
		"iolog": trace.FormatFioIolog, "blktrace": trace.FormatBlkparse, "": trace.FormatAuto, " Plain ": trace.FormatPlain,
	} {
		var g trace.Format
		require.NoError(t, g.UnmarshalText([]byte(alias)))
		assert.Equal(t, want, g, alias)
	}
	g := trace.FormatPlain
	err := g.UnmarshalText([]byte("pcap"))
	require.ErrorIs(t, err, trace.ErrUnknownFormat)
	assert.Equal(t, trace.FormatPlain, g, "unchanged on error")
	_, err = trace.Format(42).MarshalText()
	require.ErrorIs(t, err, trace.ErrUnknownFormat)
	assert.Equal(t, "Format(42)", trace.Format(42).String())
	assert.False(t, trace.Format(42).Valid())
	assert.Equal(t, "dispatch", trace.Dispatch.String())
	assert.Equal(t, "completion", trace.Completion.String())
	assert.Equal(t, "Kind(0)", trace.Kind(0).String())
	assert.Equal(t, "1.000000002s dispatch 8,0", trace.Event{Time: 1e9 + 2, Kind: trace.Dispatch, Device: "8,0"}.String())
}

func TestSyntaxErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		opt  trace.Options
		line int
		msg  string
	}{
		{"blkparse garbage", "  8,0 0 1 0.1 1 D R\nhello\n", trace.Options{}, 2,
			`trace: blkparse line 2: expected an event line (MAJ,MIN CPU SEQ SECONDS.NANOS PID ACTION ...) or the summary at the end: got "hello"`},
		{"blkparse short", "  8,0 0 1 0.1 1\n", trace.Options{Format: trace.FormatBlkparse}, 1,
			`trace: blkparse line 1: expected 6 fields or more (MAJ,MIN CPU SEQ SECONDS.NANOS PID ACTION ...): got "  8,0 0 1 0.1 1"`},
		{"blkparse time", "8,0 0 1 0.1 1 D R\n8,0 0 2 0.x 1 C R\n", trace.Options{}, 2,
			`trace: blkparse line 2: expected a time SECONDS.NANOS in field 4: got "8,0 0 2 0.x 1 C R"`},
		{"blkparse cpu", "8,0 x 1 0.1 1 D R\n", trace.Options{}, 1, `expected a CPU number in field 2`},
		{"blkparse seq", "8,0 0 -1 0.1 1 D R\n", trace.Options{}, 1, `expected a sequence number in field 3`},
		{"blkparse pid", "8,0 0 1 0.1 p D R\n", trace.Options{}, 1, `expected a PID in field 5`},
		{"blkparse action", "8,0 0 1 0.1 1 + R\n", trace.Options{}, 1, `expected an action`},
		{"biosnoop no header", "0.1 cat 1 sda R 1 1 0.1\n", trace.Options{Format: trace.FormatBiosnoop}, 1, `expected the biosnoop header`},
		{"bpftrace no header", "Attaching 1 probe\n1 sda cat 1 1\n", trace.Options{Format: trace.FormatBiosnoopBpftrace}, 2, `expected the biosnoop.bt header`},
		{"biosnoop wrong header", "TIME(ms) DISK COMM PID LAT(ms)\n", trace.Options{Format: trace.FormatBiosnoop}, 1, `expected a header starting TIME(s) with a LAT(ms) column`},
		{"biosnoop columns", "TIME(s) COMM PID DISK T SECTOR BYTES LAT(ms)\n0.1 cat 1 sda R 1 1\n", trace.Options{}, 2,
			`trace: biosnoop line 2: expected 8 columns as in the header: got "0.1 cat 1 sda R 1 1"`},
		{"biosnoop time", "TIME(s) COMM PID DISK T SECTOR BYTES LAT(ms)\nx cat 1 sda R 1 1 0.1\n", trace.Options{}, 2, `expected a time in column TIME(s)`},
		{"biosnoop lat", "TIME(s) COMM PID DISK T SECTOR BYTES LAT(ms)\n0.1 cat 1 sda R 1 1 -1\n", trace.Options{}, 2, `expected a latency in column LAT(ms)`},
		{"bpftrace time", "TIME(ms) DISK COMM PID LAT(ms)\n1.5e3 sda cat 1 1\n", trace.Options{}, 2, `expected a time in column TIME(ms)`},
		{"fio header", "1 /dev/sda read 0 1\n", trace.Options{Format: trace.FormatFioIolog}, 1, `expected the header "fio version 3 iolog"`},
		{"fio fields", "fio version 3 iolog\n1 /dev/sda\n", trace.Options{}, 2, `expected TIMESTAMP FILENAME ACTION [OFFSET LENGTH]`},
		{"fio action", "fio version 3 iolog\n1 /dev/sda erase 0 1\n", trace.Options{}, 2, `expected an action (read, write, trim, sync, datasync, add, open, close, wait) in field 3`},
		{"fio time", "fio version 3 iolog\n-1 /dev/sda read 0 1\n", trace.Options{}, 2, `expected a timestamp in milliseconds in field 1`},
		{"plain fields", "1 2 3\n", trace.Options{}, 1, `trace: plain line 1: expected SECONDS [DURATION_SECONDS]: got "1 2 3"`},
		{"plain time", "1\n-1\n", trace.Options{}, 2, `expected a time in seconds (e.g. 12.5) in field 1`},
		{"plain duration", "1 x\n", trace.Options{}, 1, `expected a duration in seconds (e.g. 0.0002) in field 2`},
		{"plain overflow", "9223372036 0.9\n", trace.Options{}, 1, `expected a completion time below 2^63 ns`},
		{"plain too big", "9223372037\n", trace.Options{}, 1, `expected a time in seconds (e.g. 12.5) in field 1 of at most 4611686018.427387903 (2^62-1 ns, 146 years): out of range`},
		{"plain just too big", "9223372036.854775808\n", trace.Options{}, 1, `in field 1 of at most 4611686018.427387903 (2^62-1 ns, 146 years): out of range: got "9223372036.854775808"`},
		{"plain duration too big", "1 9223372037\n", trace.Options{}, 1, `expected a duration in seconds (e.g. 0.0002) in field 2 of at most 4611686018.427387903 (2^62-1 ns, 146 years): out of range`},
		{"blkparse time too big", "8,0 0 1 99999999999.000000000 1 D R\n", trace.Options{}, 1, `expected a time SECONDS.NANOS in field 4 of at most 4611686018.427387903 (2^62-1 ns, 146 years): out of range`},
		{"bpftrace time too big", "TIME(ms) DISK COMM PID LAT(ms)\n99999999999999 sda cat 1 1\n", trace.Options{}, 2, `expected a time in column TIME(ms) of at most 4611686018427.387903 (2^62-1 ns, 146 years): out of range`},
		{"fio time too big", "fio version 3 iolog\n99999999999999 /dev/sda read 0 1\n", trace.Options{}, 2, `in field 1 of at most 4611686018427.387903 (2^62-1 ns, 146 years): out of range`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := readAll(t, []byte(tc.in), tc.opt)
			require.ErrorIs(t, err, trace.ErrSyntax)
			var se *trace.SyntaxError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tc.line, se.Line)
			assert.Contains(t, err.Error(), tc.msg)
			assert.True(t, strings.HasPrefix(err.Error(), "trace: "), err.Error())
		})
	}
}

// TestTimeBound: the largest event time, 2^62-1 ns, reads; beyond it a
// time is out of range, with the bound in seconds, up to 2^63-1 ns (the
// largest a field holds, which parseFixed once refused as no time) and
// beyond.
func TestTimeBound(t *testing.T) {
	evs, _, err := readAll(t, []byte("4611686018.427387903\n"), trace.Options{})
	require.NoError(t, err)
	require.NotEmpty(t, evs)
	for _, in := range []string{"4611686018.427387904", "9223372036.854775807", "9223372036.854775808", "99999999999999999999"} {
		_, _, err := readAll(t, []byte(in+"\n"), trace.Options{})
		require.ErrorIs(t, err, trace.ErrSyntax, in)
		assert.Contains(t, err.Error(), "4611686018.427387903", in)
		assert.Contains(t, err.Error(), "out of range", in)
		assert.NotContains(t, err.Error(), "expected a time in seconds (e.g. 12.5) in field 1:", in)
	}
}

func TestFioV2Refused(t *testing.T) {
	_, err := trace.NewReader(bytes.NewReader(readTestdata(t, "fio-v2.txt")), trace.Options{})
	require.ErrorIs(t, err, trace.ErrFioV2)
	assert.Contains(t, err.Error(), "no timestamps")
	// Given as fio explicitly, the header line is refused the same way.
	_, _, err = readAll(t, readTestdata(t, "fio-v2.txt"), trace.Options{Format: trace.FormatFioIolog})
	require.ErrorIs(t, err, trace.ErrFioV2)
	assert.Contains(t, err.Error(), "line 1")
}

func TestDeviceSelection(t *testing.T) {
	_, _, err := readAll(t, readTestdata(t, "blkparse-two-devices.txt"), trace.Options{})
	var de *trace.DeviceError
	require.ErrorAs(t, err, &de)
	require.ErrorIs(t, err, trace.ErrDevice)
	assert.Equal(t, []string{"259,0", "8,0"}, de.Found, "259,1 has no D or C")
	assert.Equal(t, "trace: blkparse trace has events for 2 devices (259,0, 8,0): select one device (MAJ,MIN)", err.Error())

	_, _, err = readAll(t, readTestdata(t, "blkparse-two-devices.txt"), trace.Options{Device: " 259,1"})
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "trace: device (MAJ,MIN) 259,1 not in the blkparse trace; found: 259,0, 8,0", err.Error())

	_, _, err = readAll(t, readTestdata(t, "biosnoop-two-disks.txt"), trace.Options{})
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "trace: biosnoop trace has events for 2 devices (nvme0n1, sda): select one disk (NAME)", err.Error())

	_, _, err = readAll(t, readTestdata(t, "biosnoop-two-disks.txt"), trace.Options{Disk: "sdb"})
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "trace: disk (NAME) sdb not in the biosnoop trace; found: nvme0n1, sda", err.Error())

	two := "fio version 3 iolog\n1 /dev/a read 0 1\n2 /dev/b read 0 1\n"
	_, _, err = readAll(t, []byte(two), trace.Options{})
	require.ErrorAs(t, err, &de)
	assert.Equal(t, []string{"/dev/a", "/dev/b"}, de.Found)
	evs, _, err := readAll(t, []byte(two), trace.Options{Disk: "b"})
	require.NoError(t, err)
	assert.Equal(t, []trace.Event{d(0, "b"), c(0, "b")}, evs)

	_, _, err = readAll(t, []byte("# empty\n"), trace.Options{Format: trace.FormatFioIolog, Disk: "x"})
	require.Error(t, err) // no header

	// Selectors that do not apply to the format.
	for _, tc := range []struct {
		in  string
		opt trace.Options
	}{
		{"1\n", trace.Options{Device: "8,0"}},
		{"1\n", trace.Options{Disk: "sda"}},
		{"8,0 0 1 0.1 1 D R\n", trace.Options{Disk: "sda"}},
		{"8,0 0 1 0.1 1 D R\n", trace.Options{Device: "sda"}},
		{"fio version 3 iolog\n", trace.Options{Disk: "/dev/"}},
	} {
		_, err := trace.NewReader(strings.NewReader(tc.in), tc.opt)
		require.ErrorIs(t, err, trace.ErrOptions, "%+v", tc.opt)
	}

	// More devices than the list holds.
	var b strings.Builder
	for i := range trace.MaxDevicesListed + 5 {
		b.WriteString("8," + itoa(i) + " 0 1 0.1 1 D R\n")
	}
	_, _, err = readAll(t, []byte(b.String()), trace.Options{})
	require.ErrorAs(t, err, &de)
	assert.True(t, de.More)
	assert.Len(t, de.Found, trace.MaxDevicesListed)
	assert.Contains(t, err.Error(), "more than 64 devices")

	// A named device in a trace with no events.
	_, _, err = readAll(t, []byte("8,0 0 1 0.1 1 Q R\n"), trace.Options{Device: "8,0"})
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "trace: device (MAJ,MIN) 8,0 not in the blkparse trace, which has no events", err.Error())
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

func TestReorderWindow(t *testing.T) {
	// Four events on CPU 0 after one on CPU 1 that is 3 events earlier.
	in := "8,0 0 1 1.0 1 D R\n8,0 0 2 2.0 1 C R\n8,0 0 3 3.0 1 D R\n8,0 0 4 4.0 1 C R\n8,0 1 1 1.5 1 D R\n8,0 1 2 5.0 1 C R\n"
	evs, _, err := readAll(t, []byte(in), trace.Options{ReorderWindow: 4})
	require.NoError(t, err)
	assert.Equal(t, []trace.Event{d(0, "8,0"), d(5e8, "8,0"), c(1e9, "8,0"), d(2e9, "8,0"), c(3e9, "8,0"), c(4e9, "8,0")}, evs)

	_, _, err = readAll(t, []byte(in), trace.Options{ReorderWindow: 2})
	require.ErrorIs(t, err, trace.ErrOutOfOrder)
	var se *trace.SyntaxError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 5, se.Line)
	assert.Equal(t, "trace: blkparse line 5: event out of time order beyond the reorder window: an event at 1.500000000s is earlier than 3 events read before it (one at 2.000000000s already passed on); the reorder window holds 2", err.Error())

	for _, w := range []int{-1, trace.MaxReorderWindow + 1} {
		_, err := trace.NewReader(strings.NewReader(in), trace.Options{ReorderWindow: w})
		require.ErrorIs(t, err, trace.ErrOptions)
	}
}

func TestLineTooLong(t *testing.T) {
	long := "1 " + strings.Repeat(" ", 100) + "\n"
	_, _, err := readAll(t, []byte("1\n"+long), trace.Options{MaxLineLength: 64})
	require.ErrorIs(t, err, trace.ErrLineTooLong)
	var se *trace.SyntaxError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 2, se.Line)
	assert.Equal(t, "trace: plain line 2: line too long: at most 64 bytes", err.Error())

	// The default bound: a line of 64 KiB passes, one byte more does not.
	ok := "1" + strings.Repeat(" ", trace.DefaultMaxLineLength-1) + "\n"
	_, _, err = readAll(t, []byte("1\n"+ok), trace.Options{})
	require.NoError(t, err)
	_, _, err = readAll(t, []byte("1\n"+ok[:len(ok)-1]+" \n"), trace.Options{})
	require.ErrorIs(t, err, trace.ErrLineTooLong)
	// Also without a final newline.
	_, _, err = readAll(t, []byte("1\n"+ok[:len(ok)-1]+" "), trace.Options{Format: trace.FormatPlain})
	require.ErrorIs(t, err, trace.ErrLineTooLong)

	_, err = trace.NewReader(strings.NewReader("1"), trace.Options{MaxLineLength: 3})
	require.ErrorIs(t, err, trace.ErrOptions)
}

func TestZeroValuesAndBadInput(t *testing.T) {
	var r trace.Reader
	_, err := r.Next()
	require.ErrorIs(t, err, trace.ErrNotInitialized)
	var nilr *trace.Reader
	_, err = nilr.Next()
	require.ErrorIs(t, err, trace.ErrNotInitialized)
	for _, err := range r.All() {
		require.ErrorIs(t, err, trace.ErrNotInitialized)
	}

	_, err = trace.NewReader(nil, trace.Options{})
	require.ErrorIs(t, err, trace.ErrOptions)
	_, err = trace.NewReader(strings.NewReader("1"), trace.Options{Format: 77})
	require.ErrorIs(t, err, trace.ErrOptions)

	// A read error is returned wrapped, naming the line.
	boom := errors.New("boom")
	rd, err := trace.NewReader(io.MultiReader(strings.NewReader("1\n2\n"), iotest.ErrReader(boom)), trace.Options{Format: trace.FormatPlain})
	require.NoError(t, err)
	var last error
	for _, err := range rd.All() {
		last = err
	}
	require.ErrorIs(t, last, boom)
	assert.Equal(t, "trace: reading line 3: boom", last.Error())
	_, err = trace.NewReader(iotest.ErrReader(boom), trace.Options{})
	require.ErrorIs(t, err, boom)

	// An error is final.
	rd, err = trace.NewReader(strings.NewReader("1\nx\n2\n"), trace.Options{})
	require.NoError(t, err)
	_, err1 := rd.Next()
	_, err2 := rd.Next()
	require.ErrorIs(t, err1, trace.ErrSyntax)
	assert.Equal(t, err1, err2)
	assert.Equal(t, 2, rd.Line())

	// An empty plain trace has no events; CRLF line endings are read.
	evs, _, err := readAll(t, []byte("# nothing\r\n\r\n"), trace.Options{})
	require.NoError(t, err)
	assert.Empty(t, evs)
	evs, _, err = readAll(t, []byte("1\r\n2 1\r\n"), trace.Options{})
	require.NoError(t, err)
	assert.Equal(t, []trace.Event{d(0, ""), c(0, ""), d(1e9, ""), c(2e9, "")}, evs)

	// Noise around biosnoop data, a repeated header, decimals beyond a
	// nanosecond (dropped).
	in := "Tracing block I/O... Hit Ctrl-C to end.\nTIME(s) COMM PID DISK T SECTOR BYTES LAT(ms)\n1.0000000019 cat 1 sda R 1 1 0.0000019\nPossibly lost 3 samples\nTIME(s) COMM PID DISK T SECTOR BYTES LAT(ms)\n^C\nDetaching...\n"
	evs, _, err = readAll(t, []byte(in), trace.Options{Format: trace.FormatBiosnoop})
	require.NoError(t, err)
	assert.Equal(t, []trace.Event{d(0, "sda"), c(1, "sda")}, evs)
}

// A header without DISK: every line is one device, named "".
func TestBiosnoopWithoutDisk(t *testing.T) {
	evs, r, err := readAll(t, []byte("TIME(ms) COMM PID LAT(ms)\n10 a b 1 2\n"), trace.Options{})
	require.NoError(t, err)
	assert.Equal(t, trace.FormatBiosnoopBpftrace, r.Format())
	assert.Equal(t, []trace.Event{d(0, ""), c(2e6, "")}, evs)
	// Without COMM, extra fields are an error.
	_, _, err = readAll(t, []byte("TIME(ms) PID LAT(ms)\n10 1 2 3\n"), trace.Options{})
	require.ErrorIs(t, err, trace.ErrSyntax)
}

// Detection reads no more than it needs: a Reader of a live pipe starts
// with the first line, and a long prefix of comments is looked through.
func TestDetectionPeeksLittle(t *testing.T) {
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		_, err := pw.Write([]byte("TIME(s) COMM PID DISK T SECTOR BYTES LAT(ms)\n"))
		done <- err
	}()
	// Detection must not wait for more than the header line: a reader that
	// did would block on the pipe, which the timeout turns into a failure.
	type opened struct {
		r   *trace.Reader
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		r, err := trace.NewReader(pr, trace.Options{})
		ch <- opened{r, err}
	}()
	var r *trace.Reader
	select {
	case o := <-ch:
		require.NoError(t, o.err)
		r = o.r
	case <-time.After(10 * time.Second):
		_ = pw.CloseWithError(errors.New("test timed out"))
		t.Fatal("NewReader blocked reading past the header line")
	}
	require.NoError(t, <-done)
	assert.Equal(t, trace.FormatBiosnoop, r.Format())
	go func() {
		_, _ = pw.Write([]byte("0.5 cat 1 sda R 1 1 0.5\n"))
		_ = pw.Close()
	}()
	ev, err := r.Next()
	require.NoError(t, err)
	ev.ID = 0
	assert.Equal(t, d(0, "sda"), ev)

	in := strings.Repeat("# a comment line\n", 1000) + "8,0 0 1 0.1 1 D R\n"
	r, err = trace.NewReader(strings.NewReader(in), trace.Options{})
	require.NoError(t, err)
	assert.Equal(t, trace.FormatBlkparse, r.Format())
}

// A completion carries its dispatch's ID: blkparse's sector plus 1, the
// command's number in the one-line formats; 0 where blkparse gives no
// sector.
func TestReadIDs(t *testing.T) {
	ids := func(in string) []uint64 {
		r, err := trace.NewReader(strings.NewReader(in), trace.Options{})
		require.NoError(t, err)
		var out []uint64
		for ev, err := range r.All() {
			require.NoError(t, err)
			out = append(out, ev.ID)
		}
		return out
	}
	assert.Equal(t, []uint64{2049, 4097, 2049, 4097, 1, 1}, ids(string(readTestdata(t, "blkparse.txt"))))
	assert.Equal(t, []uint64{0, 0}, ids("8,0 0 1 0.1 1 D N\n8,0 0 2 0.2 1 C N\n"))
	assert.Equal(t, []uint64{1, 2, 1, 2}, ids("1.0 0.5\n1.1 0.5\n"))
}
