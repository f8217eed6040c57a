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
// at a fixed width, the two strings each after their length. A byte array
// hashes in one pass; the struct the fields were held in first took a
// tenth of a binary survey's CPU to hash, field by field.
// TestOutcomeKeyCoversController checks that every other field of
// powerstate.Controller, and every field of its descriptors, is in it.
type outcomeKey [outcomeKeyLen]byte

const (
	// descriptorKeyLen is a descriptor's width in outcomeKey.
	descriptorKeyLen = 3 + 1 + 4 + 4 + 4 + 3 + 3 + 1
	// outcomeKeyLen is the most outcomeKeyOf writes: the IDs, the model
	// and firmware strings with their lengths, MN and FR, IEEE to
	// CCTEMP, the descriptors, the format and the missing fields.
	outcomeKeyLen = 4*2 + (1 + maxKeyModel) + (1 + maxKeyFirmware) + 40 + 8 +
		4 + 2 + 4 + 4 + 4 + 2 + 3 + 2 + 2 +
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
	if len(c.Model) > maxKeyModel || len(c.Firmware) > maxKeyFirmware {
		return k, false
	}
	le := binary.LittleEndian
	b := k[:0] // appends within k: outcomeKeyLen is the most written
	b = le.AppendUint16(b, c.VendorID)
	b = le.AppendUint16(b, c.SubsystemVendorID)
	b = le.AppendUint16(b, c.PCIDeviceID)
	b = le.AppendUint16(b, c.PCIVendorID)
	b = append(append(b, byte(len(c.Model))), c.Model...)
	b = append(append(b, byte(len(c.Firmware))), c.Firmware...)
	b = append(b, c.ModelField[:]...)
	b = append(b, c.FirmwareField[:]...)
	b = le.AppendUint32(b, c.IEEE)
	b = le.AppendUint16(b, c.ControllerID)
	b = le.AppendUint32(b, uint32(c.Version))
	b = le.AppendUint32(b, uint32(c.RTD3Resume))
	b = le.AppendUint32(b, uint32(c.RTD3Entry))
	b = le.AppendUint16(b, c.OACS)
	b = append(b, c.NPSS, c.AVSCC, c.APSTA)
	b = le.AppendUint16(b, uint16(c.WarningTemp))
	b = le.AppendUint16(b, uint16(c.CriticalTemp))
	for i := range c.PowerStates {
		d := &c.PowerStates[i]
		b = appendPower(b, d.MaxPower)
		b = append(b, boolByte(d.NonOperational))
		b = le.AppendUint32(b, uint32(d.EntryLatency))
		b = le.AppendUint32(b, uint32(d.ExitLatency))
		b = append(b, d.RelativeReadThroughput, d.RelativeReadLatency, d.RelativeWriteThroughput, d.RelativeWriteLatency)
		b = appendPower(b, d.IdlePower)
		b = appendPower(b, d.ActivePower)
		b = append(b, byte(d.ActiveWorkload))
	}
	b = append(b, byte(c.Format))
	b = le.AppendUint32(b, uint32(c.Missing))
	return k, len(b) <= len(k) && &b[0] == &k[0]
}

func appendPower(b []byte, p powerstate.Power) []byte {
	return append(binary.LittleEndian.AppendUint16(b, p.Units), byte(p.Scale))
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
	unchecked    []apst.PCIID // shared with the rows, as the quirk cache's
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
	row.Quirks, row.QuirksInferredFrom, row.QuirksUncheckedPCI = o.quirks, o.inferredFrom, o.unchecked
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
		quirks: row.Quirks, inferredFrom: row.QuirksInferredFrom, unchecked: row.QuirksUncheckedPCI,
		assumed: row.Assumed, results: slices.Clone(row.Results), changes: slices.Clone(row.Changes),
		changed: row.Changed, sweep: slices.Clone(row.Sweep),
	}
	oc.c.put(k, o, outcomeCacheMax)
}
