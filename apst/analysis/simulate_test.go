package analysis_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

func plan990(t testing.TB, bound apst.Microseconds) (*powerstate.Controller, apst.Plan) {
	c := loadAnalysisFixture(t, fixture990)
	p := apst.DefaultParams(apst.Current)
	p.Bound = bound
	plan, err := apst.Build(c, p)
	require.NoError(t, err)
	return c, plan
}

func TestIdleTimeline990(t *testing.T) {
	c, plan := plan990(t, apst.Current.DefaultBound())
	tl := analysis.IdleTimeline(c, &plan.Table, 0)
	// ITPT counts idle time in the current state: ps3 after 100 ms, ps4 2000 ms later.
	require.Len(t, tl, 3)
	require.Equal(t, analysis.Step{State: 0, From: 0, ExitLatency: 0, MaxPower: c.PowerStates[0].MaxPower}, tl[0])
	require.Equal(t, analysis.Step{State: 3, From: 100000, ExitLatency: 4600, MaxPower: c.PowerStates[3].MaxPower}, tl[1])
	require.Equal(t, analysis.Step{State: 4, From: 2100000, ExitLatency: 43000, MaxPower: c.PowerStates[4].MaxPower}, tl[2])
	require.Equal(t, apst.States(1<<0|1<<3|1<<4), tl.States())

	for _, tc := range []struct {
		gap   apst.Microseconds
		state uint8
		exit  apst.Microseconds
	}{
		{0, 0, 0}, {99999, 0, 0}, {100000, 3, 4600}, {2099999, 3, 4600}, {2100000, 4, 43000}, {apst.NoLimit, 4, 43000},
	} {
		w := tl.WakeAfter(tc.gap, analysis.SimOptions{})
		require.Equal(t, tc.state, w.State, "gap %d", tc.gap)
		require.Equal(t, tc.exit, w.ExitLatency, "gap %d", tc.gap)
		require.Equal(t, tc.exit, w.Penalty, "gap %d", tc.gap)
	}

	// The measurement of docs/should-the-default-be-25ms.md: 0.78 of the advertised 43 ms is 33.5 ms; with
	// the CPU's 150 us C-state exit on top.
	f, err := analysis.ParseFactor("0.78")
	require.NoError(t, err)
	w := tl.WakeAfter(3000000, analysis.SimOptions{ExitFactor: analysis.ExitFactors{Default: f}, CPUWake: 150})
	require.Equal(t, analysis.Wake{Gap: 3000000, State: 4, ExitLatency: 33540, Penalty: 33690}, w)
	// Staying in ps0 costs only the CPU wake.
	require.Equal(t, apst.Microseconds(150), tl.WakeAfter(10, analysis.SimOptions{CPUWake: 150}).Penalty)

	// At 25 ms the timeline stops at ps3.
	_, plan25 := plan990(t, 25000)
	tl25 := analysis.IdleTimeline(c, &plan25.Table, 0)
	require.Len(t, tl25, 2)
	require.EqualValues(t, 3, tl25.At(apst.NoLimit).State)
}

func TestSimulateGapList(t *testing.T) {
	c, plan := plan990(t, apst.Current.DefaultBound())
	gaps := []apst.Microseconds{50000, 1000000, 3000000}
	sim, err := analysis.Simulate(c, &plan.Table, gaps, analysis.SimOptions{})
	require.NoError(t, err)
	require.Equal(t, uint64(3), sim.Count)
	require.Equal(t, apst.Microseconds(4050000), sim.TotalIdle)
	require.Equal(t, uint64(1), sim.Wakes[0])
	require.Equal(t, uint64(1), sim.Wakes[3])
	require.Equal(t, uint64(1), sim.Wakes[4])
	require.Equal(t, apst.Microseconds(250000), sim.Residency[0])
	require.Equal(t, apst.Microseconds(2900000), sim.Residency[3])
	require.Equal(t, apst.Microseconds(900000), sim.Residency[4])
	// Nearest rank over penalties {0, 4600, 43000}.
	require.Equal(t, apst.Microseconds(4600), sim.P50)
	require.Equal(t, apst.Microseconds(43000), sim.P90)
	require.Equal(t, apst.Microseconds(43000), sim.P99)
	require.Equal(t, apst.Microseconds(43000), sim.Max)
	// (6 W * 0.25 s + 0.08 W * 2.9 s + 0.007 W * 0.9 s) / 4.05 s, in uW, rounded down.
	energy := uint64(6000000*250000 + 80000*2900000 + 7000*900000)
	require.Equal(t, apst.MicroWatts(energy/4050000), sim.AverageIdlePower)
	require.Equal(t, apst.MicroWatts(429209), sim.AverageIdlePower)

	w := sim.WakeAfter(3000000)
	require.EqualValues(t, 4, w.State)

	// 25 ms: the worst wake is ps3's.
	_, plan25 := plan990(t, 25000)
	sim25, err := analysis.Simulate(c, &plan25.Table, gaps, analysis.SimOptions{CPUWake: 150})
	require.NoError(t, err)
	require.Equal(t, apst.Microseconds(4750), sim25.Max)
	require.Equal(t, uint64(1), sim25.Wakes[0])
	require.Equal(t, uint64(2), sim25.Wakes[3])
	require.Equal(t, apst.Microseconds(4750), sim25.P50)
}

