package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
	"github.com/nvmeapst/nvmeapst/apst/persist"
)

// firstOf is the first cause's layer, or the undecided layers.
func firstOf(d *diagnose.Diagnosis) []diagnose.Layer {
	if len(d.Undecided) > 0 {
		return d.Undecided
	}
	if len(d.Causes) == 0 {
		return nil
	}
	return []diagnose.Layer{d.Causes[0].Layer}
}

// diagnoseFailure reads log, every failure-looking line of it, and
// diagnoses it with what was tried; the log must hold a failure.
func diagnoseFailure(t *testing.T, log string, tried ...diagnose.Tried) diagnose.Diagnosis {
	t.Helper()
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	require.Empty(t, l.Unread)
	d := diagnose.Diagnose(diagnose.Input{Log: l, Tried: tried})
	require.True(t, d.Failure, d.Summary)
	return d
}

func causeOf(d *diagnose.Diagnosis, l diagnose.Layer) diagnose.Cause {
	for _, c := range d.Causes {
		if c.Layer == l {
			return c
		}
	}
	return diagnose.Cause{}
}

// A reset that finds the controller still ready (it ignored the disable)
// fits a drive stuck in a power state and a firmware hang alike; one that
// waited for a controller to come up does not speak for APST. The lines
// are nvme-core's (nvme_wait_ready), as posted in
// https://blog.bspwr.com/blog/samsung-990-pro-nvme-disconnect/ (reset)
// and lore.kernel.org's Lexar NM790 report (initialisation).
func TestResetNotReady(t *testing.T) {
	for _, tc := range []struct {
		name, log string
		first     []diagnose.Layer
		apst      bool   // APST has evidence for it
		firmware  string // what the firmware's evidence says of the line
	}{
		{
			name: "ready bit stuck after a disable",
			log: "[204263.471182] nvme nvme0: Device not ready; aborting reset, CSTS=0x1\n" +
				"[204283.495338] nvme nvme0: Device not ready; aborting reset, CSTS=0x1\n" +
				"[204283.569360] I/O error, dev nvme0n1, sector 2623470496 op 0x1:(WRITE) flags 0x0 phys_seg 1 prio class 2\n",
			first: []diagnose.Layer{diagnose.LayerAPST, diagnose.LayerFirmware}, apst: true,
			firmware: "kept reporting itself ready when the reset disabled it",
		},
		{
			// The line before the CSTS value was added, after timeouts
			// (linux-kernel, Message-ID 20190822172856.GA15785@localhost.localdomain):
			// nvme_wait_ready gave up with the controller on the bus and
			// RDY still set.
			name: "ready bit stuck, the old line",
			log: "[  201.657527] nvme nvme0: I/O 128 QID 2 timeout, reset controller\n" +
				"[  232.372876] nvme nvme0: I/O 8 QID 0 timeout, reset controller\n" +
				"[  323.643688] nvme nvme0: Device not ready; aborting reset\n",
			first: []diagnose.Layer{diagnose.LayerAPST, diagnose.LayerFirmware}, apst: true,
			firmware: "kept reporting itself ready when the reset disabled it",
		},
		{
			name:  "fatal status during the disable",
			log:   "[  100.000000] nvme nvme0: Device not ready; aborting reset, CSTS=0x3\n",
			apst:  false,
			first: []diagnose.Layer{diagnose.LayerFirmware},
		},
		{
			name:     "never ready at probe",
			log:      "[    2.700000] nvme nvme0: Device not ready; aborting initialisation, CSTS=0x0\n",
			apst:     false,
			first:    []diagnose.Layer{diagnose.LayerPlatform, diagnose.LayerFirmware},
			firmware: "did not reach the state the driver waited for",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := diagnoseFailure(t, tc.log)
			assert.ElementsMatch(t, tc.first, firstOf(&d), d.Summary)
			assert.Equal(t, tc.apst, causeOf(&d, diagnose.LayerAPST).Score > 0, d.Summary)
			if tc.firmware != "" {
				var said []string
				for _, e := range causeOf(&d, diagnose.LayerFirmware).Evidence {
					said = append(said, e.Text)
				}
				assert.Contains(t, strings.Join(said, "\n"), tc.firmware)
			}
		})
	}
}

// "Unable to change power state from D3cold to D0" after a controller
// went down is the reset finding the device gone (pci_power_up records
// D3cold for a device that reads all ones): a consequence, whatever
// PCI_STATUS the controller-down line had. With APST and ASPM both off
// on the log's own command line (x86's "Command line:" form), what is
// left is the drive and the platform, never the two layers that were off.
func TestD3coldAfterControllerDown(t *testing.T) {
	const (
		cmdline = "[    0.000000] Command line: BOOT_IMAGE=/boot/vmlinuz-6.8.0-45-generic root=UUID=abcd ro quiet nvme_core.default_ps_max_latency_us=0 pcie_aspm=off\n"
		// Real lines: lore.kernel.org's 6.1.0-17 report (CAO9zADza=...),
		// with the controller-down of a drive whose config space still
		// answered (https://github.com/raspberrypi/linux/issues/6661).
		fail = "[ 5000.100000] nvme nvme0: pci function 0000:03:00.0\n" +
			"[ 5000.123456] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n" +
			"[ 5000.123460] nvme nvme0: Does your device have a faulty power saving mode enabled?\n" +
			"[ 5000.123462] nvme nvme0: Try \"nvme_core.default_ps_max_latency_us=0 pcie_aspm=off\" and report a bug\n" +
			"[ 5000.200000] nvme 0000:03:00.0: Unable to change power state from D3cold to D0, device inaccessible\n" +
			"[ 5000.300000] nvme nvme0: Removing after probe failure status: -19\n"
	)
	l, err := kernlog.ReadString(fail, kernlog.Options{})
	require.NoError(t, err)
	d := diagnose.Diagnose(diagnose.Input{Log: l})
	assert.LessOrEqual(t, causeOf(&d, diagnose.LayerD3cold).Score, 0, d.Summary)
	assert.ElementsMatch(t, []diagnose.Layer{diagnose.LayerAPST, diagnose.LayerASPM}, firstOf(&d), d.Summary)

	l, err = kernlog.ReadString(cmdline+fail, kernlog.Options{})
	require.NoError(t, err)
	d = diagnose.Diagnose(diagnose.Input{Log: l})
	assert.Equal(t, []diagnose.Layer{diagnose.LayerDrive}, firstOf(&d), d.Summary)
	for _, c := range d.Causes {
		if c.Layer == diagnose.LayerAPST || c.Layer == diagnose.LayerASPM {
			assert.Less(t, c.Score, 0, "%s: %s", c.Layer, d.Summary)
		}
	}
}

