package analysis_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/apsttest"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// TestRecommendPC401BarPS4 is the case from the field: a host configuration
// chose 5500 us for the SK hynix PC401 believing it bars ps4 (ENLAT+EXLAT
// 1000+5000). The kernel gates on the exit latency alone.
func TestRecommendPC401BarPS4(t *testing.T) {
	c := loadAnalysisFixture(t, fixturePC401)
	require.EqualValues(t, 1000, c.PowerStates[3].ExitLatency)
	require.EqualValues(t, 5000, c.PowerStates[4].ExitLatency)
	for _, g := range []apst.Generation{apst.Current, apst.V4_12} {
		p := apst.DefaultParams(g)
		p.Bound = 5500
		rec, err := analysis.Recommend(c, p, analysis.BarGoal(4))
		require.NoError(t, err)
		require.True(t, rec.Possible, g.String())
		require.Equal(t, []analysis.BoundRange{{Min: 1000, Max: 4999}}, rec.Recommended, g.String())
		require.Equal(t, []analysis.BoundRange{{Min: 0, Max: 4999}}, rec.Acceptable, g.String())
		require.Equal(t, apst.States(1<<3), rec.Kept)
		require.Equal(t, apst.States(1<<4), rec.GivenUp)
		require.EqualValues(t, 3, rec.Reach.Deepest)
		require.EqualValues(t, 1000, rec.Reach.WorstExitLatency)

		require.False(t, rec.Current.Meets, "5500 keeps ps4")
		require.EqualValues(t, 5500, rec.Current.Bound)
		require.NotZero(t, rec.Current.Reach.States&(1<<4))
		why := strings.Join(rec.Current.Why, "\n")
		require.Contains(t, why, "ps4 is reachable at bound 5500us: its exit latency 5000us is within the bound")
		require.Contains(t, why, "ENLAT+EXLAT is 6000us")
	}

	// v4.11 gated on ENLAT+EXLAT: there 5500 did bar ps4 (total 6000).
	p := apst.DefaultParams(apst.V4_11)
	p.Bound = 5500
	rec, err := analysis.Recommend(c, p, analysis.BarGoal(4))
	require.NoError(t, err)
	require.True(t, rec.Current.Meets)
	require.Equal(t, []analysis.BoundRange{{Min: 2000, Max: 5999}}, rec.Recommended)
}

func TestRecommend990Stall25ms(t *testing.T) {
	c := loadAnalysisFixture(t, fixture990)
	rec, err := analysis.Recommend(c, apst.DefaultParams(apst.Current), analysis.StallGoal(25000))
	require.NoError(t, err)
	require.True(t, rec.Possible)
	require.Equal(t, []analysis.BoundRange{{Min: 0, Max: 42999}}, rec.Acceptable)
	require.Equal(t, []analysis.BoundRange{{Min: 4600, Max: 42999}}, rec.Recommended)
	require.Equal(t, apst.States(1<<3), rec.Kept)
	require.Equal(t, apst.States(1<<4), rec.GivenUp)
	require.False(t, rec.Current.Meets, "the default 100000 reaches ps4 (43000us)")
	require.Contains(t, strings.Join(rec.Current.Why, "\n"), "ps4 is reachable at bound 100000us and its exit latency 43000us exceeds the exit-latency limit 25000us")

	// A stall of 50 ms accepts everything.
	rec, err = analysis.Recommend(c, apst.DefaultParams(apst.Current), analysis.StallGoal(50000))
	require.NoError(t, err)
	require.Equal(t, []analysis.BoundRange{{Min: 43000, Max: apst.NoLimit}}, rec.Recommended)
	require.Zero(t, rec.GivenUp)
	require.True(t, rec.Current.Meets)

	// 1 ms is below every non-operational state's exit latency.
	rec, err = analysis.Recommend(c, apst.DefaultParams(apst.Current), analysis.StallGoal(1000))
	require.NoError(t, err)
	require.False(t, rec.Possible)
	require.Empty(t, rec.Recommended)
	require.Equal(t, []analysis.BoundRange{{Min: 0, Max: 4599}}, rec.Acceptable)
	require.Contains(t, strings.Join(rec.Why, "\n"), "at least 4600us (ps3), above the exit-latency limit 1000us")

	// Both at once: bar ps3 and stall 50 ms cannot keep anything here, since
	// a bound that admits ps4 also admits ps3 (4600 < 43000).
	rec, err = analysis.Recommend(c, apst.DefaultParams(apst.Current), analysis.Goal{MaxStall: 50000, Bar: 1 << 3})
	require.NoError(t, err)
	require.False(t, rec.Possible)
	require.Contains(t, strings.Join(rec.Why, "\n"), "no non-operational state is shallower than ps3")
}

