package kernlog_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// A firmware-first platform's CPER record of an uncorrected PCIe error is
// an AER report of the function it names, with the record's severity (a
// Skylake-SP server's Samsung drive, ovro-lwa/lwa-issues#117, posted
// za-05); its other lines are its details, never lines left unread, and
// a corrected record's report is the AER lines printed from it.
func TestFirmwareRecord(t *testing.T) {
	const record = "[11219.196524] {1}[Hardware Error]: Hardware error from APEI Generic Hardware Error Source: 1\n" +
		"[11219.196558] {1}[Hardware Error]: event severity: %s\n" +
		"[11219.196576] {1}[Hardware Error]:  Error 0, type: %s\n" +
		"[11219.196591] {1}[Hardware Error]:   section_type: PCIe error\n" +
		"[11219.196606] {1}[Hardware Error]:   port_type: 0, PCIe end point\n" +
		"[11219.196636] {1}[Hardware Error]:   command: 0x0546, status: 0xc110\n" +
		"[11219.196653] {1}[Hardware Error]:   device_id: 0000:5e:00.0\n" +
		"[11219.196673] mce: [Hardware Error]: Machine check events logged\n" +
		"[11219.196684] {1}[Hardware Error]:   vendor_id: 0x144d, device_id: 0xa808\n"
	for _, tc := range []struct {
		severity, want string
	}{
		{"recoverable", "Uncorrected (Non-Fatal)"},
		{"fatal", "Uncorrected (Fatal)"},
		{"corrected", ""},
	} {
		l, err := kernlog.ReadString(fmt.Sprintf(record, tc.severity, tc.severity), kernlog.Options{})
		require.NoError(t, err, tc.severity)
		assert.Zero(t, l.UnreadLines, "%s: %+v", tc.severity, l.Unread)
		if tc.want == "" {
			assert.Empty(t, l.Incidents, tc.severity)
			continue
		}
		require.Len(t, l.Incidents, 1, tc.severity)
		require.Len(t, l.Incidents[0].Events, 1, tc.severity)
		e := l.Incidents[0].Events[0]
		assert.Equal(t, kernlog.AERError, e.Kind)
		assert.Equal(t, kernlog.ActionFirmwareRecord, e.Action)
		assert.Equal(t, "0000:5e:00.0", e.PCI)
		assert.Equal(t, tc.want, e.Severity)
		assert.Equal(t, 7, e.Line)
	}
}
