package persist_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/persist"
	"github.com/nvmeapst/nvmeapst/apst/persist/udev"
)

func mistakes(fs []persist.Finding) []persist.Mistake {
	var out []persist.Mistake
	for _, f := range fs {
		out = append(out, f.Mistake)
	}
	return out
}

func TestCheckRules(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []persist.Mistake
	}{
		{"correct", `ACTION=="add|change", SUBSYSTEM=="nvme", KERNEL=="nvme[0-9]*", ATTR{model}=="Samsung SSD 990 EVO Plus *", TEST=="power/pm_qos_latency_tolerance_us", ATTR{power/pm_qos_latency_tolerance_us}="25000"`, nil},
		{"device path", `ACTION=="add", SUBSYSTEM=="nvme", KERNEL=="nvme[0-9]*", ATTR{device/power/pm_qos_latency_tolerance_us}="0"`,
			[]persist.Mistake{persist.MistakeDevicePath, persist.MistakeNoGuard, persist.MistakeAddOnly}},
		{"device path in RUN", `ACTION=="add|change", SUBSYSTEM=="nvme", RUN+="/bin/sh -c 'echo 0 > /sys/class/nvme/%k/device/power/pm_qos_latency_tolerance_us'"`,
			[]persist.Mistake{persist.MistakeDevicePath}},
		{"global zero", `ACTION=="add|change", SUBSYSTEM=="nvme", KERNEL=="nvme[0-9]*", TEST=="power/pm_qos_latency_tolerance_us", ATTR{power/pm_qos_latency_tolerance_us}="0"`,
			[]persist.Mistake{persist.MistakeGlobalZero}},
		{"zero for one model is fine", `ACTION=="add|change", SUBSYSTEM=="nvme", ATTR{model}=="KINGSTON SA2000M8*", TEST=="power/pm_qos_latency_tolerance_us", ATTR{power/pm_qos_latency_tolerance_us}="0"`, nil},
		{"serial", `ACTION=="add|change", SUBSYSTEM=="nvme", KERNEL=="nvme[0-9]*", ATTR{model}=="Samsung SSD 990 EVO Plus 1TB", ATTR{serial}=="S7U1NJ0X123456", ATTR{power/pm_qos_latency_tolerance_us}="25000"`,
			[]persist.Mistake{persist.MistakeSerialOnly, persist.MistakeNoGuard}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs, err := udev.ParseRules(tc.text)
			require.NoError(t, err)
			fs := persist.CheckRules(rs, tc.text)
			assert.Equal(t, tc.want, mistakes(fs))
			for _, f := range fs {
				assert.NotEmpty(t, f.Explanation)
				assert.Equal(t, 1, f.Line)
			}
		})
	}
}

func TestCheckDefaults(t *testing.T) {
	ds, err := persist.ParseDefaults("BOOT_IMAGE=/vmlinuz-6.8 root=UUID=x ro quiet nvme_core.default_ps_max_latency_us=5500\n" +
		"# options nvme_core default_ps_max_latency_us=1\n" +
		"options nvme-core default_ps_max_latency_us=0 other=2\n" +
		`GRUB_CMDLINE_LINUX_DEFAULT="quiet nvme_core.default_ps_max_latency_us=200000"` + "\n" +
		"nvme_core.default_ps_max_latency_us=0x61a8\n")
	require.NoError(t, err)
	require.Len(t, ds, 4)
	assert.Equal(t, []apst.Microseconds{5500, 0, 200000, 25000}, []apst.Microseconds{ds[0].Bound, ds[1].Bound, ds[2].Bound, ds[3].Bound})
	assert.Equal(t, persist.SourceCmdline, ds[0].Source)
	assert.Equal(t, persist.SourceModprobe, ds[1].Source)
	assert.Equal(t, 3, ds[1].Line)
	fs := persist.CheckDefaults(ds)
	assert.Equal(t, []persist.Mistake{persist.MistakeDeeperStates, persist.MistakeGlobalZero, persist.MistakeDeeperStates}, mistakes(fs))
	assert.Contains(t, fs[0].Explanation, "a bound can only remove states")

	for _, bad := range []string{"nvme_core.default_ps_max_latency_us=-1", "nvme_core.default_ps_max_latency_us=12abc",
		"nvme_core.default_ps_max_latency_us=", "options nvme_core default_ps_max_latency_us=99999999999999999999", "nvme_core.default_ps_max_latency_us=09"} {
		_, err := persist.ParseDefaults(bad)
		assert.ErrorIs(t, err, persist.ErrDefaultSyntax, bad)
	}
}

