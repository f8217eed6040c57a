// Package apst replicates, bit for bit, the table the Linux kernel programs
// for NVMe Autonomous Power State Transitions (nvme_configure_apst() in
// drivers/nvme/host/core.c), for every kernel generation that has shipped,
// and explains every decision.
//
// # Building a plan
//
// [Build] takes a [powerstate.Controller] (the drive's Identify Controller
// data) and [Params] (the generation, the controller's ps_max_latency_us
// bound, the four nvme_core.apst_* module parameters, the quirks and
// force_apst) and returns a [Plan]: whether Set Features (FID 0Ch) is sent,
// APSTE, the 32 table entries as exact 64-bit values, the deepest selected
// state and the largest round-trip latency, a [Reason] for every state, and
// the line the kernel logs ([Plan.KernelLog]). Build does not allocate.
//
// # Kernel oddities kept on purpose
//
// The kernel's behaviour is replicated even where it surprises:
//   - only the exit latency is compared with the bound (v4.12 and later),
//     while the tolerance bands and the logged maximum use entry+exit;
//   - writing "auto" to pm_qos_latency_tolerance_us means no limit, not the
//     module default ([ParseTolerance], [Tolerance.Bound]), and 2147483647
//     equals "any";
//   - tolerance-mode timeouts are not masked to ITPT's 24 bits, so 2^24 ms or
//     more spills into the reserved bits of an [Entry];
//   - NO_DEEPEST_PS excludes index NPSS only, whatever its flags, and
//     force_apst cancels it;
//   - APSTA is tested as a whole byte; NPSS above 31 sends nothing; a bound
//     of 0 still sends APSTE=0 with a zero table;
//   - the kernel's debug line shows only the first 64 bytes of the table.
//
// # Questions about a bound
//
// The analyses live in sibling packages that build on this one:
// [github.com/nvmeapst/nvmeapst/apst/analysis] (sweep, compare, simulate,
// recommend, the verdict on a drive's table) and
// [github.com/nvmeapst/nvmeapst/apst/survey] (a fleet of drives, streaming).
// The named [Policies] (the Linux defaults, the proposed 25 ms default and
// the Windows StorNVMe schemes) are presets of [Params].
//
// # Other inputs
//
// [ParseTolerance] and [ModuleDefaultBound] map what users write to sysfs
// and the module parameters to a bound exactly as the kernel does;
// [LookupQuirks] applies the kernel's quirk tables ([CoreQuirks],
// [PCIQuirks], [DMIRules]); [Table] and [Feature] encode and decode the
// 256-byte Feature 0Ch payload.
//
// The package is pure: no I/O, no mutable globals, safe for concurrent use,
// and it builds on every GOOS.
package apst
