package shard_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/survey"
	"github.com/nvmeapst/nvmeapst/apst/survey/shard"
	"github.com/nvmeapst/nvmeapst/internal/surveytest"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// withValue returns the row with the value at path (keys and list
// indices) replaced by raw, a JSON text ("" deletes the key).
func withValue(t *testing.T, row []byte, raw string, path ...any) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(row))
	dec.UseNumber()
	var top any
	require.NoError(t, dec.Decode(&top))
	v := top
	for i, p := range path {
		last := i == len(path)-1
		switch k := p.(type) {
		case string:
			m := v.(map[string]any)
			switch {
			case last && raw == "":
				delete(m, k)
			case last:
				m[k] = json.RawMessage(raw)
			}
			v = m[k]
		case int:
			l := v.([]any)
			if last {
				l[k] = json.RawMessage(raw)
			}
			v = l[k]
		}
	}
	out, err := json.Marshal(top)
	require.NoError(t, err)
	return out
}

// Every number of a drive's row that a merged report passes on is checked
// against what a survey writes: a value of the wrong sign, beyond what a
// descriptor's fields can give, not a number, or not what the survey
// computes from the row's configurations is refused, naming the field.
func TestDecodeRowRefusesImpossibleValues(t *testing.T) {
	names, cs := surveytest.Captures(t, surveytest.CorpusDir+"/smartctl")
	configs := surveytest.Configs(t, "ps-max-latency-us=100000", "ps-max-latency-us=25000")
	_, rows := surveyRows(t, configs, survey.Options{}, names[:1], cs[:1])
	row := &rows[0]
	require.Len(t, row.Changes, 1)
	require.Positive(t, row.Changes[0].StallReduction, "the corpus's first drive changes: the cases below rest on it")
	require.NotZero(t, row.Changes[0].PowerDelta)
	require.NotZero(t, row.Results[0].Reach.States&^row.Results[1].Reach.States&^1, "a state barred")
	compact := shard.AppendRow(nil, row, "smartctl-text")
	full, err := json.Marshal(shard.NewRow(row, "smartctl-text", true))
	require.NoError(t, err)
	stall := row.Changes[0].StallReduction
	delta := row.Changes[0].PowerDelta.MilliWatts()
	for _, tc := range []struct {
		name string
		full bool
		raw  string
		path []any
		want string
	}{
		{"stall negative, beyond 32 bits", false, "-99999999999", []any{"changes", 0, "stall_reduction_us"}, "changes[0].stall_reduction_us -99999999999: want an integer from -4294967295 to 4294967295"},
		{"stall huge", false, "1e+300", []any{"changes", 0, "stall_reduction_us"}, "changes[0].stall_reduction_us 1e+300: want an integer from -4294967295 to 4294967295"},
		{"stall 1e308", false, "1e308", []any{"changes", 0, "stall_reduction_us"}, "changes[0].stall_reduction_us 1e308: want an integer"},
		{"stall beyond uint64", false, "18446744073709551616", []any{"changes", 0, "stall_reduction_us"}, "changes[0].stall_reduction_us 18446744073709551616: want an integer"},
		{"stall above 32 bits", false, "4294967296", []any{"changes", 0, "stall_reduction_us"}, "changes[0].stall_reduction_us 4294967296: want an integer from"},
		{"stall a fraction", false, fmt.Sprint(stall) + ".5", []any{"changes", 0, "stall_reduction_us"}, "changes[0].stall_reduction_us " + fmt.Sprint(stall) + ".5: want an integer"},
		{"stall negated", false, fmt.Sprint(-stall), []any{"changes", 0, "stall_reduction_us"}, fmt.Sprintf("changes[0].stall_reduction_us %d: want configs[0].worst_exit_latency_us minus configs[1]'s, %d", -stall, stall)},
		{"stall off by one", false, fmt.Sprint(stall + 1), []any{"changes", 0, "stall_reduction_us"}, "want configs[0].worst_exit_latency_us minus configs[1]'s"},
		{"stall a string", false, `"55000"`, []any{"changes", 0, "stall_reduction_us"}, `changes[0].stall_reduction_us "\"55000\"": want a number`},
		{"stall null", false, "null", []any{"changes", 0, "stall_reduction_us"}, "changes[0].stall_reduction_us: missing"},
		{"stall missing", false, "", []any{"changes", 0, "stall_reduction_us"}, "changes[0].stall_reduction_us: missing"},
		{"change delta negative huge", false, "-1e+300", []any{"changes", 0, "idle_power_delta_mw"}, "changes[0].idle_power_delta_mw -1e+300: want -655350 to 655350"},
		{"change delta 1e308", false, "1e308", []any{"changes", 0, "idle_power_delta_mw"}, "changes[0].idle_power_delta_mw 1e308: want -655350 to 655350"},
		{"change delta beyond float64", false, "1e400", []any{"changes", 0, "idle_power_delta_mw"}, "changes[0].idle_power_delta_mw 1e400: want -655350 to 655350"},
		{"change delta just above MP", false, "655350.001", []any{"changes", 0, "idle_power_delta_mw"}, "want -655350 to 655350"},
		{"change delta negated", false, fmt.Sprint(-delta), []any{"changes", 0, "idle_power_delta_mw"}, fmt.Sprintf("want configs[1].deepest_state_max_power_w minus configs[0]'s in mW, %v", delta)},
		{"change delta a string", false, `"NaN"`, []any{"changes", 0, "idle_power_delta_mw"}, "want a number"},
		{"row delta negative huge", false, "-1e+300", []any{"idle_power_delta_mw"}, "idle_power_delta_mw -1e+300: want -655350 to 655350"},
		{"row delta 1e308", false, "1e308", []any{"idle_power_delta_mw"}, "idle_power_delta_mw 1e308: want -655350 to 655350"},
		{"row delta beyond MP", false, "123456789", []any{"idle_power_delta_mw"}, "idle_power_delta_mw 123456789: want -655350 to 655350"},
		{"row delta not the change's", false, fmt.Sprint(delta + 0.001), []any{"idle_power_delta_mw"}, "idle_power_delta_mw " + fmt.Sprint(delta+0.001) + ": want configs[1].deepest_state_max_power_w minus configs[0]'s in mW"},
		{"row delta missing", false, "", []any{"idle_power_delta_mw"}, "idle_power_delta_mw: missing"},
		{"worst exit above 32 bits", false, "4294967296", []any{"configs", 1, "worst_exit_latency_us"}, "configs[1].worst_exit_latency_us 4294967296: want at most 4294967295"},
		{"round trip above two 32-bit latencies", false, "8589934591", []any{"configs", 0, "max_round_trip_us"}, "configs[0].max_round_trip_us 8589934591: want an integer from 0 to 8589934590"},
		{"round trip negative", false, "-1", []any{"configs", 0, "max_round_trip_us"}, "configs[0].max_round_trip_us -1: want an integer from 0 to 8589934590"},
		{"round trip 1e308", false, "1e308", []any{"configs", 0, "max_round_trip_us"}, "configs[0].max_round_trip_us 1e308: want an integer from 0"},
		{"round trip missing", false, "", []any{"configs", 0, "max_round_trip_us"}, "configs[0].max_round_trip_us: missing"},
		{"sweep worst exit above 32 bits", false, "4294967296", []any{"bound_sweep", 1, "worst_exit_latency_us"}, "bound_sweep[1].worst_exit_latency_us 4294967296: want at most 4294967295"},
		{"barred states not the difference", false, "[3]", []any{"changes", 0, "barred_states"}, "changes[0].barred_states [3]: want the states but 0 that configs[0] reaches and configs[1] does not"},
		{"gained states not the difference", false, "[4]", []any{"changes", 0, "gained_states"}, "changes[0].gained_states [4]: want the states but 0 that configs[1] reaches and configs[0] does not"},
		{"entry idle time not its value's", true, "16777215", []any{"configs", 0, "entries", 0, "idle_time_ms"}, "configs[0].entries[0]: target_state"},
		{"entry value not hex", true, `"0xZZ"`, []any{"configs", 0, "entries", 0, "value"}, `configs[0].entries[0]: value "0xZZ": want 0x and 16 hexadecimal digits`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := compact
			if tc.full {
				base = full
			}
			_, err := shard.DecodeRow(base)
			require.NoError(t, err, "the row as written")
			_, err = shard.DecodeRow(withValue(t, base, tc.raw, tc.path...))
			require.Error(t, err)
			var re *shard.RowError
			require.ErrorAs(t, err, &re)
			assert.Equal(t, row.Name, re.Name, "the drive named")
			assert.ErrorIs(t, err, shard.ErrNotShard)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	// In a shard, the refusal names the drive's place too.
	bad := withValue(t, compact, "-1e+300", "idle_power_delta_mw")
	data := writeShard(t, configs, false, rows, shardOpts{})
	data = bytes.Replace(data, compact, bad, 1)
	_, _, _, err = readShard(t, configs, survey.Options{}, data)
	var re *shard.RowError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, 1, re.Drive)
	assert.Contains(t, err.Error(), "idle_power_delta_mw -1e+300")
}

// genWideController draws a controller over the whole range of what its
// descriptors can hold: 32-bit entry and exit latencies at their edges,
// every MP in both scales, up to 32 states.
func genWideController(t *rapid.T) *powerstate.Controller {
	lat := rapid.OneOf(
		rapid.SampledFrom([]uint32{0, 1, 4600, 25000, 100000, 100001, math.MaxUint32 / 2, math.MaxUint32 - 1, math.MaxUint32}),
		rapid.Uint32(),
	)
	mp := rapid.OneOf(rapid.SampledFrom([]uint16{0, 1, 65534, 65535}), rapid.Uint16())
	c := &powerstate.Controller{
		NPSS:     uint8(rapid.IntRange(0, 31).Draw(t, "npss")),
		APSTA:    rapid.SampledFrom([]uint8{1, 1, 1, 0}).Draw(t, "apsta"),
		VendorID: rapid.SampledFrom([]uint16{0x144d, 0x1987, 0xabcd}).Draw(t, "vid"),
		Model:    rapid.SampledFrom([]string{"", "Acme One"}).Draw(t, "model"),
	}
	for i := range c.StateCount() {
		d := &c.PowerStates[i]
		d.NonOperational = i > 0 && rapid.Bool().Draw(t, "nops")
		d.EntryLatency = powerstate.Microseconds(lat.Draw(t, "enlat"))
		d.ExitLatency = powerstate.Microseconds(lat.Draw(t, "exlat"))
		d.MaxPower = powerstate.MaxPowerOf(mp.Draw(t, "mp"), rapid.Bool().Draw(t, "mxps"))
	}
	return c
}

// The check never refuses what a survey writes: every row a survey of 2
// to 4 configurations writes of any drive, compact or full, is read back
// and its record added, whatever the descriptors hold (latencies at 2^32-1,
// MP 65535, stall reductions of either sign).
func TestPropertyGenuineRowsPassTheCheck(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var configs []analysis.Config
		for i := range rapid.IntRange(2, 4).Draw(t, "configs") {
			p := surveytest.GenParams(t)
			if rapid.Bool().Draw(t, "wide bound") {
				p.Bound = apst.Microseconds(rapid.Uint64Range(0, math.MaxUint32+1).Draw(t, "bound"))
			}
			configs = append(configs, analysis.Config{Name: fmt.Sprintf("c%d", i), Params: p})
		}
		s, err := survey.NewWithOptions(survey.Options{KernelQuirks: rapid.Bool().Draw(t, "kq")}, configs...)
		require.NoError(t, err)
		var c *powerstate.Controller
		if rapid.Bool().Draw(t, "wide") {
			c = genWideController(t)
		} else {
			c = surveytest.GenController(t)
		}
		row, err := s.Add("drive", c)
		require.NoError(t, err)
		full, err := json.Marshal(shard.NewRow(&row, "binary", true))
		require.NoError(t, err)
		for _, raw := range [][]byte{shard.AppendRow(nil, &row, "binary"), full} {
			got, err := shard.DecodeRow(raw)
			require.NoError(t, err, "%s", raw)
			require.NoError(t, s.AddRecord(got.Record))
		}
	})
}
