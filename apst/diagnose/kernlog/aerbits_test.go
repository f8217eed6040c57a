package kernlog_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// An AER report's status line sets its event's AERStatus, the bits it
// does not mask, named by the report's severity: an S3 resume's ACS
// Violation, its report wrapped by Gmail (Kai-Heng Feng, linux-pci,
// Message-ID: <CAAd53p7FfRCgfC5dGL3HyP+rbVtR2VCfMPYBBvJ=-DFCWFeVPA@mail.gmail.com>,
// posted zg-03), a drive's corrected receiver error (aer.c's format, as
// TestShapesParseToTheSameIncidents has it in every shape), masked bits,
// another device's status line and a report without one.
func TestAERStatus(t *testing.T) {
	tests := []struct {
		name, log string
		status    uint32
		errors    []string
	}{
		{"an ACS violation, wrapped", `[   50.947829] pcieport 0000:00:1b.0: PCIe Bus Error:
severity=Uncorrected (Non-Fatal), type=Transaction Layer, (Receiver
ID)
[   50.947830] pcieport 0000:00:1b.0:   device [8086:06ac] error
status/mask=00200000/00010000
[   50.947831] pcieport 0000:00:1b.0:    [21] ACSViol                (First)
`, 0x200000, []string{"ACSViol"}},
		{"a corrected receiver error", `[  100.000001] nvme 0000:04:00.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)
[  100.000002] nvme 0000:04:00.0:   device [144d:a80c] error status/mask=00000041/0000e000
[  100.000003] nvme 0000:04:00.0:    [ 0] RxErr
[  100.000004] nvme 0000:04:00.0:    [ 6] BadTLP
`, 0x41, []string{"RxErr", "BadTLP"}},
		{"masked bits", `[  100.000001] nvme 0000:04:00.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)
[  100.000002] nvme 0000:04:00.0:   device [144d:a80c] error status/mask=00002001/00002000
`, 0x1, []string{"RxErr"}},
		{"an unnamed bit", `[  100.000001] nvme 0000:04:00.0: PCIe Bus Error: severity=Uncorrected (Fatal), type=Transaction Layer, (Requester ID)
[  100.000002] nvme 0000:04:00.0:   device [144d:a80c] error status/mask=80000000/00000000
`, 0x80000000, []string{"bit 31"}},
		{"another device's status line", `[  100.000001] nvme 0000:04:00.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)
[  100.000002] pcieport 0000:00:1d.0:   device [8086:a334] error status/mask=00000001/00002000
`, 0, nil},
		{"no status line", `[  100.000001] nvme 0000:04:00.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)
`, 0, nil},
		{"too late", `[  100.000001] nvme 0000:04:00.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)
[  100.000002] nvme 0000:04:00.0: a note
[  100.000003] nvme 0000:04:00.0: a note
[  100.000004] nvme 0000:04:00.0: a note
[  100.000005] nvme 0000:04:00.0: a note
[  100.000006] nvme 0000:04:00.0: a note
[  100.000007] nvme 0000:04:00.0:   device [144d:a80c] error status/mask=00000001/0000e000
`, 0, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tc.log, kernlog.Options{})
			require.NoError(t, err)
			assert.Empty(t, l.Unread)
			var got []kernlog.Event
			for _, in := range l.Incidents {
				for _, e := range in.Events {
					if e.Kind == kernlog.AERError {
						got = append(got, e)
					}
				}
			}
			require.Len(t, got, 1)
			assert.Equal(t, tc.status, got[0].AERStatus)
			assert.Equal(t, tc.errors, got[0].AERErrors())
		})
	}
}
