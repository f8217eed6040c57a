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

// padNUL appends NUL bytes to s up to size bytes (n NULs when size is 0).
func padNUL(s string, size, n int) []byte {
	if size > 0 {
		n = size - len(s)
	}
	return append([]byte(s), make([]byte, n)...)
}

// TestNULPaddedCaptures: a text capture that ends in NUL bytes (a file a
// crash or a copy extended with zeros), padded to the 4096 bytes of an
// image or not, reads as the text. Padded to 4096 bytes it was read as an
// image of its bytes (the model "rom Apacer_AS2280P2..." of the comment
// line), and JSON refused the NULs after its document.
func TestNULPaddedCaptures(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"smartctl", smartctlReport(t, evoPlus)},
		{"smartctl Apacer", smartctlReport(t, "Apacer_AS2280P2_480GB_AP120PG0")},
		{"nvme-cli v1", nvmeCLICapture(t, evoPlus, ".v1.txt")},
		{"nvme-cli v2.12 Apacer", nvmeCLICapture(t, "Apacer_AS2280P2_480GB_AP120PG0", ".v2_12.txt")},
		{"nvme-cli json", nvmeCLICapture(t, evoPlus, ".json")},
		{"xxd", testfixture.HexDump(testfixture.ReadFile(t, testfixture.Samsung990EVOPlus), "xxd")},
	} {
		want := mustParse(t, tc.in)
		for _, pad := range [][2]int{{powerstate.IdentifySize, 0}, {0, 1}, {0, 37}, {0, powerstate.IdentifySize}} {
			if pad[0] > 0 && len(tc.in) >= pad[0] {
				continue
			}
			b := padNUL(tc.in, pad[0], pad[1])
			assert.Equal(t, want.Format, capture.DetectFormat(b), "%s padded %v", tc.name, pad)
			got, err := capture.ParseBytes(b)
			require.NoError(t, err, "%s padded %v", tc.name, pad)
			sameCapture(t, want, got, tc.name)
		}
	}
	// An image stays an image: its NUL bytes are not all at its end.
	img := testfixture.ReadFile(t, testfixture.Samsung990EVOPlus)
	assert.Equal(t, powerstate.FormatBinary, capture.DetectFormat(img))
	c, err := capture.ParseBytes(img)
	require.NoError(t, err)
	assert.Empty(t, c.Notes)
	// A 256-byte APST buffer whose only entry is printable (ITPS 4 after
	// 100 ms: 0x20 0x64) stays the buffer.
	buf := make([]byte, 256)
	buf[0], buf[1] = 0x20, 0x64
	assert.Equal(t, capture.FeatureBinary, capture.DetectFeatureFormat(buf))
	// Text before the NULs that is no capture is refused as before.
	_, err = capture.ParseBytes(padNUL("hello\n", powerstate.IdentifySize, 0))
	assert.Error(t, err)
	// A feature capture padded reads as the feature capture.
	ft := featureText("v2.9", true, evoTable())
	want, err := capture.ParseFeatureCapture(strings.NewReader(ft))
	require.NoError(t, err)
	got, err := capture.ParseFeatureBytes(padNUL(ft, 0, 100))
	require.NoError(t, err)
	assert.Equal(t, want, got)
	// A capture cut by the crash that padded it is still cut.
	s := smartctlReport(t, evoPlus)
	cut := s[:strings.Index(s, "43000")]
	_, err = capture.ParseBytes(padNUL(cut, powerstate.IdentifySize, 0))
	require.Error(t, err)
	assert.ErrorIs(t, err, capture.ErrTruncated)
}
