package trace

import (
	"encoding/binary"
	"math/bits"
)

// wide is how many bytes of a line scanWide looks at once: a bit each in
// a uint64.
const wide = 64

// scanWide is scanBlkparse for the common line, one whose fields up to
// the sector lie in its first 64 bytes, when the line's slice has the
// capacity to read 64 bytes (the bytes past its end are masked off): it
// finds the fields of those bytes at once (a bit per byte, set for the
// bytes that are not blanks) and reads each number eight bytes at a time,
// without a branch per byte. It reports handled false for anything but
// the plain shape (a field too long, a time of another shape, a device
// that is not MAJ,MIN, an action that is not one letter...), leaving the
// line to scanBlkparseBytes, which reads it a byte at a time and decides.
// Where it handles the line, lay holds where its first six fields lie.
func scanWide(line []byte, out *blkLine, lay *blkLayout) (ok, handled bool) {
	if cap(line) < wide+16 {
		return false, false // every load below lies within the capacity
	}
	w := line[:wide]
	var blank uint64
	for k := 0; k < wide/8; k++ {
		blank |= blankBits(binary.LittleEndian.Uint64(w[8*k:])) << (8 * k)
	}
	n := len(line)
	field := ^blank
	if n < wide {
		field &= 1<<n - 1
	}
	starts := field &^ (field << 1)
	ends := field &^ (field >> 1) // the last byte of each field
	if n > wide && field>>(wide-1) != 0 && line[wide] != ' ' && line[wide] != '\t' {
		// The last field goes on past the bytes looked at: leave it out.
		starts &^= 1 << (wide - 1 - bits.LeadingZeros64(starts))
		ends &^= 1 << (wide - 1)
	}
	if bits.OnesCount64(starts) < 6 {
		return false, false
	}
	// MAJ,MIN.
	s, e := bits.TrailingZeros64(starts), bits.TrailingZeros64(ends)
	starts, ends = starts&(starts-1), ends&(ends-1)
	x := binary.LittleEndian.Uint64(line[s : s+8])
	dm := leadingDigits(x)
	c := s + dm
	if dm == 0 || c >= e || line[c] != ',' {
		return false, false
	}
	maj := digitsValue(x, dm)
	x = binary.LittleEndian.Uint64(line[c+1 : c+9])
	nm := e - c
	if nm > 8 || leadingDigits(x) < nm {
		return false, false
	}
	min := digitsValue(x, nm)
	devStart, devEnd := s, e+1
	lay.s0, lay.c, lay.e0 = s, c, e
	// CPU.
	s, e = bits.TrailingZeros64(starts), bits.TrailingZeros64(ends)
	lay.s1, lay.e1 = s, e
	starts, ends = starts&(starts-1), ends&(ends-1)
	if n := e - s + 1; n > 8 || leadingDigits(binary.LittleEndian.Uint64(line[s:s+8])) < n {
		return false, false
	}
	// Sequence number.
	s, e = bits.TrailingZeros64(starts), bits.TrailingZeros64(ends)
	starts, ends = starts&(starts-1), ends&(ends-1)
	lay.s2, lay.e2 = s, e
	x = binary.LittleEndian.Uint64(line[s : s+8])
	var seq uint64
	if n := e - s + 1; n <= 8 && leadingDigits(x) >= n {
		seq = digitsValue(x, n)
	} else if seq, ok = fieldUint(line, s, e); !ok {
		return false, false
	}
	// SECONDS.NANOS, nine decimals.
	s, e = bits.TrailingZeros64(starts), bits.TrailingZeros64(ends)
	starts, ends = starts&(starts-1), ends&(ends-1)
	x = binary.LittleEndian.Uint64(line[s : s+8])
	ds := leadingDigits(x)
	dot := s + ds
	if ds == 0 || ds == 8 || e-dot != 9 || line[dot] != '.' {
		return false, false
	}
	sec := digitsValue(x, ds)
	y := binary.LittleEndian.Uint64(line[dot+1 : dot+9])
	if leadingDigits(y) != 8 || line[e]-'0' > 9 {
		return false, false
	}
	ns := eightDigits(y-0x3030303030303030)*10 + uint64(line[e]-'0')
	lay.s3, lay.dot, lay.e3 = s, dot, e
	// PID.
	s, e = bits.TrailingZeros64(starts), bits.TrailingZeros64(ends)
	lay.s4, lay.e4 = s, e
	starts, ends = starts&(starts-1), ends&(ends-1)
	if n := e - s + 1; n > 8 || leadingDigits(binary.LittleEndian.Uint64(line[s:s+8])) < n {
		if _, ok := fieldUint(line, s, e); !ok {
			return false, false
		}
	}
	// ACTION.
	s, e = bits.TrailingZeros64(starts), bits.TrailingZeros64(ends)
	starts, ends = starts&(starts-1), ends&(ends-1)
	lay.a = s
	if s != e {
		return false, false
	}
	k, letter := actionKind(line[s])
	switch {
	case !letter:
		return false, false
	case k == 0:
		out.kind = 0
		return true, true
	}
	// RWBS SECTOR: the sector, when it is one, is the ID.
	var id uint64
	switch {
	case bits.OnesCount64(starts) >= 2:
		starts, ends = starts&(starts-1), ends&(ends-1)
		s, e = bits.TrailingZeros64(starts), bits.TrailingZeros64(ends)
		x = binary.LittleEndian.Uint64(line[s : s+8])
		n := e - s + 1
		v, ok := digitsValue(x, n), n <= 8 && leadingDigits(x) >= n
		if !ok && n > 8 {
			if e-s >= 16 {
				return false, false // maybe a number fieldUint does not read
			}
			v, ok = fieldUint(line, s, e)
		}
		if ok {
			id = v + 1
		}
	case n > wide:
		return false, false // the sector may lie past the bytes looked at
	}
	*out = blkLine{t: int64(sec*1e9 + ns), seq: seq, id: id, maj: maj, min: min, devStart: devStart, devEnd: devEnd, kind: k}
	return true, true
}

