package trace

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// TestBlkparseFastIsFields checks that a line read through the one-pass
// parseBlkparseFast gives exactly what parseBlkparseFields gives (the
// events, the devices, the error), on lines made of blkparse's fields and
// of near misses: any line the fast path reads it reads the same.
func TestBlkparseFastIsFields(t *testing.T) {
	tokens := []string{
		"259,0", "8,16", "259,00", "259,", ",0", "259,0,1", "x259,0", "CPU0", "Total", "Events",
		"0", "1", "42", "007", "18446744073709551615", "99999999999999999999", "1234567890123456789", "-1", "1x",
		"0.000000000", "999999999.999999999", "123456789.000000001", "12.5", "1.0000000001", ".5", "5.", ".", "1.2.3", "9223372036.854775807", "99999999999.0",
		"D", "C", "Q", "G", "dd", "D1", "C!", "R", "WS", "RWBS", "2048", "+", "8", "[fio]", "", "\t", "\v",
	}
	rapid.Check(t, func(t *rapid.T) {
		selected := rapid.Bool().Draw(t, "selected")
		var lines []string
		for range rapid.IntRange(1, 6).Draw(t, "lines") {
			var b strings.Builder
			b.WriteString(rapid.SampledFrom([]string{"", " ", "  ", "\t"}).Draw(t, "indent"))
			shape := rapid.IntRange(0, 2).Draw(t, "shape")
			n := rapid.IntRange(0, 10).Draw(t, "fields")
			for k := range n {
				if k > 0 {
					b.WriteString(rapid.SampledFrom([]string{" ", "  ", "\t", " \t "}).Draw(t, "sep"))
				}
				tok := rapid.SampledFrom(tokens).Draw(t, "tok")
				if shape > 0 { // mostly well formed
					tok = [...]string{"259,0", "1", "17", "0.000100000", "4242", "D", "R", "2048", "+", "8", "[fio]"}[k]
					if shape == 1 && k == 5 {
						tok = rapid.SampledFrom([]string{"D", "C", "Q", "M", "x"}).Draw(t, "act")
					}
					if shape == 1 && rapid.IntRange(0, 5).Draw(t, "bad") == 0 {
						tok = rapid.SampledFrom(tokens).Draw(t, "tok")
					}
				}
				b.WriteString(tok)
			}
			b.WriteString(rapid.SampledFrom([]string{"", " ", "\t"}).Draw(t, "trail"))
			lines = append(lines, b.String())
		}
		opts := Options{Format: FormatBlkparse}
		if selected {
			opts.Device = "259,0"
		}
		fast, err := NewReader(bytes.NewReader(nil), opts)
		require.NoError(t, err)
		fields, err := NewReader(bytes.NewReader(nil), opts)
		require.NoError(t, err)
		for _, l := range lines {
			fast.line++
			fields.line++
			// The line as it lies in a buffer, followed by other bytes
			// (the next line, or what a buffer held before) that the
			// scanners must not read as the line's.
			past := rapid.SliceOfN(rapid.SampledFrom([]byte("0123456789 \t\r\n,.DCx")), 0, 80).Draw(t, "past")
			b := append([]byte(l), past...)[:len(l)]
			errFast := fast.parseBlkparse(b)
			var errFields error
			if !fields.summary {
				errFields = fields.parseBlkparseFields([]byte(l))
			}
			require.Equal(t, errFields, errFast, "line %q", l)
			require.Equal(t, fields.buf, fast.buf, "line %q", l)
			require.Equal(t, fields.heap, fast.heap, "line %q", l)
			require.Equal(t, fields.device, fast.device)
			require.Equal(t, fields.devices, fast.devices)
			require.Equal(t, [3]bool{fields.multi, fields.matched, fields.summary}, [3]bool{fast.multi, fast.matched, fast.summary})
			if errFast != nil {
				return
			}
		}
	})
}
