package survey

import "slices"

// What a Survey keeps per drive is stored in columns of fixed-size chunks:
// appending never copies what is already stored (no doubling slice whose
// old and new arrays are both live while it grows), and the waste is at most
// one partly filled chunk per column.
//
// Concurrency: a writer (under the Survey's lock) only writes values past
// the column's length and appends chunk pointers past the chunk list's
// length; a snapshot copies the lengths and the chunk lists' headers under
// the lock, and readers of the snapshot read only below those lengths. No
// memory a reader reads is ever written again, so readers need no lock.

// chunkLen is the number of values in one chunk of a column.
const chunkLen = 4096

// column is an append-only sequence of values in chunks of chunkLen.
type column[T any] struct {
	chunks []*[chunkLen]T
	n      int
}

func (c *column[T]) add(v T) {
	if c.n%chunkLen == 0 {
		c.chunks = append(c.chunks, new([chunkLen]T))
	}
	c.chunks[c.n/chunkLen][c.n%chunkLen] = v
	c.n++
}

func (c *column[T]) at(i int) T { return c.chunks[i/chunkLen][i%chunkLen] }

func (c *column[T]) len() int { return c.n }

// arenaChunk is the size of one chunk of an arena.
const arenaChunk = 64 << 10

// arena holds strings back to back in chunks of arenaChunk bytes; string i
// is the bytes from end(i-1) to end(i), which may span chunks.
type arena struct {
	chunks []*[arenaChunk]byte
	ends   column[uint64]
	size   uint64
}

func (a *arena) add(s string) {
	for len(s) > 0 {
		off := int(a.size % arenaChunk)
		if off == 0 && a.size/arenaChunk == uint64(len(a.chunks)) {
			a.chunks = append(a.chunks, new([arenaChunk]byte))
		}
		n := copy(a.chunks[a.size/arenaChunk][off:], s)
		s = s[n:]
		a.size += uint64(n)
	}
	a.ends.add(a.size)
}

// at returns string i (a new string).
func (a *arena) at(i int) string {
	var start uint64
	if i > 0 {
		start = a.ends.at(i - 1)
	}
	end := a.ends.at(i)
	if start == end {
		return ""
	}
	c, off := start/arenaChunk, start%arenaChunk
	if off+(end-start) <= arenaChunk {
		return string(a.chunks[c][off : off+end-start])
	}
	b := make([]byte, 0, end-start)
	for p := start; p < end; {
		c, off := p/arenaChunk, p%arenaChunk
		n := min(end-p, arenaChunk-off)
		b = append(b, a.chunks[c][off:off+n]...)
		p += n
	}
	return string(b)
}

// snapshot returns a copy of the survey's store that the survey's later
// additions do not change: values below a column's length are never
// rewritten, so copying the headers under the lock is enough.
func (s *Survey) snapshot() *store {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.st
	st.stall = slices.Clone(st.stall)
	st.power = slices.Clone(st.power)
	st.bars = slices.Clone(st.bars)
	st.vendors = slices.Clip(st.vendors)
	st.vendorN, st.profN, st.key, st.p, st.scratch = nil, nil, nil, profile{}, nil // not for readers
	return &st
}
