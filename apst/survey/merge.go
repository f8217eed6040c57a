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
	if len(s.configs) < 2 || len(o.configs) < 2 {
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
	for i := range src.len() {
		dst.names.add(src.names.at(i))
		vendor := src.vendors[src.vendor.at(i)]
		v, ok := dst.vendorN[vendor]
		if !ok {
			v = uint32(len(dst.vendors))
			dst.vendors = append(dst.vendors, vendor)
			dst.vendorN[vendor] = v
		}
		dst.vendor.add(v)
		for k := range dst.stall {
			dst.stall[k].add(src.stall[k].at(i))
			dst.power[k].add(src.power[k].at(i))
		}
		for k := range dst.bars {
			dst.bars[k].add(src.bars[k].at(i))
		}
		lo, hi := src.sweep(i)
		for j := lo; j < hi; j++ {
			dst.steps.add(src.steps.at(j))
		}
		dst.sweepEnd.add(uint64(dst.steps.len()))
	}
	return nil
}
