package capture_test

import (
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// Every reader says an empty capture is empty (ErrEmpty), as ParseBytes
// does: the per-format readers had said ErrNoPowerStates, which the same
// capture cut short says too.
func TestEmptyCaptureEveryReader(t *testing.T) {
	for name, read := range map[string]func(io.Reader) (powerstate.Controller, error){
		"Parse": capture.Parse, "nvme-cli text": capture.ParseNVMeCLIText, "nvme-cli JSON": capture.ParseNVMeCLIJSON,
		"smartctl text": capture.ParseSmartctlText, "smartctl JSON": capture.ParseSmartctlJSON,
	} {
		for _, in := range []string{"", " \n\t\r\n"} {
			_, err := read(strings.NewReader(in))
			assert.ErrorIs(t, err, capture.ErrEmpty, "%s %q", name, in)
			assert.NotErrorIs(t, err, capture.ErrNoPowerStates, "%s %q", name, in)
			assert.ErrorContains(t, err, "capture: ", name)
		}
	}
}

// The writers refuse a nil controller (ErrNilController) instead of
// panicking.
func TestWritersRefuseNil(t *testing.T) {
	for name, write := range map[string]func(io.Writer, *powerstate.Controller) error{
		"nvme-cli text": capture.WriteNVMeCLIText, "nvme-cli JSON": capture.WriteNVMeCLIJSON, "smartctl text": capture.WriteSmartctlText,
	} {
		var b strings.Builder
		assert.ErrorIs(t, write(&b, nil), capture.ErrNilController, name)
		assert.Empty(t, b.String(), name)
	}
}
