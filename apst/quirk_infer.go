package apst

import (
	"slices"
	"strings"
)

// pciInference maps an Identify VID and a model pattern to the PCI device
// ID that every drive with such a model has, for the PCI ID table entries
// and DMI rules that change APST (docs/quirks.md lists them with their
// sources). A model matches when it starts with prefix and, where set, ends
// with one of suffixes and contains contains.
type pciInference struct {
	vendor     uint16
	prefix     string
	suffixes   []string
	contains   string
	id         PCIID
	product    string
	confidence string // "high" or "medium", as docs/quirks.md argues
}

// pciInferences is the inference table; it is never modified. Silicon
// Motion's generic IDs (126f:2262, 126f:1001) are shared by many brands and
// controllers, so no model identifies them without doubt: they have no row
// and such drives get the unchecked candidates instead.
var pciInferences = [...]pciInference{
	{vendor: 0x8086, prefix: "INTEL SSDPEKKW", suffixes: []string{"G7", "T7"}, id: PCIID{0x8086, 0xf1a5}, product: "Intel 600p", confidence: "high"},
	{vendor: 0x8086, prefix: "INTEL SSDPEKKF", suffixes: []string{"G7", "T7"}, id: PCIID{0x8086, 0xf1a5}, product: "Intel Pro 6000p", confidence: "medium"},
	{vendor: 0x8086, prefix: "INTEL SSDPEKKA", suffixes: []string{"G7", "T7"}, id: PCIID{0x8086, 0xf1a5}, product: "Intel DC P3100", confidence: "medium"},
	{vendor: 0x2646, prefix: "KINGSTON SA2000M8", id: PCIID{0x2646, 0x2263}, product: "Kingston A2000", confidence: "high"},
	{vendor: 0x2646, prefix: "KINGSTON SKC2000M8", id: PCIID{0x2646, 0x2262}, product: "Kingston KC2000", confidence: "medium"},
	{vendor: 0x1e49, prefix: "ZHITAI TiPro7000", id: PCIID{0x1e49, 0x0041}, product: "ZHITAI TiPro7000", confidence: "medium"},
	{vendor: 0x1e49, prefix: "ZHITAI TiPro5000", id: PCIID{0x1e49, 0x0021}, product: "ZHITAI TiPro5000", confidence: "medium"},
	// The commit that quirks 1e49:0021 (Xi Ruoyao, linux-nvme, 2022-09-28,
	// "nvme-pci: avoid the deepest sleep state on ZHITAI TiPro5000 SSDs")
	// quotes the drive's id-ctrl: its model reads "ZHITAI TiPlus5000 1TB".
	{vendor: 0x1e49, prefix: "ZHITAI TiPlus5000", id: PCIID{0x1e49, 0x0021}, product: "ZHITAI TiPlus5000 (TiPro5000 in pci.c)", confidence: "high"},
	{vendor: 0x1cc1, prefix: "ADATA SX8200PNP", id: PCIID{0x1cc1, 0x8201}, product: "ADATA XPG SX8200 Pro", confidence: "medium"},
	{vendor: 0x15b7, prefix: "WDC WDS", contains: "2B0C", id: PCIID{0x15b7, 0x5009}, product: "WD Blue SN550", confidence: "medium"},
	{vendor: 0x025e, prefix: "SOLIDIGM SSDPFKKW", id: PCIID{0x025e, 0xf1ac}, product: "Solidigm P44 Pro", confidence: "high"},
	{vendor: 0x144d, prefix: "Samsung SSD 970 EVO Plus", id: PCIID{0x144d, 0xa808}, product: "Samsung 970 EVO Plus", confidence: "high"},
	{vendor: 0x144d, prefix: "Samsung SSD 970 EVO", id: PCIID{0x144d, 0xa808}, product: "Samsung 970 EVO", confidence: "medium"},
	{vendor: 0x144d, prefix: "Samsung SSD 970 PRO", id: PCIID{0x144d, 0xa808}, product: "Samsung 970 PRO", confidence: "medium"},
	{vendor: 0x144d, prefix: "SAMSUNG MZVLB", id: PCIID{0x144d, 0xa808}, product: "Samsung PM981/PM981a", confidence: "high"},
	{vendor: 0x144d, prefix: "Samsung Portable SSD X5", id: PCIID{0x144d, 0xa808}, product: "Samsung X5", confidence: "high"},
	{vendor: 0x144d, prefix: "Samsung SSD 950 PRO", id: PCIID{0x144d, 0xa802}, product: "Samsung 950 PRO", confidence: "medium"},
	{vendor: 0x144d, prefix: "SAMSUNG MZVPV", id: PCIID{0x144d, 0xa802}, product: "Samsung SM951", confidence: "medium"},
	{vendor: 0x144d, prefix: "SAMSUNG MZVLV", id: PCIID{0x144d, 0xa802}, product: "Samsung PM951", confidence: "medium"},
	{vendor: 0x144d, prefix: "Samsung SSD 960 EVO", id: PCIID{0x144d, 0xa804}, product: "Samsung 960 EVO", confidence: "medium"},
	{vendor: 0x144d, prefix: "Samsung SSD 960 PRO", id: PCIID{0x144d, 0xa804}, product: "Samsung 960 PRO", confidence: "medium"},
	{vendor: 0x144d, prefix: "SAMSUNG MZVLW", id: PCIID{0x144d, 0xa804}, product: "Samsung PM961", confidence: "medium"},
	{vendor: 0x144d, prefix: "SAMSUNG MZVKW", id: PCIID{0x144d, 0xa804}, product: "Samsung SM961", confidence: "medium"},
}

