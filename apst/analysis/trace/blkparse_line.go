package trace

import (
	"encoding/binary"
	"math/bits"
)

// lineReach is how far past the start of a line blkParser.line reads: the
// template's 64 bytes, then the search for the line's end, from the blank
// after the action (within the first 64 bytes) over at most 64 more, or
// from the end of a dispatch's or completion's sector to 64 bytes after
// the action, the last load reaching 72.
const lineReach = 2*wide + 8

// reachMask bounds the positions blkParser.line reads eight bytes from: a
// position masked by it is below 2*wide, and the eight bytes from it lie
// within lineReach.
const reachMask = 2*wide - 1

// blkDev is the device of the last event line blkParser.line read: the
// bytes of its text (lo, hi: at most 16 of them, as the template's masks
// cut them), with its blkRec.dev and whether it is the selected device.
type blkDev struct {
	lo, hi uint64
	dev    uint64
	sel    bool
	ok     bool
}

// lines reads the lines from block[i:] on as parse would read them, while
// each has the layout of one of sc's templates (ok, with a sector position) and
// block has the capacity to read lineReach bytes from its start: it
// appends a record for each dispatch and completion to recs, and returns
// the index of the first line it does not read (len(block) or more when
// it read them all), recs and the number of the last line read (line
// counts those before i). parse reads the line it stops at (a line of
// another layout or too long, an event whose sector is not a number of 1
// to 15 digits, a line without its '\n' in block...). It finds a line's
// end from the bytes the template leaves, not from the start of the line
// (for an event, from the end of its sector, having checked that its RWBS
// holds no '\n'), and compares the device's bytes with the last event's instead of
// reading its numbers; one loop, without a call a line.
func (p *blkParser) lines(block []byte, i int, sc *blkScanner, d *blkDev, recs []blkRec, line uint32) (int, []blkRec, uint32) {
	var next int
	t := &sc.tmpls[sc.cur]
read:
	for ; i < len(block) && i <= cap(block)-lineReach; i = next {
		if len(recs) == cap(recs) {
			recs = append(recs, blkRec{})[:len(recs)]
		}
		rec := &recs[:len(recs)+1][len(recs)]
		w := (*[lineReach]byte)(block[i : i+lineReach])
		tw := (*[wide + 16]byte)(w[:wide+16])
		// Every position of the layout lies within the template's 64
		// bytes (the sector within the 16 after them): masked, each
		// load is in bounds without a check.
		a := t.lay.a & (wide - 1)
		k, letter := actionKind(w[a])
		if !letter || t.bad(tw) != 0 {
			// Another of the layouts the scanner keeps, or none.
			if t = sc.other(tw); t == nil {
				break read
			}
			a = t.lay.a & (wide - 1)
			k, _ = actionKind(w[a])
		}
		l := &t.lay
		if k == 0 {
			// Another action: the line's end, its first '\n' (none lies
			// before the blank after the action: the template matched
			// blanks, digits and a letter).
			e := lineEnd(w, a+1, a+1+wide-8)
			if e == 0 || i+e >= len(block) {
				break read // a long line, or bytes past the block's
			}
			if n := e; n > p.max && (w[(e-1)&reachMask] != '\r' || n-1 > p.max) {
				break read // longer than accepted, without its '\r'
			}
			next = i + e + 1
			line++
			continue
		}
		// RWBS and SECTOR, as match reads them; neither holds a '\n', so
		// that the line's end is the first '\n' after the sector.
		ss := t.sector
		if ss == 0 {
			break read
		}
		at := a + 1
		width := ss - at // 2 to 15
		x0 := load(w, at)
		bl := blankBits(x0)
		nl := newlineBits(x0)
		if width > 7 { // the bits up to width's, included
			x1 := load(w, at+8)
			bl |= blankBits(x1) << 8
			nl |= newlineBits(x1) << 8
		}
		rwbs := ^bl & (1<<width - 1)
		if rwbs == 0 || bl>>(width-1)&1 == 0 || bl>>width&1 != 0 || (rwbs+rwbs&-rwbs)&rwbs != 0 || nl&rwbs != 0 {
			break read
		}
		x := load(w, ss)
		var v uint64
		j := ss + leadingDigits(x)
		if j < ss+8 {
			v = digitsValue(x, j-ss)
		} else {
			y := load(w, ss+8)
			dy := leadingDigits(y)
			if dy == 8 {
				break read // 16 digits or more: leadingUint decides
			}
			j += dy
			v = eightDigits(x-0x3030303030303030)*pow10[dy&15] + digitsValue(y, dy)
		}
		// From the sector's end, over the 64 bytes after the action as
		// for another action (a few more: the loads stay within
		// lineReach).
		e := lineEnd(w, j, a+wide)
		n := e // the line's length, without its '\r'
		if e == 0 || i+e >= len(block) {
			break read // a long line, or bytes past the block's
		}
		if w[(e-1)&(reachMask)] == '\r' {
			n--
		}
		if n > p.max || n <= ss {
			break read
		}
		next = i + e + 1
		// j <= n: neither '\r' nor '\n' is a digit.
		var id uint64
		if j > ss && (j == n || w[j&(reachMask)] == ' ' || w[j&(reachMask)] == '\t') {
			id = v + 1
		}
		// The device: its bytes against the last event's.
		s0 := l.s0
		lo := load(w, s0) & t.devLo
		hi := load(w, s0+8) & t.devHi
		if !d.ok || lo != d.lo || hi != d.hi || t.devLong {
			var bl blkLine
			bl.maj = digitsValue(load(w, s0), l.c-l.s0)
			bl.min = digitsValue(load(w, l.c+1), l.e0-l.c)
			d.lo, d.hi, d.ok = lo, hi, true
			d.dev = devKey(&bl, block[i+l.s0:i+l.e0+1])
			d.sel = p.selected && bl.maj == p.selMaj && bl.min == p.selMin
		}
		// Field by field (see blkTemplate.match).
		rec.t = int64(paddedValue(load(w, l.s3), l.dot-l.s3)*1e9 + eightDigits(load(w, l.dot+1)-0x3030303030303030)*10 + uint64(w[l.e3&(wide-1)]-'0'))
		if ns := l.e2 - l.s2 + 1; ns <= 8 {
			rec.seq = paddedValue(load(w, l.s2), ns)
		} else {
			rec.seq = eightDigits(load(w, l.s2)-0x3030303030303030)*pow10[(ns-8)&15] + digitsValue(load(w, l.s2+8), ns-8)
		}
		rec.id = id
		rec.off, rec.n, rec.kind = int32(i+l.s0), int32(l.e0-l.s0+1), uint8(k)
		rec.sel, rec.dev = d.sel, d.dev
		line++
		rec.line = line
		recs = recs[:len(recs)+1]
	}
	return i, recs, line
}

// load returns the eight bytes of w from p on, p below 2*wide (masked by
// reachMask: no bounds check).
func load(w *[lineReach]byte, p int) uint64 {
	p &= reachMask
	return binary.LittleEndian.Uint64(w[p : p+8])
}

// lineEnd returns the index of the first '\n' of w from `from` on, read
// eight bytes at a time from from, from+8... up to a load at last
// included; 0 if none of those holds one.
func lineEnd(w *[lineReach]byte, from, last int) int {
	for at := from; at <= last; at += 8 {
		if m := newlines(load(w, at)); m != 0 {
			return at + bits.TrailingZeros64(m)>>3
		}
	}
	return 0
}

// newlines returns the bytes of x that are '\n' (little endian), as the
// high bit of each: exactly up to the first, a byte after it may be
// marked too.
func newlines(x uint64) uint64 {
	x ^= 0x0a0a0a0a0a0a0a0a
	return (x - 0x0101010101010101) &^ x & 0x8080808080808080
}

// newlineBits is newlines with a bit a byte, as blankBits: bit k for
// byte k.
func newlineBits(x uint64) uint64 {
	return (newlines(x) >> 7) * 0x0102040810204080 >> 56
}
