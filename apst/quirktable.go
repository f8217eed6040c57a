package apst

import (
	"fmt"
	"strconv"
	"strings"
)

// PCIID is a PCI vendor:device pair, as the kernel's nvme-pci ID table
// (drivers/nvme/host/pci.c) matches it. The zero value means "unknown".
type PCIID struct {
	Vendor uint16
	Device uint16
}

// String formats the ID as "8086:f1a5". It is not inlined (go:noinline),
// nor is Microseconds.String: the Sprintf's arguments and the
// concatenation, copied at their callers, took 8 KB of the page's
// app-log.wasm.
//
//go:noinline
func (id PCIID) String() string { return fmt.Sprintf("%04x:%04x", id.Vendor, id.Device) }

// IsZero reports whether the ID is unknown.
func (id PCIID) IsZero() bool { return id == PCIID{} }

// MarshalText formats the ID as String does.
func (id PCIID) MarshalText() ([]byte, error) { return []byte(id.String()), nil }

// UnmarshalText parses "VVVV:DDDD" (hexadecimal, an optional 0x on each
// half). On error, wrapping ErrInvalidConfig, id is unchanged.
func (id *PCIID) UnmarshalText(b []byte) error {
	s := string(b)
	v, d, ok := strings.Cut(strings.TrimSpace(s), ":")
	if ok {
		vv, err1 := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(v), "0x"), 16, 16)
		dd, err2 := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(d), "0x"), 16, 16)
		if err1 == nil && err2 == nil {
			*id = PCIID{Vendor: uint16(vv), Device: uint16(dd)}
			return nil
		}
	}
	return fmt.Errorf("%w: PCI ID %q: want VVVV:DDDD in hexadecimal, e.g. 8086:f1a5", ErrInvalidConfig, s)
}

// DMI holds the SMBIOS strings the kernel's vendor-combination quirks read
// (/sys/class/dmi/id/sys_vendor, product_name, board_vendor, board_name).
// The zero value means the machine is unknown (a capture): the DMI rules are
// then not checked, and lookups say so.
type DMI struct {
	SysVendor   string
	ProductName string
	BoardVendor string
	BoardName   string
}

// IsZero reports whether nothing of the machine is known.
func (d DMI) IsZero() bool { return d == DMI{} }

// QuirkEntry is one entry of the kernel's quirk tables (kernel-apst.md §7
// and §13) with its history. It is a core_quirks[] entry of core.c (matched
// on Identify VID, MN and FR), an nvme-pci ID table entry (matched on the
// PCI ID) or an APST branch of check_vendor_combination_bug() in nvme-pci
// (matched on the PCI ID and DMI strings).
//
// The zero QuirkEntry is an entry of no table (Table empty) that sets no
// quirk; since Added and Removed are zero, In reports it present in every
// release.
type QuirkEntry struct {
	// Table is "core_quirks", "pci_id_table" or "dmi".
	Table string
	// VendorID, Model and Firmware are the core_quirks match: Identify VID,
	// and MN and FR prefixes (the rest of the space-padded field must be
	// spaces); an empty Model or Firmware matches any.
	VendorID uint16
	Model    string
	Firmware string
	// Device is the PCI ID of a pci_id_table entry or dmi rule; zero in a
	// dmi rule means any device.
	Device PCIID
	// DMIVendor, DMIField and DMIValues are a dmi rule's test: DMIField
	// ("product_name" or "board_name") must equal one of DMIValues, and
	// DMIVendor, when set, the sys_vendor (for product_name) or board_vendor
	// (for board_name).
	DMIVendor string
	DMIField  string
	DMIValues []string
	// Quirks is the entry's full quirk set (as of its newest form).
	Quirks Quirks
	// Note says what the entry is for.
	Note string
	// Added is the first mainline release with the entry; Removed the first
	// mainline release without it again (zero: still present).
	Added, Removed Release
	// Backports are the stable releases X.Y.Z of older series that received
	// the entry; Dropped are the stable releases that removed it from a
	// series that had it.
	Backports, Dropped []Release
	// Evidence is §13's mark for the history: "[T]" a tree at that version,
	// "[T±]" a tree at a stable point of the series, "[M]" mail only, "[I]"
	// inferred from neighbours, with remarks.
	Evidence string
}

