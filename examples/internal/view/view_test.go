package view

import (
	"testing"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The configuration text leaves looked-up quirks to the tables and reads
// back as the same parameters.
func TestConfigText(t *testing.T) {
	p := apst.DefaultParams(apst.Current)
	require.NoError(t, p.Set("ps-max-latency-us", "25000"))
	p.Quirks = apst.QuirkNoDeepestPS
	text := ConfigText(&p)
	assert.NotContains(t, text, "quirks=no-deepest-ps", "looked up, not given")
	back, err := apst.ParseConfig(text, apst.DefaultParams(apst.Current))
	require.NoError(t, err)
	assert.Equal(t, p.Bound, back.Bound)
	p.QuirksGiven = true
	assert.Contains(t, ConfigText(&p), "no-deepest-ps", "given, kept")
}

func TestEscape(t *testing.T) {
	assert.Equal(t, "Samsung", Escape("Samsung"))
	assert.NotContains(t, Escape("bad\x1b[2Jmodel\u202e"), "\x1b")
	assert.NotContains(t, Escape("bad\x1b[2Jmodel\u202e"), "\u202e")
}
