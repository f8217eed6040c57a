package persist

import "strings"

// Platform names how a machine boots: where its kernel command line and,
// on a Raspberry Pi, its firmware configuration live. The zero value is
// unknown: Placement then gives the usual places.
type Platform string

// The platforms Placement knows.
const (
	PlatformUnknown     Platform = ""
	PlatformGRUB        Platform = "grub"         // Debian, Ubuntu and most others
	PlatformFedora      Platform = "fedora"       // Fedora, RHEL and derivatives: grubby
	PlatformSystemdBoot Platform = "systemd-boot" // systemd-boot or a unified kernel image
	PlatformRaspberryPi Platform = "raspberry-pi" // Raspberry Pi OS (and Ubuntu for the Pi)
	PlatformNixOS       Platform = "nixos"
	PlatformTrueNAS     Platform = "truenas" // TrueNAS SCALE
	PlatformProxmox     Platform = "proxmox"
	PlatformExtlinux    Platform = "extlinux" // NVIDIA Jetson (L4T) and other boards U-Boot boots from extlinux.conf
)

// Platforms lists the known platforms.
func Platforms() []Platform {
	return []Platform{PlatformGRUB, PlatformFedora, PlatformSystemdBoot, PlatformRaspberryPi, PlatformNixOS, PlatformTrueNAS, PlatformProxmox, PlatformExtlinux}
}

// Placement says where a setting goes on a platform so that it lasts,
// and how it is applied.
//
// The zero Placement has no steps, for the unknown platform; KernelArgument
// and PiConfig always give steps.
type Placement struct {
	// Platform is the platform the steps are for (unknown: the usual
	// places, each step naming its boot loader).
	Platform Platform
	// Steps are what to do, in order.
	Steps []string
}

// KernelArgument says where the kernel command line argument arg
// ("pcie_aspm=off") goes on platform p. arg is written into the steps as
// given: the caller passes a setting, never text from a log.
func KernelArgument(p Platform, arg string) Placement {
	pl := Placement{Platform: p}
	switch p {
	case PlatformGRUB:
		pl.Steps = []string{"add " + arg + " to GRUB_CMDLINE_LINUX_DEFAULT in /etc/default/grub", "sudo update-grub, then reboot"}
	case PlatformFedora:
		// An ostree system (Silverblue, Kinoite, CoreOS, Bazzite: a .fc
		// release too) keeps its arguments with rpm-ostree, not grubby:
		// https://docs.fedoraproject.org/en-US/fedora-coreos/kernel-args/
		pl.Steps = []string{"sudo grubby --update-kernel=ALL --args=\"" + arg + "\" (an ostree system, whose /proc/cmdline holds ostree=, as Silverblue or CoreOS: sudo rpm-ostree kargs --append=" + arg + ")",
			"reboot (undo: grubby --update-kernel=ALL --remove-args=\"" + arg + "\"; on ostree, rpm-ostree kargs --delete=" + arg + ")"}
	case PlatformSystemdBoot:
		// kernel-install(8) reads /etc/kernel/cmdline when it writes an
		// entry; entries live in $BOOT/loader/entries/, $BOOT being /efi,
		// /boot or /boot/efi, the one bootctl -x prints (bootctl(1),
		// --print-boot-path).
		pl.Steps = []string{"add " + arg + " to /etc/kernel/cmdline (or to the options line of the entry in $(bootctl -x)/loader/entries/)", "sudo kernel-install add $(uname -r) /lib/modules/$(uname -r)/vmlinuz (or your distribution's initramfs rebuild), then reboot"}
	case PlatformRaspberryPi:
		pl.Steps = []string{"append \" " + arg + "\" to the single line of /boot/firmware/cmdline.txt (/boot/cmdline.txt before Bookworm); no new line", "reboot"}
	case PlatformNixOS:
		pl.Steps = []string{"add \"" + arg + "\" to boot.kernelParams in configuration.nix", "sudo nixos-rebuild boot, then reboot"}
	case PlatformTrueNAS:
		pl.Steps = []string{"sudo midclt call system.advanced.update '{\"kernel_extra_options\": \"" + arg + "\"}' (kept across updates, unlike an edit of GRUB; it replaces the options set before, which midclt call system.advanced.config shows: keep them in the value)", "reboot"}
	case PlatformProxmox:
		// pve-docs, system-booting.adoc: systemd-boot only for a ZFS root
		// on UEFI without Secure Boot; proxmox-boot-tool status tells.
		pl.Steps = []string{"GRUB (most installs): add " + arg + " to GRUB_CMDLINE_LINUX_DEFAULT in /etc/default/grub, then update-grub", "systemd-boot (ZFS root on UEFI without Secure Boot; proxmox-boot-tool status tells): add it to the single line of /etc/kernel/cmdline, then proxmox-boot-tool refresh", "reboot"}
	case PlatformExtlinux:
		// U-Boot's distro boot reads /boot/extlinux/extlinux.conf, the
		// syslinux format, as NVIDIA's Jetsons do (ostreedev/ostree#2256);
		// the kernel's arguments are an entry's APPEND line, which
		// u-boot-menu's u-boot-update rewrites from /etc/default/u-boot
		// where it is installed. Armbian's boot script reads
		// armbianEnv.txt's extraargs instead.
		pl.Steps = []string{"add " + arg + " to the end of the APPEND line of the entry that boots (the LABEL that DEFAULT names) in /boot/extlinux/extlinux.conf; where u-boot-update writes that file (Debian's and Ubuntu's u-boot-menu), add it to U_BOOT_PARAMETERS in /etc/default/u-boot and run sudo u-boot-update instead; on Armbian, to extraargs= in /boot/armbianEnv.txt", "reboot; cat /proc/cmdline shows it"}
	default:
		pl.Steps = []string{
			"GRUB: add " + arg + " to GRUB_CMDLINE_LINUX_DEFAULT in /etc/default/grub, then update-grub (Debian, Ubuntu), grub-mkconfig -o /boot/grub/grub.cfg (Arch) or grubby --update-kernel=ALL --args=\"" + arg + "\" (Fedora)",
			// /etc/kernel/cmdline is read only when an entry is written
			// (kernel-install(8)): an edit alone changes nothing.
			"systemd-boot: add it to /etc/kernel/cmdline, then sudo kernel-install add $(uname -r) /lib/modules/$(uname -r)/vmlinuz (or your distribution's initramfs rebuild); or to the options line of the entry in $(bootctl -x)/loader/entries/",
			"reboot; cat /proc/cmdline shows it",
		}
	}
	return pl
}

