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

// A message that quotes its values is shown as it is; one that carries a
// control character is escaped whole.
func TestEscapeMessage(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`apst: invalid latency tolerance "25000\n100": want auto`, `apst: invalid latency tolerance "25000\n100": want auto`},
		{"plain", "plain"},
		{"raw \x1b[2J and \"quoted\\x1b\"", `raw \x1b[2J and "quoted\\x1b"`},
		{"bidi \u202e", `bidi \u202e`},
	} {
		assert.Equal(t, tc.want, EscapeMessage(tc.in), "%q", tc.in)
	}
}
