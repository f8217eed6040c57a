package diagnose_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// A --tried value copied from where the machine keeps its settings reads
// as the settings in it that the rules weigh, with the outcome given after
// the whole; before, a GRUB line, a NixOS list and a sysfs write were
// refused, and a modprobe.d line was read as a setting "nvme_core" and an
// unknown "default_ps_max_latency_us", so APST off, already tried, was
// asked for again.
func TestParseTriedFlagForms(t *testing.T) {
	apstOff := func(o diagnose.Outcome) diagnose.Tried {
		return diagnose.Tried{Setting: "nvme_core.default_ps_max_latency_us", Value: "0", Outcome: o}
	}
	aspmOff := func(o diagnose.Outcome) diagnose.Tried {
		return diagnose.Tried{Setting: "pcie_aspm", Value: "off", Outcome: o}
	}
	no, helped := diagnose.DidNotHelp, diagnose.Helped
	for _, tc := range []struct {
		in   string
		want []diagnose.Tried
	}{
		// /etc/default/grub.
		{`GRUB_CMDLINE_LINUX_DEFAULT="quiet splash nvme_core.default_ps_max_latency_us=0"`, []diagnose.Tried{apstOff(no)}},
		{`GRUB_CMDLINE_LINUX_DEFAULT="quiet splash pcie_aspm=off":helped`, []diagnose.Tried{aspmOff(helped)}},
		{`GRUB_CMDLINE_LINUX='pcie_aspm=off nvme_core.default_ps_max_latency_us=0'`, []diagnose.Tried{aspmOff(no), apstOff(no)}},
		// /proc/cmdline of Fedora's GRUB, with its (hd0,gpt2).
		{"BOOT_IMAGE=(hd0,gpt2)/vmlinuz-6.8.9-300.fc40.x86_64 root=UUID=1234 ro rhgb quiet nvme_core.default_ps_max_latency_us=0", []diagnose.Tried{apstOff(no)}},
		// A Raspberry Pi's cmdline.txt: its console's comma is the value's.
		{"console=serial0,115200 console=tty1 root=PARTUUID=abcd-02 rootfstype=ext4 fsck.repair=yes rootwait pcie_aspm=off:helped", []diagnose.Tried{aspmOff(helped)}},
		// systemd-boot's entry.
		{"options root=UUID=1234 rw nvme_core.default_ps_max_latency_us=0", []diagnose.Tried{apstOff(no)}},
		// grub.cfg, a log's own line, TrueNAS.
		{"linux /vmlinuz-6.1.0-13-amd64 root=UUID=1234 ro quiet nvme_core.default_ps_max_latency_us=0", []diagnose.Tried{apstOff(no)}},
		{"Kernel command line: BOOT_IMAGE=/vmlinuz pcie_aspm=off", []diagnose.Tried{aspmOff(no)}},
		{`midclt call system.advanced.update '{"kernel_extra_options": "pcie_aspm=off"}':helped`, []diagnose.Tried{aspmOff(helped)}},
		// modprobe.d, either spelling of the module.
		{"options nvme_core default_ps_max_latency_us=0", []diagnose.Tried{apstOff(no)}},
		{"options nvme-core default_ps_max_latency_us=0:helped", []diagnose.Tried{{Setting: "nvme-core.default_ps_max_latency_us", Value: "0", Outcome: helped}}},
		{"options nvme noacpi=1", []diagnose.Tried{{Setting: "nvme.noacpi", Value: "1", Outcome: no}}},
		// NixOS.
		{`boot.kernelParams = [ "nvme_core.default_ps_max_latency_us=0" "pcie_aspm=off" ];`, []diagnose.Tried{apstOff(no), aspmOff(no)}},
		{`[ "pcie_aspm=off" ]:helped`, []diagnose.Tried{aspmOff(helped)}},
		// sysfs writes.
		{"echo 0 > /sys/bus/pci/devices/0000:04:00.0/d3cold_allowed", []diagnose.Tried{{Setting: "/sys/bus/pci/devices/0000:04:00.0/d3cold_allowed", Value: "0", Outcome: no}}},
		{"echo on | sudo tee /sys/bus/pci/devices/0000:04:00.0/power/control:helped", []diagnose.Tried{{Setting: "/sys/bus/pci/devices/0000:04:00.0/power/control", Value: "on", Outcome: helped}}},
		{`sudo sh -c "echo 0 > /sys/bus/pci/devices/0000:00:1d.0/d3cold_allowed"`, []diagnose.Tried{{Setting: "/sys/bus/pci/devices/0000:00:1d.0/d3cold_allowed", Value: "0", Outcome: no}}},
		// A module parameter's dashes are its underscores to the kernel.
		{"nvme-core.default_ps_max_latency_us=0", []diagnose.Tried{{Setting: "nvme-core.default_ps_max_latency_us", Value: "0", Outcome: no}}},
		// A number after a comma stays its value's.
		{"console=ttyS0,115200n8,pcie_aspm=off", []diagnose.Tried{{Setting: "console", Value: "ttyS0,115200n8", Outcome: no}, aspmOff(no)}},
	} {
		got, form, err := diagnose.ParseTriedForm(tc.in)
		if !form {
			got, err = diagnose.ParseTriedFlag(tc.in)
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
	for _, typed := range []string{"pcie_aspm=off", "pcie_aspm=off:helped,nvme.noacpi=1", "other-slot:no", "dtparam=pciex1_gen=2"} {
		_, form, err := diagnose.ParseTriedForm(typed)
		assert.False(t, form, typed)
		assert.NoError(t, err, typed)
	}
	for _, tc := range []struct{ in, says string }{
		{`GRUB_CMDLINE_LINUX_DEFAULT="quiet splash"`, "holds no setting the diagnosis weighs"},
		{"echo 0 > /tmp/x", "not a setting"},
		{"echo 0 > /sys/x; reboot", "not a setting"},
		{`GRUB_CMDLINE_LINUX_DEFAULT="pcie_aspm=off pcie_aspm=off:helped"`, ""},
	} {
		_, form, err := diagnose.ParseTriedForm(tc.in)
		if !form {
			_, err = diagnose.ParseTriedFlag(tc.in)
		}
		if tc.says == "" {
			assert.NoError(t, err, tc.in) // a colon inside a command line is a value's
			continue
		}
		assert.ErrorContains(t, err, tc.says, tc.in)
	}
}

// APST off on the log's own command line, spelt with the dashes the kernel
// reads as underscores, is a test already failed: never asked for again.
func TestCommandLineDashesCount(t *testing.T) {
	const log = "[    0.010000] Kernel command line: BOOT_IMAGE=/boot/vmlinuz-6.8.0-45-generic root=UUID=1234 ro quiet nvme-core.default_ps_max_latency_us=0\n" +
		"[ 5000.123456] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n"
	for _, tried := range [][]diagnose.Tried{nil, {{Setting: "nvme-core.default-ps-max-latency-us", Value: "0", Outcome: diagnose.DidNotHelp}}} {
		l, err := kernlog.ReadString(log, kernlog.Options{})
		require.NoError(t, err)
		d := diagnose.Diagnose(diagnose.Input{Log: l, Tried: tried})
		require.True(t, d.Failure)
		assert.True(t, d.APSTRuledOut, d.Summary)
		for _, c := range d.Causes {
			for _, x := range c.Tests {
				assert.NotContains(t, x.Command+x.Setting, "default_ps_max_latency_us=0", "%s: %s", c.Layer, x.Action)
				assert.NotContains(t, x.Command, "pm_qos_latency_tolerance_us", "%s: %s", c.Layer, x.Action)
			}
		}
		if d.Separate != nil {
			assert.NotContains(t, d.Separate.Setting, "default_ps_max_latency_us", d.Summary)
		}
		assert.False(t, strings.Contains(d.Summary, "undecided between apst"), d.Summary)
	}
}

// A setting of the log's own command line is evidence that quotes that
// line as it appears, with its number (it quoted "pcie_aspm=off (did not
// help)", a paraphrase, without a line); one given with --tried quotes
// what was given.
func TestCommandLineEvidenceQuotesItsLine(t *testing.T) {
	const cmdline = "[    0.010000] Kernel command line: BOOT_IMAGE=/boot/vmlinuz-6.8.0-45-generic root=UUID=1234 ro quiet pcie_aspm=off"
	log := "[    0.000000] Linux version 6.8.0-45-generic (buildd@lcy02-amd64-075) (gcc 13.2.0) #45-Ubuntu SMP\n" +
		"> " + cmdline + "\n" +
		"[ 5000.123456] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n"
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	require.NotNil(t, l.CommandLineEvent)
	assert.Equal(t, 2, l.CommandLineEvent.Line)
	d := diagnose.Diagnose(diagnose.Input{Log: l, Tried: []diagnose.Tried{{Setting: "pcie_port_pm", Value: "off", Outcome: diagnose.DidNotHelp}}})
	require.True(t, d.Failure)
	fromLog, given := 0, 0
	for _, c := range d.Causes {
		for _, e := range append(c.Evidence, c.Against...) {
			switch {
			case strings.Contains(e.Text, "pcie_aspm=off in force"):
				fromLog++
				assert.Equal(t, 2, e.Line, e.Text)
				assert.Equal(t, cmdline, e.Quote)
				assert.Contains(t, e.Source, "kernel log line 2")
			case strings.Contains(e.Text, "pcie_port_pm=off in force"):
				given++
				assert.Zero(t, e.Line)
				assert.Equal(t, "settings tried", e.Source)
				assert.Equal(t, "pcie_port_pm=off (did not help)", e.Quote)
			}
		}
	}
	assert.Positive(t, fromLog, "no evidence from the log's command line")
	assert.Positive(t, given, "no evidence from --tried")

	// A second boot's log without a command line forgets the first's.
	l, err = kernlog.ReadString(log+"[    0.000000] Linux version 6.8.0-45-generic (x) #45\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Nil(t, l.CommandLineEvent)
	assert.Empty(t, l.CommandLine)
}
