package safeio_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// failAfter accepts n bytes, then fails every write.
type failAfter struct {
	n     int
	err   error
	buf   bytes.Buffer
	calls int
}

func (f *failAfter) Write(p []byte) (int, error) {
	f.calls++
	if f.buf.Len()+len(p) > f.n {
		k := f.n - f.buf.Len()
		f.buf.Write(p[:k])
		return k, f.err
	}
	return f.buf.Write(p)
}

// shortWriter writes one byte less than asked, without an error.
type shortWriter struct{}

func (shortWriter) Write(p []byte) (int, error) { return max(len(p)-1, 0), nil }

func TestWriter(t *testing.T) {
	boom := errors.New("boom")
	f := &failAfter{n: 10, err: boom}
	w := safeio.NewWriter(f)
	w.Printf("%s\n", "hello")
	require.NoError(t, w.Err())
	w.Println("world!")
	require.ErrorIs(t, w.Err(), boom)
	calls := f.calls
	w.Printf("more %d", 1)
	w.Println("more")
	_, err := w.WriteString("more")
	assert.ErrorIs(t, err, boom)
	_, err = w.Write([]byte("more"))
	assert.ErrorIs(t, err, boom)
	assert.Equal(t, calls, f.calls, "nothing is written after the first error")
	assert.Equal(t, "hello\nworl", f.buf.String())
	assert.Equal(t, int64(10), w.Written())

	w = safeio.NewWriter(shortWriter{})
	_, err = w.WriteString("abc")
	assert.ErrorIs(t, err, io.ErrShortWrite)
	assert.ErrorIs(t, w.Err(), io.ErrShortWrite)

	w = safeio.NewWriter(shortWriter{})
	_, err = w.Write([]byte("abc"))
	assert.ErrorIs(t, err, io.ErrShortWrite)
}

func TestWriterDevFull(t *testing.T) {
	w := safeio.NewWriter(devFull(t))
	w.Println("report line")
	require.Error(t, w.Err())
	assert.True(t, isNoSpace(w.Err()), "%v", w.Err())
}
