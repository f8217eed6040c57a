package nvmeapst_test

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst/measure"
)

// The zero Problem is an error that says it has no message, not an empty
// one; a recorded message is replayed as is.
func TestZeroProblem(t *testing.T) {
	var p nvmeapst.Problem
	assert.Equal(t, "nvmeapst: a problem with no message (the zero Problem)", p.Error())
	assert.NotErrorIs(t, &p, os.ErrPermission)
	assert.Equal(t, "open x: permission denied", (&nvmeapst.Problem{Message: "open x: permission denied"}).Error())
	q := nvmeapst.NewProblem(&p)
	assert.Equal(t, p.Error(), q.Error())
}

// The zero Target has nothing to measure: Config refuses it, Setup has no
// controller (measure.Run refuses it), Close does nothing.
func TestZeroTarget(t *testing.T) {
	var tg nvmeapst.Target
	_, err := tg.Config("pm-qos=25000")
	require.ErrorIs(t, err, measure.ErrSetup)
	assert.Regexp(t, `^nvmeapst: .*OpenTarget`, err.Error())
	_, err = measure.Run(context.Background(), tg.Setup())
	require.ErrorIs(t, err, measure.ErrSetup)
	assert.NoError(t, tg.Close())
}
