package pastedlog

import (
	"testing"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A pasted log's parameters: the module defaults of the release's
// generation (the current kernel's without a release), the bound of the
// command line when it sets one, and the note that says so.
func TestParams(t *testing.T) {
	c, err := powerstate.DecodeIdentify(testfixture.ReadFile(t, testfixture.Samsung990EVOPlus))
	require.NoError(t, err)

	p, a, note := Params(&c, apst.Release{}, "BOOT_IMAGE=/vmlinuz root=UUID=5e1f rw")
	assert.Equal(t, apst.DefaultParams(apst.Current).Bound, p.Bound)
	assert.Equal(t, apst.Current, p.Generation)
	assert.False(t, a.APSTAUnknown, "a binary capture carries APSTA")
	assert.Equal(t, "a pasted log: the plan assumes the module defaults of current (bound 100000us) and the quirks the model's tables give (none); the machine's own settings were not read", note)

	rel, err := apst.ParseRelease("4.11.0")
	require.NoError(t, err)
	p, _, note = Params(&c, rel, "root=/dev/sda1 nvme_core.default_ps_max_latency_us=5500 quiet")
	assert.Equal(t, apst.V4_11, p.Generation)
	assert.Equal(t, apst.Microseconds(5500), p.Bound)
	assert.Contains(t, note, "(bound 5500us)")

	// An unreadable bound on the command line leaves the default.
	p, _, _ = Params(&c, apst.Release{}, "nvme_core.default_ps_max_latency_us=lots")
	assert.Equal(t, apst.DefaultParams(apst.Current).Bound, p.Bound)

	c.Missing |= powerstate.FieldAPSTA
	_, a, _ = Params(&c, apst.Release{}, "")
	assert.True(t, a.APSTAUnknown)
}
