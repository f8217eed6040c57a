// Package apst replicates, bit for bit, the APST table Linux programs.
//
// The table is the one the Linux kernel programs for NVMe Autonomous Power
// State Transitions (nvme_configure_apst() in drivers/nvme/host/core.c),
// for every kernel generation that has shipped, and it explains every
// decision.
//
// # Building a plan
//
// One call gives the table the kernel programs for a drive:
//
//	c, err := powerstate.DecodeIdentify(image) // or capture.Parse(r) (package powerstate/capture)
//	plan, err := apst.Build(&c, apst.DefaultParams(apst.Current))
//	fmt.Println(plan.MaxPS) // 3 for the Intel 600p: NO_DEEPEST_PS keeps it out of ps4
//	for _, n := range plan.Assumptions(&c).Notes() { fmt.Println("note:", n) }
//
// Build applies the kernel's quirk tables of Params.Release (the newest
// when it is unknown) to the controller, as the kernel does at probe time,
// and [Plan.Quirks] records what that lookup applied, inferred (the PCI
// device ID, which no capture carries, from the model) and left unchecked
// (the DMI rules; a vendor's quirked PCI IDs the model does not settle).
// Leaving the quirks out is a choice the caller states:
// [Params.QuirksGiven] with Quirks 0, or quirks=none in [ParseConfig].
// [Plan.Assumptions] gathers everything the plan assumed because its input
// did not say it (APSTA, the release, the PCI ID, DMI), each only where it
// can change the answer: what a tool prints once per output.
//
// [Build] takes a [powerstate.Controller] (the drive's Identify Controller
// data) and [Params] (the generation, the controller's ps_max_latency_us
// bound, the four nvme_core.apst_* module parameters, the release whose
// quirk tables apply and force_apst) and returns a [Plan]: whether Set Features (FID 0Ch) is sent,
// APSTE, the 32 table entries as exact 64-bit values, the deepest selected
// state and the largest round-trip latency, a [Reason] for every state, and
// the line the kernel logs ([Plan.KernelLog]). Build does not allocate. The
// zero Params is rejected (its [Generation] is unset): start from
// [DefaultParams], a preset of [Policies] or [ParseConfig], whose key=value
// text [Params.String] writes back.
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
// # Kernel releases and quirks
//
// A [Release] (6.8, 5.15.0-91-generic) selects the algorithm
// ([Release.Generation]) and the quirk tables of that release
// ([QuirkTables]), which Build applies; [DriveQuirks] applies them to a
// capture on its own (with every source and note), inferring the
// PCI device ID from the model where that is certain and saying which PCI
// IDs went unchecked otherwise; [LookupQuirks] applies them to a live
// machine's [Identity] (PCI ID, DMI strings, the v7.0 nvme.quirks=
// parameter of nvme-pci, [ParseQuirkOverrides]). The tables are upstream's;
// distribution kernels backport quirks, and the sysfs quirks file
// ([ParseQuirksFile]), where present, wins. docs/quirks.md lists the
// tables' history and the inference rules with their sources.
//
// # Other inputs
//
// [ParseTolerance], [ModuleDefaultBound] and [ParseBound] map what users
// write to sysfs and the module parameters to a bound exactly as the kernel
// does; [Table]
// and [Feature] encode and decode the 256-byte Feature 0Ch payload. The
// what-if analyses (sweep, compare, simulate, recommend) are in package
// apst/analysis and the fleet survey in apst/survey.
//
// The package is pure: no I/O, no mutable globals, safe for concurrent use,
// and it builds on every GOOS. Enumerations have String, MarshalText and
// UnmarshalText. Receivers are consistent per type: small values (Params,
// Release, Quirks, the enumerations) take value receivers except for the
// methods that change them (Set, UnmarshalText); Plan and QuirkEntry take
// pointers throughout. Every sentinel error is declared in errors.go.
package apst
