// Package diagnose names the layer that made an NVMe drive drop out.
//
// It answers "my NVMe drive dropped out, reset or stalls: which layer is
// it, and what is the least costly fix?" from the kernel log's incidents
// (package kernlog), the PCIe and device power-management facts of the path
// above the controller, the drive's SMART / Health log and the APST plan
// the kernel programs (kernel-apst.md §14, §15).
//
// [Diagnose] ranks the layers that can make a drive stop answering, in
// groups ([Layer.Group]): apst; aspm and link; d3cold, runtime-pm and
// suspend; platform (firmware tables, device tree, interrupts, the host
// memory buffer, a kernel regression); firmware; power-loss and drive (the
// drive is failing: replace it). It reads cause before consequence: the
// D3cold line the PCI core prints after a surprise removal, the I/O errors
// after a controller goes down, the host-aborted commands of a reset and
// the timeouts after a resume. Each cause has a score, the lines that
// speak for and against it (a log line quoted as it appears, with its
// number: [Line]) and the tests that confirm or rule it out, cheapest
// first, with their price and, for a setting that lasts, where it goes on
// the machine's platform (persist.KernelArgument, persist.PiConfig).
//
// A layer is likely only with a discriminating sign (one that no other
// group explains as well) and a lead of three points over every other
// group. When the best layers of two groups are within a point and no
// sign separates them, the diagnosis is undecided between them
// ([Diagnosis.Undecided]) and names the one test that tells them apart
// ([Diagnosis.Separate]); no layer wins by the order of a list. What the
// user already tried ([Tried], and the log's own command line) weighs: a
// setting that did not help counts against its layer and is never
// suggested again. [KnownIssues] is a table of kernel regressions and
// quirks, matched against the log's release and lines. Without a failure
// in the log the answer is "no failure seen" and nothing is ranked.
//
// How often the first answer holds the layer a real thread's resolution
// showed is measured on public threads (testdata/threads, docs/diagnose.md).
//
// Facts are plain values ([Facts], [Fact]): each says where it came from and
// whether it was read, absent ("not exposed here": the running kernel does
// not have the file) or unreadable, so the same diagnosis runs on a live
// machine, a bundle or a pasted log. [DecodeHealthLog] decodes the 512-byte
// SMART / Health Information log page (Log Identifier 02h);
// [DecodeSlotPower] the slot power limit of a PCI function's configuration
// space (its sysfs config file, binary: [FunctionFile.Decode]), the
// captured one of the drive and the slot's of a port above it, which the
// drive layer compares with power state 0's maximum power: a drive that
// may draw more than its slot delivers.
//
// The decoders live here, not in the sysfs adapter, because they read
// bytes only: a bundle, a fixture or the page (examples/web) decodes the
// same bytes the live machine gave, and a fact's table row
// ([FunctionFiles]) carries its decoder so that the adapter reads a new
// binary fact unchanged.
//
// The package is pure: no I/O, no global state, safe for concurrent use,
// every GOOS. It renders nothing: its types carry no struct tags, and the
// command (examples/apstctl) and the page (examples/web) write their text
// and JSON themselves.
package diagnose