// Before 4.12 the watchdog's "Failed status: 0xffffffff, reset
// controller." is the controller-down line, without PCI_STATUS; the
// reset's "Refused to change power state, currently in D3" after it reads
// the power state of a device already gone (config space all ones), the
// consequence that runtime PM was taken for ("most likely runtime-pm").
// The lines of the Ubuntu Forums thread "Severe NVME Issue with Ubuntu
// 16.04 and Samsung 960 Pro M2 SSD" (2016-12-24). Without the D3 line the
// device is not known to be gone: CSTS all ones alone does not say so.
func TestFailedStatusBefore412(t *testing.T) {
	const (
		down    = "[   37.805783] nvme 0000:01:00.0: Failed status: 0xffffffff, reset controller.\n"
		refused = "[   37.825887] nvme 0000:01:00.0: Refused to change power state, currently in D3\n"
		removed = "[   37.825934] nvme nvme0: Removing after probe failure status: -19\n" +
			"[   37.825941] nvme0n1: detected capacity change from 1024209543168 to 0\n"
	)
	d := diagnoseFailure(t, down+refused+removed)
	assert.ElementsMatch(t, []diagnose.Layer{diagnose.LayerAPST, diagnose.LayerASPM}, firstOf(&d), d.Summary)
	assert.LessOrEqual(t, causeOf(&d, diagnose.LayerRuntimePM).Score, 0, d.Summary)
	assert.Contains(t, texts(causeOf(&d, diagnose.LayerAPST).Evidence), "config space reads all ones")

	d = diagnoseFailure(t, down+removed)
	assert.NotContains(t, texts(causeOf(&d, diagnose.LayerAPST).Evidence), "config space reads all ones", d.Summary)

	// Before 4.5 (drivers/block/nvme-core.c): "Failed status: ffffffff",
	// and "Device failed to resume" for the reset that could not bring
	// the controller back (https://unix.stackexchange.com/questions/276439/,
	// "NVMe PCIe disk power cycling").
	d = diagnoseFailure(t, "[  192.688934] nvme 0000:01:00.0: Failed status: ffffffff, reset controller\n"+
		"[  192.699900] nvme 0000:01:00.0: Refused to change power state, currently in D3\n"+
		"[  192.699953] nvme 0000:01:00.0: Device failed to resume\n")
	assert.ElementsMatch(t, []diagnose.Layer{diagnose.LayerAPST, diagnose.LayerASPM}, firstOf(&d), d.Summary)
	assert.LessOrEqual(t, causeOf(&d, diagnose.LayerRuntimePM).Score, 0, d.Summary)
	assert.LessOrEqual(t, causeOf(&d, diagnose.LayerSuspend).Score, 0, d.Summary)
}

// The PCI ID of the log's enumeration line finds the PCI quirk table's
// entry a later kernel has: the Kingston A2000 (2646:2263) got
// NO_DEEPEST_PS in 5.11 (backported to 5.10.y), so 5.8 let it reach the
// state later kernels bar; 6.8 has the quirk, and the failure stays
// undecided between APST and ASPM.
func TestQuirkFromLogPCIID(t *testing.T) {
	const fail = "[    0.412500] pci 0000:01:00.0: [2646:2263] type 00 class 0x010802\n" +
		"[    1.100000] nvme nvme0: pci function 0000:01:00.0\n" +
		"[ 7305.118093] nvme nvme0: I/O 24 QID 3 timeout, aborting\n" +
		"[ 7336.014307] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n"
	for _, tc := range []struct {
		release string
		first   []diagnose.Layer
		likely  bool
	}{
		{"5.8.0-63-generic", []diagnose.Layer{diagnose.LayerAPST}, true},
		{"5.10.0-8-amd64", []diagnose.Layer{diagnose.LayerAPST, diagnose.LayerASPM}, false},
		{"6.8.0-45-generic", []diagnose.Layer{diagnose.LayerAPST, diagnose.LayerASPM}, false},
	} {
		l, err := kernlog.ReadString("[    0.000000] Linux version "+tc.release+" (builder@host) #1 SMP\n"+fail, kernlog.Options{})
		require.NoError(t, err)
		d := diagnose.Diagnose(diagnose.Input{Log: l})
		assert.ElementsMatch(t, tc.first, firstOf(&d), "%s: %s", tc.release, d.Summary)
		assert.Equal(t, tc.likely, d.Causes[0].Likelihood == diagnose.Likely, "%s: %s", tc.release, d.Summary)
		if tc.likely {
			assert.Contains(t, d.Causes[0].Evidence[0].Text, "2646:2263")
		}
	}
}

// A reset that fails with -ENODEV without a controller-down line before
// it is the same reading as CSTS all ones (nvme_pci_enable returns -19
// when CSTS reads all ones): undecided between APST and ASPM, not
// "nothing points". An uncorrected error that the port received for the
// drive is a failure even without the device's own "PCIe Bus Error" line,
// and so is the PCI core's recovery of the drive from one.
// The lines are nvme-pci's and aer.c's formats (kernel-apst.md §15).
func TestENODEVAndUncorrectedAlone(t *testing.T) {
	for _, tc := range []struct {
		log   string
		first []diagnose.Layer
	}{
		{"[  100.000000] nvme nvme0: Disabling device after reset failure: -19\n", []diagnose.Layer{diagnose.LayerAPST, diagnose.LayerASPM}},
		// APST's update alone is a removal's (TestAPSTMinus19AloneIsARemoval).
		{"[  100.000000] nvme nvme0: failed to set APST feature (-19)\n", []diagnose.Layer{diagnose.LayerUnknown}},
		{"[  100.000000] pcieport 0000:00:1c.0: AER: Uncorrected (Fatal) error received: 0000:01:00.0\n", []diagnose.Layer{diagnose.LayerLink}},
		// nvme_error_detected's line alone: the PCI core recovered the
		// drive from an uncorrectable error whose report was not pasted.
		{"[  100.000000] nvme nvme0: frozen state error detected, reset controller\n", []diagnose.Layer{diagnose.LayerLink}},
	} {
		l, err := kernlog.ReadString(tc.log, kernlog.Options{})
		require.NoError(t, err)
		d := diagnose.Diagnose(diagnose.Input{Log: l})
		require.True(t, d.Failure, tc.log)
		assert.ElementsMatch(t, tc.first, firstOf(&d), "%s: %s", tc.log, d.Summary)
	}
}

