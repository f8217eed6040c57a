package apst_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
)

func TestParseTolerance(t *testing.T) {
	for _, tc := range []struct {
		in    string
		want  string // read-back form, "" = rejected
		bound apst.Microseconds
	}{
		{"auto", "auto", apst.NoLimit},
		{"auto\n", "auto", apst.NoLimit},
		{"any", "any", apst.NoLimit},
		{"2147483647", "any", apst.NoLimit},
		{"2147483646", "2147483646", 2147483646},
		{"0", "0", 0},
		{"-0", "0", 0},
		{"+25000", "25000", 25000},
		{"25000\n", "25000", 25000},
		{"0x3e8", "1000", 1000},
		{"0X3E8", "1000", 1000},
		{"010", "8", 8},
		{"0x7fffffff", "any", apst.NoLimit},
		{"-5", "", 0},
		{"-2147483648", "", 0},
		{"2147483648", "", 0},
		{"99999999999999999999", "", 0},
		{"12abc", "", 0},
		{"08", "", 0},
		{"0x", "", 0},
		{"auto\nany", "", 0},
		{"auto\n\n", "", 0},
		{" 100", "", 0},
		{"100 ", "", 0},
		{"", "", 0},
		{"\n", "", 0},
		{"AUTO", "", 0},
		{"+-5", "", 0},
	} {
		t.Run(tc.in, func(t *testing.T) {
			tol, err := apst.ParseTolerance(tc.in)
			if tc.want == "" {
				require.ErrorIs(t, err, apst.ErrInvalidTolerance)
				assert.Contains(t, err.Error(), "EINVAL")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, tol.String())
			assert.Equal(t, tc.bound, tol.Bound())
		})
	}
}

func TestModuleDefaultBound(t *testing.T) {
	assert.Equal(t, apst.Microseconds(0), apst.ModuleDefaultBound(0))
	assert.Equal(t, apst.Microseconds(100000), apst.ModuleDefaultBound(100000))
	assert.Equal(t, apst.Microseconds(2147483646), apst.ModuleDefaultBound(2147483646))
	assert.Equal(t, apst.NoLimit, apst.ModuleDefaultBound(2147483647))
	assert.Equal(t, apst.NoLimit, apst.ModuleDefaultBound(3000000000))
	assert.Equal(t, apst.NoLimit, apst.ModuleDefaultBound(1<<64-1))
}

func TestParseBound(t *testing.T) {
	for in, want := range map[string]apst.Microseconds{
		"0": 0, "25000": 25000, "unlimited": apst.NoLimit, "max": apst.NoLimit,
		"18446744073709551615": apst.NoLimit, "0x10": 16,
	} {
		got, err := apst.ParseBound(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "-1", "25ms", "18446744073709551616", "abc", "010", "00", "+0100", " 09"} {
		_, err := apst.ParseBound(in)
		require.ErrorIs(t, err, apst.ErrInvalidConfig, in)
		assert.Contains(t, err.Error(), "apst: ")
	}
	// A leading 0 is octal to the kernel: refused, saying what it reads.
	_, err := apst.ParseBound("010")
	assert.ErrorContains(t, err, "octal to the kernel (it reads 8)")
	_, err = apst.ParseBound("09")
	assert.ErrorContains(t, err, "a digit 8 or 9 is no octal digit")
}
