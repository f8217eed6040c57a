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
