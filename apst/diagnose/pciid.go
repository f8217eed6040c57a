package diagnose

import (
	"fmt"

	"github.com/nvmeapst/nvmeapst/apst"
)

// logPCIID gives the Identify data the PCI ID the log's enumeration line
// names for the diagnosed controller ("pci 0000:04:00.0: [2646:2263] type
// 00 class 0x010802"), which no capture carries and the kernel's PCI quirk
// table matches (NO_DEEPEST_PS for several drives): without it the plan
// of a capture beside such a log lacked quirks the kernel applied. It
// works on a copy (the caller's Controller is not changed) and returns
// the note to give, "" for none.
//
// The log's vendor is the PCI vendor, which the Identify VID equals
// except for a few drives (the HP EX920 reports VID 1dee on a 126f:2262
// function). So a vendor that differs is taken as such a drive only when
// the log ties the function to the diagnosed controller; a guess (the
// log's only NVMe function) of another vendor is left out, with a note
// that the capture may be of another controller. A PCI ID given with the
// capture (--pci-id, a live machine's) stands; one that differs from the
// log's is said to. A caller's own plan (Input.Plan) stands too.
func (s *signals) logPCIID(in *Input) string {
	c := in.Identify
	if c == nil || s.pciID == "" {
		return ""
	}
	var id apst.PCIID
	if id.UnmarshalText([]byte(s.pciID)) != nil {
		return ""
	}
	where := "the log's only NVMe function"
	if s.dev != "" {
		where = "the log's enumeration line of " + s.dev
	}
	if c.PCIDeviceID != 0 {
		if given := (apst.PCIID{Vendor: c.PCIVendor(), Device: c.PCIDeviceID}); given != id {
			return fmt.Sprintf("the PCI ID given with the Identify data (%s) is not the one %s names (%s): the capture may be of another controller; the given one was used", given, where, id)
		}
		return ""
	}
	if in.Plan != nil && in.Params.Generation != 0 {
		return "" // the caller's plan is used as it is
	}
	note := ""
	if id.Vendor != c.VendorID {
		if s.dev == "" {
			return fmt.Sprintf("the Identify data's vendor (VID %04x) is not the PCI vendor of %s (%s): the capture may be of another controller; the PCI quirk table was not matched on the log's ID", c.VendorID, where, id)
		}
		note = fmt.Sprintf("the Identify data's vendor (VID %04x) is not the PCI vendor of %s (%s): the log's ID was used, as the kernel's PCI quirk table matches it (some drives report another vendor in Identify: the HP EX920, 1dee on 126f:2262); if the capture is another controller's, give that controller's", c.VendorID, where, id)
	}
	d := *c
	d.PCIDeviceID = id.Device
	if id.Vendor != c.VendorID {
		d.PCIVendorID = id.Vendor
	}
	in.Identify = &d
	s.pciFrom = where
	return note
}
