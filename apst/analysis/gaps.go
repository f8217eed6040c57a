package analysis

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
)

// GapKind is the shape of an idle-gap distribution.
type GapKind uint8

// The kinds of distribution. The zero GapKind is none of them, so that a
// zero GapDistribution is refused by Sample rather than taken for fixed
// gaps of 0 µs.
const (
	// GapFixed: every gap is Mean.
	GapFixed GapKind = iota + 1
	// GapUniform: gaps uniform over [Min, Max], both included.
	GapUniform
	// GapExponential: exponentially distributed gaps with mean Mean (a
	// Poisson arrival process), rounded to the nearest microsecond.
	GapExponential
)

// GapDistribution describes idle gaps to sample. Its zero value is not a
// distribution: Sample refuses it (build one with ParseGapDistribution or
// set Kind).
type GapDistribution struct {
	// Kind is the shape.
	Kind GapKind
	// Min and Max bound a GapUniform distribution.
	Min, Max apst.Microseconds
	// Mean is the value of a GapFixed distribution and the mean of a
	// GapExponential one.
	Mean apst.Microseconds
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
func (d GapDistribution) Sample(r *rand.Rand, n int) ([]apst.Microseconds, error) {
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
		return nil, fmt.Errorf("%w: unknown distribution kind %d (a zero GapDistribution: build one with ParseGapDistribution)", ErrInvalidGaps, d.Kind)
	}
	out := make([]apst.Microseconds, n)
	for i := range out {
		switch d.Kind {
		case GapFixed:
			out[i] = d.Mean
		case GapUniform:
			span := uint64(d.Max - d.Min)
			if span == math.MaxUint64 {
				out[i] = apst.Microseconds(r.Uint64())
			} else {
				out[i] = d.Min + apst.Microseconds(r.Uint64N(span+1))
			}
		case GapExponential:
			v := math.Round(r.ExpFloat64() * float64(d.Mean))
			if v >= 1<<64 {
				out[i] = apst.NoLimit
			} else {
				out[i] = apst.Microseconds(v)
			}
		}
	}
	return out, nil
}

// ParseGapDistribution parses "fixed:D", "uniform:D1..D2" or "exp:D"
// ("exponential:D" too), each D a duration with its unit as
// ParseGapDuration reads it, e.g. "exp:500ms" or "uniform:10ms..5s".
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
		v, err := ParseGapDuration(arg)
		if err != nil {
			return bad(err)
		}
		return GapDistribution{Kind: GapFixed, Mean: v}, nil
	case "uniform":
		a, b, ok := strings.Cut(arg, "..")
		if !ok {
			return bad(nil)
		}
		lo, err := ParseGapDuration(a)
		if err != nil {
			return bad(err)
		}
		hi, err := ParseGapDuration(b)
		if err != nil {
			return bad(err)
		}
		if lo > hi {
			return bad(errors.New("minimum above maximum"))
		}
		return GapDistribution{Kind: GapUniform, Min: lo, Max: hi}, nil
	case "exp", "exponential":
		v, err := ParseGapDuration(arg)
		if err != nil {
			return bad(err)
		}
		return GapDistribution{Kind: GapExponential, Mean: v}, nil
	}
	return bad(nil)
}

// ParseGapDuration reads an idle gap: a duration with its unit (150us,
// 25ms, 4.6ms, 2s), as apst.ParseMicroseconds reads it, or 0. A bare number
// other than 0 is refused (ErrInvalidGaps): bounds are written in µs, gaps
// in milliseconds and seconds, and "exp:10" meaning 10 µs is never what a
// user who meant 10 s asked for. Every error wraps ErrInvalidGaps (and
// apst's, for a duration it could not read).
func ParseGapDuration(s string) (apst.Microseconds, error) {
	t := strings.TrimSpace(s)
	if _, err := strconv.ParseUint(t, 10, 64); err == nil && strings.Trim(t, "0") != "" {
		return 0, fmt.Errorf("%w: %q has no unit: write %sus, %sms or %ss", ErrInvalidGaps, t, t, t, t)
	}
	v, err := apst.ParseMicroseconds(t)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrInvalidGaps, err)
	}
	return v, nil
}

// formatMicros formats a duration compactly: "2s", "100ms" or "4600us".
func formatMicros(us apst.Microseconds) string {
	switch {
	case us == apst.NoLimit:
		return "unlimited"
	case us != 0 && us%1000000 == 0:
		return strconv.FormatUint(uint64(us/1000000), 10) + "s"
	case us != 0 && us%1000 == 0:
		return strconv.FormatUint(uint64(us/1000), 10) + "ms"
	}
	return strconv.FormatUint(uint64(us), 10) + "us"
}
