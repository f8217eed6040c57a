package apst_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
)

// A duration reads as microseconds; one that is written right but does
// not fit says so, rather than that it is not a duration.
func TestParseMicroseconds(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want apst.Microseconds
		err  string
	}{
		{"150", 150, ""},
		{"4.6ms", 4600, ""},
		{"1h30m", 5400000000, ""},
		{"2s", 2000000, ""},
		{"150µs", 150, ""},
		{"18446744073709551615", apst.NoLimit, ""},
		{"18446744073709551616", 0, "out of range: at most 18446744073709551615 us"},
		// What String writes reads back, past time.Duration's range too.
		{"42444442424444445us", 42444442424444445, ""},
		{"42444442424444445µs", 42444442424444445, ""},
		{"unlimited", apst.NoLimit, ""},
		{"18446744073709551616us", 0, "out of range: at most 18446744073709551615 us"},
		{"us", 0, "want microseconds (150) or a duration"},
		{"999999999h", 0, "out of range: at most 2562047h47m16.854775s"},
		{"1h999999999999m", 0, "out of range"},
		{"soon", 0, "want microseconds (150) or a duration"},
		{"5mm", 0, "want microseconds (150) or a duration"},
		{"1.2.3s", 0, "want microseconds (150) or a duration"},
		{".s", 0, "want microseconds (150) or a duration"},
		{"-5ms", 0, "negative"},
		{"1ns", 0, "not a whole number of microseconds"},
		// Below a nanosecond, which time.ParseDuration drops: no whole
		// number of microseconds either (0.0001us had read as 0).
		{"0.0001us", 0, "not a whole number of microseconds"},
		{"1.0000001us", 0, "not a whole number of microseconds"},
		{"0.0000000001s", 0, "not a whole number of microseconds"},
		{"1s0.5ns", 0, "not a whole number of microseconds"},
		{"0.00000000000000000000001h", 0, "not a whole number of microseconds"},
		{"0.5m", 30000000, ""},
		{"0.0000001m", 6, ""},
		{"0.000001s", 1, ""},
		{"2.50000000000000000000000s", 2500000, ""},
		{"1.5μs", 0, "not a whole number of microseconds"},
		{"3μs", 3, ""},
		// The Greek mu is time.ParseDuration's unit too: too large is out
		// of range, not misspelt.
		{"9999999999999999999μs", 0, "out of range"},
	} {
		got, err := apst.ParseMicroseconds(tc.in)
		if tc.err != "" {
			require.Error(t, err, tc.in)
			assert.ErrorIs(t, err, apst.ErrInvalidConfig, tc.in)
			assert.Contains(t, err.Error(), tc.err, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
}
