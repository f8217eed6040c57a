// Package powerstate models the Identify Controller data that decide APST.
//
// It holds the parts of NVMe Identify Controller data (CNS 01h, 4096 bytes)
// that decide Autonomous Power State Transitions: the controller's
// identity, NPSS, APSTA and the 32 Power State Descriptors (PSD0 to PSD31 at
// bytes 2048 + 32*n), and the two fields that tell an NVMe over Fabrics
// controller from a PCIe one (CNTRLTYPE, IOCCSZ; [Controller.Fabrics]).
//
// The package is pure: it performs no I/O, keeps no mutable global state,
// builds on every GOOS and is safe for concurrent use. Binary images are
// decoded by explicit little-endian offsets with bounds checks (never by
// unsafe casts), and power values are kept exactly in the units the
// descriptor uses (0.01 W or 0.0001 W), so nothing in the model is a float.
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
// Package powerstate/capture reads and writes every capture a user has
// (nvme id-ctrl text and JSON, smartctl text and JSON, hex dumps, pasted
// and mailed forms, the APST feature captures) and returns this package's
// Controller. This package keeps what the model needs to say where its
// data came from: [Format], the enumeration of every capture format, is
// declared here and not in capture because [Controller.Format] records it
// and the model cannot import its readers. [CheckIdentify] is here too,
// beside [DecodeIdentify]: it judges a 4096-byte image by the layout the
// model decodes (capture.ParseBytes runs it on every binary input, so an
// implausible image is refused with a *[NotIdentifyError]).
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
