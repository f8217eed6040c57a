package apst

import "strings"

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
