package survey

import (
	"strings"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// pciVendors names the PCI vendor IDs common on NVMe drives (the PCI ID
// Repository's names, shortened). Many retail drives carry the ID of their
// controller's maker (Phison, Silicon Motion, Realtek, Maxio, InnoGrit)
// rather than their brand's: that is also who writes the power state table.
var pciVendors = map[uint16]string{
	0x025e: "Solidigm",
	0x10ec: "Realtek",
	0x106b: "Apple",
	0x1179: "Toshiba",
	0x126f: "Silicon Motion",
	0x1344: "Micron/Crucial", // Micron's own drives; Crucial's carry c0a9

	0x144d: "Samsung",
	0x14a4: "Lite-On",
	0x15b7: "SanDisk/WD",
	0x17aa: "Lenovo",
	0x1987: "Phison",
	0x1b4b: "Marvell",
	0x1b96: "Western Digital",
	0x1bb1: "Seagate",
	0x1c58: "HGST",
	0x1c5c: "SK hynix",
	0x1cc1: "ADATA",
	0x1d79: "Transcend",
	0x1d97: "Longsys",
	0x1dbe: "InnoGrit",
	0x1dee: "Biwin",
	0x1e0f: "KIOXIA",
	0x1e49: "YMTC",
	0x1e4b: "Maxio",
	0x1f40: "Netac",
	0x2646: "Kingston",
	0x8086: "Intel",
	0xc0a9: "Micron/Crucial",
}

// modelVendors maps the first word of a model number (lower case) to the
// name pciVendors gives its maker, so that a drive whose capture carries no
// VID (a smartctl report) is grouped with the drives of the same maker that
// do: "Micron" and "Crucial" are both "Micron/Crucial".
var modelVendors = map[string]string{
	"micron": "Micron/Crucial", "crucial": "Micron/Crucial",
	"samsung": "Samsung", "intel": "Intel", "kingston": "Kingston", "toshiba": "Toshiba",
	"kioxia": "KIOXIA", "sk": "SK hynix", "skhynix": "SK hynix", "hynix": "SK hynix",
	"sandisk": "SanDisk/WD", "wdc": "SanDisk/WD", "wd": "SanDisk/WD",
	"adata": "ADATA", "solidigm": "Solidigm", "seagate": "Seagate", "transcend": "Transcend",
	"netac": "Netac", "lite-on": "Lite-On", "apple": "Apple", "lenovo": "Lenovo", "phison": "Phison",
}

// DriveVendor returns the vendor a survey groups controller c under. It is
// the name of its PCI vendor ID (VID) when it is one of a small table of
// vendors common on NVMe drives; otherwise the first word of the model
// number, under the same name when it names one of those vendors
// ("Crucial" and "Micron" are "Micron/Crucial"); otherwise the first word
// of name's last path element (up to a space, "_" or "."); otherwise
// "unknown".
func DriveVendor(name string, c *powerstate.Controller) string {
	if c != nil {
		if v, ok := pciVendors[c.VendorID]; ok && !c.Missing.Has(powerstate.FieldVendorID) {
			return v
		}
		if f := strings.Fields(c.Model); len(f) > 0 {
			if v, ok := modelVendors[strings.ToLower(f[0])]; ok {
				return v
			}
			return f[0]
		}
	}
	base := name[strings.LastIndexAny(name, `/\`)+1:]
	if i := strings.IndexAny(base, " _."); i >= 0 {
		base = base[:i]
	}
	if base == "" {
		return "unknown"
	}
	return base
}
