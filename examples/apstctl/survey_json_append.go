package main

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/nvmeapst/nvmeapst/apst"
)

// appendSurveyDriveJSON appends what json.Marshal(d) writes, byte for byte
// (a test checks it on the whole corpus), without reflection: the 32 table
// entries of every configuration are most of a survey's output.
func appendSurveyDriveJSON(b []byte, d *surveyDriveJSON) ([]byte, error) {
	var err error
	str := func(key, v string) {
		b = append(b, key...)
		if err == nil {
			b, err = appendJSONValue(b, v)
		}
	}
	str(`{"path":`, d.Path)
	str(`,"model":`, d.Model)
	str(`,"firmware":`, d.Firmware)
	str(`,"vendor":`, d.Vendor)
	str(`,"vendor_id":`, d.VendorID)
	str(`,"format":`, d.Format)
	str(`,"quirks":`, d.Quirks)
	b = append(b, `,"changed":`...)
	b = strconv.AppendBool(b, d.Changed)
	b = append(b, `,"configs":[`...)
	for i := range d.Configs {
		c := &d.Configs[i]
		if i > 0 {
			b = append(b, ',')
		}
		str(`{"name":`, c.Name)
		b = append(b, `,"sent":`...)
		b = strconv.AppendBool(b, c.Sent)
		b = append(b, `,"enabled":`...)
		b = strconv.AppendBool(b, c.Enabled)
		b = append(b, `,"max_ps":`...)
		b = strconv.AppendInt(b, int64(c.MaxPS), 10)
		b = append(b, `,"max_round_trip_us":`...)
		b = strconv.AppendUint(b, c.MaxRoundTripUS, 10)
		b = append(b, `,"entries":`...)
		b = appendTableJSON(b, &c.Entries)
		b = append(b, `,"deepest_state":`...)
		b = strconv.AppendInt(b, int64(c.DeepestState), 10)
		b = append(b, `,"worst_exit_latency_us":`...)
		b = strconv.AppendUint(b, c.WorstExitLatencyUS, 10)
		b = append(b, `,"deepest_state_max_power_w":`...)
		b = appendJSONFloat(b, c.DeepestStateMaxPowerW)
		str(`,"outcome":`, c.Outcome)
		str(`,"mode":`, c.Mode)
		b = append(b, `,"params":`...)
		if err == nil {
			b, err = appendJSONValue(b, c.Params)
		}
		b = append(b, '}')
	}
	b = append(b, `],"idle_power_delta_mw":`...)
	b = appendJSONFloat(b, d.IdlePowerDeltaMW)
	b = append(b, `,"changes":[`...)
	for i := range d.Changes {
		ch := &d.Changes[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"config":`...)
		b = strconv.AppendInt(b, int64(ch.Config), 10)
		b = append(b, `,"changed":`...)
		b = strconv.AppendBool(b, ch.Changed)
		b = append(b, `,"stall_reduction_us":`...)
		b = strconv.AppendInt(b, ch.StallReductionUS, 10)
		b = append(b, `,"idle_power_delta_mw":`...)
		b = appendJSONFloat(b, ch.IdlePowerDeltaMW)
		str(`,"bars":`, ch.Bars)
		b = append(b, `,"barred_states":`...)
		b = appendIntsJSON(b, ch.BarredStates)
		b = append(b, `,"gained_states":`...)
		b = appendIntsJSON(b, ch.GainedStates)
		b = append(b, '}')
	}
	b = append(b, "]}"...)
	return b, err
}

// appendJSONValue appends json.Marshal(v).
func appendJSONValue(b []byte, v any) ([]byte, error) {
	j, err := json.Marshal(v)
	return append(b, j...), err
}

// appendJSONFloat appends f as encoding/json writes a float64.
func appendJSONFloat(b []byte, f float64) []byte {
	if a := math.Abs(f); a == 0 || (a >= 1e-6 && a < 1e21) {
		return strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	j, _ := json.Marshal(f) // exponent form; f is never NaN or infinite here
	return append(b, j...)
}

// appendIntsJSON appends a list of small integers ("[]" when empty).
func appendIntsJSON(b []byte, vs []int) []byte {
	b = append(b, '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return append(b, ']')
}

// appendTableJSON appends what apst.Table's MarshalJSON writes: 32 objects
// {"state":N,"value":"0x%016x","target_state":N,"idle_time_ms":N}.
func appendTableJSON(b []byte, t *apst.Table) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '[')
	for i, e := range t {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"state":`...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, `,"value":"0x`...)
		for sh := 60; sh >= 0; sh -= 4 {
			b = append(b, hex[uint64(e)>>uint(sh)&0xf])
		}
		b = append(b, `","target_state":`...)
		b = strconv.AppendUint(b, uint64(e.TargetState()), 10)
		b = append(b, `,"idle_time_ms":`...)
		b = strconv.AppendUint(b, uint64(e.IdleTime()), 10)
		b = append(b, '}')
	}
	return append(b, ']')
}
