package apst

import (
	"slices"
	"strings"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// quirkIdx is the quirk tables indexed by what the kernel matches on, for
// Build's lookup (lookupController): core_quirks[] entries by Identify
// VID, with their patterns as the raw fields that match them (coreImage);
// nvme-pci ID table entries and DMI rules by the vendor of their PCI ID;
// the PCI ID inference and exclusion rows by VID and the first 16 bytes
// of their model prefixes, with the rows those bytes decide (keyDecides);
// and, for the tables of NewestRelease (those of the default Params),
// which history entries those tables hold. It is computed once, at
// package initialisation, from the immutable tables (quirkHistory,
// pciInferences, pciExclusions), and never changes: it is safe for
// concurrent use.
var quirkIdx = *buildQuirkIndex() // a value: its address is static

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
	// core is each core_quirks[] entry's model and firmware as the raw
	// fields hold them when the entry matches (coreImage).
	core [len(quirkHistory)]coreImage
	// inferExact and exclExact say which inference and exclusion rows the
	// first 16 bytes decide (keyDecides): such a row matches a model whose
	// bytes match its key, with no other test.
	inferExact [len(pciInferences)]bool
	exclExact  [len(pciExclusions)]bool
}

// modelField and firmwareField are the types of the raw MN and FR fields.
type (
	modelField    = [len(powerstate.Controller{}.ModelField)]byte
	firmwareField = [len(powerstate.Controller{}.FirmwareField)]byte
)

// The lookup reads FR as one word and MN's first 16 bytes as two.
var (
	_ [len(firmwareField{}) - 8]struct{}
	_ [8 - len(firmwareField{})]struct{}
	_ [len(modelField{}) - 16]struct{}
)

// coreImage is a core_quirks[] entry's patterns as raw fields that match
// them: the kernel's string_matches() on a raw field (fieldMatches) holds
// exactly when the field is the pattern followed by spaces, so a match is
// one comparison of the field with the pattern padded with spaces.
type coreImage struct {
	// model0 is model's first 8 bytes as a little-endian word, to tell
	// most models apart in one comparison.
	model0   uint64
	model    modelField
	firmware firmwareField
	// anyModel and anyFirmware: the pattern is empty (matches anything);
	// noModel and noFirmware: the pattern is longer than the field (matches
	// nothing).
	anyModel, anyFirmware bool
	noModel, noFirmware   bool
}

// newCoreImage returns the image of entry e.
func newCoreImage(e *QuirkEntry) coreImage {
	var m coreImage
	m.anyModel, m.anyFirmware = e.Model == "", e.Firmware == ""
	m.noModel, m.noFirmware = len(e.Model) > len(m.model), len(e.Firmware) > len(m.firmware)
	for i := range m.model {
		m.model[i] = ' '
	}
	for i := range m.firmware {
		m.firmware[i] = ' '
	}
	copy(m.model[:], e.Model)
	copy(m.firmware[:], e.Firmware)
	m.model0 = le64(string(m.model[:8]))
	return m
}

// keyDecides reports whether a model whose first 16 bytes match the key of
// prefix (newPrefixKey) has the prefix, whatever follows, with the model
// either the trimmed text or the raw field (the text and then spaces or
// NULs): the prefix fits in 16 bytes, holds no NUL, and does not end in a
// space (the raw field holds the prefix then exactly when its text does).
// Rules with more to test (contains, suffixes) are not decided.
func keyDecides(prefix string, more bool) bool {
	if more || prefix == "" || len(prefix) > 16 || prefix[len(prefix)-1] == ' ' {
		return false
	}
	for i := range len(prefix) {
		if prefix[i] == 0 {
			return false
		}
	}
	return true
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
	// excl is the pciExclusions rows of this VID with their keys.
	excl []exclKey
	// newestCore and newestPCI are core and pci for the tables of
	// NewestRelease: the entries they hold, and of pci the ID table's.
	newestCore, newestPCI []uint8
}

// exclKey is a pciExclusions row with the key of its prefix.
type exclKey struct {
	key prefixKey
	id  PCIID
	row uint8
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
			x.core[i] = newCoreImage(e)
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
		p := &pciInferences[i]
		x.inferExact[i] = keyDecides(p.prefix, p.contains != "" || len(p.suffixes) > 0)
		k := newPrefixKey(p.prefix)
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
	for i := range pciExclusions {
		e := &pciExclusions[i]
		x.exclExact[i] = keyDecides(e.prefix, e.contains != "")
		r := row(e.vendor)
		r.excl = append(r.excl, exclKey{key: newPrefixKey(e.prefix), id: e.id, row: uint8(i)})
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
// vendor v matching the model m, -1 when none does.
func (x *quirkIndex) infer(v *vendorQuirks, m *modelText) int {
	if v == nil {
		return -1
	}
	first := -1 // the first row matching, in the table's order
	w0, w1 := m.w[0], m.w[1]
	for h := range v.heads {
		head := &v.heads[h]
		if (w0^head.w)&head.m != 0 {
			continue
		}
		for t := range head.tails {
			tail := &head.tails[t]
			if (w1^tail.w)&tail.m != 0 {
				continue
			}
			for _, i := range tail.rows {
				if (first < 0 || int(i) < first) && (x.inferExact[i] || pciInferences[i].matches(v.vendor, m.text())) {
					first = int(i)
					break
				}
			}
		}
	}
	return first
}

// ruledOut is ruledOut through the index: whether the model m of vendor v
// rules id out (exclusionIndex).
func (x *quirkIndex) ruledOut(v *vendorQuirks, m *modelText, id PCIID) bool {
	if v.vendor == 0x15b7 && id == (PCIID{0x15b7, 0x5009}) && snOther(m.text()) {
		return true
	}
	for k := range v.excl {
		e := &v.excl[k]
		if e.id != id || (m.w[0]^e.key.w[0])&e.key.m[0] != 0 || (m.w[1]^e.key.w[1])&e.key.m[1] != 0 {
			continue
		}
		if x.exclExact[e.row] {
			return true
		}
		p := &pciExclusions[e.row]
		if model := m.text(); strings.HasPrefix(model, p.prefix) &&
			(p.contains == "" || strings.Contains(model[len(p.prefix):], p.contains)) {
			return true
		}
	}
	return false
}

// unchecked is uncheckedInto through the index, with the DMI rules left
// out (the machine unknown, as for Build): it adds v's IDs to the n in dst
// and returns the new count.
func (x *quirkIndex) unchecked(dst *[maxUnchecked]PCIID, n int, v *vendorQuirks, m *modelText, t Release) int {
	if v == nil {
		return n
	}
	rows, all := v.pci, t != x.newest
	if !all {
		rows = v.newestPCI
	}
	for _, i := range rows {
		e := &quirkHistory[i]
		if all && (e.Table == tableDMI || !e.In(t)) {
			continue
		}
		if slices.Contains(dst[:n], e.Device) || n == len(dst) || x.ruledOut(v, m, e.Device) {
			continue
		}
		dst[n] = e.Device
		n++
	}
	return n
}

// modelText is the controller's model as the lookup matches it: its first
// 16 bytes as two little-endian words, for the index's keys, and its text
// (the raw field trimmed, or the Controller's string when no field was
// recorded), trimmed only when a rule needs more than those bytes.
type modelText struct {
	w    [2]uint64
	c    *powerstate.Controller
	s    string
	have bool
}

// text returns the trimmed model.
func (m *modelText) text() string {
	if !m.have {
		m.s, _ = trimmedField(m.c.ModelField[:], m.c.Model)
		m.have = true
	}
	return m.s
}
