package promtext_test

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/internal/promtext"
	"github.com/nvmeapst/nvmeapst/internal/promtext/promtexttest"
)

func TestWriter(t *testing.T) {
	var w promtext.Writer
	w.Family("a_total", promtext.Counter, "help with \\ and\nnewline")
	w.Sample("a_total", 3, promtext.Label{Name: "device", Value: "nvme0"}, promtext.Label{Name: "model", Value: "x\"y\\z\nw"})
	w.Family("b", promtext.Gauge, "b")
	w.Sample("b", math.Inf(1))
	w.Sample("b", 0.025, promtext.Label{Name: "device", Value: "nvme1"})
	require.NoError(t, w.Err())
	assert.Equal(t, `# HELP a_total help with \\ and\nnewline
# TYPE a_total counter
a_total{device="nvme0",model="x\"y\\z\nw"} 3
# HELP b b
# TYPE b gauge
b +Inf
b{device="nvme1"} 0.025
`, string(w.Bytes()))
	fams, err := promtexttest.Parse(string(w.Bytes()))
	require.NoError(t, err)
	require.Len(t, fams, 2)
	assert.Equal(t, "help with \\ and\nnewline", fams[0].Help)
	assert.Equal(t, "x\"y\\z\nw", fams[0].Samples[0].Labels["model"])

	w.Reset()
	assert.Empty(t, w.Bytes())
	w.Family("a_total", promtext.Counter, "again after Reset")
	require.NoError(t, w.Err())
}

// The writer refuses what is not the format rather than writing it.
func TestWriterRefuses(t *testing.T) {
	for name, f := range map[string]func(w *promtext.Writer){
		"metric name": func(w *promtext.Writer) { w.Family("1abc", promtext.Gauge, "") },
		"dash":        func(w *promtext.Writer) { w.Family("a-b", promtext.Gauge, "") },
		"type":        func(w *promtext.Writer) { w.Family("a", "histogramm", "") },
		"twice":       func(w *promtext.Writer) { w.Family("a", promtext.Gauge, ""); w.Family("a", promtext.Gauge, "") },
		"outside":     func(w *promtext.Writer) { w.Family("a", promtext.Gauge, ""); w.Sample("b", 1) },
		"label name": func(w *promtext.Writer) {
			w.Family("a", promtext.Gauge, "")
			w.Sample("a", 1, promtext.Label{Name: "x-y"})
		},
		"reserved": func(w *promtext.Writer) {
			w.Family("a", promtext.Gauge, "")
			w.Sample("a", 1, promtext.Label{Name: "__name__"})
		},
		"label twice": func(w *promtext.Writer) {
			w.Family("a", promtext.Gauge, "")
			w.Sample("a", 1, promtext.Label{Name: "x"}, promtext.Label{Name: "x"})
		},
		"no family yet": func(w *promtext.Writer) { w.Sample("a", 1) },
	} {
		var w promtext.Writer
		f(&w)
		assert.ErrorIs(t, w.Err(), promtext.ErrInvalid, name)
		_, err := w.WriteTo(&strings.Builder{})
		assert.Error(t, err, name)
	}
}

// Whatever the label values and the value, the exposition parses back to
// them.
func TestWriterRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var w promtext.Writer
		help := rapid.String().Draw(t, "help")
		vals := rapid.SliceOfN(rapid.String(), 1, 5).Draw(t, "values")
		v := rapid.Float64().Draw(t, "v")
		w.Family("m", promtext.Gauge, help)
		for i, s := range vals {
			w.Sample("m", v, promtext.Label{Name: "i", Value: strings.Repeat("x", i)}, promtext.Label{Name: "v", Value: s})
		}
		require.NoError(t, w.Err())
		fams, err := promtexttest.Parse(string(w.Bytes()))
		require.NoError(t, err, "%q", w.Bytes())
		require.Len(t, fams, 1)
		assert.Equal(t, strings.ToValidUTF8(help, "\uFFFD"), fams[0].Help)
		require.Len(t, fams[0].Samples, len(vals))
		for i, s := range vals {
			assert.Equal(t, strings.ToValidUTF8(s, "\uFFFD"), fams[0].Samples[i].Labels["v"])
			assert.Equal(t, v, fams[0].Samples[i].Value)
		}
	})
}

