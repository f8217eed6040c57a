package safeio

import (
	"fmt"
	"io"
)

// Writer is an io.Writer that remembers the first error of the writer it
// wraps: after it, every write does nothing and returns that error. A
// command prints its whole report through a Writer without checking each
// call, then returns [Writer.Err] (and exits 1 when it is not nil). A short
// write without an error counts as io.ErrShortWrite.
type Writer struct {
	w   io.Writer
	n   int64
	err error
}

// NewWriter returns a Writer writing to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write writes p unless an earlier write failed.
func (w *Writer) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.w.Write(p)
	w.n += int64(n)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	w.err = err
	return n, err
}

// WriteString writes s unless an earlier write failed.
func (w *Writer) WriteString(s string) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n, err := io.WriteString(w.w, s)
	w.n += int64(n)
	if err == nil && n < len(s) {
		err = io.ErrShortWrite
	}
	w.err = err
	return n, err
}

// Printf formats as fmt.Fprintf does and writes the result.
func (w *Writer) Printf(format string, args ...any) {
	if w.err == nil {
		fmt.Fprintf(w, format, args...)
	}
}

// Println formats as fmt.Fprintln does and writes the result.
func (w *Writer) Println(args ...any) {
	if w.err == nil {
		fmt.Fprintln(w, args...)
	}
}

// Err returns the first write error, or nil.
func (w *Writer) Err() error { return w.err }

// Written returns the number of bytes written so far.
func (w *Writer) Written() int64 { return w.n }
