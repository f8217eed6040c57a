// Package powerstate models the parts of NVMe Identify Controller data (CNS 01h,
// 4096 bytes) that decide Autonomous Power State Transitions: the controller's
// identity, NPSS, APSTA and the 32 Power State Descriptors (PSD0 to PSD31 at bytes
// 2048 + 32*n).
//
// The package is pure: it performs no I/O of its own, keeps no mutable global
// state, builds on every GOOS and is safe for concurrent use. Binary images are
// decoded by explicit little-endian offsets with bounds checks (never by unsafe
// casts), and power values are kept exactly in the units the descriptor uses
// (0.01 W or 0.0001 W), so nothing in the model is a float.
//
// # Decoding
//
// [DecodeIdentify] (or [Controller.UnmarshalBinary]) turns a 4096-byte image into
// a [Controller]; [Controller.MarshalBinary] and [Controller.AppendBinary] encode
// it back. Decode-encode-decode is the identity, and re-encoding a decoded image
// reproduces every byte the model covers.
//
// # Captures
//
// [Parse] reads any capture a user has and detects its format from the
// content: a 4096-byte image, `nvme id-ctrl` text of every nvme-cli
// generation (with or without -H), `nvme id-ctrl -o json` of every key set,
// smartctl -a/-x/-c text (6.x to 7.5) and smartctl -j JSON (7.5). The
// per-format readers ([ParseNVMeCLIText], [ParseNVMeCLIJSON],
// [ParseSmartctlText], [ParseSmartctlJSON]) are exported too, and
// [WriteNVMeCLIText], [WriteNVMeCLIJSON] and [WriteSmartctlText] write the
// formats back. A malformed capture returns a *[ParseError] naming the
// format, the line and what was expected there; a capture larger than
// [MaxCaptureSize] is refused without being read whole.
//
// # What a capture knows
//
// A controller decoded from a binary image knows every field. A controller read
// from a text capture (nvme-cli, smartctl) may not: [Controller.Known] records
// which fields the capture carried and [Controller.Format] where it came from,
// so that callers never mistake a missing value for a zero.
package powerstate
