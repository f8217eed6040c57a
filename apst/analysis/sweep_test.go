package analysis_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/apsttest"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Fixtures of the analysis tests, from the module's
// testdata.
var (
	fixture990   = testfixture.Path("identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin")
	fixture600p  = testfixture.Path("identify/intel-ssdpekkw256g7-PSF109C.bin")
	fixturePC401 = testfixture.Path("corpus/binary/synthetic/SKhynix_PC401_NVMe_512GB_80003E00.id-ctrl.bin")
)

func loadAnalysisFixture(tb testing.TB, path string) *powerstate.Controller {
	tb.Helper()
	b, err := os.ReadFile(filepath.FromSlash(path))
	require.NoError(tb, err)
	c, err := powerstate.DecodeIdentify(b)
	require.NoError(tb, err)
	return &c
}

// intel600pQuirks are the APST quirks the kernel applies to the 600p by its
// PCI ID 8086:f1a5.
func intel600pQuirks(c *powerstate.Controller) apst.Quirks {
	return apst.LookupQuirks(apst.Identity{
		VendorID: c.VendorID, Model: c.Model, Firmware: c.Firmware,
		PCI: apst.PCIID{Vendor: 0x8086, Device: 0xf1a5},
	}).APST()
}

// entriesOf returns the table's first n entries.
func entriesOf(t *apst.Table, n int) []apst.Entry { return append([]apst.Entry(nil), t[:n]...) }

func TestSweep990EVOPlus(t *testing.T) {
	c := loadAnalysisFixture(t, fixture990)
	sw, err := analysis.Sweep(c, apst.DefaultParams(apst.Current))
	require.NoError(t, err)
	require.Len(t, sw.Intervals, 4)

	type want struct {
		min, max apst.Microseconds
		enabled  bool
		maxPS    int
		worst    apst.Microseconds
		deepest  uint8
		entries  []apst.Entry
	}
	ps3 := apst.Entry(0x6418)
	wants := []want{
		{0, 0, false, -1, 0, 0, []apst.Entry{0, 0, 0, 0, 0}},
		{1, 4599, true, -1, 0, 0, []apst.Entry{0, 0, 0, 0, 0}},
		{4600, 42999, true, 3, 4600, 3, []apst.Entry{ps3, ps3, ps3, 0, 0}},
		{43000, apst.NoLimit, true, 4, 43000, 4, []apst.Entry{ps3, ps3, ps3, 0x7d020, 0}},
	}
	for i, w := range wants {
		iv := sw.Intervals[i]
		require.Equal(t, w.min, iv.Min, "interval %d", i)
		require.Equal(t, w.max, iv.Max, "interval %d", i)
		require.Equal(t, w.enabled, iv.Plan.Enabled, "interval %d", i)
		require.Equal(t, w.maxPS, iv.MaxPS(), "interval %d", i)
		require.Equal(t, w.worst, iv.Reach.WorstExitLatency, "interval %d", i)
		require.Equal(t, w.deepest, iv.Reach.Deepest, "interval %d", i)
		require.Equal(t, w.entries, entriesOf(&iv.Plan.Table, 5), "interval %d", i)
	}

	// The claim docs/should-the-default-be-25ms.md checks: "any value between 4.6ms and 43ms behaves identically here".
	iv := sw.At(4600)
	require.Same(t, iv, sw.At(25000))
	require.Same(t, iv, sw.At(42999))
	require.NotSame(t, iv, sw.At(43000))
	require.NotSame(t, iv, sw.At(4599))
	for _, b := range []apst.Microseconds{4600, 5500, 10000, 25000, 42999} {
		p := apst.DefaultParams(apst.Current)
		p.Bound = b
		plan, err := apst.Build(c, p)
		require.NoError(t, err)
		require.Equal(t, iv.Plan.Table, plan.Table, "bound %d", b)
		require.Equal(t, 3, plan.MaxPS)
	}
	// At the default the deepest state is ps4 with a 43000 us exit latency, at
	// 25000 it is ps3 with 4600 us.
	require.EqualValues(t, 4, sw.At(100000).Reach.Deepest)
	require.EqualValues(t, 43000, sw.At(100000).Reach.WorstExitLatency)
	require.EqualValues(t, 3, sw.At(25000).Reach.Deepest)
	require.EqualValues(t, 4600, sw.At(25000).Reach.WorstExitLatency)
}

