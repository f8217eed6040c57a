package analysis_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/apsttest"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
)

// The 990 EVO Plus's tables (ps3 ENLAT/EXLAT 1600/4600, ps4 1600/43000):
// ps0-2 ->ps3@100ms under every bound from 4600 to 42999 µs, and ps3
// ->ps4@2000ms from 43000 on.
var (
	evoPS3 = apst.NewEntry(3, 100)
	evoPS4 = apst.NewEntry(4, 2000)
)

func evoTable(deep bool) apst.Table {
	t := apst.Table{evoPS3, evoPS3, evoPS3}
	if deep {
		t[3] = evoPS4
	}
	return t
}

func enabledFeature(t apst.Table) apst.Feature {
	return apst.Feature{APSTE: apst.APSTEEnabled, Table: t}
}

func TestCheck990Match100ms(t *testing.T) {
	c := loadAnalysisFixture(t, testfixture.Path(testfixture.Samsung990EVOPlus))
	p := apst.DefaultParams(apst.Current)
	v, err := analysis.Check(c, p, enabledFeature(evoTable(true)))
	require.NoError(t, err)
	assert.True(t, v.Match)
	assert.False(t, v.APSTEDiffers)
	assert.Empty(t, v.Differences)
	assert.Empty(t, v.Notes)
	require.NotEmpty(t, v.ReproducedBy)
	r := v.ReproducedBy[0]
	assert.Equal(t, "the parameters given", r.Reason)
	assert.Equal(t, p, r.Params)
	assert.Equal(t, apst.Microseconds(43000), r.Min)
	assert.Equal(t, apst.NoLimit, r.Max)
	for _, r := range v.ReproducedBy[1:] {
		assert.NotEqual(t, "the parameters given", r.Reason)
	}
}

func TestCheck990Drive25msKernel100ms(t *testing.T) {
	c := loadAnalysisFixture(t, testfixture.Path(testfixture.Samsung990EVOPlus))
	p := apst.DefaultParams(apst.Current)
	v, err := analysis.Check(c, p, enabledFeature(evoTable(false)))
	require.NoError(t, err)
	assert.False(t, v.Match)
	assert.False(t, v.APSTEDiffers)
	assert.Equal(t, []analysis.EntryDiff{{State: 3, Expected: evoPS4, Drive: 0}}, v.Differences)
	require.NotEmpty(t, v.ReproducedBy)
	r := v.ReproducedBy[0]
	assert.Equal(t, "ps_max_latency_us 4600us..42999us instead of 100000us", r.Reason)
	assert.Equal(t, apst.Microseconds(4600), r.Min)
	assert.Equal(t, apst.Microseconds(42999), r.Max)
	assert.Equal(t, apst.Microseconds(4600), r.Params.Bound, "neither the bound given nor the default is in range: the smallest")
	assert.Equal(t, "kernel=current,ps-max-latency-us=4600", r.Params.String())

	// Believed 25000: a match, the bound given carried.
	p.Bound = 25000
	v, err = analysis.Check(c, p, enabledFeature(evoTable(false)))
	require.NoError(t, err)
	assert.True(t, v.Match)
	assert.Equal(t, apst.Microseconds(25000), v.ReproducedBy[0].Params.Bound)
	assert.Equal(t, "the parameters given", v.ReproducedBy[0].Reason)

	// Windows Balanced DC (primary 100ms within 50ms) gives the same table
	// over the same bounds: a change that explains nothing is not listed.
	for _, r := range v.ReproducedBy {
		if r.Min == 4600 && r.Max == 42999 {
			assert.Equal(t, "the parameters given", r.Reason)
		}
	}
}