func TestCheckText(t *testing.T) {
	fs := persist.CheckText("w /sys/class/nvme/nvme*/device/power/pm_qos_latency_tolerance_us - - - - 0\n# /sys/class/nvme/nvme0/device/power/pm_qos_latency_tolerance_us\nw /sys/class/nvme/nvme*/power/pm_qos_latency_tolerance_us - - - - 0\n")
	assert.Equal(t, []persist.Mistake{persist.MistakeDevicePath}, mistakes(fs))
	assert.True(t, persist.MistakeDevicePath.Serious())
	assert.False(t, persist.MistakeNoGuard.Serious())
}

func TestSysfsWrites(t *testing.T) {
	ws, err := persist.ParseSysfsWrites("# tmpfiles\nw- /sys/class/nvme/nvme*/power/pm_qos_latency_tolerance_us - - - - 5500\n" +
		"d /run/x 0755 root root -\n[main]\nsummary=x\n[sysfs]\n/sys/class/nvme/nvme[01]/device/power/pm_qos_latency_tolerance_us=0\n")
	require.NoError(t, err)
	require.Len(t, ws, 2)
	assert.Equal(t, persist.SysfsWrite{Line: 2, Form: persist.FormTmpfiles, Path: "/sys/class/nvme/nvme*/power/pm_qos_latency_tolerance_us", Value: "5500",
		Text: "w- /sys/class/nvme/nvme*/power/pm_qos_latency_tolerance_us - - - - 5500"}, ws[0])
	assert.Equal(t, persist.FormTuned, ws[1].Form)
	rel, ok := ws[0].Reaches(udev.Drive{Name: "nvme3"})
	assert.True(t, ok)
	assert.Equal(t, persist.ToleranceAttr, rel)
	_, ok = ws[1].Reaches(udev.Drive{Name: "nvme3"})
	assert.False(t, ok)
	rel, ok = ws[1].Reaches(udev.Drive{Name: "nvme1"})
	assert.True(t, ok)
	assert.Equal(t, "device/"+persist.ToleranceAttr, rel)
}

// TestCheckPCIeArgs: a command line that turns PCIe power management off
// for every device is named, argument by argument, as a weakness.
func TestCheckPCIeArgs(t *testing.T) {
	fs := persist.CheckText("BOOT_IMAGE=/vmlinuz-6.8 root=UUID=x ro pcie_aspm=off pcie_port_pm=off quiet\n")
	require.Len(t, fs, 2)
	for i, want := range []string{"pcie_aspm=off", "pcie_port_pm=off"} {
		assert.Equal(t, persist.MistakePCIeOff, fs[i].Mistake)
		assert.Equal(t, want, fs[i].Text)
		assert.False(t, fs[i].Mistake.Serious())
		assert.Contains(t, fs[i].Explanation, "not of APST")
	}
	assert.Equal(t, "pcie-power-off", persist.MistakePCIeOff.String())
	fs = persist.CheckPCIeArgs(`GRUB_CMDLINE_LINUX_DEFAULT="quiet pcie_aspm.policy=performance"`)
	require.Len(t, fs, 1)
	assert.Empty(t, persist.CheckPCIeArgs("pcie_aspm=force nvme_core.default_ps_max_latency_us=5500"))
	// A NixOS list and a dashed name set it; a comment and init's
	// arguments do not.
	fs = persist.CheckPCIeArgs("boot.kernelParams = [ \"pcie-aspm=off\" ];\n# pcie_port_pm=off\nro -- pcie_aspm=off")
	require.Len(t, fs, 1)
	assert.Equal(t, "pcie-aspm=off", fs[0].Text)
	assert.Equal(t, 1, fs[0].Line)
}

// A sysfs write whose path climbs out of the controller's directory with
// ".." reaches no drive, and is reported as a serious mistake.
func TestSysfsWriteLeavingController(t *testing.T) {
	for _, text := range []string{
		"w /sys/class/nvme/nvme0/../../../../../../etc/passwd - - - - 0",
		"w /sys/class/nvme/nvme*/power/../../../../../../root/x - - - - 25000",
		"w /sys/class/nvme/../../../etc/shadow - - - - 0",
		"[sysfs]\n/sys/class/nvme/nvme0/power/../../../../../../etc/passwd=0",
	} {
		ws, err := persist.ParseSysfsWrites(text)
		require.NoError(t, err, text)
		require.Len(t, ws, 1, text)
		_, ok := ws[0].Reaches(udev.Drive{Name: "nvme0"})
		assert.False(t, ok, text)
		fs := persist.CheckSysfsWrites(ws)
		require.Len(t, fs, 1, text)
		assert.Equal(t, persist.MistakeLeavesController, fs[0].Mistake, text)
		assert.True(t, fs[0].Mistake.Serious())
		assert.Equal(t, "leaves-controller", fs[0].Mistake.String())
	}
}

