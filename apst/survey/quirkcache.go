package survey

import (
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// quirkCache remembers, by what the quirk lookup reads of a controller,
// the notes a Row gives of it (the PCI ID inferred, and from what; the PCI
// IDs left unchecked), so that a fleet of many drives of few models builds
// each model's strings once and shares its slice. Only controllers whose MN
// and FR fields are recorded (every capture's) are cached.
type quirkCache struct{ c cache[quirkKey, quirkNotes] }

// quirkNotes are a Row's notes of its quirk lookup. The slice is shared by
// every drive of the model and never changed.
type quirkNotes struct {
	inferredFrom string
	unchecked    []apst.PCIID
}

func newQuirkNotes(c *powerstate.Controller, l *apst.QuirkLookup) quirkNotes {
	n := quirkNotes{unchecked: l.UncheckedPCI()}
	if l.Inferred {
		n.inferredFrom = "PCI ID " + l.PCI.String() + " inferred from the " + l.InferredFrom(c.Model)
	}
	return n
}

// quirkCacheMax bounds the cache: beyond it, notes are not remembered.
const quirkCacheMax = 1 << 14

// quirkKey is everything the quirk lookup reads of a controller with its
// MN and FR fields recorded.
type quirkKey struct {
	vid, pci uint16
	pciVID   uint16
	mn       [40]byte
	fr       [8]byte
	release  apst.Release
}

// notes returns the notes of lookup l, made for controller c.
func (qc *quirkCache) notes(c *powerstate.Controller, l *apst.QuirkLookup) (inferredFrom string, unchecked []apst.PCIID) {
	if c.ModelField == ([40]byte{}) || c.FirmwareField == ([8]byte{}) {
		n := newQuirkNotes(c, l)
		return n.inferredFrom, n.unchecked
	}
	k := quirkKey{vid: c.VendorID, pci: c.PCIDeviceID, pciVID: c.PCIVendorID, mn: c.ModelField, fr: c.FirmwareField, release: l.Tables}
	n, ok := qc.c.get(&k)
	if !ok {
		n = newQuirkNotes(c, l)
		qc.c.put(&k, n, quirkCacheMax)
	}
	return n.inferredFrom, n.unchecked
}