// The drive's own failure to resume, as the PM core reports it, is a
// failure of its own (suspend); another device's is not the drive's.
// drivers/base/power/main.c's line, as
// ml-amd-renoir-storaged3enable-quirk.log quotes it.
func TestPMErrorOfTheDriveAlone(t *testing.T) {
	l, err := kernlog.ReadString("[   95.332936] nvme 0000:03:00.0: PM: failed to resume async: error -16\n", kernlog.Options{})
	require.NoError(t, err)
	d := diagnose.Diagnose(diagnose.Input{Log: l})
	require.True(t, d.Failure, d.Summary)
	assert.Equal(t, []diagnose.Layer{diagnose.LayerSuspend}, firstOf(&d), d.Summary)

	l, err = kernlog.ReadString("[   95.332936] xhci_hcd 0000:00:14.0: PM: failed to suspend async: error -16\n", kernlog.Options{})
	require.NoError(t, err)
	d = diagnose.Diagnose(diagnose.Input{Log: l})
	assert.False(t, d.Failure, d.Summary)
}

// The command and the page give Diagnose the parsed release as well as the
// log (Input.Release): the known issues still match the log's own text
// ("6.2.0-rc1", which Release.String drops), and the platform is still told
// from it (a Raspberry Pi's "+rpt-rpi-2712"), as without Input.Release.
func TestReleaseTextWithParsedRelease(t *testing.T) {
	for _, tc := range []struct {
		release, log string
		check        func(t *testing.T, d diagnose.Diagnosis)
	}{
		{"6.2.0-rc1", "[   30.100000] nvme nvme0: I/O 0 (I/O Cmd) QID 2 timeout, aborting\n", func(t *testing.T, d diagnose.Diagnosis) {
			require.NotEmpty(t, d.Known, d.Summary)
			assert.Equal(t, "nvme-tagset-depth-6.2-rc1", d.Known[0].ID)
		}},
		{"6.6.31+rpt-rpi-2712", "[ 5000.000000] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n", func(t *testing.T, d diagnose.Diagnosis) {
			assert.Equal(t, persist.PlatformRaspberryPi, d.Platform, d.Summary)
		}},
	} {
		l, err := kernlog.ReadString("[    0.000000] Linux version "+tc.release+" (x@y) #1 SMP\n"+tc.log, kernlog.Options{})
		require.NoError(t, err)
		rel, err := apst.ParseRelease(l.Release)
		require.NoError(t, err)
		for _, in := range []diagnose.Input{{Log: l}, {Log: l, Release: rel}} {
			tc.check(t, diagnose.Diagnose(in))
		}
	}
}

// The PCI core names a device D3cold whenever its config space reads all
// ones (drivers/pci/pci.c: pci_update_current_state and pci_power_up), so
// a D3cold line that the driver's reset runs into, with nothing before
// it, says the device was gone when the reset began: powered off, or off
// the bus with its link. It is no longer "likely D3cold" alone; after a
// system sleep, or before the controller-down it caused, it still speaks
// for its layer. The lines are the kernel's formats.
func TestD3coldFoundByTheReset(t *testing.T) {
	const d3 = "[  812.104211] nvme 0000:03:00.0: Unable to change power state from D3cold to D0, device inaccessible\n"
	for _, tc := range []struct {
		name, log string
		facts     diagnose.Facts
		first     []diagnose.Layer
		likely    bool
	}{
		{
			name:  "the reset runs into it",
			log:   d3 + "[  812.108530] nvme nvme0: Disabling device after reset failure: -19\n",
			first: []diagnose.Layer{diagnose.LayerLink, diagnose.LayerD3cold},
		},
		{
			name:  "the probe runs into it",
			log:   d3 + "[  812.108530] nvme nvme0: Removing after probe failure status: -19\n",
			first: []diagnose.Layer{diagnose.LayerLink, diagnose.LayerD3cold},
		},
		{
			// The PCI core records D3cold for any device that reads all
			// ones, so the line alone does not tell powered off from
			// gone (a card reader's driver that broke the drive's link
			// at boot printed it, stable 6.1.46): possible, not likely.
			name:  "alone: read all ones, nothing says it was powered off",
			log:   d3,
			first: []diagnose.Layer{diagnose.LayerD3cold},
		},
		{
			name:   "alone, on a machine whose runtime PM may power the drive off",
			log:    d3,
			facts:  diagnose.Facts{Controller: "nvme0", Address: "0000:03:00.0", Path: []diagnose.Function{{Address: "0000:03:00.0", Role: "device", D3coldAllowed: fact("d3cold_allowed", "1"), Control: fact("power/control", "auto")}}},
			first:  []diagnose.Layer{diagnose.LayerD3cold},
			likely: true,
		},
		{
			name: "after a system sleep",
			log: "[  811.002113] PM: suspend exit\n" + d3 +
				"[  812.108530] nvme nvme0: Disabling device after reset failure: -19\n",
			first:  []diagnose.Layer{diagnose.LayerSuspend},
			likely: true,
		},
		{
			name: "found in D3cold, then the controller-down it caused",
			log: d3 + "[  812.105000] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff\n" +
				"[  812.108530] nvme nvme0: Removing after probe failure status: -19\n",
			first: []diagnose.Layer{diagnose.LayerD3cold},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tc.log, kernlog.Options{})
			require.NoError(t, err)
			d := diagnose.Diagnose(diagnose.Input{Log: l, Facts: tc.facts})
			assert.Equal(t, tc.first, firstOf(&d), d.Summary)
			if tc.likely {
				assert.Equal(t, diagnose.Likely, d.Causes[0].Likelihood, d.Summary)
			} else {
				assert.NotEqual(t, diagnose.Likely, d.Causes[0].Likelihood, d.Summary)
			}
		})
	}
}

// A host controller whose link never trained (a Raspberry Pi's brcm-pcie
// prints "link down"): the drive was never seen, which is the link or
// its power; an NVMe failure elsewhere in the log is still the one
// diagnosed. The lines are the kernel's formats (pcie-brcmstb.c).
func TestHostLinkNeverTrained(t *testing.T) {
	const down = "[    1.134565] brcm-pcie 1000110000.pcie: link down\n"
	l, err := kernlog.ReadString(down, kernlog.Options{})
	require.NoError(t, err)
	d := diagnose.Diagnose(diagnose.Input{Log: l})
	assert.Equal(t, []diagnose.Layer{diagnose.LayerLink, diagnose.LayerPowerLoss}, firstOf(&d), d.Summary)
	for _, c := range d.Causes {
		for _, tst := range c.Tests {
			assert.NotContains(t, tst.Command, "lspci -vvv -s", "no device to read")
		}
	}

	l, err = kernlog.ReadString(down+"[  812.104211] nvme nvme0: I/O 123 QID 5 timeout, completion polled\n", kernlog.Options{})
	require.NoError(t, err)
	d = diagnose.Diagnose(diagnose.Input{Log: l})
	assert.Equal(t, "nvme0", d.Controller)
	assert.Equal(t, []diagnose.Layer{diagnose.LayerPlatform}, firstOf(&d), d.Summary)
}

