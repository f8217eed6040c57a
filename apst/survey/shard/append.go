package shard

import (
	"github.com/nvmeapst/nvmeapst/apst/survey"
	"math"
	"math/bits"
	"strconv"
	"unicode/utf8"

	"github.com/nvmeapst/nvmeapst/apst"
)

// AppendRow appends the JSON of a drive's row (a Row of a capture, not
// full: no bundle, entries, mode or params) to b and returns the extended
// buffer. The JSON is written by hand: the bytes encoding/json writes of
// NewRow(row, format, false), key for key (a property test checks it),
// without reflection and without building the row's structs first, so that
// a survey of a million drives writes its rows without allocating. A full
// row, or a bundle's, goes through encoding/json of a Row.
func AppendRow(b []byte, row *survey.Row, format string) []byte {
	b = append(b, `{"path":`...)
	b = appendJSONString(b, row.Name)
	b = append(b, `,"model":`...)
	b = appendJSONString(b, row.Model)
	b = append(b, `,"firmware":`...)
	b = appendJSONString(b, row.Firmware)
	b = append(b, `,"vendor":`...)
	b = appendJSONString(b, row.Vendor)
	b = append(b, `,"vendor_id":"0x`...)
	b = appendHex4(b, row.VendorID)
	b = append(b, `","format":`...)
	b = appendJSONString(b, format)
	b = append(b, `,"quirks":`...)
	b = appendJSONString(b, row.Quirks.String())
	if row.QuirksInferredFrom != "" {
		b = append(b, `,"quirks_inferred_from":`...)
		b = appendJSONString(b, row.QuirksInferredFrom)
	}
	if len(row.QuirksUncheckedPCI) > 0 {
		b = append(b, `,"quirks_unchecked_pci":[`...)
		for i, id := range row.QuirksUncheckedPCI {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendPCIID(b, id)
		}
		b = append(b, ']')
	}
	if row.Assumed != 0 {
		n := 0
		for name := range row.Assumed.All() {
			if n == 0 {
				b = append(b, `,"assumed":[`...)
			} else {
				b = append(b, ',')
			}
			n++
			b = appendJSONString(b, name)
		}
		if n > 0 {
			b = append(b, ']')
		}
	}
	b = append(b, `,"changed":`...)
	b = strconv.AppendBool(b, row.Changed)
	b = append(b, `,"configs":[`...)
	for i := range row.Results {
		r := &row.Results[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"sent":`...)
		b = strconv.AppendBool(b, r.Plan.Sent)
		b = append(b, `,"enabled":`...)
		b = strconv.AppendBool(b, r.Plan.Enabled)
		b = append(b, `,"max_ps":`...)
		b = strconv.AppendInt(b, int64(r.Plan.MaxPS), 10)
		b = append(b, `,"max_round_trip_us":`...)
		b = strconv.AppendUint(b, uint64(r.Plan.MaxRoundTrip), 10)
		b = append(b, `,"deepest_state":`...)
		b = strconv.AppendInt(b, int64(r.Reach.Deepest), 10)
		b = append(b, `,"worst_exit_latency_us":`...)
		b = strconv.AppendUint(b, uint64(r.Reach.WorstExitLatency), 10)
		b = append(b, `,"deepest_state_max_power_w":`...)
		b = appendJSONFloat(b, watts(r.DeepestMaxPower.MicroWatts()))
		b = append(b, `,"reachable_states":`...)
		b = appendStates(b, r.Reach.States)
		b = append(b, `,"outcome":`...)
		b = appendJSONString(b, r.Plan.Outcome.String())
		b = append(b, '}')
	}
	b = append(b, `],"idle_power_delta_mw":`...)
	if len(row.Changes) > 0 {
		b = appendJSONFloat(b, row.Changes[0].PowerDelta.MilliWatts())
	} else {
		b = append(b, '0')
	}
	b = append(b, `,"changes":[`...)
	for i := range row.Changes {
		ch := &row.Changes[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"config":`...)
		b = strconv.AppendInt(b, int64(ch.Config), 10)
		b = append(b, `,"changed":`...)
		b = strconv.AppendBool(b, ch.Changed)
		b = append(b, `,"stall_reduction_us":`...)
		b = strconv.AppendInt(b, ch.StallReduction, 10)
		b = append(b, `,"idle_power_delta_mw":`...)
		b = appendJSONFloat(b, ch.PowerDelta.MilliWatts())
		b = append(b, `,"bars":`...)
		b = appendJSONString(b, ch.Bars.String())
		b = append(b, `,"barred_states":`...)
		b = appendStates(b, ch.Barred)
		b = append(b, `,"gained_states":`...)
		b = appendStates(b, ch.Gained)
		b = append(b, '}')
	}
	b = append(b, `],"bound_sweep":[`...)
	for i := range row.Sweep {
		st := &row.Sweep[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"min_us":`...)
		b = strconv.AppendUint(b, uint64(st.Min), 10)
		b = append(b, `,"worst_exit_latency_us":`...)
		b = strconv.AppendUint(b, uint64(st.WorstExitLatency), 10)
		b = append(b, `,"deepest_state_max_power_w":`...)
		b = appendJSONFloat(b, watts(uint64(st.DeepestMaxPower)))
		b = append(b, `,"reachable_states":`...)
		b = appendStates(b, st.Reach)
		b = append(b, `,"same":`...)
		b = strconv.AppendBool(b, st.Same)
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

// appendStates appends a set of states as stateList's JSON: [0,3,4].
func appendStates(b []byte, set apst.States) []byte {
	b = append(b, '[')
	for n := 0; set != 0; n++ {
		s := bits.TrailingZeros64(uint64(set))
		set &= set - 1
		if n > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(s), 10)
	}
	return append(b, ']')
}

// appendHex4 appends v as 4 lower-case hexadecimal digits.
func appendHex4(b []byte, v uint16) []byte {
	const digits = "0123456789abcdef"
	return append(b, digits[v>>12], digits[v>>8&15], digits[v>>4&15], digits[v&15])
}

// appendPCIID appends the JSON string of id ("8086:f1a5", PCIID.String).
func appendPCIID(b []byte, id apst.PCIID) []byte {
	b = append(b, '"')
	b = appendHex4(b, id.Vendor)
	b = append(b, ':')
	b = appendHex4(b, id.Device)
	return append(b, '"')
}

// appendJSONFloat appends f as encoding/json writes a float64: the
// shortest decimal that reads back to f, in exponent form below 1e-6 and
// from 1e21 on (its exponent without a leading zero). f is finite.
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// 1e-07 is written 1e-7.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// appendJSONString appends s as a JSON string as encoding/json writes it
// (HTML-safe): '"' and '\\' escaped, control characters as \b \f \n \r \t
// or \u00XX, '<' '>' '&' as \u003c \u003e \u0026, U+2028 and U+2029 as
// \u2028 and \u2029, and each byte of an invalid UTF-8 sequence as
// \ufffd. An untrusted string (a model, a path) cannot break the row.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&15])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