// The writer allocates nothing once its buffer has grown.
func TestWriterAllocs(t *testing.T) {
	var w promtext.Writer
	labels := []promtext.Label{{Name: "device", Value: "nvme0"}, {Name: "model", Value: "Samsung \"SSD\""}}
	write := func() {
		w.Reset()
		w.Family("a", promtext.Gauge, "a")
		for range 10 {
			w.Sample("a", 0.025, labels...)
		}
	}
	write()
	assert.Zero(t, testing.AllocsPerRun(100, write))
}

// The parser refuses what a scraper would refuse or misread.
func TestParseRefuses(t *testing.T) {
	for name, text := range map[string]string{
		"no final newline":   "a 1",
		"bad name":           "1a 1\n",
		"bad label":          "a{1x=\"y\"} 1\n",
		"unquoted":           "a{x=y} 1\n",
		"bad escape":         "a{x=\"\\t\"} 1\n",
		"unterminated":       "a{x=\"y} 1\n",
		"no value":           "a{x=\"y\"}\n",
		"bad value":          "a one\n",
		"three fields":       "a 1 2 3\n",
		"bad timestamp":      "a 1 x\n",
		"second TYPE":        "# TYPE a gauge\n# TYPE a gauge\n",
		"bad type":           "# TYPE a gauges\n",
		"TYPE after sample":  "a 1\n# TYPE a gauge\n",
		"split family":       "a 1\nb 1\na{x=\"1\"} 1\n",
		"duplicate series":   "a{x=\"1\",y=\"2\"} 1\na{y=\"2\",x=\"1\"} 2\n",
		"label twice":        "a{x=\"1\",x=\"2\"} 1\n",
		"HELP bad escape":    "# HELP a x\\y\n",
		"missing comma":      "a{x=\"1\" y=\"2\"} 1\n",
		"no blank before v":  "a{x=\"1\"}1\n",
		"help after samples": "a 1\nb 1\n# HELP a late\n",
	} {
		_, err := promtexttest.Parse(text)
		assert.ErrorIs(t, err, promtexttest.ErrGrammar, name)
	}
	fams, err := promtexttest.Parse("# a comment\n\n# HELP a x\n# TYPE a gauge\na{x=\"1\",} +Inf 1700000000000\na -Inf\n")
	require.NoError(t, err)
	require.Len(t, fams, 1)
	require.NotNil(t, fams[0].Samples[0].Timestamp)
	assert.True(t, math.IsInf(fams[0].Samples[1].Value, -1))
}

func FuzzParse(f *testing.F) {
	f.Add("# HELP a x\n# TYPE a gauge\na{x=\"1\"} 1\n")
	f.Add("a{x=\"\\\"\\\\\\n\"} NaN\n")
	f.Fuzz(func(t *testing.T, text string) {
		fams, err := promtexttest.Parse(text)
		if err != nil {
			return
		}
		// What parses is written back by the writer and parses to the same
		// values (labels in any order, so compared as maps).
		var w promtext.Writer
		for _, fam := range fams {
			typ := fam.Type
			if typ == "" || typ == "histogram" || typ == "summary" {
				typ = promtext.Untyped
			}
			w.Family(fam.Name, typ, fam.Help)
			for _, s := range fam.Samples {
				if s.Name != fam.Name {
					return // a histogram's _bucket lines: not what the writer makes
				}
				var ls []promtext.Label
				for k, v := range s.Labels {
					ls = append(ls, promtext.Label{Name: k, Value: v})
				}
				w.Sample(s.Name, s.Value, ls...)
			}
		}
		if w.Err() != nil {
			return // a reserved label name (__x) the parser accepts
		}
		back, err := promtexttest.Parse(string(w.Bytes()))
		require.NoError(t, err, "%q", w.Bytes())
		require.Len(t, back, len(fams))
	})
}
