package trace

import (
	"encoding/binary"
)

// blkLayout is where scanWide found the first six fields of a line: the
// device s0..e0 with its ',' at c, the CPU s1..e1, the sequence number
// s2..e2, the time s3..e3 with its '.' at dot, the PID s4..e4 and the
// one-letter action at a.
type blkLayout struct {
	s0, c, e0, s1, e1, s2, e2, s3, dot, e3, s4, e4, a int
}

// blkTemplate is the layout of the last line scanWide read, as masks: a
// line with the same bytes where that line had blanks, ',' and '.', digits
// where it had digits, a letter where it had its action and a blank after
// it, has its fields where that line had them, of the same lengths, all
// valid; only the values differ. Checking that takes a few operations
// every eight bytes, far fewer than finding the fields.
type blkTemplate struct {
	ok bool
	// sector is where the sector starts, after blanks, the RWBS field
	// (any bytes but blanks, of any length: blkparse right-aligns it, so
	// that the sector stays in place) and blanks; 0 when the template
	// ends at the blank after the action (the rest read byte by byte).
	sector int
	// A byte b is a digit when b&0xf0 == 0x30 and (b+6)&0x40 == 0: the
	// first test is one of exact under mask; the second adds six to the
	// word (0x30 to 0x39 stay below 0x40, 0x3a to 0x3f reach it), where
	// only a byte that failed the first (0xfa to 0xff) carries into the
	// next.
	exact [wide / 8]uint64 // the bytes that must be the same (blanks, ',' and '.'), 0x30 where a digit must be
	mask  [wide / 8]uint64 // 0xff where exact applies, 0xf0 where a digit must be
	digit [wide / 8]uint64 // 0x40 where a digit must be
	six   [wide / 8]uint64 // 0x06 where a digit must be
	// flex is 0x10 where a blank or a digit may be: the padding of a
	// right-aligned number (CPU, sequence number, seconds, PID) and its
	// digits but the last, which blkparse's widths ("%2c %8s %5T %5p")
	// leave to each line's number. Its blanks must come before its
	// digits (a number, not two fields). A byte b of it is read as
	// b|0x10, a digit; it is a blank if its bit 4 is clear, and then its
	// low nibble must be 0 (0x20, not 0x21 to 0x29).
	flex [wide / 8]uint64
	// flexPrev is 0x10 where the byte before is of flex (the last byte
	// of the word before for the first).
	flexPrev [wide / 8]uint64
	// ws is the masks above word by word, as bad reads them: a word's
	// six in one place.
	ws [wide / 8]tmplWord
	// lay is where the fields lie, the right-aligned numbers from the
	// start of their padding (lay.s1 to lay.s4): their first digits
	// differ from line to line.
	lay blkLayout
	// words is the number of words up to the blank after the action:
	// the others have empty masks.
	words int
	// devLo and devHi keep the bytes of the device's text (the first 8,
	// the next 8) of a word read where it starts; devLong is true when
	// the text is longer than 16 bytes.
	devLo, devHi uint64
	devLong      bool
	_            [0]func() // not comparable
}

// tmplWord is a word's masks of a blkTemplate.
type tmplWord struct {
	exact, mask, digit, six, flex, flexPrev uint64
}

// build makes t the template of line, read by scanWide with layout lay;
// a line whose action ends it, or lies past the bytes scanWide looks at,
// gives none.
func (t *blkTemplate) build(line []byte, lay *blkLayout) {
	t.ok = false
	end := lay.a + 1 // the blank after the action
	if end >= len(line) || end >= wide {
		return
	}
	*t = blkTemplate{ok: true, lay: *lay, words: end/8 + 1}
	devLen := lay.e0 - lay.s0 + 1
	t.devLo = bytesMask(min(devLen, 8))
	t.devHi = bytesMask(min(max(devLen-8, 0), 8))
	t.devLong = devLen > 16
	// Where the sector starts, when it lies within the 15 bytes after
	// the blank after the action.
	if rw0 := skipBlank(line, end); rw0 < len(line) {
		if sector := skipBlank(line, skipToken(line, rw0)); sector < len(line) && sector-end < 16 {
			t.sector = sector
		}
	}
	digits := func(from, to int) { // from..to, both included
		for p := from; p <= to; p++ {
			sh := 8 * (p % 8)
			t.digit[p/8] |= 0x40 << sh
			t.six[p/8] |= 0x06 << sh
			t.exact[p/8] |= 0x30 << sh
			t.mask[p/8] |= 0xf0 << sh
		}
	}
	// A right-aligned number from s to e, after a field ending at prev:
	// from prev+2 (after one blank) to e, when that is at most 8 bytes,
	// blanks or digits, the last a digit; else the digits from s to e.
	// It returns where its padding starts.
	number := func(prev, s, e int) int {
		from := prev + 2
		if e-from+1 > 8 || from > s {
			digits(s, e)
			return s
		}
		digits(from, e)
		for p := from; p < e; p++ {
			t.flex[p/8] |= 0x10 << (8 * (p % 8))
		}
		return from
	}
	digits(lay.s0, lay.c-1)
	digits(lay.c+1, lay.e0)
	t.lay.s1 = number(lay.e0, lay.s1, lay.e1)
	t.lay.s2 = number(lay.e1, lay.s2, lay.e2)
	t.lay.s3 = number(lay.e2, lay.s3, lay.dot-1)
	digits(lay.dot+1, lay.e3)
	t.lay.s4 = number(lay.e3, lay.s4, lay.e4)
	for k := range t.flex {
		t.flexPrev[k] = t.flex[k] << 8
		if k > 0 {
			t.flexPrev[k] |= t.flex[k-1] >> 56
		}
	}
	for p := 0; p <= end; p++ {
		if p == lay.a || t.digit[p/8]&(0x40<<(8*(p%8))) != 0 {
			continue
		}
		t.exact[p/8] |= uint64(line[p]) << (8 * (p % 8))
		t.mask[p/8] |= 0xff << (8 * (p % 8))
	}
	for k := range t.ws {
		t.ws[k] = tmplWord{exact: t.exact[k], mask: t.mask[k], digit: t.digit[k], six: t.six[k], flex: t.flex[k], flexPrev: t.flexPrev[k]}
	}
}

