package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

func TestNormalizeBound(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"25000", "25000"}, {"25,000", "25000"}, {"25 000", "25000"}, {"25\u00a0000", "25000"}, {"25_000", "25000"},
		{"1,000,000", "1000000"}, {"25ms", "25000"}, {"25 ms", "25000"}, {"25 MS", "25000"}, {"1.5 s", "1500000"},
		{"1.5s", "1500000"}, {"100 µs", "100"}, {"100us", "100"}, {"0", "0"}, {"off", "0"}, {"unlimited", "unlimited"},
		{" Unlimited ", "unlimited"}, {"0x10", "0x10"}, {"2.5ms", "2500"}, {"10 s", "10000000"}, {"25,000 µs", "25000"},
	} {
		got, err := normalizeBound(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
	for _, in := range []string{"abc", "25 kg", "1,5", "1,5 ms", "25,00", "2500,0", "1.5", "0.5us", "ms", "1.2.3s", "--5", "-5", "25 ms ms", "1,000.5.5 s", ",000"} {
		_, err := normalizeBound(in)
		assert.Error(t, err, in)
	}
	_, err := normalizeBound("1,5")
	assert.ErrorContains(t, err, "three digits")
	_, err = normalizeBound("abc")
	assert.ErrorContains(t, err, "25 ms")
	assert.NotContains(t, err.Error(), "ps-max-latency-us", "the user's terms, not the flag")
}

// Any number of microseconds, written with separators or as milliseconds,
// reads back as itself.
func TestNormalizeBoundRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := rapid.Uint64Range(0, 1<<40).Draw(t, "us")
		plain := fmtUint(v)
		got, err := normalizeBound(plain)
		require.NoError(t, err)
		require.Equal(t, plain, got)
		got, err = normalizeBound(withCommas(plain))
		require.NoError(t, err)
		require.Equal(t, plain, got, withCommas(plain))
		ms := rapid.Uint64Range(0, 1<<30).Draw(t, "ms")
		got, err = normalizeBound(fmtUint(ms) + " ms")
		require.NoError(t, err)
		require.Equal(t, fmtUint(ms*1000), got)
	})
}

func fmtUint(v uint64) string {
	if v == 0 {
		return "0"
	}
	var b []byte
	for ; v > 0; v /= 10 {
		b = append([]byte{byte('0' + v%10)}, b...)
	}
	return string(b)
}

func withCommas(s string) string {
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// Whatever is typed, normalizeBound answers without panicking, and what
// it accepts is the parameter's text: unlimited, 0x hex, or decimal
// microseconds that read back as the same value when typed again.
func FuzzNormalizeBound(f *testing.F) {
	for _, s := range []string{"25000", "25,000", "25 000", "25ms", "1.5 s", "100 µs", "unlimited", "off", "0x10", "1,5", ",000", "9.999999s", "18446744073709551615", "1e3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := normalizeBound(s)
		if err != nil {
			require.NotEmpty(t, err.Error())
			return
		}
		if n == "unlimited" || strings.HasPrefix(n, "0x") {
			return
		}
		require.Equal(t, "", strings.Trim(n, "0123456789"), "%q gave %q", s, n)
		again, err := normalizeBound(n)
		require.NoError(t, err)
		require.Equal(t, n, again)
	})
}
