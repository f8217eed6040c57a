package persist_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/persist"
	"github.com/nvmeapst/nvmeapst/apst/survey"
)

// The 990 EVO Plus sweep: APST off, nothing, ps3 (4600us, 80 mW), ps4
// (43000us, 7 mW).
var evoSteps = []survey.Step{
	{Min: 0, Reach: 1, DeepestMaxPower: 6000000},
	{Min: 4600, WorstExitLatency: 4600, DeepestMaxPower: 80000, Reach: 1 | 1<<3},
	{Min: 43000, WorstExitLatency: 43000, DeepestMaxPower: 7000, Reach: 1 | 1<<3 | 1<<4},
}

// A drive whose only non-operational state exits in 50 ms.
var slowSteps = []survey.Step{
	{Min: 0, Reach: 1, DeepestMaxPower: 4700000},
	{Min: 50000, WorstExitLatency: 50000, DeepestMaxPower: 5000, Reach: 1 | 1<<3},
}

// A drive that meets a 25 ms goal at the default.
var fastSteps = []survey.Step{
	{Min: 0, Reach: 1, DeepestMaxPower: 9000000},
	{Min: 300, WorstExitLatency: 300, DeepestMaxPower: 70000, Reach: 1 | 1<<3},
}

func TestFleetRules(t *testing.T) {
	g, err := persist.ParseGoal("stall=25ms")
	require.NoError(t, err)
	f, err := persist.NewFleet(g)
	require.NoError(t, err)
	f.Add("Samsung SSD 990 EVO Plus 1TB ", 100000, evoSteps)
	f.Add("Samsung SSD 990 EVO Plus 1TB", 100000, evoSteps)
	f.Add("INTEL SSDPEKKW256G7", 100000, fastSteps)
	f.Add("SLOW", 100000, slowSteps)
	rules := f.Rules()
	require.Len(t, rules, 3)

	evo := rules[0]
	assert.Equal(t, "Samsung SSD 990 EVO Plus 1TB", evo.Model)
	assert.Equal(t, 2, evo.Drives)
	assert.True(t, evo.Needed)
	assert.Equal(t, apst.Microseconds(25000), evo.Choice.Bound)
	assert.Equal(t, apst.MicroWatts(2*73000), evo.PowerCost)
	assert.Equal(t, apst.Microseconds(43000), evo.StallBefore)
	assert.Equal(t, apst.Microseconds(4600), evo.StallAfter)
	assert.Contains(t, evo.Rule, `ATTR{model}=="Samsung SSD 990 EVO Plus 1TB"`)
	assert.Contains(t, evo.Rule, `ATTR{power/pm_qos_latency_tolerance_us}="25000"`)

	assert.False(t, rules[1].Needed, "the Intel meets the goal at the default")
	assert.Empty(t, rules[1].Rule)

	slow := rules[2]
	assert.True(t, slow.Needed)
	assert.True(t, slow.NoState)
	assert.Equal(t, apst.Microseconds(25000), slow.Choice.Bound)
	assert.Equal(t, apst.MicroWatts(4700000-5000), slow.PowerCost)

	_, err = persist.NewFleet(persist.Goal{Kind: persist.GoalBound, Bound: 1})
	assert.ErrorIs(t, err, persist.ErrGoal)
}

// Two firmware revisions of one model that need disjoint bounds get no
// rule.
func TestFleetConflict(t *testing.T) {
	f, err := persist.NewFleet(persist.Goal{Kind: persist.GoalBar, Bar: 1 << 4})
	require.NoError(t, err)
	f.Add("M", 100000, evoSteps)
	f.Add("M", 100000, []survey.Step{
		{Min: 0, Reach: 1, DeepestMaxPower: 6000000},
		{Min: 50000, WorstExitLatency: 50000, DeepestMaxPower: 80000, Reach: 1 | 1<<3},
	})
	rules := f.Rules()
	require.Len(t, rules, 1)
	assert.True(t, rules[0].Conflict)
	assert.Empty(t, rules[0].Rule)
}

// A sweep that is no partition of the bounds is refused and the drive not
// recorded: an empty one had read as a drive no bound suits, whose rule
// turned APST off (bound 0) for its model.
func TestFleetRefusesEmptySweep(t *testing.T) {
	for _, goal := range []string{"deepest", "stall=25ms", "power=10mW"} {
		g, err := persist.ParseGoal(goal)
		require.NoError(t, err)
		f, err := persist.NewFleet(g)
		require.NoError(t, err)
		for name, steps := range map[string][]survey.Step{
			"none":           nil,
			"empty":          {},
			"not from 0":     evoSteps[1:],
			"not rising":     {evoSteps[0], evoSteps[2], evoSteps[1]},
			"a repeated min": {evoSteps[0], evoSteps[1], evoSteps[1]},
		} {
			assert.ErrorIs(t, f.Add("Samsung SSD 990 EVO Plus 1TB", 100000, steps), persist.ErrNoRange, "%s %s", goal, name)
		}
		assert.Empty(t, f.Rules(), goal)
		require.NoError(t, f.Add("Samsung SSD 990 EVO Plus 1TB", 100000, evoSteps))
		rules := f.Rules()
		require.Len(t, rules, 1, goal)
		assert.False(t, rules[0].NoState, "%s: APST stays on", goal)
	}
}

// A nil Fleet has no rules (and no panic).
func TestNilFleetRules(t *testing.T) {
	assert.Empty(t, (*persist.Fleet)(nil).Rules())
}
