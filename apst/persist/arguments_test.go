package persist_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/persist"
)

// Every form a kernel or module parameter is kept in reads to the
// parameters the kernel would be given, named as the kernel names them.
func TestParseArgumentsForms(t *testing.T) {
	cmd := func(name, value string) persist.Argument {
		return persist.Argument{Source: persist.SourceCmdline, Line: 1, Name: name, Value: value}
	}
	flag := func(name string) persist.Argument {
		return persist.Argument{Source: persist.SourceCmdline, Line: 1, Name: name, NoValue: true}
	}
	mod := func(name, value string) persist.Argument {
		return persist.Argument{Source: persist.SourceModprobe, Line: 1, Name: name, Value: value}
	}
	for _, tc := range []struct {
		name, text string
		want       []persist.Argument
	}{
		{"proc cmdline of Fedora's GRUB", "BOOT_IMAGE=(hd0,gpt2)/vmlinuz-6.8.9 root=UUID=1234 ro quiet pcie_aspm=off",
			[]persist.Argument{cmd("BOOT_IMAGE", "(hd0,gpt2)/vmlinuz-6.8.9"), cmd("root", "UUID=1234"), flag("ro"), flag("quiet"), cmd("pcie_aspm", "off")}},
		{"a quoted value with a blank", `dyndbg="file nvme/* +p" nvme.noacpi=1`,
			[]persist.Argument{cmd("dyndbg", "file nvme/* +p"), cmd("nvme.noacpi", "1")}},
		{"init's arguments", "ro quiet -- nvme_core.default_ps_max_latency_us=0 single", []persist.Argument{flag("ro"), flag("quiet")}},
		{"GRUB variable", `GRUB_CMDLINE_LINUX_DEFAULT="quiet splash nvme_core.default_ps_max_latency_us=0"`,
			[]persist.Argument{flag("quiet"), flag("splash"), cmd("nvme_core.default_ps_max_latency_us", "0")}},
		{"GRUB variable in single quotes", `GRUB_CMDLINE_LINUX='pcie_aspm=off pcie_port_pm=off'`,
			[]persist.Argument{cmd("pcie_aspm", "off"), cmd("pcie_port_pm", "off")}},
		{"grub.cfg", "linux /vmlinuz-6.1.0-13-amd64 root=UUID=1234 ro quiet nvme.noacpi=1",
			[]persist.Argument{cmd("root", "UUID=1234"), flag("ro"), flag("quiet"), cmd("nvme.noacpi", "1")}},
		{"extlinux", "append root=/dev/nvme0n1p2 pcie_aspm=off", []persist.Argument{cmd("root", "/dev/nvme0n1p2"), cmd("pcie_aspm", "off")}},
		{"systemd-boot entry", "options root=UUID=1234 rw nvme_core.default_ps_max_latency_us=0",
			[]persist.Argument{cmd("root", "UUID=1234"), flag("rw"), cmd("nvme_core.default_ps_max_latency_us", "0")}},
		{"systemd-boot entry of flags", "options quiet splash", []persist.Argument{flag("quiet"), flag("splash")}},
		{"modprobe.d", "options nvme_core default_ps_max_latency_us=0 io_timeout=60",
			[]persist.Argument{mod("nvme_core.default_ps_max_latency_us", "0"), mod("nvme_core.io_timeout", "60")}},
		{"modprobe.d, dashed and quoted", `options nvme-core default_ps_max_latency_us="5500"`, []persist.Argument{mod("nvme-core.default_ps_max_latency_us", "5500")}},
		{"modprobe.d that sets nothing", "blacklist nvme", nil},
		{"NixOS list", `boot.kernelParams = [ "nvme_core.default_ps_max_latency_us=0" "pcie_aspm=off" ];`,
			[]persist.Argument{cmd("nvme_core.default_ps_max_latency_us", "0"), cmd("pcie_aspm", "off")}},
		{"NixOS list appended", `boot.kernelParams = lib.mkAfter [ "nvme.noacpi=1" ];`, []persist.Argument{cmd("nvme.noacpi", "1")}},
		{"NixOS list without blanks", `boot.kernelParams=["nvme.noacpi=1"];`, []persist.Argument{cmd("nvme.noacpi", "1")}},
		{"NixOS list added", `boot.kernelParams = old ++ [ "nvme.noacpi=1" ];`, []persist.Argument{cmd("nvme.noacpi", "1")}},
		{"NixOS list opened", "boot.kernelParams = [", nil},
		{"NixOS list element", `  "pcie_aspm=off"`, []persist.Argument{cmd("pcie_aspm", "off")}},
		{"NixOS list closed", "];", nil},
		{"TrueNAS", `sudo midclt call system.advanced.update '{"kernel_extra_options": "nvme_core.default_ps_max_latency_us=0 pcie_aspm=off"}'`,
			[]persist.Argument{cmd("nvme_core.default_ps_max_latency_us", "0"), cmd("pcie_aspm", "off")}},
		{"a log's command line", "Kernel command line: BOOT_IMAGE=/boot/vmlinuz root=/dev/sda1 nvme_core.default_ps_max_latency_us=0",
			[]persist.Argument{cmd("BOOT_IMAGE", "/boot/vmlinuz"), cmd("root", "/dev/sda1"), cmd("nvme_core.default_ps_max_latency_us", "0")}},
		{"a log's time-stamped line", "[    0.041000] Kernel command line: root=/dev/sda1 ro", []persist.Argument{cmd("root", "/dev/sda1"), flag("ro")}},
		{"x86's early line", "[    0.000000] Command line: BOOT_IMAGE=/vmlinuz", []persist.Argument{cmd("BOOT_IMAGE", "/vmlinuz")}},
		{"a Pi's cmdline.txt", "console=serial0,115200 console=tty1 rootwait", []persist.Argument{cmd("console", "serial0,115200"), cmd("console", "tty1"), flag("rootwait")}},
		{"a comment", "# nvme_core.default_ps_max_latency_us=0", nil},
		{"not a name", "$(true) ; | nvme.noacpi=1", []persist.Argument{cmd("nvme.noacpi", "1")}},
	} {
		got, err := persist.ParseArguments(tc.text)
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.want, got, tc.name)
	}
}