// A failure that a resume's own line follows within seconds, with no
// suspend between, came while the system resumed: an excerpt that starts
// mid-resume (Kai-Heng Feng's S3 resume, linux-pci, Message-ID:
// <CAAd53p7FfRCgfC5dGL3HyP+rbVtR2VCfMPYBBvJ=-DFCWFeVPA@mail.gmail.com>,
// posted zg-03). Its D3hot is where the sleep put the drive, no runtime
// suspend's. A suspend between, or a resume line long after, is not that.
func TestFailureBeforeItsResumeLine(t *testing.T) {
	const failure = "[   50.947843] nvme nvme0: frozen state error detected, reset controller\n"
	const d3hot = "[   50.951610] nvme 0000:01:00.0: can't change power state from D3hot to D0 (config space inaccessible)\n" +
		"[   50.951730] nvme nvme0: Removing after probe failure status: -19\n"
	for _, tc := range []struct {
		name, log string
		mid       bool
	}{
		{"mid-resume", failure + "[   50.948400] ACPI: EC: event unblocked\n" + d3hot, true},
		{"a suspend between", failure + "[   51.000000] PM: suspend entry (deep)\n[   51.900000] PM: suspend exit\n" + d3hot, false},
		{"a resume long after", failure + d3hot + "[   75.100000] PM: suspend exit\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := diagnoseFailure(t, tc.log)
			assert.Equal(t, tc.mid, d.OnResume, d.Summary)
			suspend := causeOf(&d, diagnose.LayerSuspend).Evidence
			var while bool
			for _, e := range suspend {
				while = while || strings.Contains(e.Text, "the failure came while the system resumed, before this line of the resume")
			}
			assert.Equal(t, tc.mid, while, "%+v", suspend)
			for _, e := range causeOf(&d, diagnose.LayerRuntimePM).Evidence {
				assert.Equal(t, !tc.mid, strings.Contains(e.Text, "after a runtime suspend"), e.Text)
			}
			if tc.mid {
				assert.Equal(t, []diagnose.Layer{diagnose.LayerSuspend}, firstOf(&d), d.Summary)
			}
		})
	}
}

// A failure after a suspend began, with no resume line between, is said
// to have come during the sleep, not on resume: a kernel warning from
// nvme_suspend's disabling of the queues after printk suspended the
// consoles (an Acer Nitro 5's hibernation, linux-nvme, Message-ID:
// <CAEJqkggcnW98Sk3BEBCCZf57Uwd9rdqD5Da0tmuTaNfkJN5kVg@mail.gmail.com>,
// posted zj-06).
func TestFailureAfterSuspendBegan(t *testing.T) {
	d := diagnoseFailure(t, `Sep 11 16:16:30 nitro5 kernel: printk: Suspending console(s) (use no_console_suspend to debug)
Sep 11 16:16:30 nitro5 kernel: WARNING: CPU: 0 PID: 882 at kernel/irq/chip.c:210 irq_startup+0xe6/0xf0
Sep 11 16:16:30 nitro5 kernel: Workqueue: events_unbound async_run_entry_fn
Sep 11 16:16:30 nitro5 kernel: RIP: 0010:irq_startup+0xe6/0xf0
Sep 11 16:16:30 nitro5 kernel: Call Trace:
Sep 11 16:16:30 nitro5 kernel:  nvme_poll_irqdisable+0x20c/0x280 [nvme]
Sep 11 16:16:30 nitro5 kernel:  nvme_suspend+0x40/0x130 [nvme]
Sep 11 16:16:30 nitro5 kernel: ---[ end trace 3a7b9d6ac4d8c1f3 ]---
`)
	assert.True(t, d.OnResume)
	assert.Contains(t, d.Summary, "It happened during a system sleep, after its suspend began.")
	assert.NotContains(t, d.Summary, "on resume")
}

// The PM core's report that the drive failed to resume sets OnResume
// (the JSON's on_resume) without a sleep line in the excerpt, and the
// summary says it once (a Qualcomm board's resume that hung a minute,
// linux-arm-msm, posted zl-02).
func TestResumeFailureIsOnResume(t *testing.T) {
	d := diagnoseFailure(t, `> [  119.994092] nvme nvme0: I/O 9 QID 0 timeout, reset controller
> [  120.013502] nvme 0001:01:00.0: PM: pci_pm_resume+0x0/0xe4 returned -16 after 60059958 usecs
> [  120.022239] nvme 0001:01:00.0: PM: failed to resume async: error -16
`)
	assert.True(t, d.OnResume, d.Summary)
	assert.Equal(t, 1, strings.Count(d.Summary, "resume"), d.Summary)
}