func TestCheckReproductionsDeterministicAndDistinct(t *testing.T) {
	c := loadAnalysisFixture(t, testfixture.Path(testfixture.Samsung990EVOPlus))
	p := apst.DefaultParams(apst.V4_12)
	f := enabledFeature(evoTable(true))
	a, err := analysis.Check(c, p, f)
	require.NoError(t, err)
	b, err := analysis.Check(c, p, f)
	require.NoError(t, err)
	require.Equal(t, a, b)
	assert.False(t, a.Match, "v4.12 programs the 2% heuristic's idle times")
	require.NotEmpty(t, a.ReproducedBy)
	assert.Equal(t, apst.Current, a.ReproducedBy[0].Params.Generation)
	assert.Equal(t, "kernel current instead of v4.12", a.ReproducedBy[0].Reason, "the bound 100000 is in 43000..unlimited")
	seen := map[string]bool{}
	for _, r := range a.ReproducedBy {
		key := r.Params.String() + " " + r.Reason
		require.False(t, seen[key], "duplicate %s", key)
		seen[key] = true
		q := r.Params
		for _, b := range []apst.Microseconds{r.Min, r.Max, q.Bound} {
			q.Bound = b
			plan, err := apst.Build(c, q)
			require.NoError(t, err)
			require.Equal(t, f.Table, plan.Table, "%s at %s", r.Reason, b)
		}
	}
}

func TestCheckMasked(t *testing.T) {
	c := loadAnalysisFixture(t, testfixture.Path(testfixture.Samsung990EVOPlus))
	p := apst.DefaultParams(apst.Current)
	p.PrimaryTimeout = 1<<24 + 100 // spills into bits 63:32
	plan, err := apst.Build(c, p)
	require.NoError(t, err)
	require.NotZero(t, plan.Table[0].Reserved())
	var masked apst.Table
	for i, e := range plan.Table {
		masked[i] = e & apst.EntryMask
	}

	// What `nvme get-feature -H` prints: ITPS and ITPT only.
	v, err := analysis.Check(c, p, apst.Feature{APSTE: apst.APSTEEnabled, Table: masked, Masked: true})
	require.NoError(t, err)
	assert.True(t, v.Match)
	assert.Contains(t, v.Notes, "the capture gives only ITPS and ITPT of each entry: bits 2:0 and 63:32 were not compared")
	assert.Contains(t, v.Notes, "the kernel's table sets bits 63:32 (an idle time of 2^24 ms or more spills out of ITPT), which a masked capture cannot show")
	require.NotEmpty(t, v.ReproducedBy)
	assert.Equal(t, p, v.ReproducedBy[0].Params)

	// The same 64-bit values read as a full table are a mismatch.
	v, err = analysis.Check(c, p, apst.Feature{APSTE: apst.APSTEEnabled, Table: masked})
	require.NoError(t, err)
	assert.False(t, v.Match)
	require.Len(t, v.Differences, 3)
	assert.Equal(t, plan.Table[0], v.Differences[0].Expected)
}

func TestCheckAPSTEUnknown(t *testing.T) {
	c := loadAnalysisFixture(t, testfixture.Path(testfixture.Samsung990EVOPlus))
	p := apst.DefaultParams(apst.Current)
	p.Bound = 0 // APST off: APSTE=0 and a zero table
	raw := apst.Feature{APSTE: apst.APSTEUnknown}
	v, err := analysis.Check(c, p, raw)
	require.NoError(t, err)
	assert.True(t, v.Match)
	assert.False(t, v.APSTEDiffers, "an APSTE never read never differs")
	assert.Contains(t, v.Notes[0], "APSTE (bit 0 of completion dword 0) is unknown")
	require.NotEmpty(t, v.ReproducedBy)
	// APSTE=0 at bound 0 and APSTE=1 with no state from 1 to 4599 both give
	// a zero table: one range.
	assert.Equal(t, apst.Microseconds(0), v.ReproducedBy[0].Min)
	assert.Equal(t, apst.Microseconds(4599), v.ReproducedBy[0].Max)
	assert.Equal(t, apst.Microseconds(0), v.ReproducedBy[0].Params.Bound)

	// Known APSTE=0 with the 100 ms table: APSTE differs, and no
	// configuration programs a table with APSTE=0.
	v, err = analysis.Check(c, apst.DefaultParams(apst.Current), apst.Feature{APSTE: apst.APSTEDisabled, Table: evoTable(true)})
	require.NoError(t, err)
	assert.False(t, v.Match)
	assert.True(t, v.APSTEDiffers)
	assert.Empty(t, v.Differences)
	assert.Empty(t, v.ReproducedBy)
}

