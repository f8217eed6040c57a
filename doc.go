// Package nvmeapst reads a live machine's NVMe APST state and explains it.
//
// The module models the decisions Linux makes about NVMe Autonomous Power
// State Transitions (APST): which power states a drive may fall into when
// idle, after how long, and why, for every kernel generation that has
// shipped.
//
// # Data flow
//
//	capture (4096-byte image, nvme-cli, smartctl) --powerstate/capture--> powerstate.Controller
//	Controller + apst.Params --apst.Build--> Plan (quirks of the release, table, reasons, kernel log line)
//	live machine: sysfs (bound, module parameters, PCI/DMI ids) + ioctl (identify, programmed table)
//
// The work is split into packages (docs/architecture.md gives the import
// rules, which a test checks):
//
//   - powerstate decodes Identify Controller data into a Controller;
//     powerstate/capture reads it from every capture (nvme-cli and smartctl
//     text and JSON, hex dumps, pasted forms), and the APST feature from
//     nvme get-feature captures, and writes the formats back.
//   - apst replicates nvme_configure_apst() bit for bit (Build), decodes and
//     encodes the 256-byte Feature 0Ch table, maps pm_qos_latency_tolerance_us
//     strings and module parameters to a bound, and holds the kernel's quirk
//     tables.
//   - apst/analysis (sweep, compare, simulate, replay, recommend, check, with
//     the trace readers of apst/analysis/trace and their generators in
//     apst/analysis/trace/tracetest), apst/survey (fleets, with its shard codec in
//     apst/survey/shard), apst/persist
//     (settings that make a bound last, with the udev rule language in
//     apst/persist/udev) and apst/measure (the measurement
//     engine) are the analyses on top.
//   - apst/diagnose ranks the layers that can make a drive drop out, from
//     the kernel log that apst/diagnose/kernlog reads.
//   - apst/apsttest holds rapid generators and invariant checks for tests.
//   - sysfs and ioctl are thin adapters to a live Linux machine;
//     ioctl/ioctltest is a fake controller for tests.
//
// This root package is the live machine, and only that: it puts sysfs and
// ioctl together. [Live] opens the running system ([OpenRoot] a copy of its
// sysfs tree); [System.Inspect] compares what the kernel should have
// programmed with what each drive holds and names the likely cause of a
// difference; [System.Collect] writes a bundle that [OpenBundle] replays on
// another machine; [System.SetLatency] sets a controller's
// pm_qos_latency_tolerance_us, validated first and read back after; and
// [System.OpenTarget] opens a namespace for a measurement, implementing the
// interfaces of package apst/measure on the live drive.
//
// powerstate, powerstate/capture, apst and its sub-packages are pure: no I/O, no mutable
// globals, safe for concurrent use, and they build on every GOOS.
//
// # Untrusted text
//
// What a machine or a bundle says is returned as it says it: a model,
// serial or state read from sysfs, a quirk name of a controller's quirks
// file, a bundle's kernel release and the messages it recorded. That holds
// for the data fields and for the notes, summaries and problem messages
// that repeat those strings, which may carry control characters: escape
// them before writing them to a terminal (apstctl's text output does).
//
// # Example
//
//	c, err := powerstate.DecodeIdentify(image) // 4096 bytes
//	if err != nil { ... }
//	p := apst.DefaultParams(apst.Current) // the kernel's defaults and quirk tables
//	p.Bound = 25000 // µs, as pm_qos_latency_tolerance_us=25000 sets it
//	plan, err := apst.Build(&c, p)
//	fmt.Println(plan.MaxPS, plan.Table[0], plan.KernelLog())
//	fmt.Println(plan.Quirks.Notes(c.Model)) // what the lookup inferred or left unchecked
//
// The command examples/apstctl is the command-line face of the library.
package nvmeapst
