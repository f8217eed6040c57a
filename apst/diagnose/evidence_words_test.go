package diagnose_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
)

// evidenceText is the text of the link cause's evidence that quotes line
// n, "" when none does.
func evidenceText(d diagnose.Diagnosis, l diagnose.Layer, n int) string {
	for _, e := range causeOf(&d, l).Evidence {
		if e.Line == n {
			return e.Text
		}
	}
	return ""
}

// An AER report is the port's "error received" line and the device's
// "PCIe Bus Error" lines under it: the evidence counts reports, not lines.
func TestAERReportsCounted(t *testing.T) {
	const (
		pci    = "[    1.000000] nvme nvme0: pci function 0000:04:00.0\n"
		uncRcv = "[ 3000.000000] pcieport 0000:00:1c.4: AER: Uncorrected (Fatal) error received: 0000:04:00.0\n"
		uncErr = "[ 3000.000100] nvme 0000:04:00.0: PCIe Bus Error: severity=Uncorrected (Fatal), type=Data Link Layer, (Receiver ID)\n"
		uncDev = "[ 3000.000200] nvme 0000:04:00.0:   device [144d:a808] error status/mask=00000010/00000000\n"
		corRcv = "[ 2000.000000] pcieport 0000:00:1c.4: AER: Corrected error received: 0000:04:00.0\n"
		corDLL = "[ 2000.000100] nvme 0000:04:00.0: PCIe Bus Error: severity=Corrected, type=Data Link Layer, (Transmitter ID)\n"
		down   = "[ 3000.100000] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff\n"
	)
	for _, tc := range []struct {
		name, log string
		line      int
		want      string
	}{
		{"one uncorrected report over three lines", pci + uncRcv + uncErr + uncDev + down, 2,
			"1 uncorrected AER error report(s) for the drive's link"},
		{"two uncorrected reports", pci + uncRcv + uncErr + uncDev + uncRcv + uncErr + down, 2,
			"2 uncorrected AER error report(s) for the drive's link"},
		{"the received line alone", pci + uncRcv + down, 2,
			"1 uncorrected AER error report(s) for the drive's link"},
		{"corrected reports of one layer", pci + corRcv + corDLL + corRcv + corDLL + down, 3,
			"2 corrected Data Link Layer error report(s)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := diagnoseFailure(t, tc.log)
			require.Equal(t, tc.want, evidenceText(d, diagnose.LayerLink, tc.line), d.Summary)
		})
	}
}

// Evidence quoting the D3cold line of a reset that gave up names the line
// that gave up with -19: the quoted line has no -19.
func TestGoneAtResetNamesTheResetLine(t *testing.T) {
	const log = "[    2.000100] nvme nvme1: pci function 0000:07:00.0\n" +
		"[51234.100000] nvme nvme1: I/O 12 QID 1 timeout, aborting\n" +
		"[51234.100100] nvme nvme1: I/O 12 QID 1 timeout, reset controller\n" +
		"[51264.200000] nvme 0000:07:00.0: Unable to change power state from D3cold to D0, device inaccessible\n" +
		"[51264.300000] nvme nvme1: Removing after probe failure status: -19\n"
	d := diagnoseFailure(t, log)
	for _, tc := range []struct {
		layer diagnose.Layer
		want  string
	}{
		{diagnose.LayerLink, "the device was gone from the bus when the driver reset it (config space read all ones, and the reset gave up with -19 on line 5): a link that went down reads so, as does a device that lost its power"},
		{diagnose.LayerD3cold, "the device read all ones when the driver's reset powered it up, and the reset gave up (-19, line 5): it was powered off and did not return, or it was already off the bus (the PCI core names any device that reads all ones D3cold)"},
	} {
		require.Equal(t, tc.want, evidenceText(d, tc.layer, 4), tc.layer)
	}
}

// The sleep mode suggested is the other one than the log's: a failure on
// resume from deep (or S3, or with mem_sleep_default=deep) gets s2idle,
// one from s2idle gets deep, and a log that does not say gets deep.
func TestOtherSleepModeIsTheOther(t *testing.T) {
	const pci = "[    1.000000] nvme nvme0: pci function 0000:01:00.0\n"
	const fail = "[ 1000.000000] nvme nvme0: I/O 3 QID 5 timeout, aborting\n" +
		"[ 1030.000000] nvme nvme0: I/O 3 QID 5 timeout, reset controller\n"
	for _, tc := range []struct {
		name, log, echo string
	}{
		{"deep", "[  950.000000] PM: suspend entry (deep)\n[  990.000000] PM: suspend exit\n", "echo s2idle |"},
		{"ACPI S3", "[  950.000000] PM: suspend entry (deep)\n[  950.100000] ACPI: PM: Preparing to enter system sleep state S3\n[  990.000000] PM: suspend exit\n", "echo s2idle |"},
		{"s2idle", "[  950.000000] PM: suspend entry (s2idle)\n[  990.000000] PM: suspend exit\n", "echo deep |"},
		{"the command line's deep", "[  990.000000] PM: suspend exit\n", "echo s2idle |"},
		{"unknown", "[  990.000000] PM: suspend exit\n", "echo deep |"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := pci + tc.log + fail
			if strings.HasPrefix(tc.name, "the command line") {
				log = "[    0.000000] Kernel command line: root=/dev/sda2 mem_sleep_default=deep\n" + log
			}
			d := diagnoseFailure(t, log)
			var cmd string
			for _, x := range causeOf(&d, diagnose.LayerSuspend).Tests {
				if strings.Contains(x.Command, "/sys/power/mem_sleep") {
					cmd = x.Command
				}
			}
			require.Contains(t, cmd, tc.echo, d.Summary)
		})
	}
}
