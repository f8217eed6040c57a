package survey_test

import (
	"github.com/nvmeapst/nvmeapst/internal/surveytest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/survey"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// EvaluateWith with the configurations' own parameters is Evaluate; with a
// machine's (a bundle's quirk set, say) it plans with those, and the row's
// quirks are that set.
func TestEvaluateWith(t *testing.T) {
	c, err := capture.ParseBytes(testfixture.ReadFile(t, "identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin"))
	require.NoError(t, err)
	configs := surveytest.Configs(t, "ps-max-latency-us=100000", "ps-max-latency-us=25000")
	s, err := survey.NewWithOptions(survey.Options{KernelQuirks: true}, configs...)
	require.NoError(t, err)

	var want, got survey.Row
	require.NoError(t, s.Evaluate(&want, "evo", &c))
	require.NoError(t, s.EvaluateWith(&got, "evo", &c, []apst.Params{configs[0].Params, configs[1].Params}))
	assert.Equal(t, want.Results, got.Results)
	assert.Equal(t, want.Changes, got.Changes)
	assert.Equal(t, want.Sweep, got.Sweep)

	// The machine disables APST (a DMI quirk): no change, whatever the bound.
	machine := make([]apst.Params, 2)
	for i := range machine {
		machine[i] = configs[i].Params
		machine[i].Quirks, machine[i].QuirksGiven = apst.QuirkNoAPST, true
	}
	require.NoError(t, s.EvaluateWith(&got, "evo", &c, machine))
	assert.Equal(t, apst.QuirkNoAPST, got.Quirks)
	assert.False(t, got.Changed)
	assert.False(t, got.Results[0].Plan.Enabled)
	assert.Zero(t, got.Changes[0].PowerDelta)
	assert.Equal(t, machine[1], got.Results[1].Config.Params)
	assert.Equal(t, configs[1].Name, got.Results[1].Config.Name)
	require.NoError(t, s.AddRecord(got.Record()))
	assert.Equal(t, 1, s.Len())

	err = s.EvaluateWith(&got, "evo", &c, machine[:1])
	require.ErrorIs(t, err, survey.ErrBadParams)
	assert.Contains(t, err.Error(), `survey: drive "evo"`)
	bad := []apst.Params{machine[0], {}}
	bad[1].Generation = 200
	err = s.EvaluateWith(&got, "evo", &c, bad)
	require.ErrorIs(t, err, survey.ErrBadParams)
	require.ErrorIs(t, err, apst.ErrUnknownGeneration)
	require.ErrorIs(t, new(survey.Survey).EvaluateWith(&got, "evo", &c, machine), survey.ErrNotCreated)
	require.ErrorIs(t, s.EvaluateWith(&got, "evo", nil, machine), apst.ErrNilController)
}
