package apst

import (
	"fmt"
	"strconv"
)

// Reason says why Build selected a power state as an APST target or passed
// it over.
type Reason uint8

const (
	// ReasonBeyondNPSS: the state index is above NPSS, so the state does not
	// exist. It is the zero Reason.
	ReasonBeyondNPSS Reason = iota
	// ReasonNotEvaluated: the kernel did not walk the states, because it
	// sent nothing or sent APSTE=0.
	ReasonNotEvaluated
	// ReasonNoDeepestPS: the state is index NPSS and the NO_DEEPEST_PS quirk
	// is in force.
	ReasonNoDeepestPS
	// ReasonOperational: NOPS is clear; only non-operational states are
	// targets.
	ReasonOperational
	// ReasonExitAboveBound: EXLAT is above ps_max_latency_us (v4.12 and
	// later gate on the exit latency alone).
	ReasonExitAboveBound
	// ReasonTotalAboveBound: ENLAT+EXLAT is above ps_max_latency_us (the
	// v4.11 gate).
	ReasonTotalAboveBound
	// ReasonAboveTolerance: ENLAT+EXLAT is above the primary tolerance and
	// above the secondary tolerance (or the secondary timeout is 0).
	ReasonAboveTolerance
	// ReasonPrimaryBandUsed: the state falls in the primary band, but a
	// deeper state already took it.
	ReasonPrimaryBandUsed
	// ReasonBandUsed: the state falls in the secondary band, but a deeper
	// state already took a band (the secondary target must be deeper than the
	// primary one).
	ReasonBandUsed
	// ReasonPrimary: selected as the primary target (ENLAT+EXLAT within the
	// primary tolerance), idle time apst_primary_timeout_ms.
	ReasonPrimary
	// ReasonSecondary: selected as the secondary target (ENLAT+EXLAT within
	// the secondary tolerance), idle time apst_secondary_timeout_ms.
	ReasonSecondary
	// ReasonHeuristic: selected by the 2% heuristic, idle time
	// ceil((ENLAT+EXLAT)/20) ms capped at 2^24-1.
	ReasonHeuristic

	numReasons
)

var reasonNames = [...]string{
	ReasonNotEvaluated:    "not-evaluated",
	ReasonBeyondNPSS:      "beyond-npss",
	ReasonNoDeepestPS:     "no-deepest-ps",
	ReasonOperational:     "operational",
	ReasonExitAboveBound:  "exit-latency-above-bound",
	ReasonTotalAboveBound: "total-latency-above-bound",
	ReasonAboveTolerance:  "above-tolerance",
	ReasonPrimaryBandUsed: "primary-band-used",
	ReasonBandUsed:        "band-used",
	ReasonPrimary:         "primary",
	ReasonSecondary:       "secondary",
	ReasonHeuristic:       "heuristic",
}

// String returns the reason's stable name, e.g. "exit-latency-above-bound".
func (r Reason) String() string {
	if r < numReasons {
		return reasonNames[r]
	}
	return "Reason(" + strconv.Itoa(int(r)) + ")"
}

// Selected reports whether the reason is a selection (primary, secondary or
// heuristic).
func (r Reason) Selected() bool {
	return r == ReasonPrimary || r == ReasonSecondary || r == ReasonHeuristic
}

// Outcome is what the kernel does with the controller as a whole.
type Outcome uint8

const (
	// OutcomeUnsupported: APSTA is 0 (or, in v4.11, the NO_APST quirk made it
	// so): nothing is sent and the drive keeps whatever it had.
	OutcomeUnsupported Outcome = iota
	// OutcomeInvalidNPSS: NPSS is above 31; the kernel warns and sends
	// nothing.
	OutcomeInvalidNPSS
	// OutcomeDisabled: Set Features with APSTE=0 and a zero table, because
	// of the NO_APST quirk or a bound of 0.
	OutcomeDisabled
	// OutcomeNoStates: APSTE=1 with a zero table: no state qualified.
	OutcomeNoStates
	// OutcomeEnabled: APSTE=1 with at least one target.
	OutcomeEnabled
)

var outcomeNames = [...]string{
	OutcomeUnsupported: "unsupported",
	OutcomeInvalidNPSS: "invalid-npss",
	OutcomeDisabled:    "disabled",
	OutcomeNoStates:    "no-states",
	OutcomeEnabled:     "enabled",
}

// String returns the outcome's stable name.
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return "Outcome(" + strconv.Itoa(int(o)) + ")"
}

// Decision is Build's verdict on one power state.
//
// The zero Decision passes over state 0 as beyond NPSS (ReasonBeyondNPSS is
// the zero Reason), with no idle time and an entry that makes no
// transition.
type Decision struct {
	// State is the power state index.
	State uint8
	// Reason says why the state was selected or passed over.
	Reason Reason
	// Idle is the idle time the selection carries to shallower states
	// (ITPT), valid when Reason.Selected(): see Plan.IdleTime.
	Idle Milliseconds
	// Entry is the table entry for this state (where the controller goes
	// from here).
	Entry Entry
}

// MarshalText implements encoding.TextMarshaler with String; values outside
// the enumeration are an error.
func (r Reason) MarshalText() ([]byte, error) {
	if r >= numReasons {
		return nil, fmt.Errorf("apst: invalid Reason %d", uint8(r))
	}
	return []byte(r.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler for the names String
// returns.
func (r *Reason) UnmarshalText(b []byte) error {
	v, err := parseName(reasonNames[:], string(b), "Reason")
	if err != nil {
		return err
	}
	*r = Reason(v)
	return nil
}

// MarshalText implements encoding.TextMarshaler with String; values outside
// the enumeration are an error.
func (o Outcome) MarshalText() ([]byte, error) {
	if int(o) >= len(outcomeNames) {
		return nil, fmt.Errorf("apst: invalid Outcome %d", uint8(o))
	}
	return []byte(o.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler for the names String
// returns.
func (o *Outcome) UnmarshalText(b []byte) error {
	v, err := parseName(outcomeNames[:], string(b), "Outcome")
	if err != nil {
		return err
	}
	*o = Outcome(v)
	return nil
}
