// Package apsttest provides rapid generators, a plan invariant checker and
// fuzz seeds for property tests of apst.Build in an importer's own tests.
//
// [Controller] draws Identify Controller models and [Params] (or
// [ParamsFor], which also draws bounds next to a controller's exit
// latencies) draws every input of nvme_configure_apst(), edge values
// included: bounds 0, 1 and unlimited, module parameters 0, 2^24, 2^56 and
// 2^64-1, latencies 0 and 2^32-1, NPSS above 31, APSTA other than 0 and 1
// and unknown. [Check] returns nil when a plan satisfies every single-plan
// invariant of kernel-apst.md §4 and a [*Violation] naming the first one
// broken otherwise. [FuzzSeeds] and [DecodeFuzzInput] give a native fuzz
// target the same edge values as seeds and a byte encoding of the inputs.
//
// # Monotonicity and its one exception
//
// A larger bound never makes the deepest selected state (Plan.MaxPS)
// shallower. Where the table takes an idle controller (Table.Reachable from
// state 0) is monotone too, with one exception that the kernel has as well:
// a tolerance-mode timeout (apst_primary_timeout_ms or
// apst_secondary_timeout_ms) of 2^24 ms or more does not fit ITPT's
// [ITPTBits] bits. The kernel shifts it into the entry unmasked, so the
// entry's ITPT holds only the low 24 bits (0 for exactly 2^24: no
// transition) and the rest spills into the reserved bits 63:32 (or out of
// the entry from 2^56 on). A larger bound that admits a new primary target
// with such a timeout can then cut the path to a deeper secondary target
// that a smaller bound reached. [TimeoutSpills] reports whether Params can
// do this; property tests of reachability skip such Params.
//
// Everything here is pure and safe for concurrent use; the generators are
// rapid's and draw from the *rapid.T they are given.
package apsttest

import "github.com/nvmeapst/nvmeapst/apst"

// ITPTBits is the width of ITPT, the idle time prior to transition (bits
// 31:8 of an APST entry), in bits: idle times up to 2^24-1 ms fit.
const ITPTBits = 24

// MaxITPT is the largest idle time ITPT holds, 2^24-1 ms (also the cap of
// the kernel's 2% heuristic).
const MaxITPT apst.Milliseconds = 1<<ITPTBits - 1

// TimeoutSpills reports whether p can program an idle time that does not
// fit ITPT: Build uses the tolerance bands (Mode is ModeTolerance) and the
// primary or secondary timeout is above MaxITPT. Such Params are the
// documented exception to the monotonicity of reachability in the bound.
func TimeoutSpills(p apst.Params) bool {
	return p.Mode() == apst.ModeTolerance && (p.PrimaryTimeout > MaxITPT || p.SecondaryTimeout > MaxITPT)
}
