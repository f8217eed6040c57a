package main

import (
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/describe"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// The one-line descriptions are apstctl's (internal/describe), so that the
// page and the command read alike. The page sets them as text, never as
// markup.

func describeController(c *powerstate.Controller) string { return describe.Controller(c) }

func describeParams(p *apst.Params) string { return describe.Params(p, true) }

func describeParamsBound(p *apst.Params, withBound bool) string { return describe.Params(p, withBound) }

func describeOutcome(plan *apst.Plan) string { return describe.Outcome(plan) }

func compactTable(t *apst.Table, n int) string { return describe.Table(t, n) }
