package kernlog_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/testfixture"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// No kernel log line holds a NUL byte or comes near MaxLongLine: a line
// that runs past it ends the read at once, named with its number (and the
// first NUL byte's offset), whatever was read before it; a shorter line
// holding a NUL byte is a binary line however long it is, and input of
// binary lines alone is refused.
func TestLinesBeyondTheBoundAreRefused(t *testing.T) {
	event := "[ 1.0] nvme nvme0: I/O 1 QID 1 timeout, aborting\n"
	over := strings.Repeat("a", kernlog.MaxLongLine+1)
	for _, tc := range []struct {
		name, in string
		err      error
		says     string
	}{
		{"a line of letters past the bound", over + "\n", kernlog.ErrLineTooLong,
			"kernlog: not a kernel log: a line is longer than any kernel log line: line 1 runs past 1048576 bytes without a line end"},
		{"past the bound after events", event + event + over + "\n" + event, kernlog.ErrLineTooLong, "line 3 runs past 1048576 bytes"},
		{"NUL bytes past the bound", event + "ab" + strings.Repeat("\x00", kernlog.MaxLongLine), kernlog.ErrBinary,
			"kernlog: input is binary, not a text kernel log: line 2 holds NUL bytes (the first at byte offset 51) and runs past 1048576 bytes without a line end"},
		{"100000 NUL bytes", strings.Repeat("\x00", 100000), kernlog.ErrBinary,
			"its one line holds NUL bytes (the first at byte offset 0) and is no kernel event"},
		{"a long binary line among text", "hello\n" + strings.Repeat("x", 70000) + "\x00\n" + "world\n", kernlog.ErrBinary,
			"1 of 3 lines hold NUL bytes (the first at line 2, byte offset 70006) and none is a kernel event"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := kernlog.ReadString(tc.in, kernlog.Options{})
			require.ErrorIs(t, err, tc.err)
			assert.Contains(t, err.Error(), tc.says)
		})
	}
}

// An endless pipe of zeros, plain or in a decompression bomb, is refused
// after MaxLongLine bytes or so, not read forever.
func TestEndlessZerosAreRefused(t *testing.T) {
	z := testfixture.NewZeros(256 << 20) // as good as endless; a reader that does not stop fails rather than hangs
	_, err := kernlog.Read(context.Background(), z, kernlog.Options{})
	require.ErrorIs(t, err, kernlog.ErrBinary)
	assert.LessOrEqual(t, z.Taken, kernlog.MaxLongLine+2*kernlog.MaxLineLength)

	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	_, err = io.Copy(w, testfixture.NewZeros(64<<20))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	l, err := kernlog.Read(context.Background(), &gz, kernlog.Options{})
	require.ErrorIs(t, err, kernlog.ErrBinary)
	assert.Contains(t, err.Error(), "(the first at byte offset 0 of the decompressed text)")
	assert.Equal(t, "gzip", l.Compression)
}

// A line between MaxLineLength and MaxLongLine that holds a NUL byte
// beside a log's events is skipped and counted as binary, not long.
func TestLongBinaryLineIsCountedAsBinary(t *testing.T) {
	in := "[ 1.0] nvme nvme0: I/O 1 QID 1 timeout, aborting\n" + strings.Repeat("x", 100000) + "\x00y\n" + strings.Repeat("z", 100000) + "\n"
	l, err := kernlog.ReadString(in, kernlog.Options{})
	require.NoError(t, err)
	assert.Equal(t, int64(3), l.Lines)
	assert.Equal(t, int64(1), l.BinaryLines)
	assert.Equal(t, int64(1), l.LongLines)
	assert.Equal(t, int64(1), l.Events)

	// After a first binary line, the next ones are looked at too.
	l, err = kernlog.ReadString("\x00\n"+in+strings.Repeat("\x00", kernlog.MaxLongLine+1), kernlog.Options{})
	require.ErrorIs(t, err, kernlog.ErrBinary)
	assert.Contains(t, err.Error(), "line 5 holds NUL bytes (the first at byte offset 0)")
	assert.Equal(t, int64(2), l.BinaryLines)
}
