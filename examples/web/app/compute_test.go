package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func repoFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", path))
	require.NoError(t, err)
	return b
}

const (
	evoImage   = "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin"
	intelImage = "testdata/identify/intel-ssdpekkw256g7-PSF109C.bin"
)

func TestComputeEVOPlus(t *testing.T) {
	for _, tc := range []struct {
		bound    string
		maxPS    int
		kernelLg string // as apstctl plan prints it
	}{
		{"", 4, "APST enabled: max PS = 4, max round-trip latency = 44600us, table = 18640000000000001864000000000000186400000000000020d00700000000000000000000000000000000000000000000000000000000000000000000000000"},
		{"100000", 4, ""},
		{"25000", 3, "APST enabled: max PS = 3, max round-trip latency = 6200us, table = 18640000000000001864000000000000186400000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"},
	} {
		t.Run("bound "+tc.bound, func(t *testing.T) {
			r := Compute(&Request{Capture: repoFile(t, evoImage), Bound: tc.bound, CompareA: "ps-max-latency-us=100000", CompareB: "ps-max-latency-us=25000"})
			require.Empty(t, r.Errors)
			assert.Equal(t, tc.maxPS, r.Plan.MaxPS)
			assert.Equal(t, tc.maxPS, r.Plan.Deepest)
			if tc.kernelLg != "" {
				assert.Equal(t, tc.kernelLg, r.Plan.KernelLog)
			}
			c, err := powerstate.DecodeIdentify(repoFile(t, evoImage))
			require.NoError(t, err)
			p := apst.DefaultParams(apst.Current)
			sw, err := analysis.Sweep(&c, p)
			require.NoError(t, err)
			require.Len(t, r.Sweep.Intervals, len(sw.Intervals))
			current := 0
			for i, iv := range r.Sweep.Intervals {
				assert.Equal(t, sw.Intervals[i].Min.String(), iv.MinText)
				assert.Equal(t, sw.Intervals[i].Max.String(), iv.MaxText)
				if iv.Current {
					current++
				}
			}
			assert.Equal(t, 1, current, "one interval holds the bound")
			assert.Equal(t, "+73.0 mW", r.Compare.PowerDelta)
			require.Len(t, r.Simulate, 3)
			assert.Contains(t, r.Simulate[0].Source, "10000 gaps, exp:10s, seed 0")
			assert.Equal(t, []string{evoDMINote}, r.Assumptions, "what apstctl plan says of the capture, in its words")
			assert.False(t, r.Controller.HadSerial && strings.Contains(r.Drive, r.Controller.Model), "the link holds no plain strings")
		})
	}
}

// evoDMINote is what apstctl plan says it assumed of the 990 EVO Plus
// image: the machine's DMI rules were not checked (the release cannot
// change its quirks, so it says nothing of the release).
const evoDMINote = "note: DMI rules not checked: the machine is unknown (a capture carries no DMI data); rules that could apply: any NVMe device in a Lenovo N60z (board LXKT-ZXEG-N6) (no-apst)"

// The 600p gets NO_DEEPEST_PS from its inferred PCI ID, and says so in the
// lines apstctl plan prints (with the page's PCI ID field where apstctl
// names --pci-id); a PCI ID given replaces the inference, a release given
// settles the release.
func TestComputeIntel600p(t *testing.T) {
	r := Compute(&Request{Capture: repoFile(t, intelImage)})
	require.Empty(t, r.Errors)
	assert.Equal(t, 3, r.Plan.MaxPS)
	assert.Equal(t, []string{
		"note: kernel release unknown: assumed the newest quirk tables (Linux " + apst.NewestRelease().String() + "); the release decides 8086:f1a5 Intel 600P/P3100 (no-deepest-ps; since 4.12)",
		`warning: the capture carries no PCI ID; 8086:f1a5 was inferred from model "INTEL SSDPEKKW256G7" (Intel 600p, VID 0x8086, model "INTEL SSDPEKKW*" ending in G7 or T7; high confidence) (give a PCI ID to override)`,
		evoDMINote,
	}, r.Assumptions)

	r = Compute(&Request{Capture: repoFile(t, intelImage), Kernel: "6.8"})
	require.Empty(t, r.Errors)
	assert.NotContains(t, strings.Join(r.Assumptions, "\n"), "release unknown")
	assert.Contains(t, r.Params, "quirks no-deepest-ps")

	r = Compute(&Request{Capture: repoFile(t, intelImage), PCIID: "8086:f1a6"})
	require.Empty(t, r.Errors)
	assert.Equal(t, 4, r.Plan.MaxPS)
	assert.NotContains(t, strings.Join(r.Assumptions, "\n"), "inferred")

	r = Compute(&Request{Capture: repoFile(t, intelImage), PCIID: "144d:f1a5"})
	assert.Contains(t, r.Errors["pci_id"], "the vendor 144d is not the capture's VID 8086")
}

