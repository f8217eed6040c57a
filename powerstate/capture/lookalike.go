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
// lspci's "Non-Volatile memory controller" and "LnkCap:"; and HTML's
// entities (&quot; &lt; &gt; &amp; &nbsp;) in a capture copied from a
// page's source.
func lookalike(s string) string {
	var lines, kernel, smart, ns, lspci, list, html int
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
		if _, e, ok := strings.Cut(t, "&"); ok && (strings.HasPrefix(e, "quot;") || strings.HasPrefix(e, "lt;") || strings.HasPrefix(e, "nbsp;") || strings.HasPrefix(e, "amp;")) {
			html++ // an HTML entity (the first & of the line)
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
	case html > 0:
		return "text escaped for a web page (&quot;, &lt;, &amp;, &nbsp;: copied from the page's source; copy the text the page shows)"
	}
	return ""
}

// kernelLine reports whether t reads as a line of a kernel log: a time
// stamp, printk's ("[    1.234567]") or dmesg -T's or --human's ("[Mon
// Feb 17 21:24:01 2025]", "[Sep12 13:16]", "[  +0.000009]"), syslog's
// "kernel: " prefix, or none of them before a driver's message about an
// NVMe or PCI device ("nvme nvme0: ", "nvme0n1: ", "pcieport
// 0000:00:1c.0: "), as dmesg --notime and journalctl -o cat print it; a
// console's "<3>" level may come first.
func kernelLine(t string) bool {
	if len(t) > 3 && t[0] == '<' && t[2] == '>' {
		t = t[3:]
	}
	if rest, ok := strings.CutPrefix(t, "["); ok {
		end := strings.IndexByte(rest, ']')
		stamp := strings.TrimLeft(rest[:max(end, 0)], " ")
		secs, frac, dot := strings.Cut(stamp, ".")
		return end > 0 && end <= 32 && strings.ContainsAny(stamp, "0123456789") &&
			(strings.Contains(stamp, ":") || stamp[0] == '+' || dot && strings.Trim(secs+frac, "0123456789") == "")
	}
	if strings.Contains(t, " kernel: ") || strings.HasPrefix(t, "kernel: ") {
		return true
	}
	head, _, ok := strings.Cut(t, ": ")
	f := strings.Fields(head)
	if !ok || len(f) == 0 || len(f) > 2 {
		return false
	}
	dev := f[len(f)-1] // nvme0, nvme0n1, or a PCI address (DDDD:BB:DD.F)
	return strings.HasPrefix(dev, "nvme") && len(dev) > 4 && dev[4] >= '0' && dev[4] <= '9' ||
		len(dev) == 12 && dev[4] == ':' && dev[7] == ':' && dev[10] == '.'
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
