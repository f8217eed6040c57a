package survey

import (
	"errors"
	"fmt"
)

// ErrMismatch is matched (errors.Is) by the error of Merge for surveys whose
// configurations or options differ: their records do not answer the same
// question.
var ErrMismatch = errors.New("survey: surveys of different configurations or options")

// Merge adds every drive o holds to s, as if each had been added to s
// directly: afterwards s's Summary and StallBudget are exactly those of one
// survey of both fleets. o must have the same configurations (names and
// parameters) and options as s (else an error matching ErrMismatch) and is
// not changed; the drives it holds when Merge starts are merged. Merging a
// survey into itself counts its drives twice.
func (s *Survey) Merge(o *Survey) error {
	if s == nil || o == nil || len(s.configs) < 2 || len(o.configs) < 2 {
		return fmt.Errorf("survey: merge: %w", ErrNotCreated)
	}
	if s.opts != o.opts || len(s.configs) != len(o.configs) {
		return fmt.Errorf("survey: merge: %w: %d configurations %+v, %d configurations %+v", ErrMismatch, len(s.configs), s.opts, len(o.configs), o.opts)
	}
	for i := range s.configs {
		if s.configs[i] != o.configs[i] {
			return fmt.Errorf("survey: merge: %w: configuration %d is %q in one and %q in the other", ErrMismatch, i+1, s.configs[i].Name, o.configs[i].Name)
		}
	}
	src := o.snapshot()
	s.mu.Lock()
	defer s.mu.Unlock()
	dst := &s.st
	// Each of src's profiles is interned in s once (vendors renumbered).
	seen := make(map[uint32]uint32)
	var p profile
	var names nameCursor // in order
	for i := range src.len() {
		sp := src.prof.at(i)
		dp, ok := seen[sp]
		if !ok {
			src.profileOf(sp, &p)
			vendor := src.vendors[p.vendor]
			v, ok := dst.vendorN[vendor]
			if !ok {
				v = uint32(len(dst.vendors))
				dst.vendors = append(dst.vendors, vendor)
				dst.vendorN[vendor] = v
			}
			p.vendor = v
			dp = dst.intern(&p)
			seen[sp] = dp
		}
		dst.names.add(names.at(&src.names, i))
		dst.prof.add(dp)
	}
	return nil
}
