package analysis_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
)

// A gap or gap list that does not read is ErrInvalidGaps, said by analysis
// (and apst's error beneath, for a duration it could not read), as
// DrawGaps documents: the duration's error had passed through alone.
func TestGapErrorsAreAnalysis(t *testing.T) {
	for _, in := range []string{"x", "", "1.5us", "0.0001us", "10"} {
		_, err := analysis.ParseGapDuration(in)
		assert.ErrorIs(t, err, analysis.ErrInvalidGaps, in)
		assert.ErrorContains(t, err, "analysis: ", in)
	}
	_, err := analysis.ParseGapDuration("x")
	assert.ErrorIs(t, err, apst.ErrInvalidConfig)
	for _, spec := range []string{"10ms,x", "10ms,-5ms", "10ms,,2s", "exp:x"} {
		_, err := analysis.DrawGaps(spec, 3, 1)
		assert.ErrorIs(t, err, analysis.ErrInvalidGaps, spec)
	}
}