// match reads line as scanWide would, when it has the template's layout:
// handled false when it has not (or there is no template).
func (t *blkTemplate) match(line []byte, out *blkLine) (ok, handled bool) {
	l := &t.lay
	if !t.ok || len(line) <= max(l.a+1, t.sector) || cap(line) < wide+16 {
		return false, false
	}
	// All eight words, those past the blank after the action having
	// empty masks: no branch, and written out, no bounds check.
	w := (*[wide]byte)(line[:wide])
	if t.word(w, 0)|t.word(w, 1)|t.word(w, 2)|t.word(w, 3)|t.word(w, 4)|t.word(w, 5)|t.word(w, 6)|t.word(w, 7) != 0 {
		return false, false
	}
	k, letter := actionKind(line[l.a])
	switch {
	case !letter:
		return false, false
	case k == 0:
		out.kind = 0
		return true, true
	}
	// RWBS SECTOR, as scanBlkparseBytes reads them.
	var id uint64
	ss := t.sector
	if ss > 0 {
		// From the blank after the action to the sector: blanks, one
		// field (RWBS), blanks, as skipBlank and skipToken would walk
		// them; the sector's first byte is not a blank.
		at := l.a + 1
		bl := blankBits(binary.LittleEndian.Uint64(line[at:at+8])) | blankBits(binary.LittleEndian.Uint64(line[at+8:at+16]))<<8
		width := ss - at
		rwbs := ^bl & (1<<width - 1)
		if rwbs == 0 || bl>>(width-1)&1 == 0 || bl>>width&1 != 0 || (rwbs+rwbs&-rwbs)&rwbs != 0 {
			return false, false
		}
	} else {
		ss = skipBlank(line, skipToken(line, skipBlank(line, l.a+1))) // after RWBS
	}
	if s, j, ok := leadingUint(line, ss); ok && (j == len(line) || line[j] == ' ' || line[j] == '\t') && s < 1<<64-1 {
		id = s + 1
	}
	// Every field, one at a time: a composite literal is built on the
	// stack and copied 16 bytes at a time, each copy waiting for the
	// 8-byte stores it spans (a store-forwarding stall).
	out.t = int64(paddedValue(binary.LittleEndian.Uint64(line[l.s3:l.s3+8]), l.dot-l.s3)*1e9 + eightDigits(binary.LittleEndian.Uint64(line[l.dot+1:l.dot+9])-0x3030303030303030)*10 + uint64(line[l.e3]-'0'))
	if ns := l.e2 - l.s2 + 1; ns <= 8 {
		out.seq = paddedValue(binary.LittleEndian.Uint64(line[l.s2:l.s2+8]), ns)
	} else {
		out.seq = uintValue(line, l.s2, ns)
	}
	out.id = id
	out.maj = digitsValue(binary.LittleEndian.Uint64(line[l.s0:l.s0+8]), l.c-l.s0)
	out.min = digitsValue(binary.LittleEndian.Uint64(line[l.c+1:l.c+9]), l.e0-l.c)
	out.devStart, out.devEnd, out.kind = l.s0, l.e0+1, k
	return true, true
}

