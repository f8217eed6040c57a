package apst

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// PCIID is a PCI vendor:device pair, as the kernel's nvme-pci ID table
// (drivers/nvme/host/pci.c) matches it. The zero value means "unknown".
type PCIID struct {
	Vendor uint16
	Device uint16
}

// String formats the ID as "8086:f1a5".
func (id PCIID) String() string { return fmt.Sprintf("%04x:%04x", id.Vendor, id.Device) }

// IsZero reports whether the ID is unknown.
func (id PCIID) IsZero() bool { return id == PCIID{} }

// ParsePCIID parses "VVVV:DDDD" (hexadecimal, an optional 0x on each half).
func ParsePCIID(s string) (PCIID, error) {
	v, d, ok := strings.Cut(strings.TrimSpace(s), ":")
	if ok {
		vv, err1 := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(v), "0x"), 16, 16)
		dd, err2 := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(d), "0x"), 16, 16)
		if err1 == nil && err2 == nil {
			return PCIID{Vendor: uint16(vv), Device: uint16(dd)}, nil
		}
	}
	return PCIID{}, fmt.Errorf("apst: invalid PCI ID %q: want VVVV:DDDD in hexadecimal, e.g. 8086:f1a5", s)
}

// DMI holds the SMBIOS strings the kernel's vendor-combination quirks read
// (/sys/class/dmi/id/sys_vendor, product_name, board_vendor, board_name).
type DMI struct {
	SysVendor   string
	ProductName string
	BoardVendor string
	BoardName   string
}

// Identity is what the kernel's quirk lookups see of a controller.
type Identity struct {
	// VendorID is Identify Controller VID, matched by core_quirks[].
	VendorID uint16
	// Model and Firmware are MN and FR without their space padding.
	Model    string
	Firmware string
	// PCI is the PCI vendor:device ID; zero when unknown (no PCI rule then
	// applies).
	PCI PCIID
	// DMI is the machine's SMBIOS strings; empty strings match nothing.
	DMI DMI
}

// CoreQuirk is an entry of core_quirks[] in drivers/nvme/host/core.c: it
// matches on Identify VID, and on MN and FR by prefix (the rest of the
// space-padded field must be spaces); an empty Model or Firmware matches any.
type CoreQuirk struct {
	VendorID uint16
	Model    string
	Firmware string
	Quirks   Quirks
	Note     string
}

// PCIQuirk is an entry of the nvme-pci ID table that carries an APST quirk.
type PCIQuirk struct {
	ID     PCIID
	Quirks Quirks
	Note   string
}

// DMIRule is a branch of check_vendor_combination_bug() in nvme-pci that
// sets an APST quirk for a device on particular machines.
type DMIRule struct {
	// Device is the PCI ID the rule is for; zero means any device.
	Device PCIID
	// Field names the DMI field tested against Values ("product_name" or
	// "board_name"); Vendor, when set, must equal the sys_vendor (for
	// product_name) or board_vendor (for board_name).
	Vendor string
	Field  string
	Values []string
	Quirks Quirks
	Note   string
}

// CoreQuirks returns the kernel's core_quirks[] table (4 entries in v5.16 and
// later). The slice is a fresh copy.
func CoreQuirks() []CoreQuirk { return slices.Clone(coreQuirkTable[:]) }

// coreQuirkTable is core_quirks[]; it is never modified.
var coreQuirkTable = [...]CoreQuirk{
	{VendorID: 0x1179, Model: "THNSF5256GPUK TOSHIBA", Quirks: QuirkNoAPST,
		Note: "Toshiba THNSF5256GPUK: APST breaks it (Launchpad bug 1678184)"},
	{VendorID: 0x14a4, Firmware: "22301111", Quirks: QuirkSimpleSuspend,
		Note: "LiteON CL1-3D*-Q11 firmware 22301111: suspend race"},
	{VendorID: 0x1e0f, Model: "KCD6XVUL6T40", Quirks: QuirkNoAPST,
		Note: "Kioxia CD6-V / HPE PE8030: I/O timeouts with APST (v5.16)"},
	{VendorID: 0x144d, Model: "Samsung Portable SSD X5",
		Quirks: QuirkDelayBeforeCheckReady | QuirkNoDeepestPS | QuirkIgnoreDevSubNQN,
		Note:   "external Samsung X5, matched by model because it shares 144d:a808 with the 970 EVO Plus"},
}

// PCIQuirks returns the entries of the nvme-pci ID table that carry an APST
// quirk (none carries NO_APST; these carry NO_DEEPEST_PS), with their full
// quirk sets. The slice is a fresh copy.
func PCIQuirks() []PCIQuirk { return slices.Clone(pciQuirkTable[:]) }

// pciQuirkTable holds the nvme-pci entries with APST quirks; it is never
// modified.
var pciQuirkTable = [...]PCIQuirk{
	{PCIID{0x8086, 0xf1a5}, QuirkNoDeepestPS | QuirkMediumPrioSQ | QuirkNoTempThreshChange | QuirkDisableWriteZeroes, "Intel 600P/P3100"},
	{PCIID{0x126f, 0x1001}, QuirkNoDeepestPS | QuirkIgnoreDevSubNQN, "Silicon Motion generic"},
	{PCIID{0x126f, 0x2262}, QuirkNoDeepestPS | QuirkBogusNID, "Silicon Motion generic"},
	{PCIID{0x15b7, 0x5009}, QuirkBrokenMSI | QuirkNoDeepestPS, "Sandisk SN550"},
	{PCIID{0x1cc1, 0x8201}, QuirkNoDeepestPS | QuirkIgnoreDevSubNQN, "ADATA SX8200PNP 512GB"},
	{PCIID{0x2646, 0x2262}, QuirkNoDeepestPS, "Kingston SKC2000"},
	{PCIID{0x2646, 0x2263}, QuirkNoDeepestPS, "Kingston A2000"},
	{PCIID{0x1e49, 0x0021}, QuirkNoDeepestPS, "ZHITAI TiPro5000"},
	{PCIID{0x1e49, 0x0041}, QuirkNoDeepestPS, "ZHITAI TiPro7000"},
	{PCIID{0x025e, 0xf1ac}, QuirkNoDeepestPS, "Solidigm P44 Pro SSDPFKKW020X7"},
}

