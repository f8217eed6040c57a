package persist_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/persist"
)

func rng(lo, hi apst.Microseconds) analysis.BoundRange { return analysis.BoundRange{Min: lo, Max: hi} }

func TestChoose(t *testing.T) {
	for _, tc := range []struct {
		name           string
		ranges         []analysis.BoundRange
		current, limit apst.Microseconds
		want           apst.Microseconds
		rule           persist.ChoiceRule
	}{
		{"990 EVO Plus, 25 ms goal: the limit", []analysis.BoundRange{rng(4600, 42999)}, 100000, 25000, 25000, persist.RuleGoal},
		{"limit not round: roundest below it", []analysis.BoundRange{rng(4600, 42999)}, 100000, 4935, 4900, persist.RuleRoundest},
		{"limit above the range: roundest", []analysis.BoundRange{rng(4600, 42999)}, 100000, 50000, 40000, persist.RuleRoundest},
		{"bar goal: largest roundest", []analysis.BoundRange{rng(1000, 4999)}, 5500, apst.NoLimit, 4000, persist.RuleRoundest},
		{"current in range", []analysis.BoundRange{rng(43000, apst.NoLimit)}, 100000, apst.NoLimit, 100000, persist.RuleCurrent},
		{"open range: smallest roundest", []analysis.BoundRange{rng(43000, apst.NoLimit)}, 25000, apst.NoLimit, 50000, persist.RuleRoundest},
		{"open range near a power of ten", []analysis.BoundRange{rng(95000, apst.NoLimit)}, 0, apst.NoLimit, 100000, persist.RuleRoundest},
		{"narrow range", []analysis.BoundRange{rng(4601, 4699)}, 0, apst.NoLimit, 4690, persist.RuleRoundest},
		{"one value", []analysis.BoundRange{rng(4637, 4637)}, 0, apst.NoLimit, 4637, persist.RuleRoundest},
		{"above the attribute's range", []analysis.BoundRange{rng(3_000_000_000, apst.NoLimit)}, 0, apst.NoLimit, apst.NoLimit, persist.RuleRoundest},
		{"second range holds the limit", []analysis.BoundRange{rng(10, 99), rng(200, 30000)}, 0, 25000, 25000, persist.RuleGoal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ch, err := persist.Choose(tc.ranges, tc.current, tc.limit)
			require.NoError(t, err)
			assert.Equal(t, tc.want, ch.Bound, ch.Why)
			assert.Equal(t, tc.rule, ch.Rule)
			assert.True(t, ch.Range.Contains(ch.Bound))
			assert.NotEmpty(t, ch.Why)
		})
	}
}

func TestChooseErrors(t *testing.T) {
	_, err := persist.Choose(nil, 100000, apst.NoLimit)
	require.ErrorIs(t, err, persist.ErrNoRange)
	_, err = persist.Choose([]analysis.BoundRange{rng(5, 4)}, 0, apst.NoLimit)
	require.ErrorContains(t, err, "minimum is above its maximum")
	_, err = persist.Choose([]analysis.BoundRange{rng(3_000_000_000, 4_000_000_000)}, 0, apst.NoLimit)
	require.ErrorContains(t, err, "largest value")
}

// Choose always returns a bound inside one of the ranges, writable to the
// attribute, and no value of the range is rounder when RuleRoundest chose it.
func TestChooseInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lo := apst.Microseconds(rapid.Uint64Range(1, 3_000_000_000).Draw(t, "lo"))
		open := rapid.Bool().Draw(t, "open")
		hi := apst.NoLimit
		if !open {
			hi = lo + apst.Microseconds(rapid.Uint64Range(0, 1_000_000).Draw(t, "width"))
		}
		cur := apst.Microseconds(rapid.Uint64Range(0, 200000).Draw(t, "current"))
		limit := apst.Microseconds(rapid.Uint64Range(0, 200000).Draw(t, "limit"))
		if rapid.Bool().Draw(t, "nolimit") {
			limit = apst.NoLimit
		}
		r := rng(lo, hi)
		ch, err := persist.Choose([]analysis.BoundRange{r}, cur, limit)
		if lo > persist.MaxValue && !open {
			if err == nil {
				t.Fatalf("range %s above the attribute's range accepted", r)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if !r.Contains(ch.Bound) {
			t.Fatalf("%d outside %s (%s)", ch.Bound, r, ch.Why)
		}
		if ch.Bound > persist.MaxValue && ch.Bound != apst.NoLimit {
			t.Fatalf("%d cannot be written", ch.Bound)
		}
		if r.Contains(cur) && (ch.Rule != persist.RuleCurrent || ch.Bound != cur) {
			t.Fatalf("current %d in %s not kept: %d", cur, r, ch.Bound)
		}
		if ch.Rule == persist.RuleRoundest && limit != apst.NoLimit && r.Contains(limit) && ch.Bound > limit {
			t.Fatalf("%d above the limit %d", ch.Bound, limit)
		}
	})
}