// blankBits returns a bit for each of the eight bytes of x (little
// endian: the first byte in bit 0), set when the byte is a space or a tab.
func blankBits(x uint64) uint64 {
	const low7, high = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	sp, tab := x^0x2020202020202020, x^0x0909090909090909
	// The high bit of each byte of zero is set when the byte of sp (tab)
	// is 0: exactly, since no carry crosses bytes.
	zero := (^((sp&low7 + low7) | sp) | ^((tab&low7 + low7) | tab)) & high
	// Gather the eight high bits in the top byte, then bring it down.
	return (zero >> 7) * 0x0102040810204080 >> 56
}

// load8 returns the eight bytes of b from i on (past its length, within
// its capacity), little endian.
func load8(b []byte, i int) (uint64, bool) {
	if i+8 > cap(b) {
		return 0, false
	}
	return binary.LittleEndian.Uint64(b[i : i+8]), true
}

// digitsValue returns the number the first n (1 to 8) bytes of x, digits,
// write.
func digitsValue(x uint64, n int) uint64 {
	return eightDigits((x - 0x3030303030303030) << uint(64-8*n)) // n > 8: 0, no panic
}

// pow10 are the powers of ten fieldUint needs (up to 10^8), and more: 16
// of them, so that an index masked by 15 needs no bounds check.
var pow10 = [16]uint64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// fieldUint reads b[s:e+1] as a decimal number of 1 to 16 digits; false
// for anything else (or too little capacity to read it eight bytes at a
// time).
func fieldUint(b []byte, s, e int) (uint64, bool) {
	n := e - s + 1
	x, ok := load8(b, s)
	if !ok || n < 1 || n > 16 {
		return 0, false
	}
	d := leadingDigits(x)
	if n <= 8 {
		return digitsValue(x, n), d >= n
	}
	y, ok := load8(b, s+8)
	if !ok || d < 8 || leadingDigits(y) < n-8 {
		return 0, false
	}
	return eightDigits(x-0x3030303030303030)*pow10[n-8] + digitsValue(y, n-8), true
}
