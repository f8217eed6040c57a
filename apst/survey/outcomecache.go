package survey

import (
	"encoding/binary"
	"slices"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// outcomeCache remembers, by controller, what evaluate computes of a drive
// under the survey's own configurations: a fleet is mostly drives of few
// models, each model's copies the same controller but for the serial
// number, and each is then built, reached and swept once. Drives evaluated
// with their machine's parameters (EvaluateWith) are not cached.
//
// It holds at most outcomeCacheMax controllers (about 4 KiB each for a
// two-configuration survey): the first ones met; the others are evaluated
// every time, at the cost of one more hash.
type outcomeCache struct{ c cache[outcomeKey, *outcome] }

// outcomeCacheMax bounds outcomeCache.
const outcomeCacheMax = 256

// outcomeKey is a controller without its serial number and the notes of its
// reading, packed: every field that the evaluation of a drive may read
// (Build, Reachability, the sweep, the quirk lookup and its notes), each
// at a fixed offset, the two strings each after their length. A byte array
// hashes in one pass; the struct the fields were held in first took a
// tenth of a binary survey's CPU to hash, field by field.
// TestOutcomeKeyCoversController checks that every other field of
// powerstate.Controller, and every field of its descriptors, is in it.
type outcomeKey [outcomeKeyLen]byte

const (
	// descriptorKeyLen is a descriptor's width in outcomeKey: three words.
	descriptorKeyLen = 3 * 8
	// outcomeKeyLen is the most outcomeKeyOf writes: the IDs, the model
	// and firmware strings with their lengths, MN and FR, IEEE to
	// CCTEMP, CNTRLTYPE and IOCCSZ, the descriptors, the format and the
	// missing fields.
	outcomeKeyLen = 4*2 + (1 + maxKeyModel) + (1 + maxKeyFirmware) + 40 + 8 +
		4 + 2 + 4 + 4 + 4 + 2 + 3 + 2 + 2 + 1 + 4 +
		powerstate.MaxStates*descriptorKeyLen + 1 + 4
	// maxKeyModel and maxKeyFirmware are the longest Model and Firmware
	// strings a key holds (the widths of MN and FR): a controller built
	// in code with longer ones is not cached.
	maxKeyModel, maxKeyFirmware = 40, 8
)

// outcomeKeyOf returns c's key; false when c cannot have one (a Model or
// Firmware string longer than its field).
func outcomeKeyOf(c *powerstate.Controller) (outcomeKey, bool) {
	var k outcomeKey
	ok := k.fill(c)
	return k, ok
}

// fill writes c's key into k, which must be zero, at fixed offsets (the
// strings after their lengths, the rest of their room left zero); false
// when c cannot have one.
func (k *outcomeKey) fill(c *powerstate.Controller) bool {
	if len(c.Model) > maxKeyModel || len(c.Firmware) > maxKeyFirmware {
		return false
	}
	le := binary.LittleEndian
	le.PutUint16(k[0:], c.VendorID)
	le.PutUint16(k[2:], c.SubsystemVendorID)
	le.PutUint16(k[4:], c.PCIDeviceID)
	le.PutUint16(k[6:], c.PCIVendorID)
	n := 8
	k[n] = byte(len(c.Model))
	copy(k[n+1:n+1+maxKeyModel], c.Model)
	n += 1 + maxKeyModel
	k[n] = byte(len(c.Firmware))
	copy(k[n+1:n+1+maxKeyFirmware], c.Firmware)
	n += 1 + maxKeyFirmware
	n += copy(k[n:], c.ModelField[:])
	n += copy(k[n:], c.FirmwareField[:])
	le.PutUint32(k[n:], c.IEEE)
	le.PutUint16(k[n+4:], c.ControllerID)
	le.PutUint32(k[n+6:], uint32(c.Version))
	le.PutUint32(k[n+10:], uint32(c.RTD3Resume))
	le.PutUint32(k[n+14:], uint32(c.RTD3Entry))
	le.PutUint16(k[n+18:], c.OACS)
	k[n+20], k[n+21], k[n+22] = c.NPSS, c.AVSCC, c.APSTA
	le.PutUint16(k[n+23:], uint16(c.WarningTemp))
	le.PutUint16(k[n+25:], uint16(c.CriticalTemp))
	k[n+27] = c.ControllerType
	le.PutUint32(k[n+28:], c.IOCCSZ)
	n += 32
	for i := range c.PowerStates {
		d := &c.PowerStates[i]
		w := (*[descriptorKeyLen]byte)(k[n : n+descriptorKeyLen])
		le.PutUint64(w[0:], uint64(d.MaxPower.Units)|uint64(d.MaxPower.Scale)<<16|uint64(boolByte(d.NonOperational))<<24|uint64(d.EntryLatency)<<32)
		le.PutUint64(w[8:], uint64(d.ExitLatency)|uint64(d.RelativeReadThroughput)<<32|uint64(d.RelativeReadLatency)<<40|
			uint64(d.RelativeWriteThroughput)<<48|uint64(d.RelativeWriteLatency)<<56)
		le.PutUint64(w[16:], uint64(d.IdlePower.Units)|uint64(d.IdlePower.Scale)<<16|uint64(d.ActivePower.Units)<<24|
			uint64(d.ActivePower.Scale)<<40|uint64(d.ActiveWorkload)<<48)
		n += descriptorKeyLen
	}
	k[n] = byte(c.Format)
	le.PutUint32(k[n+1:], uint32(c.Missing))
	return true
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// outcome is a Row's part that depends on the controller alone. Its slices
// are never changed once cached: a hit copies them into the row.
type outcome struct {
	quirks       apst.Quirks
	inferredFrom string
	unchecked    []apst.PCIID // the quirk cache's: each row gets a copy
	assumed      Assumed
	results      []analysis.ConfigResult
	changes      []Change
	changed      bool
	sweep        []Step
}

// get fills row from the outcome of a controller with key k and reports
// whether there was one; row's Name, Vendor, VendorID, Model and Firmware
// are the caller's.
func (oc *outcomeCache) get(k *outcomeKey, row *Row) bool {
	o, ok := oc.c.get(k)
	if !ok {
		return false
	}
	row.Quirks, row.QuirksInferredFrom, row.QuirksUncheckedPCI = o.quirks, o.inferredFrom, slices.Clone(o.unchecked)
	row.Assumed = o.assumed
	row.Results = append(row.Results[:0], o.results...)
	row.Changes = append(row.Changes[:0], o.changes...)
	row.Changed = o.changed
	row.Sweep = append(row.Sweep[:0], o.sweep...)
	return true
}

// put remembers row's outcome for key k, while the cache has room.
func (oc *outcomeCache) put(k *outcomeKey, row *Row) {
	if oc.c.full(outcomeCacheMax) { // copy nothing
		return
	}
	o := &outcome{
		quirks: row.Quirks, inferredFrom: row.QuirksInferredFrom, unchecked: slices.Clone(row.QuirksUncheckedPCI),
		assumed: row.Assumed, results: slices.Clone(row.Results), changes: slices.Clone(row.Changes),
		changed: row.Changed, sweep: slices.Clone(row.Sweep),
	}
	oc.c.put(k, o, outcomeCacheMax)
}
