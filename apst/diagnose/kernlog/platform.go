package kernlog

import "strings"

// parsePlatform reads what the platform did: the PCI core's ASPM lines and
// interrupts nobody handled.
func parsePlatform(e *Event, msg, body string) bool {
	switch {
	case strings.HasPrefix(body, "ASPM: "),
		strings.HasPrefix(body, "can't disable ASPM"),
		strings.HasPrefix(msg, "PCIe ASPM is "),
		strings.Contains(msg, "doesn't support PCIe ASPM"),
		strings.Contains(body, "FADT indicates ASPM is unsupported"):
		e.Kind, e.Text = ASPMPlatform, clip(body)
		e.Controller = ""
		return true
	case strings.HasPrefix(msg, "irq ") || strings.HasPrefix(msg, "Disabling IRQ #"):
		m := re().reIRQ.FindStringSubmatch(msg)
		if m == nil {
			return false
		}
		e.Kind, e.IRQ = LostInterrupt, atoi(m[1]+m[2])
		e.Driver, e.Device = "", ""
		return true
	}
	return false
}
