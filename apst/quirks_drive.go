package apst

import "github.com/nvmeapst/nvmeapst/powerstate"

// DriveQuirks returns the APST quirks (NO_APST, NO_DEEPEST_PS) the kernel's
// quirk tables assign controller c at probe time (LookupQuirks(...).APST()
// without allocating), from what
// the capture records: VID, model and firmware for core_quirks[], and the
// PCI vendor:device ID for the nvme-pci table when the capture has it
// (powerstate.FieldPCIDeviceID; most captures do not, so PCI-ID quirks such
// as the Intel 600p's are then missed). No DMI rule applies: the machine is
// unknown.
func DriveQuirks(c *powerstate.Controller) Quirks {
	id := Identity{VendorID: c.VendorID, Model: c.Model, Firmware: c.Firmware}
	if c.Known.Has(powerstate.FieldPCIDeviceID) {
		id.PCI = PCIID{Vendor: c.VendorID, Device: c.PCIDeviceID}
	}
	return lookupQuirks(id, nil).APST()
}
