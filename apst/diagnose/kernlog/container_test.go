package kernlog_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

func gzipped(t *testing.T, parts ...string) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, p := range parts {
		// One member per part: cat a.gz b.gz is a gzip file too.
		w := gzip.NewWriter(&b)
		_, err := w.Write([]byte(p))
		require.NoError(t, err)
		require.NoError(t, w.Close())
	}
	return b.Bytes()
}

// A compressed log as bug trackers attach it (dmesg.txt.gz) and logrotate
// keeps it (kern.log.2.gz, bzip2 on some systems) reads as its text does,
// and says it was compressed; so do two gzip members concatenated.
func TestReadDecompresses(t *testing.T) {
	plain, err := os.ReadFile(filepath.Join("testdata", "compressed", "dmesg.txt"))
	require.NoError(t, err)
	bz, err := os.ReadFile(filepath.Join("testdata", "compressed", "dmesg.txt.bz2"))
	require.NoError(t, err)
	want, err := kernlog.Read(context.Background(), bytes.NewReader(plain), kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, want.Incidents, 1)
	assert.Empty(t, want.Compression)
	half := bytes.IndexByte(plain, '\n') + 1
	for _, tc := range []struct {
		name, format string
		in           []byte
	}{
		{"gzip", "gzip", gzipped(t, string(plain))},
		{"gzip, two members", "gzip", gzipped(t, string(plain[:half]), string(plain[half:]))},
		{"bzip2", "bzip2", bz},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.Read(context.Background(), bytes.NewReader(tc.in), kernlog.Options{})
			require.NoError(t, err)
			assert.Equal(t, tc.format, l.Compression)
			assert.Equal(t, want.Lines, l.Lines)
			assert.Equal(t, want.Incidents, l.Incidents)
			var lines []string
			require.NoError(t, kernlog.Lines(context.Background(), bytes.NewReader(tc.in), func(b []byte) { lines = append(lines, string(b)) }))
			assert.Equal(t, strings.Split(strings.TrimSuffix(string(plain), "\n"), "\n"), lines)
		})
	}
}

// What Read cannot open is refused as binary, named, with how to give
// its log; so is a compressed file cut short, never a log read to where it
// broke off.
func TestReadRefusesContainers(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []byte
		says string
	}{
		{"xz", []byte("\xfd7zXZ\x00\x00\x04\xe6\xd6\xb4\x46"), "it is xz-compressed: decompress it first (xz -dc FILE)"},
		{"zstd", []byte("\x28\xb5\x2f\xfd\x24\x00"), "it is zstd-compressed: decompress it first (zstd -dc FILE)"},
		{"lz4", []byte("\x04\x22\x4d\x18\x64\x40"), "it is lz4-compressed"},
		{"journal file", []byte("LPKSHHRH\x00\x00\x00\x00\x02\x00\x00\x00"), "it is a systemd journal file: give its kernel messages as text (journalctl --file FILE -k -o short-monotonic --no-pager)"},
		{"zip", []byte("PK\x03\x04\x14\x00\x00\x00"), "it is a ZIP archive: extract the log from it first"},
		{"gzip header broken", []byte("\x1f\x8b\x08\xff"), "it is gzip-compressed, and its header does not read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.Read(context.Background(), bytes.NewReader(tc.in), kernlog.Options{})
			require.ErrorIs(t, err, kernlog.ErrBinary)
			assert.Contains(t, err.Error(), tc.says)
			require.NotNil(t, l)
			assert.Zero(t, l.Events)
			require.ErrorIs(t, kernlog.Lines(context.Background(), bytes.NewReader(tc.in), func([]byte) {}), kernlog.ErrBinary)
		})
	}
	full := gzipped(t, "[    1.0] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n")
	_, err := kernlog.Read(context.Background(), bytes.NewReader(full[:len(full)-6]), kernlog.Options{})
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	require.ErrorIs(t, err, kernlog.ErrBinary)
	assert.Equal(t, "kernlog: input is binary, not a text kernel log: it is gzip-compressed and does not decompress: unexpected EOF", err.Error())
	assert.False(t, errors.Is(err, kernlog.ErrNotKernelLog))
}

