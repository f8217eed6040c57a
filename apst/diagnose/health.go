package diagnose

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// HealthLogSize is the size of the SMART / Health Information log page
// (Get Log Page, Log Identifier 02h).
const HealthLogSize = 512

// ErrHealthLog is wrapped by the errors of DecodeHealthLog.
var ErrHealthLog = errors.New("diagnose: invalid SMART / Health log page")

// HealthLog is the part of the SMART / Health Information log page (LID
// 02h) a diagnosis reads. The 128-bit counters are given as uint64; one
// above 2^64-1 saturates there and Saturated says so.
//
// The zero HealthLog is what DecodeHealthLog makes of a page of zeros, and
// returns with an error: no critical warning, 0 K, and every percentage and
// counter 0.
type HealthLog struct {
	// CriticalWarning is byte 0 (bit 0 spare below threshold, 1
	// temperature, 2 reliability degraded, 3 read-only, 4 volatile backup
	// failed, 5 persistent memory read-only).
	CriticalWarning uint8
	// TemperatureK is the composite temperature in kelvins.
	TemperatureK uint16
	// AvailableSpare, AvailableSpareThreshold (byte 4: below it the drive
	// warns) and PercentageUsed are in percent.
	AvailableSpare          uint8
	AvailableSpareThreshold uint8
	PercentageUsed          uint8
	// PowerCycles, PowerOnHours, UnsafeShutdowns, MediaErrors (media and
	// data integrity errors) and ErrorLogEntries (number of error
	// information log entries) are the counters of bytes 112 to 191.
	PowerCycles     uint64
	PowerOnHours    uint64
	UnsafeShutdowns uint64
	MediaErrors     uint64
	ErrorLogEntries uint64
	// Saturated reports that some counter exceeded 2^64-1.
	Saturated bool
}

// DecodeHealthLog decodes a SMART / Health log page: b must hold exactly
// HealthLogSize bytes.
func DecodeHealthLog(b []byte) (HealthLog, error) {
	if len(b) != HealthLogSize {
		return HealthLog{}, fmt.Errorf("%w: %d bytes, want %d", ErrHealthLog, len(b), HealthLogSize)
	}
	h := HealthLog{
		CriticalWarning:         b[0],
		TemperatureK:            binary.LittleEndian.Uint16(b[1:3]),
		AvailableSpare:          b[3],
		AvailableSpareThreshold: b[4],
		PercentageUsed:          b[5],
	}
	u128 := func(off int) uint64 {
		lo, hi := binary.LittleEndian.Uint64(b[off:]), binary.LittleEndian.Uint64(b[off+8:])
		if hi != 0 {
			h.Saturated = true
			return math.MaxUint64
		}
		return lo
	}
	h.PowerCycles = u128(112)
	h.PowerOnHours = u128(128)
	h.UnsafeShutdowns = u128(144)
	h.MediaErrors = u128(160)
	h.ErrorLogEntries = u128(176)
	return h, nil
}

// EncodeHealthLog is the inverse of DecodeHealthLog for the fields HealthLog
// holds (the others zero), for tests and fakes.
func EncodeHealthLog(h HealthLog) []byte {
	b := make([]byte, HealthLogSize)
	b[0] = h.CriticalWarning
	binary.LittleEndian.PutUint16(b[1:3], h.TemperatureK)
	b[3], b[4], b[5] = h.AvailableSpare, h.AvailableSpareThreshold, h.PercentageUsed
	for off, v := range map[int]uint64{112: h.PowerCycles, 128: h.PowerOnHours, 144: h.UnsafeShutdowns, 160: h.MediaErrors, 176: h.ErrorLogEntries} {
		binary.LittleEndian.PutUint64(b[off:], v)
		if h.Saturated && v == math.MaxUint64 {
			b[off+8] = 1
		}
	}
	return b
}
