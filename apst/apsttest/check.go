package apsttest

import (
	"errors"
	"fmt"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Invariant names one property every plan Build returns has
// (kernel-apst.md §4). Check tests them in the order of Invariants.
type Invariant string

// The invariants Check tests, in order.
const (
	// InvInputs: the plan records the inputs (Params, Mode, NPSS) it was
	// built from.
	InvInputs Invariant = "inputs"
	// InvQuirks: the plan records the quirk lookup (Plan.Quirks): skipped
	// exactly when the quirks were given, the quirks applied, and what
	// apst.DriveQuirks says of the same controller and release.
	InvQuirks Invariant = "quirks"
	// InvSent: the table is sent exactly when APSTA is non-zero (or
	// unknown) and NPSS is at most 31, and never enabled when not sent.
	InvSent Invariant = "sent"
	// InvOutcome: the outcome agrees with Sent, Enabled and MaxPS.
	InvOutcome Invariant = "outcome"
	// InvBoundZero: a bound of 0 never enables APST.
	InvBoundZero Invariant = "bound-zero"
	// InvZeroTable: APSTE 0 means an all-zero table.
	InvZeroTable Invariant = "apste-0-zero-table"
	// InvReasons: states above NPSS are beyond-npss, states of a plan that
	// is not enabled are not-evaluated, and the states an enabled plan walks
	// have a verdict of the walk.
	InvReasons Invariant = "reasons"
	// InvSelectedNonOperational: only non-operational states are selected.
	InvSelectedNonOperational Invariant = "selected-non-operational"
	// InvSelectedWithinBound: no selected state has a gate latency (EXLAT,
	// ENLAT+EXLAT for V4_11) above the bound.
	InvSelectedWithinBound Invariant = "selected-within-bound"
	// InvNoDeepestPS: under NO_DEEPEST_PS, unless force_apst cancels it,
	// state NPSS is not selected.
	InvNoDeepestPS Invariant = "no-deepest-ps"
	// InvBands: only the tolerance mode has band targets, at most one
	// primary and one secondary (so at most two targets), the secondary
	// deeper than the primary.
	InvBands Invariant = "bands"
	// InvMaxPS: MaxPS is the deepest selected state, -1 when none is.
	InvMaxPS Invariant = "max-ps"
	// InvMaxRoundTrip: MaxRoundTrip is the largest ENLAT+EXLAT of the
	// selected states, 0 when none is.
	InvMaxRoundTrip Invariant = "max-round-trip"
	// InvDeepestZero: the deepest selected state's entry and every deeper
	// entry are zero.
	InvDeepestZero Invariant = "deepest-entry-zero"
	// InvEntryDeeper: every non-zero entry targets a deeper state that
	// exists (at most NPSS).
	InvEntryDeeper Invariant = "entry-deeper"
	// InvEntryTarget: every non-zero entry targets a selected,
	// non-operational state within the bound.
	InvEntryTarget Invariant = "entry-target"
	// InvEntries: each entry shallower than MaxPS is (target << 3) |
	// (idle << 8) for the nearest deeper selected state, its idle time the
	// primary or secondary timeout or the heuristic's ceil(total/20) ms
	// capped at MaxITPT.
	InvEntries Invariant = "entries"
)

// Invariants lists every invariant in the order Check tests them.
func Invariants() []Invariant {
	return []Invariant{
		InvInputs, InvQuirks, InvSent, InvOutcome, InvBoundZero, InvZeroTable, InvReasons,
		InvSelectedNonOperational, InvSelectedWithinBound, InvNoDeepestPS, InvBands,
		InvMaxPS, InvMaxRoundTrip, InvDeepestZero, InvEntryDeeper, InvEntryTarget, InvEntries,
	}
}

// Violation is the error Check returns: the first invariant a plan breaks
// and how.
//
// The zero Violation names no invariant (none of Invariants) and no detail;
// Error still formats it.
type Violation struct {
	// Invariant is the invariant broken.
	Invariant Invariant
	// Detail says where, e.g. "entry 2 targets operational ps3".
	Detail string
}

// Error returns "apsttest: plan breaks invariant NAME: DETAIL".
func (v *Violation) Error() string {
	return "apsttest: plan breaks invariant " + string(v.Invariant) + ": " + v.Detail
}

// ErrNilInput is returned by Check for a nil controller or plan.
var ErrNilInput = errors.New("apsttest: nil controller or plan")

func broken(inv Invariant, format string, args ...any) error {
	return &Violation{Invariant: inv, Detail: fmt.Sprintf(format, args...)}
}

// Check returns nil when plan, said to be Build(c, p), has every
// single-plan invariant the project's property tests assert, and a
// *Violation naming the first broken one (in the order of Invariants)
// otherwise. It does not call Build: it checks a plan from anywhere against
// the rules, not against this package's replica. A nil c or plan is an
// error wrapping ErrNilInput.
func Check(c *powerstate.Controller, p apst.Params, plan *apst.Plan) error {
	if c == nil || plan == nil {
		return ErrNilInput
	}
	checks := [...]func(*powerstate.Controller, *apst.Params, *apst.Plan) error{
		checkInputs, checkSent, checkOutcome, checkBoundZero, checkZeroTable, checkReasons,
		checkSelected, checkNoDeepestPS, checkBands, checkMaxPS, checkMaxRoundTrip,
		checkDeepestZero, checkEntryTargets, checkEntries,
	}
	if err := checkInputs(c, &p, plan); err != nil {
		return err
	}
	// The other invariants read the quirks Build applied: p.Quirks as
	// given, or with those of the quirk tables (DriveQuirks).
	eff := p
	eff.Quirks, eff.QuirksGiven = EffectiveQuirks(c, p), true
	if err := checkQuirks(c, &p, eff.Quirks, plan); err != nil {
		return err
	}
	for _, f := range checks[1:] {
		if err := f(c, &eff, plan); err != nil {
			return err
		}
	}
	return nil
}

// EffectiveQuirks returns the quirk set Build applies for c under p:
// p.Quirks when p.QuirksGiven, otherwise p.Quirks with the quirks the
// tables of p.Release assign c ([apst.DriveQuirks]).
func EffectiveQuirks(c *powerstate.Controller, p apst.Params) apst.Quirks {
	if p.QuirksGiven {
		return p.Quirks
	}
	return p.Quirks | apst.DriveQuirks(c, p.Release).Quirks
}

func checkQuirks(c *powerstate.Controller, p *apst.Params, want apst.Quirks, plan *apst.Plan) error {
	l := &plan.Quirks
	switch {
	case l.Skipped != p.QuirksGiven:
		return broken(InvQuirks, "plan.Quirks.Skipped is %v with QuirksGiven %v", l.Skipped, p.QuirksGiven)
	case l.Applied != want:
		return broken(InvQuirks, "plan.Quirks.Applied is %s, want %s", l.Applied, want)
	}
	if p.QuirksGiven {
		return nil
	}
	m := apst.DriveQuirks(c, p.Release)
	switch {
	case l.Tables != m.Tables:
		return broken(InvQuirks, "plan.Quirks.Tables is %s, the lookup's %s", l.Tables, m.Tables)
	case l.Inferred != !m.InferredPCI.IsZero() || l.Inferred && l.PCI != m.InferredPCI:
		return broken(InvQuirks, "plan.Quirks inferred %v %s, the lookup %s", l.Inferred, l.PCI, m.InferredPCI)
	case fmt.Sprint(l.UncheckedPCI()) != fmt.Sprint(m.UncheckedPCI):
		return broken(InvQuirks, "plan.Quirks unchecked %v, the lookup's %v", l.UncheckedPCI(), m.UncheckedPCI)
	case fmt.Sprint(l.Notes(c.Model)) != fmt.Sprint(m.Notes):
		return broken(InvQuirks, "plan.Quirks notes %q, the lookup's %q", l.Notes(c.Model), m.Notes)
	}
	return nil
}

func checkInputs(c *powerstate.Controller, p *apst.Params, plan *apst.Plan) error {
	switch {
	case plan.Params != *p:
		return broken(InvInputs, "plan.Params %+v, want %+v", plan.Params, *p)
	case plan.Mode != p.Mode():
		return broken(InvInputs, "plan.Mode %s, want %s", plan.Mode, p.Mode())
	case plan.NPSS != c.NPSS:
		return broken(InvInputs, "plan.NPSS %d, want %d", plan.NPSS, c.NPSS)
	case plan.AssumedAPSTA != !c.APSTAKnown():
		return broken(InvInputs, "plan.AssumedAPSTA %v for a controller whose APSTA known is %v", plan.AssumedAPSTA, c.APSTAKnown())
	}
	return nil
}

// apstaZero reports whether the kernel sees APSTA as 0: known 0, or NO_APST
// in v4.11 (which cleared APSTA).
func apstaZero(c *powerstate.Controller, p *apst.Params) bool {
	if p.Generation == apst.V4_11 && p.Quirks&apst.QuirkNoAPST != 0 {
		return true
	}
	return c.APSTAKnown() && c.APSTA == 0
}

func checkSent(c *powerstate.Controller, p *apst.Params, plan *apst.Plan) error {
	want := !apstaZero(c, p) && c.NPSS < apst.Entries
	switch {
	case plan.Enabled && !plan.Sent:
		return broken(InvSent, "APSTE=1 but nothing is sent")
	case plan.Sent != want:
		return broken(InvSent, "Sent is %v with APSTA %#x (known %v), NPSS %d, generation %s, quirks %s", plan.Sent, c.APSTA, c.APSTAKnown(), c.NPSS, p.Generation, p.Quirks.APST())
	}
	return nil
}

func checkOutcome(c *powerstate.Controller, p *apst.Params, plan *apst.Plan) error {
	var want apst.Outcome
	switch {
	case !plan.Sent && apstaZero(c, p):
		want = apst.OutcomeUnsupported
	case !plan.Sent:
		want = apst.OutcomeInvalidNPSS
	case !plan.Enabled:
		want = apst.OutcomeDisabled
	case plan.MaxPS < 0:
		want = apst.OutcomeNoStates
	default:
		want = apst.OutcomeEnabled
	}
	if plan.Outcome != want {
		return broken(InvOutcome, "outcome %s, want %s (sent %v, enabled %v, max PS %d)", plan.Outcome, want, plan.Sent, plan.Enabled, plan.MaxPS)
	}
	return nil
}

func checkBoundZero(_ *powerstate.Controller, p *apst.Params, plan *apst.Plan) error {
	if p.Bound == 0 && plan.Enabled {
		return broken(InvBoundZero, "bound 0 but APSTE=1")
	}
	return nil
}

func checkZeroTable(_ *powerstate.Controller, _ *apst.Params, plan *apst.Plan) error {
	if plan.Enabled {
		return nil
	}
	for i, e := range plan.Table {
		if e != 0 {
			return broken(InvZeroTable, "APSTE=0 (outcome %s) but entry %d is %#x", plan.Outcome, i, uint64(e))
		}
	}
	return nil
}

// walked reports whether Build walked state s.
func walked(c *powerstate.Controller, s int) bool { return s <= int(c.NPSS) }

func checkReasons(c *powerstate.Controller, _ *apst.Params, plan *apst.Plan) error {
	for s, r := range plan.Reasons {
		switch {
		case !walked(c, s) && r != apst.ReasonBeyondNPSS:
			return broken(InvReasons, "ps%d is beyond NPSS %d but its reason is %s", s, c.NPSS, r)
		case !walked(c, s):
		case !plan.Enabled && r != apst.ReasonNotEvaluated:
			return broken(InvReasons, "ps%d of a plan that is not enabled has reason %s, want not-evaluated", s, r)
		case plan.Enabled && (r == apst.ReasonNotEvaluated || r == apst.ReasonBeyondNPSS):
			return broken(InvReasons, "ps%d of an enabled plan has reason %s", s, r)
		case plan.Enabled && r == apst.ReasonOperational && c.PowerStates[s].NonOperational:
			return broken(InvReasons, "ps%d is non-operational but its reason is operational", s)
		}
	}
	return nil
}

// gate is the latency the bound is compared with in p's generation.
func gate(d *powerstate.Descriptor, p *apst.Params) uint64 {
	if p.Generation == apst.V4_11 {
		return d.TotalLatency()
	}
	return uint64(d.ExitLatency)
}

func checkSelected(c *powerstate.Controller, p *apst.Params, plan *apst.Plan) error {
	for s, r := range plan.Reasons {
		if !r.Selected() {
			continue
		}
		d := &c.PowerStates[s]
		if !d.NonOperational {
			return broken(InvSelectedNonOperational, "operational ps%d is selected (%s)", s, r)
		}
		if g := gate(d, p); g > uint64(p.Bound) {
			return broken(InvSelectedWithinBound, "ps%d is selected but its gate latency %dus is above the bound %s", s, g, p.Bound)
		}
	}
	return nil
}

func checkNoDeepestPS(c *powerstate.Controller, p *apst.Params, plan *apst.Plan) error {
	forced := p.ForceAPST && p.Generation != apst.V4_11
	if p.Quirks&apst.QuirkNoDeepestPS != 0 && !forced && c.NPSS < apst.Entries && plan.Reasons[c.NPSS].Selected() {
		return broken(InvNoDeepestPS, "ps%d (NPSS) is selected (%s) under NO_DEEPEST_PS without force_apst", c.NPSS, plan.Reasons[c.NPSS])
	}
	return nil
}

func checkBands(_ *powerstate.Controller, _ *apst.Params, plan *apst.Plan) error {
	prim, sec, nPrim, nSec := -1, -1, 0, 0
	for s, r := range plan.Reasons {
		switch r {
		case apst.ReasonPrimary:
			prim, nPrim = s, nPrim+1
		case apst.ReasonSecondary:
			sec, nSec = s, nSec+1
		case apst.ReasonHeuristic:
			if plan.Mode == apst.ModeTolerance {
				return broken(InvBands, "ps%d is a heuristic target in tolerance mode", s)
			}
		}
	}
	switch {
	case nPrim+nSec > 0 && plan.Mode != apst.ModeTolerance:
		return broken(InvBands, "band targets in %s mode", plan.Mode)
	case nPrim > 1 || nSec > 1:
		return broken(InvBands, "%d primary and %d secondary targets, want at most one of each", nPrim, nSec)
	case prim >= 0 && sec >= 0 && sec <= prim:
		return broken(InvBands, "secondary target ps%d is not deeper than primary target ps%d", sec, prim)
	}
	return nil
}

func checkMaxPS(_ *powerstate.Controller, _ *apst.Params, plan *apst.Plan) error {
	if want := plan.Selected().Deepest(); plan.MaxPS != want {
		return broken(InvMaxPS, "MaxPS %d, but the deepest selected state is %d (selected %s)", plan.MaxPS, want, plan.Selected())
	}
	return nil
}

func checkMaxRoundTrip(c *powerstate.Controller, _ *apst.Params, plan *apst.Plan) error {
	var want uint64
	for s := range plan.Selected().All() {
		want = max(want, c.PowerStates[s].TotalLatency())
	}
	if uint64(plan.MaxRoundTrip) != want {
		return broken(InvMaxRoundTrip, "MaxRoundTrip %s, want %dus (the largest ENLAT+EXLAT of the selected states)", plan.MaxRoundTrip, want)
	}
	return nil
}

func checkEntryTargets(c *powerstate.Controller, p *apst.Params, plan *apst.Plan) error {
	for i, e := range plan.Table {
		if e == 0 {
			continue
		}
		tgt := int(e.TargetState())
		switch {
		case tgt <= i:
			return broken(InvEntryDeeper, "entry %d (%s) targets ps%d, which is not deeper", i, e, tgt)
		case tgt > int(c.NPSS):
			return broken(InvEntryDeeper, "entry %d (%s) targets ps%d beyond NPSS %d", i, e, tgt, c.NPSS)
		}
		d := &c.PowerStates[tgt]
		switch {
		case !d.NonOperational:
			return broken(InvEntryTarget, "entry %d (%s) targets operational ps%d", i, e, tgt)
		case gate(d, p) > uint64(p.Bound):
			return broken(InvEntryTarget, "entry %d (%s) targets ps%d whose gate latency %dus is above the bound %s", i, e, tgt, gate(d, p), p.Bound)
		case !plan.Reasons[tgt].Selected():
			return broken(InvEntryTarget, "entry %d (%s) targets ps%d, which is not selected (%s)", i, e, tgt, plan.Reasons[tgt])
		}
	}
	return nil
}

func checkDeepestZero(_ *powerstate.Controller, _ *apst.Params, plan *apst.Plan) error {
	from := plan.MaxPS
	if from < 0 {
		from = 0 // nothing selected: every entry is zero
	}
	for s := from; s < apst.Entries; s++ {
		if plan.Table[s] != 0 {
			return broken(InvDeepestZero, "entry %d is %#x, but ps%d is the deepest selected state", s, uint64(plan.Table[s]), plan.MaxPS)
		}
	}
	return nil
}

// idleOf is the idle time a selected state carries, from the rules.
func idleOf(c *powerstate.Controller, p *apst.Params, r apst.Reason, s int) apst.Milliseconds {
	switch r {
	case apst.ReasonPrimary:
		return p.PrimaryTimeout
	case apst.ReasonSecondary:
		return p.SecondaryTimeout
	}
	return min(apst.Milliseconds((c.PowerStates[s].TotalLatency()+19)/20), MaxITPT)
}

func checkEntries(c *powerstate.Controller, p *apst.Params, plan *apst.Plan) error {
	next := -1 // the nearest deeper selected state
	for s := plan.MaxPS - 1; s >= 0; s-- {
		if r := plan.Reasons[s+1]; r.Selected() {
			next = s + 1
		}
		if next < 0 {
			continue
		}
		want := apst.NewEntry(uint8(next), idleOf(c, p, plan.Reasons[next], next))
		if plan.Table[s] != want {
			return broken(InvEntries, "entry %d is %#x (%s), want %#x (%s): ps%d is the nearest deeper selected state (%s)",
				s, uint64(plan.Table[s]), plan.Table[s], uint64(want), want, next, plan.Reasons[next])
		}
	}
	return nil
}