// In reports whether the entry is in the tables of release r: mainline X.Y
// has it when Added <= X.Y < Removed, and X.Y.Z also has the backports up
// to Z and loses it from the first Dropped release of its series.
func (e *QuirkEntry) In(r Release) bool {
	m := r.mainline()
	in := m.Compare(e.Added) >= 0 && (e.Removed.IsZero() || m.Compare(e.Removed) < 0)
	for _, b := range e.Backports {
		if b.mainline() == m && r.Patch >= b.Patch {
			in = true
		}
	}
	for _, d := range e.Dropped {
		if d.mainline() == m && r.Patch >= d.Patch {
			in = false
		}
	}
	return in
}

// String describes the entry as a rule: "core_quirks vid 0x1179 mn
// \"THNSF5256GPUK TOSHIBA\": ...", "pci_id_table 8086:f1a5 Intel 600P/P3100"
// or "dmi ...".
func (e *QuirkEntry) String() string {
	switch e.Table {
	case tableCore:
		s := fmt.Sprintf("core_quirks vid %#04x", e.VendorID)
		if e.Model != "" {
			s += fmt.Sprintf(" mn %q", e.Model)
		}
		if e.Firmware != "" {
			s += fmt.Sprintf(" fr %q", e.Firmware)
		}
		return s + ": " + e.Note
	case tablePCI:
		return "pci_id_table " + e.Device.String() + " " + e.Note
	}
	return "dmi: " + e.Note
}

// clone returns a deep copy.
func (e QuirkEntry) clone() QuirkEntry {
	e.DMIValues = append([]string(nil), e.DMIValues...)
	e.Backports = append([]Release(nil), e.Backports...)
	e.Dropped = append([]Release(nil), e.Dropped...)
	return e
}

const (
	tableCore = "core_quirks"
	tablePCI  = "pci_id_table"
	tableDMI  = "dmi"
)

// QuirkTables returns the entries of the kernel's quirk tables in force in
// release r, in the kernel's order (core_quirks[], then the ID table, then
// the DMI branches as check_vendor_combination_bug() evaluates them). The
// zero Release gives the newest tables ([NewestRelease]); a release newer
// than that gives the newest tables too, and a release before v4.11 gives
// the tables of a kernel without APST, which [Build] cannot model. The
// slice and the entries are fresh copies.
//
// The tables are upstream's: distribution kernels backport entries of
// their own, and on Linux 7.0 and later the sysfs quirks file of a
// controller ([ParseQuirksFile]) lists what is really in force.
func QuirkTables(r Release) []QuirkEntry {
	r, _ = r.tables()
	var out []QuirkEntry
	for i := range quirkHistory {
		if quirkHistory[i].In(r) {
			out = append(out, quirkHistory[i].clone())
		}
	}
	return out
}

// rel is a Release literal.
func rel(major, minor, patch uint16) Release {
	return Release{Major: major, Minor: minor, Patch: patch}
}