func TestRecommendNoRangeWhenShallowerExitIsLarger(t *testing.T) {
	// ps3 has the larger exit latency: any bound that admits ps3 admits ps4.
	c := &powerstate.Controller{NPSS: 4, APSTA: 1}
	c.PowerStates[3] = powerstate.Descriptor{NonOperational: true, EntryLatency: 1000, ExitLatency: 5000}
	c.PowerStates[4] = powerstate.Descriptor{NonOperational: true, EntryLatency: 1000, ExitLatency: 1000}
	for _, g := range []apst.Generation{apst.Current, apst.V4_12} {
		rec, err := analysis.Recommend(c, apst.DefaultParams(g), analysis.BarGoal(4))
		require.NoError(t, err)
		require.False(t, rec.Possible, g.String())
		require.Empty(t, rec.Recommended)
		why := strings.Join(rec.Why, "\n")
		require.Contains(t, why, "ps4's exit latency is 1000us", g.String())
		require.Contains(t, why, "ps3 (5000us)", g.String())
	}
}

func TestRecommendIntel600pNeverReachesPS4(t *testing.T) {
	c := loadAnalysisFixture(t, fixture600p)
	p := apst.DefaultParams(apst.Current)
	p.Quirks = intel600pQuirks(c)
	rec, err := analysis.Recommend(c, p, analysis.BarGoal(4))
	require.NoError(t, err)
	require.True(t, rec.Possible)
	require.True(t, rec.Current.Meets)
	require.Equal(t, []analysis.BoundRange{{Min: 300, Max: apst.NoLimit}}, rec.Recommended)
	require.Contains(t, strings.Join(rec.Why, "\n"), "ps4 is not reached at any bound under these parameters (no-deepest-ps")
}

func TestRecommendBarPS0(t *testing.T) {
	c := loadAnalysisFixture(t, fixture990)
	rec, err := analysis.Recommend(c, apst.DefaultParams(apst.Current), analysis.BarGoal(0))
	require.NoError(t, err)
	require.False(t, rec.Possible)
	require.Empty(t, rec.Acceptable)
	require.Contains(t, rec.Why, "ps0 is where every idle period starts: no bound bars it")
}

func TestGoalAndRangeStrings(t *testing.T) {
	require.Equal(t, "bar ps4", analysis.BarGoal(4).String())
	require.Equal(t, "bar ps4", analysis.BarGoal(4, 36, 255).String(), "states above 31 are no states: ignored, not taken modulo 32")
	require.Equal(t, "exit latency <= 25000us", analysis.StallGoal(25000).String())
	require.Equal(t, "exit latency <= 25000us, bar ps3,ps4", analysis.Goal{MaxStall: 25000, Bar: 1<<3 | 1<<4}.String())
	require.Equal(t, "any bound", analysis.StallGoal(apst.NoLimit).String())
	require.Equal(t, "1000..4999", analysis.BoundRange{Min: 1000, Max: 4999}.String())
	require.Equal(t, "43000..unlimited", analysis.BoundRange{Min: 43000, Max: apst.NoLimit}.String())
	require.Equal(t, "none", apst.States(0).String())
	require.Equal(t, "ps0,ps3,ps31", apst.States(1|1<<3|1<<31).String())
	require.True(t, analysis.BoundRange{Min: 1, Max: 2}.Contains(2))
}