// PiConfig says where a Raspberry Pi firmware setting ("dtparam=pciex1_gen=2")
// goes: config.txt, read by the firmware before the kernel starts.
func PiConfig(line string) Placement {
	return Placement{Platform: PlatformRaspberryPi, Steps: []string{
		"add the line " + line + " to /boot/firmware/config.txt (/boot/config.txt before Bookworm), in the [all] section",
		"reboot",
	}}
}

// DetectPlatform guesses the platform from a kernel release ("6.6.51+rpt-rpi-2712",
// "6.8.12-4-pve", or as a log gives it with its distribution's base:
// "6.8.0-31-generic (Ubuntu 6.8.0-31.31-generic 6.8.1)") and command
// line; unknown when they do not tell.
func DetectPlatform(release, cmdline string) Platform {
	r := strings.ToLower(release)
	// The release proper, without the base a log's banner adds.
	uname, _, _ := strings.Cut(r, " ")
	switch {
	case strings.Contains(r, "rpi") || strings.Contains(r, "raspi") || strings.Contains(cmdline, "bcm2708_fb.") || strings.Contains(cmdline, "vc_mem.mem_base="):
		return PlatformRaspberryPi
	case strings.Contains(uname, "-tegra"):
		// NVIDIA's L4T kernels ("5.15.148-tegra"), booted from
		// extlinux.conf.
		return PlatformExtlinux
	case strings.Contains(r, "-pve"):
		return PlatformProxmox
	case strings.Contains(r, "truenas"):
		return PlatformTrueNAS
	case strings.Contains(cmdline, "init=/nix/store/") || strings.Contains(r, "nixos"):
		return PlatformNixOS
	case strings.Contains(r, ".fc") || strings.Contains(r, ".el"):
		return PlatformFedora
	case strings.Contains(cmdline, `initrd=\`):
		return PlatformSystemdBoot
	case strings.Contains(uname, "-arch") || strings.Contains(uname, "manjaro") || strings.HasSuffix(uname, "-lts") || strings.HasSuffix(uname, "-zen"):
		// Arch's GRUB has no update-grub: the usual places, grub-mkconfig
		// named (linux-lts is "6.12.48-1-lts", linux-zen "6.9.7-zen1-1-zen").
		return PlatformUnknown
	case strings.Contains(cmdline, "BOOT_IMAGE="), strings.HasSuffix(uname, "-generic"), strings.HasSuffix(uname, "-amd64"),
		strings.HasSuffix(uname, "-arm64"), strings.Contains(r, "(ubuntu "), strings.Contains(r, "(debian "):
		return PlatformGRUB
	}
	return PlatformUnknown
}
