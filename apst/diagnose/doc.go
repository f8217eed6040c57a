// Package diagnose answers "my NVMe drive dropped out, reset or stalls: is
// it APST, and what is the least costly fix?" from the kernel log's
// incidents (package kernlog), the PCIe and device power-management facts
// of the path above the controller, the drive's SMART / Health log, and the
// APST plan the kernel programs (kernel-apst.md §14, §15).
//
// [Diagnose] ranks the layers that can make a drive stop answering, apst,
// aspm, d3cold, runtime-pm, link, power-loss and firmware (unknown when
// nothing fits), each with a likelihood, the lines that speak for it and
// against it (each naming its source: a log line, a sysfs file, the plan),
// and the tests that confirm or rule it out, cheapest first, with their
// price: barring only the offending APST state with a bound (from
// analysis.Recommend, with the idle power that costs), power/control=on or
// d3cold_allowed=0 for one device, an ASPM setting for one link, and
// default_ps_max_latency_us=0 or pcie_aspm=off only where the evidence
// points there. The answer says plainly when APST is probably not the cause,
// for example when PCI_STATUS reads 0xffff (the device is gone from the bus,
// which a slow exit from a power state alone does not cause).
//
// Facts are plain values ([Facts], [Fact]): each says where it came from and
// whether it was read, absent ("not exposed here": the running kernel does
// not have the file) or unreadable, so the same diagnosis runs on a live
// machine, a bundle or a pasted log. [DecodeHealthLog] decodes the 512-byte
// SMART / Health Information log page (Log Identifier 02h).
//
// The package is pure: no I/O, no global state, safe for concurrent use,
// every GOOS. It renders nothing: its types carry no struct tags, and the
// command (examples/apstctl) writes their text and JSON itself.
package diagnose
