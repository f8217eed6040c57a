package measure_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/measure"
)

// A drive takes only the bound from pm_qos_latency_tolerance_us: a
// configuration that changes anything else is refused (live machines and
// simulations alike), one naming the drive's own quirks is not.
func TestParseConfigOnlyTheBound(t *testing.T) {
	base := apst.DefaultParams(apst.Current)
	base.Quirks = apst.QuirkNoDeepestPS
	for _, text := range []string{"ps-max-latency-us=25000", "ps-max-latency-us=0", "quirks=no-deepest-ps,ps-max-latency-us=5500"} {
		c, err := measure.ParseConfig(text, base)
		require.NoError(t, err, text)
		assert.Equal(t, text, c.Text)
		assert.Equal(t, base.QuirksGiven, c.Params.QuirksGiven, text)
		want := c.Params
		want.Bound = base.Bound
		assert.Equal(t, base, want, "%s changed more than the bound", text)
	}
	for _, text := range []string{"apst-primary-timeout-ms=50", "kernel=v4.12", "quirks=none", "force-apst=1,ps-max-latency-us=25000"} {
		_, err := measure.ParseConfig(text, base)
		require.ErrorIs(t, err, measure.ErrSetup, text)
		assert.Contains(t, err.Error(), "changes more than the bound", text)
	}
	_, err := measure.ParseConfig("ps-max-latency-us=x", base)
	require.ErrorIs(t, err, apst.ErrInvalidConfig)
}
