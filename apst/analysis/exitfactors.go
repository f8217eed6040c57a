package analysis

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
)

// MaxExitFactor is the largest exit-latency factor ParseExitFactors
// accepts (and the smallest is above 0): no drive wakes 10000 times slower
// than it advertises, and the widest exit latency a drive can advertise,
// 2^32-1 µs, scaled by it and summed over millions of wakes stays below
// 2^63-1 µs (replay refuses a sum beyond). It is ten times measure
// --simulate's bound (1000), so that a factor measured on a simulation,
// with its jitter, reads back. A factor of 0 (every wake free) or beyond
// would print figures that answer nothing: 0 stalls, or stalls saturated
// at "unlimited".
const MaxExitFactor = 10000

// ErrFactorRange: an exit-latency factor that reads as one but is 0 or
// above MaxExitFactor. It wraps ErrInvalidFactor.
var ErrFactorRange = fmt.Errorf("%w: out of range", ErrInvalidFactor)

// factorInRange reports whether f is above 0 and at most MaxExitFactor
// (the zero Factor is 1, in range).
func factorInRange(f Factor) bool {
	if f.Den == 0 {
		return true
	}
	hi, lo := bits.Mul64(MaxExitFactor, f.Den)
	return f.Num > 0 && (hi != 0 || f.Num <= lo)
}

// check reports whether every factor of f (the default and those of the
// states in Set) is above 0 and at most MaxExitFactor: an error wrapping
// ErrFactorRange (and ErrInvalidFactor) naming the first that is not.
func (f ExitFactors) check() error {
	if !factorInRange(f.Default) {
		return factorRangeError(f.Default.String())
	}
	for s := range f.Set.All() {
		if !factorInRange(f.ByState[s]) {
			return factorRangeError("ps" + strconv.Itoa(int(s)) + "=" + f.ByState[s].String())
		}
	}
	return nil
}

// factorRangeError is the error of the factor item, out of range.
func factorRangeError(item string) error {
	return fmt.Errorf("%w: %s: want a factor above 0 and at most %d", ErrFactorRange, item, MaxExitFactor)
}

// ExitFactors is a measured/advertised exit-latency factor per power state:
// what a measurement finds when a drive's states exit at different fractions
// of their advertised EXLAT (apstctl measure prints it as
// "0.78,ps3=0.78,ps4=0.81").
//
// The zero value scales nothing: every state uses Default, and the zero
// Factor is 1. A single factor for every state is ExitFactors{Default: f}.
type ExitFactors struct {
	// Default is the factor of every state not in Set.
	Default Factor
	// ByState holds the factor of each state in Set.
	ByState [apst.Entries]Factor
	// Set is the states that have a factor of their own.
	Set apst.States
}

// For returns the factor of state s.
func (f ExitFactors) For(s uint8) Factor {
	if f.Set.Has(s) {
		return f.ByState[s]
	}
	return f.Default
}

// Apply scales the advertised exit latency us of state s, rounding up to a
// whole microsecond as Factor.Apply does.
func (f ExitFactors) Apply(s uint8, us apst.Microseconds) apst.Microseconds {
	fs := f.For(s)
	return fs.Apply(us)
}

// IsOne reports whether every state's factor is 1.
func (f ExitFactors) IsOne() bool {
	if !f.Default.IsOne() {
		return false
	}
	for s := range f.Set.All() {
		if !f.ByState[s].IsOne() {
			return false
		}
	}
	return true
}

// String formats the factors as ParseExitFactors reads them: "0.78" for
// one factor, "0.78,ps3=0.75,ps4=0.81" with the states of their own (the
// default first, left out when it is 1).
func (f ExitFactors) String() string {
	var parts []string
	if !f.Default.IsOne() || f.Set == 0 {
		parts = append(parts, f.Default.String())
	}
	for s := range f.Set.All() {
		parts = append(parts, "ps"+strconv.Itoa(int(s))+"="+f.ByState[s].String())
	}
	return strings.Join(parts, ",")
}

// ParseExitFactors parses a comma list of factors (ParseFactor's forms):
// at most one bare factor, the default, and psN=FACTOR items for states of
// their own ("0.78", "ps3=0.78,ps4=0.81", "0.8,ps4=78%"). Each factor is
// above 0 and at most MaxExitFactor: one that reads but is not is an
// error wrapping ErrFactorRange. Errors wrap ErrInvalidFactor.
func ParseExitFactors(s string) (ExitFactors, error) {
	f, err := parseExitFactors(s)
	if err != nil {
		return ExitFactors{}, err
	}
	if err := f.check(); err != nil {
		return ExitFactors{}, err
	}
	return f, nil
}

// parseExitFactors is ParseExitFactors without the range check.
func parseExitFactors(s string) (ExitFactors, error) {
	var out ExitFactors
	bare := false
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		k, v, ok := strings.Cut(item, "=")
		if !ok {
			if bare {
				return ExitFactors{}, fmt.Errorf("%w %q: more than one factor without a state", ErrInvalidFactor, s)
			}
			f, err := ParseFactor(item)
			if err != nil {
				return ExitFactors{}, err
			}
			out.Default, bare = f, true
			continue
		}
		n, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(strings.TrimSpace(k)), "ps"), 10, 8)
		if err != nil || n >= apst.Entries {
			return ExitFactors{}, fmt.Errorf("%w %q: %q is not a power state ps0..ps31", ErrInvalidFactor, s, k)
		}
		if out.Set.Has(uint8(n)) {
			return ExitFactors{}, fmt.Errorf("%w %q: ps%d given twice", ErrInvalidFactor, s, n)
		}
		f, err := ParseFactor(v)
		if err != nil {
			return ExitFactors{}, err
		}
		out.ByState[n] = f
		out.Set |= 1 << n
	}
	return out, nil
}
