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

	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// assumptionCases run every command that computes a table on inputs that
// assume something (paths from the package directory).
var assumptionCases = []struct {
	name string
	args []string
}{
	{"plan intel", []string{"plan", intelImage}},
	{"plan distribution base", []string{"plan", "--kernel", "5.10.0-28-amd64", intelImage}},
	{"check", []string{"check", evoImage, "testdata/feature/samsung-990-evo-plus-100ms.txt"}},
	{"sweep", []string{"sweep", intelImage}},
	{"compare", []string{"compare", intelImage, "--with", "kernel=4.11", "--with", "kernel=5.10.0-28-amd64", "--with", "ps-max-latency-us=25000"}},
	{"simulate", []string{"simulate", intelImage, "--gap", "3s"}},
	{"recommend", []string{"recommend", intelImage, "--max-stall", "10ms"}},
	{"replay", []string{"replay", intelImage, "testdata/replay/intel-600p-run.plain", "--with", "ps-max-latency-us=100000", "--with", "kernel=6.8"}},
	{"persist", []string{"persist", intelImage, "--ac", "stall=25ms", "--battery", "deepest"}},
	{"inspect", []string{"inspect", "--root", bundleDir}},
	{"persist --check", []string{"persist", "--check-line", "nvme_core.default_ps_max_latency_us=5500", evoImage, intelImage, "--root", bundleDir}},
	{"diagnose", []string{"diagnose", "--log", "../../apst/diagnose/testdata/apst.log", "--id-ctrl", intelImage}},
	{"measure", []string{"measure", "--simulate", intelImage, "--trials", "2", "--idle", "1s"}},
}

// Each assumption is said once per output (the same two note: lines once
// opened every command's output): no note or warning line repeats in
// a text output, and the JSON's assumptions objects (the top-level one and
// those of configurations or controllers) never say a note twice.
func TestAssumptionsSaidOnce(t *testing.T) {
	for _, tc := range assumptionCases {
		t.Run(tc.name, func(t *testing.T) {
			_, out, errOut := apstctl(t, nil, tc.args...)
			require.NotEmpty(t, out, errOut)
			seen := map[string]bool{}
			for _, l := range strings.Split(out+errOut, "\n") {
				l = strings.TrimSpace(l)
				if !strings.HasPrefix(l, "note:") && !strings.HasPrefix(l, "warning:") {
					continue
				}
				assert.False(t, seen[l], "said twice: %s", l)
				seen[l] = true
			}

			_, js, errOut := apstctl(t, nil, append(tc.args, "-o", "json")...)
			var v any
			require.NoError(t, json.Unmarshal([]byte(js), &v), errOut)
			top, ok := v.(map[string]any)
			require.True(t, ok)
			require.Contains(t, top, "assumptions", "every command that computes a table has the key")
			notes := map[string]int{}
			var walk func(x any)
			walk = func(x any) {
				switch x := x.(type) {
				case map[string]any:
					for k, y := range x {
						if a, ok := y.(map[string]any); ok && k == "assumptions" {
							for _, n := range a["notes"].([]any) {
								notes[n.(string)]++
							}
						}
						walk(y)
					}
				case []any:
					for _, y := range x {
						walk(y)
					}
				}
			}
			walk(v)
			// The top-level object holds what every configuration or
			// drive shares; an item's object only what it adds, so a
			// note said by every item would belong at the top.
			items := 0
			for _, key := range []string{"configs", "controllers", "drives"} {
				if l, ok := top[key].([]any); ok {
					items = len(l)
				}
			}
			topNotes := map[string]bool{}
			if a, ok := top["assumptions"].(map[string]any); ok {
				for _, n := range a["notes"].([]any) {
					topNotes[n.(string)] = true
				}
			}
			for n, k := range notes {
				if topNotes[n] || items < 2 {
					assert.Equal(t, 1, k, "the JSON says %q %d times", n, k)
				} else {
					assert.Less(t, k, items, "%q is every item's: it belongs at the top", n)
				}
			}
		})
	}
}

