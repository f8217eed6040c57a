package persist_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/persist"
	"github.com/nvmeapst/nvmeapst/apst/persist/udev"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
)

var scopes = []persist.Scope{
	persist.AllControllers(),
	persist.ModelScope("Samsung SSD 990 EVO Plus 1TB"),
	persist.ModelScope("Samsung SSD 990 EVO Plus *"),
	persist.PCIScope(apst.PCIID{Vendor: 0x144d, Device: 0xa80d}),
	persist.SerialScope("S7U1NJ0X123456"),
}

// Every form renders for every scope it can express, names what it
// affects and how to undo it, and refuses the others.
func TestRenderEveryFormAndScope(t *testing.T) {
	for _, s := range scopes {
		for _, f := range persist.Forms() {
			o, err := persist.Render(persist.Setting{Bound: 25000, Scope: s}, f)
			if !f.Scoped() && s.Kind != persist.ScopeAll {
				require.ErrorIs(t, err, persist.ErrScope, "%s %s", f, s)
				continue
			}
			require.NoError(t, err, "%s %s", f, s)
			assert.Equal(t, f, o.Form)
			assert.NotEmpty(t, o.Affects)
			assert.NotEmpty(t, o.Undo)
			assert.NotEmpty(t, o.Apply)
			assert.Contains(t, o.Text, "25000")
			assert.NotContains(t, o.Text, "device/power", "%s writes the PCI function's path", f)
		}
	}
}

func TestRenderForms(t *testing.T) {
	all := persist.Setting{Bound: 25000, Scope: persist.AllControllers()}
	o, err := persist.Render(all, persist.FormCmdline)
	require.NoError(t, err)
	assert.Equal(t, "nvme_core.default_ps_max_latency_us=25000", o.Text)
	assert.Contains(t, strings.Join(o.Notes, " "), "probed after")
	o, err = persist.Render(all, persist.FormModprobe)
	require.NoError(t, err)
	assert.Contains(t, o.Text, "\noptions nvme_core default_ps_max_latency_us=25000\n")
	// NixOS copies only its generated modprobe.d file into the initrd
	// (nixpkgs stage-1.nix): the line goes in boot.extraModprobeConfig.
	assert.Contains(t, o.Apply[0], "(NixOS: the line goes in boot.extraModprobeConfig instead, then nixos-rebuild boot)")
	o, err = persist.Render(all, persist.FormTmpfiles)
	require.NoError(t, err)
	assert.Contains(t, o.Text, "\nw /sys/class/nvme/nvme*/power/pm_qos_latency_tolerance_us - - - - 25000\n")
	o, err = persist.Render(all, persist.FormTuned)
	require.NoError(t, err)
	assert.Contains(t, o.Text, "\n[sysfs]\n/sys/class/nvme/nvme*/power/pm_qos_latency_tolerance_us=25000\n")
	o, err = persist.Render(persist.Setting{Bound: apst.NoLimit, Scope: persist.AllControllers()}, persist.FormCmdline)
	require.NoError(t, err)
	assert.Equal(t, "nvme_core.default_ps_max_latency_us=2147483647", o.Text)
	o, err = persist.Render(persist.Setting{Bound: apst.NoLimit, Scope: persist.AllControllers()}, persist.FormUdev)
	require.NoError(t, err)
	assert.Contains(t, o.Text, `ATTR{power/pm_qos_latency_tolerance_us}="any"`)
}

func TestScopeValidate(t *testing.T) {
	for _, s := range []persist.Scope{
		persist.ModelScope(""), persist.ModelScope(`a"b`), persist.ModelScope(`a\b`), persist.ModelScope("a|b"),
		persist.ModelScope("a[b"), persist.SerialScope("S*1"), persist.SerialScope(""), persist.SerialScope("S\x01"),
		persist.PCIScope(apst.PCIID{}), {Kind: 9},
	} {
		_, err := persist.Render(persist.Setting{Bound: 1, Scope: s}, persist.FormUdev)
		assert.ErrorIs(t, err, persist.ErrScope, "%+v", s)
	}
	_, err := persist.ParseForm("grub")
	assert.ErrorIs(t, err, persist.ErrForm)
}