// matches reports whether a trimmed model is one of the rule's.
func (p *pciInference) matches(vendor uint16, model string) bool {
	if vendor != p.vendor || !strings.HasPrefix(model, p.prefix) {
		return false
	}
	if p.contains != "" && !strings.Contains(model[len(p.prefix):], p.contains) {
		return false
	}
	if len(p.suffixes) == 0 {
		return true
	}
	for _, s := range p.suffixes {
		if strings.HasSuffix(model, s) {
			return true
		}
	}
	return false
}

// pciExclusion rules a quirked PCI ID out for a model family that names
// another product, hence another controller: such a drive is not warned
// about that ID (docs/quirks.md gives each row's source). A model matches
// when it starts with prefix and, where set, contains contains after it.
type pciExclusion struct {
	vendor   uint16
	prefix   string
	contains string
	id       PCIID
	product  string // what the family is, for the note
}

// pciExclusions is the exclusion table; it is never modified.
var pciExclusions = [...]pciExclusion{
	// Intel 8086:f1a5 is the 600p family (SSDPEKK[WFA]…G7/T7, inferred
	// above); these part-number families are other products.
	{vendor: 0x8086, prefix: "INTEL SSDPE2", id: PCIID{0x8086, 0xf1a5}, product: "Intel data-centre or Optane U.2: DC P3x00/P4x00, Optane 900p/905p/P4800X"},
	{vendor: 0x8086, prefix: "INTEL SSDPED", id: PCIID{0x8086, 0xf1a5}, product: "Intel add-in card: 750, DC P3x00, Optane 900p/905p/P4800X"},
	{vendor: 0x8086, prefix: "INTEL SSDPF", id: PCIID{0x8086, 0xf1a5}, product: "Intel/Solidigm data-centre D5/D7"},
	{vendor: 0x8086, prefix: "INTEL SSDPEK1", id: PCIID{0x8086, 0xf1a5}, product: "Intel Optane 800p/P1600X M.2"},
	{vendor: 0x8086, prefix: "INTEL SSDPEL1", id: PCIID{0x8086, 0xf1a5}, product: "Intel Optane 905p M.2"},
	{vendor: 0x8086, prefix: "INTEL MEMPEK", id: PCIID{0x8086, 0xf1a5}, product: "Intel Optane Memory"},
	{vendor: 0x8086, prefix: "INTEL HBRPEK", id: PCIID{0x8086, 0xf1a5}, product: "Intel Optane Memory H10/H20"},
	{vendor: 0x8086, prefix: "INTEL SSDPEKNW", id: PCIID{0x8086, 0xf1a5}, product: "Intel 660p"},
	{vendor: 0x8086, prefix: "INTEL SSDPEKNU", id: PCIID{0x8086, 0xf1a5}, product: "Intel 670p"},
	{vendor: 0x8086, prefix: "INTEL SSDPEKKW", contains: "G8", id: PCIID{0x8086, 0xf1a5}, product: "Intel 760p"},
	{vendor: 0x8086, prefix: "INTEL SSDPEKKF", contains: "G8", id: PCIID{0x8086, 0xf1a5}, product: "Intel Pro 7600p"},
	// WD/SanDisk 15b7:5009 is the SN550: a model naming another SN
	// product, or a WD part number of another line, rules it out.
	{vendor: 0x15b7, prefix: "WD_BLACK ", id: PCIID{0x15b7, 0x5009}, product: "WD_BLACK"},
	{vendor: 0x15b7, prefix: "WDC WDS", contains: "X0C", id: PCIID{0x15b7, 0x5009}, product: "WD Black"},
	{vendor: 0x15b7, prefix: "WDC WDS", contains: "X0E", id: PCIID{0x15b7, 0x5009}, product: "WD Black"},
	// Samsung's quirked IDs are three controller generations (144d:a802
	// SM951/950 PRO, a804 SM961/960, a808 PM981/970, inferred above); the
	// 980 and 990 lines came after them, on controllers of their own.
	{vendor: 0x144d, prefix: "Samsung SSD 98", id: PCIID{0x144d, 0xa802}, product: "Samsung 980 series (a controller after the SM951/950 PRO)"},
	{vendor: 0x144d, prefix: "Samsung SSD 98", id: PCIID{0x144d, 0xa804}, product: "Samsung 980 series (a controller after the SM961/960)"},
	{vendor: 0x144d, prefix: "Samsung SSD 98", id: PCIID{0x144d, 0xa808}, product: "Samsung 980 series (a controller after the PM981/970)"},
	{vendor: 0x144d, prefix: "Samsung SSD 99", id: PCIID{0x144d, 0xa802}, product: "Samsung 990 series (a controller after the SM951/950 PRO)"},
	{vendor: 0x144d, prefix: "Samsung SSD 99", id: PCIID{0x144d, 0xa804}, product: "Samsung 990 series (a controller after the SM961/960)"},
	{vendor: 0x144d, prefix: "Samsung SSD 99", id: PCIID{0x144d, 0xa808}, product: "Samsung 990 series (a controller after the PM981/970)"},
}