// A failure right after a resume says so once in the summary: the cause's
// own reason when it is the resume, the closing sentence otherwise. Media
// errors the drive reported are no sleep transition's doing: right after
// a resume they still convict the drive, the timing said but weighing
// little. The sleep lines are the PM core's (kernel/power/suspend.c), the
// rest nvme-core's and the block layer's.
func TestOnResumeSaidOnce(t *testing.T) {
	const tail = "Feb 10 09:13:15 laptop kernel: nvme nvme0: I/O 0 QID 0 timeout, reset controller\n" +
		"Feb 10 09:14:47 laptop kernel: nvme nvme0: Device not ready; aborting reset, CSTS=0x1\n" +
		"Feb 10 09:14:47 laptop kernel: nvme nvme0: Removing after probe failure status: -19\n"
	for _, tc := range []struct {
		name, log string
		first     diagnose.Layer
	}{
		{"resume first", "Feb 10 08:01:02 laptop kernel: PM: suspend entry (s2idle)\n" +
			"Feb 10 09:12:44 laptop kernel: PM: suspend exit\n" + tail, diagnose.LayerSuspend},
		{"media errors after a resume", "Feb 10 08:01:02 laptop kernel: PM: suspend entry (s2idle)\n" +
			"Feb 10 09:12:44 laptop kernel: PM: suspend exit\n" +
			"Feb 10 09:12:50 laptop kernel: nvme0n1: Read(0x2) @ LBA 3800, 8 blocks, Unrecovered Read Error (sct 0x2 / sc 0x81) DNR \n" +
			"Feb 10 09:12:50 laptop kernel: critical medium error, dev nvme0n1, sector 3800 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 2\n",
			diagnose.LayerDrive},
		// An s2idle cycle's excerpt without the PM core's lines: the
		// freezer's, printk's and the embedded controller's (an HP
		// laptop's resume posted to kvm@, aZWctruDVn8aMZBG@debian.local).
		{"resume without the PM core's lines", "Feb 10 08:01:02 laptop kernel: Freezing user space processes\n" +
			"Feb 10 08:01:02 laptop kernel: printk: Suspending console(s) (use no_console_suspend to debug)\n" +
			"Feb 10 08:01:03 laptop kernel: ACPI: EC: interrupt blocked\n" +
			"Feb 10 09:12:44 laptop kernel: ACPI: EC: interrupt unblocked\n" + tail, diagnose.LayerSuspend},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := diagnoseFailure(t, tc.log)
			require.True(t, d.OnResume, d.Summary)
			assert.Equal(t, 1, strings.Count(d.Summary, "on resume"), d.Summary)
			assert.Equal(t, []diagnose.Layer{tc.first}, firstOf(&d), d.Summary)
		})
	}
}

// A warning in the nvme driver's own code while the system goes to sleep,
// with no failure the drive reported, is a kernel bug the sleep ran into:
// the platform first, the timing said (it was "suspend" by the sleep's
// weight once the failure's first line was taken for the sleep line that
// shares its incident). The lines are Gabriel C's Acer Nitro 5 journal as
// Ming Lei quoted it on linux-nvme ("nvme vs. hibernation ( again )",
// CACVXFVNiRX+K8toexRfykazVnpC1sNYj2UbUtnqNeqkqUfs8TA@mail.gmail.com),
// unwrapped.
func TestDriverWarningInASleep(t *testing.T) {
	const log = "Sep 11 16:16:30 nitro5 kernel: Freezing remaining freezable tasks ... (elapsed 0.000 seconds) done.\n" +
		"Sep 11 16:16:30 nitro5 kernel: printk: Suspending console(s) (use no_console_suspend to debug)\n" +
		"Sep 11 16:16:30 nitro5 kernel: WARNING: CPU: 0 PID: 882 at kernel/irq/chip.c:210 irq_startup+0xe6/0xf0\n" +
		"Sep 11 16:16:30 nitro5 kernel: Call Trace:\n" +
		"Sep 11 16:16:30 nitro5 kernel:  enable_irq+0x48/0x90\n" +
		"Sep 11 16:16:30 nitro5 kernel:  nvme_poll_irqdisable+0x20c/0x280\n" +
		"Sep 11 16:16:30 nitro5 kernel:  __nvme_disable_io_queues+0x19d/0x1d0\n" +
		"Sep 11 16:16:30 nitro5 kernel:  nvme_dev_disable+0x15c/0x210\n" +
		"Sep 11 16:16:30 nitro5 kernel:  nvme_suspend+0x40/0x130\n" +
		"Sep 11 16:16:30 nitro5 kernel:  pci_pm_suspend+0x72/0x130\n"
	d := diagnoseFailure(t, log)
	assert.True(t, d.OnResume, d.Summary)
	assert.Equal(t, []diagnose.Layer{diagnose.LayerPlatform}, firstOf(&d), d.Summary)
	require.GreaterOrEqual(t, len(d.Causes), 2, d.Summary)
	assert.Equal(t, diagnose.LayerSuspend, d.Causes[1].Layer)
}

// "failed to set APST feature" with an NVMe status is the drive refusing
// the kernel's table, which nvme-core logs and goes on without
// (nvme_configure_apst): no failure alone, and beside a later failure it
// speaks against APST, the kernel's table never having been in force. A
// negative errno (-19) is a controller that did not answer: a failure.
// The refusal is a tuning thread's line
// (testdata/threads/ml7-adata-spectrix-s40g-duplicate-nid-bogus-nid.log).
func TestAPSTTableRefused(t *testing.T) {
	const (
		boot    = "[    2.274437] nvme nvme1: pci function 0000:06:00.0\n"
		refused = "[    2.326153] nvme nvme1: failed to set APST feature (2)\n"
		down    = "[  900.000000] nvme nvme1: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n"
	)
	l, err := kernlog.ReadString(boot+refused, kernlog.Options{})
	require.NoError(t, err)
	d := diagnose.Diagnose(diagnose.Input{Log: l})
	assert.False(t, d.Failure, d.Summary)

	d = diagnoseFailure(t, boot+refused+down)
	var against []string
	for _, e := range causeOf(&d, diagnose.LayerAPST).Against {
		against = append(against, e.Quote)
	}
	assert.Contains(t, against, strings.TrimSuffix(refused, "\n"))

	d = diagnoseFailure(t, boot+down)
	assert.Empty(t, causeOf(&d, diagnose.LayerAPST).Against)
}

// A disk whose capacity fell to zero is a failure seen, though the log
// says nothing of why: unknown, not "no failure seen". The line is
// block/genhd.c's, as a linux-pci thread quoted it.
func TestDiskGoneAlone(t *testing.T) {
	d := diagnoseFailure(t, "[  178.004633] nvme5n1: detected capacity change from 83984375 to 0\n")
	assert.Equal(t, diagnose.LayerUnknown, d.Causes[0].Layer, d.Summary)
	assert.Equal(t, "nvme5", d.Controller)
}

// A drive that did not come back from suspend-to-RAM on a Qualcomm laptop,
// as its reporter quoted it
// (https://lore.kernel.org/all/ah3agpwmcDfn9plX@google.com/): the PCI core
// had no record of its state ("from unknown"), which is no runtime
// suspend's D3hot, and the PM core's watchdog fired on its callback during
// the system sleep: suspend.
func TestResumeFromUnknownState(t *testing.T) {
	d := diagnoseFailure(t, "[   58.384442] nvme 0001:01:00.0: Unable to change power state from unknown to D0, device inaccessible\n"+
		"[   68.875606] nvme 0001:01:00.0: PM: **** DPM device timeout ****\n")
	require.Equal(t, diagnose.LayerSuspend, d.Causes[0].Layer, d.Summary)
	assert.Equal(t, 2, d.Causes[0].Evidence[0].Line)
	assert.LessOrEqual(t, causeOf(&d, diagnose.LayerRuntimePM).Score, 0, "no runtime suspend's D3hot")
}

