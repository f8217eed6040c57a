package capture

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"
)

// parseDec reads what strconv.ParseUint reads in base 10, within bits,
// on decimal strings of every length, with and without stray bytes.
func TestPropertyParseDecIsParseUint(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.OneOf(
			rapid.StringMatching(`[0-9]{1,25}`),
			rapid.StringMatching(`[0-9]{0,6}[ +_x.a-f:-][0-9]{0,6}`),
			rapid.SampledFrom([]string{"", "0", "255", "256", "65535", "65536", "4294967295", "4294967296",
				"18446744073709551615", "18446744073709551616", "0000000000000000000001", "9999999999999999999"}),
		).Draw(t, "s")
		bits := rapid.SampledFrom([]int{8, 16, 32, 64}).Draw(t, "bits")
		want, err := strconv.ParseUint(s, 10, bits)
		wantOK := err == nil && s != "" && s[0] >= '0' && s[0] <= '9'
		if !wantOK {
			want = 0
		}
		got, ok := parseDec(s, bits)
		if ok != wantOK || got != want {
			t.Fatalf("parseDec(%q, %d) = %d, %v; ParseUint gives %d, %v", s, bits, got, ok, want, wantOK)
		}
	})
}

func TestParseDecEdges(t *testing.T) {
	for _, tt := range []struct {
		s    string
		bits int
		v    uint64
		ok   bool
	}{
		{"255", 8, 255, true}, {"256", 8, 0, false}, {"4294967295", 32, 1<<32 - 1, true},
		{"4294967296", 32, 0, false}, {"18446744073709551615", 64, 1<<64 - 1, true},
		{"18446744073709551616", 64, 0, false}, {"9999999999999999999", 64, 9999999999999999999, true},
		{"1 ", 32, 0, false}, {"+1", 32, 0, false}, {"1_0", 32, 0, false},
	} {
		v, ok := parseDec(tt.s, tt.bits)
		assert.Equal(t, tt.v, v, tt.s)
		assert.Equal(t, tt.ok, ok, tt.s)
	}
}
