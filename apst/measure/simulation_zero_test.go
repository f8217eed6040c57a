package measure_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/measure"
)

// The zero Simulation has no drive: each method that can fail refuses it
// with ErrSetup, and it reports no elapsed time; nothing panics.
func TestZeroSimulation(t *testing.T) {
	var m measure.Simulation
	checks := map[string]error{
		"ReadAt":       m.ReadAt(0),
		"Sleep":        m.Sleep(context.Background(), 1),
		"SetTolerance": m.SetTolerance(apst.Tolerance{Kind: apst.ToleranceAny}),
	}
	_, checks["Tolerance"] = m.Tolerance()
	_, checks["IOActivity"] = m.IOActivity()
	for name, err := range checks {
		require.ErrorIs(t, err, measure.ErrSetup, name)
		assert.Contains(t, err.Error(), "NewSimulation", name)
	}
	assert.Zero(t, m.Elapsed())
	assert.Zero(t, m.ToleranceWrites())
	_, err := measure.Run(context.Background(), m.Setup())
	require.ErrorIs(t, err, measure.ErrSetup)
}

// The zero Config has no generation: its Tolerance is refused rather than
// 0 (APST off), and Run refuses it before changing anything.
func TestZeroConfigTolerance(t *testing.T) {
	tol, err := measure.Config{}.Tolerance()
	require.ErrorIs(t, err, measure.ErrSetup)
	assert.False(t, tol.Valid())
	p := apst.DefaultParams(apst.Current)
	p.Bound = 0
	tol, err = measure.Config{Params: p}.Tolerance()
	require.NoError(t, err)
	assert.Equal(t, apst.Tolerance{Kind: apst.ToleranceValue}, tol)
}
