package apst

import (
	"encoding/binary"
	"slices"
	"strings"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// maxUnchecked bounds the unchecked PCI IDs a QuirkLookup holds; no vendor
// has more quirked IDs in any release's tables (a test checks it).
const maxUnchecked = 8

// QuirkLookup records where Build took the controller's quirks from: the
// kernel's quirk tables of Params.Release applied to the controller (the
// default), or the set the caller gave ([Params.QuirksGiven]). It says what
// the lookup assumed so that a tool can print it without a second lookup:
// the release whose tables were used, the PCI ID inferred from the model,
// the quirked PCI IDs that went unchecked, and that no DMI rule was checked
// (Build knows no machine). [QuirkLookup.Notes] says the same in sentences.
//
// The zero QuirkLookup belongs to a Plan that Build did not write.
// QuirkLookup is a plain value; it does not allocate.
type QuirkLookup struct {
	// Skipped reports that the caller gave the quirk set
	// (Params.QuirksGiven): no table was consulted, Applied is
	// Params.Quirks, and the other fields are zero.
	Skipped bool
	// Applied is the quirk set Build applied (every bit): the tables' for
	// the controller and Params.Quirks.
	Applied Quirks
	// Tables is the release whose tables were used: Params.Release, or
	// NewestRelease when that was unknown or is newer than the newest
	// tables known.
	Tables Release
	// ReleaseUnknown reports that Params.Release was unknown, so the newest
	// tables were assumed.
	ReleaseUnknown bool
	// PCI is the PCI ID the nvme-pci ID table was matched with: the
	// controller's (powerstate.Controller.PCIDeviceID with its VID), or the
	// one inferred from the model (Inferred); zero when neither is known.
	PCI PCIID
	// Inferred reports that PCI was inferred from the Identify VID and
	// model (docs/quirks.md lists the rules and their sources).
	Inferred bool
	// UncheckedDMI reports that the DMI rules of check_vendor_combination_bug()
	// were not checked: Build knows no machine. True for every lookup.
	UncheckedDMI bool
	// FieldsPadded reports that the controller recorded no raw MN or FR
	// field (a Controller built in code), so core_quirks[] was matched on
	// the trimmed strings padded with spaces.
	FieldsPadded bool

	rule       int8  // index of the inference rule in pciInferences, -1 none
	padded     uint8 // 1: model padded, 2: firmware padded
	vendor     uint16
	nUnchecked uint8
	unchecked  [maxUnchecked]PCIID
}

// UncheckedPCI returns the PCI IDs of the controller's vendor that carry
// quirks in the tables used but could not be checked, because the PCI ID
// was neither known nor inferred; nil when there are none. A known PCI ID
// (powerstate.Controller.PCIDeviceID) settles them. The slice is fresh.
func (l *QuirkLookup) UncheckedPCI() []PCIID {
	if l.nUnchecked == 0 {
		return nil
	}
	return slices.Clone(l.unchecked[:l.nUnchecked])
}

// InferredFrom says from what the PCI ID was inferred (the model, the
// pattern, the product and the confidence); "" when it was not inferred.
func (l *QuirkLookup) InferredFrom(model string) string {
	if !l.Inferred || l.rule < 0 {
		return ""
	}
	return inferredFrom(&pciInferences[l.rule], model)
}

// Notes states each assumption of the lookup in a sentence, as
// [DriveQuirks] does: the release whose tables were used, the inferred PCI
// ID, the DMI rules left unchecked, the unchecked PCI IDs and padded fields;
// for a skipped lookup, that the quirks were given. model is the
// controller's trimmed model (powerstate.Controller.Model), named by the
// inference note.
func (l *QuirkLookup) Notes(model string) []string {
	if l.Skipped {
		return []string{"quirk tables not consulted: the quirks were given (" + l.Applied.String() + ")"}
	}
	var out []string
	if _, note := l.requested().tables(); note != "" {
		out = append(out, note)
	}
	if l.Inferred {
		out = append(out, "PCI ID inferred as "+l.PCI.String()+" from "+l.InferredFrom(model))
	}
	if l.UncheckedDMI {
		out = append(out, noteDMIUnchecked)
	}
	if l.PCI.IsZero() {
		t, _ := l.requested().tables()
		out = append(out, ruledOutNotes(l.vendor, model, t, false)...)
	}
	if ids := l.UncheckedPCI(); len(ids) > 0 {
		out = append(out, uncheckedNote(l.vendor, ids))
	}
	if !l.PCI.IsZero() && !l.Inferred && l.PCI.Vendor != l.vendor {
		out = append(out, vendorsDifferNote(l.PCI, l.vendor))
	}
	if l.FieldsPadded {
		var names []string
		if l.padded&1 != 0 {
			names = append(names, "model")
		}
		if l.padded&2 != 0 {
			names = append(names, "firmware")
		}
		out = append(out, strings.Join(names, " and ")+" matched as the trimmed string padded with spaces (the raw field was not recorded)")
	}
	return out
}

// requested is the release the lookup was asked for, for its note.
func (l *QuirkLookup) requested() Release {
	if l.ReleaseUnknown {
		return Release{}
	}
	return l.Tables
}

// noteDMIUnchecked is the note of a lookup without a machine.
const noteDMIUnchecked = "DMI rules not checked: the machine is unknown (a capture carries no DMI data)"

// uncheckedNote is the note naming a vendor's unchecked PCI IDs.
// IDs of another vendor are the SSVID's (Identity.SubsystemVendorID).
func uncheckedNote(vendor uint16, ids []PCIID) string {
	var own, sub []string
	var subVendor uint16
	for _, u := range ids {
		if u.Vendor == vendor {
			own = append(own, u.String())
		} else {
			sub, subVendor = append(sub, u.String()), u.Vendor
		}
	}
	var parts []string
	if len(own) > 0 {
		parts = append(parts, "vendor "+hex4(vendor)+" has quirked IDs "+strings.Join(own, ", "))
	}
	if len(sub) > 0 {
		parts = append(parts, "the Identify SSVID "+hex4(subVendor)+", a controller maker's whose PCI ID a drive sold under VID "+hex4(vendor)+" may carry, has quirked IDs "+strings.Join(sub, ", "))
	}
	return "PCI quirks unchecked: the PCI device ID is unknown and the model does not identify it; " +
		strings.Join(parts, "; ") + " (give the PCI ID to settle it)"
}

// inferredFrom describes an inference of rule p from model.
func inferredFrom(p *pciInference, model string) string {
	return "model " + quote(model) + " (" + p.product + ", VID " + hex4(p.vendor) + ", model " + p.pattern() + "; " + p.confidence + " confidence)"
}

// lookupController is DriveQuirks without its notes and slices: the quirks
// the tables of release r assign controller c, recorded in l. It does not
// allocate, so that Build can call it on its hot path.
func lookupController(l *QuirkLookup, c *powerstate.Controller, r Release) Quirks {
	*l = QuirkLookup{rule: -1, vendor: c.VendorID, UncheckedDMI: true}
	var t Release
	if r.IsZero() { // unknown: the newest tables (Release.tables)
		t = quirkIdx.newest
		l.Tables, l.ReleaseUnknown = t, true
	} else {
		t, _ = r.tables()
		l.Tables = t
		if t.mainline().Compare(NewestRelease().mainline()) > 0 {
			l.Tables = NewestRelease()
		} else if r.BaseUnknown {
			l.Tables = r // the series' newest stable update: said by the note
		}
	}

	// The fields as recorded (raw) are matched without trimming them: the
	// first 16 bytes of the model against the index's keys, the trimmed
	// text only for a rule that needs more; core_quirks[] as whole fields
	// against its patterns padded with spaces (coreImage).
	m := modelText{c: c}
	m.w[0] = binary.LittleEndian.Uint64(c.ModelField[:8])
	modelRaw := m.w[0] != 0 || nonZero(c.ModelField[8:])
	fwRaw := binary.LittleEndian.Uint64(c.FirmwareField[:]) != 0
	if !modelRaw && c.Model != "" {
		l.padded |= 1
	}
	if !fwRaw && c.Firmware != "" {
		l.padded |= 2
	}
	l.FieldsPadded = l.padded != 0
	if modelRaw {
		m.w[1] = binary.LittleEndian.Uint64(c.ModelField[8:16])
	} else {
		m.w, m.s, m.have = words16(c.Model), c.Model, true
	}

	vq := quirkIdx.vendor(c.VendorID)
	if c.PCIDeviceID != 0 {
		l.PCI = PCIID{Vendor: c.PCIVendor(), Device: c.PCIDeviceID}
	} else if i := quirkIdx.infer(vq, &m); i >= 0 {
		l.PCI, l.Inferred, l.rule = pciInferences[i].id, true, int8(i)
	}
	// The tables through their index (quirkIdx): the ID table's entries
	// of the PCI ID's vendor, the core_quirks[] entries of the VID.
	var q Quirks
	if !l.PCI.IsZero() {
		pv := vq
		if l.PCI.Vendor != c.VendorID {
			pv = quirkIdx.vendor(l.PCI.Vendor)
		}
		if pv != nil {
			for _, i := range pv.pci {
				if e := &quirkHistory[i]; e.Table == tablePCI && e.Device == l.PCI && quirkIdx.in(i, t) {
					q |= e.Quirks
				}
			}
		}
	}
	if vq != nil {
		rows, all := vq.core, t != quirkIdx.newest
		if !all {
			rows = vq.newestCore
		}
		for _, i := range rows {
			e, img := &quirkHistory[i], &quirkIdx.core[i]
			if all && !e.In(t) {
				continue
			}
			if modelRaw {
				if !img.anyModel && (img.noModel || m.w[0] != img.model0 || c.ModelField != img.model) {
					continue
				}
			} else if !coreFieldMatches(c.ModelField[:], false, c.Model, e.Model) {
				continue
			}
			if fwRaw {
				if !img.anyFirmware && (img.noFirmware || c.FirmwareField != img.firmware) {
					continue
				}
			} else if !coreFieldMatches(c.FirmwareField[:], false, c.Firmware, e.Firmware) {
				continue
			}
			q |= e.Quirks
		}
	}
	if l.PCI.IsZero() {
		n := quirkIdx.unchecked(&l.unchecked, 0, vq, &m, t)
		if sv := c.SubsystemVendorID; sv != 0 && sv != c.VendorID {
			// A drive sold under a brand's VID may enumerate with its
			// controller maker's PCI ID, which the SSVID names (an HP
			// EX920: VID 1dee, SSVID and PCI ID 126f:2262).
			n = quirkIdx.unchecked(&l.unchecked, n, quirkIdx.vendor(sv), &m, t)
		}
		l.nUnchecked = uint8(n)
	}
	l.Applied = q
	return q
}

// trimmedField returns the field without its trailing spaces and NULs and
// whether the raw field was recorded; when it was not (all zero), the
// trimmed string the Controller holds.
func trimmedField(field []byte, trimmed string) (string, bool) {
	// The common field: the Controller's string, then padding.
	if l := len(trimmed); l > 0 && l <= len(field) && trimmed[l-1] != ' ' && trimmed[l-1] != 0 &&
		padding(field[l:]) && string(field[:l]) == trimmed {
		return trimmed, true
	}
	if !nonZero(field) {
		return trimmed, false // not recorded
	}
	n := len(field)
	for n > 0 && (field[n-1] == ' ' || field[n-1] == 0) {
		n--
	}
	for _, b := range field {
		if b != 0 {
			// Comparisons and prefix tests below read the bytes through
			// this string; converting a slice of an array the caller
			// owns would allocate, so the trimmed display string is used
			// when it is the same text.
			if trimmed == string(field[:n]) {
				return trimmed, true
			}
			return string(field[:n]), true
		}
	}
	return trimmed, false
}

// padding reports whether every byte of b is a space or a NUL, eight at a
// time (such a byte is 0x20 once bit 5 is set).
func padding(b []byte) bool {
	const spaces = 0x2020202020202020
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b)|spaces != spaces {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c|0x20 != 0x20 {
			return false
		}
	}
	return true
}

