package apsttest_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/apsttest"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

func TestPlanProperty(t *testing.T) { rapid.Check(t, planProperty) }

// goodPlan is the Samsung 990 EVO Plus's shape under the defaults: ps3
// primary, ps4 secondary.
func goodPlan(t *testing.T) (*powerstate.Controller, apst.Params, apst.Plan) {
	t.Helper()
	c := &powerstate.Controller{NPSS: 4, APSTA: 1}
	for i := range c.PowerStates {
		c.PowerStates[i].NonOperational = i >= 3
	}
	c.PowerStates[3].EntryLatency, c.PowerStates[3].ExitLatency = 1600, 4600
	c.PowerStates[4].EntryLatency, c.PowerStates[4].ExitLatency = 1600, 43000
	p := apst.DefaultParams(apst.Current)
	plan, err := apst.Build(c, p)
	require.NoError(t, err)
	require.NoError(t, apsttest.Check(c, p, &plan))
	require.Equal(t, 4, plan.MaxPS)
	return c, p, plan
}

// TestCheckReportsEachInvariant mutates a good plan so that exactly one
// invariant breaks first and checks that Check names it.
func TestCheckReportsEachInvariant(t *testing.T) {
	cases := []struct {
		inv    apsttest.Invariant
		mutate func(c *powerstate.Controller, p *apst.Params, plan *apst.Plan)
	}{
		{apsttest.InvInputs, func(_ *powerstate.Controller, _ *apst.Params, plan *apst.Plan) { plan.NPSS = 5 }},
		{apsttest.InvInputs, func(_ *powerstate.Controller, _ *apst.Params, plan *apst.Plan) { plan.Params.Bound = 7 }},
		{apsttest.InvSent, func(_ *powerstate.Controller, _ *apst.Params, plan *apst.Plan) { plan.Sent = false }},
		{apsttest.InvOutcome, func(_ *powerstate.Controller, _ *apst.Params, plan *apst.Plan) { plan.Outcome = apst.OutcomeNoStates }},
		{apsttest.InvBoundZero, func(_ *powerstate.Controller, p *apst.Params, plan *apst.Plan) { p.Bound, plan.Params.Bound = 0, 0 }},
		{apsttest.InvZeroTable, func(_ *powerstate.Controller, _ *apst.Params, plan *apst.Plan) {
			plan.Enabled, plan.Outcome = false, apst.OutcomeDisabled
		}},
		{apsttest.InvReasons, func(_ *powerstate.Controller, _ *apst.Params, plan *apst.Plan) {
			plan.Reasons[7] = apst.ReasonOperational
		}},
		{apsttest.InvReasons, func(_ *powerstate.Controller, _ *apst.Params, plan *apst.Plan) {
			plan.Reasons[1] = apst.ReasonNotEvaluated
		}},
		{apsttest.InvSelectedNonOperational, func(_ *powerstate.Controller, _ *apst.Params, plan *apst.Plan) { plan.Reasons[2] = apst.ReasonPrimary }},
		{apsttest.InvSelectedWithinBound, func(_ *powerstate.Controller, p *apst.Params, plan *apst.Plan) {
			p.Bound, plan.Params.Bound = 42999, 42999
		}},
		{apsttest.InvNoDeepestPS, func(_ *powerstate.Controller, p *apst.Params, plan *apst.Plan) {
			p.Quirks, plan.Params.Quirks = apst.QuirkNoDeepestPS, apst.QuirkNoDeepestPS
			plan.Quirks.Applied |= apst.QuirkNoDeepestPS
		}},
		{apsttest.InvQuirks, func(_ *powerstate.Controller, _ *apst.Params, plan *apst.Plan) {
			plan.Quirks.Applied |= apst.QuirkNoAPST
		}},
		{apsttest.InvQuirks, func(_ *powerstate.Controller, _ *apst.Params, plan *apst.Plan) {
			plan.Quirks.Skipped = true
		}},
		{apsttest.InvBands, func(_ *powerstate.Controller, _ *apst.Params, plan *apst.Plan) { plan.Reasons[4] = apst.ReasonPrimary }},
		{apsttest.InvBands, func(_ *powerstate.Controller, _ *apst.Params, plan *apst.Plan) {
			plan.Reasons[3] = apst.ReasonHeuristic
		}},
		{apsttest.InvMaxPS, func(_ *powerstate.Controller, _ *apst.Params, plan *apst.Plan) { plan.MaxPS = 3 }},
		{apsttest.InvMaxRoundTrip, func(_ *powerstate.Controller, _ *apst.Params, plan *apst.Plan) { plan.MaxRoundTrip = 6200 }},
		{apsttest.InvDeepestZero, func(_ *powerstate.Controller, _ *apst.Params, plan *apst.Plan) { plan.Table[5] = 1 }},
		{apsttest.InvEntryDeeper, func(_ *powerstate.Controller, _ *apst.Params, plan *apst.Plan) { plan.Table[1] = apst.NewEntry(1, 5) }},
		{apsttest.InvEntryDeeper, func(_ *powerstate.Controller, _ *apst.Params, plan *apst.Plan) { plan.Table[1] = apst.NewEntry(9, 5) }},
		{apsttest.InvEntryTarget, func(_ *powerstate.Controller, _ *apst.Params, plan *apst.Plan) { plan.Table[0] = apst.NewEntry(1, 100) }},
		{apsttest.InvEntryTarget, func(c *powerstate.Controller, _ *apst.Params, plan *apst.Plan) {
			c.PowerStates[2].NonOperational = true
			plan.Reasons[2] = apst.ReasonAboveTolerance
			plan.Table[0] = apst.NewEntry(2, 100)
		}},
		{apsttest.InvEntries, func(_ *powerstate.Controller, _ *apst.Params, plan *apst.Plan) { plan.Table[1] = apst.NewEntry(3, 101) }},
		{apsttest.InvEntries, func(_ *powerstate.Controller, _ *apst.Params, plan *apst.Plan) {
			plan.Table[0] = apst.NewEntry(4, 2000)
		}},
		{apsttest.InvEntries, func(_ *powerstate.Controller, _ *apst.Params, plan *apst.Plan) { plan.Table[2] = 0 }},
	}
	covered := map[apsttest.Invariant]bool{}
	for _, tc := range cases {
		c, p, plan := goodPlan(t)
		tc.mutate(c, &p, &plan)
		err := apsttest.Check(c, p, &plan)
		var v *apsttest.Violation
		require.True(t, errors.As(err, &v), "%s: got %v", tc.inv, err)
		assert.Equal(t, tc.inv, v.Invariant, "%v", err)
		assert.Contains(t, err.Error(), "apsttest: plan breaks invariant "+string(tc.inv)+": ")
		covered[tc.inv] = true
	}
	for _, inv := range apsttest.Invariants() {
		assert.True(t, covered[inv], "no mutation breaks %s", inv)
	}
	require.ErrorIs(t, apsttest.Check(nil, apst.Params{}, &apst.Plan{}), apsttest.ErrNilInput)
}

