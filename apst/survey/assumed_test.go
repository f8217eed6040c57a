package survey_test

import (
	"fmt"
	"github.com/nvmeapst/nvmeapst/internal/surveytest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/survey"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

func TestAssumedOf(t *testing.T) {
	tests := []struct {
		a    apst.Assumptions
		want survey.Assumed
	}{
		{apst.Assumptions{}, 0},
		{apst.Assumptions{APSTAUnknown: true}, survey.AssumedAPSTA},
		{apst.Assumptions{ReleaseUnknown: true, AtStake: []string{"x"}}, survey.AssumedRelease},
		{apst.Assumptions{BaseUnknown: true}, survey.AssumedBase},
		{apst.Assumptions{DMIUnchecked: true}, survey.AssumedDMI},
		{apst.Assumptions{PCIInferred: apst.PCIID{Vendor: 0x8086, Device: 0xf1a5}, Other: []string{"y"}}, 0},
		{apst.Assumptions{APSTAUnknown: true, ReleaseUnknown: true, DMIUnchecked: true}, survey.AssumedAPSTA | survey.AssumedRelease | survey.AssumedDMI},
	}
	for i, tt := range tests {
		assert.Equal(t, tt.want, survey.AssumedOf(&tt.a), "case %d", i)
	}
}

// assumedGenController draws a controller whose VID, model, firmware and
// PCI ID are those of a quirk entry (or near one), so that the release,
// its base and DMI rules are at stake.
func assumedGenController(t *rapid.T) *powerstate.Controller {
	c := surveytest.GenController(t)
	entries := apst.QuirkTables(apst.NewestRelease())
	e := rapid.SampledFrom(entries).Draw(t, "entry")
	c.VendorID = rapid.SampledFrom([]uint16{e.VendorID, e.Device.Vendor, c.VendorID}).Draw(t, "vid")
	c.Model = rapid.SampledFrom([]string{e.Model, e.Model + " 512GB", c.Model, "INTEL SSDPEKKW512G7"}).Draw(t, "model")
	c.Firmware = rapid.SampledFrom([]string{e.Firmware, "1B2QEXM7", ""}).Draw(t, "firmware")
	if rapid.Bool().Draw(t, "pci-known") {
		c.PCIVendorID, c.PCIDeviceID = e.Device.Vendor, e.Device.Device
	}
	c.APSTA = rapid.SampledFrom([]uint8{1, 0}).Draw(t, "apsta")
	if rapid.Bool().Draw(t, "apsta-unknown") {
		c.APSTA, c.Missing = 0, powerstate.FieldAPSTA
	}
	return c
}

// Row.Assumed is the union over the configurations of AssumedOf each
// plan's Assumptions, derived anew, whether the survey derived the kinds
// or remembered them from an earlier drive of the model.
func TestPropertyRowAssumed(t *testing.T) {
	releases := []string{"", "4.11", "4.12", "5.4", "5.15.0-91", "5.15.80", "6.8", "6.8.0-40", "7.3", "8.1"}
	rapid.Check(t, func(t *rapid.T) {
		nc := rapid.IntRange(2, 3).Draw(t, "configs")
		configs := make([]analysis.Config, nc)
		for i := range configs {
			p := apst.DefaultParams(apst.Current)
			if s := rapid.SampledFrom(releases).Draw(t, "release"); s != "" {
				r, err := apst.ParseRelease(s)
				require.NoError(t, err)
				p.Release = r
			}
			if rapid.IntRange(0, 4).Draw(t, "given") == 0 {
				p.QuirksGiven = true
			}
			configs[i] = analysis.Config{Name: fmt.Sprint("cfg", i), Params: p}
		}
		s, err := survey.NewWithOptions(survey.Options{KernelQuirks: rapid.IntRange(0, 5).Draw(t, "kq") > 0}, configs...)
		require.NoError(t, err)
		var row survey.Row
		for d := range rapid.IntRange(1, 6).Draw(t, "drives") {
			c := assumedGenController(t)
			for range 2 { // the second time from the cache
				require.NoError(t, s.AddInto(&row, fmt.Sprint("d", d), c))
				var want survey.Assumed
				for i := range row.Results {
					a := row.Results[i].Plan.Assumptions(c)
					want |= survey.AssumedOf(&a)
				}
				require.Equal(t, want, row.Assumed, "drive %d: %+v", d, c)
			}
		}
	})
}

// Two drives of the same model, one with APSTA recorded and one without,
// differ in AssumedAPSTA only.
func TestRowAssumedAPSTAPerDrive(t *testing.T) {
	s, err := survey.NewWithOptions(survey.Options{KernelQuirks: true}, analysis.Config{Name: "a", Params: apst.DefaultParams(apst.Current)},
		analysis.Config{Name: "b", Params: apst.DefaultParams(apst.Current)})
	require.NoError(t, err)
	c := powerstate.Controller{VendorID: 0x8086, Model: "INTEL SSDPEKKW512G7", Firmware: "PSF109C", NPSS: 1, APSTA: 1}
	c.PowerStates[1] = powerstate.Descriptor{NonOperational: true, ExitLatency: 5000, EntryLatency: 5000}
	known, err := s.Add("known", &c)
	require.NoError(t, err)
	c.APSTA, c.Missing = 0, powerstate.FieldAPSTA
	unknown, err := s.Add("unknown", &c)
	require.NoError(t, err)
	assert.Zero(t, known.Assumed&survey.AssumedAPSTA)
	assert.Equal(t, known.Assumed|survey.AssumedAPSTA, unknown.Assumed)
	assert.NotZero(t, known.Assumed&survey.AssumedRelease, "the 600p's quirk is at stake without a release")
}

// A drive's row is the same whether the survey evaluated it or remembered
// the outcome of an earlier drive with the same controller but for the
// serial number (outcomeCache): compared with the row of a survey that
// met the drive first.
func TestPropertyRowRemembered(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		configs := []analysis.Config{
			{Name: "a", Params: surveytest.GenParams(t)},
			{Name: "b", Params: surveytest.GenParams(t)},
		}
		opts := survey.Options{KernelQuirks: rapid.Bool().Draw(t, "kq")}
		s, err := survey.NewWithOptions(opts, configs...)
		require.NoError(t, err)
		var cs []*powerstate.Controller
		for range rapid.IntRange(1, 4).Draw(t, "models") {
			cs = append(cs, assumedGenController(t))
		}
		var row survey.Row // reused, as apstctl does
		for d := range rapid.IntRange(1, 12).Draw(t, "drives") {
			c := *rapid.SampledFrom(cs).Draw(t, "model")
			c.Serial = fmt.Sprint("S", d)
			name := fmt.Sprint("drive", d)
			require.NoError(t, s.AddInto(&row, name, &c))
			fresh, err := survey.NewWithOptions(opts, configs...)
			require.NoError(t, err)
			want, err := fresh.Add(name, &c)
			require.NoError(t, err)
			require.Equal(t, want, row, "drive %d", d)
		}
	})
}
