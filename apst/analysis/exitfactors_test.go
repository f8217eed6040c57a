package analysis_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
)

func TestParseExitFactors(t *testing.T) {
	f78 := analysis.Factor{Num: 39, Den: 50}
	f81 := analysis.Factor{Num: 81, Den: 100}
	for _, tc := range []struct {
		in, str, err string
		want         analysis.ExitFactors
	}{
		{in: "0.78", str: "0.78", want: analysis.ExitFactors{Default: f78}},
		{in: "ps3=0.78,ps4=0.81", str: "ps3=0.78,ps4=0.81", want: func() analysis.ExitFactors {
			var f analysis.ExitFactors
			f.ByState[3], f.ByState[4], f.Set = f78, f81, apst.StatesOf(3, 4)
			return f
		}()},
		{in: " 0.81 , PS3 = 78% ", str: "0.81,ps3=0.78", want: func() analysis.ExitFactors {
			f := analysis.ExitFactors{Default: f81}
			f.ByState[3], f.Set = f78, apst.StatesOf(3)
			return f
		}()},
		{in: "0.78,0.81", err: "more than one factor without a state"},
		{in: "ps32=0.78", err: "not a power state"},
		{in: "ps3=0.78,ps3=0.8", err: "ps3 given twice"},
		{in: "ps3=fast", err: "invalid exit-latency factor"},
		{in: "", err: "invalid exit-latency factor"},
	} {
		got, err := analysis.ParseExitFactors(tc.in)
		if tc.err != "" {
			require.ErrorIs(t, err, analysis.ErrInvalidFactor, tc.in)
			assert.Contains(t, err.Error(), tc.err, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
		assert.Equal(t, tc.str, got.String(), tc.in)
	}
	var f analysis.ExitFactors
	assert.True(t, f.IsOne(), "the zero value scales nothing")
	assert.Equal(t, apst.Microseconds(43000), f.Apply(4, 43000))
	g, err := analysis.ParseExitFactors("0.5,ps4=0.78")
	require.NoError(t, err)
	assert.Equal(t, apst.Microseconds(33540), g.Apply(4, 43000))
	assert.Equal(t, apst.Microseconds(2300), g.Apply(3, 4600))
	assert.False(t, g.IsOne())
}

// The text form of factors in range (above 0, at most MaxExitFactor)
// round-trips, and a per-state factor equal to the default
// changes no wake.
func TestExitFactorsProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		factor := func(label string) analysis.Factor {
			return analysis.Factor{Num: rapid.Uint64Range(1, 300).Draw(t, label+"-num"), Den: rapid.Uint64Range(1, 100).Draw(t, label+"-den")}
		}
		var f analysis.ExitFactors
		f.Default = factor("default")
		for s := range apst.States(rapid.Uint32().Draw(t, "set")).All() {
			f.ByState[s], f.Set = factor("state"), f.Set|1<<s
		}
		back, err := analysis.ParseExitFactors(f.String())
		if err != nil {
			t.Fatalf("%q: %v", f.String(), err)
		}
		us := apst.Microseconds(rapid.Uint64Range(0, 1<<40).Draw(t, "us"))
		for s := range uint8(apst.Entries) {
			if back.Apply(s, us) != f.Apply(s, us) {
				t.Fatalf("%q: state %d: %v != %v", f.String(), s, back.Apply(s, us), f.Apply(s, us))
			}
		}
		same := analysis.ExitFactors{Default: f.Default}
		same.ByState[3], same.Set = f.Default, apst.StatesOf(3)
		for s := range uint8(apst.Entries) {
			if same.Apply(s, us) != f.Default.Apply(us) {
				t.Fatalf("state %d", s)
			}
		}
	})
}
