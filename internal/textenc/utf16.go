// Package textenc reads the encodings other than UTF-8 that a capture or a
// kernel log reaches users in: UTF-16 after its byte order mark, as
// Windows PowerShell's ">" saves text (ssh host dmesg > dmesg.txt).
//
// The package is pure: it reads only what it is given and keeps no state
// between calls.
package textenc

import (
	"bufio"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// Order is the byte order of UTF-16 text; the zero value is no UTF-16.
type Order int

const (
	// None: the text does not start with a UTF-16 byte order mark.
	None Order = iota
	// LittleEndian: it starts with FF FE (what Windows writes).
	LittleEndian
	// BigEndian: it starts with FE FF.
	BigEndian
)

// UTF16BOM returns the byte order of the UTF-16 byte order mark b starts
// with, or None.
func UTF16BOM(b []byte) Order {
	switch {
	case len(b) >= 2 && b[0] == 0xff && b[1] == 0xfe:
		return LittleEndian
	case len(b) >= 2 && b[0] == 0xfe && b[1] == 0xff:
		return BigEndian
	}
	return None
}

// unmarkedUnits is how many units UTF16Unmarked reads.
const unmarkedUnits = 8

// UTF16Unmarked returns the byte order of UTF-16 text without a byte order
// mark that b starts with (a log copied out of a Windows tool that wrote
// none), or None: each of its first eight 16-bit units holds a character
// of ASCII text (printable, a tab, CR or LF) and a zero byte, the zero
// second in little endian and first in big endian. Text in UTF-8 holds no
// zero byte, so it never reads as either.
func UTF16Unmarked(b []byte) Order {
	if len(b) < 2*unmarkedUnits {
		return None
	}
	le, be := true, true
	for i := 0; i < 2*unmarkedUnits; i += 2 {
		le = le && b[i+1] == 0 && asciiText(b[i])
		be = be && b[i] == 0 && asciiText(b[i+1])
	}
	switch {
	case le:
		return LittleEndian
	case be:
		return BigEndian
	}
	return None
}

// asciiText reports whether c is a printable ASCII character, a tab, CR or LF.
func asciiText(c byte) bool { return c >= 0x20 && c < 0x7f || c == '\t' || c == '\r' || c == '\n' }

// NewUTF16Reader returns a reader of the UTF-16 text r holds after its
// byte order mark (which the caller has read), in byte order o, as UTF-8.
// An unpaired surrogate becomes U+FFFD and the unit after it is read as
// itself; a lone last byte is dropped. Read errors of r other than io.EOF
// are returned as they are.
func NewUTF16Reader(r io.Reader, o Order) io.Reader {
	br, ok := r.(io.ByteReader)
	if !ok {
		br = bufio.NewReader(r)
	}
	return &utf16Reader{r: br, big: o == BigEndian}
}

type utf16Reader struct {
	r       io.ByteReader
	big     bool
	next    uint16 // a unit read after a high surrogate that did not pair
	hasNext bool
	pending []byte // UTF-8 of the last rune not yet handed out
	buf     [utf8.UTFMax]byte
}

// unit reads one 16-bit unit; io.EOF also for a lone last byte.
func (u *utf16Reader) unit() (uint16, error) {
	if u.hasNext {
		u.hasNext = false
		return u.next, nil
	}
	a, err := u.r.ReadByte()
	if err != nil {
		return 0, err
	}
	b, err := u.r.ReadByte()
	if err == io.EOF {
		return 0, io.EOF
	} else if err != nil {
		return 0, err
	}
	if u.big {
		return uint16(a)<<8 | uint16(b), nil
	}
	return uint16(b)<<8 | uint16(a), nil
}

func (u *utf16Reader) Read(p []byte) (int, error) {
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
			r = utf8.RuneError
			if c2, err := u.unit(); err == nil {
				if d := utf16.DecodeRune(rune(c), rune(c2)); d != utf8.RuneError {
					r = d
				} else {
					u.next, u.hasNext = c2, true
				}
			}
		}
		u.pending = utf8.AppendRune(u.buf[:0], r)
	}
	return n, nil
}
