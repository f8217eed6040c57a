package persist_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/persist"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// UdevRule and UdevMatch refuse what Validate refuses and an unset
// tolerance, instead of writing a rule udev misreads or one that writes
// "unset" to every controller.
func TestUdevRuleRefuses(t *testing.T) {
	ok := apst.Tolerance{Kind: apst.ToleranceValue, Value: 25000}
	for _, tc := range []struct {
		name  string
		scope persist.Scope
		tol   apst.Tolerance
		want  error
	}{
		{"zero tolerance", persist.ModelScope("Samsung SSD 990 EVO Plus 1TB"), apst.Tolerance{}, apst.ErrInvalidTolerance},
		{"value out of range", persist.ModelScope("M"), apst.Tolerance{Kind: apst.ToleranceValue, Value: apst.LatencyAny}, apst.ErrInvalidTolerance},
		{"empty model", persist.ModelScope(""), ok, persist.ErrScope},
		{"empty serial", persist.SerialScope(""), ok, persist.ErrScope},
		{"quote in the model", persist.ModelScope(`M", RUN+="/bin/sh`), ok, persist.ErrScope},
		{"zero PCI ID", persist.PCIScope(apst.PCIID{}), ok, persist.ErrScope},
		{"unknown kind", persist.Scope{Kind: 99}, ok, persist.ErrScope},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rule, err := persist.UdevRule(tc.scope, tc.tol)
			require.ErrorIs(t, err, tc.want)
			assert.Empty(t, rule)
			assert.Regexp(t, `^persist: `, err.Error())
			if tc.want == persist.ErrScope {
				m, err := persist.UdevMatch(tc.scope)
				require.ErrorIs(t, err, persist.ErrScope)
				assert.Empty(t, m)
			}
		})
	}
	rule, err := persist.UdevRule(persist.ModelScope("Samsung SSD 990 EVO Plus *"), ok)
	require.NoError(t, err)
	assert.Equal(t, `ACTION=="add|change", SUBSYSTEM=="nvme", KERNEL=="nvme[0-9]*", ATTR{model}=="Samsung SSD 990 EVO Plus *", TEST=="power/pm_qos_latency_tolerance_us", ATTR{power/pm_qos_latency_tolerance_us}="25000"`, rule)
}

// The zero Fleet has no goal: Add refuses each drive and Rules has none.
func TestZeroFleet(t *testing.T) {
	var f persist.Fleet
	err := f.Add("Samsung SSD 990 EVO Plus 1TB", 100000, evoSteps)
	require.ErrorIs(t, err, persist.ErrGoal)
	assert.Contains(t, err.Error(), "NewFleet")
	assert.Empty(t, f.Rules())
	assert.Zero(t, f.Dropped)

	g, err := persist.ParseGoal("stall=25ms")
	require.NoError(t, err)
	nf, err := persist.NewFleet(g)
	require.NoError(t, err)
	require.NoError(t, nf.Add("Samsung SSD 990 EVO Plus 1TB", 100000, evoSteps))
	assert.Len(t, nf.Rules(), 1)
}

// Resolve of zero values is refused with an error that says so, wrapping
// apst's.
func TestResolveZero(t *testing.T) {
	_, err := persist.Resolve(&powerstate.Controller{}, apst.Params{}, persist.Goal{})
	require.ErrorIs(t, err, apst.ErrUnknownGeneration)
	assert.Regexp(t, `^persist: resolve: `, err.Error())
	_, err = persist.Resolve(nil, apst.DefaultParams(apst.Current), persist.Goal{Kind: persist.GoalDeepest})
	require.ErrorIs(t, err, apst.ErrNilController)
}

// The zero Choice is no choice: its Tolerance is unset, which nothing
// writes, rather than 0.
func TestZeroChoiceTolerance(t *testing.T) {
	tol := persist.Choice{}.Tolerance()
	assert.False(t, tol.Valid())
	_, err := persist.UdevRule(persist.AllControllers(), tol)
	require.ErrorIs(t, err, apst.ErrInvalidTolerance)
	assert.Equal(t, apst.Tolerance{Kind: apst.ToleranceValue, Value: 0}, persist.Choice{Rule: persist.RuleGiven}.Tolerance())
	assert.Equal(t, apst.Tolerance{Kind: apst.ToleranceAny}, persist.Choice{Bound: apst.NoLimit, Rule: persist.RuleRoundest}.Tolerance())
}
