package apst

import (
	"errors"
	"strings"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

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
	// ErrAPSTE: APSTE text that is not "unknown", "disabled" or
	// "enabled", or an APSTE value outside those three.
	ErrAPSTE = errors.New("apst: invalid APSTE")
	// ErrIdentifyCapture is wrapped by the *powerstate.ParseError the
	// feature capture readers return for an Identify Controller capture
	// (nvme id-ctrl or smartctl output, a 4096-byte image): powerstate.Parse
	// reads those.
	ErrIdentifyCapture = errors.New("apst: an identify controller capture, not an APST feature capture (read it with powerstate.Parse)")
)

// FeatureError is the error of the feature capture readers
// (ParseFeatureCapture, ParseFeatureBytes, ParseFeature): it names package
// apst, the one the caller called, and wraps the *powerstate.ParseError
// that says which form, which line and what was expected, so that
// errors.As finds the ParseError and errors.Is its sentinel.
type FeatureError struct {
	// Err is the parse error; it is never nil in a returned FeatureError.
	Err *powerstate.ParseError
}

// Error is the ParseError's message with "apst:" in place of
// "powerstate:".
func (e *FeatureError) Error() string {
	if e.Err == nil {
		return "apst: feature capture: unknown error"
	}
	return "apst: " + strings.TrimPrefix(e.Err.Error(), "powerstate: ")
}

// Unwrap returns the *powerstate.ParseError.
func (e *FeatureError) Unwrap() error {
	if e.Err == nil {
		return nil
	}
	return e.Err
}
