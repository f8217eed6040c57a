package survey

import "slices"

// What a Survey keeps per drive is stored in columns of fixed-size chunks:
// appending never copies what is already stored (no doubling slice whose
// old and new arrays are both live while it grows), and the waste is at most
// one partly filled chunk per column.

// chunkLen is the number of values in one chunk of a column.
const chunkLen = 4096

// column is an append-only sequence of values in chunks of chunkLen.
type column[T any] struct {
	chunks [][]T
	n      int
}

func (c *column[T]) add(v T) {
	if c.n%chunkLen == 0 {
		c.chunks = append(c.chunks, make([]T, 0, chunkLen))
	}
	last := &c.chunks[len(c.chunks)-1]
	*last = append(*last, v)
	c.n++
}

func (c *column[T]) at(i int) T { return c.chunks[i/chunkLen][i%chunkLen] }

func (c *column[T]) len() int { return c.n }

// arenaChunk is the size of one chunk of an arena.
const arenaChunk = 64 << 10

// arena holds strings back to back in chunks of arenaChunk bytes; string i
// is the bytes from end(i-1) to end(i), which may span chunks.
type arena struct {
	chunks [][]byte
	ends   column[uint64]
	size   uint64
}

func (a *arena) add(s string) {
	for len(s) > 0 {
		if len(a.chunks) == 0 || len(a.chunks[len(a.chunks)-1]) == arenaChunk {
			a.chunks = append(a.chunks, make([]byte, 0, arenaChunk))
		}
		last := &a.chunks[len(a.chunks)-1]
		n := min(len(s), arenaChunk-len(*last))
		*last = append(*last, s[:n]...)
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
// additions do not change: the columns' values are never rewritten, so
// copying their headers under the lock is enough.
func (s *Survey) snapshot() *store {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.st
	st.stall = slices.Clone(st.stall)
	st.power = slices.Clone(st.power)
	st.bars = slices.Clone(st.bars)
	st.vendors = slices.Clip(st.vendors)
	st.vendorN, st.scratch = nil, nil // not for readers
	return &st
}
