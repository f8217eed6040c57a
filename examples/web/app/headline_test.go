package main

import (
	"strings"
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

// When the kernel programs no idle state whatever the bound, the headline
// says why (the drive does not support APST, a quirk turns it off) rather
// than "no idle power state", which sends the user to try other bounds;
// and a maximum power the drive does not report (0) is said so, not
// written "up to 0 mW".
func TestHeadlineWhyNone(t *testing.T) {
	evoText := string(repoFile(t, "testdata/corpus/nvme-cli/synthetic/Samsung_SSD_990_EVO_Plus_1TB_2B2QKXG7.v2_12.txt"))
	toshiba := strings.NewReplacer("vid       : 0x144d", "vid       : 0x1179",
		"mn        : Samsung SSD 990 EVO Plus 1TB            ", "mn        : THNSF5256GPUK TOSHIBA                   ").Replace(evoText)
	require.NotEqual(t, evoText, toshiba)
	for _, tc := range []struct {
		name, file, capture, kernel, want string
	}{
		{name: "APSTA 0", file: "testdata/corpus/nvme-cli/synthetic/ADATA_SX6000LNP_V9001c00.v2_12.txt",
			want: "ADATA SX6000LNP at bound 100 ms: the drive does not support APST (APSTA 0): the kernel programs no table, whatever the bound; the drive stays in ps0 (up to 50 W), no wake stall. This is the kernel's default bound."},
		{name: "APSTA 0, no power reported", file: "testdata/corpus/nvme-cli/synthetic/HPE_NS204i-t_Gen10_Boot_Controller_10141063.v2_12.txt",
			want: "HPE NS204i-t Gen10+ Boot Controller at bound 100 ms: the drive does not support APST (APSTA 0): the kernel programs no table, whatever the bound; the drive stays in ps0 (its maximum power is not reported), no wake stall. This is the kernel's default bound."},
		{name: "no-apst quirk", capture: toshiba,
			want: "THNSF5256GPUK TOSHIBA at bound 100 ms: the kernel does not use APST on this drive (its no-apst quirk), whatever the bound; the drive stays in ps0 (up to 6 W), no wake stall. This is the kernel's default bound."},
		{name: "no-apst quirk in v4.11", capture: toshiba, kernel: "v4.11",
			want: "the kernel does not use APST on this drive (its no-apst quirk), whatever the bound; the drive stays in ps0"},
		{name: "no state fits", file: "testdata/corpus/nvme-cli/synthetic/Intel_MEMPEK1J016GAL_K4110400.v2_12.txt",
			want: "INTEL MEMPEK1J016GAL at bound 100 ms: no idle power state: the drive stays in ps0 (up to 2.8 W), no wake stall."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte(tc.capture)
			if tc.file != "" {
				in = repoFile(t, tc.file)
			}
			r := Compute(&Request{Capture: in, Kernel: tc.kernel})
			require.Empty(t, r.Errors)
			require.NotNil(t, r.Headline)
			assert.Contains(t, r.Headline.Text, tc.want)
			assert.NotContains(t, r.Headline.Text, "0 mW")
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
