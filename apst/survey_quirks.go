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
	var q Quirks
	for i := range surveyCoreQuirks {
		cq := &surveyCoreQuirks[i]
		if cq.VendorID == id.VendorID && paddedMatch(id.Model, cq.Model) && paddedMatch(id.Firmware, cq.Firmware) {
			q |= cq.Quirks
		}
	}
	if !id.PCI.IsZero() {
		for i := range surveyPCIQuirks {
			if surveyPCIQuirks[i].ID == id.PCI {
				q |= surveyPCIQuirks[i].Quirks
			}
		}
	}
	return q.APST()
}

// The kernel's quirk tables, built once: DriveQuirks runs for every drive
// of a survey and must not allocate. They are never modified.
var (
	surveyCoreQuirks = CoreQuirks()
	surveyPCIQuirks  = PCIQuirks()
)
