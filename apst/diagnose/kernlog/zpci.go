package kernlog

import "strings"

// parseZPCI reads s390's zPCI error handling, whose lines carry the
// facility's prefix before the function's address (pr_fmt "zpci: ",
// arch/s390/pci/pci_event.c; the sample messages of IBM's "Recovering a
// PCIe device", Linux on IBM Z): the machine's firmware reports an error
// for a PCI function ("zpci: 000e:00:00.0: Event 0x3a reports an error for
// PCI function 0x1004"), the kernel resets it ("Initiating reset") and
// says when that failed ("Automatic recovery failed after slot reset",
// "Automatic recovery failed; operator intervention is required"). Each is
// an AERRecovery of the function (Action "platform error", "slot reset" or
// "failed"). Other zpci lines, its "The device is ready to resume
// operations" among them, are not events.
func parseZPCI(e *Event, body string) bool {
	addr, msg, ok := strings.Cut(body, ": ")
	if !ok || !isPCIAddr(addr) {
		return false
	}
	switch {
	case strings.HasPrefix(msg, "Event 0x") && strings.Contains(msg, " reports an error for PCI function "):
		e.Action = ActionPlatformError
	case msg == "Initiating reset":
		e.Action = "slot reset"
	case strings.HasPrefix(msg, "Automatic recovery failed"):
		e.Action = "failed"
	default:
		return false
	}
	e.Kind, e.Driver, e.Device, e.PCI = AERRecovery, "zpci", addr, strings.ToLower(addr)
	return true
}
