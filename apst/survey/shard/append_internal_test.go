package shard

import (
	"bytes"
	"encoding/json"
	"github.com/nvmeapst/nvmeapst/apst/survey"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// encodingJSONRow is the row as encoding/json writes it (an Encoder, as
// the survey used to: HTML-safe), without its newline.
func encodingJSONRow(t require.TestingT, row *survey.Row, format string) []byte {
	var b bytes.Buffer
	require.NoError(t, json.NewEncoder(&b).Encode(NewRow(row, format, false)))
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// genJSONText draws a string of what untrusted fields hold: printable
// text, control characters, quotes, HTML's <>&, U+2028/9, other runes and
// invalid UTF-8.
func genJSONText(t *rapid.T, name string) string {
	parts := rapid.SliceOfN(rapid.SampledFrom([]string{
		"Samsung SSD 990 EVO Plus 1TB", "a", " ", "\"", "\\", "/", "<", ">", "&", "\x00", "\x01", "\b", "\f", "\n", "\r", "\t", "\x1f", "\x7f",
		"\u2028", "\u2029", "é", "日本", "\U0001f600", "\xff", "\xc3", "\xe2\x80", "\xed\xa0\x80", "\ufffd", "%s", "0x",
	}), 0, 8).Draw(t, name)
	var s string
	for _, p := range parts {
		s += p
	}
	return s
}

// genRow draws a drive's row: every field AppendRow writes, with
// untrusted strings and powers of every scale.
func genRow(t *rapid.T) *survey.Row {
	power := func(name string) powerstate.Power {
		return powerstate.Power{Units: rapid.Uint16().Draw(t, name), Scale: powerstate.Scale(rapid.IntRange(0, 3).Draw(t, name+" scale"))}
	}
	states := func(name string) apst.States { return apst.States(rapid.Uint32().Draw(t, name)) }
	row := &survey.Row{
		Name: genJSONText(t, "name"), Vendor: genJSONText(t, "vendor"), VendorID: rapid.Uint16().Draw(t, "vid"),
		Model: genJSONText(t, "model"), Firmware: genJSONText(t, "firmware"),
		Quirks:             apst.Quirks(rapid.Uint64().Draw(t, "quirks")),
		QuirksInferredFrom: rapid.SampledFrom([]string{"", "model \"INTEL SSDPEKKW256G7\" (Intel 600p, high confidence)"}).Draw(t, "inferred"),
		Assumed:            survey.Assumed(rapid.Uint8().Draw(t, "assumed")),
		Changed:            rapid.Bool().Draw(t, "changed"),
	}
	for range rapid.IntRange(0, 3).Draw(t, "unchecked") {
		row.QuirksUncheckedPCI = append(row.QuirksUncheckedPCI, apst.PCIID{Vendor: rapid.Uint16().Draw(t, "pv"), Device: rapid.Uint16().Draw(t, "pd")})
	}
	for range rapid.IntRange(1, 3).Draw(t, "configs") {
		var r analysis.ConfigResult
		r.Plan.Sent, r.Plan.Enabled = rapid.Bool().Draw(t, "sent"), rapid.Bool().Draw(t, "enabled")
		r.Plan.MaxPS = rapid.IntRange(-1, 31).Draw(t, "max ps")
		r.Plan.MaxRoundTrip = apst.Microseconds(rapid.Uint64().Draw(t, "rt"))
		r.Plan.Outcome = apst.Outcome(rapid.IntRange(0, 6).Draw(t, "outcome"))
		r.Reach.States, r.Reach.Deepest = states("reach"), rapid.Uint8Range(0, 31).Draw(t, "deepest")
		r.Reach.WorstExitLatency = apst.Microseconds(rapid.Uint64().Draw(t, "worst"))
		r.DeepestMaxPower = power("mp")
		row.Results = append(row.Results, r)
		row.Changes = append(row.Changes, survey.Change{
			Config: len(row.Changes), Changed: rapid.Bool().Draw(t, "ch"), StallReduction: rapid.Int64().Draw(t, "stall"),
			PowerDelta: apst.MicroWatts(rapid.Int64Range(-1<<40, 1<<40).Draw(t, "delta")), Bars: survey.BarClass(rapid.IntRange(0, 5).Draw(t, "bars")),
			Barred: states("barred"), Gained: states("gained"),
		})
	}
	for range rapid.IntRange(0, 4).Draw(t, "sweep") {
		row.Sweep = append(row.Sweep, survey.Step{
			Min: apst.Microseconds(rapid.Uint64().Draw(t, "min")), WorstExitLatency: apst.Microseconds(rapid.Uint64().Draw(t, "swl")),
			DeepestMaxPower: apst.MicroWatts(rapid.Int64Range(0, 1<<40).Draw(t, "smp")), Reach: states("sreach"), Same: rapid.Bool().Draw(t, "same"),
		})
	}
	return row
}

// The hand-written row is the bytes encoding/json writes of the row's
// structs, whatever its strings (escaped alike), numbers and floats; and
// encoding/json reads it back to those structs.
func TestPropertyShardRowIsJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		row := genRow(t)
		format := rapid.SampledFrom([]string{"smartctl", "binary", "nvme-cli", "a<b>&\"c\""}).Draw(t, "format")
		got := AppendRow(nil, row, format)
		require.Equal(t, string(encodingJSONRow(t, row, format)), string(got))
		var back Row
		require.NoError(t, json.Unmarshal(got, &back))
		want := NewRow(row, format, false)
		// Strings with invalid UTF-8 read back with U+FFFD, as from
		// encoding/json's own output.
		var wantBack Row
		require.NoError(t, json.Unmarshal(encodingJSONRow(t, row, format), &wantBack))
		require.Equal(t, wantBack, back)
		require.Equal(t, want.Configs, back.Configs)
		require.Equal(t, want.BoundSweep, back.BoundSweep)
	})
}

// Floats as encoding/json writes them, at the edges of its two forms.
func TestAppendJSONFloat(t *testing.T) {
	for _, f := range []float64{0, 1, -1, 0.5, 1e-6, 9.99e-7, 1e-7, 1.5e-8, 1e20, 1e21, 1.5e21, -1e-7, 123456.789, 0.0001, math.MaxFloat64, math.SmallestNonzeroFloat64, 1e100, 1e-100} {
		want, err := json.Marshal(f)
		require.NoError(t, err)
		require.Equal(t, string(want), string(appendJSONFloat(nil, f)), "%g", f)
	}
	rapid.Check(t, func(t *rapid.T) {
		f := rapid.Float64().Draw(t, "f")
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return
		}
		want, err := json.Marshal(f)
		require.NoError(t, err)
		require.Equal(t, string(want), string(appendJSONFloat(nil, f)))
	})
}

// Strings as encoding/json writes them (HTML-safe), whatever their bytes.
func TestPropertyAppendJSONString(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.OneOf(rapid.String(), rapid.StringMatching(`[\x00-\x7f]*`), rapid.Map(rapid.SliceOf(rapid.Byte()), func(b []byte) string { return string(b) }), rapid.Custom(func(t *rapid.T) string { return genJSONText(t, "s") })).Draw(t, "s")
		var want bytes.Buffer
		require.NoError(t, json.NewEncoder(&want).Encode(s))
		require.Equal(t, want.String(), string(appendJSONString(nil, s))+"\n")
	})
}