func TestSimulateZeroAndErrors(t *testing.T) {
	c, plan := plan990(t, apst.Current.DefaultBound())
	sim, err := analysis.Simulate(c, &plan.Table, []apst.Microseconds{0, 0}, analysis.SimOptions{})
	require.NoError(t, err)
	require.Equal(t, apst.MicroWatts(6000000), sim.AverageIdlePower)
	require.Zero(t, sim.Max)

	_, err = analysis.Simulate(c, &plan.Table, nil, analysis.SimOptions{})
	require.ErrorIs(t, err, analysis.ErrNoGaps)
	_, err = analysis.Simulate(nil, &plan.Table, []apst.Microseconds{1}, analysis.SimOptions{})
	require.ErrorIs(t, err, apst.ErrNilController)
	_, err = analysis.Simulate(c, &plan.Table, []apst.Microseconds{apst.NoLimit, 2}, analysis.SimOptions{})
	require.ErrorIs(t, err, analysis.ErrInvalidGaps)
}

func TestSimulateDistributions(t *testing.T) {
	c, plan := plan990(t, apst.Current.DefaultBound())
	run := func(spec string, seed uint64) analysis.Simulation {
		d, err := analysis.ParseGapDistribution(spec)
		require.NoError(t, err)
		gaps, err := d.Sample(rand.New(rand.NewPCG(seed, 0)), 10000)
		require.NoError(t, err)
		sim, err := analysis.Simulate(c, &plan.Table, gaps, analysis.SimOptions{})
		require.NoError(t, err)
		return sim
	}
	// Seeded: the same seed gives the same result, another seed another one.
	a, b := run("exp:500ms", 1), run("exp:500ms", 1)
	require.Equal(t, a, b)
	require.NotEqual(t, a.TotalIdle, run("exp:500ms", 2).TotalIdle)
	// Mean 500 ms: 82% of the gaps (e^-0.2) outlast 100 ms, so the median
	// wake meets ps3; 1.5% (e^-4.2) outlast 2100 ms and meet ps4.
	require.Equal(t, apst.Microseconds(4600), a.P50)
	require.Equal(t, apst.Microseconds(43000), a.Max)
	require.InDelta(t, 0.5, float64(a.TotalIdle)/1e6/1e4, 0.03)

	fixed := run("fixed:150ms", 9)
	require.Equal(t, uint64(10000), fixed.Wakes[3])
	require.Equal(t, apst.Microseconds(1500000000), fixed.TotalIdle)

	u := run("uniform:10ms..5s", 3)
	// 90 ms of the 4990 ms range end in ps0, 2000 ms in ps3.
	require.InDelta(t, 10000*90.0/4990, float64(u.Wakes[0]), 60)
	require.InDelta(t, 10000*2000.0/4990, float64(u.Wakes[3]), 200)
	require.Equal(t, apst.Microseconds(43000), u.P90)

	d, err := analysis.ParseGapDistribution("uniform:10ms..20ms")
	require.NoError(t, err)
	gaps, err := d.Sample(rand.New(rand.NewPCG(5, 5)), 1000)
	require.NoError(t, err)
	for _, g := range gaps {
		require.True(t, g >= 10000 && g <= 20000, g)
	}
}