// TestRecommendProperties: every recommended bound meets the goal and reaches
// the recommended state; every acceptable bound meets the goal; every bound
// outside the acceptable ranges misses it.
func TestRecommendProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cc := apsttest.Controller().Draw(t, "controller")
		c := &cc
		p := apsttest.ParamsFor(c).Draw(t, "params")
		g := analysis.StallGoal(apst.Microseconds(rapid.SampledFrom([]uint64{0, 1000, 4600, 25000, 100000, uint64(apst.NoLimit)}).Draw(t, "stall")))
		g.Bar = apst.States(rapid.Uint32().Draw(t, "bar") & rapid.SampledFrom([]uint32{0, 1 << 3, 1 << 4, 0x18, 0xffffffff}).Draw(t, "mask"))
		rec, err := analysis.Recommend(c, p, g)
		if err != nil {
			t.Fatal(err)
		}
		meets := func(b apst.Microseconds) (bool, analysis.Reach) {
			q := p
			q.Bound = b
			plan, err := apst.Build(c, q)
			if err != nil {
				t.Fatal(err)
			}
			r := analysis.Reachability(c, &plan.Table)
			return r.WorstExitLatency <= g.MaxStall && r.States&g.Bar == 0, r
		}
		in := func(rs []analysis.BoundRange, b apst.Microseconds) bool {
			for _, r := range rs {
				if r.Contains(b) {
					return true
				}
			}
			return false
		}
		if rec.Possible != (len(rec.Recommended) > 0) {
			t.Fatalf("Possible %v with %d recommended ranges", rec.Possible, len(rec.Recommended))
		}
		for _, r := range rec.Recommended {
			for _, b := range []apst.Microseconds{r.Min, r.Max} {
				ok, reach := meets(b)
				if !ok || reach.Deepest != rec.Reach.Deepest || !in(rec.Acceptable, b) {
					t.Fatalf("recommended bound %d does not meet %s", b, g)
				}
			}
		}
		for _, iv := range rec.Sweep.Intervals {
			ok, _ := meets(iv.Min)
			if ok != in(rec.Acceptable, iv.Min) || ok != in(rec.Acceptable, iv.Max) {
				t.Fatalf("bound %d: meets %v, acceptable %v", iv.Min, ok, !ok)
			}
		}
		if ok, _ := meets(p.Bound); ok != rec.Current.Meets {
			t.Fatalf("current bound %d: meets %v, reported %v", p.Bound, ok, rec.Current.Meets)
		}
	})
}

// TestRecommendZeroGoal: the zero Goal (and a literal that leaves MaxStall
// out) is rejected instead of read as a 0 µs stall limit; StallGoal(0) is
// that limit on purpose.
func TestRecommendZeroGoal(t *testing.T) {
	c := loadAnalysisFixture(t, fixture990)
	p := apst.DefaultParams(apst.Current)
	for _, g := range []analysis.Goal{{}, {Bar: apst.StatesOf(4)}} {
		_, err := analysis.Recommend(c, p, g)
		require.ErrorIs(t, err, analysis.ErrZeroGoal)
		require.ErrorContains(t, err, "StallGoal or analysis.BarGoal")
	}
	rec, err := analysis.Recommend(c, p, analysis.StallGoal(0))
	require.NoError(t, err)
	require.False(t, rec.Possible, "no state of the 990 EVO Plus exits in 0us")
	rec, err = analysis.Recommend(c, p, analysis.Goal{MaxStall: 25000})
	require.NoError(t, err, "a literal with a stall limit is unambiguous")
	require.True(t, rec.Possible)
	rec, err = analysis.Recommend(c, p, analysis.BarGoal())
	require.NoError(t, err)
	require.Equal(t, "any bound", rec.Goal.String())
	require.EqualValues(t, 4, rec.Reach.Deepest)
}
