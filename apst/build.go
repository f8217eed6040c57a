package apst

import (
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// heuristicCap is the largest ITPT the heuristic produces (2^24-1 ms).
const heuristicCap = 0xffffff

// Plan is the result of Build: what nvme_configure_apst() sends to the
// controller and why.
//
// The zero Plan is no result of Build: it is what BuildTo leaves in *dst on
// error. It reads as OutcomeUnsupported (nothing sent, an all-zero Table),
// but its MaxPS is 0 where Build gives -1 for no selected state.
type Plan struct {
	// Params are the inputs Build used.
	Params Params
	// Mode is the algorithm that chose the idle times.
	Mode Mode
	// Outcome summarises what the kernel does.
	Outcome Outcome
	// Sent reports whether Set Features (FID 0Ch) is sent at all. It is
	// false when APSTA is 0 or NPSS is above 31.
	Sent bool
	// Enabled is APSTE, bit 0 of CDW11 of the Set Features command: it is
	// meaningful only when Sent is true. Enabled false with Sent true is
	// "APSTE=0 sent" (the kernel turns APST off on the drive); with Sent
	// false nothing is sent and the drive keeps whatever it held. Outcome
	// tells the cases apart in one value.
	Enabled bool
	// AssumedAPSTA reports that the controller's APSTA was unknown (a
	// capture that does not record it) and Build assumed APST supported.
	AssumedAPSTA bool
	// ForcedAPST reports that force_apst overrode the NO_APST quirk (the
	// kernel warns "forcibly allowing APST due to nvme_core.force_apst").
	ForcedAPST bool
	// ForcedDeepestPS reports that force_apst cleared the NO_DEEPEST_PS
	// quirk ("forcibly allowing all power states").
	ForcedDeepestPS bool
	// NPSS is the controller's NPSS.
	NPSS uint8
	// MaxPS is the deepest selected state, -1 when none.
	MaxPS int
	// MaxRoundTrip is the largest ENLAT+EXLAT among the selected states
	// (the kernel's "max round-trip latency"), 0 when none.
	MaxRoundTrip Microseconds
	// Table is the 256-byte data buffer sent (all zero when APSTE is 0 or
	// nothing is sent).
	Table Table
	// Reasons holds the verdict on each state 0..31.
	Reasons [Entries]Reason
	// Quirks records the quirk lookup: the quirks applied, the release
	// whose tables were used, the PCI ID inferred from the model and the
	// quirked PCI IDs left unchecked, or that the quirks were given
	// (Params.QuirksGiven).
	Quirks QuirkLookup

	// idle0 is the idle time of a selected state 0, which no entry carries.
	idle0 Milliseconds
}

// Build replicates the kernel's nvme_configure_apst() for controller c under
// params p, bit for bit, for the generation p.Generation, with the quirks
// the kernel's tables of p.Release assign c.
//
// Unless p.QuirksGiven, Build first does what the kernel does at probe
// time: it applies the quirk tables of p.Release (the newest when unknown)
// to c's VID, model, firmware and PCI ID, inferring the PCI ID from the
// model where docs/quirks.md says that is certain, and adds p.Quirks.
// Plan.Quirks records that lookup: what was applied, inferred and left
// unchecked (a capture carries no PCI ID and no DMI data). With
// p.QuirksGiven, p.Quirks is the whole set and Plan.Quirks says the lookup
// was skipped on request. DefaultParams leaves QuirksGiven false, so
//
//	plan, err := apst.Build(&c, apst.DefaultParams(apst.Current))
//
// is the kernel's plan for the drive of capture c.
//
// The walk goes from state NPSS down to 0 (kernel-apst.md §4): each state
// first receives the entry of the nearest deeper selected state, then is
// tested: NO_DEEPEST_PS (index NPSS only), NOPS, the bound (EXLAT, or
// ENLAT+EXLAT in v4.11), and the tolerance bands or the heuristic. The
// deepest selected state's entry and every deeper entry stay zero.
//
// Kernel oddities are kept: tolerance-mode timeouts are not masked (2^24 ms
// or more spills into the reserved bits, 2^56 or more shifts out), APSTA is
// tested as a whole byte, and NO_DEEPEST_PS affects only index NPSS whatever
// its flags. A controller whose APSTA is unknown is treated as supporting
// APST, and the plan records the assumption.
//
// Build does not allocate. It returns an error only for a nil controller or
// an invalid generation: the zero Params has none, and is rejected with an
// error wrapping ErrUnknownGeneration that points to DefaultParams. Loops
// that build many plans can use BuildTo, which writes into a Plan the
// caller keeps and so saves copying the result.
func Build(c *powerstate.Controller, p Params) (plan Plan, err error) {
	err = BuildTo(&plan, c, p)
	return plan, err
}

// BuildTo is Build writing its result into *dst, which it overwrites
// entirely: the same plan, without copying the Plan (several hundred
// bytes) out by value. It does not allocate. On error *dst is the zero
// Plan; a nil dst is an error wrapping ErrNilPlan.
func BuildTo(dst *Plan, c *powerstate.Controller, p Params) error {
	if dst == nil {
		return ErrNilPlan
	}
	*dst = Plan{}
	if c == nil {
		return ErrNilController
	}
	if !p.Generation.Valid() {
		return p.Generation.check()
	}
	plan := dst
	plan.Params = p
	plan.Mode = p.Mode()
	plan.NPSS = c.NPSS
	plan.MaxPS = -1

	apsta := c.APSTA
	if !c.APSTAKnown() {
		apsta = 1
		plan.AssumedAPSTA = true
	}
	quirks := p.Quirks
	if p.QuirksGiven {
		plan.Quirks = QuirkLookup{Skipped: true, Applied: quirks, rule: -1}
	} else {
		quirks |= lookupController(&plan.Quirks, c, p.Release)
		plan.Quirks.Applied = quirks
	}
	force := p.ForceAPST && p.Generation != V4_11
	enabled := apsta != 0
	if quirks&QuirkNoAPST != 0 {
		if p.Generation == V4_11 {
			apsta = 0 // v4.11 implemented NO_APST by clearing APSTA
		}
		enabled = force && apsta != 0
		plan.ForcedAPST = enabled
	}
	if force && quirks&QuirkNoDeepestPS != 0 {
		quirks &^= QuirkNoDeepestPS
		plan.ForcedDeepestPS = true
	}

	npss := int(c.NPSS)
	switch {
	case apsta == 0:
		plan.Outcome = OutcomeUnsupported
		plan.notEvaluated()
		return nil
	case npss >= Entries:
		plan.Outcome = OutcomeInvalidNPSS
		plan.notEvaluated()
		return nil
	}
	plan.Sent = true
	if !enabled || p.Bound == 0 {
		plan.Outcome = OutcomeDisabled
		plan.notEvaluated()
		return nil
	}
	plan.Enabled = true
	walk(plan, c, &p, quirks)
	if plan.MaxPS < 0 {
		plan.Outcome = OutcomeNoStates
	} else {
		plan.Outcome = OutcomeEnabled
	}
	return nil
}

// notEvaluated marks states 0..NPSS (at most 31) as not walked.
func (p *Plan) notEvaluated() {
	for s := 0; s <= int(p.NPSS) && s < Entries; s++ {
		p.Reasons[s] = ReasonNotEvaluated
	}
}

// walk is the loop of nvme_configure_apst() for an enabled controller
// (c.NPSS <= 31). It keeps few values live and indexes so that the
// compiler drops the bounds checks (s&31, or an unsigned s counting down
// that ends past 0); the tolerance and heuristic modes have loops of their
// own.
func walk(plan *Plan, c *powerstate.Controller, p *Params, quirks Quirks) {
	top := int(c.NPSS) & (Entries - 1)
	if quirks&QuirkNoDeepestPS != 0 {
		// Only index NPSS is affected, whatever its flags; nothing deeper
		// is selected yet, so no entry is written for it.
		plan.Reasons[top] = ReasonNoDeepestPS
		top--
	}
	var maxLat, carry uint64
	maxPS := -1
	if plan.Mode == ModeTolerance {
		maxPS, maxLat, carry = walkTolerance(plan, c, p, top)
	} else {
		maxPS, maxLat, carry = walkHeuristic(plan, c, uint64(p.Bound), top, plan.Mode == ModeHeuristicTotalGate)
	}
	if plan.Reasons[0] == ReasonHeuristic {
		plan.idle0 = Milliseconds(carry >> 8) // heuristic idle times fit in 24 bits
	}
	plan.MaxPS = maxPS
	plan.MaxRoundTrip = Microseconds(maxLat)
}

// walkTolerance is the v5.14 loop: at most one primary-band and one
// secondary-band target, the secondary deeper than the primary.
//
// The states are walked from the deepest up in three phases, one for each
// band already taken (none, the secondary, the primary), so that each
// phase's loop keeps few values live and tests only what can still
// change: before the first target no entry is written (the plan is zeroed
// and nothing deeper is selected), and once the primary band is taken
// every shallower state only gets its reason. At most two targets are
// chosen, so the deepest and the greatest latency are those of the two.
func walkTolerance(plan *Plan, c *powerstate.Controller, p *Params, top int) (maxPS int, maxLat, carry uint64) {
	bound := uint64(p.Bound)
	tol1, tol2 := uint64(p.PrimaryTolerance), uint64(p.SecondaryTolerance)
	if p.SecondaryTimeout == 0 {
		tol2 = 0 // no secondary band: nothing is secondary (tol1 <= tol2 holds or tol1 wins first)
	}
	s := uint(top)
	// Phase 1: no band taken. s counts down and ends when it wraps past 0
	// (uint): within the arrays without a mask or bounds checks.
	var total uint64
	for ; s < Entries; s-- {
		d := &c.PowerStates[s]
		if !d.NonOperational {
			plan.Reasons[s] = ReasonOperational
			continue
		}
		exit := uint64(d.ExitLatency)
		if exit > bound {
			plan.Reasons[s] = ReasonExitAboveBound
			continue
		}
		total = exit + uint64(d.EntryLatency)
		if total <= tol1 || total <= tol2 {
			break
		}
		plan.Reasons[s] = ReasonAboveTolerance
	}
	if s >= Entries {
		return -1, 0, 0
	}
	maxPS, maxLat = int(s), total
	if total <= tol1 {
		plan.Reasons[s] = ReasonPrimary
		carry = uint64(s)<<3 | uint64(p.PrimaryTimeout)<<8
		s--
		return maxPS, maxLat, primaryTaken(plan, c, bound, tol1, tol2, s, carry)
	}
	plan.Reasons[s] = ReasonSecondary
	carry = uint64(s)<<3 | uint64(p.SecondaryTimeout)<<8
	// Phase 2: the secondary band taken; a primary-band state is still a
	// target.
	for s--; s < Entries; s-- {
		plan.Table[s] = Entry(carry)
		d := &c.PowerStates[s]
		if !d.NonOperational {
			plan.Reasons[s] = ReasonOperational
			continue
		}
		exit := uint64(d.ExitLatency)
		if exit > bound {
			plan.Reasons[s] = ReasonExitAboveBound
			continue
		}
		total = exit + uint64(d.EntryLatency)
		switch {
		case total <= tol1:
			plan.Reasons[s] = ReasonPrimary
			maxLat = max(maxLat, total)
			carry = uint64(s)<<3 | uint64(p.PrimaryTimeout)<<8
			s--
			return maxPS, maxLat, primaryTaken(plan, c, bound, tol1, tol2, s, carry)
		case total <= tol2:
			plan.Reasons[s] = ReasonBandUsed
		default:
			plan.Reasons[s] = ReasonAboveTolerance
		}
	}
	return maxPS, maxLat, carry
}

// primaryTaken is walkTolerance's last phase, from state s up: the
// primary band taken, every state is written the target below it and
// gets its reason; it returns the carry left for state 0's idle time.
func primaryTaken(plan *Plan, c *powerstate.Controller, bound, tol1, tol2 uint64, s uint, carry uint64) uint64 {
	for ; s < Entries; s-- {
		plan.Table[s] = Entry(carry)
		d := &c.PowerStates[s]
		r := ReasonOperational
		if d.NonOperational {
			exit := uint64(d.ExitLatency)
			total := exit + uint64(d.EntryLatency)
			switch {
			case exit > bound:
				r = ReasonExitAboveBound
			case total <= tol1:
				r = ReasonPrimaryBandUsed
			case total <= tol2:
				r = ReasonBandUsed
			default:
				r = ReasonAboveTolerance
			}
		}
		plan.Reasons[s] = r
	}
	return carry
}

// walkHeuristic is the 2% heuristic loop (v4.11 to v5.13, and the current
// fallback): every usable non-operational state is a target.
func walkHeuristic(plan *Plan, c *powerstate.Controller, bound uint64, top int, gateTotal bool) (maxPS int, maxLat, carry uint64) {
	maxPS = -1
	for s := top; s >= 0; s-- {
		i := s & (Entries - 1)
		if carry != 0 {
			plan.Table[i] = Entry(carry)
		}
		d := &c.PowerStates[i]
		if !d.NonOperational {
			plan.Reasons[i] = ReasonOperational
			continue
		}
		exit := uint64(d.ExitLatency)
		total := exit + uint64(d.EntryLatency)
		if gateTotal {
			if total > bound {
				plan.Reasons[i] = ReasonTotalAboveBound
				continue
			}
		} else if exit > bound {
			plan.Reasons[i] = ReasonExitAboveBound
			continue
		}
		plan.Reasons[i] = ReasonHeuristic
		carry = uint64(s)<<3 | heuristicIdle(total)<<8
		if maxPS < 0 {
			maxPS = s
		}
		maxLat = max(maxLat, total)
	}
	return maxPS, maxLat, carry
}

// heuristicIdle is the 2% rule: ceil(total/20) ms, capped at 2^24-1.
func heuristicIdle(total uint64) uint64 {
	itpt := (total + 19) / 20
	if itpt > heuristicCap {
		itpt = heuristicCap
	}
	return itpt
}

// IdleTime returns the idle time a selected state s carries to the
// shallower states' entries (ITPT, unmasked): the primary or secondary
// timeout in tolerance mode, ceil((ENLAT+EXLAT)/20) ms capped at 2^24-1 in
// the heuristic. It is 0 for a state that was not selected, and for s above
// 31, which no controller has.
func (p *Plan) IdleTime(s uint8) Milliseconds {
	if s >= Entries {
		return 0
	}
	switch p.Reasons[s] {
	case ReasonPrimary:
		return p.Params.PrimaryTimeout
	case ReasonSecondary:
		return p.Params.SecondaryTimeout
	case ReasonHeuristic:
		if s == 0 {
			return p.idle0
		}
		// The entry of the next shallower state holds this state's carry,
		// and heuristic idle times fit ITPT's 24 bits.
		return p.Table[s-1].IdleTime()
	}
	return 0
}

// Decision returns the verdict on state s (0..31). A state above 31, which
// no controller has, is ReasonBeyondNPSS with no idle time and no entry.
func (p *Plan) Decision(s uint8) Decision {
	if s >= Entries {
		return Decision{State: s, Reason: ReasonBeyondNPSS}
	}
	return Decision{State: s, Reason: p.Reasons[s], Idle: p.IdleTime(s), Entry: p.Table[s]}
}

// Decisions returns the verdicts on states 0..NPSS (at most 32).
func (p *Plan) Decisions() []Decision {
	n := int(p.NPSS) + 1
	if n > Entries {
		n = Entries
	}
	out := make([]Decision, n)
	for i := range out {
		out[i] = p.Decision(uint8(i))
	}
	return out
}

// Selected returns the selected states as a bit set (bit n = state n).
func (p *Plan) Selected() States {
	var set States
	for s, r := range p.Reasons {
		if r.Selected() {
			set |= 1 << s
		}
	}
	return set
}

// Warnings returns the dev_warn lines the kernel prints for this
// configuration, without the "nvme nvmeN: " prefix; none for a nil Plan.
func (p *Plan) Warnings() []string {
	if p == nil {
		return nil
	}
	var w []string
	if p.ForcedAPST {
		w = append(w, "forcibly allowing APST due to nvme_core.force_apst -- use at your own risk")
	}
	if p.ForcedDeepestPS {
		w = append(w, "forcibly allowing all power states due to nvme_core.force_apst -- use at your own risk")
	}
	if p.Outcome == OutcomeInvalidNPSS {
		w = append(w, "NPSS is invalid; not using APST")
	}
	return w
}