// A drive that did not finish its shutdown in time is a failure whose
// layer the line does not give; the answer says what the line means and
// the one setting that tells a slow drive from one that stopped
// answering. The lines are nvme-core's in both wordings: before 6.3
// (nvme_shutdown_ctrl, as a sof-test CI log quoted it,
// https://github.com/thesofproject/sof-test/issues/616) and after
// (nvme_wait_ready's "aborting shutdown", as an Asahi Linux issue quoted
// it, https://github.com/AsahiLinux/linux/issues/421).
func TestShutdownIncomplete(t *testing.T) {
	for _, line := range []string{
		"[ 6846.214748] kernel: nvme nvme0: Device shutdown incomplete; abort shutdown",
		"[144959.150912] nvme nvme0: Device not ready; aborting shutdown, CSTS=0x5",
	} {
		d := diagnoseFailure(t, line+"\n")
		require.Equal(t, diagnose.LayerUnknown, d.Causes[0].Layer, d.Summary)
		c := d.Causes[0]
		require.Len(t, c.Evidence, 2, line)
		assert.Equal(t, 1, c.Evidence[1].Line)
		assert.Equal(t, line, c.Evidence[1].Quote)
		assert.Contains(t, c.Evidence[1].Text, "did not finish its shutdown")
		assert.Contains(t, d.Summary, "did not finish its shutdown in the time the kernel waits (line 1)")
		require.NotEmpty(t, c.Tests)
		assert.Equal(t, "nvme_core.shutdown_timeout=30", c.Tests[0].Setting)
	}
	// Already tried without help: not recommended again.
	d := diagnoseFailure(t, "[  1.0] nvme nvme0: Device shutdown incomplete; abort shutdown\n",
		diagnose.Tried{Setting: "nvme_core.shutdown_timeout", Value: "30", Outcome: diagnose.DidNotHelp})
	for _, tt := range d.Causes[0].Tests {
		assert.NotEqual(t, "nvme_core.shutdown_timeout=30", tt.Setting)
	}
}

// A drive that answers Access Denied (sct 0x2 / sc 0x86) is a locked
// self-encrypting drive, not a failing one nor a power layer's: the
// answer says so and how to ask the drive; after a resume it is the
// sleep's (an Opal drive relocks when it loses power, and the kernel
// unlocks it only with a key saved for that). The lines are a sedutil
// user's (https://github.com/Drive-Trust-Alliance/sedutil/issues/507).
func TestAccessDenied(t *testing.T) {
	const denied = "[    8.056640] nvme0n1: I/O Cmd(0x2) @ LBA 0, 8 blocks, I/O Error (sct 0x2 / sc 0x86) DNR \n" +
		"[    8.056662] critical medium error, dev nvme0n1, sector 0 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 2\n"
	d := diagnoseFailure(t, "[    8.035821] nvme nvme0: pci function 0000:01:00.0\n"+denied)
	require.Equal(t, diagnose.LayerUnknown, d.Causes[0].Layer, d.Summary)
	assert.Contains(t, d.Summary, "refused access to its data (line 2: Access Denied)")
	assert.Empty(t, d.Undecided)
	assert.False(t, d.Replace, "a locked drive is no failing drive")
	assert.Equal(t, "sudo sedutil-cli --query /dev/nvme0n1", d.Causes[0].Tests[0].Command)

	d = diagnoseFailure(t, "[    7.000000] PM: suspend exit\n"+denied)
	require.Equal(t, diagnose.LayerSuspend, d.Causes[0].Layer, d.Summary)
	c := causeOf(&d, diagnose.LayerSuspend)
	assert.True(t, slices.ContainsFunc(c.Evidence, func(l diagnose.Line) bool { return strings.Contains(l.Text, "locks itself when it loses power") }), "%+v", c.Evidence)
	assert.True(t, slices.ContainsFunc(c.Tests, func(tt diagnose.Test) bool { return strings.HasPrefix(tt.Command, "sudo sedutil-cli --query") }))
}

// Of causes of the same score, a likely one comes before a possible one:
// a resume that failed after an s2idle suspend, whose D3cold line scores
// as much as the failed resume, was answered "possibly d3cold" above
// "suspend likely".
func TestLikelyBeforePossibleOfItsScore(t *testing.T) {
	d := diagnoseFailure(t, `[Sat Jun 29 22:10:01 2024] Linux version 6.9.7-arch1-1 (linux@archlinux) (gcc (GCC) 14.1.1 20240522, GNU ld (GNU Binutils) 2.42.0) #1 SMP PREEMPT_DYNAMIC
[Sat Jun 29 22:10:02 2024] nvme nvme0: pci function 0000:03:00.0
[Sun Jun 30 01:22:10 2024] PM: suspend entry (s2idle)
[Sun Jun 30 07:45:31 2024] nvme 0000:03:00.0: Unable to change power state from D3cold to D0, device inaccessible
[Sun Jun 30 07:45:32 2024] nvme 0000:03:00.0: PM: dpm_run_callback(): pci_pm_resume+0x0/0xe0 returns -19
[Sun Jun 30 07:45:32 2024] nvme 0000:03:00.0: PM: failed to resume async: error -19
[Sun Jun 30 07:45:33 2024] PM: suspend exit
[Sun Jun 30 07:46:04 2024] nvme nvme0: I/O tag 17 (1011) opcode 0x1 (Write) QID 3 timeout, aborting req_op:WRITE(1) size:4096
[Sun Jun 30 07:46:35 2024] nvme nvme0: Device not ready; aborting reset, CSTS=0x1
[Sun Jun 30 07:46:35 2024] nvme nvme0: Removing after probe failure status: -19
`)
	require.NotEmpty(t, d.Causes)
	assert.Equal(t, diagnose.LayerSuspend, d.Causes[0].Layer, d.Summary)
	for i := 1; i < len(d.Causes); i++ {
		a, b := d.Causes[i-1], d.Causes[i]
		if a.Score == b.Score {
			assert.False(t, a.Likelihood == diagnose.Possible && b.Likelihood == diagnose.Likely, "%s possible above %s likely, both %d", a.Layer, b.Layer, a.Score)
		}
	}
}