// bad returns the bits of the words of w up to the blank after the action
// that differ from the template: 0 when they match. The words past it
// have empty masks: they add nothing, and the first six are checked
// whatever the template's length (blkparse's default layout has its
// action in the sixth), the last two only when it reaches them; written
// out, without a loop or a bounds check (w holds 16 bytes past the
// template's 64). The bytes before each word's (prev) are read as one
// word from the byte before it.
func (t *blkTemplate) bad(w *[wide + 16]byte) uint64 {
	n := t.words
	if n < 2 || n > wide/8 {
		return 1
	}
	ws := &t.ws
	x := binary.LittleEndian.Uint64(w[0:8])
	bad := ws[0].bad(x, x<<8) |
		ws[1].bad(binary.LittleEndian.Uint64(w[8:16]), binary.LittleEndian.Uint64(w[7:15])) |
		ws[2].bad(binary.LittleEndian.Uint64(w[16:24]), binary.LittleEndian.Uint64(w[15:23])) |
		ws[3].bad(binary.LittleEndian.Uint64(w[24:32]), binary.LittleEndian.Uint64(w[23:31])) |
		ws[4].bad(binary.LittleEndian.Uint64(w[32:40]), binary.LittleEndian.Uint64(w[31:39])) |
		ws[5].bad(binary.LittleEndian.Uint64(w[40:48]), binary.LittleEndian.Uint64(w[39:47]))
	if n > 6 {
		bad |= ws[6].bad(binary.LittleEndian.Uint64(w[48:56]), binary.LittleEndian.Uint64(w[47:55])) |
			ws[7].bad(binary.LittleEndian.Uint64(w[56:64]), binary.LittleEndian.Uint64(w[55:63]))
	}
	return bad
}

// bad returns the bits of x, a word of a line, that differ from m; prev
// is the bytes before x's (x<<8 with the byte before its first). A blank's
// 0x10 is made 0x0f by a subtraction (0x10 - 0x01 in each byte, no
// borrow): a blank of the padding with a low nibble other than 0 is bad.
func (m *tmplWord) bad(x, prev uint64) uint64 {
	y := x | m.flex
	blank := ^x & m.flex
	return (y^m.exact)&m.mask | (y+m.six)&m.digit |
		x&(blank-blank>>4) | prev&m.flexPrev&blank
}

// word returns the bits of word k of w (0 to 7) that differ from the
// template: 0 when they match.
func (t *blkTemplate) word(w *[wide]byte, k int) uint64 {
	x := binary.LittleEndian.Uint64(w[8*k : 8*k+8])
	f := t.flex[k]
	y := x | f
	bad := (y^t.exact[k])&t.mask[k] | (y+t.six[k])&t.digit[k]
	if f == 0 {
		return bad
	}
	// A blank of the padding is 0x20; none follows a digit of it (the
	// byte before the word's first is the last of the word before).
	blank := ^x & f
	prev := x << 8
	if k > 0 {
		prev |= uint64(w[8*k-1])
	}
	return bad | x&(blank>>4*0x0f) | prev&(f<<8|t.flexLast(k))&blank
}

// flexLast returns 0x10 when the last byte of word k-1 is of the padding
// of a number (t.flex), 0 otherwise (and for k = 0).
func (t *blkTemplate) flexLast(k int) uint64 {
	if k == 0 {
		return 0
	}
	return t.flex[k-1] >> 56
}

// paddedValue returns the number the first n bytes (1 to 8) of x write:
// blanks, then digits, as the template checked them (a blank of the
// padding is 0x20, a digit 0x30 to 0x39). Their low nibbles are the
// number's digits with its padding as leading zeros, converted as they
// lie.
func paddedValue(x uint64, n int) uint64 {
	return eightDigits((x & 0x0f0f0f0f0f0f0f0f) << uint(64-8*n))
}

// uintValue returns the number the n digits (1 to 16) of b from s on
// write; b has the capacity to read 16 bytes from s.
func uintValue(b []byte, s, n int) uint64 {
	x := binary.LittleEndian.Uint64(b[s : s+8])
	if n <= 8 {
		return digitsValue(x, n)
	}
	return eightDigits(x-0x3030303030303030)*pow10[n-8] + digitsValue(binary.LittleEndian.Uint64(b[s+8:s+16]), n-8)
}

// actionKind reads a one-letter blkparse action: Dispatch for D,
// Completion for C, 0 for another letter (an action the replay skips);
// letter is false for a byte that is not a letter.
func actionKind(a byte) (k Kind, letter bool) {
	switch {
	case a == 'D':
		return Dispatch, true
	case a == 'C':
		return Completion, true
	}
	return 0, a|0x20 >= 'a' && a|0x20 <= 'z'
}

// bytesMask returns a mask of the first n bytes (0 to 8) of a word read
// little endian.
func bytesMask(n int) uint64 {
	if n >= 8 {
		return 1<<64 - 1
	}
	return 1<<(8*n) - 1
}
