// Package powerstate models the Identify Controller data that decide APST.
//
// It holds the parts of NVMe Identify Controller data (CNS 01h, 4096 bytes)
// that decide Autonomous Power State Transitions: the controller's
// identity, NPSS, APSTA and the 32 Power State Descriptors (PSD0 to PSD31 at
// bytes 2048 + 32*n), and reads them from every capture a user has.
//
// The package is pure: it performs no I/O of its own (the readers read the
// io.Reader they are given), keeps no mutable global state, builds on every
// GOOS and is safe for concurrent use. Binary images are decoded by explicit
// little-endian offsets with bounds checks (never by unsafe casts), and
// power values are kept exactly in the units the descriptor uses (0.01 W or
// 0.0001 W), so nothing in the model is a float.
//
// # Decoding
//
// [DecodeIdentify] (or [Controller.UnmarshalBinary]) turns a 4096-byte image
// into a [Controller] with at most one allocation; [Controller.MarshalBinary]
// and [Controller.AppendBinary] encode it back. Decode-encode-decode is the
// identity, and re-encoding a decoded image reproduces every byte the model
// covers.
//
// # Captures
//
// [Parse] (from an io.Reader) and [ParseBytes] (in place, without copying)
// read any capture and detect its format from the content: a 4096-byte
// image, `nvme id-ctrl` text of every nvme-cli generation (with or without
// -H), `nvme id-ctrl -o json` of every key set, smartctl -a/-x/-c text (6.x
// to 7.5) and smartctl -j JSON (7.5). Text may be UTF-8 (with or without a
// byte order mark) or UTF-16 with one, and pasted indented or quoted (a
// markdown or reST code block, an email's "> "). The per-format readers
// ([ParseNVMeCLIText], [ParseNVMeCLIJSON], [ParseSmartctlText],
// [ParseSmartctlJSON]) are exported too, and [WriteNVMeCLIText],
// [WriteNVMeCLIJSON] and [WriteSmartctlText] write the formats back.
//
// A malformed capture returns a *[ParseError] naming the format, the line
// and what was expected there, wrapping a sentinel: a capture larger than
// [MaxCaptureSize] is refused without being read whole, a key given twice
// is [ErrDuplicateKey], two devices' captures in one input are
// [ErrMultipleCaptures], an APST feature capture is [ErrFeatureCapture].
//
// # One capture machinery
//
// The readers of this package and the APST feature readers of package apst
// (nvme get-feature text, hex dump and JSON) share one machinery: one
// [ParseError] and one set of sentinels (declared here, because every
// importer of apst imports powerstate), and, in the module's
// internal/capture package, one bounded read, one text decoding, one line
// reader, one removal of pasted indentation and one JSON walker. That
// plumbing is internal so that it can change (it reads captures in place,
// which is an invariant its callers keep) without being an API; the
// enumeration of every capture format is [Format].
//
// # What a capture knows
//
// A controller decoded from a binary image knows every field. A controller
// read from a text capture (nvme-cli, smartctl) may not: [Controller.Missing]
// records which fields the capture did not carry, [Controller.Notes] what
// it kept as unknown rather than refusing the capture (a field APST does not
// use that does not fit), and [Controller.Format] where it came from, so
// that callers never mistake a missing value for a zero. No capture carries
// the PCI device ID: [Controller.PCIDeviceID] is 0 (unknown) until a caller
// sets it.
package powerstate