// nonZero reports whether a byte of b is not 0, eight at a time.
func nonZero(b []byte) bool {
	var x uint64
	for len(b) >= 8 {
		x |= binary.LittleEndian.Uint64(b)
		b = b[8:]
	}
	for _, c := range b {
		x |= uint64(c)
	}
	return x != 0
}

// coreFieldMatches is fieldMatches on the raw field when recorded, or on
// the trimmed string padded with spaces.
func coreFieldMatches(field []byte, raw bool, trimmed, pattern string) bool {
	if pattern == "" {
		return true
	}
	if !raw {
		// trimmed padded with spaces: the pattern must be trimmed plus
		// spaces, or a prefix of trimmed followed by spaces only.
		rest, ok := strings.CutPrefix(trimmed, pattern)
		return ok && strings.Trim(rest, " ") == "" || strings.TrimRight(pattern, " ") == trimmed && len(pattern) <= len(field)
	}
	if len(field) < len(pattern) || string(field[:len(pattern)]) != pattern {
		return false
	}
	for _, b := range field[len(pattern):] {
		if b != ' ' {
			return false
		}
	}
	return true
}

// inferIndex returns the index of the first inference rule matching the
// VID and trimmed model, -1 when none does.
func inferIndex(vendor uint16, model string) int {
	for i := range pciInferences {
		if pciInferences[i].matches(vendor, model) {
			return i
		}
	}
	return -1
}

// uncheckedInto writes the quirked PCI IDs of vendor in the tables of r
// into dst (the ID table's, and the DMI rules' when the machine is known),
// leaving out those the trimmed model rules out (pciExclusions), and
// returns how many; at most len(dst).
func uncheckedInto(dst *[maxUnchecked]PCIID, n int, vendor uint16, model string, r Release, dmiKnown bool) int {
	for i := range quirkHistory {
		e := &quirkHistory[i]
		if e.Device.Vendor != vendor || e.Device.IsZero() || !e.In(r) ||
			(e.Table == tableDMI && !dmiKnown) || e.Table == tableCore {
			continue
		}
		if slices.Contains(dst[:n], e.Device) || n == len(dst) || ruledOut(vendor, model, e.Device) {
			continue
		}
		dst[n] = e.Device
		n++
	}
	return n
}

// vendorsDifferNote says that the PCI vendor is not the Identify VID.
func vendorsDifferNote(pci PCIID, vid uint16) string {
	return "the PCI vendor " + hex4(pci.Vendor) + " differs from the Identify VID " + hex4(vid) +
		": the kernel matches its PCI ID table on " + pci.String() + " (config space) and core_quirks on the VID"
}
