package apst_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// genBuildLatency draws latencies that hit the interesting places: small values,
// the band edges, the heuristic cap and the 32-bit maximum.
func genBuildLatency() *rapid.Generator[powerstate.Microseconds] {
	return rapid.Custom(func(t *rapid.T) powerstate.Microseconds {
		switch rapid.IntRange(0, 3).Draw(t, "kind") {
		case 0:
			return powerstate.Microseconds(rapid.Uint32Range(0, 200000).Draw(t, "small"))
		case 1:
			return powerstate.Microseconds(rapid.SampledFrom([]uint32{
				0, 1, 4600, 15000, 15001, 43000, 100000, 100001, 335544280, 335544301, 1<<32 - 1,
			}).Draw(t, "edge"))
		default:
			return powerstate.Microseconds(rapid.Uint32().Draw(t, "any"))
		}
	})
}

func genBuildController() *rapid.Generator[powerstate.Controller] {
	return rapid.Custom(func(t *rapid.T) powerstate.Controller {
		var c powerstate.Controller
		c.NPSS = rapid.SampledFrom([]uint8{0, 1, 2, 3, 4, 5, 7, 15, 30, 31, 32, 255}).Draw(t, "npss")
		c.APSTA = rapid.SampledFrom([]uint8{0, 1, 2, 0xff}).Draw(t, "apsta")
		for i := range c.PowerStates {
			d := &c.PowerStates[i]
			d.NonOperational = rapid.Bool().Draw(t, "nops")
			d.EntryLatency = genBuildLatency().Draw(t, "enlat")
			d.ExitLatency = genBuildLatency().Draw(t, "exlat")
		}
		if rapid.IntRange(0, 4).Draw(t, "unknown-apsta") == 0 {
			c.Known = powerstate.FieldsIdentify &^ powerstate.FieldAPSTA
		}
		return c
	})
}

func genBuildBound() *rapid.Generator[apst.Microseconds] {
	return rapid.Custom(func(t *rapid.T) apst.Microseconds {
		switch rapid.IntRange(0, 2).Draw(t, "kind") {
		case 0:
			return apst.Microseconds(rapid.SampledFrom([]uint64{0, 1, 4600, 25000, 100000, 2147483646, 1<<64 - 1}).Draw(t, "edge"))
		case 1:
			return apst.Microseconds(rapid.Uint64Range(0, 200000).Draw(t, "small"))
		}
		return apst.Microseconds(rapid.Uint64().Draw(t, "any"))
	})
}

func genBuildParams() *rapid.Generator[apst.Params] {
	return rapid.Custom(func(t *rapid.T) apst.Params {
		p := apst.DefaultParams(rapid.SampledFrom(apst.Generations()).Draw(t, "gen"))
		p.Bound = genBuildBound().Draw(t, "bound")
		if rapid.Bool().Draw(t, "custom-module-params") {
			p.PrimaryTimeout = apst.Milliseconds(rapid.SampledFrom([]uint64{0, 1, 100, 1 << 24, 1 << 56, 1<<64 - 1}).Draw(t, "pt"))
			p.SecondaryTimeout = apst.Milliseconds(rapid.SampledFrom([]uint64{0, 1, 2000, 1 << 24}).Draw(t, "st"))
			p.PrimaryTolerance = apst.Microseconds(rapid.SampledFrom([]uint64{0, 1, 15000, 1<<64 - 1}).Draw(t, "ptol"))
			p.SecondaryTolerance = apst.Microseconds(rapid.SampledFrom([]uint64{0, 15000, 100000, 1<<64 - 1}).Draw(t, "stol"))
		}
		if rapid.Bool().Draw(t, "no-apst") {
			p.Quirks |= apst.QuirkNoAPST
		}
		if rapid.Bool().Draw(t, "no-deepest") {
			p.Quirks |= apst.QuirkNoDeepestPS
		}
		p.ForceAPST = rapid.Bool().Draw(t, "force")
		return p
	})
}

func TestPropertyPlanInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := genBuildController().Draw(t, "controller")
		p := genBuildParams().Draw(t, "params")
		plan, err := apst.Build(&c, p)
		if err != nil {
			t.Fatalf("Build: %v", err)
		}
		checkPlanInvariants(t, &c, p, &plan)
	})
}

// Raising the bound never makes the deepest selected state shallower.
func TestPropertyBoundMonotone(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := genBuildController().Draw(t, "controller")
		p := genBuildParams().Draw(t, "params")
		lo := genBuildBound().Draw(t, "lo")
		hi := genBuildBound().Draw(t, "hi")
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
	})
}

// A NO_DEEPEST_PS plan never selects state NPSS unless force_apst cancels it.
func TestPropertyNoDeepestPS(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := genBuildController().Draw(t, "controller")
		p := genBuildParams().Draw(t, "params")
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
		c := genBuildController().Draw(t, "controller")
		p := genBuildParams().Draw(t, "params")
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
			if want > 0xffffff {
				want = 0xffffff
			}
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
