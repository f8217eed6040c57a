package diagnose_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
	"github.com/nvmeapst/nvmeapst/apst/persist"
)

// A Raspberry Pi's host controller says the speed it trained the link at
// (pcie-brcmstb.c: "link up, 8.0 GT/s PCIe x1 (!SSC)"); Gen 3 is beyond
// the Gen 2 the Pi 5's external link is certified for, so a failure behind
// it counts for the link, whose separating test is one line of config.txt
// (unless it was tried). The line alone tells the platform, so the
// command line's steps are the Pi's. The host line's shape is a Pi 5's
// (a Hailo AI HAT+ user's notes); a CM4's at 5.0 GT/s is its rated speed.
func TestPiLinkSpeed(t *testing.T) {
	const (
		gen3 = "[    0.499571] brcm-pcie 1000110000.pcie: link up, 8.0 GT/s PCIe x1 (!SSC)\n"
		gen2 = "[    0.988144] brcm-pcie fd500000.pcie: link up, 5.0 GT/s PCIe x1 (SSC)\n"
		rp1  = "[    0.606000] brcm-pcie 1000120000.pcie: link up, 8.0 GT/s PCIe x4 (!SSC)\n"
		fail = "[    1.503411] nvme nvme0: pci function 0000:01:00.0\n" +
			"[  120.113411] nvme nvme0: I/O 512 QID 3 timeout, aborting\n" +
			"[  150.113411] nvme nvme0: I/O 512 QID 3 timeout, reset controller\n" +
			"[  181.113411] nvme nvme0: Device not ready; aborting reset, CSTS=0x1\n" +
			"[  181.113500] nvme nvme0: Removing after probe failure status: -19\n"
	)
	linkSaysGen3 := func(d diagnose.Diagnosis) bool {
		for _, e := range d.Cause(diagnose.LayerLink).Evidence {
			if e.Quote == "[    0.499571] brcm-pcie 1000110000.pcie: link up, 8.0 GT/s PCIe x1 (!SSC)" {
				return true
			}
		}
		return false
	}

	t.Run("gen 3", func(t *testing.T) {
		d := diagnoseFailure(t, gen3+fail)
		assert.True(t, linkSaysGen3(d), d.Summary)
		// APST and the firmware score alike after the link: both named.
		require.Equal(t, []diagnose.Layer{diagnose.LayerLink, diagnose.LayerAPST, diagnose.LayerFirmware}, d.Undecided, d.Summary)
		assert.Contains(t, d.Summary, "undecided between link (line 1), apst (line 5) and firmware (line 5)")
		require.NotNil(t, d.Separate)
		assert.Equal(t, "dtparam=pciex1_gen=2", d.Separate.Setting)
		// Its price on the link's own test, in the Raspberry Pi
		// documentation's figures: Gen 2 is 500 MB/s peak, Gen 3 8 GT/s.
		gen2 := false
		for _, x := range d.Cause(diagnose.LayerLink).Tests {
			if x.Setting == "dtparam=pciex1_gen=2" {
				gen2 = true
				assert.Equal(t, "the link's peak rate halves (500 MB/s at Gen 2 instead of about 985 MB/s at Gen 3)", x.Cost)
			}
		}
		assert.True(t, gen2, "no pciex1_gen=2 test on the link")
		// The Pi's steps: cmdline.txt, not GRUB.
		for _, c := range d.Causes {
			for _, x := range c.Tests {
				if x.Setting == "nvme_core.default_ps_max_latency_us=0" {
					assert.Equal(t, persist.KernelArgument(persist.PlatformRaspberryPi, x.Setting).Steps, x.Where)
				}
			}
		}
	})
	t.Run("gen 2 tried", func(t *testing.T) {
		tried := diagnose.ParseTried("dtparam=pciex1_gen=2")
		require.Len(t, tried, 1)
		tried[0].Outcome = diagnose.DidNotHelp
		d := diagnoseFailure(t, gen3+fail, tried...)
		require.NotNil(t, d.Separate, d.Summary)
		assert.NotEqual(t, "dtparam=pciex1_gen=2", d.Separate.Setting)
	})
	t.Run("rated speeds", func(t *testing.T) {
		for _, log := range []string{gen2 + fail, rp1 + fail} {
			d := diagnoseFailure(t, log)
			assert.False(t, linkSaysGen3(d), d.Summary)
			if d.Separate != nil {
				assert.NotEqual(t, "dtparam=pciex1_gen=2", d.Separate.Setting)
			}
		}
	})
	// What said the machine is a Pi is quoted, never an empty kernel
	// release; without the speed the link trained at, the link's layer
	// says config.txt may set Gen 3 and the ASPM layer holds L0s alone
	// (a Pi 5 fleet's notes, posted zo-04, where Gen 2 ended it).
	t.Run("platform given or told", func(t *testing.T) {
		const down = "nvme nvme0: controller is down; will reset: CSTS=0x3, PCI_STATUS=0x10\n" +
			"nvme0n1: I/O Cmd(0x2) @ LBA 4953008, I/O Error (sct 0x3 / sc 0x71)\n"
		for _, tt := range []struct {
			name, log string
			platform  persist.Platform
			source    string
		}{
			{"given", down, persist.PlatformRaspberryPi, "the platform given"},
			{"release", "[    0.000000] Linux version 6.12.25+rpt-rpi-2712 (serge@raspberrypi.com) (gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT Debian 1:6.12.25-1+rpt1 (2025-04-30)\n" + down, persist.PlatformUnknown, "kernel release 6.12.25+rpt-rpi-2712"},
			{"machine", "[    0.000000] Machine model: Raspberry Pi 5 Model B Rev 1.0\n" + down, persist.PlatformUnknown, "kernel log line 1 (0.000000s after boot)"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				l, err := kernlog.ReadString(tt.log, kernlog.Options{})
				require.NoError(t, err)
				d := diagnose.Diagnose(diagnose.Input{Log: l, Platform: tt.platform})
				var pi []string
				for _, c := range []diagnose.Layer{diagnose.LayerASPM, diagnose.LayerLink} {
					for _, e := range d.Cause(c).Evidence {
						if strings.HasPrefix(e.Text, "a Raspberry Pi: ") {
							assert.Equal(t, tt.source, e.Source)
							pi = append(pi, string(c)+": "+e.Text)
						}
					}
				}
				assert.Equal(t, []string{
					"aspm: a Raspberry Pi: its external PCIe link fails this way when it enters L0s (the link's speed is the link's layer)",
					"link: a Raspberry Pi: its external PCIe link fails this way when it runs faster than it was made for (pciex1_gen=3 in config.txt; the log does not hold the speed it trained at)",
				}, pi)
				assert.NotContains(t, d.Summary, "kernel release )")
				assert.Contains(t, d.Undecided, diagnose.LayerASPM, d.Summary)
			})
		}
	})
	t.Run("no failure", func(t *testing.T) {
		l, err := kernlog.ReadString(gen3, kernlog.Options{})
		require.NoError(t, err)
		d := diagnose.Diagnose(diagnose.Input{Log: l})
		assert.False(t, d.Failure, d.Summary)
	})
}

