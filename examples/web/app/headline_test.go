package main

import (
	"testing"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The headline says the drive, the deepest state at the bound set, its
// wake stall and idle power, and what the default does instead.
func TestHeadline(t *testing.T) {
	evo := repoFile(t, evoImage)
	for _, tc := range []struct {
		bound string
		want  string
	}{
		{"", "Samsung SSD 990 EVO Plus 1TB at bound 100 ms: deepest state ps4, worst wake stall 43 ms, idle power up to 7 mW. This is the kernel's default bound."},
		{"100 ms", "Samsung SSD 990 EVO Plus 1TB at bound 100 ms: deepest state ps4, worst wake stall 43 ms, idle power up to 7 mW. This is the kernel's default bound."},
		{"25ms", "Samsung SSD 990 EVO Plus 1TB at bound 25 ms: deepest state ps3, worst wake stall 4.6 ms, idle power up to 80 mW. The default bound (100 ms) would instead give deepest state ps4, worst wake stall 43 ms, idle power up to 7 mW."},
		{"0", "Samsung SSD 990 EVO Plus 1TB at bound 0 (APST off): no idle power state: the drive stays in ps0 (up to 6 W), no wake stall. The default bound (100 ms) would instead give deepest state ps4, worst wake stall 43 ms, idle power up to 7 mW."},
		{"unlimited", "Samsung SSD 990 EVO Plus 1TB at bound unlimited: deepest state ps4, worst wake stall 43 ms, idle power up to 7 mW. The default bound (100 ms) does the same."},
	} {
		t.Run(tc.bound, func(t *testing.T) {
			r := Compute(&Request{Capture: evo, Bound: tc.bound})
			require.Empty(t, r.Errors)
			require.NotNil(t, r.Headline)
			assert.Equal(t, tc.want, r.Headline.Text)
			assert.Equal(t, r.Plan.Deepest, r.Headline.At.Deepest, "the plan's deepest state")
			assert.Equal(t, r.Sweep.Default, float64(100000))
		})
	}
}

func TestFormat(t *testing.T) {
	for us, want := range map[uint64]string{0: "0 µs", 1: "1 µs", 999: "999 µs", 1000: "1 ms", 44600: "44.6 ms", 42999: "42.999 ms", 1_500_000: "1.5 s", 1 << 40: "1099511.628 s"} {
		assert.Equal(t, want, formatMicros(us), us)
	}
	assert.Equal(t, "unlimited", formatBound(apst.NoLimit))
	for w, want := range map[float64]string{0.007: "7 mW", 0.08: "80 mW", 8.34: "8.34 W", 1: "1 W", 0.0035: "3.5 mW"} {
		assert.Equal(t, want, formatWatts(w), w)
	}
}

func TestUnitStyle(t *testing.T) {
	for in, want := range map[string]string{
		"primary target: entry+exit 6200us <= 15000us, entered after 100ms idle": "primary target: entry+exit 6.2 ms <= 15 ms, entered after 100 ms idle",
		"APST enabled: deepest state ps4, max round-trip latency 44600us":        "APST enabled: deepest state ps4, max round-trip latency 44.6 ms",
		"ps4 not reachable; 2000ms; 0us; 7us":                                    "ps4 not reachable; 2 s; 0 µs; 7 µs",
		"table 18640000 ps3 v4.12 12usb 5usec x25us":                             "table 18640000 ps3 v4.12 12usb 5usec x25us",
		"99999999999999999999us stays":                                           "99999999999999999999us stays",
	} {
		assert.Equal(t, want, unitStyle(in), in)
	}
}
