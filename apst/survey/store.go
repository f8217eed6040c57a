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