// TestCheckOnHeuristicAndUnsent covers the other modes and outcomes on a
// good plan.
func TestCheckOnHeuristicAndUnsent(t *testing.T) {
	c, _, _ := goodPlan(t)
	for _, g := range apst.Generations() {
		for _, mut := range []func(*powerstate.Controller, *apst.Params){
			func(*powerstate.Controller, *apst.Params) {},
			func(c *powerstate.Controller, _ *apst.Params) { c.APSTA = 0 },
			func(c *powerstate.Controller, _ *apst.Params) { c.NPSS = 40 },
			func(c *powerstate.Controller, _ *apst.Params) { c.Missing |= powerstate.FieldAPSTA },
			func(_ *powerstate.Controller, p *apst.Params) { p.Quirks = apst.QuirkNoAPST },
			func(_ *powerstate.Controller, p *apst.Params) { p.Quirks, p.ForceAPST = apst.QuirksAPST, true },
			func(_ *powerstate.Controller, p *apst.Params) { p.Bound = 0 },
			func(_ *powerstate.Controller, p *apst.Params) { p.Bound = 1 },
		} {
			cc := *c
			p := apst.DefaultParams(g)
			mut(&cc, &p)
			plan, err := apst.Build(&cc, p)
			require.NoError(t, err)
			require.NoError(t, apsttest.Check(&cc, p, &plan), "%s %+v", g, p)
		}
	}
}
