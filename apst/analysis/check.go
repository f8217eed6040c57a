package analysis

import (
	"errors"
	"fmt"
	"math/bits"
	"sort"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// ErrInvalidFeature is returned by Check for a drive feature whose APSTE is
// not one of apst.APSTEUnknown, apst.APSTEDisabled and apst.APSTEEnabled.
var ErrInvalidFeature = errors.New("analysis: invalid APST feature")

// Check compares the APST feature a drive holds (Get Features FID 0Ch:
// APSTE and the 256-byte table) with the plan Build returns for controller
// c under parameters p, and lists the configurations under which the kernel
// programs what the drive holds.
//
// Comparison: every entry is compared in all 64 bits, or in ITPS and ITPT
// only (apst.EntryMask) when drive.Masked, by what it does: an entry whose
// idle time (ITPT) is 0 never fires, so two entries with ITPT 0 are
// equivalent whatever else they hold (a drive that answers 0x20, ITPS 4
// and ITPT 0, for an entry the kernel zeroes matches), and a note lists
// such entries; the entries of drive.Unknown (a
// partial capture) are not compared; APSTE is compared unless
// drive.APSTE is apst.APSTEUnknown. Verdict.Notes says what was not
// compared or was assumed. When the kernel sends nothing (APSTA 0, NPSS
// above 31) the drive is compared with the plan's zero table and APSTE 0,
// and a note says that the drive keeps its own setting.
//
// Reproduction: Check sweeps the whole bound range (Intervals) for each of
// these configurations, the parameters given first, and keeps the bound
// ranges whose plan is sent and equals the drive's feature as compared:
//
//   - the generation: p's, then the others of apst.Generations() (a
//     configuration of another generation has no Release: a release runs
//     one generation; the quirks p carries stay);
//   - for Current, the apst_* module parameters: p's, the kernel defaults,
//     apst_primary_timeout_ms=0 (the 2% heuristic),
//     apst_secondary_timeout_ms=0 (no secondary band), and the values of
//     each Current preset of apst.Policies() (the Windows schemes);
//     the other generations do not read them and keep p's;
//   - the APST quirks: p's, with NO_APST toggled, with NO_DEEPEST_PS
//     toggled, with both toggled;
//   - force_apst: p's, then the other value (not for V4_11, which has
//     none).
//
// Every combination is tried. A combination is listed only when no
// combination with a subset of its changes reproduces the feature over the
// same bounds (so an irrelevant change, say a quirk on a state no bound
// reaches, is not listed as a cause). The list is ordered by the number of
// changes (a bound range without p.Bound counts as one), then, among as
// many changes, a quirk the kernel's tables give this controller
// (apst.DriveQuirks, or any when its vendor's PCI IDs went unchecked) that
// keeps p.Bound first: the bound is what the user set and can read back,
// so a missing quirk consistent with it is the more likely cause (the
// Intel 600p checked without its quirk: NO_DEEPEST_PS before a bound below
// ps4's exit latency), then by the order above, then
// by bound, and holds no duplicates. ReproducedBy[0] is the most likely
// cause. Each Reason names the
// changes ("ps_max_latency_us 43000us..unlimited instead of 25000us;
// nvme_core.force_apst=Y"), or says "the parameters given".
//
// Check is pure and safe for concurrent use. It returns an error for a nil
// controller, parameters Build rejects, or an invalid drive.APSTE.
func Check(c *powerstate.Controller, p apst.Params, drive apst.Feature) (Verdict, error) {
	v := Verdict{Drive: drive}
	if c == nil {
		return v, fmt.Errorf("analysis: check: %w", apst.ErrNilController)
	}
	switch drive.APSTE {
	case apst.APSTEUnknown, apst.APSTEDisabled, apst.APSTEEnabled:
	default:
		return v, fmt.Errorf("%w: APSTE %d, want unknown, disabled or enabled", ErrInvalidFeature, uint8(drive.APSTE))
	}
	plan, err := apst.Build(c, p)
	if err != nil {
		return v, fmt.Errorf("analysis: check: %w", err)
	}
	v.Expected = plan
	mask := compareMask(&drive)
	if drive.APSTE != apst.APSTEUnknown && (drive.APSTE == apst.APSTEEnabled) != plan.Enabled {
		v.APSTEDiffers = true
	}
	var inert apst.States
	for i := range plan.Table {
		if drive.Unknown.Has(uint8(i)) {
			continue
		}
		want, got := plan.Table[i]&mask, drive.Table[i]&mask
		switch {
		case want == got:
		case sameEffect(want, got):
			inert |= 1 << i
		default:
			d := EntryDiff{State: uint8(i), Expected: want, Drive: got}
			explainDiff(c, &plan, &d)
			v.Differences = append(v.Differences, d)
		}
	}
	v.Match = !v.APSTEDiffers && len(v.Differences) == 0
	v.Notes = checkNotes(&plan, &drive)
	if inert != 0 {
		what, verb := "entries", "differ"
		if inert.Len() == 1 {
			what, verb = "entry", "differs"
		}
		v.Notes = append(v.Notes, fmt.Sprintf("%s %s %s from the kernel's only with an idle time (ITPT) of 0 on both sides: an entry with ITPT 0 never fires, whatever its target (ITPS), so this is not a mismatch", what, entryRanges(inert), verb))
	}
	// The candidates toggle the quirks Build applied (the tables' unless
	// p gives them), so they start from that set, given.
	base := p
	base.Quirks, base.QuirksGiven = plan.Quirks.Applied, true
	v.ReproducedBy = reproductions(c, base, &drive, mask)
	for i := range v.ReproducedBy {
		// A reproduction that keeps the quirks and the release keeps them
		// as p states them (the tables' lookup, or a set given).
		r := &v.ReproducedBy[i].Params
		if r.Quirks == base.Quirks && r.Release == p.Release {
			r.Quirks, r.QuirksGiven = p.Quirks, p.QuirksGiven
		}
	}
	if len(v.ReproducedBy) == 0 {
		v.Notes = append(v.Notes, "no configuration tried (bound, generation, apst_* parameters, APST quirks, force_apst) makes the kernel program what the drive holds: a user-space Set Features, a vendor tool or the firmware wrote it")
	}
	return v, nil
}

// sameEffect reports whether entries a and b (as compared) do the same:
// equal, or both with an idle time (ITPT) of 0, which never fire whatever
// their target (ITPS) or reserved bits hold.
func sameEffect(a, b apst.Entry) bool {
	return a == b || (!a.Transitions() && !b.Transitions())
}

// compareMask is the part of each entry the drive's feature records.
func compareMask(f *apst.Feature) apst.Entry {
	if f.Masked {
		return apst.EntryMask
	}
	return ^apst.Entry(0)
}

// checkNotes says what the comparison assumed or left out.
func checkNotes(plan *apst.Plan, drive *apst.Feature) []string {
	var notes []string
	if drive.APSTE == apst.APSTEUnknown {
		notes = append(notes, "the drive's APSTE (bit 0 of completion dword 0) is unknown: the capture did not record it, so only the table was compared")
	}
	if drive.Unknown != 0 {
		what := "APSTE only"
		if drive.APSTE == apst.APSTEUnknown {
			what = "nothing"
		}
		if n := apst.Entries - drive.Unknown.Len(); n > 0 {
			what = "entries " + entryRanges(^drive.Unknown)
			if drive.APSTE != apst.APSTEUnknown {
				what += " and APSTE"
			}
		}
		notes = append(notes, fmt.Sprintf("the capture does not show entries %s: they are unknown and were not compared (compared: %s)",
			entryRanges(drive.Unknown), what))
	}
	if drive.Masked {
		notes = append(notes, "the capture gives only ITPS and ITPT of each entry: bits 2:0 and 63:32 were not compared")
		for _, e := range plan.Table {
			if e.Reserved() != 0 {
				notes = append(notes, "the kernel's table sets bits 63:32 (an idle time of 2^24 ms or more spills out of ITPT), which a masked capture cannot show")
				break
			}
		}
	}
	if !plan.Sent {
		notes = append(notes, fmt.Sprintf("the kernel sends no APST configuration (%s): the drive keeps its own, and was compared with a zero table and APSTE 0", plan.Outcome))
	}
	return notes
}

// entryRanges lists the entries of set as ranges, "0-3, 7".
func entryRanges(set apst.States) string {
	var parts []string
	for i := 0; i < apst.Entries; {
		if !set.Has(uint8(i)) {
			i++
			continue
		}
		j := i
		for j+1 < apst.Entries && set.Has(uint8(j+1)) {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", i, j))
		} else {
			parts = append(parts, fmt.Sprint(i))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// checkCandidate is one configuration Check tries: its parameters and
// which alternative it takes on each dimension (0 = as given).
type checkCandidate struct {
	p      apst.Params
	gen    int         // index into the generations tried; 0 is p's
	mod    int         // index into the module-parameter sets; 0 is p's
	quirks apst.Quirks // APST quirk bits toggled
	force  bool        // force_apst toggled
	set    *moduleSet  // the module-parameter set, for its description
}

// why describes how k departs from base, one phrase per change (built only
// for the candidates that are reported).
func (k *checkCandidate) why(base *apst.Params) []string {
	var out []string
	if k.gen != 0 {
		out = append(out, fmt.Sprintf("kernel %s instead of %s", k.p.Generation, kernelName(base)))
	}
	if k.mod != 0 {
		out = append(out, k.set.describe())
	}
	for _, q := range []apst.Quirks{apst.QuirkNoAPST, apst.QuirkNoDeepestPS} {
		if k.quirks&q == 0 {
			continue
		}
		verb := "removed"
		if k.p.Quirks&q != 0 {
			verb = "added"
		}
		out = append(out, fmt.Sprintf("%s quirk %s", q, verb))
	}
	if k.force {
		out = append(out, "nvme_core.force_apst="+yesNo(k.p.ForceAPST))
	}
	return out
}

// cost is the number of dimensions on which the candidate departs from the
// parameters given.
func (k *checkCandidate) cost() int {
	n := 0
	if k.gen != 0 {
		n++
	}
	if k.mod != 0 {
		n++
	}
	n += bits.OnesCount32(uint32(k.quirks))
	if k.force {
		n++
	}
	return n
}

// within reports whether every change of k is also a change of o: k departs
// from the parameters given in a subset of the ways o does.
func (k *checkCandidate) within(o *checkCandidate) bool {
	return (k.gen == 0 || k.gen == o.gen) && (k.mod == 0 || k.mod == o.mod) &&
		k.quirks&^o.quirks == 0 && (!k.force || o.force)
}

// moduleSet is one set of the four apst_* module parameters, with what it
// is: a fixed phrase, or the preset it comes from.
type moduleSet struct {
	pt, st     apst.Milliseconds
	ptol, stol apst.Microseconds
	label      string
	preset     string
}

func moduleOf(p apst.Params) moduleSet {
	return moduleSet{pt: p.PrimaryTimeout, st: p.SecondaryTimeout, ptol: p.PrimaryTolerance, stol: p.SecondaryTolerance}
}

// describe names the set.
func (m *moduleSet) describe() string {
	if m.preset == "" {
		return m.label
	}
	return fmt.Sprintf("the apst_* values of preset %s (primary %s/%s, secondary %s/%s)", m.preset, m.pt, m.ptol, m.st, m.stol)
}

func (m moduleSet) apply(p *apst.Params) {
	p.PrimaryTimeout, p.SecondaryTimeout, p.PrimaryTolerance, p.SecondaryTolerance = m.pt, m.st, m.ptol, m.stol
}

func (m moduleSet) same(o moduleSet) bool {
	return m.pt == o.pt && m.st == o.st && m.ptol == o.ptol && m.stol == o.stol
}

// moduleSets lists the apst_* sets tried for Current, p's first, without
// repeats.
func moduleSets(p apst.Params) []moduleSet {
	sets := []moduleSet{moduleOf(p)}
	add := func(m moduleSet) {
		for _, s := range sets {
			if s.same(m) {
				return
			}
		}
		sets = append(sets, m)
	}
	d := moduleOf(apst.DefaultParams(apst.Current))
	d.label = "the default apst_* module parameters (100ms/15000us, 2000ms/100000us)"
	add(d)
	if p.PrimaryTimeout != 0 {
		m := moduleOf(p)
		m.pt = 0
		m.label = "apst_primary_timeout_ms=0 (the 2% heuristic)"
		add(m)
	}
	if p.SecondaryTimeout != 0 {
		m := moduleOf(p)
		m.st = 0
		m.label = "apst_secondary_timeout_ms=0 (no secondary band)"
		add(m)
	}
	for _, pol := range apst.Policies() {
		if pol.Params.Generation != apst.Current {
			continue
		}
		m := moduleOf(pol.Params)
		m.preset = pol.Name
		add(m)
	}
	return sets
}

// checkCandidates lists every configuration Check tries, ordered by cost
// and then by the order of the dimensions in Check's documentation.
func checkCandidates(p apst.Params) []checkCandidate {
	gens := []apst.Generation{p.Generation}
	for _, g := range apst.Generations() {
		if g != p.Generation {
			gens = append(gens, g)
		}
	}
	mods := moduleSets(p)
	toggles := []apst.Quirks{0, apst.QuirkNoAPST, apst.QuirkNoDeepestPS, apst.QuirkNoAPST | apst.QuirkNoDeepestPS}
	var out []checkCandidate
	for gi, g := range gens {
		for mi := range mods {
			if mi != 0 && g != apst.Current {
				continue // only Current reads the apst_* parameters
			}
			for _, qt := range toggles {
				for _, ft := range []bool{false, true} {
					if ft && g == apst.V4_11 {
						continue // v4.11 has no force_apst
					}
					k := checkCandidate{p: p, gen: gi, mod: mi, quirks: qt, force: ft, set: &mods[mi]}
					if gi != 0 {
						k.p = withGeneration(k.p, g)
					}
					mods[mi].apply(&k.p)
					k.p.Quirks ^= qt
					if ft {
						k.p.ForceAPST = !p.ForceAPST
					}
					out = append(out, k)
				}
			}
		}
	}
	// sort.SliceStable, not slices.SortStableFunc: the one reflective sort
	// every element type shares (the page's wasm pays some 9 KB for each
	// generic instantiation).
	sort.SliceStable(out, func(i, j int) bool { return out[i].cost() < out[j].cost() })
	return out
}

// withGeneration returns p for generation g. A release runs one
// generation, so p's release is dropped (the quirks it selected stay in
// p.Quirks).
func withGeneration(p apst.Params, g apst.Generation) apst.Params {
	p.Generation = g
	p.Release = apst.Release{}
	return p
}

// kernelName names the kernel of p: "current", or "6.8 (current)" when the
// release is known.
func kernelName(p *apst.Params) string {
	if p.Release.IsZero() {
		return p.Generation.String()
	}
	return p.Release.String() + " (" + p.Generation.String() + ")"
}

func yesNo(b bool) string {
	if b {
		return "Y"
	}
	return "N"
}

// found is a reproduction with the candidate it came from.
type found struct {
	k  int // index into the candidates
	iv Reproduction
}

// reproductions tries every candidate and keeps the minimal ones.
func reproductions(c *powerstate.Controller, p apst.Params, drive *apst.Feature, mask apst.Entry) []Reproduction {
	cands := checkCandidates(p)
	var all []found
	for ki := range cands {
		k := &cands[ki]
		seq, err := Intervals(c, k.p)
		if err != nil {
			continue // cannot happen: only valid generations are tried
		}
		var cur *found
		for iv := range seq {
			if !reproduces(&iv.Plan, drive, mask) {
				cur = nil
				continue
			}
			if cur != nil && cur.iv.Max != apst.NoLimit && cur.iv.Max+1 == iv.Min {
				cur.iv.Max = iv.Max
				continue
			}
			all = append(all, found{k: ki, iv: Reproduction{Min: iv.Min, Max: iv.Max}})
			cur = &all[len(all)-1]
		}
	}
	var out []Reproduction
	var costs []int
	var favoured []bool
	// Quirks the kernel's tables could give this controller: its lookup's,
	// or any when the vendor has quirked PCI IDs left unchecked.
	lookup := apst.DriveQuirks(c, p.Release)
	missingQuirk := func(k *checkCandidate) bool {
		added := k.p.Quirks.APST() &^ p.Quirks.APST()
		return added != 0 && (added&^lookup.APST() == 0 || len(lookup.UncheckedPCI) > 0)
	}
	seen := make(map[apst.Params]bool)
	for i, f := range all {
		if redundant(cands, all, i) {
			continue
		}
		r := f.iv
		r.Params = cands[f.k].p
		r.Params.Bound = representative(p.Bound, r.Params.Generation, r.Min, r.Max)
		if seen[r.Params] {
			continue
		}
		seen[r.Params] = true
		why := cands[f.k].why(&p)
		cost := cands[f.k].cost()
		if !r.Contains(p.Bound) {
			why = append([]string{fmt.Sprintf("ps_max_latency_us %s..%s instead of %s", r.Min, r.Max, p.Bound)}, why...)
			cost++
		}
		r.Reason = "the parameters given"
		if len(why) > 0 {
			r.Reason = strings.Join(why, "; ")
		}
		out = append(out, r)
		costs = append(costs, cost)
		favoured = append(favoured, r.Contains(p.Bound) && missingQuirk(&cands[f.k]))
	}
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	sortIndexes(idx, func(a, b int) int {
		if costs[a] != costs[b] {
			return costs[a] - costs[b]
		}
		// On a tie, a quirk the tables give this controller that keeps the
		// bound given first: the bound is what the user set and can read
		// back, so a missing quirk that explains the drive without
		// contradicting it is the more likely cause.
		ka, kb := favoured[a], favoured[b]
		switch {
		case ka && !kb:
			return -1
		case kb && !ka:
			return 1
		}
		return 0
	})
	sorted := make([]Reproduction, len(out))
	for i, j := range idx {
		sorted[i] = out[j]
	}
	return sorted
}

// redundant reports whether a candidate with a strict subset of the changes
// of all[i]'s candidate reproduces the feature over all[i]'s whole range.
func redundant(cands []checkCandidate, all []found, i int) bool {
	f := &all[i]
	k := &cands[f.k]
	for j := range all {
		o := &all[j]
		if o.k == f.k || !cands[o.k].within(k) {
			continue
		}
		if o.iv.Min <= f.iv.Min && f.iv.Max <= o.iv.Max {
			return true
		}
	}
	return false
}

// representative picks the bound a reproduction's Params carry: the bound
// given when it is in range, else the generation's default bound when it
// is, else the smallest.
func representative(given apst.Microseconds, g apst.Generation, lo, hi apst.Microseconds) apst.Microseconds {
	if lo <= given && given <= hi {
		return given
	}
	if d := apst.DefaultParams(g).Bound; lo <= d && d <= hi {
		return d
	}
	return lo
}

// reproduces reports whether the kernel, with plan, programs what the
// drive holds (as far as the feature records it).
func reproduces(plan *apst.Plan, drive *apst.Feature, mask apst.Entry) bool {
	if !plan.Sent {
		return false
	}
	if drive.APSTE != apst.APSTEUnknown && (drive.APSTE == apst.APSTEEnabled) != plan.Enabled {
		return false
	}
	for i := range plan.Table {
		if !sameEffect(plan.Table[i]&mask, drive.Table[i]&mask) && !drive.Unknown.Has(uint8(i)) {
			return false
		}
	}
	return true
}

// Holds reports whether the drive's feature holds plan as Check compares
// them: the same APSTE (unless the drive's is unknown) and, entry by entry,
// the same bits the feature records, entries it did not record skipped and
// two entries that never fire (ITPT 0) equal. It is Check's Match without
// the explanation of each difference and the search for configurations
// that reproduce the drive's table: an exporter asks it on every scrape.
// It does not allocate. A nil plan or drive holds nothing.
func Holds(plan *apst.Plan, drive *apst.Feature) bool {
	if plan == nil || drive == nil {
		return false
	}
	if drive.APSTE != apst.APSTEUnknown && (drive.APSTE == apst.APSTEEnabled) != plan.Enabled {
		return false
	}
	mask := compareMask(drive)
	for i := range plan.Table {
		if drive.Unknown.Has(uint8(i)) {
			continue
		}
		if want, got := plan.Table[i]&mask, drive.Table[i]&mask; !sameEffect(want, got) {
			return false
		}
	}
	return true
}