// ruledOut reports whether the trimmed model of vendor rules id out. It
// does not allocate (Build calls it).
func ruledOut(vendor uint16, model string, id PCIID) bool {
	return exclusionIndex(vendor, model, id) != -1
}

// exclusionIndex returns the index of the pciExclusions row by which the
// trimmed model of vendor rules id out, -2 when another SN product number
// does (snOther), -1 when nothing does.
func exclusionIndex(vendor uint16, model string, id PCIID) int {
	if vendor == 0x15b7 && id == (PCIID{0x15b7, 0x5009}) && snOther(model) {
		return -2
	}
	for i := range pciExclusions {
		e := &pciExclusions[i]
		if e.vendor != vendor || e.id != id || !strings.HasPrefix(model, e.prefix) {
			continue
		}
		if e.contains == "" || strings.Contains(model[len(e.prefix):], e.contains) {
			return i
		}
	}
	return -1
}

// ruledOutBy returns the family by which the trimmed model of vendor rules
// id out, "" when it does not.
func ruledOutBy(vendor uint16, model string, id PCIID) string {
	switch i := exclusionIndex(vendor, model, id); i {
	case -1:
		return ""
	case -2:
		return "a WD/SanDisk SN product other than the SN550"
	default:
		e := &pciExclusions[i]
		p := quote(e.prefix + "*")
		if e.contains != "" {
			p = quote(e.prefix + "*" + e.contains + "*")
		}
		return e.product + "; model " + p
	}
}

// ruledOutNotes says which quirked PCI IDs of vendor in the tables of r the
// trimmed model ruled out, and why; nil when none.
func ruledOutNotes(vendor uint16, model string, r Release, dmiKnown bool) []string {
	var out []string
	var seen []PCIID
	for i := range quirkHistory {
		e := &quirkHistory[i]
		if e.Device.Vendor != vendor || e.Device.IsZero() || !e.In(r) ||
			(e.Table == tableDMI && !dmiKnown) || e.Table == tableCore || slices.Contains(seen, e.Device) {
			continue
		}
		seen = append(seen, e.Device)
		if why := ruledOutBy(vendor, model, e.Device); why != "" {
			out = append(out, "PCI ID "+e.Device.String()+" ("+e.Note+") ruled out: model "+quote(model)+" is another product ("+why+"; docs/quirks.md)")
		}
	}
	return out
}

// snOther reports whether model names a WD/SanDisk "SN" product number
// other than the SN550 (PC SN520, CL SN720, WD Blue SN570, SN5000S, ...).
func snOther(model string) bool {
	for i := 0; i+2 < len(model); i++ {
		if model[i] != 'S' || model[i+1] != 'N' || (i > 0 && model[i-1] != ' ') {
			continue
		}
		j := i + 2
		for j < len(model) && model[j] >= '0' && model[j] <= '9' {
			j++
		}
		if j == i+2 {
			continue
		}
		return model[i+2:j] != "550"
	}
	return false
}
