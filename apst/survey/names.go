package survey

import "encoding/binary"

// arenaChunk is the size of one chunk of an arena.
const arenaChunk = 64 << 10

// restartEvery is the number of names between two written whole: a name
// is found by decoding at most restartEvery-1 names before it.
const restartEvery = 16

// arena holds a survey's drive names front-coded, in chunks of arenaChunk
// bytes: each name is the length of the prefix it shares with the name
// before it, the length of the rest and the rest (uvarints, then bytes;
// an entry may span chunks), every restartEvery-th name whole (a shared
// length of 0). A fleet's paths, added in the walk's order, share most of
// their bytes with the one before ("rack0001/host0000123" after
// "rack0001/host0000122"), so a name costs a few bytes, not its length.
//
// Concurrency: as the columns (store.go): add writes only past size and
// appends chunk pointers; last is the writer's.
type arena struct {
	chunks   []*[arenaChunk]byte
	restarts column[uint64] // the offset of names 0, restartEvery, 2×restartEvery...
	n        int            // names
	size     uint64         // bytes written
	last     []byte         // the name added last (the writer's)
}

// add appends name s.
func (a *arena) add(s string) {
	shared := 0
	if a.n%restartEvery == 0 {
		a.restarts.add(a.size)
	} else {
		for shared < len(s) && shared < len(a.last) && s[shared] == a.last[shared] {
			shared++
		}
	}
	var head [2 * binary.MaxVarintLen64]byte
	h := binary.AppendUvarint(head[:0], uint64(shared))
	h = binary.AppendUvarint(h, uint64(len(s)-shared))
	write(a, h)
	write(a, s[shared:])
	a.last = append(a.last[:0], s...)
	a.n++
}

// write appends b to a, spanning chunks.
func write[T string | []byte](a *arena, b T) {
	for len(b) > 0 {
		off := int(a.size % arenaChunk)
		if off == 0 && a.size/arenaChunk == uint64(len(a.chunks)) {
			a.chunks = append(a.chunks, new([arenaChunk]byte))
		}
		n := copy(a.chunks[a.size/arenaChunk][off:], b)
		b = b[n:]
		a.size += uint64(n)
	}
}

// at returns name i (a new string). Reading names in order is cheaper
// with a nameCursor.
func (a *arena) at(i int) string {
	var c nameCursor
	return c.at(a, i)
}

// nameCursor reads an arena's names, each from the one it read before when
// they are in order. The zero nameCursor is ready.
type nameCursor struct {
	next int    // the name at off; 0 with off 0 and name empty: not started
	off  uint64 // where name next starts
	name []byte // name next-1
}

// at returns name i of a (a new string).
func (c *nameCursor) at(a *arena, i int) string {
	if c.next > 0 && i == c.next-1 {
		return string(c.name)
	}
	if c.next == 0 || i < c.next || i/restartEvery > c.next/restartEvery {
		// Not started, behind, or in a later block: from i's restart.
		r := i / restartEvery
		c.next, c.off = r*restartEvery, a.restarts.at(r)
	}
	for ; c.next <= i; c.next++ {
		shared := a.uvarint(&c.off)
		n := a.uvarint(&c.off)
		c.name = a.read(c.name[:shared], c.off, n)
		c.off += n
	}
	return string(c.name)
}

// uvarint decodes the uvarint at *off and moves *off past it.
func (a *arena) uvarint(off *uint64) uint64 {
	var v uint64
	for shift := uint(0); ; shift += 7 {
		b := a.chunks[*off/arenaChunk][*off%arenaChunk]
		*off++
		v |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return v
		}
	}
}

// read appends the n bytes at off to dst.
func (a *arena) read(dst []byte, off, n uint64) []byte {
	for end := off + n; off < end; {
		c, o := off/arenaChunk, off%arenaChunk
		k := min(end-off, arenaChunk-o)
		dst = append(dst, a.chunks[c][o:o+k]...)
		off += k
	}
	return dst
}
