// Package surveytest holds the test helpers of the survey packages
// (apst/survey, apst/survey/shard): the corpus's captures parsed,
// configurations from their specs, and rapid generators of controllers
// and module parameters.
package surveytest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// CorpusDir is the module's corpus of real captures (testdata/corpus).
var CorpusDir = testfixture.Path("corpus")

// Captures parses every capture under dir (recursively; *.md and
// *.tsv files are not captures), in lexical order.
func Captures(tb testing.TB, dir string) (names []string, cs []*powerstate.Controller) {
	tb.Helper()
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if ext := filepath.Ext(path); ext == ".md" || ext == ".tsv" {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		c, err := capture.Parse(f)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		names = append(names, path)
		cs = append(cs, &c)
		return nil
	})
	require.NoError(tb, err)
	return names, cs
}

// Configs parses each configuration spec ("ps-max-latency-us=25000")
// against the current defaults, failing tb on a bad one.
func Configs(tb testing.TB, specs ...string) []analysis.Config {
	tb.Helper()
	var out []analysis.Config
	for _, s := range specs {
		p, err := apst.ParseConfig(s, apst.DefaultParams(apst.Current))
		require.NoError(tb, err)
		out = append(out, analysis.Config{Name: s, Params: p})
	}
	return out
}

// GenController draws a controller with a vendor and a model.
func GenController(t *rapid.T) *powerstate.Controller {
	lat := rapid.OneOf(
		rapid.SampledFrom([]uint32{0, 1, 1000, 4600, 15000, 25000, 25001, 43000, 100000, 100001}),
		rapid.Uint32Range(0, 200000),
	)
	c := &powerstate.Controller{
		NPSS:     rapid.SampledFrom([]uint8{0, 1, 2, 3, 4, 5, 31, 40}).Draw(t, "npss"),
		APSTA:    rapid.SampledFrom([]uint8{1, 1, 1, 0}).Draw(t, "apsta"),
		VendorID: rapid.SampledFrom([]uint16{0x144d, 0x1179, 0x1987, 0xabcd, 0}).Draw(t, "vid"),
		Model:    rapid.SampledFrom([]string{"", "THNSF5256GPUK TOSHIBA", "Acme One", "Zeta"}).Draw(t, "model"),
	}
	for i := range c.StateCount() {
		d := &c.PowerStates[i]
		d.NonOperational = i > 0 && rapid.Bool().Draw(t, "nops")
		d.EntryLatency = powerstate.Microseconds(lat.Draw(t, "enlat"))
		d.ExitLatency = powerstate.Microseconds(lat.Draw(t, "exlat"))
		d.MaxPower = powerstate.MaxPowerOf(rapid.Uint16().Draw(t, "mp"), rapid.Bool().Draw(t, "mxps"))
	}
	return c
}

// GenParams draws module parameters: a policy's, a generation's defaults
// with quirks, or the current defaults with another bound.
func GenParams(t *rapid.T) apst.Params {
	switch rapid.IntRange(0, 3).Draw(t, "kind") {
	case 0:
		p, err := apst.ParseConfig("policy="+rapid.SampledFrom(apst.Policies()).Draw(t, "policy").Name, apst.Params{})
		if err != nil {
			t.Fatal(err)
		}
		return p
	case 1:
		p := apst.DefaultParams(rapid.SampledFrom(apst.Generations()).Draw(t, "gen"))
		p.Quirks = rapid.SampledFrom([]apst.Quirks{0, apst.QuirkNoAPST, apst.QuirkNoDeepestPS}).Draw(t, "quirks")
		p.ForceAPST = rapid.Bool().Draw(t, "force")
		return p
	}
	p := apst.DefaultParams(apst.Current)
	p.Bound = apst.Microseconds(rapid.SampledFrom([]uint64{0, 1, 4600, 25000, 100000, uint64(apst.NoLimit)}).Draw(t, "bound"))
	return p
}