func TestCheckNoReproduction(t *testing.T) {
	c := loadAnalysisFixture(t, testfixture.Path(testfixture.Samsung990EVOPlus))
	tab := apst.Table{apst.NewEntry(4, 1234)}
	v, err := analysis.Check(c, apst.DefaultParams(apst.Current), enabledFeature(tab))
	require.NoError(t, err)
	assert.False(t, v.Match)
	assert.Len(t, v.Differences, 4)
	assert.Empty(t, v.ReproducedBy)
	assert.Contains(t, v.Notes[len(v.Notes)-1], "no configuration tried")
}

func TestCheckQuirkAndForce(t *testing.T) {
	c := loadAnalysisFixture(t, testfixture.Path(testfixture.IntelSSDPEKKW256G7))
	// The kernel applies NO_DEEPEST_PS by PCI ID; a capture model without
	// the quirk expects ps4, the drive holds the quirked table.
	q := apst.DefaultParams(apst.Current)
	q.Quirks, q.QuirksGiven = apst.QuirkNoDeepestPS, true
	quirked, err := apst.Build(c, q)
	require.NoError(t, err)
	none := apst.DefaultParams(apst.Current)
	none.QuirksGiven = true
	v, err := analysis.Check(c, none, enabledFeature(quirked.Table))
	require.NoError(t, err)
	require.False(t, v.Match)
	var reasons []string
	for _, r := range v.ReproducedBy {
		reasons = append(reasons, r.Reason)
	}
	assert.Contains(t, reasons, "no-deepest-ps quirk added")

	// With the quirk, force_apst=Y gives back the unquirked table.
	plain, err := apst.Build(c, none)
	require.NoError(t, err)
	v, err = analysis.Check(c, q, enabledFeature(plain.Table))
	require.NoError(t, err)
	reasons = reasons[:0]
	for _, r := range v.ReproducedBy {
		reasons = append(reasons, r.Reason)
	}
	assert.Contains(t, reasons, "no-deepest-ps quirk removed")
	assert.Contains(t, reasons, "nvme_core.force_apst=Y")
}

func TestCheckNotSent(t *testing.T) {
	c := loadAnalysisFixture(t, testfixture.Path(testfixture.Samsung990EVOPlus))
	c.APSTA = 0
	v, err := analysis.Check(c, apst.DefaultParams(apst.Current), enabledFeature(evoTable(true)))
	require.NoError(t, err)
	assert.False(t, v.Match)
	assert.Contains(t, v.Notes, "the kernel sends no APST configuration (unsupported): the drive keeps its own, and was compared with a zero table and APSTE 0")
	assert.Empty(t, v.ReproducedBy)
}

func TestCheckErrors(t *testing.T) {
	c := loadAnalysisFixture(t, testfixture.Path(testfixture.Samsung990EVOPlus))
	_, err := analysis.Check(nil, apst.DefaultParams(apst.Current), apst.Feature{})
	require.ErrorIs(t, err, apst.ErrNilController)
	_, err = analysis.Check(c, apst.Params{Generation: 9}, apst.Feature{})
	require.ErrorIs(t, err, apst.ErrUnknownGeneration)
	_, err = analysis.Check(c, apst.DefaultParams(apst.Current), apst.Feature{APSTE: 7})
	require.ErrorIs(t, err, analysis.ErrInvalidFeature)
	require.ErrorContains(t, err, "APSTE 7")
}

