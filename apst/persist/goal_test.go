package persist_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/persist"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

func TestParseGoal(t *testing.T) {
	for s, want := range map[string]persist.Goal{
		"25000":       {Kind: persist.GoalBound, Bound: 25000},
		"any":         {Kind: persist.GoalBound, Bound: apst.NoLimit},
		"0":           {Kind: persist.GoalBound},
		"stall=25ms":  {Kind: persist.GoalStall, Stall: 25000},
		"bar=ps4":     {Kind: persist.GoalBar, Bar: 1 << 4},
		"power=10mW":  {Kind: persist.GoalPower, Power: 10000},
		"power=0.07W": {Kind: persist.GoalPower, Power: 70000},
		"deepest":     {Kind: persist.GoalDeepest},
	} {
		g, err := persist.ParseGoal(s)
		require.NoError(t, err, s)
		assert.Equal(t, want, g, s)
		back, err := persist.ParseGoal(g.String())
		require.NoError(t, err, g.String())
		assert.Equal(t, g, back)
	}
	for _, s := range []string{"", "-1", "2147483647", "stall=x", "bar=", "power=10", "power=-1mW", "power=NaNW", "power=nanmW", "power=InfW", "power=+1mW", "power=1e3mW", "power=0x1p3W", "power=1_0mW", "power=.mW", "power= 1mW", "010", "00", "fast", "x=1"} {
		_, err := persist.ParseGoal(s)
		assert.ErrorIs(t, err, persist.ErrGoal, s)
	}
}

func TestResolve(t *testing.T) {
	evo, err := capture.ParseBytes(testfixture.ReadFile(t, testfixture.Samsung990EVOPlus))
	require.NoError(t, err)
	p := apst.DefaultParams(apst.Current)
	for _, tc := range []struct {
		goal    string
		bound   apst.Microseconds
		deepest uint8
	}{
		{"stall=25ms", 25000, 3},
		{"deepest", 100000, 4},
		{"power=10mW", 100000, 4},
		{"power=100mW", 40000, 3}, // ps3 at 80 mW is within 100 mW with the smaller stall
		{"bar=ps4", 40000, 3},
		{"5500", 5500, 3},
	} {
		g, err := persist.ParseGoal(tc.goal)
		require.NoError(t, err)
		a, err := persist.Resolve(&evo, p, g)
		require.NoError(t, err, tc.goal)
		assert.Equal(t, tc.bound, a.Choice.Bound, "%s: %s", tc.goal, a.Choice.Why)
		assert.Equal(t, tc.deepest, a.Reach.Deepest, tc.goal)
	}
	_, err = persist.Resolve(&evo, p, persist.Goal{Kind: persist.GoalStall, Stall: 100})
	assert.ErrorIs(t, err, persist.ErrGoal)
	_, err = persist.Resolve(&evo, p, persist.Goal{Kind: persist.GoalPower, Power: 1})
	assert.ErrorIs(t, err, persist.ErrGoal)
	_, err = persist.Resolve(&evo, p, persist.Goal{})
	assert.ErrorIs(t, err, persist.ErrGoal)
	assert.ErrorContains(t, err, "unset goal")
	_, err = persist.Resolve(&evo, p, persist.Goal{Kind: 42})
	assert.ErrorIs(t, err, persist.ErrGoal)
	assert.ErrorContains(t, err, "unknown goal kind 42")
}

// TestParseGoalKeepsTheCause: a goal's value error keeps apst's sentinel
// in the chain beside ErrGoal.
func TestParseGoalKeepsTheCause(t *testing.T) {
	_, err := persist.ParseGoal("stall=25parsecs")
	require.ErrorIs(t, err, persist.ErrGoal)
	require.ErrorIs(t, err, apst.ErrInvalidConfig)
}

// A bound goal above MaxValue is the "any" it is written as: the choice is
// NoLimit, as Choice.Bound promises, and the reach is NoLimit's, which
// takes a state whose exit latency is above 2^31-1 µs (the reach was
// that of the literal bound 2147483647, without it).
func TestResolveBoundAboveMaxValue(t *testing.T) {
	c := powerstate.Controller{APSTA: 1, NPSS: 3}
	c.PowerStates[3] = powerstate.Descriptor{NonOperational: true, EntryLatency: 1, ExitLatency: 3_000_000_000}
	for _, b := range []apst.Microseconds{persist.MaxValue + 1, apst.NoLimit - 1, apst.NoLimit} {
		a, err := persist.Resolve(&c, apst.DefaultParams(apst.V4_12), persist.Goal{Kind: persist.GoalBound, Bound: b})
		require.NoError(t, err)
		assert.Equal(t, apst.NoLimit, a.Choice.Bound, "bound %d", b)
		assert.Equal(t, uint8(3), a.Reach.Deepest, "bound %d", b)
		assert.Equal(t, apst.Tolerance{Kind: apst.ToleranceAny}, a.Choice.Tolerance())
	}
}

// Every power goal ParseGoal can hold is written by String as it reads it
// back, whatever its size (String once wrote 1e+06mW, which is no plain
// decimal).
func TestPowerGoalRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := persist.Goal{Kind: persist.GoalPower, Power: apst.MicroWatts(rapid.Uint64Range(0, 1e12).Draw(t, "uW"))}
		back, err := persist.ParseGoal(g.String())
		if err != nil || back != g {
			t.Fatalf("%+v written as %q reads back as %+v, %v", g, g.String(), back, err)
		}
	})
}