// One corrected report is the symptom when the log holds nothing else: a
// paste keeps one of the flood. The lines are the Surface Laptop 7's, as
// the SN740 ASPM L1 quirk's commit quotes them
// (https://lore.kernel.org/all/20251120161253.189580-1-mani@kernel.org/).
func TestOneCorrectedReport(t *testing.T) {
	d := diagnoseFailure(t, "  pcieport 0006:00:00.0: AER: Correctable error message received from 0006:01:00.0\n"+
		"  nvme 0006:01:00.0: PCIe Bus Error: severity=Correctable, type=Physical Layer, (Receiver ID)\n"+
		"  nvme 0006:01:00.0:   device [15b7:5015] error status/mask=00000001/0000e000\n"+
		"  nvme 0006:01:00.0:    [ 0] RxErr\n")
	assert.Contains(t, d.Summary, "The log has no drop-out: only corrected errors")
	assert.Contains(t, append(d.Undecided, d.Causes[0].Layer), diagnose.LayerASPM, d.Summary)
}

// Corrected errors that the port and the drive both report are the
// drive's link's, and the answer names the drive the port said they came
// from, though the port logged more of them; AER's "Error of this Agent is
// reported first" is a detail of the report, not a failure of the driver.
// The lines are a Pop!_OS user's (https://github.com/pop-os/pop/issues/751).
func TestCorrectedErrorsNameTheSource(t *testing.T) {
	const log = ` pcieport 0000:00:1d.0: AER: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)
 pcieport 0000:00:1d.0: AER: device [8086:a330] error status/mask=00000001/00002000
 pcieport 0000:00:1d.0: AER: [ 0] RxErr
 pcieport 0000:00:1d.0: AER: Multiple Corrected error received: 0000:03:00.0
 pcieport 0000:00:1d.0: AER: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)
 pcieport 0000:00:1d.0: AER: device [8086:a330] error status/mask=00000001/00002000
 pcieport 0000:00:1d.0: AER: [ 0] RxErr
 nvme 0000:03:00.0: AER: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)
 nvme 0000:03:00.0: AER: device [144d:a808] error status/mask=00000001/0000e000
 nvme 0000:03:00.0: AER: [ 0] RxErr
 nvme 0000:03:00.0: AER: Error of this Agent is reported first
`
	d := diagnoseFailure(t, log)
	assert.Equal(t, "0000:03:00.0", d.Address, d.Summary)
	assert.True(t, strings.HasPrefix(d.Summary, "the drive at 0000:03:00.0: "), d.Summary)
	assert.Contains(t, d.Summary, "The log has no drop-out: only corrected errors")
	// The port's two reports are read with the drive's one.
	c := causeOf(&d, diagnose.LayerASPM)
	require.NotNil(t, c)
	assert.Contains(t, c.Evidence[0].Text, "3 corrected Physical Layer error report(s)", d.Summary)
}

