package kernlog

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
)

// scanner reads a text line by line for Read and Lines, counting the lines
// in log (Lines, and the lines it skips: LongLines, and BinaryLines of
// those longer than MaxLineLength; st.line counts the shorter ones).
type scanner struct {
	log *Log
	// limit is the length past which a line ends the read (MaxLongLine
	// for Read); 0 skips a long line whatever its length (Lines).
	limit int64
	// off is the number of bytes read; nulOff the offset of the first NUL
	// byte (-1: none yet) and nulLine its line.
	off     int64
	nulOff  int64
	nulLine int64
}

// scan calls fn with each line of r at most MaxLineLength bytes long, with
// its line ending, skipping longer ones; a line longer than s.limit is an
// error (ErrBinary if it holds a NUL byte, else ErrLineTooLong), as is a
// read error, ctx's error or a compressed file that broke off.
func (s *scanner) scan(ctx context.Context, r io.Reader, fn func([]byte)) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("kernlog: %w", err)
	}
	br := bufio.NewReaderSize(r, MaxLineLength)
	if head, _ := br.Peek(crPeek); bytes.IndexByte(head, '\n') < 0 && bytes.IndexByte(head, '\r') >= 0 {
		// Lines that end in CR alone (a classic Mac text, a terminal
		// capture saved raw) are lines, not one line.
		br = bufio.NewReaderSize(crLines{br}, MaxLineLength)
	}
	var long int64 // the length so far of a long line being skipped
	binary := false
	chunks := 0
	for {
		line, err := br.ReadSlice('\n')
		full := errors.Is(err, bufio.ErrBufferFull)
		if s.nulOff < 0 || long > 0 || full {
			// The first NUL byte is placed; every piece of a long line is
			// looked at, as st.line looks at the shorter ones.
			if i := bytes.IndexByte(line, 0); i >= 0 {
				binary = true
				if s.nulOff < 0 {
					s.nulOff, s.nulLine = s.off+int64(i), s.log.Lines
					if long == 0 {
						s.nulLine++ // the line is not counted yet
					}
				}
			}
		}
		s.off += int64(len(line))
		switch {
		case full || long > 0:
			if long == 0 {
				s.log.Lines++
			}
			long += int64(len(bytes.TrimRight(line, "\r\n")))
			if s.limit > 0 && long > s.limit {
				return s.tooLong(binary)
			}
			if full {
				// A line without end is read to its end (or to limit),
				// but not past a cancellation.
				if chunks++; chunks%64 == 0 {
					if cerr := ctx.Err(); cerr != nil {
						return fmt.Errorf("kernlog: line %d: %w", s.log.Lines, cerr)
					}
				}
				continue
			}
			if binary {
				s.log.BinaryLines++
			} else {
				s.log.LongLines++
			}
			long, binary = 0, false
		case len(line) > 0:
			s.log.Lines++
			if s.log.Lines%4096 == 0 {
				if cerr := ctx.Err(); cerr != nil {
					return fmt.Errorf("kernlog: line %d: %w", s.log.Lines, cerr)
				}
			}
			binary = false
			fn(line)
		}
		if err == io.EOF {
			return nil
		}
		if errors.Is(err, ErrBinary) {
			return err // a compressed file that broke off says so itself
		}
		if err != nil {
			return fmt.Errorf("kernlog: reading line %d: %w", s.log.Lines+1, err)
		}
	}
}

// tooLong is the error of the line being read, longer than s.limit.
func (s *scanner) tooLong(binary bool) error {
	if binary {
		return fmt.Errorf("%w: line %d holds NUL bytes (the first at byte offset %d%s) and runs past %d bytes without a line end", ErrBinary, s.log.Lines, s.nulOff, s.ofText(s.log), s.limit)
	}
	return fmt.Errorf("%w: line %d runs past %d bytes without a line end (a kernel message is at most 1024 bytes, and its journal or syslog prefix less than 200)", ErrLineTooLong, s.log.Lines, s.limit)
}

// ofText says which text a byte offset counts in: the decompressed one
// for a compressed log.
func (s *scanner) ofText(l *Log) string {
	if l.Compression != "" {
		return " of the decompressed text"
	}
	return ""
}

// crPeek is how much of a text scan looks at for a line end: a text whose
// first crPeek bytes hold a CR and no LF has lines that end in CR alone
// (a kernel line with its prefix is far shorter).
const crPeek = 4096

// crLines reads a text whose lines end in CR alone with LF line ends.
type crLines struct{ r io.Reader }

func (c crLines) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for i, b := range p[:n] {
		if b == '\r' {
			p[i] = '\n'
		}
	}
	return n, err
}
