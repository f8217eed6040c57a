package apst_test

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
)

// TestUnits: NoLimit in seconds is +Inf (its Duration saturates, which a
// caller must not read as a limit of 292 years), and the energy type prints
// in joules.
func TestUnits(t *testing.T) {
	require.True(t, math.IsInf(apst.NoLimit.Seconds(), 1))
	require.Equal(t, 0.025, apst.Microseconds(25000).Seconds())
	require.Equal(t, time.Duration(math.MaxInt64), apst.NoLimit.Duration())
	require.Equal(t, 25*time.Millisecond, apst.Microseconds(25000).Duration())
	require.Equal(t, "65.6642J", apst.MicroJoules(65664200).String())
	require.Equal(t, "-0.0010J", apst.MicroJoules(-1000).String())
	require.Equal(t, 2.5, apst.MicroJoules(2500000).Joules())
}