// Asked about a controller that did not fail, in a log where another did,
// the answer says no failure of the one asked about and points at the one
// that failed; asked about that one, it is diagnosed.
func TestOtherControllerFailed(t *testing.T) {
	const log = `[    1.100000] nvme nvme0: pci function 0000:02:00.0
[    1.200000] nvme nvme1: pci function 0000:03:00.0
[  500.100000] nvme nvme1: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10
[  500.200000] nvme nvme1: Removing after probe failure status: -19
`
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	d := diagnose.Diagnose(diagnose.Input{Log: l, Controller: "nvme0"})
	assert.False(t, d.Failure)
	assert.Equal(t, "no failure seen in the kernel log for nvme0, but line 3 is a failure of nvme1: name that controller to diagnose it", d.Summary)
	d = diagnose.Diagnose(diagnose.Input{Log: l, Controller: "nvme1"})
	assert.True(t, d.Failure, d.Summary)
	// A healthy log says nothing more.
	l, err = kernlog.ReadString(strings.SplitAfterN(log, "\n", 3)[0]+strings.SplitAfterN(log, "\n", 3)[1], kernlog.Options{})
	require.NoError(t, err)
	assert.Equal(t, "no failure seen in the kernel log for nvme0", diagnose.Diagnose(diagnose.Input{Log: l, Controller: "nvme0"}).Summary)
}

// I/O errors of status Host Aborted Command (sct 0x3 / sc 0x71) without a
// line of the reset or removal that gives it are said to be that, with
// where the missing lines are; beside the reset's own line they are its
// consequence and the reset is the failure. The lines are a crucible
// issue's (https://github.com/oxidecomputer/crucible/issues/1844).
func TestHostAbortedWithoutItsReset(t *testing.T) {
	const aborted = "[ 4700.636735] nvme0n1: I/O Cmd(0x2) @ LBA 131209936, 200 blocks, I/O Error (sct 0x3 / sc 0x71) \n" +
		"[ 4700.639133] I/O error, dev nvme0n1, sector 131209936 op 0x0:(READ) flags 0x80700 phys_seg 25 prio class 0\n"
	d := diagnoseFailure(t, aborted)
	require.Equal(t, diagnose.LayerUnknown, d.Causes[0].Layer, d.Summary)
	assert.Contains(t, d.Summary, "the host aborted the drive's commands (line 1: Host Aborted Command)")
	e := d.Causes[0].Evidence[0]
	assert.Equal(t, 1, e.Line)
	assert.Contains(t, e.Text, "Host Aborted Command")

	d = diagnoseFailure(t, "[ 4690.100000] nvme nvme0: I/O tag 12 (100c) QID 3 timeout, reset controller\n"+aborted)
	assert.NotContains(t, d.Summary, "host aborted", "the reset is in the log")
}

// A suspend that fails on a controller the driver had already given up as
// gone ("Disabling device after reset failure: -19", then "nvme_suspend
// returns -16") is the dead device's consequence, not the sleep's failure
// (notes on a drive pulled out while running, posted zb-03); the same
// suspend failure alone is the sleep's.
func TestSuspendAfterTheDeviceIsGone(t *testing.T) {
	const gone = "nvme 0000:02:00.0: Unable to change power state from D3hot to D0, device inaccessible\n" +
		"nvme nvme0: Disabling device after reset failure: -19\n"
	const suspend = "nvme 0000:02:00.0: PM: pci_pm_suspend(): nvme_suspend returns -16\n" +
		"nvme 0000:02:00.0: PM: failed to suspend async: error -16\n"
	d := summaryOf(t, gone+suspend, true, "")
	if c := d.Cause(diagnose.LayerSuspend); c != nil {
		assert.LessOrEqual(t, c.Score, 0, "%+v", c)
	}
	d = summaryOf(t, suspend, true, "")
	assert.Equal(t, diagnose.LayerSuspend, d.Causes[0].Layer)
}

// APST's update failing with -19 and nothing else of the controller is
// its removal: nvme-core updated APST as it hid the latency tolerance of
// a controller it removed, and the admin queue, gone, refused the command
// with -ENODEV (until 53fe2a30bc16, 5.13; the stable mail of 5.4's
// update, Message-Id <20210517140247.543267847@linuxfoundation.org>, says
// so). The answer says the drive was let go, not why, and neither
// APST nor the link is named for it (a laptop's driver unbound on purpose,
// linux-kernel Message-ID <20191108174846.GA22677@willie-the-truck>,
// posted b-19; two drives removed through sysfs, posted zk-04). After a
// probe that failed with -19 it stays that failure's echo, and after I/O
// errors of the drive's disk a drop-out whose reset the paste left out
// (XCP-ng's page on APST, posted a-13).
func TestAPSTMinus19AloneIsARemoval(t *testing.T) {
	const apst = "[90139.090158] nvme nvme0: failed to set APST feature (-19)\n"
	d := diagnoseFailure(t, apst+"[90141.966780] Aborting journal on device dm-1-8.\n")
	assert.Equal(t, diagnose.LayerUnknown, d.Causes[0].Layer, d.Summary)
	assert.Empty(t, d.Undecided, d.Summary)
	assert.Contains(t, d.Summary, "the driver let the controller go (line 1")
	assert.Contains(t, d.Causes[0].Evidence[0].Text, "nvme-core made that update as it removed a controller")
	for _, l := range []diagnose.Layer{diagnose.LayerAPST, diagnose.LayerASPM, diagnose.LayerLink} {
		assert.Empty(t, causeOf(&d, l).Evidence, l)
	}

	for _, before := range []string{
		"[  112.465758] nvme nvme0: Removing after probe failure status: -19\n",
		"[90139.050040] print_req_error: I/O error, dev nvme0n1, sector 223301496\n",
	} {
		d := diagnoseFailure(t, before+apst)
		assert.NotContains(t, d.Summary, "the driver let the controller go", d.Summary)
		assert.NotEqual(t, diagnose.LayerUnknown, d.Causes[0].Layer, d.Summary)
	}
}

// A controller the driver removed has no /dev/nvmeN or /sys/class/nvme
// entry for the tests to name until it is brought back: a note says so
// once (a Razer Blade's probe, posted zn-04; a Chromebook's Thunderbolt
// SSD, posted e-04); a controller that spoke again after it, or one whose
// reset raced, gets none.
func TestRemovedControllerNote(t *testing.T) {
	note := func(d diagnose.Diagnosis) bool {
		return slices.ContainsFunc(d.Notes, func(n string) bool { return strings.HasPrefix(n, "the kernel removed nvme0 (line ") })
	}
	assert.True(t, note(diagnoseFailure(t, "[    2.715192] nvme nvme0: Removing after probe failure status: -19\n")))
	assert.True(t, note(diagnoseFailure(t, "[  100.000000] nvme nvme0: Disabling device after reset failure: -19\n[  100.100000] nvme nvme0: failed to set APST feature (-19)\n")))
	assert.False(t, note(diagnoseFailure(t, "[  100.000000] nvme nvme0: I/O 12 QID 2 timeout, reset controller\n")))
	assert.False(t, note(diagnoseFailure(t, "[  100.000000] nvme nvme0: Removing after probe failure status: -19\n[  200.000000] nvme nvme0: I/O 12 QID 2 timeout, reset controller\n")))
}