// The value of a kernel or module argument as the files users have hold
// it: quoted (the kernel drops the quotes), inside a NixOS list or a
// TrueNAS midclt call (the form KernelArgument tells them to write), with
// a + sign; after -- the arguments are init's.
func TestParseDefaultsQuotedAndEnclosed(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []apst.Microseconds
		src  persist.Source
		arg  string // the Text of a command-line default
	}{
		{`nvme_core.default_ps_max_latency_us="5500"`, []apst.Microseconds{5500}, persist.SourceCmdline, "nvme_core.default_ps_max_latency_us=5500"},
		{`"nvme_core.default_ps_max_latency_us=5500"`, []apst.Microseconds{5500}, persist.SourceCmdline, "nvme_core.default_ps_max_latency_us=5500"},
		{`GRUB_CMDLINE_LINUX_DEFAULT="quiet nvme_core.default_ps_max_latency_us=0 splash"`, []apst.Microseconds{0}, persist.SourceCmdline, "nvme_core.default_ps_max_latency_us=0"},
		{`boot.kernelParams = ["nvme_core.default_ps_max_latency_us=0"];`, []apst.Microseconds{0}, persist.SourceCmdline, "nvme_core.default_ps_max_latency_us=0"},
		{`boot.kernelParams = [ "quiet" "nvme_core.default_ps_max_latency_us=1200" ];`, []apst.Microseconds{1200}, persist.SourceCmdline, "nvme_core.default_ps_max_latency_us=1200"},
		{strings.Join(persist.KernelArgument(persist.PlatformTrueNAS, "nvme_core.default_ps_max_latency_us=0").Steps, "\n"), []apst.Microseconds{0}, persist.SourceCmdline, "nvme_core.default_ps_max_latency_us=0"},
		{`nvme_core.default_ps_max_latency_us=+5500`, []apst.Microseconds{5500}, persist.SourceCmdline, "nvme_core.default_ps_max_latency_us=+5500"},
		{`options nvme_core default_ps_max_latency_us="0"`, []apst.Microseconds{0}, persist.SourceModprobe, ""},
		{`ro quiet -- nvme_core.default_ps_max_latency_us=0`, nil, 0, ""},
	} {
		ds, err := persist.ParseDefaults(tc.text)
		if !assert.NoError(t, err, tc.text) {
			continue
		}
		var got []apst.Microseconds
		for _, d := range ds {
			got = append(got, d.Bound)
			assert.Equal(t, tc.src, d.Source, tc.text)
			if tc.arg != "" {
				assert.Equal(t, tc.arg, d.Text, tc.text)
			}
		}
		assert.Equal(t, tc.want, got, tc.text)
	}
}

// A tuned profile may hold its sysfs plugin in a section of any name with
// type=sysfs (tuned's plugin instances); a section of another type is not
// read, also when it is named [sysfs].
func TestSysfsWritesTunedInstances(t *testing.T) {
	const path = "/sys/class/nvme/nvme*/power/pm_qos_latency_tolerance_us"
	for _, tc := range []struct {
		name, text string
		lines      []int
	}{
		{"sysfs section", "[sysfs]\n" + path + "=0\n", []int{2}},
		{"typed instance", "[main]\nsummary=x\n[nvme_apst]\ntype=sysfs\n" + path + "=0\n", []int{5}},
		{"type after the line", "[nvme_apst]\n" + path + " = 5500\ntype = sysfs\n", []int{2}},
		{"another plugin", "[disk]\ntype=disk\n" + path + "=0\n", nil},
		{"sysfs of another type", "[sysfs]\ntype=script\n" + path + "=0\n", nil},
	} {
		ws, err := persist.ParseSysfsWrites(tc.text)
		require.NoError(t, err, tc.name)
		var lines []int
		for _, w := range ws {
			lines = append(lines, w.Line)
			assert.Equal(t, persist.FormTuned, w.Form, tc.name)
			assert.Equal(t, path, w.Path, tc.name)
		}
		assert.Equal(t, tc.lines, lines, tc.name)
	}
}

