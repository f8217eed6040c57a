package apst

import (
	"slices"
	"strings"
)

// Identity is what the kernel's quirk lookups see of a controller, and the
// kernel they run in.
//
// The zero Identity knows nothing of the controller or its kernel:
// LookupQuirks then finds no quirk in the newest tables, checks no DMI
// rule, and says both in its Notes.
type Identity struct {
	// VendorID is Identify Controller VID, matched by core_quirks[], and the
	// vendor half of the PCI ID.
	VendorID uint16
	// Model and Firmware are MN and FR as the fields hold them (space
	// padding included), matched as the kernel does: an entry's string must
	// be a prefix and the rest of the field spaces, so a NUL-padded field
	// does not match. The trimmed strings match too (nothing follows).
	Model    string
	Firmware string
	// SubsystemVendorID is Identify Controller SSVID. With the PCI ID
	// unknown, the quirked IDs of this vendor too go unchecked when it
	// differs from VendorID: a drive sold under a brand's VID may enumerate
	// with its controller maker's PCI ID, which the SSVID names (an HP
	// EX920: VID 1dee, SSVID 126f, PCI ID 126f:2262). Zero is unknown.
	SubsystemVendorID uint16
	// PCI is the PCI vendor:device ID; zero when unknown, and then inferred
	// from VendorID and Model where docs/quirks.md says that is certain.
	PCI PCIID
	// DMI is the machine's SMBIOS strings; the zero DMI is an unknown
	// machine, for which no DMI rule is checked.
	DMI DMI
	// Release is the kernel release whose tables apply; zero means unknown
	// (the newest tables, stated in the result).
	Release Release
	// Override is the value of nvme-pci's quirks parameter
	// (ParseQuirkOverrides), applied on Linux 7.0 and later; "" is none.
	Override string
}

// QuirkSource says which kernel table entry, rule or override contributed
// quirks.
//
// The zero QuirkSource names no table and no rule, and contributes no
// quirk.
type QuirkSource struct {
	// Table is "core_quirks", "pci_id_table", "dmi" or "nvme.quirks" (or,
	// from a live system, what the caller names).
	Table string
	// Rule describes the matching entry.
	Rule string
	// Quirks is the entry's full quirk set (for nvme.quirks, the bits set).
	Quirks Quirks
}

// QuirkMatch is the result of a quirk lookup (LookupQuirks, DriveQuirks):
// the quirks, where they came from, and everything the lookup had to
// assume or could not check.
//
// The zero QuirkMatch is no lookup's result (its Tables is the zero
// Release): it holds no quirk and no source, and Assumptions reports
// nothing assumed.
type QuirkMatch struct {
	// Quirks is the quirk set the kernel applies (all bits).
	Quirks Quirks
	// Sources lists the matching entries in the order the kernel applies
	// them: ID table, DMI rule, nvme.quirks= override, core_quirks.
	Sources []QuirkSource
	// Tables is the release whose tables were used (NewestRelease when the
	// release was unknown).
	Tables Release
	// InferredPCI is the PCI ID inferred from the VID and model when the
	// identity had none (zero otherwise), and InferredFrom says from what
	// (the model, the pattern, the product and the confidence).
	InferredPCI  PCIID
	InferredFrom string
	// UncheckedPCI lists the PCI IDs of the vendor that carry quirks in
	// these tables but could not be checked: the PCI ID was unknown and not
	// inferred, and the model's family does not rule them out (a note names
	// each ID a family ruled out; docs/quirks.md). A --pci-id (Identity.PCI)
	// settles it.
	UncheckedPCI []PCIID
	// UncheckedDMI reports that the machine was unknown, so no DMI rule was
	// checked (a capture never carries DMI; the Lenovo N60z rule applies to
	// every device).
	UncheckedDMI bool
	// Overridden reports that an nvme.quirks= entry matched and was
	// applied; Override is that entry.
	Overridden bool
	Override   QuirkOverride
	// Notes states each assumption and gap in a sentence, for reports.
	Notes []string

	id Identity // what the lookup was given, for Assumptions
}

// APST returns the APST-relevant part of the matched quirks.
func (m QuirkMatch) APST() Quirks { return m.Quirks.APST() }

