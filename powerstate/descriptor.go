package powerstate

import (
	"encoding/binary"
	"fmt"
)

// DescriptorSize is the size of one Power State Descriptor in bytes.
const DescriptorSize = 32

// MaxStates is the number of Power State Descriptors Identify Controller holds
// (PSD0 to PSD31). NPSS is 0-based, so a valid NPSS is at most MaxStates-1.
const MaxStates = 32

// PSD byte 3 flags.
const (
	flagMXPS = 0x01 // Max Power Scale
	flagNOPS = 0x02 // Non-Operational State
)

// Workload is the Active Power Workload (APW, PSD byte 22 bits 2:0): the
// workload under which ACTP was measured.
type Workload uint8

const (
	// WorkloadNone (000b): no workload reported.
	WorkloadNone Workload = 0
	// Workload1 (001b): "1MiB 32 RW, 30s idle".
	Workload1 Workload = 1
	// Workload2 (010b): "80K 128KiB SW".
	Workload2 Workload = 2
)

// String returns the workload as nvme-cli prints it.
func (w Workload) String() string {
	switch w {
	case WorkloadNone:
		return "-"
	case Workload1:
		return "1MiB 32 RW, 30s idle"
	case Workload2:
		return "80K 128KiB SW"
	}
	return "reserved"
}

// Descriptor is one Power State Descriptor (PSD, 32 bytes at Identify
// Controller offset 2048 + 32*n). Only NonOperational, EntryLatency and
// ExitLatency influence the kernel's APST table; the rest is kept so that a
// decoded image re-encodes to the same bytes.
//
// The zero Descriptor is an operational state (so never an APST target)
// with no entry or exit latency and no power reported (ScaleNotReported).
type Descriptor struct {
	// MaxPower is MP (bytes 1:0) scaled by MXPS (byte 3 bit 0): 0.01 W units
	// when MXPS is 0, 0.0001 W units when it is 1.
	MaxPower Power
	// NonOperational is NOPS (byte 3 bit 1): the controller processes no I/O
	// commands in this state. Only such states are APST targets.
	NonOperational bool
	// EntryLatency is ENLAT (bytes 7:4), the maximum time to enter the state.
	EntryLatency Microseconds
	// ExitLatency is EXLAT (bytes 11:8), the maximum time to leave the state.
	// The kernel compares it with ps_max_latency_us.
	ExitLatency Microseconds
	// RelativeReadThroughput is RRT (byte 12, bits 4:0 defined).
	RelativeReadThroughput uint8
	// RelativeReadLatency is RRL (byte 13, bits 4:0 defined).
	RelativeReadLatency uint8
	// RelativeWriteThroughput is RWT (byte 14, bits 4:0 defined).
	RelativeWriteThroughput uint8
	// RelativeWriteLatency is RWL (byte 15, bits 4:0 defined).
	RelativeWriteLatency uint8
	// IdlePower is IDLP (bytes 17:16) with its scale IPS (byte 18 bits 7:6);
	// ScaleNotReported when the drive does not report it.
	IdlePower Power
	// ActivePower is ACTP (bytes 21:20) with its scale APS (byte 22 bits 7:6).
	ActivePower Power
	// ActiveWorkload is APW (byte 22 bits 2:0).
	ActiveWorkload Workload
}

// TotalLatency returns ENLAT + EXLAT as the kernel computes it (64-bit, no
// overflow): the "round-trip" latency its tolerance bands and heuristic use.
func (d Descriptor) TotalLatency() uint64 {
	return uint64(d.EntryLatency) + uint64(d.ExitLatency)
}

// String summarises the descriptor in nvme-cli's words, e.g.
// "mp:0.0070W non-operational enlat:1600 exlat:43000".
func (d Descriptor) String() string {
	op := "operational"
	if d.NonOperational {
		op = "non-operational"
	}
	return fmt.Sprintf("mp:%s %s enlat:%d exlat:%d", d.MaxPower, op, d.EntryLatency, d.ExitLatency)
}

// decodeDescriptor decodes the 32 bytes of b (len(b) >= DescriptorSize).
func decodeDescriptor(b []byte) Descriptor {
	_ = b[DescriptorSize-1] // one bounds check for the whole descriptor
	flags := b[3]
	return Descriptor{
		MaxPower:                MaxPowerOf(binary.LittleEndian.Uint16(b[0:2]), flags&flagMXPS != 0),
		NonOperational:          flags&flagNOPS != 0,
		EntryLatency:            Microseconds(binary.LittleEndian.Uint32(b[4:8])),
		ExitLatency:             Microseconds(binary.LittleEndian.Uint32(b[8:12])),
		RelativeReadThroughput:  b[12],
		RelativeReadLatency:     b[13],
		RelativeWriteThroughput: b[14],
		RelativeWriteLatency:    b[15],
		IdlePower:               Power{Units: binary.LittleEndian.Uint16(b[16:18]), Scale: Scale(b[18] >> 6)},
		ActivePower:             Power{Units: binary.LittleEndian.Uint16(b[20:22]), Scale: Scale(b[22] >> 6)},
		ActiveWorkload:          Workload(b[22] & 0x07),
	}
}

// encodeDescriptor writes d into the 32 bytes of b (len(b) >= DescriptorSize).
// Bytes the model does not cover are left as they are.
func encodeDescriptor(b []byte, d *Descriptor) {
	_ = b[DescriptorSize-1]
	binary.LittleEndian.PutUint16(b[0:2], d.MaxPower.Units)
	flags := b[3] &^ (flagMXPS | flagNOPS)
	if d.MaxPower.Scale == Scale0_0001W {
		flags |= flagMXPS
	}
	if d.NonOperational {
		flags |= flagNOPS
	}
	b[3] = flags
	binary.LittleEndian.PutUint32(b[4:8], uint32(d.EntryLatency))
	binary.LittleEndian.PutUint32(b[8:12], uint32(d.ExitLatency))
	b[12] = d.RelativeReadThroughput
	b[13] = d.RelativeReadLatency
	b[14] = d.RelativeWriteThroughput
	b[15] = d.RelativeWriteLatency
	binary.LittleEndian.PutUint16(b[16:18], d.IdlePower.Units)
	b[18] = b[18]&0x3f | byte(d.IdlePower.Scale&3)<<6
	binary.LittleEndian.PutUint16(b[20:22], d.ActivePower.Units)
	b[22] = b[22]&0x38 | byte(d.ActivePower.Scale&3)<<6 | byte(d.ActiveWorkload&7)
}
