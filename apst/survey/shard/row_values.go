package shard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/survey"
)

// The bounds of what a survey writes in a row, from what an Identify
// Controller's power state descriptor can hold.
const (
	// maxExitUS is the largest exit (or entry) latency: EXLAT and ENLAT
	// are 32 bits, in µs.
	maxExitUS = math.MaxUint32
	// maxRoundTripUS is the largest max_round_trip_us: ENLAT+EXLAT of one
	// state.
	maxRoundTripUS = 2 * maxExitUS
	// maxPowerDeltaMW bounds a power delta in mW: two powers from 0 to MP
	// 65535 in units of 0.01 W differ by at most 655.35 W.
	maxPowerDeltaMW = maxPowerUW / 1000
)

// checkValues refuses the values of a row no survey writes beside the
// record rec read from it: what a survey computes from the configurations'
// outcomes (each change's stall_reduction_us, idle_power_delta_mw,
// barred_states and gained_states, the row's idle_power_delta_mw) must be
// what it computes from them, and what it copies from a descriptor or a
// plan (worst_exit_latency_us, max_round_trip_us, a full report's table
// entries) must fit the descriptor's fields. The merged report passes the
// row on as it is: a value this does not check would reach it unchecked.
func (m *shardRowIn) checkValues(rec *survey.Record) error {
	for i, c := range m.Configs {
		if c.WorstExitLatencyUS > maxExitUS {
			return fmt.Errorf("configs[%d].worst_exit_latency_us %d: want at most %d (EXLAT is 32 bits)", i, c.WorstExitLatencyUS, uint64(maxExitUS))
		}
		rt, err := uintField(c.MaxRoundTripUS)
		if errors.Is(err, errRange) || err == nil && rt > maxRoundTripUS {
			err = fmt.Errorf("want an integer from 0 to %d (ENLAT+EXLAT, each 32 bits)", uint64(maxRoundTripUS))
		}
		if err != nil {
			return fmt.Errorf("configs[%d].max_round_trip_us%s: %w", i, numberText(c.MaxRoundTripUS), err)
		}
		for k, e := range c.Entries {
			if err := checkEntry(e); err != nil {
				return fmt.Errorf("configs[%d].entries[%d]: %w", i, k, err)
			}
		}
	}
	for i, st := range m.BoundSweep {
		if st.WorstExitLatencyUS > maxExitUS {
			return fmt.Errorf("bound_sweep[%d].worst_exit_latency_us %d: want at most %d (EXLAT is 32 bits)", i, st.WorstExitLatencyUS, uint64(maxExitUS))
		}
	}
	first := &rec.Outcomes[0]
	for i := range m.Changes {
		ch, o := &m.Changes[i], &rec.Outcomes[i+1]
		at := fmt.Sprintf("changes[%d]", i)
		stall, err := intField(ch.StallReductionUS)
		if errors.Is(err, errRange) || err == nil && (stall < -maxExitUS || stall > maxExitUS) {
			err = fmt.Errorf("want an integer from %d to %d (a difference of two 32-bit exit latencies)", -int64(maxExitUS), int64(maxExitUS))
		}
		if want := int64(first.WorstExitLatency) - int64(o.WorstExitLatency); err == nil && stall != want {
			err = fmt.Errorf("want configs[0].worst_exit_latency_us minus configs[%d]'s, %d", i+1, want)
		}
		if err != nil {
			return fmt.Errorf("%s.stall_reduction_us%s: %w", at, numberText(ch.StallReductionUS), err)
		}
		if err := checkPowerDelta(ch.IdlePowerDeltaMW, o.DeepestMaxPower-first.DeepestMaxPower, i+1); err != nil {
			return fmt.Errorf("%s.idle_power_delta_mw%s: %w", at, numberText(ch.IdlePowerDeltaMW), err)
		}
		// (A row without the lists is read, as it always was.)
		barred, _ := statesOf(ch.BarredStates, "barred_states")
		if want := first.Reach &^ o.Reach &^ 1; ch.BarredStates != nil && barred != want {
			return fmt.Errorf("%s.barred_states %v: want the states but 0 that configs[0] reaches and configs[%d] does not, %v", at, ch.BarredStates, i+1, stateList(want))
		}
		gained, _ := statesOf(ch.GainedStates, "gained_states")
		if want := o.Reach &^ first.Reach &^ 1; ch.GainedStates != nil && gained != want {
			return fmt.Errorf("%s.gained_states %v: want the states but 0 that configs[%d] reaches and configs[0] does not, %v", at, ch.GainedStates, i+1, stateList(want))
		}
	}
	// The row's own idle_power_delta_mw is its first change's.
	if err := checkPowerDelta(m.IdlePowerDeltaMW, rec.Outcomes[1].DeepestMaxPower-first.DeepestMaxPower, 1); err != nil {
		return fmt.Errorf("idle_power_delta_mw%s: %w", numberText(m.IdlePowerDeltaMW), err)
	}
	return nil
}