// A line's number is its own, in a text of several forms.
func TestParseArgumentsLines(t *testing.T) {
	got, err := persist.ParseArguments("# grub\nGRUB_CMDLINE_LINUX=\"a=1\"\n\noptions nvme noacpi=1\r\nb\n")
	require.NoError(t, err)
	var lines []int
	for _, a := range got {
		lines = append(lines, a.Line)
	}
	assert.Equal(t, []int{2, 4, 5}, lines)
	assert.Equal(t, "nvme.noacpi", got[1].Name)

	_, err = persist.ParseArguments(strings.Repeat("x", persist.MaxSettingSize+1))
	assert.ErrorContains(t, err, "persist: kernel arguments")
}

func FuzzParseArguments(f *testing.F) {
	for _, s := range []string{
		"BOOT_IMAGE=/vmlinuz quiet nvme_core.default_ps_max_latency_us=5500 -- x=1",
		"options nvme_core default_ps_max_latency_us=0x10 other=1",
		`GRUB_CMDLINE_LINUX_DEFAULT="quiet nvme-core.default_ps_max_latency_us=0"`,
		`boot.kernelParams = [ "a=1" "b" ];`,
		`dyndbg="file nvme/* +p"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		as, err := persist.ParseArguments(text)
		if err != nil {
			return
		}
		n := strings.Count(text, "\n") + 1
		for _, a := range as {
			if a.Line < 1 || a.Line > n || a.Name == "" || a.NoValue && a.Value != "" {
				t.Fatalf("%q: %+v", text, a)
			}
			if a.Source != persist.SourceCmdline && a.Source != persist.SourceModprobe {
				t.Fatalf("%q: source %v", text, a.Source)
			}
		}
	})
}

// One command line is one line: a newline in it is a blank, as /proc/cmdline's
// trailing one is, and its forms are not looked for.
func TestCommandLineArguments(t *testing.T) {
	got := persist.CommandLineArguments("options=1\nro pcie_aspm=\"off\" -- single\n")
	assert.Equal(t, []persist.Argument{
		{Source: persist.SourceCmdline, Line: 1, Name: "options", Value: "1"},
		{Source: persist.SourceCmdline, Line: 1, Name: "ro", NoValue: true},
		{Source: persist.SourceCmdline, Line: 1, Name: "pcie_aspm", Value: "off"},
	}, got)
	assert.Empty(t, persist.CommandLineArguments(""))
}
