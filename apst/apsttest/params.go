package apsttest

import (
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// edgeBounds are ps_max_latency_us values: 0 (APST off), 1, the defaults,
// the largest value pm_qos_latency_tolerance_us stores (S32_MAX-1) and its
// "any" (S32_MAX), 2^32 and NoLimit.
var edgeBounds = []apst.Microseconds{
	0, 1, 4599, 4600, 25000, 42999, 43000, 100000, 1<<31 - 2, 1<<31 - 1, 1 << 32, apst.NoLimit - 1, apst.NoLimit,
}

// edgeModule are apst_* module parameter values (ms or µs): 0, 1, the
// defaults, 2^24-1 (the largest ITPT), 2^24 (the first that spills out of
// ITPT), 2^32, 2^56 (the first shifted out of the entry entirely) and
// 2^64-1.
var edgeModule = []uint64{0, 1, 100, 2000, 15000, 100000, 1<<24 - 1, 1 << 24, 1 << 32, 1 << 56, 1<<64 - 1}

// otherQuirks are two quirk bits without an APST effect (simple-suspend,
// bogus-nid), which Build must ignore.
const otherQuirks apst.Quirks = 1<<10 | 1<<18

// Bound returns a generator of bounds (ps_max_latency_us): edge values (0,
// 1, 25000, 100000, S32_MAX, NoLimit and their neighbours), small values up
// to 200000 and any 64-bit value.
func Bound() *rapid.Generator[apst.Microseconds] {
	return rapid.Custom(func(t *rapid.T) apst.Microseconds {
		switch rapid.IntRange(0, 2).Draw(t, "bound-kind") {
		case 0:
			return rapid.SampledFrom(edgeBounds).Draw(t, "edge")
		case 1:
			return apst.Microseconds(rapid.Uint64Range(0, 200000).Draw(t, "small"))
		}
		return apst.Microseconds(rapid.Uint64().Draw(t, "any"))
	})
}

// moduleValue draws one apst_* value: an edge value, a small one or any.
func moduleValue(t *rapid.T, label string) uint64 {
	switch rapid.IntRange(0, 2).Draw(t, label+"-kind") {
	case 0:
		return rapid.SampledFrom(edgeModule).Draw(t, label)
	case 1:
		return rapid.Uint64Range(0, 300000).Draw(t, label)
	}
	return rapid.Uint64().Draw(t, label)
}

// Params returns a generator of Build inputs. It draws every generation, the
// NO_APST and NO_DEEPEST_PS quirks (each about half the time, other quirk
// bits sometimes), force_apst, bounds from Bound, and, in about two draws
// in three, module parameters other than the defaults, each of the four
// drawn on its own from edge values (0, 1, 2^24-1, 2^24, 2^32, 2^56,
// 2^64-1), small and any values. Params.Release is left zero.
//
// Over a few thousand draws each of these values appears (the package's
// tests count them). ParamsFor also draws bounds next to one controller's
// latencies.
func Params() *rapid.Generator[apst.Params] {
	return rapid.Custom(func(t *rapid.T) apst.Params {
		return drawParams(t, Bound().Draw(t, "bound"))
	})
}

// ParamsFor returns Params's generator with bounds drawn, half the time,
// next to a breakpoint of controller c: the exit latency or ENLAT+EXLAT of
// one of its non-operational states, minus one, exactly or plus one (the
// bounds at which a table changes). c is read when the generator is
// created; a nil c gives Params().
func ParamsFor(c *powerstate.Controller) *rapid.Generator[apst.Params] {
	if c == nil {
		return Params()
	}
	var gates []uint64
	for i := range c.States() {
		d := &c.PowerStates[i]
		if d.NonOperational {
			gates = append(gates, uint64(d.ExitLatency), d.TotalLatency())
		}
	}
	return rapid.Custom(func(t *rapid.T) apst.Params {
		b := Bound().Draw(t, "bound")
		if len(gates) > 0 && rapid.Bool().Draw(t, "near-breakpoint") {
			g := rapid.SampledFrom(gates).Draw(t, "breakpoint")
			switch rapid.IntRange(-1, 1).Draw(t, "offset") {
			case -1:
				if g > 0 {
					g--
				}
			case 1:
				g++ // a total is at most 2^33-2: no overflow
			}
			b = apst.Microseconds(g)
		}
		return drawParams(t, b)
	})
}

// drawParams draws everything but the bound.
func drawParams(t *rapid.T, bound apst.Microseconds) apst.Params {
	p := apst.DefaultParams(rapid.SampledFrom(apst.Generations()).Draw(t, "generation"))
	p.Bound = bound
	if rapid.IntRange(0, 2).Draw(t, "module-kind") != 0 {
		p.PrimaryTimeout = apst.Milliseconds(moduleValue(t, "primary-timeout"))
		p.SecondaryTimeout = apst.Milliseconds(moduleValue(t, "secondary-timeout"))
		p.PrimaryTolerance = apst.Microseconds(moduleValue(t, "primary-tolerance"))
		p.SecondaryTolerance = apst.Microseconds(moduleValue(t, "secondary-tolerance"))
	}
	if rapid.Bool().Draw(t, "no-apst") {
		p.Quirks |= apst.QuirkNoAPST
	}
	if rapid.Bool().Draw(t, "no-deepest-ps") {
		p.Quirks |= apst.QuirkNoDeepestPS
	}
	if rapid.IntRange(0, 7).Draw(t, "other-quirks") == 0 {
		p.Quirks |= otherQuirks
	}
	p.ForceAPST = rapid.Bool().Draw(t, "force-apst")
	return p
}