// Every rule persist renders parses as udev rule syntax, with keys and
// operators udev knows, and reads back the same.
func TestRenderedRulesParse(t *testing.T) {
	var texts []string
	for _, s := range scopes {
		o, err := persist.Render(persist.Setting{Bound: 25000, Scope: s}, persist.FormUdev)
		require.NoError(t, err)
		texts = append(texts, o.Text)
		o, err = persist.RenderPowerSupply(s, "", 25000, 5500)
		require.NoError(t, err)
		texts = append(texts, o.Text)
	}
	for _, text := range texts {
		rs, err := udev.ParseRules(text)
		require.NoError(t, err, text)
		require.NotEmpty(t, rs)
		for _, r := range rs {
			back, err := udev.ParseRules(r.String())
			require.NoError(t, err)
			require.Len(t, back, 1)
			assert.Equal(t, r.Exprs, back[0].Exprs)
		}
	}
}

// treeDrive reads the controller NAME of the sysfs tree at root as a udev
// rule sees it.
func treeDrive(t *testing.T, root, name string) udev.Drive {
	dir := filepath.Join(root, "class", "nvme", name)
	read := func(rel string) string {
		b, err := os.ReadFile(filepath.Join(dir, rel))
		require.NoError(t, err)
		return strings.TrimSpace(string(b))
	}
	d := udev.Drive{Name: name, Model: read("model"), Serial: read("serial"),
		Exists: func(rel string) bool { _, err := os.Stat(filepath.Join(dir, rel)); return err == nil }}
	var id apst.PCIID
	require.NoError(t, id.UnmarshalText([]byte(strings.TrimPrefix(read("device/vendor"), "0x")+":"+strings.TrimPrefix(read("device/device"), "0x"))))
	d.PCI, d.HasPCI = id, true
	d.HasTolerance = d.Exists(persist.ToleranceAttr)
	return d
}

// On every fixture sysfs tree, the rule of each scope keyed on a
// controller reaches it, and writes a path that exists there exactly where
// the kernel has APST enabled; the PCI function's device/power/ has no
// such file.
func TestRulesOnFixtureTrees(t *testing.T) {
	roots := []string{testfixture.Path("sys")}
	for _, v := range []string{"v5.10", "v7"} {
		roots = append(roots, filepath.Join(testfixture.Dir(), "..", "sysfs", "testdata", v))
	}
	n := 0
	for _, root := range roots {
		names, err := os.ReadDir(filepath.Join(root, "class", "nvme"))
		require.NoError(t, err)
		for _, e := range names {
			d := treeDrive(t, root, e.Name())
			family, _ := persist.ModelFamily(d.Model)
			for _, s := range []persist.Scope{persist.AllControllers(), persist.ModelScope(d.Model), persist.ModelScope(family), persist.PCIScope(d.PCI), persist.SerialScope(d.Serial)} {
				o, err := persist.Render(persist.Setting{Bound: 25000, Scope: s}, persist.FormUdev)
				require.NoError(t, err)
				rs, err := udev.ParseRules(o.Text)
				require.NoError(t, err)
				ws := rs.Apply(d)
				w, ok := udev.Tolerance(ws)
				require.Equal(t, d.HasTolerance, ok, "%s %s %s", root, d.Name, s)
				if ok {
					n++
					assert.Equal(t, "25000", w.Value)
					assert.Equal(t, []string{"add", "change"}, w.Actions)
					_, err := os.Stat(filepath.Join(root, "class", "nvme", d.Name, w.Attr))
					assert.NoError(t, err, "the rule writes a path that is not in the tree")
				} else {
					assert.Empty(t, ws, "the TEST guard lets a write through where the file is absent")
				}
			}
			_, err := os.Stat(filepath.Join(root, "class", "nvme", d.Name, "device", "power", "pm_qos_latency_tolerance_us"))
			assert.ErrorIs(t, err, os.ErrNotExist)
		}
	}
	assert.Positive(t, n)
}