// The intel 600p under three configurations: what they share (the
// inferred PCI ID) is said once, what one adds is said for it alone.
func TestAssumptionsPerConfiguration(t *testing.T) {
	_, out, _ := apstctl(t, nil, "compare", intelImage, "--with", "kernel=4.11", "--with", "kernel=5.10.0-28-amd64", "--with", "kernel=6.8")
	assert.Equal(t, 1, strings.Count(out, "8086:f1a5 was inferred"), out)
	assert.NotContains(t, out, "stable base is unknown", "no entry that changes within 5.10.z could apply to the 600p")
	assert.NotContains(t, out, "kernel release unknown", "every configuration names its release")

	_, js, _ := apstctl(t, nil, "compare", intelImage, "--with", "kernel=4.11", "--with", "kernel=5.10.0-28-amd64", "--with", "kernel=6.8", "-o", "json")
	var v struct {
		Configs []struct {
			Assumptions *assumptionsJSON `json:"assumptions"`
		} `json:"configs"`
		Assumptions assumptionsJSON `json:"assumptions"`
	}
	require.NoError(t, json.Unmarshal([]byte(js), &v))
	require.NotNil(t, v.Assumptions.PCIIDInferred)
	assert.Equal(t, "8086:f1a5", v.Assumptions.PCIIDInferred.ID)
	require.Len(t, v.Configs, 3)
	assert.Nil(t, v.Configs[0].Assumptions)
	assert.Nil(t, v.Configs[1].Assumptions, "the base of 5.10.0-28 decides nothing for the 600p")

	// An SM2262 (PCI ID given): the base of 6.8.0-45 decides its entry
	// (126f:2262, added in 6.8.6), said for that configuration alone.
	c := powerstate.Controller{VendorID: 0x126f, SubsystemVendorID: 0x126f, Serial: "X", Model: "Generic SM2262 1TB", Firmware: "1.0", NPSS: 1, APSTA: 1}
	c.PowerStates[0].MaxPower = powerstate.MaxPowerOf(600, false)
	c.PowerStates[1] = powerstate.Descriptor{NonOperational: true, EntryLatency: 2000, ExitLatency: 4000, MaxPower: powerstate.MaxPowerOf(50, true)}
	var buf bytes.Buffer
	require.NoError(t, capture.WriteNVMeCLIJSON(&buf, &c))
	smi := filepath.Join(t.TempDir(), "sm2262.json")
	require.NoError(t, os.WriteFile(smi, buf.Bytes(), 0o644))
	_, out, errOut := apstctl(t, nil, "compare", smi, "--pci-id", "126f:2262", "--with", "kernel=6.8", "--with", "kernel=6.8.0-45-generic")
	assert.Contains(t, out, "note: [2] distribution kernel 6.8.0-N: its upstream stable base is unknown", errOut)
	assert.Contains(t, out, "126f:2262")
	assert.NotContains(t, out, "Lenovo")
}

