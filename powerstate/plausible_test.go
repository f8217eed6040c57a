package powerstate_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

func TestCheckIdentifyRefuses(t *testing.T) {
	for name, tc := range testfixture.NotIdentifyImages(t) {
		err := powerstate.CheckIdentify(tc.Bytes)
		require.ErrorIs(t, err, powerstate.ErrNotIdentify, name)
		var ne *powerstate.NotIdentifyError
		require.ErrorAs(t, err, &ne, name)
		assert.Contains(t, ne.Looks, tc.Looks, name)
		assert.Equal(t, tc.Kind, ne.Kind, name)
		assert.NotEmpty(t, ne.Reason, name)
		assert.Contains(t, err.Error(), "powerstate: ", name)
	}
}

// TestCorpusImagesArePlausible: every image of the corpus, and the image
// every corpus capture encodes to, passes CheckIdentify.
func TestCorpusImagesArePlausible(t *testing.T) {
	files := testfixture.Glob(t, "corpus/binary/synthetic/*.bin")
	files = append(files, testfixture.Glob(t, "identify/*.bin")...)
	files = append(files, testfixture.Glob(t, "fabrics/*.bin")...)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		assert.NoError(t, powerstate.CheckIdentify(b), f)
	}
}

// TestCheckIdentifyRandom: random bytes are never taken for an image.
func TestCheckIdentifyRandom(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.SliceOfN(rapid.Byte(), powerstate.IdentifySize, powerstate.IdentifySize).Draw(t, "image")
		if powerstate.CheckIdentify(b) == nil {
			t.Fatalf("random bytes pass CheckIdentify")
		}
	})
}

func TestCheckIdentifySize(t *testing.T) {
	assert.ErrorIs(t, powerstate.CheckIdentify(make([]byte, 100)), powerstate.ErrImageSize)
}
