package apst_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nvmeapst/nvmeapst/apst"
)

// nil where a pointer is taken is refused or answers nothing, never a
// panic: BuildTo without a Plan to write into, a nil Plan's warnings, a
// feature compared with no table, the quirks of no controller.
func TestNilArguments(t *testing.T) {
	assert.ErrorIs(t, apst.BuildTo(nil, nil, apst.DefaultParams(apst.Current)), apst.ErrNilPlan)
	var p apst.Plan
	assert.ErrorIs(t, apst.BuildTo(&p, nil, apst.DefaultParams(apst.Current)), apst.ErrNilController)
	assert.Nil(t, (*apst.Plan)(nil).Warnings())
	assert.False(t, (&apst.Feature{}).Equal(nil))
	assert.False(t, (*apst.Feature)(nil).Equal(&apst.Table{}))
	m := apst.DriveQuirks(nil, apst.Release{})
	assert.Zero(t, m.Quirks)
}
