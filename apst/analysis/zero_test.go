package analysis_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// The empty Timeline (the zero value) is ps0 with no exit latency at every
// idle time, as a controller that never leaves ps0; no index out of range.
func TestZeroTimeline(t *testing.T) {
	var tl analysis.Timeline
	for _, idle := range []apst.Microseconds{0, 1, apst.NoLimit} {
		assert.Equal(t, analysis.Step{}, tl.At(idle))
		assert.Equal(t, analysis.Wake{Gap: idle}, tl.WakeAfter(idle, analysis.SimOptions{}))
	}
	var sim analysis.Simulation
	assert.Equal(t, analysis.Wake{Gap: 5}, sim.WakeAfter(5))
	assert.Equal(t, apst.States(0), tl.States())
}

// Sweep and Intervals of zero values say the package called and keep
// apst's sentinel.
func TestSweepZeroParams(t *testing.T) {
	_, err := analysis.Sweep(&powerstate.Controller{}, apst.Params{})
	require.ErrorIs(t, err, apst.ErrUnknownGeneration)
	assert.Regexp(t, `^analysis: apst: `, err.Error())
	_, err = analysis.Intervals(nil, apst.DefaultParams(apst.Current))
	require.ErrorIs(t, err, apst.ErrNilController)
	assert.Regexp(t, `^analysis: `, err.Error())
}

// Every analysis that refuses a nil controller says the package called and
// keeps apst's sentinel (Compare and Simulate returned "apst: nil
// controller" as is); ReplaySeq refuses a nil iterator as Replay refuses a
// nil source, instead of panicking.
func TestNilInputsRefused(t *testing.T) {
	p := apst.DefaultParams(apst.Current)
	_, err := analysis.Compare(nil, analysis.Config{Params: p}, analysis.Config{Params: p})
	require.ErrorIs(t, err, apst.ErrNilController)
	assert.Regexp(t, `^analysis: `, err.Error())
	_, err = analysis.Simulate(nil, nil, []apst.Microseconds{1}, analysis.SimOptions{})
	require.ErrorIs(t, err, apst.ErrNilController)
	assert.Regexp(t, `^analysis: `, err.Error())
	var c powerstate.Controller
	require.NotPanics(t, func() {
		_, err = analysis.ReplaySeq(&c, nil, analysis.ReplayConfig{Params: p})
	})
	require.ErrorIs(t, err, analysis.ErrReplayEvent)
}

// IdleTimeline and Simulate take a state above 31 for no state, not for the
// state its low five bits name (start 40 once gave ps8's timeline), and a
// nil table or controller as Reachability does, without panicking.
func TestTimelineOutOfRange(t *testing.T) {
	var c powerstate.Controller
	c.NPSS = 8
	c.PowerStates[8] = powerstate.Descriptor{NonOperational: true, ExitLatency: 5000, MaxPower: powerstate.MaxPowerOf(5, false)}
	c.PowerStates[3] = powerstate.Descriptor{NonOperational: true, ExitLatency: 100, MaxPower: powerstate.MaxPowerOf(50, false)}
	var tab apst.Table
	tab[8] = apst.NewEntry(3, 10)
	assert.Equal(t, analysis.Timeline{{State: 40}}, analysis.IdleTimeline(&c, &tab, 40))
	assert.Equal(t, analysis.Timeline{{State: 8, MaxPower: c.PowerStates[8].MaxPower}}, analysis.IdleTimeline(&c, nil, 8))
	assert.Equal(t, analysis.Timeline{{State: 8}, {State: 3, From: 10000}}, analysis.IdleTimeline(nil, &tab, 8))
	_, err := analysis.Simulate(&c, &tab, []apst.Microseconds{1}, analysis.SimOptions{Start: 40})
	require.Error(t, err)
	assert.Regexp(t, `^analysis: `, err.Error())
	sim, err := analysis.Simulate(&c, nil, []apst.Microseconds{1}, analysis.SimOptions{Start: 8})
	require.NoError(t, err)
	assert.Equal(t, uint64(1), sim.Wakes[8])
}