// A port's failure in a branch of the tree the log's bridge lines keep
// apart from every NVMe function it names is no drive's failure (a Dell
// XPS 13's hw-probe dmesg, posted zt-05: its Thunderbolt switch's port
// refused to leave D3 as the dock left, the drive at 3c:00.0 below
// another root port); the same line from the drive's own root port is
// the drive's.
func TestPortOfAnotherBranch(t *testing.T) {
	const bridges = "[    0.437377] pci 0000:00:1d.0: PCI bridge to [bus 3c]\n" +
		"[   44.636428] pci 0000:02:00.0: PCI bridge to [bus 03]\n" +
		"[    2.619705] nvme nvme0: pci function 0000:3c:00.0\n"
	l, err := kernlog.ReadString(bridges+"[   91.012767] pcieport 0000:02:00.0: Refused to change power state, currently in D3\n", kernlog.Options{})
	require.NoError(t, err)
	d := diagnose.Diagnose(diagnose.Input{Log: l})
	assert.False(t, d.Failure, d.Summary)

	ours := diagnoseFailure(t, bridges+"[   91.012767] pcieport 0000:00:1d.0: Refused to change power state, currently in D3\n")
	assert.Equal(t, "nvme0", ours.Controller, ours.Summary)
}

// Corrected errors of a link after a resume are the link's (it retrained
// and recovered; nothing of the drive's sleep failed): the timing is said
// under the suspend layer and weighs nothing, so the link's layer answers
// (posted zl-01, a ThinkPad's Data Link Layer errors after every s2idle
// resume, which pcie_aspm=off ended). A drive that failed after a resume
// still puts the suspend layer first.
func TestCorrectedErrorsAfterResume(t *testing.T) {
	const sleep = "Dec 29 18:40:00 host kernel: PM: suspend entry (s2idle)\n" +
		"Dec 29 18:52:30 host kernel: PM: suspend exit\n"
	const corrected = "Dec 29 18:52:31 host kernel: pcieport 0000:00:1d.0: AER: Corrected error received: 0000:04:00.0\n" +
		"Dec 29 18:52:31 host kernel: nvme 0000:04:00.0: PCIe Bus Error: severity=Corrected, type=Data Link Layer, (Transmitter ID)\n" +
		"Dec 29 18:52:31 host kernel: nvme 0000:04:00.0:   device [144d:a80c] error status/mask=00001000/00002000\n" +
		"Dec 29 18:52:31 host kernel: nvme 0000:04:00.0:    [12] Timeout\n"
	d := diagnoseFailure(t, sleep+corrected)
	require.Empty(t, d.Undecided, d.Summary)
	assert.Equal(t, diagnose.LayerASPM, d.Causes[0].Layer.Group(), d.Summary)
	s := causeOf(&d, diagnose.LayerSuspend)
	assert.NotEqual(t, diagnose.Likely, s.Likelihood, d.Summary)
	assert.LessOrEqual(t, s.Score, 0, d.Summary)
	require.NotEmpty(t, s.Evidence, "the timing is said")
	assert.Contains(t, s.Evidence[0].Text, "corrected errors of the link")

	d = diagnoseFailure(t, sleep+corrected+"Dec 29 18:53:02 host kernel: nvme nvme0: I/O 0 QID 0 timeout, reset controller\n")
	assert.Contains(t, append(d.Undecided, d.Causes[0].Layer), diagnose.LayerSuspend, d.Summary)
}

// A reset that no failure in the log asked for, whose bring-up the drive
// did not answer, is a resume's (or a user's) when the log is nvme's
// lines alone: suspend and platform, undecided, and the suspend cause
// says to look for the resume in the whole log. A failure before the
// reset, a resume line or a reset that raced another state change keep
// their own readings. The lines are nvme-pci's of 6.3 and later, as
// posted (p-01, a T1 MacBook Pro's s2idle resume).
func TestResetNoFailureAskedFor(t *testing.T) {
	const bringUp = "[ 5000.1] nvme nvme0: I/O tag 28 (1014) QID 0 timeout, disable controller\n" +
		"[ 5000.2] nvme nvme0: Identify Controller failed (-4)\n" +
		"[ 5000.3] nvme nvme0: Disabling device after reset failure: -5\n"
	const unasked = "the drive did not come back from a reset that no failure in this log asked for"
	for _, tc := range []struct {
		name, log string
		unasked   bool
	}{
		{name: "timeout and Identify in the bring-up", log: bringUp, unasked: true},
		{name: "Identify alone", log: "[ 5000.2] nvme nvme0: Identify Controller failed (-4)\n[ 5000.3] nvme nvme0: Disabling device after reset failure: -5\n", unasked: true},
		{name: "the running controller timed out first", log: "[ 4970.0] nvme nvme0: I/O tag 12 (a00c) QID 3 timeout, reset controller\n" + bringUp},
		{name: "the controller went down first", log: "[ 4999.0] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n" + bringUp},
		{name: "right after a resume", log: "[ 4990.0] PM: suspend exit\n" + bringUp},
		{name: "a reset failure without a bring-up failure", log: "[ 5000.3] nvme nvme0: Disabling device after reset failure: -19\n"},
		{name: "not ready in the reset", log: "[ 5000.1] nvme nvme0: Device not ready; aborting reset, CSTS=0x1\n" + bringUp},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := diagnoseFailure(t, tc.log)
			said := slices.ContainsFunc(causeOf(&d, diagnose.LayerSuspend).Evidence, func(l diagnose.Line) bool { return strings.HasPrefix(l.Text, unasked) })
			assert.Equal(t, tc.unasked, said, d.Summary)
			if tc.unasked {
				assert.Equal(t, []diagnose.Layer{diagnose.LayerSuspend, diagnose.LayerPlatform}, firstOf(&d), d.Summary)
				require.NotEmpty(t, causeOf(&d, diagnose.LayerSuspend).Tests)
				assert.Contains(t, causeOf(&d, diagnose.LayerSuspend).Tests[0].Command, "PM: suspend (entry|exit)")
			}
		})
	}
}
