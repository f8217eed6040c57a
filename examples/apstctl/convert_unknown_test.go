package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// convert says what the 0 of a field the capture does not record means in
// a format that has no "unknown", and says nothing when it was recorded.
func TestConvertSaysWhatZeroMeans(t *testing.T) {
	code, _, errOut := runCmd(runConvert, "--to", "nvme-cli-json", smartctlEVO)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, `does not record the states' idle and active power (smartctl decodes them with the wrong scale bits); the nvme-cli-json output says 0, "not reported"`)
	code, _, errOut = runCmd(runConvert, "--to", "nvme-cli-json", evoImage)
	require.Equal(t, 0, code, errOut)
	assert.Empty(t, errOut)
	code, _, errOut = runCmd(runConvert, "--to", "smartctl-text", smartctlEVO)
	require.Equal(t, 0, code, errOut)
	assert.Empty(t, errOut, "smartctl's own table prints them as it read them")
}
