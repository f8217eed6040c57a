package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const evoImage = "../../testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin"
const intelImage = "../../testdata/identify/intel-ssdpekkw256g7-PSF109C.bin"

// apstctl runs the command in-process and returns its exit status and output.
func apstctl(t *testing.T, stdin []byte, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, bytes.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestDemo(t *testing.T) {
	code, out, _ := apstctl(t, nil)
	require.Equal(t, 0, code)
	assert.Contains(t, out, "Samsung SSD 990 EVO Plus 1TB")
	assert.Contains(t, out, "bound 100000us: the drive can sleep down to ps4 (exit latency 43.0 ms")
	assert.Contains(t, out, "bound  25000us: the drive can sleep down to ps3 (exit latency 4.6 ms")
	assert.Contains(t, out, "+73.0 mW")
}

type planOut struct {
	Sent           bool   `json:"sent"`
	Enabled        bool   `json:"enabled"`
	MaxPS          int    `json:"max_ps"`
	MaxRoundTripUS uint64 `json:"max_round_trip_us"`
	Entries        []struct {
		State       int    `json:"state"`
		Value       string `json:"value"`
		TargetState int    `json:"target_state"`
		IdleTimeMS  uint64 `json:"idle_time_ms"`
	} `json:"entries"`
	AssumedAPSTA bool `json:"assumed_apsta"`
}

func planJSON(t *testing.T, stdin []byte, args ...string) planOut {
	t.Helper()
	code, out, errOut := apstctl(t, stdin, append([]string{"plan", "--format", "json"}, args...)...)
	require.Equal(t, 0, code, errOut)
	var p planOut
	require.NoError(t, json.Unmarshal([]byte(out), &p), out)
	require.Len(t, p.Entries, 32)
	return p
}

func TestPlanJSON(t *testing.T) {
	p := planJSON(t, nil, evoImage)
	assert.True(t, p.Sent)
	assert.True(t, p.Enabled)
	assert.Equal(t, 4, p.MaxPS)
	assert.Equal(t, uint64(44600), p.MaxRoundTripUS)
	assert.Equal(t, "0x0000000000006418", p.Entries[0].Value)
	assert.Equal(t, 3, p.Entries[0].TargetState)
	assert.Equal(t, uint64(100), p.Entries[0].IdleTimeMS)
	assert.Equal(t, "0x000000000007d020", p.Entries[3].Value)
	assert.Equal(t, "0x0000000000000000", p.Entries[4].Value)

	p = planJSON(t, nil, "--ps-max-latency-us", "25000", evoImage)
	assert.Equal(t, 3, p.MaxPS)
	assert.Equal(t, uint64(6200), p.MaxRoundTripUS)

	// pm-qos auto means unlimited: with the current algorithm the bands still apply.
	p = planJSON(t, nil, "--pm-qos", "auto", evoImage)
	assert.Equal(t, 4, p.MaxPS)

	p = planJSON(t, nil, "--ps-max-latency-us", "0", evoImage)
	assert.True(t, p.Sent)
	assert.False(t, p.Enabled)
	assert.Equal(t, -1, p.MaxPS)

	p = planJSON(t, nil, "--default-ps-max-latency-us", "3000000000", "--kernel", "v4.12", evoImage)
	assert.Equal(t, 4, p.MaxPS)
	assert.Equal(t, "0x0000000000013618", p.Entries[0].Value, "ceil(6200/20) = 310 ms to ps3")

	// Standard input.
	img, err := os.ReadFile(evoImage)
	require.NoError(t, err)
	p = planJSON(t, img, "-")
	assert.Equal(t, 4, p.MaxPS)
}

// The Intel 600p's PCI ID brings NO_DEEPEST_PS, which keeps it out of ps4
// under both the current algorithm and v4.12; force_apst cancels it.
func TestPlanIntel600pQuirk(t *testing.T) {
	assert.Equal(t, 4, planJSON(t, nil, intelImage).MaxPS, "without the PCI ID the quirk is unknown")
	for _, k := range []string{"current", "v4.12"} {
		p := planJSON(t, nil, "--kernel", k, "--pci-id", "8086:f1a5", intelImage)
		assert.Equal(t, 3, p.MaxPS, k)
	}
	assert.Equal(t, 4, planJSON(t, nil, "--pci-id", "8086:f1a5", "--force-apst", intelImage).MaxPS)
	assert.Equal(t, 3, planJSON(t, nil, "--quirks", "no-deepest-ps", intelImage).MaxPS)
	assert.Equal(t, 4, planJSON(t, nil, "--quirks", "none", "--pci-id", "8086:f1a5", intelImage).MaxPS)
}

func TestPlanText(t *testing.T) {
	code, out, _ := apstctl(t, nil, "plan", "--ps-max-latency-us", "25000", evoImage)
	require.Equal(t, 0, code)
	assert.Contains(t, out, "exit latency 43000us > bound 25000us")
	assert.Contains(t, out, "APST enabled: max PS = 3, max round-trip latency = 6200us, table = 1864")
}

func TestPlanBadInput(t *testing.T) {
	dir := t.TempDir()
	short := filepath.Join(dir, "short.bin")
	require.NoError(t, os.WriteFile(short, make([]byte, 4000), 0o644))
	npss := make([]byte, 4096)
	npss[263], npss[265] = 255, 1
	npssPath := filepath.Join(dir, "npss255.bin")
	require.NoError(t, os.WriteFile(npssPath, npss, 0o644))

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"missing file", []string{"plan", filepath.Join(dir, "nope.bin")}, "nope.bin"},
		{"short image", []string{"plan", short}, "short.bin"},
		{"unknown generation", []string{"plan", "--kernel", "v3.0", evoImage}, "v3.0"},
		{"unknown quirk", []string{"plan", "--quirks", "no-sleep", evoImage}, "no-sleep"},
		{"bound not a number", []string{"plan", "--ps-max-latency-us", "25ms", evoImage}, "25ms"},
		{"bound negative", []string{"plan", "--ps-max-latency-us", "-1", evoImage}, "-1"},
		{"pm-qos rejected", []string{"plan", "--pm-qos", "-5", evoImage}, "EINVAL"},
		{"two bounds", []string{"plan", "--pm-qos", "auto", "--ps-max-latency-us", "5", evoImage}, "only one"},
		{"bad pci id", []string{"plan", "--pci-id", "zz", evoImage}, "zz"},
		{"bad format", []string{"plan", "--format", "xml", evoImage}, "xml"},
		{"no capture", []string{"plan"}, "want 1 argument"},
		{"unknown flag", []string{"plan", "--bogus", evoImage}, "bogus"},
		{"unknown command", []string{"frobnicate"}, "frobnicate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := apstctl(t, nil, tc.args...)
			assert.Equal(t, 2, code)
			assert.Empty(t, out)
			assert.Contains(t, errOut, tc.want)
		})
	}

	// NPSS 255 is not an error: the kernel sends nothing.
	p := planJSON(t, nil, npssPath)
	assert.False(t, p.Sent)
	assert.Equal(t, -1, p.MaxPS)
	code, out, _ := apstctl(t, nil, "plan", npssPath)
	assert.Equal(t, 0, code)
	assert.True(t, strings.Contains(out, "NPSS is above 31"), out)
}

func TestHelp(t *testing.T) {
	code, out, _ := apstctl(t, nil, "help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "plan")
	code, _, _ = apstctl(t, nil, "plan", "-h")
	assert.Equal(t, 0, code)
}
