package apst

import (
	"fmt"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Explain says in words, with the numbers the kernel compared, why state s
// was selected or passed over. c must be the controller the plan was built
// from.
func (p *Plan) Explain(c *powerstate.Controller, s uint8) string {
	if s >= Entries {
		return fmt.Sprintf("no such state (NPSS is %d; a controller has at most 32 states, ps0 to ps31)", p.NPSS)
	}
	d := &c.PowerStates[s]
	total := d.TotalLatency()
	par := &p.Params
	switch r := p.Reasons[s]; r {
	case ReasonNotEvaluated:
		switch p.Outcome {
		case OutcomeUnsupported:
			return "not evaluated: APSTA is 0, the kernel sends nothing"
		case OutcomeInvalidNPSS:
			return "not evaluated: NPSS is above 31, the kernel sends nothing"
		}
		return "not evaluated: APST is disabled (APSTE=0)"
	case ReasonBeyondNPSS:
		return fmt.Sprintf("no such state (NPSS is %d)", p.NPSS)
	case ReasonNoDeepestPS:
		return "deepest state excluded by the NO_DEEPEST_PS quirk"
	case ReasonOperational:
		return "operational state (NOPS clear)"
	case ReasonExitAboveBound:
		return fmt.Sprintf("exit latency %dus > bound %s", d.ExitLatency, par.Bound)
	case ReasonTotalAboveBound:
		return fmt.Sprintf("entry+exit %dus > bound %s (v4.11 gates on the total)", total, par.Bound)
	case ReasonAboveTolerance:
		if par.SecondaryTimeout == 0 {
			return fmt.Sprintf("entry+exit %dus > primary tolerance %dus and the secondary band is off", total, uint64(par.PrimaryTolerance))
		}
		return fmt.Sprintf("entry+exit %dus > secondary tolerance %dus", total, uint64(par.SecondaryTolerance))
	case ReasonPrimaryBandUsed:
		return fmt.Sprintf("entry+exit %dus is in the primary band, already taken by a deeper state", total)
	case ReasonBandUsed:
		return fmt.Sprintf("entry+exit %dus is in the secondary band, but a deeper state is already selected", total)
	case ReasonPrimary:
		return fmt.Sprintf("primary target: entry+exit %dus <= %dus, entered after %s idle", total, uint64(par.PrimaryTolerance), p.IdleTime(s))
	case ReasonSecondary:
		return fmt.Sprintf("secondary target: entry+exit %dus <= %dus, entered after %s idle", total, uint64(par.SecondaryTolerance), p.IdleTime(s))
	case ReasonHeuristic:
		return fmt.Sprintf("heuristic target: entered after %s idle = ceil(%dus/20), capped at 16777215ms", p.IdleTime(s), total)
	default:
		return r.String()
	}
}
