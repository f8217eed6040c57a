package main

import (
	"fmt"
	"strconv"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// breakEvenByState returns the break-even idle time (µs, rounded up) of
// every state after the first on the idle timeline of plan's table for c,
// keyed "ps3": the worst-case transition energy MP(ps0) × (ENLAT + EXLAT)
// over the power saved against the step before (analysis.BreakEven,
// docs/spec/replay.md §3). A state that saves nothing has no key. It is
// what replay prints per step and simulate's "break_even_us".
func breakEvenByState(c *powerstate.Controller, plan *apst.Plan) map[string]uint64 {
	out := map[string]uint64{}
	tl := analysis.IdleTimeline(c, &plan.Table, 0)
	for k := 1; k < len(tl); k++ {
		ps := &c.PowerStates
		if be, ok := analysis.BreakEven(&ps[tl[0].State], &ps[tl[k-1].State], &ps[tl[k].State]); ok {
			out["ps"+strconv.Itoa(int(tl[k].State))] = uint64(be)
		}
	}
	return out
}

// breakEvenText is breakEvenByState as one line of text, in timeline
// order: "break-even idle time: ps3 6284us, ps4 3665754us" ("none" when no
// state saves power), for simulate's text output.
func breakEvenText(c *powerstate.Controller, plan *apst.Plan) string {
	s := "break-even idle time:"
	n := 0
	tl := analysis.IdleTimeline(c, &plan.Table, 0)
	be := breakEvenByState(c, plan)
	for _, st := range tl[1:] {
		if v, ok := be["ps"+strconv.Itoa(int(st.State))]; ok {
			if n > 0 {
				s += ","
			}
			s += fmt.Sprintf(" ps%d %s", st.State, apst.Microseconds(v))
			n++
		}
	}
	if n == 0 {
		s += " none"
	}
	return s
}
