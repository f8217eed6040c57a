package apst

import "errors"

// Sentinel errors of the package; returned errors wrap them so that callers
// can test with errors.Is. Every sentinel of package apst is declared in
// this file.
var (
	// ErrUnknownGeneration: a Generation that is not Current, V4_12 or V4_11
	// (the zero Generation of a zero Params included), or a kernel release
	// that has none (before v4.11).
	ErrUnknownGeneration = errors.New("apst: unknown kernel generation")
	// ErrInvalidConfig: configuration text the package's parsers reject: a
	// key Params.Set does not know, a policy Policies does not list, a quirk
	// name enum nvme_quirks does not have, a kernel release that is not X.Y
	// or X.Y.Z, a malformed nvme.quirks= string, a bound or module
	// parameter that is not a u64, a duration that is not a whole,
	// non-negative number of microseconds, a power state list that is not
	// "none" or ps0..ps31. The wrapping error says
	// which and where.
	ErrInvalidConfig = errors.New("apst: invalid configuration")
	// ErrInvalidTolerance: a string the kernel's pm_qos_latency_tolerance_us
	// store handler rejects with EINVAL, or an unset Tolerance.
	ErrInvalidTolerance = errors.New("apst: invalid latency tolerance")
	// ErrTableSize: an APST data structure that is not 256 bytes.
	ErrTableSize = errors.New("apst: APST table is not 256 bytes")
	// ErrNilController is returned when Build is given a nil controller.
	ErrNilController = errors.New("apst: nil controller")
	// ErrNilPlan: BuildTo given no Plan to write into.
	ErrNilPlan = errors.New("apst: nil Plan to build into")
	// ErrAPSTE: APSTE text that is not "unknown", "disabled" or
	// "enabled", or an APSTE value outside those three.
	ErrAPSTE = errors.New("apst: invalid APSTE")
)