// Not at all where they cannot matter: the 990 EVO Plus under Linux 6.8
// has no quirk entry and no DMI rule that could apply, so nothing is said;
// without a release, only the Lenovo N60z rule (every device of that
// machine, from 6.11), which the JSON keeps and the text leaves out.
func TestAssumptionsOnlyWhereTheyMatter(t *testing.T) {
	for _, cmd := range [][]string{{"plan"}, {"sweep"}, {"simulate", "--gap", "1s"}, {"recommend", "--max-stall", "25ms"}} {
		_, out, errOut := apstctl(t, nil, append(cmd, "--kernel", "6.8", evoImage)...)
		assert.NotContains(t, out+errOut, "note:", cmd)
		assert.NotContains(t, out+errOut, "warning:", cmd)

		_, out, _ = apstctl(t, nil, append(cmd, evoImage)...)
		assert.NotContains(t, out, "kernel release unknown", cmd)
		assert.NotContains(t, out, "note:", cmd)
		assert.NotContains(t, out, "Lenovo", cmd)
	}
	_, js0, _ := apstctl(t, nil, "plan", "-o", "json", evoImage)
	var v0 struct {
		Assumptions assumptionsJSON `json:"assumptions"`
	}
	require.NoError(t, json.Unmarshal([]byte(js0), &v0))
	assert.Equal(t, []string{"any NVMe device in a Lenovo N60z (board LXKT-ZXEG-N6) (no-apst)"}, v0.Assumptions.MachineDMIRules)
	_, js, _ := apstctl(t, nil, "plan", "--kernel", "6.8", "-o", "json", evoImage)
	var v struct {
		Assumptions assumptionsJSON `json:"assumptions"`
	}
	require.NoError(t, json.Unmarshal([]byte(js), &v))
	assert.Empty(t, v.Assumptions.Notes)
	assert.False(t, v.Assumptions.DMIUnchecked)
	assert.False(t, v.Assumptions.ReleaseUnknown)
}

// compare and replay look each configuration's quirks up in the tables of
// its own release: the 600p's NO_DEEPEST_PS (8086:f1a5) arrived in 4.12,
// so kernel=4.11 reaches ps4, as plan --kernel 4.11 says.
func TestWithConfigQuirksOfItsRelease(t *testing.T) {
	_, js, errOut := apstctl(t, nil, "compare", intelImage, "--with", "kernel=4.11", "--with", "kernel=6.8", "-o", "json")
	var v struct {
		Configs []struct {
			MaxPS int `json:"max_ps"`
		} `json:"configs"`
	}
	require.NoError(t, json.Unmarshal([]byte(js), &v), errOut)
	require.Len(t, v.Configs, 2)
	assert.Equal(t, planOf(t, nil, "--kernel", "4.11", intelImage).MaxPS, v.Configs[0].MaxPS)
	assert.Equal(t, 4, v.Configs[0].MaxPS)
	assert.Equal(t, 3, v.Configs[1].MaxPS)
}

// survey says what was assumed once, as a summary: per kind, the drives
// whose answer it can change; a row names its kinds so that --merge counts
// the same.
func TestSurveyAssumptionsSummary(t *testing.T) {
	dir := t.TempDir()
	for src, dst := range map[string]string{intelImage: "intel.bin", evoImage: "evo.bin"} {
		b, err := os.ReadFile(src)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(dir+"/"+dst, b, 0o644))
	}
	_, out, errOut := apstctl(t, nil, "survey", dir)
	assert.NotContains(t, out, "DMI rules not checked", "only the Lenovo N60z rule, no caveat of a drive: %s", errOut)
	assert.Contains(t, out, "  note: 1 drive: kernel release unknown")

	code, js, errOut := apstctl(t, nil, "survey", "-o", "json", dir)
	require.Equal(t, 0, code, errOut)
	type summary struct {
		Summary struct {
			Assumptions struct {
				ReleaseUnknown int      `json:"release_unknown"`
				DMIUnchecked   int      `json:"dmi_unchecked"`
				Notes          []string `json:"notes"`
			} `json:"assumptions"`
		} `json:"summary"`
	}
	var v summary
	require.NoError(t, json.Unmarshal([]byte(js), &v))
	assert.Equal(t, 1, v.Summary.Assumptions.ReleaseUnknown)
	assert.Equal(t, 0, v.Summary.Assumptions.DMIUnchecked)
	assert.Len(t, v.Summary.Assumptions.Notes, 1)

	shard := t.TempDir() + "/shard.json"
	require.NoError(t, os.WriteFile(shard, []byte(js), 0o644))
	code, merged, errOut := apstctl(t, nil, "survey", "--merge", "-o", "json", shard)
	require.Equal(t, 0, code, errOut)
	var m summary
	require.NoError(t, json.Unmarshal([]byte(merged), &m))
	assert.Equal(t, v.Summary.Assumptions, m.Summary.Assumptions)
}