// TestCheckOwnPlanProperty: the feature Build programs matches, and one
// reproduction holds the bound and builds the same table.
func TestCheckOwnPlanProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := apsttest.Controller().Draw(t, "controller")
		p := apsttest.ParamsFor(&c).Draw(t, "params")
		plan, err := apst.Build(&c, p)
		if err != nil {
			t.Fatal(err)
		}
		f := apst.Feature{APSTE: apst.APSTEOf(plan.Enabled), Table: plan.Table}
		v, err := analysis.Check(&c, p, f)
		if err != nil {
			t.Fatal(err)
		}
		if !v.Match || v.APSTEDiffers || len(v.Differences) != 0 {
			t.Fatalf("own plan does not match: %+v", v.Differences)
		}
		if !plan.Sent {
			for _, r := range v.ReproducedBy {
				if r.Params == p {
					t.Fatalf("the parameters given reproduce a plan the kernel does not send")
				}
			}
			return // the drive keeps its own table; other configurations may program it
		}
		masked := f
		masked.Masked = true
		for i := range masked.Table {
			masked.Table[i] &= apst.EntryMask
		}
		if mv, err := analysis.Check(&c, p, masked); err != nil || !mv.Match {
			t.Fatalf("own plan, masked as -H text prints it, does not match: %v", err)
		}
		for _, r := range v.ReproducedBy {
			// The config key of apstctl check: ParseConfig reads it back.
			back, err := apst.ParseConfig(r.Params.String(), apst.DefaultParams(apst.Current))
			if err != nil || back != r.Params {
				t.Fatalf("reproduction %q does not round-trip: %v", r.Params, err)
			}
		}
		for _, r := range v.ReproducedBy {
			if !r.Contains(p.Bound) {
				continue
			}
			got, err := apst.Build(&c, r.Params)
			if err != nil {
				t.Fatal(err)
			}
			if got.Table == plan.Table && got.Enabled == plan.Enabled {
				return
			}
		}
		t.Fatalf("no reproduction holds bound %s and builds the table (%d reproductions)", p.Bound, len(v.ReproducedBy))
	})
}

func BenchmarkCheck(b *testing.B) {
	c := loadAnalysisFixture(b, testfixture.Path(testfixture.Samsung990EVOPlus))
	p := apst.DefaultParams(apst.Current)
	f := enabledFeature(evoTable(false))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := analysis.Check(c, p, f); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCheckRanksCauseKeepingBoundFirst: the 600p holds the quirked table;
// checked without the quirk at the default bound, both "the quirk" and "a
// bound below ps4's exit latency" reproduce it with one change each, and
// the one that keeps the bound the user gave comes first.
func TestCheckRanksCauseKeepingBoundFirst(t *testing.T) {
	c := loadAnalysisFixture(t, testfixture.Path(testfixture.IntelSSDPEKKW256G7))
	quirked, err := apst.Build(c, apst.DefaultParams(apst.Current))
	require.NoError(t, err)
	require.Equal(t, 3, quirked.MaxPS)
	none := apst.DefaultParams(apst.Current)
	none.QuirksGiven = true
	v, err := analysis.Check(c, none, enabledFeature(quirked.Table))
	require.NoError(t, err)
	require.False(t, v.Match)
	require.GreaterOrEqual(t, len(v.ReproducedBy), 2)
	assert.Equal(t, "no-deepest-ps quirk added", v.ReproducedBy[0].Reason)
	assert.True(t, v.ReproducedBy[0].Contains(none.Bound))
	assert.Contains(t, v.ReproducedBy[1].Reason, "ps_max_latency_us")
}

// An entry with ITPT 0 never fires: a drive answering 0x20 (ITPS 4, ITPT 0)
// for entry 4 does what the kernel's zero entry does, so it is no
// mismatch, and a note says why.
func TestCheckITPTZeroEntriesCompareByEffect(t *testing.T) {
	c := loadAnalysisFixture(t, testfixture.Path(testfixture.Samsung990EVOPlus))
	p := apst.DefaultParams(apst.Current)
	tab := evoTable(true)
	tab[4] = 0x20
	require.Equal(t, uint8(4), tab[4].TargetState())
	require.False(t, tab[4].Transitions())
	for _, masked := range []bool{false, true} {
		f := enabledFeature(tab)
		f.Masked = masked
		v, err := analysis.Check(c, p, f)
		require.NoError(t, err)
		assert.True(t, v.Match, "masked %v", masked)
		assert.Empty(t, v.Differences)
		require.NotEmpty(t, v.ReproducedBy)
		assert.Equal(t, "the parameters given", v.ReproducedBy[0].Reason)
		assert.Contains(t, strings.Join(v.Notes, "\n"), "entry 4 differs from the kernel's only with an idle time (ITPT) of 0 on both sides")
	}
	// An entry that fires is still a mismatch.
	tab[4] = apst.NewEntry(4, 1)
	v, err := analysis.Check(c, p, enabledFeature(tab))
	require.NoError(t, err)
	assert.False(t, v.Match)
	require.Len(t, v.Differences, 1)
	assert.Equal(t, uint8(4), v.Differences[0].State)
}
