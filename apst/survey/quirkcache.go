package survey

import (
	"sync"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// quirkCache remembers apst.DriveQuirks by what it reads of a controller,
// so that a fleet of many drives of few models looks each model up once.
// Only controllers whose MN and FR fields are recorded (every capture's)
// are cached: for the others the lookup reads the trimmed strings, which
// the key does not hold.
type quirkCache struct {
	mu sync.RWMutex
	m  map[quirkKey]quirkResult
}

// quirkResult is what a survey keeps of apst.DriveQuirks: the APST quirks
// and what they rest on. Its slice is shared by every drive of the model
// and never changed.
type quirkResult struct {
	quirks       apst.Quirks
	inferredFrom string
	unchecked    []apst.PCIID
}

func newQuirkResult(m apst.QuirkMatch) quirkResult {
	r := quirkResult{quirks: m.APST(), unchecked: m.UncheckedPCI}
	if m.InferredFrom != "" {
		r.inferredFrom = "PCI ID " + m.InferredPCI.String() + " inferred from the " + m.InferredFrom
	}
	return r
}

// quirkCacheMax bounds the cache: beyond it, lookups are not remembered.
const quirkCacheMax = 1 << 14

// quirkKey is everything apst.DriveQuirks reads of a controller with its
// MN and FR fields recorded.
type quirkKey struct {
	vid, pci uint16
	pciVID   uint16
	mn       [40]byte
	fr       [8]byte
	release  apst.Release
}

// driveQuirks returns what the survey keeps of apst.DriveQuirks(c, r).
func (qc *quirkCache) driveQuirks(c *powerstate.Controller, r apst.Release) quirkResult {
	if c.ModelField == ([40]byte{}) || c.FirmwareField == ([8]byte{}) {
		return newQuirkResult(apst.DriveQuirks(c, r))
	}
	k := quirkKey{vid: c.VendorID, pci: c.PCIDeviceID, pciVID: c.PCIVendorID, mn: c.ModelField, fr: c.FirmwareField, release: r}
	qc.mu.RLock()
	q, ok := qc.m[k]
	qc.mu.RUnlock()
	if ok {
		return q
	}
	q = newQuirkResult(apst.DriveQuirks(c, r))
	qc.mu.Lock()
	if qc.m == nil {
		qc.m = map[quirkKey]quirkResult{}
	}
	if len(qc.m) < quirkCacheMax {
		qc.m[k] = q
	}
	qc.mu.Unlock()
	return q
}