// TestZeroSettingRefused: a Setting left zero (bound 0, no scope) would
// turn APST off on every controller, the mistake CheckRules calls
// global-zero: Render refuses it in every form.
func TestZeroSettingRefused(t *testing.T) {
	for _, f := range persist.Forms() {
		_, err := persist.Render(persist.Setting{}, f)
		require.ErrorIs(t, err, persist.ErrScope, "%s", f)
		assert.Contains(t, err.Error(), "no scope given")
	}
	require.Error(t, persist.Scope{}.Validate())
	require.NoError(t, persist.AllControllers().Validate())
}

// other model of the corpus.
func TestModelFamily(t *testing.T) {
	for _, tc := range []struct{ model, glob string }{
		{"Samsung SSD 990 EVO Plus 1TB", "Samsung SSD 990 EVO Plus *"},
		{"Samsung SSD 970 EVO Plus 250GB", "Samsung SSD 970 EVO Plus *"},
		{"WD Blue SN570 1TB", "WD Blue SN570 *"},
		{"KINGSTON SNV3S500G", "KINGSTON SNV3S500G"},
		{"INTEL SSDPEKKW256G7", "INTEL SSDPEKKW256G7"},
		{"Model 1.5T", "Model *"},
		{"Model .5T", "Model .5T"},
		{"TB", "TB"},
	} {
		got, ok := persist.ModelFamily(tc.model)
		assert.Equal(t, tc.glob, got, tc.model)
		assert.Equal(t, tc.glob != tc.model, ok, tc.model)
	}
}

// A label is text from a drive or a capture (apstctl persist passes the
// capture's model for a PCI scope): no character of it may end the comment
// line and start a rule of its own, nor reach the file as a control or
// bidirectional character. A printable label is written as is.
func TestRenderLabelStaysInItsComment(t *testing.T) {
	pci := persist.PCIScope(apst.PCIID{Vendor: 0x144d, Device: 0xa80d})
	for _, tc := range []struct {
		name, label, want string
	}{
		{"printable", "Samsung SSD 990 EVO Plus 1TB", "(Samsung SSD 990 EVO Plus 1TB)"},
		{"newline", "X\nRUN+=\"/bin/touch /tmp/p\"", `("X\nRUN+=\"/bin/touch /tmp/p\"")`},
		{"carriage return", "X\rRUN+=\"/bin/touch /tmp/p\"", `("X\rRUN+=\"/bin/touch /tmp/p\"")`},
		{"NUL", "X\x00RUN+=\"/bin/touch /tmp/p\"", `("X\x00RUN+=\"/bin/touch /tmp/p\"")`},
		{"escape", "Mod\x1b[31mel", `("Mod\x1b[31mel")`},
		{"right-to-left override", "Mod\u202eel", `("Mod\u202eel")`},
		{"invalid UTF-8", "Mod\xffel", `("Mod\xffel")`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := persist.Render(persist.Setting{Bound: 25000, Scope: pci, Label: tc.label}, persist.FormUdev)
			require.NoError(t, err)
			ps, err := persist.RenderPowerSupply(pci, tc.label, 25000, 0)
			require.NoError(t, err)
			for _, c := range []struct {
				text  string
				rules int
			}{{o.Text, 1}, {ps.Text, 3}} {
				assert.NotContains(t, c.text, "\r")
				assert.NotContains(t, c.text, "\x00")
				assert.NotContains(t, c.text, "\x1b")
				assert.NotContains(t, c.text, "\u202e")
				assert.Contains(t, c.text, tc.want)
				rs, err := udev.ParseRules(c.text)
				require.NoError(t, err, "%q", c.text)
				assert.Len(t, rs, c.rules, "%q", c.text)
				for _, r := range rs {
					for _, e := range r.Exprs {
						assert.NotContains(t, e.Value, "/tmp/p", "the label became a rule: %q", c.text)
					}
				}
			}
		})
	}
}

