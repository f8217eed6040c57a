package shard

import (
	"fmt"
	"strconv"
)

// Set holds the surveys and the drives of the shards merged so far,
// so that a survey is never counted twice: the same shard given twice, a
// shard and a merged report that holds it, or two shards that hold the same
// drive. Shards are named by a source the caller chooses (a file name). The
// zero value is an empty set; a Set is not safe for concurrent use.
type Set struct {
	files  map[string]string   // shard identity -> source
	shards []string            // in the order added
	rows   map[[16]byte]string // RowKey -> source
}

// ConflictError is the error of Set.Add: Shard is an identity
// that is not one (Invalid), or that First, an earlier source, holds as
// Second does (First == Second: the same source given twice).
//
// The zero ConflictError reads as the empty source given twice (First ==
// Second).
type ConflictError struct {
	Shard         string
	First, Second string
	Invalid       bool
}

// Error names the sources (quoted) and the identity.
func (e *ConflictError) Error() string {
	switch {
	case e.Invalid:
		return fmt.Sprintf("shard: %s: identity %s: want %q and 32 hexadecimal digits", strconv.Quote(e.Second), strconv.Quote(e.Shard), IDPrefix)
	case e.First == e.Second:
		return fmt.Sprintf("shard: %s given twice: its drives would be counted twice", strconv.Quote(e.Second))
	}
	return fmt.Sprintf("shard: %s and %s both hold the survey %s: its drives would be counted twice", strconv.Quote(e.First), strconv.Quote(e.Second), e.Shard)
}

// Add records the surveys the shard source holds: declared, its summary's
// "shards", or when it declares none the one survey whose identity,
// computed, ID computed from its rows. It returns a
// *ConflictError for an identity that is not one or that an earlier
// source holds; the identities before it are recorded.
func (s *Set) Add(source string, declared []string, computed string) error {
	if len(declared) == 0 {
		declared = []string{computed}
	}
	if s.files == nil {
		s.files = map[string]string{}
	}
	for _, id := range declared {
		if !ValidID(id) {
			return &ConflictError{Shard: id, Second: source, Invalid: true}
		}
		if prev, ok := s.files[id]; ok {
			return &ConflictError{Shard: id, First: prev, Second: source}
		}
		s.files[id] = source
		s.shards = append(s.shards, id)
	}
	return nil
}

// Row records the drive whose canonical row (ID.Row's) the shard
// source holds, and returns the earlier source that holds the same drive
// (the same path and answers), "" when none does. A drive two sources
// hold would be counted twice.
func (s *Set) Row(source string, canonical []byte) (earlier string) {
	if s.rows == nil {
		s.rows = map[[16]byte]string{}
	}
	k := RowKey(canonical)
	prev, ok := s.rows[k]
	if !ok {
		s.rows[k] = source
		return ""
	}
	if prev == source {
		return ""
	}
	return prev
}

// Shards returns the identities of the surveys added, in order; nil before
// the first Add.
func (s *Set) Shards() []string { return s.shards }

// Len reports how many identities were added.
func (s *Set) Len() int { return len(s.shards) }
