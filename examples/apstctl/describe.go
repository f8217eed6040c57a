package main

import (
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/describe"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// The one-line descriptions the text outputs share.

// The one-line descriptions live in internal/describe, shared with the
// web page (examples/web), so that both say the same.

// describeController is a one-line identity of c.
func describeController(c *powerstate.Controller) string { return describe.Controller(c) }

// describeParams is a one-line summary of the kernel parameters; withBound
// false leaves the bound out, for the commands that vary it.
func describeParams(p *apst.Params) string { return describe.Params(p, true) }

func describeParamsBound(p *apst.Params, withBound bool) string { return describe.Params(p, withBound) }

// describeOutcome is a one-line summary of what the kernel sends.
func describeOutcome(plan *apst.Plan) string { return describe.Outcome(plan) }

// compactTable describes the non-zero entries of a table, grouping equal
// neighbours: "ps0-2 ->ps3@100ms, ps3 ->ps4@2000ms", or "-" when empty.
func compactTable(t *apst.Table, n int) string { return describe.Table(t, n) }

// stateList returns a state set as a sorted list of indices (never nil, so
// that JSON shows []).
func stateList(set apst.States) []int {
	out := []int{}
	for s := range set.All() {
		out = append(out, int(s))
	}
	return out
}

// opKind is "op" or "non-op".
func opKind(d *powerstate.Descriptor) string {
	if d.NonOperational {
		return "non-op"
	}
	return "op"
}
