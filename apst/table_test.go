package apst_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

func TestEntry(t *testing.T) {
	e := apst.NewEntry(3, 100)
	assert.Equal(t, apst.Entry(0x6418), e)
	assert.Equal(t, uint8(3), e.TargetState())
	assert.Equal(t, apst.Milliseconds(100), e.IdleTime())
	assert.Equal(t, "->ps3@100ms", e.String())
	assert.Zero(t, e.Reserved())
	assert.False(t, e.ReservedLow())
	assert.True(t, (e | 4).ReservedLow(), "bit 2")

	// Tolerance-mode timeouts are not masked (kernel-apst.md §4.5).
	big := apst.NewEntry(4, 1<<24)
	assert.Equal(t, apst.Entry(0x0000000100000020), big)
	assert.Equal(t, apst.Milliseconds(0), big.IdleTime(), "ITPT's 24 bits hold 0")
	assert.Equal(t, uint64(1)<<32, big.Reserved())
	assert.False(t, big.ReservedLow(), "a spilled timeout is no sign of random bytes")
	assert.Contains(t, big.String(), "raw")
	assert.Equal(t, apst.Entry(0x20), apst.NewEntry(4, 1<<56), "2^56 shifts out of the u64")
	assert.Equal(t, "-", apst.Entry(0).String())
}

func TestTableErrors(t *testing.T) {
	_, err := apst.DecodeTable(make([]byte, 255))
	require.ErrorIs(t, err, apst.ErrTableSize)
	assert.Contains(t, err.Error(), "255")
	_, err = apst.DecodeFeature(1, make([]byte, 257))
	require.ErrorIs(t, err, apst.ErrTableSize)
	f, err := apst.DecodeFeature(1, make([]byte, 256))
	require.NoError(t, err)
	assert.Equal(t, apst.APSTEEnabled, f.APSTE)
}

func TestReachable(t *testing.T) {
	var tab apst.Table
	tab[0], tab[1], tab[2] = apst.NewEntry(3, 100), apst.NewEntry(3, 100), apst.NewEntry(3, 100)
	tab[3] = apst.NewEntry(4, 2000)
	assert.Equal(t, apst.States(1<<0|1<<3|1<<4), tab.Reachable(0))
	assert.Equal(t, apst.States(1<<4), tab.Reachable(4))
	// A cycle (not something the kernel builds) terminates.
	tab[4] = apst.NewEntry(3, 1)
	assert.Equal(t, apst.States(1<<0|1<<3|1<<4), tab.Reachable(0))
}

func TestBuildErrors(t *testing.T) {
	_, err := apst.Build(nil, apst.DefaultParams(apst.Current))
	require.ErrorIs(t, err, apst.ErrNilController)
	var c powerstate.Controller
	_, err = apst.Build(&c, apst.Params{Generation: 7})
	require.ErrorIs(t, err, apst.ErrUnknownGeneration)
}

// TestStateAboveRange: a state above 31 is no state, not the state its low
// five bits name (Decision(35) once gave state 3's verdict).
func TestStateAboveRange(t *testing.T) {
	c := powerstate.Controller{APSTA: 1, NPSS: 4}
	c.PowerStates[3] = powerstate.Descriptor{NonOperational: true, EntryLatency: 1000, ExitLatency: 1000}
	plan, err := apst.Build(&c, apst.DefaultParams(apst.Current))
	require.NoError(t, err)
	require.True(t, plan.Reasons[3].Selected())
	for _, s := range []uint8{32, 35, 255} {
		d := plan.Decision(s)
		assert.Equal(t, apst.Decision{State: s, Reason: apst.ReasonBeyondNPSS}, d, "state %d", s)
		assert.Zero(t, plan.IdleTime(s), "state %d", s)
		assert.Contains(t, plan.Explain(&c, s), "no such state", "state %d", s)
		assert.Zero(t, plan.Table.Reachable(s), "state %d", s)
		assert.Zero(t, (*apst.Table)(nil).Reachable(s), "state %d", s)
	}
}
