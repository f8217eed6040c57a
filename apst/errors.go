package apst

import "errors"

// Sentinel errors of the package; returned errors wrap them so that callers
// can test with errors.Is.
var (
	// ErrUnknownGeneration: a Generation that is not Current, V4_12 or V4_11.
	ErrUnknownGeneration = errors.New("apst: unknown kernel generation")
	// ErrUnknownQuirk: a quirk name other than no-apst, no-deepest-ps or none.
	ErrUnknownQuirk = errors.New("apst: unknown quirk")
	// ErrInvalidTolerance: a string the kernel's pm_qos_latency_tolerance_us
	// store handler rejects with EINVAL.
	ErrInvalidTolerance = errors.New("apst: invalid latency tolerance")
	// ErrInvalidBound: a bound or module parameter that is not a u64.
	ErrInvalidBound = errors.New("apst: invalid latency bound")
	// ErrTableSize: an APST data structure that is not 256 bytes.
	ErrTableSize = errors.New("apst: APST table is not 256 bytes")
	// ErrInvalidDuration: a duration that is not a whole, non-negative
	// number of microseconds.
	ErrInvalidDuration = errors.New("apst: invalid duration")
	// ErrInvalidStates: a power state list that is not "none" or ps0..ps31.
	ErrInvalidStates = errors.New("apst: invalid power state list")
	// ErrNilController is returned when Build is given a nil controller.
	ErrNilController = errors.New("apst: nil controller")
)
