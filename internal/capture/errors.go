package capture

import "errors"

// The sentinels the capture readers wrap. powerstate exports them under the
// same names; their text starts with "powerstate: " because that is the
// package a caller sees.
var (
	// ErrUnknownFormat: the content is none of the formats the reader knows.
	ErrUnknownFormat = errors.New("powerstate: unknown capture format")
	// ErrTooLarge: the capture is larger than MaxSize.
	ErrTooLarge = errors.New("powerstate: capture too large")
	// ErrTruncated: the capture ends before what it must hold is complete.
	ErrTruncated = errors.New("powerstate: capture truncated")
	// ErrSyntax: a line or value does not have the form the tool prints
	// there, or a value is out of the range of its field.
	ErrSyntax = errors.New("powerstate: malformed capture")
	// ErrDuplicateKey: a key the reader uses appears twice.
	ErrDuplicateKey = errors.New("powerstate: duplicate key")
	// ErrMultipleCaptures: the input holds more than one device's capture.
	ErrMultipleCaptures = errors.New("powerstate: more than one capture")
)

// FailFunc builds the error a reader returns for a problem at a 1-based
// line: what the format has there, and the cause (wrapping a sentinel).
type FailFunc func(line int, expected string, err error) error
