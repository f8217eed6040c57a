package apst

import "slices"

// quirkIdx is the quirk tables indexed by what the kernel matches on, for
// Build's lookup (lookupController): core_quirks[] entries by Identify
// VID, nvme-pci ID table entries and DMI rules by the vendor of their PCI
// ID, the PCI ID inference and exclusion rows by VID; and, for the tables
// of NewestRelease (those of the default Params), which history entries
// those tables hold. It is computed once, at package initialisation, from
// the immutable tables (quirkHistory, pciInferences, pciExclusions), and
// never changes: it is safe for concurrent use.
var quirkIdx = buildQuirkIndex()

// The index holds rows as uint8.
var _ [255 - len(quirkHistory) - len(pciInferences)]struct{}

// quirkIndex is the type of quirkIdx.
type quirkIndex struct {
	vendors []vendorQuirks // sorted by vendor
	// newest is the tables of NewestRelease, and inNewest[i] whether they
	// hold quirkHistory[i] (QuirkEntry.In).
	newest   Release
	inNewest [len(quirkHistory)]bool
}

// vendorQuirks are the rows of one vendor ID, each list in its table's
// order (the order the kernel, and the unindexed lookups, apply them).
type vendorQuirks struct {
	vendor uint16
	core   []uint8 // quirkHistory: core_quirks[] entries of this VID
	pci    []uint8 // quirkHistory: ID table entries and DMI rules of a PCI ID of this vendor
	infer  []uint8 // pciInferences rows of this VID
}

func buildQuirkIndex() *quirkIndex {
	x := &quirkIndex{newest: NewestRelease()}
	row := func(v uint16) *vendorQuirks {
		i, found := slices.BinarySearchFunc(x.vendors, v, func(q vendorQuirks, v uint16) int { return int(q.vendor) - int(v) })
		if !found {
			x.vendors = slices.Insert(x.vendors, i, vendorQuirks{vendor: v})
		}
		return &x.vendors[i]
	}
	for i := range quirkHistory {
		e := &quirkHistory[i]
		x.inNewest[i] = e.In(x.newest)
		switch {
		case e.Table == tableCore:
			r := row(e.VendorID)
			r.core = append(r.core, uint8(i))
		case !e.Device.IsZero():
			r := row(e.Device.Vendor)
			r.pci = append(r.pci, uint8(i))
		}
	}
	for i := range pciInferences {
		r := row(pciInferences[i].vendor)
		r.infer = append(r.infer, uint8(i))
	}
	return x
}

// vendor returns the rows of vendor v, nil when it has none.
func (x *quirkIndex) vendor(v uint16) *vendorQuirks {
	lo, hi := 0, len(x.vendors)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch w := x.vendors[m].vendor; {
		case w == v:
			return &x.vendors[m]
		case w < v:
			lo = m + 1
		default:
			hi = m
		}
	}
	return nil
}

// in reports whether the tables t hold quirkHistory[i].
func (x *quirkIndex) in(i uint8, t Release) bool {
	if t == x.newest {
		return x.inNewest[i]
	}
	return quirkHistory[i].In(t)
}

// infer is inferIndex through the index: the first inference rule of
// vendor matching the trimmed model, -1 when none does.
func (x *quirkIndex) infer(v *vendorQuirks, vendor uint16, model string) int {
	if v == nil {
		return -1
	}
	for _, i := range v.infer {
		if pciInferences[i].matches(vendor, model) {
			return int(i)
		}
	}
	return -1
}

// unchecked is uncheckedInto through the index, with the DMI rules left
// out (the machine unknown, as for Build).
func (x *quirkIndex) unchecked(dst *[maxUnchecked]PCIID, v *vendorQuirks, model string, t Release) int {
	if v == nil {
		return 0
	}
	n := 0
	for _, i := range v.pci {
		e := &quirkHistory[i]
		if e.Table == tableDMI || !x.in(i, t) {
			continue
		}
		if slices.Contains(dst[:n], e.Device) || n == len(dst) || ruledOut(v.vendor, model, e.Device) {
			continue
		}
		dst[n] = e.Device
		n++
	}
	return n
}