// PowerSupplyProgram, as the shell runs it once udev has turned $$ into $,
// says battery when a supply of the machine is offline and none is online,
// whatever the batteries of wireless devices (scope Device, online 1 while
// connected) say.
func TestPowerSupplyProgram(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	type supply struct{ name, online, scope string }
	for _, tc := range []struct {
		name     string
		supplies []supply
		want     string
	}{
		{"no supplies", nil, "ac"},
		{"on mains", []supply{{"AC", "1", ""}, {"BAT0", "", "System"}}, "ac"},
		{"on battery", []supply{{"AC", "0", ""}, {"BAT0", "", "System"}}, "battery"},
		{"USB-C charger", []supply{{"AC", "0", ""}, {"ucsi-source-psy-USBC000:001", "1", ""}}, "ac"},
		{"on battery with a wireless mouse", []supply{{"AC", "0", ""}, {"BAT0", "", ""}, {"hidpp_battery_0", "1", "Device"}}, "battery"},
		{"on mains with a wireless mouse", []supply{{"AC", "1", ""}, {"hidpp_battery_0", "0", "Device"}}, "ac"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, s := range tc.supplies {
				d := filepath.Join(dir, s.name)
				require.NoError(t, os.Mkdir(d, 0o755))
				if s.online != "" {
					require.NoError(t, os.WriteFile(filepath.Join(d, "online"), []byte(s.online+"\n"), 0o644))
				}
				if s.scope != "" {
					require.NoError(t, os.WriteFile(filepath.Join(d, "scope"), []byte(s.scope+"\n"), 0o644))
				}
			}
			prog := strings.ReplaceAll(persist.PowerSupplyProgram, "$$", "$") // udev's format
			prog = strings.ReplaceAll(prog, "/sys/class/power_supply", dir)
			script := strings.TrimSuffix(strings.TrimPrefix(prog, "/bin/sh -c '"), "'")
			out, err := exec.Command(sh, "-c", script).Output()
			require.NoError(t, err)
			assert.Equal(t, tc.want+"\n", string(out))
		})
	}
}

// A model or serial no drive can have is refused, not written into a rule
// that matches nothing (and, long enough, makes udev ignore the whole file:
// it reads lines of at most 16383 bytes): a model number has at most 40
// characters, a serial number at most 20.
func TestScopeValidateLength(t *testing.T) {
	for _, tc := range []struct {
		scope persist.Scope
		err   string // "" for valid
	}{
		{persist.ModelScope(strings.Repeat("M", 40)), ""},
		{persist.ExactModelScope(strings.Repeat("*", 40)), ""}, // [*] forty times: 40 characters
		{persist.ModelScope("Samsung SSD 990 EVO Plus *"), ""},
		{persist.ModelScope(strings.Repeat("[Mm]", 40) + "*"), ""},
		{persist.ModelScope("[^]]" + strings.Repeat("M", 39)), ""},
		{persist.ModelScope(strings.Repeat("M", 41)), "matches only models of 41 characters or more"},
		{persist.ExactModelScope(strings.Repeat("?", 41)), "matches only models of 41 characters or more"},
		{persist.ModelScope(strings.Repeat("M", 20000)), "matches only models of 20000 characters or more"},
		{persist.SerialScope(strings.Repeat("S", 20)), ""},
		{persist.SerialScope(strings.Repeat("S", 21)), "21 characters, and a serial number (Identify SN) has at most 20"},
	} {
		err := tc.scope.Validate()
		if tc.err == "" {
			assert.NoError(t, err, "%.50q", tc.scope.Model+tc.scope.Serial)
			continue
		}
		assert.ErrorIs(t, err, persist.ErrScope)
		assert.ErrorContains(t, err, tc.err)
		if err != nil {
			assert.Less(t, len(err.Error()), 300, "the error quotes the value clipped")
		}
	}
}

// The power-supply trigger runs udevadm through /bin/sh and the PATH udev
// gives it: an absolute path to udevadm is wrong on Debian before the /usr
// merge (/bin/udevadm) and fails a NixOS rebuild, which checks that every
// absolute RUN path exists and allows /bin/sh.
func TestPowerSupplyTriggerFindsUdevadm(t *testing.T) {
	rules, err := udev.ParseRules(persist.PowerSupplyTrigger)
	require.NoError(t, err)
	require.Len(t, rules, 1)
	var run string
	for _, e := range rules[0].Exprs {
		if e.Key == "RUN" {
			run = e.Value
		}
	}
	assert.Equal(t, "/bin/sh -c 'udevadm trigger --action=change --subsystem-match=nvme'", run)
	assert.NotRegexp(t, `/(usr/)?s?bin/udevadm`, persist.PowerSupplyTrigger)
}
