package apsttest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/apsttest"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// TestSpillException shows the documented exception: with a primary
// timeout of 2^24 ms, a bound that admits a primary target cuts the path to
// the secondary target a smaller bound reached.
func TestSpillException(t *testing.T) {
	c := &powerstate.Controller{NPSS: 2, APSTA: 1}
	c.PowerStates[1] = powerstate.Descriptor{NonOperational: true, EntryLatency: 0, ExitLatency: 10000}    // primary band, exit 10000
	c.PowerStates[2] = powerstate.Descriptor{NonOperational: true, EntryLatency: 50000, ExitLatency: 5000} // secondary band, exit 5000
	p := apst.DefaultParams(apst.Current)
	p.PrimaryTimeout = 1 << 24
	require.True(t, apsttest.TimeoutSpills(p))
	p.Bound = 5000
	a, err := apst.Build(c, p)
	require.NoError(t, err)
	p.Bound = 10000
	b, err := apst.Build(c, p)
	require.NoError(t, err)
	assert.Equal(t, 2, a.Table.Reachable(0).Deepest())
	assert.Equal(t, 0, b.Table.Reachable(0).Deepest(), "ps0 ->ps1 has ITPT 0: no transition")
	assert.GreaterOrEqual(t, b.MaxPS, a.MaxPS)

	p.PrimaryTimeout = apsttest.MaxITPT
	assert.False(t, apsttest.TimeoutSpills(p))
	p.Generation = apst.V4_12
	p.PrimaryTimeout = 1 << 56
	assert.False(t, apsttest.TimeoutSpills(p), "the heuristic reads no timeout")
}