// A failure only the PCIe port driver's lines name (a root port's own
// uncorrected error, https://github.com/minisforum-docs/MS-02-Ultra/issues/10)
// is a port's: the answer does not call it the drive; a function nvme
// names is the drive.
func TestPortIsNotTheDrive(t *testing.T) {
	port := "Sep 22 09:59:09 pve kernel: pcieport 0000:80:1b.4: AER: Uncorrectable (Non-Fatal) error message received from 0000:80:1b.4\n" +
		"Sep 22 09:59:09 pve kernel: pcieport 0000:80:1b.4: PCIe Bus Error: severity=Uncorrectable (Non-Fatal), type=Transaction Layer, (Receiver ID)\n" +
		"Sep 22 09:59:09 pve kernel: pcieport 0000:80:1b.4:   device [8086:7f44] error status/mask=00200000/00000000\n"
	d := diagnoseFailure(t, port)
	assert.True(t, strings.HasPrefix(d.Summary, "the PCIe port at 0000:80:1b.4: "), d.Summary)
	d = diagnoseFailure(t, "[  100.0] nvme 0000:01:00.0: Unable to change power state from D3cold to D0, device inaccessible\n")
	assert.True(t, strings.HasPrefix(d.Summary, "the drive at 0000:01:00.0: "), d.Summary)
}

// Corrected AER errors of several layers are counted under the layers
// their lines name, each once, not all under the first one's.
func TestCorrectedAERLayersNamed(t *testing.T) {
	const head = "[  100.000000] nvme nvme0: pci function 0000:03:00.0\n" +
		"[  200.000000] pcieport 0000:00:1c.4: AER: Corrected error received: 0000:03:00.0\n" +
		"[  200.000010] nvme 0000:03:00.0: PCIe Bus Error: severity=Corrected, type=Data Link Layer, (Transmitter ID)\n"
	const down = "[  500.000000] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff\n"
	for _, tc := range []struct{ log, want string }{
		{head + down, "1 corrected Data Link Layer error report(s)"},
		{head + "[  210.000000] pcieport 0000:00:1c.4: AER: Corrected error received: 0000:03:00.0\n" +
			"[  210.000010] nvme 0000:03:00.0: PCIe Bus Error: severity=Corrected, type=Transaction Layer, (Receiver ID)\n" + down,
			"2 corrected Data Link Layer and Transaction Layer error report(s)"},
	} {
		l, err := kernlog.ReadString(tc.log, kernlog.Options{})
		require.NoError(t, err)
		d := diagnose.Diagnose(diagnose.Input{Log: l})
		var texts []string
		for _, c := range d.Causes {
			for _, e := range c.Evidence {
				texts = append(texts, e.Text)
			}
		}
		assert.Contains(t, texts, tc.want)
	}
}