// checkPowerDelta refuses a power delta in mW (raw, the row's JSON) that
// is not want, the delta of configuration k's deepest state's power
// against the first's, as a survey writes it.
func checkPowerDelta(raw json.RawMessage, want apst.MicroWatts, k int) error {
	mw, err := floatField(raw)
	if err != nil && !errors.Is(err, errRange) {
		return err
	}
	if err != nil || !(mw >= -maxPowerDeltaMW && mw <= maxPowerDeltaMW) {
		return fmt.Errorf("want %d to %d (two powers of 0 to %.2f W, a descriptor's largest MP)", -maxPowerDeltaMW, maxPowerDeltaMW, float64(maxPowerUW)/1e6)
	}
	if mw != want.MilliWatts() {
		return fmt.Errorf("want configs[%d].deepest_state_max_power_w minus configs[0]'s in mW, %s", k, strconv.FormatFloat(want.MilliWatts(), 'g', -1, 64))
	}
	return nil
}

// checkEntry refuses a table entry of a full report whose target_state
// and idle_time_ms are not those of its value (ITPS in bits 7:3, ITPT in
// bits 31:8, 24 bits of ms).
func checkEntry(e Entry) error {
	hex, ok := bytes.CutPrefix([]byte(e.Value), []byte("0x"))
	v, err := strconv.ParseUint(string(hex), 16, 64)
	if !ok || len(hex) != 16 || err != nil {
		return fmt.Errorf("value %s: want 0x and 16 hexadecimal digits", strconv.Quote(e.Value))
	}
	entry := apst.Entry(v)
	if e.TargetState != entry.TargetState() || e.IdleTimeMS != uint32(entry.IdleTime()) {
		return fmt.Errorf("target_state %d, idle_time_ms %d: want those of its value %s (%d and %d)", e.TargetState, e.IdleTimeMS, e.Value, entry.TargetState(), uint32(entry.IdleTime()))
	}
	return nil
}

// errNoValue and errNotNumber are what a numeric field that is missing or
// holds no number is refused with; errRange is a number of the wrong
// kind (a fraction or an exponent for an integer) or beyond the Go type's
// range, for which the caller says what a survey writes.
var (
	errNoValue   = errors.New("missing")
	errNotNumber = errors.New("want a number")
	errRange     = errors.New("out of range")
)

// numberField returns the JSON number raw holds: errNoValue for a field
// that is missing or null, errNotNumber for a string, a list, an object or
// a boolean (encoding/json has checked that raw is JSON).
func numberField(raw json.RawMessage) (string, error) {
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return "", errNoValue
	case raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9':
		return string(raw), nil
	}
	return "", errNotNumber
}

// intField returns the integer raw holds, refusing a fraction, an
// exponent and one beyond int64.
func intField(raw json.RawMessage) (int64, error) {
	s, err := numberField(raw)
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, errRange
	}
	return v, nil
}

// uintField is intField for a field that is 0 or more.
func uintField(raw json.RawMessage) (uint64, error) {
	s, err := numberField(raw)
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, errRange
	}
	return v, nil
}

// floatField returns the number raw holds, refusing one beyond float64.
func floatField(raw json.RawMessage) (float64, error) {
	s, err := numberField(raw)
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, errRange
	}
	return v, nil
}

// numberText is " " and the JSON number raw holds, as a message quotes
// it; "" when raw is missing, and raw quoted when it is no number (a
// string's text is untrusted: strconv.Quote escapes it).
func numberText(raw json.RawMessage) string {
	s, err := numberField(raw)
	switch {
	case errors.Is(err, errNoValue):
		return ""
	case err != nil:
		if len(raw) > 40 {
			raw = append(raw[:40:40], "..."...)
		}
		return " " + strconv.Quote(string(raw))
	}
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return " " + s
}
