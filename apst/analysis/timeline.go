package analysis

import (
	"math/bits"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Step is one stretch of an idle timeline: the controller is in State from
// From (idle time since the last command completed) until the next step's
// From, or forever for the last step.
//
// The zero Step is ps0 from idle time 0 with no exit latency and no power:
// what At returns for the empty Timeline.
type Step struct {
	// State is the power state.
	State uint8
	// From is the idle time at which the controller enters State.
	// Transitions are taken as instantaneous: ENLAT is not added.
	From apst.Microseconds
	// ExitLatency is the advertised EXLAT a command meets in this step: the
	// state's EXLAT, or 0 for the starting state, which the controller has
	// not left.
	ExitLatency apst.Microseconds
	// MaxPower is the state's maximum power (MP), exact.
	MaxPower powerstate.Power
}

// Timeline is the sequence of states an APST table takes an idle controller
// through, deepest last.
type Timeline []Step

// IdleTimeline returns the timeline table t produces for controller c idle
// in state start. The controller's ITPT counts idle time in the current
// state (kernel-apst.md §4.3), so each step starts the idle time of its
// entry after the previous one: for the 990 EVO Plus at the default bound,
// ps0 from 0, ps3 from 100 ms, ps4 from 2100 ms. The controller reads ITPT
// as the 24 bits 31:8 of an entry (Entry.IdleTime), so bits the kernel
// spills above bit 31 are not idle time. The table is followed as
// Table.Reachable follows it, until an entry makes no transition or a state
// repeats. A nil t is no table (the start state's step only) and a nil c
// counts every exit latency and power as 0, as in Reachability; a start
// above 31, which no controller has, is that state's step alone, with no
// exit latency and no power, as a state beyond NPSS.
func IdleTimeline(c *powerstate.Controller, t *apst.Table, start uint8) Timeline {
	tl := make(Timeline, 0, 4)
	if start >= apst.Entries {
		return append(tl, Step{State: start})
	}
	var d powerstate.Descriptor
	if c != nil {
		d = c.PowerStates[start]
	}
	tl = append(tl, Step{State: start, MaxPower: d.MaxPower})
	if t == nil {
		return tl
	}
	var seen apst.States = 1 << start
	from := apst.Microseconds(0)
	for s := start; ; {
		e := t[s]
		if !e.Transitions() {
			break
		}
		next := e.TargetState()
		if seen&(1<<next) != 0 {
			break
		}
		seen |= 1 << next
		from += apst.Microseconds(e.IdleTime()) * 1000
		if c != nil {
			d = c.PowerStates[next]
		}
		tl = append(tl, Step{State: next, From: from, ExitLatency: apst.Microseconds(d.ExitLatency), MaxPower: d.MaxPower})
		s = next
	}
	return tl
}

// index returns the index of the step the controller is in after idle time
// idle: the last step whose From is at most idle.
func (tl Timeline) index(idle apst.Microseconds) int {
	i := len(tl) - 1
	for i > 0 && tl[i].From > idle {
		i--
	}
	return i
}

// At returns the step the controller is in after an idle time of idle. At
// exactly a step's From the controller has entered that step's state. The
// empty Timeline (the zero value; IdleTimeline always gives the start
// state's step) is ps0 with no exit latency: the zero Step.
func (tl Timeline) At(idle apst.Microseconds) Step {
	if len(tl) == 0 {
		return Step{}
	}
	return tl[tl.index(idle)]
}

// States returns the set of states on the timeline (bit n = state n).
func (tl Timeline) States() apst.States {
	var set apst.States
	for _, st := range tl {
		set |= 1 << st.State
	}
	return set
}

// Wake is what the first command after an idle gap meets.
//
// The zero Wake is a command after no idle time that finds the controller
// in ps0, with no exit latency and no penalty.
type Wake struct {
	// Gap is the idle time before the command.
	Gap apst.Microseconds
	// State is the power state the controller is in when the command comes.
	State uint8
	// ExitLatency is the state's exit latency scaled by ExitFactor (0 for the
	// starting state).
	ExitLatency apst.Microseconds
	// Penalty is ExitLatency plus CPUWake: the extra latency of the command.
	Penalty apst.Microseconds
}

func satAdd(a, b apst.Microseconds) apst.Microseconds {
	if s, carry := bits.Add64(uint64(a), uint64(b), 0); carry == 0 {
		return apst.Microseconds(s)
	}
	return apst.NoLimit
}

// WakeAfter returns what the first command after an idle gap of length gap
// meets, with the options' exit factor and CPU wake latency.
func (tl Timeline) WakeAfter(gap apst.Microseconds, opt SimOptions) Wake {
	st := tl.At(gap)
	exit := opt.ExitFactor.Apply(st.State, st.ExitLatency)
	return Wake{Gap: gap, State: st.State, ExitLatency: exit, Penalty: satAdd(exit, opt.CPUWake)}
}
