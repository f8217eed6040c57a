package capture_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

func TestParseRefusesWhatIsNotACapture(t *testing.T) {
	for name, tc := range testfixture.NotIdentifyImages(t) {
		_, err := capture.ParseBytes(tc.Bytes)
		require.ErrorIs(t, err, powerstate.ErrNotIdentify, name)
		var ne *powerstate.NotIdentifyError
		require.ErrorAs(t, err, &ne, name)
		assert.Contains(t, ne.Looks, tc.Looks, name)
		assert.Equal(t, tc.Kind, ne.Kind, name)
		assert.NotEmpty(t, ne.Reason, name)
		assert.True(t, strings.HasPrefix(err.Error(), "capture: binary capture: "), name)
		assert.NotContains(t, err.Error(), "powerstate: ", name)
	}
	for _, empty := range []string{"", "\n", "  \r\n\t\n"} {
		_, err := capture.ParseBytes([]byte(empty))
		assert.ErrorIs(t, err, capture.ErrEmpty, "%q", empty)
	}
}

// TestForcedImageDecodes: the refused image's controller is what
// DecodeIdentify gives, for a caller that plans it anyway.
func TestForcedImageDecodes(t *testing.T) {
	b := testfixture.ReadFile(t, testfixture.Samsung990EVOPlus)
	b[263] = 40
	_, err := capture.ParseBytes(b)
	var ne *powerstate.NotIdentifyError
	require.ErrorAs(t, err, &ne)
	want, err := powerstate.DecodeIdentify(b)
	require.NoError(t, err)
	assert.Equal(t, want, ne.Controller)
}
