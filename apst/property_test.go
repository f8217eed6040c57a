package apst_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/apsttest"
)

func TestPropertyPlanInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := apsttest.Controller().Draw(t, "controller")
		p := apsttest.Params().Draw(t, "params")
		plan, err := apst.Build(&c, p)
		if err != nil {
			t.Fatalf("Build: %v", err)
		}
		checkPlanInvariants(t, &c, p, &plan)
	})
}

// Raising the bound never makes the deepest selected state shallower, nor
// the deepest state an idle controller reaches, except when a tolerance
// timeout spills out of ITPT (apsttest.TimeoutSpills).
func TestPropertyBoundMonotone(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := apsttest.Controller().Draw(t, "controller")
		p := apsttest.Params().Draw(t, "params")
		lo := apsttest.Bound().Draw(t, "lo")
		hi := apsttest.Bound().Draw(t, "hi")
		if lo > hi {
			lo, hi = hi, lo
		}
		p.Bound = lo
		a, err := apst.Build(&c, p)
		if err != nil {
			t.Fatal(err)
		}
		p.Bound = hi
		b, err := apst.Build(&c, p)
		if err != nil {
			t.Fatal(err)
		}
		if b.MaxPS < a.MaxPS {
			t.Fatalf("bound %d gives max PS %d, but the larger bound %d gives %d", lo, a.MaxPS, hi, b.MaxPS)
		}
		if apsttest.TimeoutSpills(p) {
			return // the documented exception: a timeout that spills out of ITPT
		}
		if ra, rb := a.Table.Reachable(0).Deepest(), b.Table.Reachable(0).Deepest(); rb < ra {
			t.Fatalf("bound %d reaches ps%d, but the larger bound %d only ps%d", lo, ra, hi, rb)
		}
	})
}

// A NO_DEEPEST_PS plan never selects state NPSS unless force_apst cancels it.
func TestPropertyNoDeepestPS(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := apsttest.Controller().Draw(t, "controller")
		p := apsttest.Params().Draw(t, "params")
		p.Quirks |= apst.QuirkNoDeepestPS
		plan, err := apst.Build(&c, p)
		if err != nil {
			t.Fatal(err)
		}
		forced := p.ForceAPST && p.Generation != apst.V4_11
		if !forced && c.NPSS < 32 && plan.Reasons[c.NPSS].Selected() {
			t.Fatalf("ps%d (NPSS) selected despite NO_DEEPEST_PS", c.NPSS)
		}
	})
}

// The heuristic's idle time is ceil(total/20) capped at 2^24-1, and every
// entry of a heuristic plan fits ITPT's 24 bits.
func TestPropertyHeuristicIdle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := apsttest.Controller().Draw(t, "controller")
		p := apsttest.Params().Draw(t, "params")
		p.Generation = rapid.SampledFrom([]apst.Generation{apst.V4_12, apst.V4_11}).Draw(t, "gen")
		plan, err := apst.Build(&c, p)
		if err != nil {
			t.Fatal(err)
		}
		for s, r := range plan.Reasons {
			if r != apst.ReasonHeuristic {
				continue
			}
			total := c.PowerStates[s].TotalLatency()
			want := (total + 19) / 20
			want = min(want, uint64(apsttest.MaxITPT))
			if uint64(plan.IdleTime(uint8(s))) != want {
				t.Fatalf("ps%d: idle %d, want ceil(%d/20) capped = %d", s, plan.IdleTime(uint8(s)), total, want)
			}
		}
		for i, e := range plan.Table {
			if e.Reserved() != 0 {
				t.Fatalf("heuristic entry %d has reserved bits: %#x", i, uint64(e))
			}
		}
	})
}

func TestPropertyTableRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var tab apst.Table
		for i := range tab {
			tab[i] = apst.Entry(rapid.Uint64().Draw(t, "entry"))
		}
		raw, err := tab.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		back, err := apst.DecodeTable(raw)
		if err != nil || back != tab {
			t.Fatalf("round trip: %v", err)
		}
	})
}
