// Package analysis answers what-if questions about the APST table the
// kernel programs for one controller, from its Identify data and apst.Params.
//
//   - Intervals and Sweep partition the whole bound range (ps_max_latency_us,
//     0 to 2^64-1) into the intervals that program the same table: bound
//     enumeration is written once, here, and the other analyses use it.
//   - Compare sets configurations side by side; Recommend finds the bounds
//     that meet a Goal (a stall limit, barred states); IdleTimeline,
//     Simulate and Replay follow a table through idle gaps or a trace.
//   - Check compares the feature a drive holds (Get Features 0Ch) with the
//     kernel's plan and lists every configuration that reproduces it.
//
// Everything is pure (no I/O, no mutable globals) and safe for concurrent
// use; dependencies point down (analysis -> apst -> powerstate).
//
// Zero values: a Config or Params whose Generation is unset is rejected by
// every analysis (through apst.Build); the zero Goal is rejected by
// Recommend (ErrZeroGoal: build goals with StallGoal or BarGoal); the zero
// Factor is 1 (exit latencies as advertised); the zero SimOptions simulates
// from ps0 with advertised exit latencies and no CPU wake; the zero
// GapDistribution is none of the kinds and Sample refuses it
// (ErrInvalidGaps: build one with ParseGapDistribution); the zero Verdict
// and Reproduction are not answers (only Check makes them).
package analysis
