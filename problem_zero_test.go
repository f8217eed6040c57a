package nvmeapst_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nvmeapst/nvmeapst"
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
