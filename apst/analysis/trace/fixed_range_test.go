package trace

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestParseFixedBound: parseFixed reads up to 2^63-1 exactly, as its doc
// says, and no further.
func TestParseFixedBound(t *testing.T) {
	for _, tc := range []struct {
		in     string
		digits int
		want   int64
		ok     bool
	}{
		{"9223372036.854775807", 9, 1<<63 - 1, true},
		{"9223372036.854775808", 9, 0, false},
		{"9223372036.854775799", 9, 1<<63 - 9, true},
		{"922337203685477580.7", 1, 1<<63 - 1, true},
		{"9223372036854775807", 0, 1<<63 - 1, true},
		{"9223372036854775808", 0, 0, false},
		{"9223372036.85477581", 9, 0, false},
	} {
		v, ok := parseFixed([]byte(tc.in), tc.digits)
		assert.Equal(t, tc.ok, ok, tc.in)
		assert.Equal(t, tc.want, v, tc.in)
	}
	assert.Equal(t, "4611686018.427387903", maxFixed(9))
}
