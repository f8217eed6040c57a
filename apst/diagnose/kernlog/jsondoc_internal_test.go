package kernlog

import (
	"encoding/json"
	"testing"

	"pgregory.net/rapid"
)

// jsonValue draws a JSON value of strings (with quotes, backslashes and
// brackets in them), numbers, literals, arrays and objects.
func jsonValue(t *rapid.T, depth int) any {
	kind := rapid.IntRange(0, 5).Draw(t, "kind")
	if depth > 3 {
		kind %= 3
	}
	switch kind {
	case 0:
		return rapid.StringOf(rapid.SampledFrom([]rune(`ab "\{}[],: é`))).Draw(t, "s")
	case 1:
		return rapid.Float64Range(-1e6, 1e6).Draw(t, "n")
	case 2:
		return rapid.SampledFrom([]any{true, false, nil}).Draw(t, "lit")
	case 3, 4:
		n := rapid.IntRange(0, 3).Draw(t, "len")
		a := make([]any, n)
		for i := range a {
			a[i] = jsonValue(t, depth+1)
		}
		return a
	}
	m := map[string]any{}
	for range rapid.IntRange(0, 3).Draw(t, "members") {
		m[rapid.StringOf(rapid.SampledFrom([]rune(`k "}]`))).Draw(t, "key")] = jsonValue(t, depth+1)
	}
	return m
}

// skipJSON finds the end of any valid JSON value, indented or compact,
// with whatever follows it.
func TestRapidSkipJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := jsonValue(t, 0)
		for _, indent := range []string{"", "  "} {
			b, err := json.MarshalIndent(v, "", indent)
			if err != nil {
				t.Fatal(err)
			}
			if got := skipJSON(append(b, ", 1"...), 0); got != len(b) {
				t.Fatalf("skipJSON(%s) = %d, want %d", b, got, len(b))
			}
		}
	})
}
