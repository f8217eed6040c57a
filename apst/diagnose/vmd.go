package diagnose

import "strings"

// behindVMD reports whether a PCI address is in a domain Intel's Volume
// Management Device creates for the devices it hides (drivers/pci/controller/vmd.c
// numbers them from 0x10000, past any domain the firmware's tables use):
// "10000:e1:00.0".
func behindVMD(addr string) bool {
	dom, _, ok := strings.Cut(addr, ":")
	return ok && len(dom) > 4 && dom >= "10000"
}
