// Package survey tells what a change of APST configuration does to a fleet.
//
// It answers, for every drive of a fleet of Identify Controller captures,
// what a change of configuration (the bound ps_max_latency_us, the kernel
// generation or release, the apst_* module parameters, quirks, force_apst)
// does, and the inverse question, the largest default bound that keeps
// every drive's worst wake stall within a budget.
//
// A [Survey] runs each drive through two or more configurations, as
// analysis.Compare does for one drive, and keeps of it only its [Record]:
// the drive's name and vendor, per configuration the reachable states, the
// worst wake stall (the largest EXLAT the table can reach, µs) and the
// maximum power (MP, µW) of the deepest reachable state, and the steps of
// its worst stall and power as functions of the bound under the first
// configuration's parameters (its exact bound sweep, from
// analysis.Intervals). Stored packed, with one copy of each distinct
// outcome and the names front-coded, that is about 130 bytes a drive for
// two configurations when every drive differs, and a few bytes more than
// what its name adds to the name before it for a drive of a model already
// seen, so a million drives fit in at most about 130 MB.
//
// A drive whose machine is known (a bundle of apstctl collect: its real PCI
// ID, DMI strings, module parameters and quirks) is evaluated with
// [Survey.EvaluateWith], each configuration's parameters made by the
// caller on top of the machine's; the package reads nothing itself.
//
// # Merging shards
//
// [Survey.Summary] and [Survey.StallBudget] are functions of the multiset of
// records only: not of the order in which drives were added nor of how the
// fleet was split. The state of a survey is therefore its records, and the
// surveys of shards of a fleet (one per machine or rack) combine into
// exactly the survey of the whole fleet: [Survey.Merge] adds another
// survey's records, [Survey.AddRecord] adds one record, as carried from a
// shard by [Row.Record]. The summary itself is not what is merged, because
// its medians, 90th percentiles and name lists, and the stall budget for a
// budget chosen later, cannot be combined from partial summaries; the
// records can, and they are no larger than the summary's own name lists.
// The shards travel as survey shards, the JSON or NDJSON report whose codec
// is package apst/survey/shard (kept apart so that this package, which
// apst/persist and the page import, carries neither its JSON decoder nor
// its SHA-256 identities). The package does no I/O itself: the caller opens
// the files. apstctl survey writes shards and "apstctl survey --merge"
// reads them.
//
// # Contracts
//
// Latencies are apst.Microseconds, powers apst.MicroWatts, exact. A Survey
// is safe for concurrent use. The zero Survey has no configurations: the
// methods that record drives return an error matching [ErrNotCreated]
// (make one with [New] or [NewWithOptions]); its Summary and StallBudget
// describe an empty survey. Errors name the drive or record and wrap the
// package's sentinels, apst.ErrNilController, apst.ErrUnknownGeneration or
// analysis.ErrTooFewConfigs.
package survey
