package apst_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

func mustRelease(t testing.TB, s string) apst.Release {
	r, err := apst.ParseRelease(s)
	require.NoError(t, err)
	return r
}

// TestPlanAssumptions: each assumption is recorded where it can change the
// answer, and only there.
func TestPlanAssumptions(t *testing.T) {
	evo := fixture990(t)
	intel := fixture(t, "intel-ssdpekkw256g7-PSF109C.bin")
	noAPSTA := *evo
	noAPSTA.Missing |= powerstate.FieldAPSTA
	kingston := powerstate.Controller{VendorID: 0x2646, Model: "KINGSTON SNV2S1000G", Firmware: "1.0", NPSS: 4, APSTA: 1}
	samsung960 := powerstate.Controller{VendorID: 0x144d, Model: "Samsung SSD 960 EVO 250GB", Firmware: "1.0", NPSS: 4, APSTA: 1}
	smi := powerstate.Controller{VendorID: 0x126f, PCIDeviceID: 0x2262, Model: "Generic SM2262 1TB", Firmware: "1.0", NPSS: 4, APSTA: 1}
	lenovoRule := "any NVMe device in a Lenovo N60z (board LXKT-ZXEG-N6) (no-apst)"

	for _, tc := range []struct {
		name    string
		c       *powerstate.Controller
		release string
		given   bool
		check   func(t *testing.T, a apst.Assumptions)
	}{
		{"990 EVO Plus, release unknown: only the DMI rule for every device, which is no caveat of the drive", evo, "", false, func(t *testing.T, a apst.Assumptions) {
			assert.False(t, a.ReleaseUnknown, "no entry that could apply differs between releases")
			assert.False(t, a.DMIUnchecked)
			assert.Equal(t, []string{lenovoRule}, a.MachineDMIRules)
			assert.Empty(t, a.Notes())
		}},
		{"990 EVO Plus on 6.8: nothing can matter", evo, "6.8", false, func(t *testing.T, a apst.Assumptions) {
			assert.True(t, a.IsZero(), "%q", a.Notes())
			assert.Empty(t, a.Notes())
		}},
		{"600p, release unknown: the ID table entry of 4.12 is at stake", &intel, "", false, func(t *testing.T, a apst.Assumptions) {
			assert.True(t, a.ReleaseUnknown)
			assert.Equal(t, apst.NewestRelease(), a.Tables)
			require.Len(t, a.AtStake, 1)
			assert.Contains(t, a.AtStake[0], "8086:f1a5")
			assert.Equal(t, apst.PCIID{Vendor: 0x8086, Device: 0xf1a5}, a.PCIInferred)
			assert.Contains(t, a.PCIInferredFrom, "INTEL SSDPEKKW256G7")
			assert.False(t, a.DMIUnchecked, "no DMI rule names 8086:f1a5")
			assert.Equal(t, []string{lenovoRule}, a.MachineDMIRules)
		}},
		{"600p on 6.8: inferred PCI ID only", &intel, "6.8", false, func(t *testing.T, a apst.Assumptions) {
			assert.False(t, a.ReleaseUnknown)
			assert.False(t, a.DMIUnchecked, "6.8 has no DMI rule for 8086:f1a5 or every device")
			assert.False(t, a.PCIInferred.IsZero())
			assert.Len(t, a.Notes(), 1)
		}},
		{"600p, distribution base unknown: no change of the series could apply to it", &intel, "5.10.0-28-amd64", false, func(t *testing.T, a apst.Assumptions) {
			assert.False(t, a.BaseUnknown, "%q", a.AtStake)
			assert.False(t, a.ReleaseUnknown)
			assert.NotEmpty(t, mustRelease(t, "5.10.0-28-amd64").SeriesChanges(), "the series changes for other drives")
		}},
		{"SM2262, distribution base unknown: its entry added in 6.8.6 is at stake", &smi, "6.8.0-45-generic", false, func(t *testing.T, a apst.Assumptions) {
			assert.True(t, a.BaseUnknown)
			require.Len(t, a.AtStake, 1, "%q", a.AtStake)
			assert.Contains(t, a.AtStake[0], "126f:2262")
			assert.Contains(t, a.ReleaseNote(), "stable base is unknown")
			assert.NotContains(t, a.ReleaseNote(), "Lenovo")
		}},
		{"quirks given: no quirk table assumed", &intel, "", true, func(t *testing.T, a apst.Assumptions) {
			assert.True(t, a.IsZero(), "%q", a.Notes())
		}},
		{"APSTA unknown", &noAPSTA, "6.8", false, func(t *testing.T, a apst.Assumptions) {
			assert.True(t, a.APSTAUnknown)
			assert.Equal(t, []string{apst.NoteAPSTAUnknown}, a.Notes())
		}},
		{"Kingston of no family: PCI quirks unchecked with why", &kingston, "6.8", false, func(t *testing.T, a apst.Assumptions) {
			assert.NotEmpty(t, a.PCIUnchecked)
			assert.Contains(t, a.PCIUncheckedWhy, "PCI quirks unchecked")
			assert.Contains(t, a.PCIUncheckedWhy, a.PCIUnchecked[0].String())
		}},
		{"960 EVO: the DMI rules on its inferred ID", &samsung960, "6.8", false, func(t *testing.T, a apst.Assumptions) {
			assert.True(t, a.DMIUnchecked)
			require.Len(t, a.DMIRules, 2)
			for _, r := range a.DMIRules {
				assert.Contains(t, r, "144d:a804")
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := apst.DefaultParams(apst.Current)
			if tc.release != "" {
				require.NoError(t, p.Set("kernel", tc.release))
			}
			p.QuirksGiven = tc.given
			plan, err := apst.Build(tc.c, p)
			require.NoError(t, err)
			a := plan.Assumptions(tc.c)
			tc.check(t, a)
			assert.Equal(t, a.IsZero(), len(a.Notes()) == 0)
			seen := map[string]bool{}
			for _, n := range a.Notes() {
				assert.False(t, seen[n], "note said twice: %s", n)
				seen[n] = true
			}
		})
	}
}

func TestAssumptionsZero(t *testing.T) {
	var a apst.Assumptions
	assert.True(t, a.IsZero())
	assert.Nil(t, a.Notes())
	var p apst.Plan
	z := p.Assumptions(fixture990(t))
	assert.True(t, z.IsZero())
	var m apst.QuirkMatch
	z = m.Assumptions()
	assert.True(t, z.IsZero())
	assert.True(t, apst.CommonAssumptions(nil).IsZero())
}

// TestQuirkMatchAssumptions: a known machine leaves DMI checked, and the
// lookup's assumptions agree with the plan's on a capture.
func TestQuirkMatchAssumptions(t *testing.T) {
	intel := fixture(t, "intel-ssdpekkw256g7-PSF109C.bin")
	m := apst.DriveQuirks(&intel, apst.Release{})
	a := m.Assumptions()
	plan, err := apst.Build(&intel, apst.DefaultParams(apst.Current))
	require.NoError(t, err)
	pa := plan.Assumptions(&intel)
	assert.Equal(t, pa.Notes(), a.Notes())

	known := apst.LookupQuirks(apst.Identity{VendorID: 0x8086, Model: "INTEL SSDPEKKW256G7", Release: mustRelease(t, "6.12"),
		PCI: apst.PCIID{Vendor: 0x8086, Device: 0xf1a5}, DMI: apst.DMI{SysVendor: "LENOVO", BoardName: "X"}})
	b := known.Assumptions()
	assert.True(t, b.IsZero(), "%q", b.Notes())
}

// TestCommonAssumptions: what several answers share is said once, and
// each keeps what it adds.
func TestCommonAssumptions(t *testing.T) {
	smi := powerstate.Controller{VendorID: 0x126f, Model: "Generic SM2262 1TB", Firmware: "1.0", NPSS: 4, APSTA: 1}
	var as []apst.Assumptions
	for _, k := range []string{"6.8", "6.8.0-45-generic", "4.11"} {
		p := apst.DefaultParams(apst.Current)
		require.NoError(t, p.Set("kernel", k))
		plan, err := apst.Build(&smi, p)
		require.NoError(t, err)
		as = append(as, plan.Assumptions(&smi))
	}
	common := apst.CommonAssumptions(as)
	assert.False(t, common.BaseUnknown)
	own1 := as[1].Without(common)
	assert.True(t, own1.BaseUnknown, "only the distribution kernel's base is unknown")
	assert.NotEmpty(t, own1.PCIUnchecked, "126f:2262 is in the newest 6.8.z tables only")
	own0 := as[0].Without(common)
	assert.True(t, own0.IsZero(), "%q", own0.Notes())
}

// TestAssumptionsSplitProperty: the common part and each answer's own part
// say every note of the answer, and no note twice.
func TestAssumptionsSplitProperty(t *testing.T) {
	intel := fixture(t, "intel-ssdpekkw256g7-PSF109C.bin")
	evo := fixture990(t)
	ctls := []*powerstate.Controller{&intel, evo,
		{VendorID: 0x2646, Model: "KINGSTON SNV2S1000G", NPSS: 4, APSTA: 1},
		{VendorID: 0x144d, Model: "Samsung SSD 960 EVO 250GB", NPSS: 4, APSTA: 1, Missing: powerstate.FieldAPSTA}}
	kernels := []string{"", "4.11", "5.10.0-28-amd64", "5.15.0-91-generic", "6.8", "6.12", "7.3", "9.1"}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 4).Draw(t, "n")
		as := make([]apst.Assumptions, n)
		for i := range as {
			c := rapid.SampledFrom(ctls).Draw(t, "controller")
			p := apst.DefaultParams(apst.Current)
			if k := rapid.SampledFrom(kernels).Draw(t, "kernel"); k != "" {
				if err := p.Set("kernel", k); err != nil {
					t.Fatal(err)
				}
			}
			plan, err := apst.Build(c, p)
			if err != nil {
				t.Fatal(err)
			}
			as[i] = plan.Assumptions(c)
		}
		common := apst.CommonAssumptions(as)
		for i := range as {
			own := as[i].Without(common)
			said := append(common.Notes(), own.Notes()...)
			for _, note := range as[i].Notes() {
				if !slices.Contains(said, note) {
					t.Fatalf("answer %d: %q said neither in common nor own", i, note)
				}
			}
			for _, note := range own.Notes() {
				if slices.Contains(common.Notes(), note) {
					t.Fatalf("answer %d: %q said twice", i, note)
				}
			}
		}
	})
}
