package analysis_test

import (
	"errors"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
)

// A factor is above 0 and at most MaxExitFactor: one that reads but is
// not (0, one that would saturate every wake at 2^64-1 µs) is refused with
// ErrFactorRange, naming it and the range; what is no factor at all (NaN,
// Inf, negative, an exponent) is refused as before, with ErrInvalidFactor
// alone.
func TestParseExitFactorsRange(t *testing.T) {
	for _, tc := range []struct {
		in         string
		want       string // the factors read, "" when refused
		err        string
		outOfRange bool
	}{
		{in: "1000", want: "1000"},
		{in: "100000%", want: "1000"},
		{in: "1000000‰", want: "1000"},
		{in: "999999/1000", want: "999.999"},
		{in: "0.000000000000000001", want: "0.000000000000000001"},
		{in: "ps4=1000,0.5", want: "0.5,ps4=1000"},
		{in: "18446744073709551615", err: "out of range: 18446744073709551615: want a factor above 0 and at most 10000", outOfRange: true},
		{in: "10001", err: "out of range: 10001: want a factor above 0 and at most 10000", outOfRange: true},
		{in: "10000.000000000000001", err: "out of range: 10000.000000000000001:", outOfRange: true},
		{in: "1000001%", err: "out of range: 10000.01:", outOfRange: true},
		{in: "18446744073709551615/18446744073709551614", want: "18446744073709551615/18446744073709551614"},
		{in: "18446744073709551615/1844674407370955", err: "out of range", outOfRange: true},
		{in: "0", err: "out of range: 0: want a factor above 0 and at most 10000", outOfRange: true},
		{in: "0.0", err: "out of range: 0:", outOfRange: true},
		{in: "0%", err: "out of range: 0:", outOfRange: true},
		{in: "0/7", err: "out of range: 0:", outOfRange: true},
		{in: "0.78,ps4=0", err: "out of range: ps4=0: want a factor above 0 and at most 10000", outOfRange: true},
		{in: "ps3=20000,ps4=0", err: "out of range: ps3=20000:", outOfRange: true},
		{in: "NaN", err: `invalid exit-latency factor "NaN": want a decimal`},
		{in: "Inf", err: `invalid exit-latency factor "Inf"`},
		{in: "+Inf", err: `invalid exit-latency factor "+Inf"`},
		{in: "-1", err: `invalid exit-latency factor "-1"`},
		{in: "-0", err: `invalid exit-latency factor "-0"`},
		{in: "1e308", err: `invalid exit-latency factor "1e308"`},
		{in: "1e-3", err: `invalid exit-latency factor "1e-3"`},
		{in: "18446744073709551616", err: `invalid exit-latency factor "18446744073709551616"`},
	} {
		got, err := analysis.ParseExitFactors(tc.in)
		if tc.err == "" {
			require.NoError(t, err, tc.in)
			assert.Equal(t, tc.want, got.String(), tc.in)
			continue
		}
		require.ErrorIs(t, err, analysis.ErrInvalidFactor, tc.in)
		assert.Equal(t, tc.outOfRange, errors.Is(err, analysis.ErrFactorRange), "%s: %v", tc.in, err)
		assert.Contains(t, err.Error(), tc.err, tc.in)
		assert.Contains(t, err.Error(), "analysis: ", tc.in)
		assert.Equal(t, analysis.ExitFactors{}, got, tc.in)
	}
}

// Factors are accepted exactly when the fraction is above 0 and at most
// MaxExitFactor; an accepted factor scales any exit latency a drive can
// advertise (at most 2^32-1 µs), plus the widest CPU wake (2^32-1 µs),
// without saturating at 2^64-1 µs, and a non-zero latency to a non-zero
// one.
func TestPropertyExitFactorRange(t *testing.T) {
	maxRat := big.NewRat(analysis.MaxExitFactor, 1)
	rapid.Check(t, func(t *rapid.T) {
		num := rapid.OneOf(rapid.Uint64Range(0, 2000), rapid.Uint64()).Draw(t, "num")
		den := rapid.OneOf(rapid.Uint64Range(1, 100), rapid.Uint64Range(1, 1<<62)).Draw(t, "den")
		f := analysis.Factor{Num: num, Den: den}
		r := new(big.Rat).SetFrac(new(big.Int).SetUint64(num), new(big.Int).SetUint64(den))
		inRange := r.Sign() > 0 && r.Cmp(maxRat) <= 0
		var fs analysis.ExitFactors
		if rapid.Bool().Draw(t, "per state") {
			fs.ByState[4], fs.Set = f, apst.StatesOf(4)
		} else {
			fs.Default = f
		}
		text := fs.String()
		got, err := analysis.ParseExitFactors(text)
		if !inRange {
			require.ErrorIs(t, err, analysis.ErrFactorRange, "%s", text)
			return
		}
		require.NoError(t, err, "%s", text)
		exlat := apst.Microseconds(rapid.Uint64Range(1, 1<<32-1).Draw(t, "exlat"))
		scaled := got.Apply(4, exlat)
		require.Less(t, scaled, apst.NoLimit-(1<<32-1), "%s x %d", text, exlat)
		require.Positive(t, uint64(scaled), "%s x %d", text, exlat)
	})
}
