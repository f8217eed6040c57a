package apst

import (
	"fmt"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// heuristicCap is the largest ITPT the heuristic produces (2^24-1 ms).
const heuristicCap = 0xffffff

// Plan is the result of Build: what nvme_configure_apst() sends to the
// controller and why.
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
	// Enabled is APSTE, bit 0 of CDW11 of the Set Features command.
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
	// Idle holds, for each selected state, the idle time it carries (the
	// unmasked ITPT).
	Idle [Entries]Milliseconds
}

// Build replicates the kernel's nvme_configure_apst() for controller c under
// params p, bit for bit, for the generation p.Generation.
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
// an invalid generation.
func Build(c *powerstate.Controller, p Params) (plan Plan, err error) {
	if c == nil {
		return plan, ErrNilController
	}
	if !p.Generation.Valid() {
		return plan, fmt.Errorf("%w: %d", ErrUnknownGeneration, uint8(p.Generation))
	}
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
	for s := npss + 1; s < Entries; s++ {
		plan.Reasons[s] = ReasonBeyondNPSS
	}
	switch {
	case apsta == 0:
		plan.Outcome = OutcomeUnsupported
		return plan, nil
	case npss >= Entries:
		plan.Outcome = OutcomeInvalidNPSS
		return plan, nil
	}
	plan.Sent = true
	if !enabled || p.MaxLatency == 0 {
		plan.Outcome = OutcomeDisabled
		return plan, nil
	}
	plan.Enabled = true
	walk(&plan, c, &p, quirks)
	if plan.MaxPS < 0 {
		plan.Outcome = OutcomeNoStates
	} else {
		plan.Outcome = OutcomeEnabled
	}
	return plan, nil
}

// Band bookkeeping of the tolerance mode (the kernel's last_lt_index).
const (
	bandNone = iota
	bandPrimary
	bandSecondary
)

// walk is the loop of nvme_configure_apst() for an enabled controller.
func walk(plan *Plan, c *powerstate.Controller, p *Params, quirks Quirks) {
	mode := plan.Mode
	bound := uint64(p.MaxLatency)
	npss := int(c.NPSS)
	noDeepest := quirks&QuirkNoDeepestPS != 0
	var carry uint64
	band := bandNone
	for s := npss; s >= 0; s-- {
		if carry != 0 {
			plan.Table[s] = Entry(carry)
		}
		d := &c.PowerStates[s]
		if s == npss && noDeepest {
			plan.Reasons[s] = ReasonNoDeepestPS
			continue
		}
		if !d.NonOperational {
			plan.Reasons[s] = ReasonOperational
			continue
		}
		exit := uint64(d.ExitLatency)
		total := exit + uint64(d.EntryLatency)
		var itpt uint64
		var reason Reason
		switch mode {
		case ModeTolerance:
			if exit > bound {
				plan.Reasons[s] = ReasonExitAboveBound
				continue
			}
			switch {
			case total <= uint64(p.PrimaryTolerance):
				if band == bandPrimary {
					plan.Reasons[s] = ReasonPrimaryBandUsed
					continue
				}
				band, itpt, reason = bandPrimary, uint64(p.PrimaryTimeout), ReasonPrimary
			case p.SecondaryTimeout != 0 && total <= uint64(p.SecondaryTolerance):
				if band != bandNone {
					plan.Reasons[s] = ReasonBandUsed
					continue
				}
				band, itpt, reason = bandSecondary, uint64(p.SecondaryTimeout), ReasonSecondary
			default:
				plan.Reasons[s] = ReasonAboveTolerance
				continue
			}
		case ModeHeuristicTotalGate:
			if total > bound {
				plan.Reasons[s] = ReasonTotalAboveBound
				continue
			}
			itpt, reason = heuristicIdle(total), ReasonHeuristic
		default:
			if exit > bound {
				plan.Reasons[s] = ReasonExitAboveBound
				continue
			}
			itpt, reason = heuristicIdle(total), ReasonHeuristic
		}
		carry = uint64(s)<<3 | itpt<<8
		plan.Reasons[s] = reason
		plan.Idle[s] = Milliseconds(itpt)
		if plan.MaxPS < 0 {
			plan.MaxPS = s
		}
		if Microseconds(total) > plan.MaxRoundTrip {
			plan.MaxRoundTrip = Microseconds(total)
		}
	}
}

// heuristicIdle is the 2% rule: ceil(total/20) ms, capped at 2^24-1.
func heuristicIdle(total uint64) uint64 {
	itpt := (total + 19) / 20
	if itpt > heuristicCap {
		itpt = heuristicCap
	}
	return itpt
}

// Decision returns the verdict on state s (0..31).
func (p *Plan) Decision(s uint8) Decision {
	s &= Entries - 1
	return Decision{State: s, Reason: p.Reasons[s], Idle: p.Idle[s], Entry: p.Table[s]}
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
func (p *Plan) Selected() uint32 {
	var set uint32
	for s, r := range p.Reasons {
		if r.Selected() {
			set |= 1 << s
		}
	}
	return set
}

// Warnings returns the dev_warn lines the kernel prints for this
// configuration, without the "nvme nvmeN: " prefix.
func (p *Plan) Warnings() []string {
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