// Text that begins with a container's first letters is still text: "BZh"
// is bzip2 only with a block size and the block's magic after it.
func TestReadTextLikeAContainer(t *testing.T) {
	l, err := kernlog.ReadString("BZh9 kernel: nvme nvme0: I/O 9 QID 0 timeout, reset controller\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Compression)
	assert.Equal(t, int64(1), l.Events)
}

// endless is a line without end: a pipe of one byte, as good as forever
// (256 MiB, so that a reader that does not stop fails the test rather
// than hanging it).
type endless struct{ left int }

func (e *endless) Read(p []byte) (int, error) {
	if e.left == 0 {
		return 0, io.EOF
	}
	n := min(len(p), e.left)
	for i := range p[:n] {
		p[i] = 'x'
	}
	e.left -= n
	return n, nil
}

// A line that never ends (cat /dev/zero, a decompression bomb) is read by
// Read only to MaxLongLine, and by Lines, which skips a long line whatever
// its length, only until the context is cancelled.
func TestReadEndlessLineHonoursContext(t *testing.T) {
	e := &endless{left: 256 << 20}
	_, err := kernlog.Read(context.Background(), e, kernlog.Options{})
	require.ErrorIs(t, err, kernlog.ErrLineTooLong)
	assert.LessOrEqual(t, 256<<20-e.left, kernlog.MaxLongLine+2*kernlog.MaxLineLength, "read past the bound")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	require.ErrorIs(t, kernlog.Lines(ctx, &endless{left: 256 << 20}, func([]byte) {}), context.Canceled)
}

// UTF-16 text after its byte order mark, as Windows PowerShell's ">"
// saves a log (ssh host dmesg > dmesg.txt), or without one, reads as its
// UTF-8 does, in either byte order, with CRLF ends; a character beyond the
// BMP (a surrogate pair) comes through whole, and a lone last byte is
// dropped.
func TestReadUTF16(t *testing.T) {
	plain, err := os.ReadFile(filepath.Join("testdata", "compressed", "dmesg.txt"))
	require.NoError(t, err)
	text := strings.ReplaceAll(string(plain), "\n", "\r\n") + "note \U0001F600\r\n"
	want, err := kernlog.ReadString(text, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, want.Incidents, 1)
	for _, tc := range []struct{ big, mark bool }{{false, true}, {true, true}, {false, false}, {true, false}} {
		big := tc.big
		units := utf16.Encode([]rune(text))
		b := []byte{0xff, 0xfe}
		if big {
			b = []byte{0xfe, 0xff}
		}
		if !tc.mark {
			b = b[:0]
		}
		for _, u := range units {
			if big {
				b = append(b, byte(u>>8), byte(u))
			} else {
				b = append(b, byte(u), byte(u>>8))
			}
		}
		l, err := kernlog.Read(context.Background(), bytes.NewReader(append(b, 'x')), kernlog.Options{})
		require.NoError(t, err, "%+v", tc)
		assert.Equal(t, want.Incidents, l.Incidents)
		assert.Equal(t, want.Lines, l.Lines)
		// The same, compressed (a Windows tool's log, then gzip): read
		// as the file itself is, not refused as binary.
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		_, err = zw.Write(b)
		require.NoError(t, err)
		require.NoError(t, zw.Close())
		l, err = kernlog.Read(context.Background(), &z, kernlog.Options{})
		require.NoError(t, err, "gzip %+v", tc)
		assert.Equal(t, want.Incidents, l.Incidents, "gzip %+v", tc)
		assert.Equal(t, "gzip", l.Compression)
		var last string
		require.NoError(t, kernlog.Lines(context.Background(), bytes.NewReader(b), func(line []byte) { last = string(line) }))
		assert.Equal(t, "note \U0001F600", last)
	}
}