// LookupQuirks returns the quirks the kernel of id.Release applies to a
// controller with this identity, in the kernel's order. That order is: the
// nvme-pci ID table (by PCI ID) and the DMI vendor-combination rules (by PCI
// ID and DMI strings, the first matching branch), then the first
// nvme.quirks= entry for the PCI ID (Linux 7.0 and later: it sets and clears
// bits), then core_quirks[] (by VID, model and firmware), whose bits are
// added last and so cannot be cleared by the override.
//
// What the identity lacks is stated, never guessed silently: an unknown
// release uses the newest tables; an unknown PCI ID is inferred from the
// model where that is certain (InferredPCI), otherwise the vendor's quirked
// IDs are listed as unchecked; an unknown machine leaves the DMI rules
// unchecked. The tables are upstream's: distribution kernels backport
// quirks, and the sysfs quirks file, where present, wins
// ([ParseQuirksFile]).
func LookupQuirks(id Identity) QuirkMatch {
	m := QuirkMatch{id: id}
	r, note := id.Release.tables()
	m.Tables = r
	if id.Release.IsZero() || r.mainline().Compare(NewestRelease().mainline()) > 0 {
		m.Tables = NewestRelease() // unknown, or newer than the newest known
	} else if id.Release.BaseUnknown {
		m.Tables = id.Release // the series' newest stable update: said by the note
	}
	if note != "" {
		m.Notes = append(m.Notes, note)
	}
	pci := id.PCI
	if pci.IsZero() {
		model := strings.TrimRight(id.Model, " \x00")
		if i := inferIndex(id.VendorID, model); i >= 0 {
			inf := &pciInferences[i]
			pci = inf.id
			m.InferredPCI = pci
			m.InferredFrom = inferredFrom(inf, model)
			m.Notes = append(m.Notes, "PCI ID inferred as "+pci.String()+" from "+m.InferredFrom)
		}
	}
	var q Quirks
	add := func(table, rule string, eq Quirks) {
		q |= eq
		m.Sources = append(m.Sources, QuirkSource{Table: table, Rule: rule, Quirks: eq})
	}
	for i := range quirkHistory {
		e := &quirkHistory[i]
		if e.Table == tablePCI && !pci.IsZero() && e.Device == pci && e.In(r) {
			add(tablePCI, e.Device.String()+" "+e.Note, e.Quirks)
		}
	}
	if id.DMI.IsZero() {
		m.UncheckedDMI = true
		m.Notes = append(m.Notes, noteDMIUnchecked)
	} else {
		for i := range quirkHistory {
			e := &quirkHistory[i]
			if e.Table != tableDMI || !e.In(r) {
				continue
			}
			if !e.Device.IsZero() && (pci.IsZero() || e.Device != pci) {
				continue
			}
			if e.dmiMatches(id.DMI) {
				add(tableDMI, e.Note, e.Quirks)
				break // the kernel returns from the first matching branch
			}
		}
	}
	q = m.applyOverride(id.Override, pci, r, q)
	for i := range quirkHistory {
		e := &quirkHistory[i]
		if e.Table == tableCore && e.In(r) && e.VendorID == id.VendorID &&
			fieldMatches(id.Model, e.Model) && fieldMatches(id.Firmware, e.Firmware) {
			add(tableCore, e.String(), e.Quirks)
		}
	}
	m.Quirks = q
	if pci.IsZero() {
		var ids [maxUnchecked]PCIID
		model := strings.TrimRight(id.Model, " \x00")
		m.Notes = append(m.Notes, ruledOutNotes(id.VendorID, model, r, !id.DMI.IsZero())...)
		n := uncheckedInto(&ids, 0, id.VendorID, model, r, !id.DMI.IsZero())
		if sv := id.SubsystemVendorID; sv != 0 && sv != id.VendorID {
			n = uncheckedInto(&ids, n, sv, model, r, !id.DMI.IsZero())
		}
		if n > 0 {
			m.UncheckedPCI = slices.Clone(ids[:n])
			m.Notes = append(m.Notes, uncheckedNote(id.VendorID, m.UncheckedPCI))
		}
	}
	return m
}

// applyOverride applies the nvme.quirks= value s for release r to q.
func (m *QuirkMatch) applyOverride(s string, pci PCIID, r Release, q Quirks) Quirks {
	if strings.TrimSpace(s) == "" || strings.TrimSpace(s) == "(null)" {
		return q
	}
	if r.Compare(overrideRelease) < 0 {
		m.Notes = append(m.Notes, "nvme.quirks= ignored: Linux "+r.String()+" has no such parameter (it arrived in 7.0)")
		return q
	}
	ovs, err := ParseQuirkOverrides(s)
	if err != nil {
		if r.Compare(overrideStrictRelease) >= 0 {
			m.Notes = append(m.Notes, "nvme.quirks= is malformed, which Linux 7.3 and later refuse; no override applied: "+err.Error())
		} else {
			m.Notes = append(m.Notes, "nvme.quirks= is malformed, which Linux 7.0 to 7.2 log and ignore: "+err.Error())
		}
		return q
	}
	if pci.IsZero() {
		if len(ovs) > 0 {
			m.Notes = append(m.Notes, "nvme.quirks= not checked: the PCI device ID is unknown")
		}
		return q
	}
	for _, o := range ovs {
		if o.ID == pci {
			m.Overridden, m.Override = true, o
			m.Sources = append(m.Sources, QuirkSource{Table: "nvme.quirks", Rule: o.String(), Quirks: o.Set})
			m.Notes = append(m.Notes, "nvme.quirks= entry "+o.String()+" applied")
			return o.apply(q)
		}
	}
	return q
}

// dmiMatches reports whether the DMI strings satisfy a dmi rule.
func (e *QuirkEntry) dmiMatches(d DMI) bool {
	vendor, value := d.SysVendor, d.ProductName
	if e.DMIField == "board_name" {
		vendor, value = d.BoardVendor, d.BoardName
	}
	if e.DMIVendor != "" && vendor != e.DMIVendor {
		return false
	}
	for _, v := range e.DMIValues {
		if value == v {
			return true
		}
	}
	return false
}

// fieldMatches is the kernel's string_matches() on a raw Identify field: an
// empty pattern matches anything; otherwise the field must start with the
// pattern and hold only spaces after it (so NUL padding does not match).
func fieldMatches(field, pattern string) bool {
	if pattern == "" {
		return true
	}
	rest, ok := strings.CutPrefix(field, pattern)
	return ok && strings.Trim(rest, " ") == ""
}

// pattern describes the rule's model pattern: "INTEL SSDPEKKW*G7|T7".
func (p *pciInference) pattern() string {
	s := quote(p.prefix + "*")
	if p.contains != "" {
		s = quote(p.prefix + "*" + p.contains + "*")
	}
	if len(p.suffixes) > 0 {
		s += " ending in " + strings.Join(p.suffixes, " or ")
	}
	return s
}

func quote(s string) string { return "\"" + s + "\"" }

func hex4(v uint16) string {
	const digits = "0123456789abcdef"
	return "0x" + string([]byte{digits[v>>12], digits[v>>8&15], digits[v>>4&15], digits[v&15]})
}
