package analysis_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
)

// TestCheckPartial: a capture that shows only some entries is compared on
// those, and the verdict says what was compared and what was not.
func TestCheckPartial(t *testing.T) {
	c := loadAnalysisFixture(t, testfixture.Path(testfixture.Samsung990EVOPlus))
	p := apst.DefaultParams(apst.Current)
	unknownFrom := func(from int) apst.States {
		var s apst.States
		for i := from; i < apst.Entries; i++ {
			s |= 1 << i
		}
		return s
	}

	// Entries 0 to 2 shown, agreeing: a match on what was compared. Entry
	// 3 (->ps4@2000ms) is not shown: it would have told 25 ms from 100 ms.
	f := enabledFeature(evoTable(false))
	f.Unknown = unknownFrom(3)
	v, err := analysis.Check(c, p, f)
	require.NoError(t, err)
	assert.True(t, v.Match)
	assert.Empty(t, v.Differences)
	notes := strings.Join(v.Notes, "\n")
	assert.Contains(t, notes, "does not show entries 3-31")
	assert.Contains(t, notes, "compared: entries 0-2 and APSTE")

	// A shown entry that differs is a mismatch.
	f.Table[1] = apst.NewEntry(2, 50)
	v, err = analysis.Check(c, p, f)
	require.NoError(t, err)
	assert.False(t, v.Match)
	require.Len(t, v.Differences, 1)
	assert.Equal(t, analysis.EntryDiff{State: 1, Expected: evoPS3, Drive: apst.NewEntry(2, 50),
		Decision: apst.Decision{State: 2, Reason: apst.ReasonOperational, Entry: evoPS3},
		Reason:   "the kernel does not target ps2: operational state (NOPS clear)"}, v.Differences[0])

	// The header and APSTE only: APSTE is all that is compared.
	g := apst.Feature{APSTE: apst.APSTEDisabled, Unknown: unknownFrom(0)}
	v, err = analysis.Check(c, p, g)
	require.NoError(t, err)
	assert.False(t, v.Match, "the kernel enables APST")
	assert.True(t, v.APSTEDiffers)
	assert.Empty(t, v.Differences)
	assert.Contains(t, strings.Join(v.Notes, "\n"), "compared: APSTE only")
}
