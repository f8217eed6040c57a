package apst_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// TestUncheckedPCIByFamily checks, on the corpus's Intel and WD/SanDisk
// reports, which models leave a quirked PCI ID as a candidate: the model
// family settles it where it names another product (docs/quirks.md).
func TestUncheckedPCIByFamily(t *testing.T) {
	f1a5 := apst.PCIID{Vendor: 0x8086, Device: 0xf1a5}
	sn550 := apst.PCIID{Vendor: 0x15b7, Device: 0x5009}
	for _, tc := range []struct {
		file      string
		candidate apst.PCIID // zero: no candidate for the vendor's ID
		inferred  apst.PCIID
	}{
		{file: "Intel_SSDPEKKW256G7_PSF109C.txt", inferred: f1a5},
		{file: "Intel_SSDPEKKW256G8_004C.txt"},     // 760p
		{file: "Intel_SSDPE21D480GA_E2010420.txt"}, // Optane 900p
		{file: "Intel_SSDPEDMD400G4_8DV10171.txt"}, // DC P3700
		{file: "Intel_MEMPEK1J016GAL_K4110400.txt"},
		{file: "Intel_MEMPEK1W032GA_K3110310.txt"},
		{file: "Intel_HBRPEKNX0202AH_HPS1.txt"},
		{file: "Intel_SSDPEKNU512GZ_002C.txt"},
		{file: "Intel_SSDPEKNW010T9_001C.txt"},
		{file: "Intel_SSDPEKNW512G8_002C.txt"},
		{file: "WDC_WDS200T2B0C-00PXH0_21705000.txt", inferred: sn550},
		{file: "WDC_WDS256G1X0C-00ENX0_B35500WD.txt"},
		{file: "WDC_WD_BLACK_SN770_1TB_731120WD.txt"},
		{file: "WDC_WD_BLACK_SN850X_2000GB_620361WD.txt"},
		{file: "WDC_WD_Blue_SN570_1TB_234100WD.txt"},
		{file: "WDC_PC_SN520_NVMe_256GB_20220012.txt"},
		{file: "WDC_CL_SN720_SDAQNTW-1T00-2000_10104122.txt"},
		{file: "SanDisk_PC_SN5000S_SDEPNSJ-1T00-1036_34320000.txt"},
		// Real doubt: the model names no product line the sources tie to an ID.
		{file: "SanDisk_Extreme_Pro_1TB_111130WD.txt", candidate: sn550},
		{file: "SanDisk_A400_SD9PN9U-256G-1001_A3590001.txt", candidate: sn550},
	} {
		t.Run(tc.file, func(t *testing.T) {
			c, err := capture.ParseBytes(testfixture.ReadFile(t, "corpus/smartctl/"+tc.file))
			require.NoError(t, err)
			m := apst.DriveQuirks(&c, apst.Release{})
			assert.Equal(t, tc.inferred, m.InferredPCI)
			notes := strings.Join(m.Notes, "\n")
			if tc.candidate.IsZero() {
				assert.False(t, slices.Contains(m.UncheckedPCI, f1a5) || slices.Contains(m.UncheckedPCI, sn550),
					"model %q: unexpected candidate %v", c.Model, m.UncheckedPCI)
				assert.NotContains(t, notes, "PCI quirks unchecked")
				if tc.inferred.IsZero() {
					assert.Contains(t, notes, "ruled out: model \""+c.Model+"\" is another product")
				}
				// Build's lookup says the same.
				p := apst.DefaultParams(apst.Current)
				plan, err := apst.Build(&c, p)
				require.NoError(t, err)
				assert.Empty(t, plan.Quirks.UncheckedPCI())
				assert.Equal(t, tc.inferred.IsZero(), strings.Contains(strings.Join(plan.Quirks.Notes(c.Model), "\n"), "ruled out"))
			} else {
				assert.Contains(t, m.UncheckedPCI, tc.candidate, "model %q", c.Model)
			}
		})
	}
	// The same family rules hold for names the corpus lacks.
	for _, model := range []string{"INTEL SSDPE2KX010T8", "INTEL SSDPF2KX038TZ", "INTEL SSDPED1K375GA", "INTEL SSDPEK1A058GA", "INTEL SSDPEL1D380GA"} {
		c := powerstate.Controller{VendorID: 0x8086, Model: model}
		assert.NotContains(t, apst.DriveQuirks(&c, apst.Release{}).UncheckedPCI, f1a5, model)
	}
	c := powerstate.Controller{VendorID: 0x8086, Model: "INTEL SSDPEKKF512G7"}
	assert.Equal(t, f1a5, apst.DriveQuirks(&c, apst.Release{}).InferredPCI, "Pro 6000p")
}

// TestUncheckedPCIBySSVID checks that a drive sold under a brand's VID
// whose Identify SSVID is its controller maker's leaves that maker's
// quirked PCI IDs unchecked too: the HP EX920 (VID 1dee, SSVID 126f)
// enumerates as 126f:2262 (its kernel log's "pci 0000:01:00.0: [126f:2262]",
// apst/diagnose's EX920 test), which the kernel quirks NO_DEEPEST_PS from
// 6.9. Corpus reports from linuxhw; a drive whose SSVID is its VID, or a
// maker with no quirked ID (Marvell's 1b4b), gets none of them.
func TestUncheckedPCIBySSVID(t *testing.T) {
	sm2262 := apst.PCIID{Vendor: 0x126f, Device: 0x2262}
	for _, tc := range []struct {
		file string
		want bool
	}{
		{"HP_SSD_EX920_1TB_SVN163.txt", true},
		{"HP_SSD_EX900_250GB_R1115D0.txt", true},
		{"Lite-On_CL1-3D256-Q11_NVMe_LITEON_256GB_22301112.txt", true},
		{"WDC_WDS256G1X0C-00ENX0_B35500WD.txt", false},
		{"Kingston_SA2000M8250G_S5Z42105.txt", false},
	} {
		t.Run(tc.file, func(t *testing.T) {
			c, err := capture.ParseBytes(testfixture.ReadFile(t, "corpus/smartctl/"+tc.file))
			require.NoError(t, err)
			m := apst.DriveQuirks(&c, apst.Release{})
			assert.Equal(t, tc.want, slices.Contains(m.UncheckedPCI, sm2262), "%v", m.UncheckedPCI)
			plan, err := apst.Build(&c, apst.DefaultParams(apst.Current))
			require.NoError(t, err)
			assert.Equal(t, tc.want, slices.Contains(plan.Quirks.UncheckedPCI(), sm2262), "Build's lookup")
			a := plan.Assumptions(&c)
			if !tc.want {
				assert.Zero(t, a.PCIUncheckedSSVID)
				return
			}
			assert.Equal(t, uint16(0x126f), a.PCIUncheckedSSVID)
			assert.Contains(t, a.PCIUncheckedWhy, "the Identify SSVID 0x126f")
			assert.Contains(t, strings.Join(m.Notes, "\n"), "has quirked IDs 126f:2262")
		})
	}
	// The PCI ID known settles it: the kernel's answer, NO_DEEPEST_PS.
	c := powerstate.Controller{VendorID: 0x1dee, SubsystemVendorID: 0x126f, Model: "HP SSD EX920 1TB", PCIDeviceID: 0x2262, PCIVendorID: 0x126f}
	m := apst.DriveQuirks(&c, apst.Release{})
	assert.Empty(t, m.UncheckedPCI)
	assert.NotZero(t, m.Quirks&apst.QuirkNoDeepestPS)
}