// DMIRules returns the APST branches of check_vendor_combination_bug(), in
// the order the kernel evaluates them. The slice is a fresh copy.
//
// The kernel returns from the first branch that matches, and other branches
// (which set only suspend quirks) come before the last rule; this model does
// not know those, so for a device that also matches one of them it may
// report the Lenovo N60z rule where the kernel would not.
func DMIRules() []DMIRule {
	rules := slices.Clone(dmiRuleTable[:])
	for i := range rules {
		rules[i].Values = slices.Clone(rules[i].Values)
	}
	return rules
}

// dmiRuleTable holds the APST branches of check_vendor_combination_bug(); it
// is never modified.
var dmiRuleTable = [...]DMIRule{
	{Device: PCIID{0x144d, 0xa802}, Vendor: "Dell Inc.", Field: "product_name",
		Values: []string{"XPS 15 9550", "Precision 5510"}, Quirks: QuirkNoDeepestPS,
		Note: "Samsung SM951/PM951/950 PRO in a Dell XPS 15 9550 or Precision 5510"},
	{Device: PCIID{0x144d, 0xa804}, Vendor: "ASUSTeK COMPUTER INC.", Field: "board_name",
		Values: []string{"PRIME B350M-A", "PRIME Z370-A"}, Quirks: QuirkNoAPST,
		Note: "Samsung 960 EVO on an ASUS PRIME B350M-A or Z370-A"},
	{Field: "board_name", Values: []string{"LXKT-ZXEG-N6"}, Quirks: QuirkNoAPST,
		Note: "any NVMe device in a Lenovo N60z (board LXKT-ZXEG-N6)"},
}

// QuirkSource says which kernel table entry or rule contributed quirks.
type QuirkSource struct {
	// Table is "core_quirks", "pci_id_table" or "dmi".
	Table string
	// Rule describes the matching entry.
	Rule string
	// Quirks is the entry's full quirk set.
	Quirks Quirks
}

// QuirkMatch is the result of LookupQuirks.
type QuirkMatch struct {
	// Quirks is the union of every matching entry's quirks (all bits).
	Quirks Quirks
	// Sources lists the matching entries.
	Sources []QuirkSource
}

// APST returns the APST-relevant part of the matched quirks.
func (m QuirkMatch) APST() Quirks { return m.Quirks.APST() }

// LookupQuirks returns the quirks the kernel applies to a controller with
// this identity: core_quirks[] (by VID, model and firmware), the nvme-pci ID
// table (by PCI ID) and the DMI vendor-combination rules (by PCI ID and DMI
// strings). Unknown parts of the identity match nothing; the any-device DMI
// rule applies even when the PCI ID is unknown.
func LookupQuirks(id Identity) QuirkMatch {
	var m QuirkMatch
	m.Quirks = lookupQuirks(id, &m.Sources)
	return m
}

// lookupQuirks applies the three tables to id and returns the union of the
// matching entries' quirks. When sources is not nil it appends a
// QuirkSource per match; with a nil sources it does not allocate.
func lookupQuirks(id Identity, sources *[]QuirkSource) Quirks {
	var q Quirks
	add := func(table string, rule func() string, eq Quirks) {
		q |= eq
		if sources != nil {
			*sources = append(*sources, QuirkSource{Table: table, Rule: rule(), Quirks: eq})
		}
	}
	for i := range coreQuirkTable {
		cq := &coreQuirkTable[i]
		if cq.VendorID == id.VendorID && paddedMatch(id.Model, cq.Model) && paddedMatch(id.Firmware, cq.Firmware) {
			add("core_quirks", func() string {
				return fmt.Sprintf("vid %#04x mn %q fr %q: %s", cq.VendorID, cq.Model, cq.Firmware, cq.Note)
			}, cq.Quirks)
		}
	}
	for i := range pciQuirkTable {
		pq := &pciQuirkTable[i]
		if !id.PCI.IsZero() && pq.ID == id.PCI {
			add("pci_id_table", func() string { return pq.ID.String() + " " + pq.Note }, pq.Quirks)
		}
	}
	for i := range dmiRuleTable {
		r := &dmiRuleTable[i]
		if !r.Device.IsZero() && (id.PCI.IsZero() || r.Device != id.PCI) {
			continue
		}
		if r.matches(id.DMI) {
			add("dmi", func() string { return r.Note }, r.Quirks)
			break // the kernel returns from the first matching branch
		}
	}
	return q
}

func (r *DMIRule) matches(d DMI) bool {
	vendor, value := d.SysVendor, d.ProductName
	if r.Field == "board_name" {
		vendor, value = d.BoardVendor, d.BoardName
	}
	if r.Vendor != "" && vendor != r.Vendor {
		return false
	}
	for _, v := range r.Values {
		if value == v {
			return true
		}
	}
	return false
}

// paddedMatch is the kernel's string_matches() on a trimmed field: an empty
// pattern matches anything; otherwise the field must be the pattern followed
// only by (trimmed) spaces.
func paddedMatch(field, pattern string) bool {
	return pattern == "" || strings.TrimRight(field, " ") == pattern
}
