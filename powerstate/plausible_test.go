package powerstate_test

import (
	"encoding/binary"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// namespaceImage is an Identify Namespace data structure as "nvme id-ns -b"
// writes it for a 1 TB namespace of 512-byte blocks (NVMe Base
// Specification, Identify Namespace: NSZE, NCAP, NUSE at bytes 0, 8 and 16,
// NLBAF at 25, FLBAS at 26, LBA formats from byte 128, LBADS in bits 23:16).
func namespaceImage() []byte {
	b := make([]byte, powerstate.IdentifySize)
	binary.LittleEndian.PutUint64(b[0:], 1953525168)
	binary.LittleEndian.PutUint64(b[8:], 1953525168)
	binary.LittleEndian.PutUint64(b[16:], 412342112)
	b[25] = 1                                      // NLBAF: two formats
	binary.LittleEndian.PutUint32(b[128:], 9<<16)  // 512 B, relative performance best
	binary.LittleEndian.PutUint32(b[132:], 12<<16) // 4 KiB
	return b
}

// notCaptures are inputs that are not an Identify Controller image, with
// what ParseBytes must say they look like.
func notCaptures(t testing.TB) map[string]struct {
	b     []byte
	looks string
} {
	random := make([]byte, powerstate.IdentifySize)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	pdf := append([]byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n"), make([]byte, 4096)...)[:4096]
	badNPSS := testfixture.ReadFile(t, testfixture.Samsung990EVOPlus)
	badNPSS[263] = 93
	noModel := testfixture.ReadFile(t, testfixture.Samsung990EVOPlus)
	copy(noModel[24:64], make([]byte, 40))
	return map[string]struct {
		b     []byte
		looks string
	}{
		"zero":      {make([]byte, powerstate.IdentifySize), "all zero bytes"},
		"random":    {random, "random bytes or another binary file"},
		"pdf":       {pdf, "a PDF document"},
		"pdf-large": {append([]byte("%PDF-1.4\n\x00"), make([]byte, 9000)...), "a PDF document"},
		"namespace": {namespaceImage(), "an Identify Namespace image (nvme id-ns -b)"},
		"npss-93":   {badNPSS, "an Identify Controller image with an impossible field"},
		"no-model":  {noModel, "an Identify Controller image with an impossible field"},
	}
}

func TestParseRefusesWhatIsNotACapture(t *testing.T) {
	for name, tc := range notCaptures(t) {
		_, err := powerstate.ParseBytes(tc.b)
		require.ErrorIs(t, err, powerstate.ErrNotIdentify, name)
		var ne *powerstate.NotIdentifyError
		require.ErrorAs(t, err, &ne, name)
		assert.Contains(t, ne.Looks, tc.looks, name)
		assert.NotEmpty(t, ne.Reason, name)
		assert.Contains(t, err.Error(), "powerstate: ", name)
	}
	for _, empty := range []string{"", "\n", "  \r\n\t\n"} {
		_, err := powerstate.ParseBytes([]byte(empty))
		assert.ErrorIs(t, err, powerstate.ErrEmpty, "%q", empty)
	}
}

// TestForcedImageDecodes: the refused image's controller is what
// DecodeIdentify gives, for a caller that plans it anyway.
func TestForcedImageDecodes(t *testing.T) {
	b := testfixture.ReadFile(t, testfixture.Samsung990EVOPlus)
	b[263] = 40
	_, err := powerstate.ParseBytes(b)
	var ne *powerstate.NotIdentifyError
	require.ErrorAs(t, err, &ne)
	want, err := powerstate.DecodeIdentify(b)
	require.NoError(t, err)
	assert.Equal(t, want, ne.Controller)
}

// TestCorpusImagesArePlausible: every image of the corpus, and the image
// every corpus capture encodes to, passes CheckIdentify.
func TestCorpusImagesArePlausible(t *testing.T) {
	files := testfixture.Glob(t, "corpus/binary/synthetic/*.bin")
	files = append(files, testfixture.Glob(t, "identify/*.bin")...)
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
