package capture

import (
	"strings"
	"testing"

	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNumberParsers(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want powerstate.Power
		ok   bool
	}{
		{"6.00W", powerstate.Power{Units: 600, Scale: powerstate.Scale0_01W}, true},
		{"0.0070W", powerstate.Power{Units: 70, Scale: powerstate.Scale0_0001W}, true},
		{"655.35W", powerstate.Power{Units: 65535, Scale: powerstate.Scale0_01W}, true},
		{"655.36W", powerstate.Power{}, false},
		{"6.5535W", powerstate.Power{Units: 65535, Scale: powerstate.Scale0_0001W}, true},
		{"6.5536W", powerstate.Power{}, false},
		{"6.000W", powerstate.Power{}, false},
		{"6W", powerstate.Power{}, false},
		{".50W", powerstate.Power{}, false},
		{"-1.00W", powerstate.Power{}, false},
		{"+1.00W", powerstate.Power{}, false},
		{"1.+0W", powerstate.Power{}, false},
		{"1.00", powerstate.Power{}, false},
	} {
		got, ok := parseWatts(tc.in)
		assert.Equal(t, tc.ok, ok, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
	for _, tc := range []struct {
		in   string
		want powerstate.Microseconds
		ok   bool
	}{
		{"0", 0, true}, {"4294967295", 0xffffffff, true}, {"4294967296", 0, false},
		{"-1", 0xffffffff, true}, {"-2147483648", 0x80000000, true}, {"-2147483649", 0, false},
		{"-0", 0, false}, {"+5", 0, false}, {"", 0, false},
	} {
		got, ok := parseLatency(tc.in)
		assert.Equal(t, tc.ok, ok, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
	for _, tc := range []struct {
		in string
		v  uint64
		ok bool
	}{
		{"0x144d", 0x144d, true}, {"144d", 0x144d, true}, {"0", 0, true}, {"0x", 0, false},
		{"0x-1", 0, false}, {"1_0", 0, false}, {"0x10000", 0, false},
	} {
		v, ok := parseHex(tc.in, 16)
		assert.Equal(t, tc.ok, ok, tc.in)
		if ok {
			assert.Equal(t, tc.v, v, tc.in)
		}
	}
}

// TestPathologicalInputsAreFast feeds each parser 1 MiB shaped to make a
// careless parser quadratic.
func TestPathologicalInputsAreFast(t *testing.T) {
	const n = MaxSize
	inputs := map[string]string{
		"newlines":        strings.Repeat("\n", n),
		"carriage":        strings.Repeat("\r", n),
		"one line":        strings.Repeat("x", n),
		"keys":            strings.Repeat("vid : 0x1\n", n/10),
		"header lines":    strings.Repeat("Model Number: x\n", n/16),
		"json keys":       "{" + strings.Repeat(`"a":1,`, n/6-1) + `"b":2}`,
		"json nesting":    strings.Repeat("[", n/2) + strings.Repeat("]", n/2),
		"indented keys":   strings.Repeat("    vid : 0x1\n", n/14),
		"quoted lines":    strings.Repeat("> \n", n/3),
		"many ps 0":       "ps 0 : mp:1.00W operational enlat:0 exlat:0 rrt:0 rrl:0\n          rwt:0 rwl:0 idle_power:- active_power:-\n" + strings.Repeat("ps 0 :\n", n/8),
		"psds nesting":    `{"psds":` + strings.Repeat("[", n/2-10),
		"smartctl rows":   "Supported Power States\nSt Op Max Active Idle RL RT WL WT Ent_Lat Ex_Lat\n" + strings.Repeat(" 0 + 1.00W - - 0 0 0 0 0 0\n", n/30),
		"ps blocks":       strings.Repeat("ps 0 : mp:1.00W operational enlat:0 exlat:0 rrt:0 rrl:0\n", n/60),
		"json psds":       `{"psds":[` + strings.Repeat(`{"max_power":1},`, n/17) + `]}`,
		"smartctl states": `{"nvme_power_states":[` + strings.Repeat(`{"max_power":{"value":1}},`, n/27) + `]}`,
	}
	for name, s := range inputs {
		t.Run(name, func(t *testing.T) {
			require.LessOrEqual(t, len(s), n)
			for _, parse := range []func(string) (powerstate.Controller, int, error){
				parseNVMeCLIText, parseNVMeCLIJSON, parseSmartctlText, parseSmartctlJSON,
			} {
				_, _, _ = parse(s)
			}
			_, _ = ParseBytes([]byte(s))
			_ = DetectFormat([]byte(s))
		})
	}
}