func TestSweepIntel600pNoDeepestPS(t *testing.T) {
	c := loadAnalysisFixture(t, fixture600p)
	q := intel600pQuirks(c)
	require.Equal(t, apst.QuirkNoDeepestPS, q)
	for _, g := range []apst.Generation{apst.Current, apst.V4_12} {
		p := apst.DefaultParams(g)
		p.Quirks = q
		sw, err := analysis.Sweep(c, p)
		require.NoError(t, err)
		for _, iv := range sw.Intervals {
			require.Zero(t, iv.Reach.States&(1<<4), "%s: %s reaches ps4", g, analysis.BoundRange{Min: iv.Min, Max: iv.Max})
			require.NotEqual(t, 4, iv.MaxPS())
		}
		last := sw.Intervals[len(sw.Intervals)-1]
		require.Equal(t, 3, last.MaxPS(), g.String())
		require.EqualValues(t, 300, last.Reach.WorstExitLatency, g.String())

		// Without the quirk (or with force_apst) ps4 is the destination.
		p.ForceAPST = true
		sw, err = analysis.Sweep(c, p)
		require.NoError(t, err)
		require.EqualValues(t, 4, sw.At(apst.Current.DefaultBound()).Reach.Deepest, g.String())
	}
}

func TestSweepPC401(t *testing.T) {
	c := loadAnalysisFixture(t, fixturePC401)
	sw, err := analysis.Sweep(c, apst.DefaultParams(apst.Current))
	require.NoError(t, err)
	var got []analysis.BoundRange
	for _, iv := range sw.Intervals {
		got = append(got, analysis.BoundRange{Min: iv.Min, Max: iv.Max})
	}
	require.Equal(t, []analysis.BoundRange{{0, 0}, {1, 999}, {1000, 4999}, {5000, apst.NoLimit}}, got)
	require.Equal(t, 3, sw.At(4999).MaxPS())
	require.Equal(t, 4, sw.At(5500).MaxPS())
}

func TestSweepV4_11TotalGate(t *testing.T) {
	c := loadAnalysisFixture(t, fixture990)
	sw, err := analysis.Sweep(c, apst.DefaultParams(apst.V4_11))
	require.NoError(t, err)
	// v4.11 gates on ENLAT+EXLAT: ps3 6200, ps4 44600.
	require.Equal(t, apst.Microseconds(6200), sw.Intervals[2].Min)
	require.Equal(t, apst.Microseconds(44599), sw.Intervals[2].Max)
	require.Equal(t, apst.Microseconds(44600), sw.Intervals[3].Min)
}

func TestSweepNothingSent(t *testing.T) {
	c := loadAnalysisFixture(t, fixture990)
	c.APSTA = 0
	sw, err := analysis.Sweep(c, apst.DefaultParams(apst.Current))
	require.NoError(t, err)
	require.Len(t, sw.Intervals, 1)
	require.False(t, sw.Intervals[0].Plan.Sent)
	require.Equal(t, apst.NoLimit, sw.Intervals[0].Max)

	_, err = analysis.Sweep(nil, apst.DefaultParams(apst.Current))
	require.ErrorIs(t, err, apst.ErrNilController)
	_, err = analysis.Sweep(c, apst.Params{Generation: 9})
	require.ErrorIs(t, err, apst.ErrUnknownGeneration)
}

// anGenController draws a controller from apsttest.Controller: edge and
// random latencies, so that gates coincide and interact often.
func anGenController(t *rapid.T) *powerstate.Controller {
	c := apsttest.Controller().Draw(t, "controller")
	return &c
}

// anGenParams draws parameters from apsttest.Params.
func anGenParams(t *rapid.T) apst.Params { return apsttest.Params().Draw(t, "params") }

func samePlanOutput(a, b *apst.Plan) bool {
	return a.Sent == b.Sent && a.Enabled == b.Enabled && a.Outcome == b.Outcome &&
		a.MaxPS == b.MaxPS && a.MaxRoundTrip == b.MaxRoundTrip && a.Table == b.Table
}

func TestSweepProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := anGenController(t)
		p := anGenParams(t)
		sw, err := analysis.Sweep(c, p)
		if err != nil {
			t.Fatal(err)
		}
		ivs := sw.Intervals
		if len(ivs) == 0 || ivs[0].Min != 0 || ivs[len(ivs)-1].Max != apst.NoLimit {
			t.Fatalf("intervals do not cover [0, 2^64-1]: %d intervals", len(ivs))
		}
		build := func(b apst.Microseconds) apst.Plan {
			q := p
			q.Bound = b
			plan, err := apst.Build(c, q)
			if err != nil {
				t.Fatal(err)
			}
			return plan
		}
		for i := range ivs {
			iv := &ivs[i]
			if iv.Min > iv.Max {
				t.Fatalf("interval %d is empty: %d..%d", i, iv.Min, iv.Max)
			}
			if i > 0 {
				if ivs[i-1].Max+1 != iv.Min {
					t.Fatalf("gap or overlap between %d..%d and %d..%d", ivs[i-1].Min, ivs[i-1].Max, iv.Min, iv.Max)
				}
				if samePlanOutput(&ivs[i-1].Plan, &iv.Plan) {
					t.Fatalf("neighbours %d and %d have the same plan", i-1, i)
				}
			}
			if iv.Plan.Enabled && iv.Min == 0 {
				t.Fatalf("bound 0 must disable APST")
			}
			points := []apst.Microseconds{iv.Min, iv.Max, iv.Min + (iv.Max-iv.Min)/2}
			span := uint64(iv.Max - iv.Min)
			for range 3 {
				points = append(points, iv.Min+apst.Microseconds(rapid.Uint64Range(0, span).Draw(t, "offset")))
			}
			for _, b := range points {
				plan := build(b)
				if !samePlanOutput(&plan, &iv.Plan) {
					t.Fatalf("bound %d in %d..%d: Build gives %v (max_ps %d), sweep %v (max_ps %d)",
						b, iv.Min, iv.Max, plan.Table[:4], plan.MaxPS, iv.Plan.Table[:4], iv.Plan.MaxPS)
				}
				if got := sw.At(b); got != iv {
					t.Fatalf("At(%d) is not interval %d", b, i)
				}
			}
			if iv.Reach != analysis.Reachability(c, &iv.Plan.Table) {
				t.Fatalf("interval %d: reach differs", i)
			}
		}
	})
}

// TestSweepExhaustiveSmall compares the sweep with Build at every bound of a
// small range, for controllers whose latencies all lie in it.
func TestSweepExhaustiveSmall(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := &powerstate.Controller{NPSS: rapid.Uint8Range(0, 6).Draw(t, "npss"), APSTA: 1}
		for i := range c.StateCount() {
			d := &c.PowerStates[i]
			d.NonOperational = rapid.Bool().Draw(t, "nops")
			d.EntryLatency = powerstate.Microseconds(rapid.Uint32Range(0, 40).Draw(t, "enlat"))
			d.ExitLatency = powerstate.Microseconds(rapid.Uint32Range(0, 40).Draw(t, "exlat"))
		}
		p := anGenParams(t)
		p.PrimaryTolerance %= 60
		p.SecondaryTolerance %= 90
		sw, err := analysis.Sweep(c, p)
		if err != nil {
			t.Fatal(err)
		}
		for b := apst.Microseconds(0); b <= 100; b++ {
			q := p
			q.Bound = b
			plan, _ := apst.Build(c, q)
			if iv := sw.At(b); !samePlanOutput(&plan, &iv.Plan) {
				t.Fatalf("bound %d: sweep interval %d..%d disagrees with Build", b, iv.Min, iv.Max)
			}
		}
	})
}

func TestReachability(t *testing.T) {
	c := loadAnalysisFixture(t, fixture990)
	var tab apst.Table
	r := analysis.Reachability(c, &tab)
	// A table that never leaves ps0: no stall, ps0's power (not ps0's
	// advertised exit latency, which indexing PowerStates[Deepest] gives).
	require.Equal(t, analysis.Reach{States: 1, WorstExitState: -1, DeepestMaxPower: c.PowerStates[0].MaxPower}, r)
	tab[0] = apst.NewEntry(3, 100)
	tab[3] = apst.NewEntry(4, 2000)
	r = analysis.Reachability(c, &tab)
	require.Equal(t, analysis.Reach{States: 1<<0 | 1<<3 | 1<<4, Deepest: 4, WorstExitState: 4, WorstExitLatency: 43000,
		DeepestExitLatency: 43000, DeepestMaxPower: c.PowerStates[4].MaxPower}, r)
	tab[3] = 0
	r = analysis.Reachability(c, &tab)
	require.Equal(t, apst.Microseconds(4600), r.DeepestExitLatency)
	require.Equal(t, c.PowerStates[3].MaxPower, r.DeepestMaxPower)
	// An entry with idle time 0 makes no transition.
	tab[0] = apst.NewEntry(3, 0)
	require.Equal(t, apst.States(1), analysis.Reachability(c, &tab).States)
	// No table is the empty table: state 0 only, no panic.
	var empty apst.Table
	require.Equal(t, analysis.Reachability(c, &empty), analysis.Reachability(c, nil))
	require.Equal(t, analysis.Reach{States: 1, WorstExitState: -1}, analysis.Reachability(nil, nil))
}

func BenchmarkSweep(b *testing.B) {
	c := loadAnalysisFixture(b, fixture990)
	p := apst.DefaultParams(apst.Current)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := analysis.Sweep(c, p); err != nil {
			b.Fatal(err)
		}
	}
}
