package capture

import (
	"strings"
)

// lookalike says what text that is no capture looks like instead, as a
// noun phrase ("lspci output"), for the error that refuses it: the outputs users paste in a capture's place
// (a kernel log, nvme-cli's smart-log, id-ns or list, lspci). "" when it
// looks like none of them. The markers are the lines those tools print:
// printk's "[    1.234567] " stamp and syslog's "kernel: " prefix (on at
// least half of the lines: a document that quotes a log line is no log);
// nvme-cli's "critical_warning" and "available_spare" (smart-log),
// "nsze", "ncap" and "lbaf" (id-ns), its list header "Node ... Model";
// lspci's "Non-Volatile memory controller" and "LnkCap:".
func lookalike(s string) string {
	var lines, kernel, smart, ns, lspci, list int
	for line := range strings.Lines(s) {
		t := strings.TrimLeft(line, " \t>`")
		t = strings.TrimRight(t, "\r\n")
		if strings.TrimSpace(t) == "" {
			continue
		}
		lines++
		key, _, _ := strings.Cut(t, ":")
		key = strings.Trim(strings.TrimSpace(key), `"`)
		switch {
		case kernelLine(t):
			kernel++
		case key == "critical_warning" || key == "available_spare" || key == "avail_spare":
			smart++
		case key == "nsze" || key == "ncap" || strings.HasPrefix(key, "lbaf"):
			ns++
		case strings.Contains(t, "Non-Volatile memory controller") || key == "LnkCap" || key == "LnkSta":
			lspci++
		case strings.HasPrefix(t, "Node ") && strings.Contains(t, "Model"):
			list++
		}
	}
	switch {
	case kernel > 0 && 2*kernel >= lines: // most lines: a document that quotes one is no log
		return "a kernel log (dmesg or journalctl -k)"
	case smart >= 2:
		return "nvme smart-log output (the SMART / Health log)"
	case ns >= 2:
		return "nvme id-ns output (Identify Namespace)"
	case lspci > 0:
		return "lspci output"
	case list > 0:
		return "nvme list output"
	}
	return ""
}

// kernelLine reports whether t reads as a line of a kernel log: printk's
// "[    1.234567] " stamp, dmesg -T's or --human's ("[Mon Feb 17
// 21:24:01 2025]", "[Sep12 13:16]", "[  +0.000009]"), syslog's "kernel: "
// prefix, or none of them before a driver's message about an NVMe or PCI
// device ("nvme nvme0: ", "nvme0n1: ", "pcieport 0000:00:1c.0: "), as
// dmesg --notime and journalctl -o cat print it; a console's "<3>" level
// may come first.
func kernelLine(t string) bool {
	if len(t) > 3 && t[0] == '<' && t[1] >= '0' && t[1] <= '7' && t[2] == '>' {
		t = t[3:]
	}
	if printkStamped(t) || humanStamped(t) || strings.Contains(t, " kernel: ") || strings.HasPrefix(t, "kernel: ") {
		return true
	}
	head, _, ok := strings.Cut(t, ": ")
	if !ok {
		return false
	}
	f := strings.Fields(head)
	if len(f) == 0 || len(f) > 2 {
		return false
	}
	dev := f[len(f)-1]
	return nvmeName(dev) || pciAddress(dev)
}

// humanStamped reports whether t starts with dmesg -T's or --human's time
// stamp: "[", then within 32 bytes a digit, then ":" (a clock time) or a
// leading "+" (the delta since the line before), then "]".
func humanStamped(t string) bool {
	rest, ok := strings.CutPrefix(t, "[")
	if !ok {
		return false
	}
	end := strings.IndexByte(rest, ']')
	if end < 1 || end > 32 {
		return false
	}
	stamp := strings.TrimLeft(rest[:end], " ")
	return strings.ContainsAny(stamp, "0123456789") && (strings.Contains(stamp, ":") || strings.HasPrefix(stamp, "+"))
}

// nvmeName reports whether s is an NVMe device's kernel name: nvme0,
// nvme0n1, nvme0n1p2.
func nvmeName(s string) bool {
	rest, ok := strings.CutPrefix(s, "nvme")
	if !ok || rest == "" {
		return false
	}
	return strings.Trim(rest, "0123456789np") == "" && rest[0] >= '0' && rest[0] <= '9'
}

// pciAddress reports whether s is a PCI address as the kernel writes it,
// DDDD:BB:DD.F in lower-case hexadecimal.
func pciAddress(s string) bool {
	if len(s) != 12 || s[4] != ':' || s[7] != ':' || s[10] != '.' {
		return false
	}
	for i := range len(s) {
		if i == 4 || i == 7 || i == 10 {
			continue
		}
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// printkStamped reports whether t starts with printk's time stamp, "[" then
// seconds, a dot and microseconds, then "]" ("[    1.234567]").
func printkStamped(t string) bool {
	rest, ok := strings.CutPrefix(t, "[")
	if !ok {
		return false
	}
	end := strings.IndexByte(rest, ']')
	if end < 3 {
		return false
	}
	secs, frac, ok := strings.Cut(strings.TrimLeft(rest[:end], " "), ".")
	return ok && secs != "" && frac != "" && strings.Trim(secs, "0123456789") == "" && strings.Trim(frac, "0123456789") == ""
}

// notNVMe says that a smartctl report is of a SATA or SAS drive, which
// has no NVMe power states: smartctl prints "ATA Version is:" and "SATA
// Version is:" (text; "ata_version" and "sata_version" in JSON) for an
// ATA drive and "Transport protocol:   SAS" for a SAS one. "" otherwise.
func notNVMe(s string) string {
	for _, m := range []string{"ATA Version is:", "SATA Version is:", `"ata_version"`, `"sata_version"`, "Transport protocol:   SAS", `"protocol": "ATA"`, `"protocol": "SCSI"`} {
		if strings.Contains(s, m) {
			return "smartctl's report of a SATA or SAS drive (no NVMe power states)"
		}
	}
	return ""
}
