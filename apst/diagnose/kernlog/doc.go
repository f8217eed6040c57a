// Package kernlog reads the kernel log lines that matter when an NVMe drive
// drops out, resets or stalls (kernel-apst.md §15), from a pasted or live
// log, and groups them into incidents per controller.
//
// [Read] streams any log a user is likely to paste: plain dmesg
// ("[   12.345678] nvme nvme0: ..."), dmesg -T ("[Tue Dec  1 10:00:00 2026]
// ..."), journalctl -k in the short, short-precise, short-monotonic and
// short-iso formats, syslog files (with or without the dmesg time after
// "kernel:"), /dev/kmsg records ("6,1234,5678901,-;..."), lines without a
// time stamp, and all of these indented or quoted ("> ") as in a bug report
// or an e-mail. A line that is not one of the events below is skipped,
// never an error.
//
// Events ([Kind]): the controller down with CSTS and PCI_STATUS, the
// "faulty power saving mode" hint and the parameters it suggests, I/O and
// admin command timeouts in the old and the 6.x shapes with the action the
// driver took, abort status, probe and reset failures, a failed Set Features
// APST, D3cold (or D3hot) resume failures, AER reports (the root port's
// "error received" line naming the device, and the device's "PCIe Bus Error"
// line with severity and layer), pciehp link-down reports, block I/O errors
// with the NVMe status, the "pci function" line that ties a controller to
// its PCI address, and the kernel release and command line.
//
// # Limits
//
// Memory is bounded whatever the input: a line longer than [MaxLineLength]
// is skipped without being held (counted in [Log.LongLines]); at most
// [MaxEvents] events are kept (the rest are counted in [Log.DroppedEvents]
// and still close or extend incidents they belong to only by count); a
// controller has at most [MaxIncidents] incidents; at most [MaxAddresses]
// PCI addresses are mapped to controllers (the rest counted in
// [Log.DroppedAddresses]). A 1 GB log is read in
// one pass with memory independent of its size. Input that holds NUL bytes
// and no event at all is refused with [ErrBinary].
//
// The package is pure: it reads only the io.Reader it is given, keeps no
// global state and is safe for concurrent use.
package kernlog
