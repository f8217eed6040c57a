package diagnose_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

func TestParseTriedFlag(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []diagnose.Tried
	}{
		{"pcie_aspm=off", []diagnose.Tried{{Setting: "pcie_aspm", Value: "off", Outcome: diagnose.DidNotHelp}}},
		{"pcie_aspm=off:helped", []diagnose.Tried{{Setting: "pcie_aspm", Value: "off", Outcome: diagnose.Helped}}},
		{"nvme_core.default_ps_max_latency_us=0:no,nvme.noacpi=1:partly", []diagnose.Tried{
			{Setting: "nvme_core.default_ps_max_latency_us", Value: "0", Outcome: diagnose.DidNotHelp},
			{Setting: "nvme.noacpi", Value: "1", Outcome: diagnose.Partly}}},
		{"/sys/bus/pci/devices/0000:01:00.0/d3cold_allowed=0:yes", []diagnose.Tried{{Setting: "/sys/bus/pci/devices/0000:01:00.0/d3cold_allowed", Value: "0", Outcome: diagnose.Helped}}},
		{"dtparam=pciex1_gen=2", []diagnose.Tried{{Setting: "dtparam", Value: "pciex1_gen=2", Outcome: diagnose.DidNotHelp}}},
	} {
		got, err := diagnose.ParseTriedFlag(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
	for _, bad := range []string{"", " , ", "pcie_aspm=off:maybe", "=1", "x=$(reboot)", "pcie_aspm=off:helped,pcie_aspm=OFF:no"} {
		_, err := diagnose.ParseTriedFlag(bad)
		assert.Error(t, err, bad)
	}
	_, err := diagnose.ParseTriedFlag("pcie_aspm=off:helped,pcie_aspm=off")
	assert.ErrorContains(t, err, "pcie_aspm=off (helped) and pcie_aspm=off (did not help) contradict each other")
	// The same setting twice with one outcome, or with other values, is
	// no contradiction.
	for _, ok := range []string{"pcie_aspm=off,pcie_aspm=off:no", "nvme_core.default_ps_max_latency_us=0:no,nvme_core.default_ps_max_latency_us=5500:helped"} {
		_, err := diagnose.ParseTriedFlag(ok)
		assert.NoError(t, err, ok)
	}
}

// A --tried setting a letter or two off one the rules know is a typo that
// would weigh nothing: refused, with the one it likely means; other names
// (kernel parameters the rules do not weigh, sysfs files, short words) are
// kept as they are.
func TestParseTriedFlagTypos(t *testing.T) {
	for _, tc := range []struct{ in, says string }{
		{"pcie_apsm=off", `diagnose: "pcie_apsm=off": unknown setting "pcie_apsm": did you mean "pcie_aspm=off"?`},
		{"pcie_aspm=off,nvme.noapci=1:helped", `diagnose: "nvme.noapci=1:helped": unknown setting "nvme.noapci": did you mean "nvme.noacpi=1:helped"?`},
		{"nvme_core.default_ps_max_latency_s=0", `did you mean "nvme_core.default_ps_max_latency_us=0"?`},
		{"PCIE_ASPM=off", `did you mean "pcie_aspm=off"?`},
		{"other-slots:no", `did you mean "other-slot:no"?`},
		{"firmwre:helped", `did you mean "firmware:helped"?`},
		// A control character is quoted as Go quotes it, never carried raw.
		{"pcie_apsm\x1b=off", `unknown setting "pcie_apsm\x1b": did you mean "pcie_aspm=off"?`},
		// A value the kernel does not take becomes the one it likely means.
		{"pcie_apsm=off\x1b", `unknown setting "pcie_apsm": did you mean "pcie_aspm=off"?`},
	} {
		_, err := diagnose.ParseTriedFlag(tc.in)
		require.Error(t, err, tc.in)
		assert.Contains(t, err.Error(), tc.says, tc.in)
	}
	for _, ok := range []string{
		"acpi=off", "pci=noaer", "pcie_ports=native", "nvme.poll_queues=2", "amd_pstate=passive", "processor.max_cstate=1",
		"iommu=soft", "intel_iommu=off", "amd_iommu=off", "other-drive:helped", "replaced:helped", "bios:no", "kernel:no",
		"/sys/bus/pci/devices/0000:01:00.0/l1_1_aspm=0", "dtparam=pciex1_gen=2", "pcie_aspm.policy=performance",
	} {
		_, err := diagnose.ParseTriedFlag(ok)
		assert.NoError(t, err, ok)
	}
}

func TestParseCommandLine(t *testing.T) {
	got := diagnose.ParseCommandLine("BOOT_IMAGE=/boot/vmlinuz root=UUID=1 ro quiet pcie_aspm=off nvme_core.default_ps_max_latency_us=0")
	require.Len(t, got, 6)
	assert.Equal(t, diagnose.Tried{Setting: "pcie_aspm", Value: "off", Outcome: diagnose.DidNotHelp, FromLog: true}, got[4])
	assert.Equal(t, "nvme_core.default_ps_max_latency_us=0 (did not help)", got[5].String())
	// Commas and colons are the values', quotes hold blanks, and what
	// follows "--" is init's (the kernel's lib/cmdline.c next_arg).
	got = diagnose.ParseCommandLine(`console=ttyS0,115200n8  nvme.quirks=144d:a808:0x800 dyndbg="file nvme.c +p" isolcpus=1,2 -- single pcie_aspm=off`)
	var words []string
	for _, tr := range got {
		words = append(words, tr.Setting+"="+tr.Value)
		assert.True(t, tr.FromLog)
	}
	assert.Equal(t, []string{"console=ttyS0,115200n8", "nvme.quirks=144d:a808:0x800", "dyndbg=file nvme.c +p", "isolcpus=1,2"}, words)
	assert.Empty(t, diagnose.ParseCommandLine(" \t "))
}

// A colon inside a value is the value's; a word after the last colon is an
// outcome, or a misspelt one.
func TestParseTriedColons(t *testing.T) {
	for in, want := range map[string]diagnose.Tried{
		"nvme.quirks=144d:a808:no_apst":        {Setting: "nvme.quirks", Value: "144d:a808:no_apst", Outcome: diagnose.DidNotHelp},
		"nvme.quirks=144d:a808:no_apst:helped": {Setting: "nvme.quirks", Value: "144d:a808:no_apst", Outcome: diagnose.Helped},
		"usbcore.quirks=0bda:8153:k":           {Setting: "usbcore.quirks", Value: "0bda:8153:k", Outcome: diagnose.DidNotHelp},
		// A quirks list keeps its commas.
		"nvme.quirks=144d:a808:no_apst,no_deepest_ps:no": {Setting: "nvme.quirks", Value: "144d:a808:no_apst,no_deepest_ps", Outcome: diagnose.DidNotHelp},
	} {
		got, err := diagnose.ParseTriedFlag(in)
		require.NoError(t, err, in)
		assert.Equal(t, []diagnose.Tried{want}, got, in)
	}
	for _, bad := range []string{"pcie_aspm=off:maybe", "pcie_aspm=off:nope", "nvme.noacpi=1:did-not-hel"} {
		_, err := diagnose.ParseTriedFlag(bad)
		assert.ErrorContains(t, err, "the outcome after ':'", bad)
	}
	// A quirk given by its number is no entry Linux 7.0's nvme.quirks=
	// takes (names only): the kernel ignores it, so it is refused.
	_, err := diagnose.ParseTriedFlag("nvme.quirks=144d:a808:0x800")
	assert.ErrorContains(t, err, `quirk name "0x800" is not one of the kernel's`)
}

func TestZeroTriedAndKnownSayNothing(t *testing.T) {
	assert.Empty(t, diagnose.Tried{}.String())
	assert.Equal(t, "pcie_aspm=off (did not help)", diagnose.Tried{Setting: "pcie_aspm", Value: "off", Outcome: diagnose.DidNotHelp}.String())
	assert.Empty(t, diagnose.Known{}.Describe("6.8"))
}

// A setting that helped rules its layer in: it never reads as "the drive
// failed with it", and its test becomes keeping it.
func TestTriedHelpedIsKept(t *testing.T) {
	const log = "[  100.0] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n"
	diag := func(tried ...diagnose.Tried) diagnose.Diagnosis {
		l, err := kernlog.ReadString(log, kernlog.Options{})
		require.NoError(t, err)
		return diagnose.Diagnose(diagnose.Input{Log: l, Tried: tried})
	}
	texts := func(d diagnose.Diagnosis) string {
		var b strings.Builder
		for _, c := range d.Causes {
			for _, e := range c.Evidence {
				b.WriteString(e.Text + "\n")
			}
		}
		return b.String()
	}

	d := diag(diagnose.Tried{Setting: "pcie_aspm", Value: "off", Outcome: diagnose.Helped})
	require.Equal(t, diagnose.LayerASPM, d.Causes[0].Layer, d.Summary)
	assert.NotContains(t, texts(d), "failed with pcie_aspm=off")
	require.NotEmpty(t, d.Causes[0].Tests)
	assert.Equal(t, "keep pcie_aspm=off, which helped: make it last on the kernel command line", d.Causes[0].Tests[0].Action)
	// Not helped: ASPM is out, which speaks for APST.
	d = diag(diagnose.Tried{Setting: "pcie_aspm", Value: "off", Outcome: diagnose.DidNotHelp})
	assert.Contains(t, texts(d), "ASPM, is out: the drive failed with pcie_aspm=off too")

	d = diag(diagnose.Tried{Setting: "nvme_core.default_ps_max_latency_us", Value: "0", Outcome: diagnose.Helped})
	c := d.Cause(diagnose.LayerAPST)
	require.Equal(t, diagnose.LayerAPST, d.Causes[0].Layer, d.Summary)
	assert.NotContains(t, texts(d), "failed with nvme_core.default_ps_max_latency_us=0")
	require.Len(t, c.Tests, 2)
	assert.Equal(t, "keep nvme_core.default_ps_max_latency_us=0, which helped: make it last on the kernel command line", c.Tests[0].Action)
	assert.Equal(t, "apstctl persist id.bin --bound 0 --scope model", c.Tests[1].Command)
	for _, x := range c.Tests {
		assert.NotContains(t, x.Action, "until reboot", "a test already passed is not asked for again")
	}
}

// nvme.quirks= (Linux 7.0) with no_apst turns APST off as the latency
// bound 0 does, for the drive whose PCI ID it names, or any drive when the
// log gives none.
func TestTriedQuirksNoAPST(t *testing.T) {
	diag := func(log string, tried string) diagnose.Diagnosis {
		l, err := kernlog.ReadString(log, kernlog.Options{})
		require.NoError(t, err)
		ts, err := diagnose.ParseTriedFlag(tried)
		require.NoError(t, err)
		return diagnose.Diagnose(diagnose.Input{Log: l, Tried: ts})
	}
	against := func(d diagnose.Diagnosis) string {
		var b strings.Builder
		for _, e := range d.Cause(diagnose.LayerAPST).Against {
			b.WriteString(e.Text + "\n")
		}
		return b.String()
	}
	const down = "[  100.0] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n"
	d := diag(down, "nvme.quirks=144d:a808:no_apst,no_deepest_ps")
	assert.Contains(t, against(d), "the drive failed with nvme.quirks=144d:a808:no_apst,no_deepest_ps in force")
	d = diag(down, "nvme.quirks=144d:a808:no_deepest_ps")
	assert.NotContains(t, against(d), "nvme.quirks", "no_deepest_ps leaves APST on")
	// The log's enumeration line names another drive: the entry did not
	// reach it.
	const enum = "[    0.5] pci 0000:01:00.0: [1987:5012] type 00 class 0x010802\n" +
		"[    1.0] nvme nvme0: pci function 0000:01:00.0\n"
	d = diag(enum+down, "nvme.quirks=144d:a808:no_apst")
	assert.NotContains(t, against(d), "nvme.quirks")
	d = diag(enum+down, "nvme.quirks=1987:5012:no_apst")
	assert.Contains(t, against(d), "nvme.quirks=1987:5012:no_apst")
}

// d3cold_allowed=0 that helped is kept by a udev rule, not tested again.
func TestTriedD3coldHelpedIsKept(t *testing.T) {
	l, err := kernlog.ReadString("[  100.0] nvme 0000:01:00.0: Unable to change power state from D3cold to D0, device inaccessible\n", kernlog.Options{})
	require.NoError(t, err)
	d := diagnose.Diagnose(diagnose.Input{Log: l, Tried: []diagnose.Tried{{Setting: "/sys/bus/pci/devices/0000:01:00.0/d3cold_allowed", Value: "0", Outcome: diagnose.Helped}}})
	c := d.Cause(diagnose.LayerD3cold)
	require.NotNil(t, c)
	var actions []string
	for _, x := range c.Tests {
		actions = append(actions, x.Action)
		assert.NotContains(t, x.Action, "until reboot")
	}
	assert.Contains(t, actions, "keep the drive out of D3cold, which helped: a udev rule makes it last for every NVMe function")

	// Tried without help, the write is never offered again.
	d = diagnose.Diagnose(diagnose.Input{Log: l, Tried: []diagnose.Tried{{Setting: "/sys/bus/pci/devices/0000:01:00.0/d3cold_allowed", Value: "0", Outcome: diagnose.DidNotHelp}}})
	for _, c := range d.Causes {
		for _, x := range c.Tests {
			assert.NotContains(t, x.Command, "/d3cold_allowed", x.Action)
		}
	}
}

// power/control=on that helped is kept by a udev rule, not tested again.
func TestTriedRuntimePMHelpedIsKept(t *testing.T) {
	l, err := kernlog.ReadString("[  100.0] nvme 0000:01:00.0: Unable to change power state from D3hot to D0, device inaccessible\n", kernlog.Options{})
	require.NoError(t, err)
	d := diagnose.Diagnose(diagnose.Input{Log: l, Tried: []diagnose.Tried{{Setting: "/sys/bus/pci/devices/0000:01:00.0/power/control", Value: "on", Outcome: diagnose.Helped}}})
	require.Equal(t, diagnose.LayerRuntimePM, d.Causes[0].Layer, d.Summary)
	var actions []string
	for _, x := range d.Causes[0].Tests {
		actions = append(actions, x.Action)
		assert.NotContains(t, x.Action, "until reboot")
	}
	assert.Contains(t, actions, "keep the drive in D0, which helped: a udev rule makes it last for every NVMe function (with TLP, RUNTIME_PM_DENYLIST does the same)")
}

// A Raspberry Pi's config.txt line is never offered again after it failed,
// and is kept when it helped.
func TestTriedPiConfigLine(t *testing.T) {
	const log = "[    0.499571] brcm-pcie 1000110000.pcie: link up, 8.0 GT/s PCIe x1 (!SSC)\n" +
		"[    0.6] nvme nvme0: pci function 0001:01:00.0\n" +
		"[  100.0] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff\n"
	actions := func(outcome diagnose.Outcome) string {
		l, err := kernlog.ReadString(log, kernlog.Options{})
		require.NoError(t, err)
		d := diagnose.Diagnose(diagnose.Input{Log: l, Tried: []diagnose.Tried{{Setting: "dtparam", Value: "pciex1_gen=2", Outcome: outcome}}})
		var b strings.Builder
		for _, c := range d.Causes {
			for _, x := range c.Tests {
				b.WriteString(x.Action + " | " + x.Setting + "\n")
			}
		}
		if d.Separate != nil {
			b.WriteString(d.Separate.Action + " | " + d.Separate.Setting + "\n")
		}
		return b.String()
	}
	assert.NotContains(t, actions(diagnose.DidNotHelp), "dtparam=pciex1_gen=2", "a line that did not help is not offered again")
	assert.Contains(t, actions(diagnose.Helped), "keep dtparam=pciex1_gen=2 in config.txt, which helped")
}

// A sysfs write the user already made without help is never offered again
// as a test, whatever the address the command names.
func TestTriedSysfsWriteNotOfferedAgain(t *testing.T) {
	const log = "[  100.0] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n"
	commands := func(tried ...diagnose.Tried) string {
		l, err := kernlog.ReadString(log, kernlog.Options{})
		require.NoError(t, err)
		d := diagnose.Diagnose(diagnose.Input{Log: l, Tried: tried})
		var b strings.Builder
		for _, c := range d.Causes {
			for _, x := range c.Tests {
				b.WriteString(x.Command + "\n")
			}
		}
		return b.String()
	}
	require.Contains(t, commands(), "/power/pm_qos_latency_tolerance_us")
	assert.NotContains(t, commands(diagnose.Tried{Setting: "/sys/class/nvme/nvme0/power/pm_qos_latency_tolerance_us", Value: "0", Outcome: diagnose.DidNotHelp}),
		"echo 0 | sudo tee /sys/class/nvme/nvme0/power/pm_qos_latency_tolerance_us")
	// It turned APST off for the controller: evidence against APST too.
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	d := diagnose.Diagnose(diagnose.Input{Log: l, Tried: []diagnose.Tried{{Setting: "/sys/class/nvme/nvme0/power/pm_qos_latency_tolerance_us", Value: "0", Outcome: diagnose.DidNotHelp}}})
	var against []string
	for _, e := range d.Cause(diagnose.LayerAPST).Against {
		against = append(against, e.Quote)
	}
	assert.Contains(t, against, "/sys/class/nvme/nvme0/power/pm_qos_latency_tolerance_us=0 (did not help)")
	// Another value, or one that helped, leaves it.
	assert.Contains(t, commands(diagnose.Tried{Setting: "pm_qos_latency_tolerance_us", Value: "5500", Outcome: diagnose.DidNotHelp}),
		"echo 0 | sudo tee /sys/class/nvme/nvme0/power/pm_qos_latency_tolerance_us")
}

// A Diagnosis's Tried says which settings a rule looked at with their
// value: the log's pcie_aspm=off, not its root= or a Raspberry Pi 5's
// pci=pcie_bus_safe; a Weighed given in the Input is the rules' to set.
func TestTriedWeighed(t *testing.T) {
	l, err := kernlog.ReadString("[    0.000000] Kernel command line: root=/dev/sda2 pci=pcie_bus_safe pcie_aspm=off\n"+
		"[ 4000.000000] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n", kernlog.Options{})
	require.NoError(t, err)
	d := diagnose.Diagnose(diagnose.Input{Log: l, Tried: []diagnose.Tried{{Setting: "bogus.setting", Value: "1", Outcome: diagnose.DidNotHelp, Weighed: true}}})
	got := map[string]bool{}
	for _, tr := range d.Tried {
		got[tr.Setting+"="+tr.Value] = tr.Weighed
	}
	assert.Equal(t, map[string]bool{"bogus.setting=1": false, "root=/dev/sda2": false, "pci=pcie_bus_safe": false, "pcie_aspm=off": true}, got)
}
