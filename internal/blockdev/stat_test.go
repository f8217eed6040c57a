package blockdev

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

func TestParseStat(t *testing.T) {
	tests := []struct {
		name, text string
		want       Stat
		err        string
	}{
		{
			name: "17 fields (5.5 and later)",
			text: "  187411     3546 12419098    43710   119215    86311  8290922   101396        0    95400   152812    12      0  7340032   11   4322   7690\n",
			want: Stat{ReadIOs: 187411, WriteIOs: 119215, DiscardIOs: 12, FlushIOs: 4322, Fields: 17},
		},
		{
			name: "15 fields (4.18 to 5.4)",
			text: "1 2 3 4 5 6 7 8 2 10 11 12 13 14 15\n",
			want: Stat{ReadIOs: 1, WriteIOs: 5, InFlight: 2, DiscardIOs: 12, Fields: 15},
		},
		{
			name: "11 fields (before 4.18)",
			text: "1 2 3 4 5 6 7 8 0 10 11",
			want: Stat{ReadIOs: 1, WriteIOs: 5, Fields: 11},
		},
		{name: "empty", text: "", err: "0 fields, want 11, 15 or 17"},
		{name: "too few", text: "1 2 3", err: "3 fields"},
		{name: "negative", text: "1 2 3 4 -5 6 7 8 0 10 11", err: `field 5 is "-5"`},
		{name: "not a number", text: "1 2 3 4 5 6 7 8 x 10 11", err: `field 9 is "x"`},
		{name: "overflow", text: "1 2 3 4 5 6 7 8 0 10 99999999999999999999", err: "field 11"},
		{name: "long field quoted short", text: "1 2 3 4 5 6 7 8 0 10 " + strings.Repeat("z", 100), err: `"zzzzzzzzzzzzzzzzzzzzzzzz..."`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseStat(tt.text)
			if tt.err != "" {
				require.ErrorIs(t, err, ErrInvalidStat)
				assert.Contains(t, err.Error(), tt.err)
				assert.Contains(t, err.Error(), "blockdev: ")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestStatAdd(t *testing.T) {
	a := Stat{ReadIOs: 1, WriteIOs: 2, DiscardIOs: 3, FlushIOs: 4, InFlight: 1, Fields: 17}
	b := Stat{ReadIOs: 10, WriteIOs: 20, InFlight: 0, Fields: 11}
	sum := a.Add(b)
	assert.Equal(t, Stat{ReadIOs: 11, WriteIOs: 22, DiscardIOs: 3, FlushIOs: 4, InFlight: 1, Fields: 11}, sum)
	assert.Equal(t, uint64(40), sum.Requests())
	assert.Equal(t, a, Stat{}.Add(a), "the zero Stat is the identity")
}

// TestParseStatRoundTrip: any 17 unsigned numbers parse back to their
// request fields.
func TestParseStatRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := rapid.SliceOfN(rapid.Uint64(), 17, 17).Draw(t, "fields")
		var b strings.Builder
		for i, n := range v {
			if i > 0 {
				b.WriteString(rapid.SampledFrom([]string{" ", "  ", "\t"}).Draw(t, "sep"))
			}
			b.WriteString(strconv.FormatUint(n, 10))
		}
		got, err := ParseStat(b.String() + "\n")
		require.NoError(t, err)
		require.Equal(t, Stat{ReadIOs: v[0], WriteIOs: v[4], InFlight: v[8], DiscardIOs: v[11], FlushIOs: v[15], Fields: 17}, got)
	})
}

func FuzzParseStat(f *testing.F) {
	f.Add("1 2 3 4 5 6 7 8 0 10 11\n")
	f.Add("1 2 3 4 5 6 7 8 0 10 11 12 13 14 15 16 17\n")
	f.Fuzz(func(t *testing.T, s string) {
		st, err := ParseStat(s)
		if err != nil {
			require.ErrorIs(t, err, ErrInvalidStat)
			return
		}
		require.Contains(t, []int{11, 15, 17}, st.Fields)
	})
}
