package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// genJSONText draws a string of what untrusted fields hold: printable
// text, control characters, quotes, HTML's <>&, U+2028/9, other runes and
// invalid UTF-8.
func genJSONText(t *rapid.T, name string) string {
	parts := rapid.SliceOfN(rapid.SampledFrom([]string{
		"Samsung SSD 990 EVO Plus 1TB", "a", " ", "\"", "\\", "/", "<", ">", "&", "\x00", "\x01", "\b", "\f", "\n", "\r", "\t", "\x1f", "\x7f",
		"\u2028", "\u2029", "\u202e", "\u2066", "\u0085", "é", "日本", "\U0001f600", "\xff", "\xc3", "\xe2\x80", "\xed\xa0\x80", "\ufffd", "%s", "0x",
	}), 0, 8).Draw(t, name)
	var s string
	for _, p := range parts {
		s += p
	}
	return s
}

// The summary written with its lists of paths streamed is the bytes
// encoding/json writes of it, compact (NDJSON) and indented (the JSON
// document), whatever the lists (nil, empty, paths with any bytes), with
// the bidirectional and C1 controls escaped as every JSON report escapes
// them (safeio.AppendJSONSafe).
func TestPropertySummaryListsStreamed(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var sum surveySummaryJSON
		sum.Drives = rapid.IntRange(0, 9).Draw(t, "drives")
		list := func(name string) []string {
			switch rapid.IntRange(0, 2).Draw(t, name+" kind") {
			case 0:
				return nil
			case 1:
				return []string{}
			}
			var l []string
			for range rapid.IntRange(1, 4).Draw(t, name+" len") {
				l = append(l, genJSONText(t, name))
			}
			return l
		}
		for range rapid.IntRange(0, 3).Draw(t, "comparisons") {
			sum.Comparisons = append(sum.Comparisons, surveyComparisonJSON{Name: genJSONText(t, "name"), BarsNone: list("none"), BarsAll: list("all")})
		}
		wrap := struct {
			Summary surveySummaryJSON `json:"summary"`
		}{sum}
		wantCompact, err := json.Marshal(wrap)
		require.NoError(t, err)
		wantCompact = safeio.AppendJSONSafe(nil, wantCompact)
		wantIndent, err := json.MarshalIndent(sum, "", "  ")
		require.NoError(t, err)
		wantIndent = safeio.AppendJSONSafe(nil, wantIndent)

		s2 := sum
		s2.Comparisons = append([]surveyComparisonJSON(nil), sum.Comparisons...)
		lists := s2.pathLists()
		var got bytes.Buffer
		w := bufio.NewWriter(&got)
		b, err := json.Marshal(struct {
			Summary surveySummaryJSON `json:"summary"`
		}{s2})
		require.NoError(t, err)
		writeWithLists(w, b, lists)
		require.NoError(t, w.Flush())
		require.Equal(t, string(wantCompact), got.String())

		got.Reset()
		b, err = json.MarshalIndent(s2, "", "  ")
		require.NoError(t, err)
		writeWithLists(w, b, lists)
		require.NoError(t, w.Flush())
		require.Equal(t, string(wantIndent), got.String())
	})
}
