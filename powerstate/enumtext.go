package powerstate

import "fmt"

// MarshalText returns the format's stable name (String); a value outside
// the enumeration is an error wrapping ErrEnumText.
func (f Format) MarshalText() ([]byte, error) {
	if int(f) >= len(formatNames) {
		return nil, fmt.Errorf("%w: Format(%d)", ErrEnumText, uint8(f))
	}
	return []byte(formatNames[f]), nil
}

// UnmarshalText reads a format's stable name, e.g. "smartctl-json"; on
// error f is unchanged.
func (f *Format) UnmarshalText(b []byte) error {
	for i, n := range formatNames {
		if string(b) == n {
			*f = Format(i)
			return nil
		}
	}
	return fmt.Errorf("%w: format %q", ErrEnumText, b)
}

// MarshalText returns the scale's name (String): "not-reported",
// "0.0001W", "0.01W" or "reserved".
func (s Scale) MarshalText() ([]byte, error) {
	if s > ScaleReserved {
		return nil, fmt.Errorf("%w: Scale(%d)", ErrEnumText, uint8(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads a scale's name; on error s is unchanged.
func (s *Scale) UnmarshalText(b []byte) error {
	for v := ScaleNotReported; v <= ScaleReserved; v++ {
		if string(b) == v.String() {
			*s = v
			return nil
		}
	}
	return fmt.Errorf("%w: scale %q", ErrEnumText, b)
}

// MarshalText returns the workload as nvme-cli prints it (String) for
// WorkloadNone, Workload1 and Workload2; a reserved value (3 to 7), which
// the name "reserved" does not tell apart, is an error wrapping
// ErrEnumText.
func (w Workload) MarshalText() ([]byte, error) {
	if w > Workload2 {
		return nil, fmt.Errorf("%w: reserved Workload(%d)", ErrEnumText, uint8(w))
	}
	return []byte(w.String()), nil
}

// UnmarshalText reads "-", "1MiB 32 RW, 30s idle" or "80K 128KiB SW"; on
// error w is unchanged.
func (w *Workload) UnmarshalText(b []byte) error {
	for v := WorkloadNone; v <= Workload2; v++ {
		if string(b) == v.String() {
			*w = v
			return nil
		}
	}
	return fmt.Errorf("%w: workload %q", ErrEnumText, b)
}
