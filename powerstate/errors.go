package powerstate

import (
	"errors"
	"fmt"
)

// ErrImageSize is returned (wrapped in an *ImageSizeError) when an Identify
// Controller image is not exactly IdentifySize bytes long.
var ErrImageSize = errors.New("powerstate: identify controller image has the wrong size")

// ImageSizeError reports an Identify Controller image of the wrong length.
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
