package apst_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
)

func TestParseConfig(t *testing.T) {
	base := apst.DefaultParams(apst.Current)
	p, err := apst.ParseConfig("ps-max-latency-us=25000,kernel=v4.11", base)
	require.NoError(t, err)
	assert.Equal(t, apst.V4_11, p.Generation)
	assert.Equal(t, apst.Microseconds(25000), p.Bound, "an explicit bound wins over the generation default")

	p, err = apst.ParseConfig("kernel=v4.11", base)
	require.NoError(t, err)
	assert.Equal(t, apst.DefaultBoundV4_11, p.Bound, "v4.11 brings its 25000 µs default")

	p, err = apst.ParseConfig("pm-qos=auto,quirks=no-apst,no-deepest-ps,force-apst", base)
	require.NoError(t, err)
	assert.Equal(t, apst.NoLimit, p.Bound)
	assert.Equal(t, apst.QuirkNoAPST|apst.QuirkNoDeepestPS, p.Quirks)
	assert.True(t, p.ForceAPST)

	p, err = apst.ParseConfig("default-ps-max-latency-us=3000000000,apst-primary-timeout-ms=0", base)
	require.NoError(t, err)
	assert.Equal(t, apst.NoLimit, p.Bound)
	assert.Equal(t, apst.ModeHeuristic, p.Mode())

	for _, bad := range []string{"pm-qos=-5", "kernel=v9", "bogus=1", "apst-primary-timeout-ms=-1", "quirks=maybe", "force-apst=perhaps", "ps-max-latency-us=1e5"} {
		got, err := apst.ParseConfig(bad, base)
		require.Error(t, err, bad)
		assert.Equal(t, base, got, "on error the base is returned unchanged")
		assert.Contains(t, err.Error(), "apst: ")
	}
}

func TestGenerationText(t *testing.T) {
	for _, g := range apst.Generations() {
		b, err := g.MarshalText()
		require.NoError(t, err)
		var back apst.Generation
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, g, back)
	}
	_, err := apst.Generation(9).MarshalText()
	require.ErrorIs(t, err, apst.ErrUnknownGeneration)
}
