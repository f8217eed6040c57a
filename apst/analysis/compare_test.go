package analysis_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
)

func configAt(t *testing.T, s string) analysis.Config {
	t.Helper()
	p, err := apst.ParseConfig(s, apst.DefaultParams(apst.Current))
	require.NoError(t, err)
	return analysis.Config{Name: s, Params: p}
}

func TestCompare990EVOPlus100msVs25ms(t *testing.T) {
	c := loadAnalysisFixture(t, fixture990)
	cmp, err := analysis.Compare(c, configAt(t, "ps-max-latency-us=100000"), configAt(t, "ps-max-latency-us=25000"))
	require.NoError(t, err)
	require.Len(t, cmp.Configs, 2)

	a, b := cmp.Configs[0], cmp.Configs[1]
	require.EqualValues(t, 4, a.Reach.Deepest)
	require.EqualValues(t, 43000, a.Reach.WorstExitLatency)
	require.Equal(t, "0.0070W", a.DeepestMaxPower.String())
	require.EqualValues(t, 3, b.Reach.Deepest)
	require.EqualValues(t, 4600, b.Reach.WorstExitLatency)
	require.Equal(t, "0.0800W", b.DeepestMaxPower.String())

	// 0.0800 W - 0.0070 W = 73 mW, exactly.
	require.Equal(t, apst.MicroWatts(73000), cmp.PowerDelta)
	require.InDelta(t, 73.0, cmp.PowerDelta.MilliWatts(), 1e-9)

	require.Len(t, cmp.States, 5)
	for s, row := range cmp.States {
		require.EqualValues(t, s, row.State)
		require.Equal(t, s == 3, row.Differs, "ps%d", s)
	}
	require.Equal(t, apst.NewEntry(4, 2000), cmp.States[3].Entries[0])
	require.Equal(t, apst.Entry(0), cmp.States[3].Entries[1])
	require.Equal(t, apst.ReasonSecondary, cmp.States[4].Reasons[0])
	require.Equal(t, apst.ReasonExitAboveBound, cmp.States[4].Reasons[1])

	var got []string
	for _, d := range cmp.Differences {
		require.Equal(t, 1, d.Config)
		got = append(got, d.String())
	}
	require.Equal(t, []string{
		"max-ps: 4 -> 3",
		"max-round-trip-latency: 44600us -> 6200us",
		"deepest-state: ps4 -> ps3",
		"deepest-state-max-power: 0.0070W -> 0.0800W",
		"worst-exit-latency: 43000us -> 4600us",
		"entry 3: ->ps4@2000ms -> -",
	}, got)
}

func TestCompareThreeAndPolicies(t *testing.T) {
	c := loadAnalysisFixture(t, fixture990)
	cmp, err := analysis.Compare(c,
		configAt(t, "policy=linux-default"),
		configAt(t, "policy=windows-balanced-dc"),
		configAt(t, "policy=windows-performance-ac"),
	)
	require.NoError(t, err)
	require.Len(t, cmp.Configs, 3)
	// Balanced DC: primary tolerance 50 ms takes ps4 (44600 us) directly
	// after 100 ms; same deepest state as Linux, no power difference.
	require.EqualValues(t, 4, cmp.Configs[1].Reach.Deepest)
	require.Equal(t, apst.NewEntry(4, 100), cmp.Configs[1].Plan.Table[0])
	require.Zero(t, cmp.PowerDelta)
	// Performance AC: no idle state; the drive stays in ps0.
	require.False(t, cmp.Configs[2].Plan.Enabled)
	require.EqualValues(t, 0, cmp.Configs[2].Reach.Deepest)
	require.EqualValues(t, 0, cmp.Configs[2].Reach.WorstExitLatency)
	require.Equal(t, "6.00W", cmp.Configs[2].DeepestMaxPower.String())
	var third int
	for _, d := range cmp.Differences {
		if d.Config == 2 {
			third++
		}
	}
	require.NotZero(t, third)
}

func TestCompareErrors(t *testing.T) {
	c := loadAnalysisFixture(t, fixture990)
	_, err := analysis.Compare(c, configAt(t, ""))
	require.ErrorIs(t, err, analysis.ErrTooFewConfigs)
	_, err = analysis.Compare(nil, configAt(t, ""), configAt(t, ""))
	require.ErrorIs(t, err, apst.ErrNilController)
	_, err = analysis.Compare(c, configAt(t, ""), analysis.Config{Name: "bad", Params: apst.Params{Generation: 7}})
	require.ErrorIs(t, err, apst.ErrUnknownGeneration)
	require.Contains(t, err.Error(), "analysis: configuration 2 (bad)")
}

func TestCompareIntel600pGenerations(t *testing.T) {
	c := loadAnalysisFixture(t, fixture600p)
	q := intel600pQuirks(c)
	cur := apst.DefaultParams(apst.Current)
	cur.Quirks = q
	old := apst.DefaultParams(apst.V4_12)
	old.Quirks = q
	cmp, err := analysis.Compare(c, analysis.Config{Name: "current", Params: cur}, analysis.Config{Name: "v4.12", Params: old})
	require.NoError(t, err)
	for _, r := range cmp.Configs {
		require.EqualValues(t, 3, r.Reach.Deepest, r.Config.Name)
		require.EqualValues(t, 300, r.Reach.WorstExitLatency, r.Config.Name)
		require.Equal(t, "0.0700W", r.DeepestMaxPower.String())
	}
	// Same destination, different idle time: 100 ms (primary) vs ceil(10300/20) = 515 ms.
	require.Equal(t, apst.NewEntry(3, 100), cmp.Configs[0].Plan.Table[0])
	require.Equal(t, apst.NewEntry(3, 515), cmp.Configs[1].Plan.Table[0])
	require.Zero(t, cmp.PowerDelta)
}
