package apst_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/apsttest"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// refResult is what the kernel produces: whether Set Features is sent, APSTE,
// the table, max_ps and max_lat.
type refResult struct {
	sent, enabled bool
	table         [32]uint64
	maxPS         int
	maxLat        uint64
}

// reference is a deliberately plain transcription of kernel-apst.md §2 and
// §4 (one loop, no shortcuts), used to check the optimised Build.
func reference(c *powerstate.Controller, p apst.Params) refResult {
	r := refResult{maxPS: -1}
	apsta := c.APSTA
	if !c.APSTAKnown() {
		apsta = 1
	}
	quirks := p.Quirks
	if !p.QuirksGiven {
		quirks |= apst.DriveQuirks(c, p.Release).Quirks
	}
	force := p.ForceAPST
	if p.Generation == apst.V4_11 {
		force = false
		if quirks&apst.QuirkNoAPST != 0 {
			apsta = 0
		}
	}
	var apstEnabled bool
	if quirks&apst.QuirkNoAPST != 0 {
		apstEnabled = force && apsta != 0
	} else {
		apstEnabled = apsta != 0
	}
	if force && quirks&apst.QuirkNoDeepestPS != 0 {
		quirks &^= apst.QuirkNoDeepestPS
	}
	if apsta == 0 || c.NPSS > 31 {
		return r
	}
	r.sent = true
	if !apstEnabled || p.Bound == 0 {
		return r
	}
	r.enabled = true
	tolerance := p.Generation == apst.Current && p.PrimaryTimeout != 0 && p.PrimaryTolerance != 0
	var target uint64
	lastLT := ^uint(0)
	for state := int(c.NPSS); state >= 0; state-- {
		if target != 0 {
			r.table[state] = target
		}
		if state == int(c.NPSS) && quirks&apst.QuirkNoDeepestPS != 0 {
			continue
		}
		d := c.PowerStates[state]
		if !d.NonOperational {
			continue
		}
		exit := uint64(d.ExitLatency)
		total := exit + uint64(d.EntryLatency)
		gate := exit
		if p.Generation == apst.V4_11 {
			gate = total
		}
		if gate > uint64(p.Bound) {
			continue
		}
		var ms uint64
		if tolerance {
			if total <= uint64(p.PrimaryTolerance) {
				if lastLT == 1 {
					continue
				}
				lastLT = 1
				ms = uint64(p.PrimaryTimeout)
			} else if p.SecondaryTimeout != 0 && total <= uint64(p.SecondaryTolerance) {
				if lastLT <= 2 {
					continue
				}
				lastLT = 2
				ms = uint64(p.SecondaryTimeout)
			} else {
				continue
			}
		} else {
			ms = (total + 19) / 20
			if ms > 1<<24-1 {
				ms = 1<<24 - 1
			}
		}
		target = uint64(state)<<3 | ms<<8
		if r.maxPS == -1 {
			r.maxPS = state
		}
		if total > r.maxLat {
			r.maxLat = total
		}
	}
	return r
}

// Build agrees with the plain reference on random devices and parameters of
// every generation.
func TestPropertyBuildMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := apsttest.Controller().Draw(t, "controller")
		p := apsttest.Params().Draw(t, "params")
		plan, err := apst.Build(&c, p)
		if err != nil {
			t.Fatal(err)
		}
		want := reference(&c, p)
		got := refResult{sent: plan.Sent, enabled: plan.Enabled, maxPS: plan.MaxPS, maxLat: uint64(plan.MaxRoundTrip)}
		for i, e := range plan.Table {
			got.table[i] = uint64(e)
		}
		if got != want {
			t.Fatalf("Build and the reference differ:\n got  %+v\n want %+v", got, want)
		}
	})
}
