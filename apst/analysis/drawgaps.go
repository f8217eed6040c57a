package analysis

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
)

// MaxGapDraws bounds the gaps DrawGaps samples from a distribution, so
// that a typo in a count cannot allocate gigabytes (10 million gaps are
// 80 MB).
const MaxGapDraws = 10_000_000

// ErrNoIdle: every gap DrawGaps read or drew is 0, so there is no idle time
// to summarise (an average idle power over none would answer nothing).
var ErrNoIdle = errors.New("analysis: every gap is 0: no idle time to summarise")

// DrawnGaps are the idle gaps of a gaps argument (DrawGaps): drawn from a
// distribution with a seed, or listed. The zero value holds no gaps, is
// not Listed and has no Source.
type DrawnGaps struct {
	// Gaps are the gaps in order; at least one is above 0.
	Gaps []apst.Microseconds
	// Dist is the distribution they were drawn from; its zero value
	// (Kind 0) when the gaps were listed.
	Dist GapDistribution
	// Seed seeded the PCG source of a drawn list (rand.NewPCG(Seed, 0)).
	Seed uint64
}

// Listed reports whether the gaps were listed rather than drawn.
func (g DrawnGaps) Listed() bool { return g.Dist.Kind == 0 && len(g.Gaps) > 0 }

// Source says where the gaps came from: "exp:10s, seed 1" or "list"; ""
// for no gaps.
func (g DrawnGaps) Source() string {
	switch {
	case len(g.Gaps) == 0:
		return ""
	case g.Listed():
		return "list"
	}
	return g.Dist.String() + ", seed " + strconv.FormatUint(g.Seed, 10)
}

// DrawGaps reads the idle gaps of a gaps argument, the one simulate and
// the page take. The argument is a distribution ("exp:10s",
// "uniform:10ms..5s", "fixed:2s", as ParseGapDistribution reads them)
// sampled count times from a PCG source seeded with seed, or a comma list of durations with their
// units ("10ms,2s,0s", as ParseGapDuration reads them; count and seed are
// then unused). The same spec, count and seed give the same gaps.
//
// Errors: ErrInvalidGaps for a spec that reads as neither, a distribution
// with count outside 1 to MaxGapDraws, or an empty list; ErrNoIdle when
// every gap is 0.
func DrawGaps(spec string, count int, seed uint64) (DrawnGaps, error) {
	spec = strings.TrimSpace(spec)
	var g DrawnGaps
	if strings.Contains(spec, ":") {
		d, err := ParseGapDistribution(spec)
		if err != nil {
			return DrawnGaps{}, err
		}
		if count < 1 || count > MaxGapDraws {
			return DrawnGaps{}, fmt.Errorf("%w: count %d: want 1 to %d", ErrInvalidGaps, count, MaxGapDraws)
		}
		gaps, err := d.Sample(rand.New(rand.NewPCG(seed, 0)), count)
		if err != nil {
			return DrawnGaps{}, err
		}
		g = DrawnGaps{Gaps: gaps, Dist: d, Seed: seed}
	} else {
		if spec == "" {
			return DrawnGaps{}, fmt.Errorf("%w: no gaps: want a distribution (exp:10s) or a list of durations (10ms,2s)", ErrInvalidGaps)
		}
		for _, f := range strings.Split(spec, ",") {
			v, err := ParseGapDuration(f)
			if err != nil {
				return DrawnGaps{}, err
			}
			g.Gaps = append(g.Gaps, v)
		}
	}
	for _, v := range g.Gaps {
		if v > 0 {
			return g, nil
		}
	}
	return DrawnGaps{}, ErrNoIdle
}
