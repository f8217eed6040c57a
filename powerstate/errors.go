package powerstate

import (
	"errors"
	"fmt"
)

// ErrImageSize is returned (wrapped in an *ImageSizeError) when an Identify
// Controller image is not exactly IdentifySize bytes long.
var ErrImageSize = errors.New("powerstate: identify controller image has the wrong size")

// ErrEnumText is wrapped by the errors of the enumerations' text
// marshalling (Format, Scale, Workload): a name that is none of the type's,
// or a value that has none. Every sentinel of the package is declared in
// this file.
var ErrEnumText = errors.New("powerstate: invalid enumeration text")

// ErrNotIdentify: 4096 bytes (or another binary file) that are not an
// Identify Controller image; a *NotIdentifyError says what they look like
// instead (CheckIdentify).
var ErrNotIdentify = errors.New("powerstate: not an identify controller image")

// ImageSizeError reports an Identify Controller image of the wrong length.
//
// The zero ImageSizeError reports an image of 0 bytes; errors.Is matches
// ErrImageSize for it as for any other.
type ImageSizeError struct {
	// Got is the number of bytes that came.
	Got int
}

// Error says how many bytes came and how many were expected.
func (e *ImageSizeError) Error() string {
	return fmt.Sprintf("powerstate: identify controller image is %d bytes, want exactly %d", e.Got, IdentifySize)
}

// Is makes errors.Is(err, ErrImageSize) true.
func (e *ImageSizeError) Is(target error) bool { return target == ErrImageSize }