// quirkHistory is every entry the quirk tables have had, from
// kernel-apst.md §13.1, in table order (core, pci, dmi); it is never
// modified.
var quirkHistory = [...]QuirkEntry{
	// core_quirks[] (core.c)
	{Table: tableCore, VendorID: 0x1179, Model: "THNSF5256GPUK TOSHIBA", Quirks: QuirkNoAPST,
		Note:  "Toshiba THNSF5256GPUK: APST breaks it (Launchpad bug 1678184)",
		Added: rel(4, 11, 0), Evidence: "[T] (not in 4.11-rc1)"},
	{Table: tableCore, VendorID: 0x144d, Firmware: "BXW75D0Q", Quirks: QuirkNoAPST,
		Note:  "Samsung SM951 firmware BXW75D0Q: in v4.11-rc1 only, replaced by the Dell DMI rule before v4.11 (never in a release)",
		Added: rel(4, 11, 0), Removed: rel(4, 11, 0), Evidence: "[M]"},
	{Table: tableCore, VendorID: 0x14a4, Firmware: "22301111", Quirks: quirkSimpleSuspend,
		Note:  "LiteON CL1-3D*-Q11 firmware 22301111: suspend race (not APST)",
		Added: rel(5, 4, 0), Evidence: "[I] ≈v5.3/5.4 from patch mails (§9); not an APST quirk"},
	{Table: tableCore, VendorID: 0x1e0f, Model: "KCD6XVUL6T40", Quirks: QuirkNoAPST,
		Note:      "Kioxia CD6-V / HPE PE8030: I/O timeouts with APST",
		Added:     rel(5, 16, 0),
		Backports: []Release{rel(5, 15, 51), rel(5, 10, 127)}, Evidence: "[M] (≈v5.16-rc3)"},
	{Table: tableCore, VendorID: 0x144d, Model: "Samsung Portable SSD X5",
		Quirks: quirkDelayBeforeCheckReady | QuirkNoDeepestPS | quirkIgnoreDevSubNQN,
		Note:   "external Samsung X5, matched by model because it shares 144d:a808 with the 970 EVO Plus",
		Added:  rel(5, 19, 0), Backports: []Release{rel(5, 18, 8), rel(5, 15, 51), rel(5, 10, 127)},
		Evidence: "[M], [T] 5.19.0 (v5.19-rc4)"},

	// nvme_id_table[] (pci.c): the entries with an APST quirk
	{Table: tablePCI, Device: PCIID{0x144d, 0xa808},
		Quirks: quirkDelayBeforeCheckReady | QuirkNoDeepestPS | quirkIgnoreDevSubNQN,
		Note:   "Samsung X5 by PCI ID, which also hit every 970 EVO Plus / PM981 (moved to core_quirks by model)",
		Added:  rel(5, 18, 0), Removed: rel(5, 19, 0),
		Backports: []Release{rel(5, 10, 118), rel(5, 15, 42), rel(5, 17, 10)},
		Dropped:   []Release{rel(5, 10, 127), rel(5, 15, 51), rel(5, 18, 8)},
		Evidence:  "[M] (v5.18-rc1 to v5.19-rc4; 5.17 kept it to its end)"},
	{Table: tablePCI, Device: PCIID{0x8086, 0xf1a5},
		Quirks: QuirkNoDeepestPS | quirkMediumPrioSQ | quirkNoTempThreshChange | quirkDisableWriteZeroes,
		Note:   "Intel 600P/P3100",
		Added:  rel(4, 12, 0), Evidence: "[T]; NO_DEEPEST_PS since v4.12, the other bits were added later"},
	{Table: tablePCI, Device: PCIID{0x1cc1, 0x8201}, Quirks: QuirkNoDeepestPS | quirkIgnoreDevSubNQN,
		Note: "ADATA SX8200PNP 512GB", Added: rel(5, 4, 0), Backports: []Release{rel(5, 3, 8)},
		Evidence: "[M], [T±] (v5.4-rc2)"},
	{Table: tablePCI, Device: PCIID{0x2646, 0x2263}, Quirks: QuirkNoDeepestPS,
		Note: "Kingston A2000", Added: rel(5, 11, 0), Backports: []Release{rel(4, 19, 175), rel(5, 4, 97), rel(5, 10, 15)},
		Evidence: "[T] 5.11.0 (v5.11-rc7); 5.10.15 [I]: §13 says 5.10.y; assumed the 5.10 release of the stable batch of 4.19.175 and 5.4.97 (not verified)"},
	{Table: tablePCI, Device: PCIID{0x2646, 0x2262}, Quirks: QuirkNoDeepestPS,
		Note: "Kingston SKC2000", Added: rel(5, 12, 0), Backports: []Release{rel(5, 10, 23)},
		Evidence: "[T±] (v5.12-rc2)"},
	{Table: tablePCI, Device: PCIID{0x1e49, 0x0041}, Quirks: QuirkNoDeepestPS,
		Note: "ZHITAI TiPro7000", Added: rel(5, 19, 0), Backports: []Release{rel(5, 15, 108)},
		Evidence: "[T] 5.19.0 (v5.19-rc3)"},
	{Table: tablePCI, Device: PCIID{0x1e49, 0x0021}, Quirks: QuirkNoDeepestPS,
		Note: "ZHITAI TiPro5000", Added: rel(6, 1, 0), Backports: []Release{rel(5, 15, 108)},
		Evidence: "[T] (v6.1-rc1)"},
	{Table: tablePCI, Device: PCIID{0x126f, 0x2262}, Quirks: QuirkNoDeepestPS | quirkBogusNID,
		Note: "Silicon Motion generic", Added: rel(6, 9, 0),
		Backports: []Release{rel(6, 8, 6), rel(6, 6, 27), rel(6, 1, 86), rel(5, 15, 155), rel(5, 10, 215)},
		Evidence:  "[T] 6.8.0 absent, 6.9.0 present"},
	{Table: tablePCI, Device: PCIID{0x126f, 0x1001}, Quirks: QuirkNoDeepestPS | quirkIgnoreDevSubNQN,
		Note: "Silicon Motion generic", Added: rel(6, 15, 0),
		Backports: []Release{rel(6, 14, 9), rel(6, 12, 31), rel(6, 6, 93)}, Evidence: "[M] (≈v6.15-rc5)"},
	{Table: tablePCI, Device: PCIID{0x15b7, 0x5009}, Quirks: quirkBrokenMSI | QuirkNoDeepestPS,
		Note: "Sandisk SN550", Added: rel(6, 15, 0),
		Backports: []Release{rel(6, 14, 9), rel(6, 12, 31), rel(6, 6, 93)}, Evidence: "[M] (≈v6.15-rc5)"},
	{Table: tablePCI, Device: PCIID{0x025e, 0xf1ac}, Quirks: QuirkNoDeepestPS,
		Note: "Solidigm P44 Pro SSDPFKKW020X7", Added: rel(6, 15, 0),
		Backports: []Release{rel(6, 14, 10), rel(6, 12, 32), rel(6, 6, 93), rel(6, 1, 141), rel(5, 15, 185)}, Evidence: "[M] (v6.15-rc7)"},

	// check_vendor_combination_bug() (pci.c), in evaluation order
	{Table: tableDMI, Device: PCIID{0x144d, 0xa802}, DMIVendor: "Dell Inc.", DMIField: "product_name",
		DMIValues: []string{"XPS 15 9550", "Precision 5510"}, Quirks: QuirkNoDeepestPS,
		Note:  "Samsung SM951/PM951/950 PRO in a Dell XPS 15 9550 or Precision 5510",
		Added: rel(4, 11, 0), Evidence: "[T]"},
	{Table: tableDMI, Device: PCIID{0x144d, 0xa804}, DMIVendor: "ASUSTeK COMPUTER INC.", DMIField: "board_name",
		DMIValues: []string{"PRIME B350M-A"}, Quirks: QuirkNoAPST,
		Note:  "Samsung 960 EVO on an ASUS PRIME B350M-A",
		Added: rel(4, 15, 0), Evidence: "[T]"},
	{Table: tableDMI, Device: PCIID{0x144d, 0xa804}, DMIVendor: "ASUSTeK COMPUTER INC.", DMIField: "board_name",
		DMIValues: []string{"PRIME Z370-A"}, Quirks: QuirkNoAPST,
		Note:  "Samsung 960 EVO on an ASUS PRIME Z370-A",
		Added: rel(4, 16, 0), Evidence: "[T]/[I]: v4.16 or v4.17 undecided; v4.16 assumed"},
	{Table: tableDMI, DMIField: "board_name", DMIValues: []string{"LXKT-ZXEG-N6"}, Quirks: QuirkNoAPST,
		Note:  "any NVMe device in a Lenovo N60z (board LXKT-ZXEG-N6)",
		Added: rel(6, 11, 0), Backports: []Release{rel(6, 6, 47), rel(5, 15, 165), rel(5, 10, 224), rel(4, 19, 320)},
		Evidence: "[T] 6.9.0 absent, 6.11.11 present (v6.11-rc1)"},
}

// overrideRelease is the first release with the nvme.quirks= parameter and
// the sysfs quirks file (≈v7.0-rc3; [T] 7.0.0 present, 6.19.9 absent), and
// overrideStrictRelease the first that refuses a malformed parameter
// (df74eaad001c).
var (
	overrideRelease       = rel(7, 0, 0)
	overrideStrictRelease = rel(7, 3, 0)
)
