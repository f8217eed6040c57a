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
	// inferKey[i] is the first 16 bytes of pciInferences[i].prefix, to
	// test it against a model's a word at a time.
	inferKey [len(pciInferences)]prefixKey
}

// prefixKey is the first 16 bytes of a prefix as two little-endian words
// (zeros past its end) with the masks of its bytes; long when the prefix
// goes on past them.
type prefixKey struct {
	w, m [2]uint64
	long bool
}

// newPrefixKey returns the key of prefix p.
func newPrefixKey(p string) prefixKey {
	k := prefixKey{w: words16(p), long: len(p) > 16}
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

// mayPrefix reports whether the prefix of k may start s, whose first 16
// bytes are w: false when its first 16 bytes do not (a prefix longer
// than s has bytes s cannot match: its mask covers zeros of w only where
// s is shorter, which HasPrefix settles).
func (k *prefixKey) mayPrefix(w *[2]uint64) bool {
	return (w[0]^k.w[0])&k.m[0]|(w[1]^k.w[1])&k.m[1] == 0
}

// vendorQuirks are the rows of one vendor ID, each list in its table's
// order (the order the kernel, and the unindexed lookups, apply them).
type vendorQuirks struct {
	vendor uint16
	core   []uint8     // quirkHistory: core_quirks[] entries of this VID
	pci    []uint8     // quirkHistory: ID table entries and DMI rules of a PCI ID of this vendor
	infer  []uint8     // pciInferences rows of this VID
	keys   []prefixKey // the keys of infer's rows (quirkIndex.inferKey), side by side
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
		x.inferKey[i] = newPrefixKey(pciInferences[i].prefix)
		r.keys = append(r.keys, x.inferKey[i])
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
	w := words16(model)
	for k := range v.keys {
		if v.keys[k].mayPrefix(&w) && pciInferences[v.infer[k]].matches(vendor, model) {
			return int(v.infer[k])
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