// A sysfs write's path is read as systemd-tmpfiles (path_simplify) and the
// kernel read it: // and /./ are /, a relative path is none, and a tuned
// path ending in / globs only directories.
func TestSysfsWritePathForms(t *testing.T) {
	d := udev.Drive{Name: "nvme2", HasTolerance: true}
	for _, tc := range []struct {
		text string
		rel  string // "" for not reached
	}{
		{"w /sys/class/nvme/nvme2/power/pm_qos_latency_tolerance_us - - - - 0", persist.ToleranceAttr},
		{"w /sys/class/nvme/nvme2//power/pm_qos_latency_tolerance_us - - - - 0", persist.ToleranceAttr},
		{"w /sys/class/nvme/nvme2/./power/pm_qos_latency_tolerance_us - - - - 0", persist.ToleranceAttr},
		{"w //sys//class/nvme/./nvme*/power/pm_qos_latency_tolerance_us - - - - 0", persist.ToleranceAttr},
		{"w /sys/class/nvme/nvme2/power/pm_qos_latency_tolerance_us/ - - - - 0", persist.ToleranceAttr},
		{"w sys/class/nvme/nvme2/power/pm_qos_latency_tolerance_us - - - - 0", ""},
		{"[sysfs]\n/sys/class/nvme/nvme2//power/pm_qos_latency_tolerance_us=0", persist.ToleranceAttr},
		{"[sysfs]\n/sys/class/nvme/nvme2/power/pm_qos_latency_tolerance_us/=0", ""},
	} {
		ws, err := persist.ParseSysfsWrites(tc.text)
		require.NoError(t, err, tc.text)
		require.Len(t, ws, 1, tc.text)
		rel, ok := ws[0].Reaches(d)
		assert.Equal(t, tc.rel != "", ok, tc.text)
		assert.Equal(t, tc.rel, rel, tc.text)
	}
	ws, err := persist.ParseSysfsWrites("w /sys//class/nvme/nvme*//power/pm_qos_latency_tolerance_us - - - - 0")
	require.NoError(t, err)
	assert.Equal(t, []persist.Mistake{persist.MistakeGlobalZero}, mistakes(persist.CheckSysfsWrites(ws)))
}

// A model (serial, firmware) keyed with = instead of == assigns: udev
// writes the read-only file instead of comparing, and the rule reaches
// every drive. It is named, with the rule as meant, as a serious mistake;
// a rule that compares is not.
func TestCheckRulesAssignForMatch(t *testing.T) {
	for _, tc := range []struct {
		rule, meant string
		zero        bool
	}{
		{`ACTION=="add|change", SUBSYSTEM=="nvme", ATTR{model}="Samsung SSD 990 EVO Plus 1TB", TEST=="power/pm_qos_latency_tolerance_us", ATTR{power/pm_qos_latency_tolerance_us}="25000"`, `ATTR{model}=="Samsung SSD 990 EVO Plus 1TB"`, false},
		{`SUBSYSTEM=="nvme", ATTR{serial}:="S7U1", TEST=="power/pm_qos_latency_tolerance_us", ATTR{power/pm_qos_latency_tolerance_us}="0"`, `ATTR{serial}=="S7U1"`, true},
		{`SUBSYSTEM=="nvme", ATTR{firmware_rev}="2B2QKXG7", ATTR{model}=="X", TEST=="power/pm_qos_latency_tolerance_us", ATTR{power/pm_qos_latency_tolerance_us}="5500"`, `ATTR{firmware_rev}=="2B2QKXG7"`, false},
	} {
		rules, err := udev.ParseRules(tc.rule)
		require.NoError(t, err, tc.rule)
		fs := persist.CheckRules(rules, tc.rule)
		var got []persist.Finding
		for _, f := range fs {
			if f.Mistake == persist.MistakeAssignForMatch {
				got = append(got, f)
			}
		}
		require.Len(t, got, 1, "%s: %+v", tc.rule, fs)
		assert.True(t, got[0].Mistake.Serious())
		assert.Equal(t, "assign-for-match", got[0].Mistake.String())
		assert.Contains(t, got[0].Explanation, "reaches every NVMe drive")
		assert.Contains(t, got[0].Explanation, "Compare with ==: "+tc.meant)
		assert.Equal(t, tc.zero, slices.ContainsFunc(fs, func(f persist.Finding) bool { return f.Mistake == persist.MistakeGlobalZero }), tc.rule)
	}
	// Compared, or assigned in a rule that writes no bound: nothing.
	for _, rule := range []string{
		`SUBSYSTEM=="nvme", ATTR{model}=="X", TEST=="power/pm_qos_latency_tolerance_us", ATTR{power/pm_qos_latency_tolerance_us}="5500"`,
		`SUBSYSTEM=="nvme", ATTR{model}="X"`,
	} {
		rules, err := udev.ParseRules(rule)
		require.NoError(t, err, rule)
		for _, f := range persist.CheckRules(rules, rule) {
			assert.NotEqual(t, persist.MistakeAssignForMatch, f.Mistake, rule)
		}
	}
}
