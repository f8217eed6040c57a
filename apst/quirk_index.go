package apst

import "slices"

// quirkIdx is the quirk tables indexed by what the kernel matches on, for
// Build's lookup (lookupController): core_quirks[] entries by Identify
// VID, nvme-pci ID table entries and DMI rules by the vendor of their PCI
// ID, the PCI ID inference rows by VID and the first 16 bytes of their
// model prefixes; and, for the tables
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
	// slots is a hash table of vendors, a power of two at least twice
	// their number: slot vendorSlot(v) and those after it (round) hold
	// 1 + the index in vendors of v, or of vendors that hash alike,
	// before an empty slot (0).
	slots []uint8
	// newest is the tables of NewestRelease, and inNewest[i] whether they
	// hold quirkHistory[i] (QuirkEntry.In).
	newest   Release
	inNewest [len(quirkHistory)]bool
}

// inferHead is the inference rows whose prefixes have the same first 8
// bytes (w, under mask m), grouped by their next 8.
type inferHead struct {
	w, m  uint64
	tails []inferTail
}

// inferTail is the rows of an inferHead whose prefixes have the same next
// 8 bytes (w, under mask m), in the table's order.
type inferTail struct {
	w, m uint64
	rows []uint8
}

// prefixKey is the first 16 bytes of a prefix as two little-endian words
// (zeros past its end) with the masks of its bytes.
type prefixKey struct {
	w, m [2]uint64
}

// newPrefixKey returns the key of prefix p.
func newPrefixKey(p string) prefixKey {
	k := prefixKey{w: words16(p)}
	for i := range min(len(p), 16) {
		k.m[i/8] |= 0xff << (8 * (i % 8))
	}
	return k
}

// words16 returns the first 16 bytes of s (zeros past its end) as two
// little-endian words.
func words16(s string) [2]uint64 {
	if len(s) >= 16 {
		return [2]uint64{le64(s[:8]), le64(s[8:16])}
	}
	var w [2]uint64
	for i := range len(s) {
		w[i/8] |= uint64(s[i]) << (8 * (i % 8))
	}
	return w
}

// le64 returns the first 8 bytes of s (at least 8) as a little-endian
// word: one load.
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// vendorQuirks are the rows of one vendor ID, each list in its table's
// order (the order the kernel, and the unindexed lookups, apply them).
type vendorQuirks struct {
	vendor uint16
	core   []uint8 // quirkHistory: core_quirks[] entries of this VID
	pci    []uint8 // quirkHistory: ID table entries and DMI rules of a PCI ID of this vendor
	infer  []uint8 // pciInferences rows of this VID
	// heads groups infer's rows by the first 8 bytes of their prefixes,
	// then by the next 8: a model is tested against each group's bytes,
	// and against a row's whole rule only in a group it matches.
	heads []inferHead
	// newestCore and newestPCI are core and pci for the tables of
	// NewestRelease: the entries they hold, and of pci the ID table's.
	newestCore, newestPCI []uint8
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
		in := e.In(x.newest)
		x.inNewest[i] = in
		switch {
		case e.Table == tableCore:
			r := row(e.VendorID)
			r.core = append(r.core, uint8(i))
			if in {
				r.newestCore = append(r.newestCore, uint8(i))
			}
		case !e.Device.IsZero():
			r := row(e.Device.Vendor)
			r.pci = append(r.pci, uint8(i))
			if in && e.Table == tablePCI {
				r.newestPCI = append(r.newestPCI, uint8(i))
			}
		}
	}
	for i := range pciInferences {
		r := row(pciInferences[i].vendor)
		r.infer = append(r.infer, uint8(i))
		k := newPrefixKey(pciInferences[i].prefix)
		h := slices.IndexFunc(r.heads, func(h inferHead) bool { return h.w == k.w[0] && h.m == k.m[0] })
		if h < 0 {
			r.heads = append(r.heads, inferHead{w: k.w[0], m: k.m[0]})
			h = len(r.heads) - 1
		}
		head := &r.heads[h]
		t := slices.IndexFunc(head.tails, func(t inferTail) bool { return t.w == k.w[1] && t.m == k.m[1] })
		if t < 0 {
			head.tails = append(head.tails, inferTail{w: k.w[1], m: k.m[1]})
			t = len(head.tails) - 1
		}
		head.tails[t].rows = append(head.tails[t].rows, uint8(i))
	}
	n := 16
	for n < 2*len(x.vendors) {
		n *= 2
	}
	x.slots = make([]uint8, n)
	for k := range x.vendors {
		h := x.vendorSlot(x.vendors[k].vendor)
		for x.slots[h] != 0 {
			h = (h + 1) & (len(x.slots) - 1)
		}
		x.slots[h] = uint8(k + 1)
	}
	return x
}

// vendorSlot is the slot of vendor v: a multiplicative hash.
func (x *quirkIndex) vendorSlot(v uint16) int {
	return int(uint32(v)*0x9e3779b1>>16) & (len(x.slots) - 1)
}

// vendor returns the rows of vendor v, nil when it has none.
func (x *quirkIndex) vendor(v uint16) *vendorQuirks {
	for h := x.vendorSlot(v); ; h = (h + 1) & (len(x.slots) - 1) {
		k := int(x.slots[h])
		if k == 0 {
			return nil
		}
		if q := &x.vendors[k-1]; q.vendor == v {
			return q
		}
	}
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
	w := words16(model)
	first := -1 // the first row matching, in the table's order
	for h := range v.heads {
		head := &v.heads[h]
		if (w[0]^head.w)&head.m != 0 {
			continue
		}
		for t := range head.tails {
			tail := &head.tails[t]
			if (w[1]^tail.w)&tail.m != 0 {
				continue
			}
			for _, i := range tail.rows {
				if (first < 0 || int(i) < first) && pciInferences[i].matches(vendor, model) {
					first = int(i)
					break
				}
			}
		}
	}
	return first
}

// unchecked is uncheckedInto through the index, with the DMI rules left
// out (the machine unknown, as for Build).
func (x *quirkIndex) unchecked(dst *[maxUnchecked]PCIID, v *vendorQuirks, model string, t Release) int {
	if v == nil {
		return 0
	}
	n := 0
	rows, all := v.pci, t != x.newest
	if !all {
		rows = v.newestPCI
	}
	for _, i := range rows {
		e := &quirkHistory[i]
		if all && (e.Table == tableDMI || !e.In(t)) {
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
