package apst

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// GapKind is the shape of an idle-gap distribution.
type GapKind uint8

const (
	// GapFixed: every gap is Mean.
	GapFixed GapKind = iota
	// GapUniform: gaps uniform over [Min, Max], both included.
	GapUniform
	// GapExponential: exponentially distributed gaps with mean Mean (a
	// Poisson arrival process), rounded to the nearest microsecond.
	GapExponential
)

// GapDistribution describes idle gaps to sample.
type GapDistribution struct {
	// Kind is the shape.
	Kind GapKind
	// Min and Max bound a GapUniform distribution.
	Min, Max Microseconds
	// Mean is the value of a GapFixed distribution and the mean of a
	// GapExponential one.
	Mean Microseconds
}

// String formats the distribution as ParseGapDistribution reads it, e.g.
// "exp:500ms".
func (d GapDistribution) String() string {
	switch d.Kind {
	case GapFixed:
		return "fixed:" + formatMicros(d.Mean)
	case GapUniform:
		return "uniform:" + formatMicros(d.Min) + ".." + formatMicros(d.Max)
	case GapExponential:
		return "exp:" + formatMicros(d.Mean)
	}
	return "GapKind(" + strconv.Itoa(int(d.Kind)) + ")"
}

// Sample draws n gaps from the distribution with r, which the caller seeds
// (rand.New(rand.NewPCG(seed1, seed2))): the same seed gives the same gaps.
// It errors (ErrInvalidGaps) for an unknown kind, Min above Max or a
// negative n.
func (d GapDistribution) Sample(r *rand.Rand, n int) ([]Microseconds, error) {
	if n < 0 || r == nil {
		return nil, fmt.Errorf("%w: need a source and a non-negative count", ErrInvalidGaps)
	}
	switch d.Kind {
	case GapFixed, GapExponential:
	case GapUniform:
		if d.Min > d.Max {
			return nil, fmt.Errorf("%w: uniform minimum %s above maximum %s", ErrInvalidGaps, formatMicros(d.Min), formatMicros(d.Max))
		}
	default:
		return nil, fmt.Errorf("%w: unknown distribution kind %d", ErrInvalidGaps, d.Kind)
	}
	out := make([]Microseconds, n)
	for i := range out {
		switch d.Kind {
		case GapFixed:
			out[i] = d.Mean
		case GapUniform:
			span := uint64(d.Max - d.Min)
			if span == math.MaxUint64 {
				out[i] = Microseconds(r.Uint64())
			} else {
				out[i] = d.Min + Microseconds(r.Uint64N(span+1))
			}
		case GapExponential:
			v := math.Round(r.ExpFloat64() * float64(d.Mean))
			if v >= 1<<64 {
				out[i] = NoLimit
			} else {
				out[i] = Microseconds(v)
			}
		}
	}
	return out, nil
}

// ParseGapDistribution parses "fixed:D", "uniform:D1..D2" or "exp:D"
// ("exponential:D" too), each D as ParseMicroseconds reads it, e.g.
// "exp:500ms" or "uniform:10ms..5s".
func ParseGapDistribution(s string) (GapDistribution, error) {
	kind, arg, ok := strings.Cut(strings.TrimSpace(s), ":")
	bad := func(err error) (GapDistribution, error) {
		if err != nil {
			return GapDistribution{}, fmt.Errorf("%w %q: %w", ErrInvalidGaps, s, err)
		}
		return GapDistribution{}, fmt.Errorf("%w %q: want fixed:D, uniform:D1..D2 or exp:D (D like 500ms)", ErrInvalidGaps, s)
	}
	if !ok {
		return bad(nil)
	}
	switch strings.ToLower(kind) {
	case "fixed":
		v, err := ParseMicroseconds(arg)
		if err != nil {
			return bad(err)
		}
		return GapDistribution{Kind: GapFixed, Mean: v}, nil
	case "uniform":
		a, b, ok := strings.Cut(arg, "..")
		if !ok {
			return bad(nil)
		}
		lo, err := ParseMicroseconds(a)
		if err != nil {
			return bad(err)
		}
		hi, err := ParseMicroseconds(b)
		if err != nil {
			return bad(err)
		}
		if lo > hi {
			return bad(errors.New("minimum above maximum"))
		}
		return GapDistribution{Kind: GapUniform, Min: lo, Max: hi}, nil
	case "exp", "exponential":
		v, err := ParseMicroseconds(arg)
		if err != nil {
			return bad(err)
		}
		return GapDistribution{Kind: GapExponential, Mean: v}, nil
	}
	return bad(nil)
}
