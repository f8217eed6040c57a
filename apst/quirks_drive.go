package apst

import (
	"strings"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// DriveQuirks returns the quirks the kernel of release r assigns controller
// c at probe time, from what the controller records. It uses VID, MN and FR
// for core_quirks[] (matched on c.ModelField and c.FirmwareField as the
// kernel does; when those are all zero, as in a Controller built in code, on
// the trimmed Model and Firmware padded with spaces, and the result says
// so), and the PCI ID (c.PCIVendor():c.PCIDeviceID) for the nvme-pci table
// when c.PCIDeviceID is not 0; a PCI vendor other than the VID is noted.
// Without a PCI device ID (no capture format carries one) it is inferred
// from the model where docs/quirks.md says that is certain, and otherwise
// the vendor's quirked IDs are reported as unchecked. No DMI rule is checked
// (the machine is unknown) and no nvme.quirks= override applies; use
// LookupQuirks with an Identity for those. The zero Release uses the newest
// tables and says so. A nil c has nothing to match: the lookup of an
// Identity of r alone (no quirk).
func DriveQuirks(c *powerstate.Controller, r Release) QuirkMatch {
	if c == nil {
		return LookupQuirks(Identity{Release: r})
	}
	id := Identity{VendorID: c.VendorID, SubsystemVendorID: c.SubsystemVendorID, Release: r}
	var fallback []string
	id.Model, fallback = rawField(c.ModelField[:], c.Model, "model", fallback)
	id.Firmware, fallback = rawField(c.FirmwareField[:], c.Firmware, "firmware", fallback)
	if c.PCIDeviceID != 0 {
		id.PCI = PCIID{Vendor: c.PCIVendor(), Device: c.PCIDeviceID}
	}
	m := LookupQuirks(id)
	if !id.PCI.IsZero() && id.PCI.Vendor != c.VendorID {
		m.Notes = append(m.Notes, vendorsDifferNote(id.PCI, c.VendorID))
	}
	if len(fallback) > 0 {
		m.Notes = append(m.Notes, strings.Join(fallback, " and ")+" matched as the trimmed string padded with spaces (the raw field was not recorded)")
	}
	return m
}

// rawField returns the field's bytes as a string when recorded, else the
// trimmed string padded with spaces to the field's width, noting it.
func rawField(field []byte, trimmed, name string, fallback []string) (string, []string) {
	for _, b := range field {
		if b != 0 {
			return string(field), fallback
		}
	}
	if trimmed == "" {
		return "", fallback
	}
	pad := len(field) - len(trimmed)
	if pad < 0 {
		pad = 0
	}
	return trimmed + strings.Repeat(" ", pad), append(fallback, name)
}
