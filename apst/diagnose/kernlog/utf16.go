package kernlog

import (
	"bufio"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// utf16Text reads UTF-16 text (after its byte order mark, which br starts
// with) as UTF-8: what Windows PowerShell's ">" writes when a log is
// saved through it (ssh host dmesg > dmesg.txt). An unpaired surrogate
// becomes U+FFFD, as a lone last byte is dropped.
type utf16Text struct {
	r       *bufio.Reader
	big     bool
	pending []byte // UTF-8 of the last rune not yet handed out
	buf     [utf8.UTFMax]byte
}

// utf16BOM returns the byte order of the UTF-16 byte order mark br starts
// with: 1 little-endian, 2 big-endian, 0 none.
func utf16BOM(br *bufio.Reader) int {
	head, _ := br.Peek(2)
	switch {
	case len(head) == 2 && head[0] == 0xff && head[1] == 0xfe:
		return 1
	case len(head) == 2 && head[0] == 0xfe && head[1] == 0xff:
		return 2
	}
	return 0
}

// unit reads one 16-bit unit.
func (u *utf16Text) unit() (uint16, error) {
	a, err := u.r.ReadByte()
	if err != nil {
		return 0, err
	}
	b, err := u.r.ReadByte()
	if err != nil {
		return 0, io.EOF // a lone last byte: no unit
	}
	if u.big {
		return uint16(a)<<8 | uint16(b), nil
	}
	return uint16(b)<<8 | uint16(a), nil
}

func (u *utf16Text) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(u.pending) > 0 {
			c := copy(p[n:], u.pending)
			u.pending = u.pending[c:]
			n += c
			continue
		}
		c, err := u.unit()
		if err != nil {
			if n > 0 && err == io.EOF {
				return n, nil
			}
			return n, err
		}
		r := rune(c)
		if utf16.IsSurrogate(r) {
			if c2, err := u.unit(); err == nil {
				r = utf16.DecodeRune(r, rune(c2))
			} else {
				r = utf8.RuneError
			}
		}
		u.pending = utf8.AppendRune(u.buf[:0], r)
	}
	return n, nil
}
