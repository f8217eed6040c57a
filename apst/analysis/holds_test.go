package analysis_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/apsttest"
)

// Holds is Check's Match, whatever the drive holds: the plan's own table,
// the plan of other parameters, one entry changed, APSTE flipped or
// unknown, entries unrecorded.
func TestHoldsIsCheckMatch(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := apsttest.Controller().Draw(t, "controller")
		p := apsttest.ParamsFor(&c).Draw(t, "params")
		plan, err := apst.Build(&c, p)
		if err != nil {
			t.Skip("no plan")
		}
		drive := apst.Feature{APSTE: apst.APSTEOf(plan.Enabled), Table: plan.Table}
		switch rapid.IntRange(0, 4).Draw(t, "variant") {
		case 1:
			other := apsttest.ParamsFor(&c).Draw(t, "other")
			if op, err := apst.Build(&c, other); err == nil {
				drive.Table = op.Table
			}
		case 2:
			i := rapid.IntRange(0, len(drive.Table)-1).Draw(t, "entry")
			drive.Table[i] = apst.Entry(rapid.Uint64().Draw(t, "value"))
		case 3:
			drive.APSTE = apst.APSTE(rapid.IntRange(0, 2).Draw(t, "apste"))
		case 4:
			drive.Unknown = apst.States(rapid.Uint32().Draw(t, "unknown"))
			drive.Table[rapid.IntRange(0, len(drive.Table)-1).Draw(t, "entry")] ^= 0x18
		}
		chk, err := analysis.Check(&c, p, drive)
		require.NoError(t, err)
		assert.Equal(t, chk.Match, analysis.Holds(&plan, &drive))
	})
}

func TestHoldsNil(t *testing.T) {
	assert.False(t, analysis.Holds(nil, &apst.Feature{}))
	assert.False(t, analysis.Holds(&apst.Plan{}, nil))
	assert.True(t, analysis.Holds(&apst.Plan{}, &apst.Feature{APSTE: apst.APSTEDisabled}))
	assert.Zero(t, testing.AllocsPerRun(10, func() { analysis.Holds(&apst.Plan{}, &apst.Feature{}) }))
}