// Every error is the library's message, at the input it belongs to.
func TestComputeErrors(t *testing.T) {
	evo := repoFile(t, evoImage)
	trunc := repoFile(t, "examples/apstctl/testdata/truncated.txt")
	_, truncErr := powerstate.ParseBytes(trunc)
	require.Error(t, truncErr)
	var p apst.Params
	for _, tc := range []struct {
		name  string
		req   Request
		field string
		want  string
	}{
		{"truncated", Request{Capture: trunc}, "capture", truncErr.Error()},
		{"no capture", Request{}, "capture", "no capture"},
		{"wrong size", Request{Capture: evo[:4000]}, "capture", "4000 bytes"},
		{"feature as capture", Request{Capture: repoFile(t, "examples/apstctl/testdata/feature/samsung-990-evo-plus-100ms.txt")}, "capture", "give it as the get-feature capture below"},
		{"capture as feature", Request{Capture: evo, Feature: evo}, "feature", "give it as the capture above"},
		{"bound", Request{Capture: evo, Bound: "-5"}, "bound", p.Set("ps-max-latency-us", "-5").Error()},
		{"kernel", Request{Capture: evo, Kernel: "3.19"}, "kernel", p.Set("kernel", "3.19").Error()},
		{"pci id", Request{Capture: evo, PCIID: "zz"}, "pci_id", "zz"},
		{"compare", Request{Capture: evo, CompareA: "nonsense=1"}, "compare_a", "unknown key \"nonsense\""},
		{"gaps", Request{Capture: evo, Gaps: "exp:-1"}, "gaps", "exp:-1"},
		{"count", Request{Capture: evo, Count: maxGaps + 1}, "gaps", "at most"},
		{"shared", Request{Drive: "1.x"}, "capture", "shared link"},
		{"too large", Request{Capture: make([]byte, maxCapture+1)}, "capture", "larger than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Compute(&tc.req)
			require.Contains(t, r.Errors, tc.field, "errors: %v", r.Errors)
			assert.Contains(t, r.Errors[tc.field], tc.want)
			_, err := json.Marshal(r)
			require.NoError(t, err)
		})
	}
}

// A get-feature capture gets the check verdict and what reproduces it.
func TestComputeCheck(t *testing.T) {
	evo := repoFile(t, evoImage)
	r := Compute(&Request{Capture: evo, Feature: repoFile(t, "examples/apstctl/testdata/feature/samsung-990-evo-plus-100ms.txt")})
	require.Empty(t, r.Errors)
	assert.True(t, r.Check.Match)
	r = Compute(&Request{Capture: evo, Feature: repoFile(t, "examples/apstctl/testdata/feature/samsung-990-evo-plus-25ms.txt")})
	require.Empty(t, r.Errors)
	assert.False(t, r.Check.Match)
	require.NotEmpty(t, r.Check.ReproducedBy)
	assert.Equal(t, "4600us", r.Check.ReproducedBy[0].Min)
	assert.Equal(t, "42999us", r.Check.ReproducedBy[0].Max)
}

// The shared drive gives the answer the capture gives.
func TestComputeShared(t *testing.T) {
	for _, path := range []string{evoImage, intelImage, "testdata/corpus/smartctl/Samsung_SSD_990_EVO_Plus_1TB_2B2QKXG7.txt"} {
		for _, bound := range []string{"0", "25000", "100000", "unlimited"} {
			a := Compute(&Request{Capture: repoFile(t, path), Bound: bound})
			require.Empty(t, a.Errors)
			b := Compute(&Request{Drive: a.Drive, Bound: bound})
			require.Empty(t, b.Errors)
			assert.Equal(t, a.Plan, b.Plan, "%s at %s", path, bound)
			assert.Equal(t, a.Sweep, b.Sweep)
			assert.Equal(t, a.Params, b.Params)
			assert.Equal(t, a.Assumptions, b.Assumptions[1:], "the same assumptions, after the shared-link note")
		}
	}
}
