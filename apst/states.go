package apst

import (
	"fmt"
	"iter"
	"math/bits"
	"strconv"
	"strings"
)

// States is a set of power states 0..31, bit s standing for state s (psS):
// the states a table reaches, a plan selects or a goal bars.
//
// The zero value is the empty set.
type States uint32

// StatesOf returns the set of the given states; states above 31 are ignored.
func StatesOf(states ...uint8) States {
	var set States
	for _, s := range states {
		if s < Entries {
			set |= 1 << s
		}
	}
	return set
}

// Has reports whether state s is in the set.
func (set States) Has(s uint8) bool { return s < Entries && set&(1<<s) != 0 }

// Len returns the number of states in the set.
func (set States) Len() int { return bits.OnesCount32(uint32(set)) }

// Deepest returns the highest-numbered state in the set, -1 for the empty set.
func (set States) Deepest() int { return 31 - bits.LeadingZeros32(uint32(set)) }

// All yields the states of the set in increasing order.
func (set States) All() iter.Seq[uint8] {
	return func(yield func(uint8) bool) {
		for rest := uint32(set); rest != 0; rest &= rest - 1 {
			if !yield(uint8(bits.TrailingZeros32(rest))) {
				return
			}
		}
	}
}

// String formats the set as "ps0,ps3,ps4", or "none" for the empty set.
func (set States) String() string {
	if set == 0 {
		return "none"
	}
	var b strings.Builder
	for s := range set.All() {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString("ps")
		b.WriteString(strconv.Itoa(int(s)))
	}
	return b.String()
}

// MarshalText formats the set as String does.
func (set States) MarshalText() ([]byte, error) { return []byte(set.String()), nil }

// UnmarshalText parses what MarshalText writes: "none", or a comma list of
// states written "ps3" or "3".
func (set *States) UnmarshalText(b []byte) error {
	s := strings.TrimSpace(string(b))
	var out States
	if s != "none" && s != "" {
		for _, f := range strings.Split(s, ",") {
			f = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(f)), "ps")
			n, err := strconv.ParseUint(f, 10, 8)
			if err != nil || n >= Entries {
				return fmt.Errorf("%w: power state list %q: want none or a comma list of ps0..ps31", ErrInvalidConfig, s)
			}
			out |= 1 << n
		}
	}
	*set = out
	return nil
}
