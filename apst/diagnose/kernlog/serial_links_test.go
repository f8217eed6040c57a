package kernlog_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// A line of no event after a serial capture's own time (an AER detail
// line, the only one naming the drive's PCI function) ties the function to
// the controller as the same line alone does (a case TestRapidShapeInvariance
// found: the incident lost its PCI address).
func TestSerialCaptureDetailLineLinks(t *testing.T) {
	const detail = "[ 3600.000020] nvme 0000:04:00.0:   device [144d:a80c] error status/mask=00000001/0000e000\n"
	const reset = "[ 3661.300000] nvme nvme0: Disabling device after reset failure: -19\n"
	for _, log := range []string{detail + reset, "[10:00:00.000] " + detail + "[10:01:01.300] " + reset} {
		l, err := kernlog.ReadString(log, kernlog.Options{})
		require.NoError(t, err)
		require.Len(t, l.Incidents, 1, log)
		assert.Equal(t, "0000:04:00.0", l.Incidents[0].PCI, log)
		assert.Equal(t, "nvme0", l.Incidents[0].Controller, log)
	}
}
