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

// A short file of text with a control character in it (a terminal colour's
// ESC) is text of another kind, not a binary image of the wrong size;
// binary data (a NUL byte, or bytes that are neither UTF-8 text nor free of
// control characters) stays binary, and a 4096-byte image and a report with
// an ESC in it still read.
func TestControlCharacterTextIsNotBinary(t *testing.T) {
	for _, s := range []string{
		"remember \x1b[31mthe milk\n",
		"\x1b[1mbold\x1b[0m and a bell \a\r\n",
		"caf\u00e9 \x1b[0m\n",
	} {
		pe := parseErr(t, s)
		assert.ErrorIs(t, pe, capture.ErrUnknownFormat, "%q", s)
		assert.NotErrorIs(t, pe, powerstate.ErrImageSize, "%q", s)
		assert.NotEqual(t, powerstate.FormatBinary, pe.Format, "%q", s)
		assert.NotContains(t, pe.Error(), "binary", "%q", s)
	}

	noNUL := make([]byte, 100)
	for i := range noNUL {
		noNUL[i] = byte(i*37) | 1
	}
	require.NotContains(t, string(noNUL), "\x00")
	for _, b := range [][]byte{noNUL, []byte("ab\x00cd\x1b\n"), []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")} {
		pe := parseErr(t, string(b))
		assert.Equal(t, powerstate.FormatBinary, pe.Format, "%q", b)
	}
	pe := parseErr(t, string(noNUL))
	assert.ErrorIs(t, pe, powerstate.ErrImageSize)

	img := testfixture.ReadFile(t, testfixture.Samsung990EVOPlus)
	c, err := capture.ParseBytes(img)
	require.NoError(t, err)
	assert.Equal(t, powerstate.FormatBinary, c.Format)

	report := string(testfixture.ReadFile(t, "corpus/smartctl/ADATA_AGAMMIXS70B-1T-CS_3.2.F.2A.txt"))
	report = strings.Replace(report, "AGAMMIXS70B-1T-CS", "AGAMMIX\x1b[31mS70B", 1)
	c, err = capture.ParseBytes([]byte(report))
	require.NoError(t, err)
	assert.Equal(t, powerstate.FormatSmartctlText, c.Format)
	assert.Contains(t, c.Model, "\x1b[31m")
}
