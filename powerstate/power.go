package powerstate

import (
	"strconv"
)

// Scale is the unit of a power field of a Power State Descriptor. Its values
// are the two-bit encoding NVMe uses for IPS (byte 18 bits 7:6) and APS (byte
// 22 bits 7:6); MXPS (byte 3 bit 0) maps onto the same values, 0 to
// [Scale0_01W] and 1 to [Scale0_0001W].
type Scale uint8

const (
	// ScaleNotReported (00b) means the power field is not reported; nvme-cli
	// prints it as "-".
	ScaleNotReported Scale = 0
	// Scale0_0001W (01b) counts units of 0.0001 W.
	Scale0_0001W Scale = 1
	// Scale0_01W (10b) counts units of 0.01 W.
	Scale0_01W Scale = 2
	// ScaleReserved (11b) is reserved by the specification; nvme-cli prints
	// "reserved".
	ScaleReserved Scale = 3
)

// String names the scale as a unit, e.g. "0.01W".
func (s Scale) String() string {
	switch s {
	case ScaleNotReported:
		return "not-reported"
	case Scale0_0001W:
		return "0.0001W"
	case Scale0_01W:
		return "0.01W"
	case ScaleReserved:
		return "reserved"
	}
	return "Scale(" + strconv.Itoa(int(s)) + ")"
}

// Power is an exact power value: a raw 16-bit field of a Power State
// Descriptor (MP, IDLP or ACTP) with the scale that gives it a unit. No
// precision is lost: 0.0070 W stays 70 units of 0.0001 W.
//
// The zero Power is not reported (ScaleNotReported): Reported is false,
// MicroWatts 0 and String "-".
type Power struct {
	// Units is the raw field value (MP bytes 1:0, IDLP bytes 17:16 or ACTP
	// bytes 21:20).
	Units uint16
	// Scale is the unit of Units.
	Scale Scale
}

// MaxPowerOf returns the MP value mp with the unit selected by the MXPS flag.
func MaxPowerOf(mp uint16, mxps bool) Power {
	if mxps {
		return Power{Units: mp, Scale: Scale0_0001W}
	}
	return Power{Units: mp, Scale: Scale0_01W}
}

// Reported reports whether the value has a unit (its scale is 01b or 10b).
func (p Power) Reported() bool {
	return p.Scale == Scale0_0001W || p.Scale == Scale0_01W
}

// MicroWatts returns the exact value in microwatts, or 0 when the power is not
// reported or its scale is reserved.
//
//go:noinline
func (p Power) MicroWatts() uint64 {
	// Not inlined: its copies at 32 places took 0.4 KB of the page's wasm.
	switch p.Scale {
	case Scale0_0001W:
		return uint64(p.Units) * 100
	case Scale0_01W:
		return uint64(p.Units) * 10000
	}
	return 0
}

// Watts returns the value in watts as a float, for display and arithmetic
// outside the model. Use [Power.MicroWatts] for exact comparisons.
func (p Power) Watts() float64 {
	return float64(p.MicroWatts()) / 1e6
}

// String formats the value as nvme-cli does: four decimals for 0.0001 W units
// ("0.0070W"), two for 0.01 W units ("6.00W"), "-" when not reported and
// "reserved" for the reserved scale.
func (p Power) String() string {
	return string(p.appendText(nil))
}

// AppendText appends the String form to b. It implements encoding.TextAppender.
func (p Power) AppendText(b []byte) ([]byte, error) {
	return p.appendText(b), nil
}

func (p Power) appendText(b []byte) []byte {
	var div, width uint64
	switch p.Scale {
	case Scale0_0001W:
		div, width = 10000, 4
	case Scale0_01W:
		div, width = 100, 2
	case ScaleNotReported:
		return append(b, '-')
	default:
		return append(b, "reserved"...)
	}
	u := uint64(p.Units)
	b = strconv.AppendUint(b, u/div, 10)
	b = append(b, '.')
	frac := strconv.FormatUint(u%div, 10)
	for i := len(frac); i < int(width); i++ {
		b = append(b, '0')
	}
	b = append(b, frac...)
	return append(b, 'W')
}