func TestParseGapDistribution(t *testing.T) {
	for in, want := range map[string]analysis.GapDistribution{
		"fixed:2s":            {Kind: analysis.GapFixed, Mean: 2000000},
		"uniform:10ms..5s":    {Kind: analysis.GapUniform, Min: 10000, Max: 5000000},
		"exp:500ms":           {Kind: analysis.GapExponential, Mean: 500000},
		"exponential:150us":   {Kind: analysis.GapExponential, Mean: 150},
		"fixed:0":             {Kind: analysis.GapFixed, Mean: 0},
		" Fixed:4.6ms ":       {Kind: analysis.GapFixed, Mean: 4600},
		"uniform:0us..1500us": {Kind: analysis.GapUniform, Min: 0, Max: 1500},
	} {
		got, err := analysis.ParseGapDistribution(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
		again, err := analysis.ParseGapDistribution(got.String())
		require.NoError(t, err)
		require.Equal(t, got, again, got.String())
	}
	for _, in := range []string{"", "2s", "fixed:", "uniform:5s..1s", "uniform:1s", "gauss:1s", "exp:-1s", "fixed:1ns", "exp:10", "uniform:10..20ms"} {
		_, err := analysis.ParseGapDistribution(in)
		require.ErrorIs(t, err, analysis.ErrInvalidGaps, in)
	}
	_, err := (analysis.GapDistribution{Kind: 9}).Sample(rand.New(rand.NewPCG(1, 1)), 1)
	require.ErrorIs(t, err, analysis.ErrInvalidGaps)
	_, err = (analysis.GapDistribution{Kind: analysis.GapUniform, Min: 2, Max: 1}).Sample(rand.New(rand.NewPCG(1, 1)), 1)
	require.ErrorIs(t, err, analysis.ErrInvalidGaps)
	full, err := (analysis.GapDistribution{Kind: analysis.GapUniform, Max: apst.NoLimit}).Sample(rand.New(rand.NewPCG(1, 1)), 3)
	require.NoError(t, err)
	require.Len(t, full, 3)
}

func TestFactor(t *testing.T) {
	for in, want := range map[string]analysis.Factor{
		"0.78":  {Num: 39, Den: 50},
		".5":    {Num: 1, Den: 2},
		"1":     {Num: 1, Den: 1},
		"78%":   {Num: 39, Den: 50},
		"780‰":  {Num: 39, Den: 50},
		"39/50": {Num: 39, Den: 50},
		"2/3":   {Num: 2, Den: 3},
		"1.25":  {Num: 5, Den: 4},
		"0":     {Num: 0, Den: 1},
		"50/3%": {Num: 1, Den: 6},
	} {
		got, err := analysis.ParseFactor(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for _, in := range []string{"", ".", "-0.5", "1/0", "abc", "1e3", "0.1234567890123456789"} {
		_, err := analysis.ParseFactor(in)
		require.ErrorIs(t, err, analysis.ErrInvalidFactor, in)
	}
	require.Equal(t, "0.78", analysis.Factor{Num: 39, Den: 50}.String())
	require.Equal(t, "2/3", analysis.Factor{Num: 2, Den: 3}.String())
	require.Equal(t, "1", analysis.Factor{}.String())
	require.Equal(t, "1.25", analysis.Factor{Num: 5, Den: 4}.String())
	require.True(t, analysis.Factor{}.IsOne())
	require.True(t, analysis.Factor{Num: 3, Den: 3}.IsOne())
	require.False(t, analysis.Factor{Num: 39, Den: 50}.IsOne())

	require.Equal(t, apst.Microseconds(33540), analysis.Factor{Num: 39, Den: 50}.Apply(43000))
	require.Equal(t, apst.Microseconds(3588), analysis.Factor{Num: 39, Den: 50}.Apply(4600))
	require.Equal(t, apst.Microseconds(1), analysis.Factor{Num: 1, Den: 3}.Apply(1), "rounds up")
	require.Equal(t, apst.Microseconds(7), analysis.Factor{}.Apply(7))
	require.Equal(t, apst.NoLimit, analysis.Factor{Num: 2, Den: 1}.Apply(apst.NoLimit))
}

func TestParseMicroseconds(t *testing.T) {
	for in, want := range map[string]apst.Microseconds{
		"150": 150, "25ms": 25000, "4.6ms": 4600, "150us": 150, "150µs": 150, "2s": 2000000, "0": 0, "1m": 60000000,
	} {
		got, err := apst.ParseMicroseconds(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "-1ms", "1ns", "1.5us", "fast", "99999999999999999999"} {
		_, err := apst.ParseMicroseconds(in)
		require.ErrorIs(t, err, apst.ErrInvalidConfig, in)
	}
}

// TestSimulateReachesOnlyReachable: whatever the table (kernel-built or
// arbitrary), the timeline and every wake stay within the states the table
// can reach from the starting state.
func TestSimulateReachesOnlyReachable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := anGenController(t)
		var tab apst.Table
		if rapid.Bool().Draw(t, "kernel table") {
			plan, err := apst.Build(c, anGenParams(t))
			if err != nil {
				t.Fatal(err)
			}
			tab = plan.Table
		} else {
			for i := range tab {
				tab[i] = apst.NewEntry(rapid.Uint8Range(0, 31).Draw(t, "target"),
					apst.Milliseconds(rapid.SampledFrom([]uint64{0, 1, 100, 1 << 24, 1<<24 - 1}).Draw(t, "idle")))
			}
		}
		start := rapid.Uint8Range(0, 31).Draw(t, "start")
		reach := tab.Reachable(start)
		tl := analysis.IdleTimeline(c, &tab, start)
		if tl.States()&^reach != 0 {
			t.Fatalf("timeline visits %#x, table reaches %#x", tl.States(), reach)
		}
		for i := 1; i < len(tl); i++ {
			if tl[i].From < tl[i-1].From {
				t.Fatalf("timeline goes back in time")
			}
		}
		gaps := rapid.SliceOfN(rapid.OneOf(rapid.Uint64Range(0, 5000000), rapid.Uint64Range(0, 1<<40)), 1, 50).Draw(t, "gaps")
		us := make([]apst.Microseconds, len(gaps))
		for i, g := range gaps {
			us[i] = apst.Microseconds(g)
		}
		sim, err := analysis.Simulate(c, &tab, us, analysis.SimOptions{Start: start, CPUWake: 150})
		if err != nil {
			t.Fatal(err)
		}
		var wakes, resid uint64
		for s := range apst.Entries {
			if (sim.Wakes[s] != 0 || sim.Residency[s] != 0) && reach&(1<<s) == 0 {
				t.Fatalf("simulation reports ps%d, which the table cannot reach", s)
			}
			wakes += sim.Wakes[s]
			resid += uint64(sim.Residency[s])
		}
		if wakes != uint64(len(gaps)) || resid != uint64(sim.TotalIdle) {
			t.Fatalf("wakes %d of %d gaps, residency %d of %d", wakes, len(gaps), resid, sim.TotalIdle)
		}
		if !(sim.P50 <= sim.P90 && sim.P90 <= sim.P99 && sim.P99 <= sim.Max) || sim.P50 < 150 {
			t.Fatalf("percentiles out of order: %d %d %d %d", sim.P50, sim.P90, sim.P99, sim.Max)
		}
		for _, g := range us {
			w := sim.WakeAfter(g)
			if reach&(1<<w.State) == 0 {
				t.Fatalf("wake after %d in ps%d, unreachable", g, w.State)
			}
			if w.Penalty > sim.Max {
				t.Fatalf("penalty %d above max %d", w.Penalty, sim.Max)
			}
		}
	})
}

func BenchmarkSimulate(b *testing.B) {
	c, plan := plan990(b, apst.Current.DefaultBound())
	gaps, err := analysis.GapDistribution{Kind: analysis.GapExponential, Mean: 500000}.Sample(rand.New(rand.NewPCG(1, 2)), 10000)
	require.NoError(b, err)
	opt := analysis.SimOptions{ExitFactor: analysis.ExitFactors{Default: analysis.Factor{Num: 39, Den: 50}}, CPUWake: 150}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := analysis.Simulate(c, &plan.Table, gaps, opt); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(gaps)), "ns/gap")
}

// The zero GapDistribution is refused, not sampled as gaps of 0 µs.
func TestGapDistributionZeroValue(t *testing.T) {
	_, err := analysis.GapDistribution{}.Sample(rand.New(rand.NewPCG(1, 2)), 3)
	require.ErrorIs(t, err, analysis.ErrInvalidGaps)
	assert.Contains(t, err.Error(), "ParseGapDistribution")
}
