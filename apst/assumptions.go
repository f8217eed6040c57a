package apst

import (
	"slices"
	"strings"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Assumptions is what an answer assumed because its input did not say it:
// the controller's APSTA, the kernel release or a distribution release's
// stable base, the PCI ID (inferred from the model, or its quirks left
// unchecked) and the machine's DMI strings. Each is recorded only where it
// can change the answer: an unknown release only when a quirk entry that
// could apply to the controller is not in every release's tables, DMI
// unchecked only when a DMI rule of the tables used names its PCI ID (a
// rule for every drive of one machine model is kept apart, in
// MachineDMIRules).
//
// [Plan.Assumptions] and [QuirkMatch.Assumptions] derive it; a tool prints
// [Assumptions.Notes] (or the fields) once per output, and
// [CommonAssumptions] with [Assumptions.Without] split what several answers
// share from what each adds.
//
// The zero Assumptions assumed nothing. An Assumptions is a plain value; its
// slices are fresh and the caller's.
type Assumptions struct {
	// APSTAUnknown reports that the controller's APSTA was unknown (a
	// capture that does not record it) and APST support was assumed.
	APSTAUnknown bool
	// ReleaseUnknown reports that no kernel release was given and that the
	// quirk tables of Tables (the newest) were assumed; AtStake names the
	// entries that could apply to the controller and that some release's
	// tables lack or hold.
	ReleaseUnknown bool
	// BaseUnknown reports a distribution release X.Y.0-N whose upstream
	// stable base is unknown: the newest X.Y.z tables known (Tables) were
	// assumed; AtStake is [Release.SeriesChanges], the entries that differ
	// within the series.
	BaseUnknown bool
	// Release is the release given (zero when ReleaseUnknown), and Tables
	// the release whose tables were assumed; both are zero unless
	// ReleaseUnknown or BaseUnknown.
	Release Release
	Tables  Release
	// AtStake names the quirk entries the unknown release or base decides,
	// as "8086:f1a5 Intel 600P/P3100 (added in 4.12)".
	AtStake []string
	// PCIInferred is the PCI ID inferred from the Identify VID and model
	// (zero when it was known or not inferred), and PCIInferredFrom says
	// from what: the model, the pattern, the product and the confidence.
	PCIInferred     PCIID
	PCIInferredFrom string
	// PCIUnchecked lists the quirked PCI IDs of the controller's vendor that
	// could not be checked: the PCI ID was unknown and the model does not
	// settle it. PCIUncheckedWhy says so in a sentence.
	PCIUnchecked    []PCIID
	PCIUncheckedWhy string
	// PCIUncheckedSSVID is the Identify SSVID when some of PCIUnchecked
	// are its quirked IDs (it differs from the VID: a drive sold under a
	// brand's VID may enumerate with its controller maker's PCI ID); zero
	// when all are the VID's.
	PCIUncheckedSSVID uint16
	// DMIUnchecked reports that the machine was unknown while a DMI rule of
	// the tables used could apply to the controller; DMIRules names those
	// rules with their quirks.
	DMIUnchecked bool
	DMIRules     []string
	// MachineDMIRules names the DMI rules of the tables used that take
	// every NVMe device of one machine model (the Lenovo N60z's), unchecked
	// because the machine is unknown. They are no caveat of this drive:
	// on that machine they change every drive's answer alike, elsewhere
	// none. Notes and IsZero leave them out; JSON views keep them.
	MachineDMIRules []string
	// Other states, one sentence each, what else the lookup inferred or
	// assumed: a PCI ID the model rules out, a PCI vendor other than the
	// Identify VID, fields matched padded, a release newer than the newest
	// tables, an nvme.quirks= override it could not check.
	Other []string
}

// IsZero reports whether nothing was assumed.
func (a Assumptions) IsZero() bool {
	return !a.APSTAUnknown && !a.ReleaseUnknown && !a.BaseUnknown && a.PCIInferred.IsZero() &&
		len(a.PCIUnchecked) == 0 && !a.DMIUnchecked && len(a.Other) == 0
}

// Notes states each assumption in one sentence, in a fixed order: APSTA,
// the release or its base, the inferred PCI ID, the unchecked PCI quirks,
// DMI, then Other. nil when nothing was assumed.
func (a Assumptions) Notes() []string {
	var out []string
	if a.APSTAUnknown {
		out = append(out, NoteAPSTAUnknown)
	}
	if n := a.ReleaseNote(); n != "" {
		out = append(out, n)
	}
	if !a.PCIInferred.IsZero() {
		out = append(out, "PCI ID inferred as "+a.PCIInferred.String()+" from "+a.PCIInferredFrom)
	}
	if len(a.PCIUnchecked) > 0 {
		out = append(out, a.PCIUncheckedWhy)
	}
	if a.DMIUnchecked {
		out = append(out, a.DMINote())
	}
	return append(out, a.Other...)
}

// NoteAPSTAUnknown is the sentence of Assumptions.APSTAUnknown.
const NoteAPSTAUnknown = "the capture does not record APSTA; APST support was assumed"

// ReleaseNote is the sentence of ReleaseUnknown or BaseUnknown, "" when
// neither is set.
func (a Assumptions) ReleaseNote() string {
	switch {
	case a.BaseUnknown:
		return baseStakeNote(a.Release, a.AtStake)
	case a.ReleaseUnknown:
		return "kernel release unknown: assumed the newest quirk tables (Linux " + a.Tables.String() +
			"); the release decides " + strings.Join(a.AtStake, "; ")
	}
	return ""
}

// DMINote is the sentence of DMIUnchecked, "" when it is not set.
func (a Assumptions) DMINote() string {
	if !a.DMIUnchecked {
		return ""
	}
	return "DMI rules not checked: the machine is unknown (a capture carries no DMI data); rules that could apply: " +
		strings.Join(a.DMIRules, "; ")
}

// CommonAssumptions returns the assumptions every one of as records, part by
// part (APSTA, the release, the inferred PCI ID, the unchecked PCI quirks,
// DMI, each Other sentence): what an output covering several answers (the
// configurations of a comparison, the drives of a fleet) says once. The
// zero Assumptions when as is empty.
func CommonAssumptions(as []Assumptions) Assumptions {
	if len(as) == 0 {
		return Assumptions{}
	}
	c := clone(as[0])
	for i := 1; i < len(as); i++ {
		c = c.intersect(&as[i])
	}
	return c
}

// Without returns a without the parts that common records too: what one
// answer adds to the assumptions it shares with the others.
func (a Assumptions) Without(common Assumptions) Assumptions {
	out := clone(a)
	if common.APSTAUnknown {
		out.APSTAUnknown = false
	}
	if a.ReleaseNote() != "" && a.ReleaseNote() == common.ReleaseNote() {
		out.ReleaseUnknown, out.BaseUnknown, out.Release, out.Tables, out.AtStake = false, false, Release{}, Release{}, nil
	}
	if !a.PCIInferred.IsZero() && a.PCIInferred == common.PCIInferred && a.PCIInferredFrom == common.PCIInferredFrom {
		out.PCIInferred, out.PCIInferredFrom = PCIID{}, ""
	}
	if len(a.PCIUnchecked) > 0 && a.PCIUncheckedWhy == common.PCIUncheckedWhy {
		out.PCIUnchecked, out.PCIUncheckedWhy = nil, ""
	}
	if a.DMIUnchecked && a.DMINote() == common.DMINote() {
		out.DMIUnchecked, out.DMIRules = false, nil
	}
	if slices.Equal(a.MachineDMIRules, common.MachineDMIRules) {
		out.MachineDMIRules = nil
	}
	out.Other = slices.DeleteFunc(out.Other, func(s string) bool { return slices.Contains(common.Other, s) })
	if len(out.Other) == 0 {
		out.Other = nil
	}
	return out
}

// intersect keeps the parts of a that b records as well.
func (a Assumptions) intersect(b *Assumptions) Assumptions {
	c := a
	c.APSTAUnknown = a.APSTAUnknown && b.APSTAUnknown
	if a.ReleaseNote() != b.ReleaseNote() {
		c.ReleaseUnknown, c.BaseUnknown, c.Release, c.Tables, c.AtStake = false, false, Release{}, Release{}, nil
	}
	if a.PCIInferred != b.PCIInferred || a.PCIInferredFrom != b.PCIInferredFrom {
		c.PCIInferred, c.PCIInferredFrom = PCIID{}, ""
	}
	if a.PCIUncheckedWhy != b.PCIUncheckedWhy {
		c.PCIUnchecked, c.PCIUncheckedWhy = nil, ""
	}
	if a.DMINote() != b.DMINote() {
		c.DMIUnchecked, c.DMIRules = false, nil
	}
	if !slices.Equal(a.MachineDMIRules, b.MachineDMIRules) {
		c.MachineDMIRules = nil
	}
	c.Other = nil
	for _, s := range a.Other {
		if slices.Contains(b.Other, s) {
			c.Other = append(c.Other, s)
		}
	}
	return c
}

// clone copies a's slices.
func clone(a Assumptions) Assumptions {
	a.AtStake = slices.Clone(a.AtStake)
	a.PCIUnchecked = slices.Clone(a.PCIUnchecked)
	a.DMIRules = slices.Clone(a.DMIRules)
	a.MachineDMIRules = slices.Clone(a.MachineDMIRules)
	a.Other = slices.Clone(a.Other)
	return a
}

// Assumptions returns what plan p assumed of controller c, the controller
// it was built for: APSTA (AssumedAPSTA) and what its quirk lookup
// (Plan.Quirks) assumed. A plan whose quirks were given
// (Params.QuirksGiven) assumed nothing of the quirk tables. The zero Plan
// assumed nothing.
func (p *Plan) Assumptions(c *powerstate.Controller) Assumptions {
	a := Assumptions{APSTAUnknown: p.AssumedAPSTA}
	l := &p.Quirks
	if l.Skipped || l.Tables.IsZero() || c == nil {
		return a
	}
	model := strings.TrimRight(c.Model, " \x00")
	f := lookupFacts{
		vendor: c.VendorID, ssvid: otherVendor(c.SubsystemVendorID, c.VendorID), model: model, firmware: strings.TrimRight(c.Firmware, " \x00"),
		pci: l.PCI, release: p.Params.Release, tables: l.Tables, dmiKnown: false,
		unchecked: l.UncheckedPCI(),
	}
	if l.Inferred {
		f.inferredFrom = l.InferredFrom(model)
	}
	f.fill(&a, l.Notes(model))
	return a
}

// Assumptions returns what the lookup assumed: the release or its base,
// the PCI ID, DMI and the other notes of the lookup. APSTAUnknown is false
// (a lookup does not read APSTA). The zero QuirkMatch assumed nothing.
func (m *QuirkMatch) Assumptions() Assumptions {
	var a Assumptions
	if m.Tables.IsZero() {
		return a
	}
	f := lookupFacts{
		vendor: m.id.VendorID, ssvid: otherVendor(m.id.SubsystemVendorID, m.id.VendorID), model: strings.TrimRight(m.id.Model, " \x00"),
		firmware: strings.TrimRight(m.id.Firmware, " \x00"),
		pci:      m.id.PCI, release: m.id.Release, tables: m.Tables, dmiKnown: !m.id.DMI.IsZero(),
		unchecked: slices.Clone(m.UncheckedPCI), inferredFrom: m.InferredFrom,
	}
	if !m.InferredPCI.IsZero() {
		f.pci = m.InferredPCI
	}
	f.fill(&a, m.Notes)
	return a
}

// otherVendor is ssvid when it is known and differs from vid, else 0.
func otherVendor(ssvid, vid uint16) uint16 {
	if ssvid == vid {
		return 0
	}
	return ssvid
}

// lookupFacts is what a quirk lookup knew and found, for Assumptions.
type lookupFacts struct {
	vendor          uint16
	ssvid           uint16 // Identify SSVID, when it differs from vendor; 0 otherwise
	model, firmware string // trimmed
	pci             PCIID  // known or inferred; zero when neither
	inferredFrom    string // "" when pci was not inferred
	release, tables Release
	dmiKnown        bool
	unchecked       []PCIID
}

// fill records the facts in a; notes are the lookup's sentences, of which
// those not said by a field go to Other.
func (f *lookupFacts) fill(a *Assumptions, notes []string) {
	said := []string{noteDMIUnchecked}
	if _, n := f.release.tables(); n != "" && (f.release.IsZero() || f.release.BaseUnknown) {
		said = append(said, n)
	}
	switch {
	case f.release.IsZero():
		if stake := f.releaseStake(); len(stake) > 0 {
			a.ReleaseUnknown, a.Tables, a.AtStake = true, f.tables, stake
		}
	case f.release.BaseUnknown:
		// Only the entries that differ within the series and could apply
		// to this controller are at stake; none, and the base cannot
		// change the answer.
		if stake := f.release.seriesChanges(f.mayApplyAny); len(stake) > 0 {
			a.BaseUnknown, a.Release, a.Tables, a.AtStake = true, f.release, f.tables, stake
		}
	}
	if f.inferredFrom != "" {
		a.PCIInferred, a.PCIInferredFrom = f.pci, f.inferredFrom
		said = append(said, "PCI ID inferred as "+f.pci.String()+" from "+f.inferredFrom)
	}
	if len(f.unchecked) > 0 {
		for _, id := range f.unchecked {
			if id.Vendor != f.vendor {
				a.PCIUncheckedSSVID = id.Vendor
			}
		}
		a.PCIUnchecked = f.unchecked
		a.PCIUncheckedWhy = uncheckedNote(f.vendor, f.unchecked)
		said = append(said, a.PCIUncheckedWhy)
	}
	if !f.dmiKnown {
		if rules := f.dmiStake(false); len(rules) > 0 {
			a.DMIUnchecked, a.DMIRules = true, rules
		}
		a.MachineDMIRules = f.dmiStake(true)
	}
	for _, n := range notes {
		if !slices.Contains(said, n) && !strings.HasPrefix(n, "quirk tables not consulted") {
			a.Other = append(a.Other, n)
		}
	}
}

// mayApply reports whether entry e (not a DMI rule) could apply to the
// controller: a core_quirks entry matching its VID, model and firmware, an
// ID table entry for its PCI ID, or, the PCI ID unknown, for one of its
// vendor's IDs that the model does not rule out.
func (f *lookupFacts) mayApply(e *QuirkEntry) bool {
	switch e.Table {
	case tableCore:
		return e.VendorID == f.vendor && fieldMatches(f.model, e.Model) && fieldMatches(f.firmware, e.Firmware)
	case tablePCI:
		if !f.pci.IsZero() {
			return e.Device == f.pci
		}
		return e.Device.Vendor == f.vendor && !ruledOut(f.vendor, f.model, e.Device)
	case tableDMI:
		if e.Device.IsZero() {
			return true
		}
		if !f.pci.IsZero() {
			return e.Device == f.pci
		}
		return (e.Device.Vendor == f.vendor || f.ssvid != 0 && e.Device.Vendor == f.ssvid) && !ruledOut(e.Device.Vendor, f.model, e.Device)
	}
	return false
}

// mayApplyAny is mayApply for entries of every table, without the DMI rules
// that take every device of one machine model (MachineDMIRules).
func (f *lookupFacts) mayApplyAny(e *QuirkEntry) bool {
	if e.Table == tableDMI && e.Device.IsZero() {
		return false
	}
	return e.Quirks.APST() != 0 && f.mayApply(e)
}

// releaseStake names the entries (DMI rules aside: DMINote names those)
// that could apply to the controller and are not in every release with
// APST: what an unknown release decides.
func (f *lookupFacts) releaseStake() []string {
	var out []string
	for i := range quirkHistory {
		e := &quirkHistory[i]
		if e.Table == tableDMI || e.Quirks.APST() == 0 || !f.mayApply(e) {
			continue
		}
		always := e.Added.Compare(firstAPSTRelease) <= 0 && e.Removed.IsZero() && len(e.Dropped) == 0
		never := !e.Removed.IsZero() && e.Removed.Compare(e.Added) <= 0 && len(e.Backports) == 0
		if always || never {
			continue
		}
		out = append(out, entryName(e)+" ("+e.Quirks.APST().String()+"; "+entrySpan(e)+")")
	}
	return out
}

// dmiStake names the DMI rules of the tables used that could apply to the
// controller, with their quirks.
//
// With machine false they are the rules that name the controller's PCI ID
// (a drive on one machine model); with machine true the rules that take
// every NVMe device of one machine model, which are no caveat of one drive.
func (f *lookupFacts) dmiStake(machine bool) []string {
	var out []string
	for i := range quirkHistory {
		e := &quirkHistory[i]
		if e.Table != tableDMI || !e.In(f.tables) || e.Device.IsZero() != machine || !f.mayApply(e) {
			continue
		}
		out = append(out, entryName(e)+" ("+e.Quirks.APST().String()+")")
	}
	return out
}

// entryName is an entry's PCI ID (where it has one) and note.
func entryName(e *QuirkEntry) string {
	if e.Device.IsZero() {
		return e.Note
	}
	return e.Device.String() + " " + e.Note
}

// entrySpan says in which releases an entry is: "since 4.12", "5.18 to
// 5.19", with its stable backports.
func entrySpan(e *QuirkEntry) string {
	s := "since " + e.Added.String()
	if !e.Removed.IsZero() {
		s = "in " + e.Added.String() + " until " + e.Removed.String()
	}
	if len(e.Backports) > 0 {
		b := make([]string, len(e.Backports))
		for i, r := range e.Backports {
			b[i] = r.String()
		}
		s += ", backported to " + strings.Join(b, ", ")
	}
	return s
}
