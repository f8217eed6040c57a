package main

import (
	"context"
	"io"
)

// streamBufSize is the size of each read a contextReader makes.
const streamBufSize = 64 << 10

// contextReader streams standard input so that ^C ends a read that waits
// for a writer (`replay CAP -` on an idle pipe): each read is made by a
// goroutine into a buffer of its own, and Read returns the context's cause
// as soon as ctx is done, without waiting for it. The buffer of a read
// still waiting then is never looked at again, so there is no data race;
// the goroutine ends with the read (apstctl is exiting). Not safe for
// concurrent use (an io.Reader's usual contract).
type contextReader struct {
	ctx     context.Context
	r       io.Reader
	buf     []byte // data read and not yet returned: buf[off:]
	off     int
	err     error       // the error of the underlying reader, after buf
	pending chan result // a read in flight, or nil
}

type result struct {
	b   []byte
	err error
}

func newContextReader(ctx context.Context, r io.Reader) *contextReader {
	return &contextReader{ctx: ctx, r: r}
}

// reading reports whether a read of the underlying reader is still in
// flight (Read returned because the context was done): closing a file
// then could wait for that read, which may never end.
func (c *contextReader) reading() bool {
	if c.pending == nil {
		return false
	}
	select {
	case r := <-c.pending:
		c.pending <- r // put back for a Read that may still come
		return false
	default:
		return true
	}
}

// Read returns data already read, or waits for the next read or the
// context, whichever comes first.
func (c *contextReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if c.off < len(c.buf) {
		n := copy(p, c.buf[c.off:])
		c.off += n
		return n, nil
	}
	if c.err != nil {
		return 0, c.err
	}
	if c.ctx.Err() != nil {
		return 0, context.Cause(c.ctx)
	}
	if c.pending == nil {
		ch := make(chan result, 1)
		c.pending = ch
		b := c.buf[:cap(c.buf)] // consumed: reused for the next read
		if len(b) == 0 {
			b = make([]byte, streamBufSize)
		}
		c.buf, c.off = nil, 0
		go func(r io.Reader) {
			n, err := r.Read(b)
			ch <- result{b[:n], err}
		}(c.r)
	}
	select {
	case <-c.ctx.Done():
		return 0, context.Cause(c.ctx)
	case res := <-c.pending:
		c.pending = nil
		c.buf, c.off, c.err = res.b, 0, res.err
		n := copy(p, c.buf)
		c.off = n
		if n == 0 && c.err != nil {
			return 0, c.err
		}
		return n, nil
	}
}
