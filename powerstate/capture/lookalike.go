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
		t := strings.TrimLeft(line, " \t>")
		t = strings.TrimRight(t, "\r\n")
		if strings.TrimSpace(t) == "" {
			continue
		}
		lines++
		key, _, _ := strings.Cut(t, ":")
		key = strings.Trim(strings.TrimSpace(key), `"`)
		switch {
		case printkStamped(t) || strings.Contains(t, " kernel: ") || strings.HasPrefix(t, "kernel: "):
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
