package kernlog

import "strings"

// oscFailed reports whether a message says the firmware's _OSC method
// failed (Log.OSC): "_OSC failed (AE_ERROR); disabling ASPM" before 5.x's
// rewording, "_OSC: platform retains control of PCIe features (AE_ERROR)"
// after it (drivers/acpi/pci_root.c). AE_NOT_FOUND, a host bridge without
// the method (a virtual machine's, an old firmware's), and AE_SUPPORT, a
// firmware that declines the features asked for, are no failure.
func oscFailed(msg string) bool {
	i := strings.Index(msg, "_OSC failed (")
	if i < 0 {
		i = strings.Index(msg, "_OSC: platform retains control of PCIe features (")
	}
	return i >= 0 && !strings.Contains(msg[i:], "(AE_NOT_FOUND)") && !strings.Contains(msg[i:], "(AE_SUPPORT)")
}
