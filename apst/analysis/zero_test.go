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
