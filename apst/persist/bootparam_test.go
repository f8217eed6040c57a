package persist_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nvmeapst/nvmeapst/apst/persist"
)

func TestDetectPlatform(t *testing.T) {
	for _, tc := range []struct {
		release, cmdline string
		want             persist.Platform
	}{
		{"6.6.51+rpt-rpi-2712", "", persist.PlatformRaspberryPi},
		{"6.8.0-1004-raspi", "", persist.PlatformRaspberryPi},
		{"6.1.21-v8+", "coherent_pool=1M 8250.nr_uarts=1 bcm2708_fb.fbwidth=1920 vc_mem.mem_base=0x3ec00000", persist.PlatformRaspberryPi},
		{"6.8.12-4-pve", "BOOT_IMAGE=/boot/vmlinuz-6.8.12-4-pve root=/dev/mapper/pve-root ro quiet", persist.PlatformProxmox},
		{"6.6.44-production+truenas", "", persist.PlatformTrueNAS},
		{"6.6.52", "init=/nix/store/abc-nixos-system/init loglevel=4", persist.PlatformNixOS},
		{"6.11.4-301.fc41.x86_64", "BOOT_IMAGE=(hd0,gpt2)/vmlinuz-6.11.4-301.fc41.x86_64 root=UUID=1 ro rhgb quiet", persist.PlatformFedora},
		{"6.12.1-arch1-1", `initrd=\initramfs-linux.img root=/dev/nvme0n1p2 rw`, persist.PlatformSystemdBoot},
		{"6.8.0-51-generic", "BOOT_IMAGE=/boot/vmlinuz-6.8.0-51-generic root=UUID=a1b2 ro quiet splash", persist.PlatformGRUB},
		{"6.1.0-28-amd64", "", persist.PlatformGRUB},
		// As a log's banner gives them, with the distribution's base.
		{"6.8.0-31-generic (Ubuntu 6.8.0-31.31-generic 6.8.1)", "", persist.PlatformGRUB},
		{"6.5.0-1008-oem (Ubuntu 6.5.0-1008.8-oem 6.5.0)", "", persist.PlatformGRUB},
		{"6.1.0-12-amd64 (Debian 6.1.52-1)", "", persist.PlatformGRUB},
		{"6.1.0-12-arm64", "", persist.PlatformGRUB},
		{"6.8.0-1004-raspi (Ubuntu 6.8.0-1004.4-raspi 6.8.1)", "", persist.PlatformRaspberryPi},
		// A Jetson AGX Xavier's L4T release (posted m-08, linux-tegra).
		{"5.15.148-tegra", "", persist.PlatformExtlinux},
		{"", "", persist.PlatformUnknown},
		{"6.12.1-arch1-1", "root=/dev/sda2 rw", persist.PlatformUnknown},
		// Arch's GRUB has no update-grub: the usual places.
		{"6.9.7-arch1-1", "BOOT_IMAGE=/vmlinuz-linux root=UUID=1 rw loglevel=3 quiet", persist.PlatformUnknown},
		{"6.12.48-1-lts", "BOOT_IMAGE=/vmlinuz-linux-lts root=UUID=1 rw", persist.PlatformUnknown},
		{"6.6.32-1-MANJARO", "BOOT_IMAGE=/boot/vmlinuz-6.6-x86_64 root=UUID=1 rw quiet", persist.PlatformUnknown},
	} {
		assert.Equal(t, tc.want, persist.DetectPlatform(tc.release, tc.cmdline), "%s | %s", tc.release, tc.cmdline)
	}
}

func TestKernelArgumentEveryPlatform(t *testing.T) {
	for _, p := range append(persist.Platforms(), persist.PlatformUnknown) {
		pl := persist.KernelArgument(p, "pcie_aspm=off")
		assert.Equal(t, p, pl.Platform)
		assert.NotEmpty(t, pl.Steps, p)
		mentions := false
		for _, s := range pl.Steps {
			if assert.NotEmpty(t, s) && strings.Contains(s, "pcie_aspm=off") {
				mentions = true
			}
		}
		assert.True(t, mentions, "%s: no step names the argument: %q", p, pl.Steps)
	}
	assert.Contains(t, persist.KernelArgument(persist.PlatformRaspberryPi, "pcie_aspm=off").Steps[0], "cmdline.txt")
	assert.Contains(t, persist.KernelArgument(persist.PlatformNixOS, "pcie_aspm=off").Steps[0], "boot.kernelParams")
	assert.Contains(t, persist.KernelArgument(persist.PlatformTrueNAS, "pcie_aspm=off").Steps[0], "kernel_extra_options")
	// kernel_extra_options is one string: an update that names only the
	// new argument drops the ones set before, so the step says to keep them.
	assert.Contains(t, persist.KernelArgument(persist.PlatformTrueNAS, "pcie_aspm=off").Steps[0], "it replaces the options set before, which midclt call system.advanced.config shows: keep them in the value")
	assert.Contains(t, persist.KernelArgument(persist.PlatformProxmox, "pcie_aspm=off").Steps[1], "proxmox-boot-tool refresh")
	// extlinux.conf's entry takes the argument on its APPEND line; where
	// u-boot-menu writes the file, its /etc/default/u-boot does.
	ext := persist.KernelArgument(persist.PlatformExtlinux, "pcie_aspm=off").Steps[0]
	assert.Contains(t, ext, "pcie_aspm=off to the end of the APPEND line")
	assert.Contains(t, ext, "U_BOOT_PARAMETERS in /etc/default/u-boot and run sudo u-boot-update")
	assert.Contains(t, persist.PiConfig("dtparam=pciex1_gen=2").Steps[0], "config.txt")
}

// The steps checked against each project's own documentation (the source
// is named beside each in bootparam.go).
func TestKernelArgumentDocumentedSteps(t *testing.T) {
	for _, tc := range []struct {
		p    persist.Platform
		step int
		want string
	}{
		// Fedora CoreOS docs, "Modifying Kernel Arguments": ostree systems
		// keep their arguments with rpm-ostree, not grubby.
		{persist.PlatformFedora, 0, "ostree=, as Silverblue or CoreOS: sudo rpm-ostree kargs --append=pcie_aspm=off"},
		{persist.PlatformFedora, 1, "on ostree, rpm-ostree kargs --delete=pcie_aspm=off"},
		// bootctl(1): entries go in $(bootctl -x)/loader/entries/, which is
		// /boot only where the ESP or XBOOTLDR is mounted there.
		{persist.PlatformSystemdBoot, 0, "the options line of the entry in $(bootctl -x)/loader/entries/"},
		// kernel-install(8): /etc/kernel/cmdline is read when an entry is
		// written, so the edit alone changes nothing.
		{persist.PlatformUnknown, 1, "systemd-boot: add it to /etc/kernel/cmdline, then sudo kernel-install add $(uname -r)"},
		{persist.PlatformUnknown, 1, "or to the options line of the entry in $(bootctl -x)/loader/entries/"},
		// pve-docs, system-booting.adoc: GRUB on ZFS with Secure Boot.
		{persist.PlatformProxmox, 1, "systemd-boot (ZFS root on UEFI without Secure Boot; proxmox-boot-tool status tells)"},
	} {
		steps := persist.KernelArgument(tc.p, "pcie_aspm=off").Steps
		if assert.Greater(t, len(steps), tc.step, tc.p) {
			assert.Contains(t, steps[tc.step], tc.want, tc.p)
		}
	}
	assert.NotContains(t, strings.Join(persist.KernelArgument(persist.PlatformSystemdBoot, "pcie_aspm=off").Steps, " "), "/boot/loader/entries/")
}
