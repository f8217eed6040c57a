// Package measure measures the real wake stall of an NVMe drive.
//
// As the 25 ms patch did, it interleaves latency bounds (ps_max_latency_us,
// written to pm_qos_latency_tolerance_us) trial by trial, times the first
// read after each idle time, and derives the measured/advertised
// exit-latency factor per power state that analysis.Simulate,
// analysis.Replay and analysis.Recommend take.
//
// [Run] is the engine. It touches the drive only through four interfaces:
// [Drive] (the namespace read), [Clock] (time and idle waits),
// [ToleranceFile] (the controller's pm_qos_latency_tolerance_us, the only
// thing written, restored at the end) and [IOCounters] (a trial with foreign
// I/O is discarded). [Simulation] implements all four on a virtual clock from
// a capture's Identify data; the root package nvmeapst implements them on a
// live machine (System.OpenTarget).
//
// The package is pure (no I/O of its own, no mutable globals) and builds on
// every GOOS; a Setup and its interfaces belong to one Run at a time, and a
// Simulation is not safe for concurrent use. Dependencies point down
// (measure -> analysis -> apst -> powerstate).
//
// Zero values: the zero Setup is rejected by Run (ErrSetup: it needs a
// drive, a clock, a tolerance file, a configuration and an idle time); the
// zero Offsets is OffsetsRandom; the zero SimulationOptions simulates a
// drive whose states exit as advertised.
package measure
