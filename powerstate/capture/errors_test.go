package capture_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// Every sentinel names the package, and a ParseError names it once,
// whatever its cause's own prefix: the errors name the package called.
func TestErrorsNameThePackage(t *testing.T) {
	for _, err := range []error{capture.ErrUnknownFormat, capture.ErrTooLarge, capture.ErrTruncated,
		capture.ErrSyntax, capture.ErrNoPowerStates, capture.ErrDuplicateKey, capture.ErrMultipleCaptures,
		capture.ErrEmpty, capture.ErrFeatureCapture, capture.ErrIdentifyCapture, capture.ErrUnrepresentable,
		capture.ErrNotAPSTTable, capture.ErrTrailingData, &capture.NotAPSTTableError{Looks: "x", Reason: "y"}} {
		assert.True(t, strings.HasPrefix(err.Error(), "capture: "), err.Error())
	}
	for _, tc := range []struct {
		cause error
		want  string
	}{
		{capture.ErrSyntax, "capture: smartctl-text capture, line 3: expected a row: malformed capture"},
		{&powerstate.ImageSizeError{Got: 9}, "capture: smartctl-text capture, line 3: expected a row: identify controller image is 9 bytes, want exactly 4096"},
		{&powerstate.NotIdentifyError{Looks: "a PDF document", Reason: "magic"}, "capture: smartctl-text capture, line 3: expected a row: not an identify controller image: it looks like a PDF document (magic)"},
		{io.ErrUnexpectedEOF, "capture: smartctl-text capture, line 3: expected a row: unexpected EOF"},
	} {
		pe := &capture.ParseError{Format: powerstate.FormatSmartctlText, Line: 3, Expected: "a row", Err: tc.cause}
		assert.Equal(t, tc.want, pe.Error())
		assert.True(t, errors.Is(pe, tc.cause))
	}
	// The feature readers return the *ParseError itself: no wrapper
	// rewrites its message.
	_, err := capture.ParseFeatureBytes([]byte("get-feature:0x0c (Autonomous Power State Transition), Current value:0xzz\n"))
	require.Error(t, err)
	var pe *capture.ParseError
	require.ErrorAs(t, err, &pe)
	assert.Same(t, pe, err)
	assert.Equal(t, pe.Error(), err.Error())
	assert.True(t, strings.HasPrefix(err.Error(), "capture: feature-text capture, line 1: "), err.Error())
}