// The firmware's record of an uncorrected PCIe error, without the layer,
// is the link's possibly, never likely: data an uncorrected memory error
// poisoned reads so too (posted za-05, after an EDAC UE).
func TestFirmwareRecordIsPossible(t *testing.T) {
	d := summaryOf(t, "[11219.196558] {1}[Hardware Error]: event severity: recoverable\n"+
		"[11219.196591] {1}[Hardware Error]:   section_type: PCIe error\n"+
		"[11219.196653] {1}[Hardware Error]:   device_id: 0000:5e:00.0\n", true, "possibly link (line 3: 1 uncorrected PCIe error record(s) the firmware reported")
	require.NotEmpty(t, d.Causes)
	assert.Equal(t, diagnose.Possible, d.Causes[0].Likelihood)
}

// In a whole log of corrected errors alone, the drive whose link reported
// the most is the one diagnosed, not the one that reported last; between
// drives that reported as many, the later (posted zu-01, a server's hw-probe
// log: 259 reports of one Samsung 980 PRO, 3 of another, the 3 later). When
// the incident kept only its first and last reports, the count read is a
// floor and says so. Errors that follow the drive to another slot are its
// end of the link, not a failing drive: no replace verdict.
func TestCorrectedErrorsOfTheNoisiestDrive(t *testing.T) {
	report := func(sec int, addr string) string {
		return fmt.Sprintf("[%6d.000000] nvme %s: AER: aer_status: 0x00000001, aer_mask: 0x00000000\n", sec, addr) +
			fmt.Sprintf("[%6d.000001] nvme %s:    [ 0] RxErr                  (First)\n", sec, addr) +
			fmt.Sprintf("[%6d.000002] nvme %s: AER: aer_layer=Physical Layer, aer_agent=Receiver ID\n", sec, addr)
	}
	// The quieter drive reports first and last: 2 + 2 reports against 5.
	var log strings.Builder
	log.WriteString(report(50, "0000:c1:00.0") + report(51, "0000:c1:00.0"))
	for i := range 5 {
		log.WriteString(report(100+i, "0000:46:00.0"))
	}
	log.WriteString(report(900, "0000:c1:00.0") + report(901, "0000:c1:00.0"))
	d := diagnoseFailure(t, log.String())
	assert.Equal(t, "0000:46:00.0", d.Address, d.Summary)

	log.WriteString(report(902, "0000:c1:00.0"))
	d = diagnoseFailure(t, log.String())
	assert.Equal(t, "0000:c1:00.0", d.Address, "as many reports: the later drive's\n%s", d.Summary)

	log.Reset()
	for i := range kernlog.MaxIncidentEvents + 10 {
		log.WriteString(report(100+i, "0000:46:00.0"))
	}
	d = diagnoseFailure(t, log.String())
	c := causeOf(&d, diagnose.LayerASPM)
	require.NotEmpty(t, c.Evidence, d.Summary)
	assert.True(t, strings.HasPrefix(c.Evidence[0].Text, "at least "), c.Evidence[0].Text)

	l, err := kernlog.ReadString(log.String(), kernlog.Options{})
	require.NoError(t, err)
	d = diagnose.Diagnose(diagnose.Input{Log: l, Tried: diagnose.ParseTried("other-slot:no")})
	require.Equal(t, diagnose.LayerDrive, d.Causes[0].Layer, d.Summary)
	assert.False(t, d.Replace, d.Summary)
	assert.NotContains(t, d.Summary, "replace it.")
	assert.Contains(t, d.Summary, "The errors follow the drive")
	d = diagnose.Diagnose(diagnose.Input{Log: l, Tried: diagnose.ParseTried("other-drive:helped")})
	require.Equal(t, diagnose.LayerDrive, d.Causes[0].Layer, d.Summary)
	assert.False(t, d.Replace, d.Summary)
	assert.Contains(t, d.Summary, "The errors follow the drive")
}
