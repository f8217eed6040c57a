package apst_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

var anyMachine = apst.DMI{SysVendor: "Example", BoardName: "example-board"}

func TestLookupQuirks(t *testing.T) {
	for _, tc := range []struct {
		name   string
		id     apst.Identity
		apstQ  apst.Quirks
		tables []string
	}{
		{"toshiba core entry", apst.Identity{VendorID: 0x1179, Model: "THNSF5256GPUK TOSHIBA"}, apst.QuirkNoAPST, []string{"core_quirks"}},
		{"toshiba padded with spaces", apst.Identity{VendorID: 0x1179, Model: "THNSF5256GPUK TOSHIBA                   "}, apst.QuirkNoAPST, []string{"core_quirks"}},
		{"toshiba padded with NULs does not match", apst.Identity{VendorID: 0x1179, Model: "THNSF5256GPUK TOSHIBA\x00\x00\x00"}, 0, nil},
		{"toshiba other model", apst.Identity{VendorID: 0x1179, Model: "THNSF5256GPUK TOSHIBA X"}, 0, nil},
		{"kioxia cd6", apst.Identity{VendorID: 0x1e0f, Model: "KCD6XVUL6T40"}, apst.QuirkNoAPST, []string{"core_quirks"}},
		{"samsung x5", apst.Identity{VendorID: 0x144d, Model: "Samsung Portable SSD X5", PCI: apst.PCIID{0x144d, 0xa808}}, apst.QuirkNoDeepestPS, []string{"core_quirks"}},
		{"970 evo plus shares the PCI ID", apst.Identity{VendorID: 0x144d, Model: "Samsung SSD 970 EVO Plus 1TB", PCI: apst.PCIID{0x144d, 0xa808}}, 0, nil},
		{"liteon simple suspend only", apst.Identity{VendorID: 0x14a4, Firmware: "22301111"}, 0, []string{"core_quirks"}},
		{"intel 600p", apst.Identity{VendorID: 0x8086, Model: "INTEL SSDPEKKW256G7", PCI: apst.PCIID{0x8086, 0xf1a5}}, apst.QuirkNoDeepestPS, []string{"pci_id_table"}},
		{"kingston a2000", apst.Identity{PCI: apst.PCIID{0x2646, 0x2263}}, apst.QuirkNoDeepestPS, []string{"pci_id_table"}},
		{"dell xps 15 9550", apst.Identity{PCI: apst.PCIID{0x144d, 0xa802}, DMI: apst.DMI{SysVendor: "Dell Inc.", ProductName: "XPS 15 9550"}}, apst.QuirkNoDeepestPS, []string{"dmi"}},
		{"sm951 elsewhere", apst.Identity{PCI: apst.PCIID{0x144d, 0xa802}, DMI: apst.DMI{SysVendor: "LENOVO", ProductName: "XPS 15 9550"}}, 0, nil},
		{"960 evo on asus prime", apst.Identity{PCI: apst.PCIID{0x144d, 0xa804}, DMI: apst.DMI{BoardVendor: "ASUSTeK COMPUTER INC.", BoardName: "PRIME Z370-A"}}, apst.QuirkNoAPST, []string{"dmi"}},
		{"lenovo n60z any device", apst.Identity{PCI: apst.PCIID{0x1234, 0x5678}, DMI: apst.DMI{BoardName: "LXKT-ZXEG-N6"}}, apst.QuirkNoAPST, []string{"dmi"}},
		{"nothing", apst.Identity{VendorID: 0x144d, Model: "Samsung SSD 990 EVO Plus 1TB"}, 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := apst.LookupQuirks(tc.id)
			assert.Equal(t, tc.apstQ, m.APST())
			var tables []string
			for _, s := range m.Sources {
				tables = append(tables, s.Table)
				assert.NotEmpty(t, s.Rule)
			}
			assert.Equal(t, tc.tables, tables)
			assert.Equal(t, apst.NewestRelease(), m.Tables)
			assert.Contains(t, m.Notes, "kernel release unknown: assumed the newest quirk tables (Linux 7.3)")
			assert.Equal(t, tc.id.DMI.IsZero(), m.UncheckedDMI)
		})
	}
}

func TestQuirkTablesNewest(t *testing.T) {
	count := map[string]int{}
	for _, e := range apst.QuirkTables(apst.Release{}) {
		count[e.Table]++
		if e.Table == "pci_id_table" {
			assert.Equal(t, apst.QuirkNoDeepestPS, e.Quirks.APST(), e.Device.String())
		}
		assert.NotEmpty(t, e.Evidence, e.String())
	}
	assert.Equal(t, map[string]int{"core_quirks": 4, "pci_id_table": 10, "dmi": 4}, count,
		"kernel-apst.md §7: 4 core entries, 10 NO_DEEPEST_PS PCI entries, 3 DMI rules (B350M-A and Z370-A came apart)")
	// The tables are fresh copies.
	tabs := apst.QuirkTables(apst.Release{})
	tabs[0].Quirks = 0
	tabs[len(tabs)-1].DMIValues[0] = "x"
	again := apst.QuirkTables(apst.Release{})
	assert.Equal(t, apst.QuirkNoAPST, again[0].Quirks)
	assert.Equal(t, "LXKT-ZXEG-N6", again[len(again)-1].DMIValues[0])
	assert.Equal(t, apst.QuirkTables(apst.NewestRelease()), apst.QuirkTables(apst.Release{Major: 9, Minor: 1}),
		"a release newer than the newest known uses the newest tables")
}

// pciCount is the number of NO_DEEPEST_PS PCI entries in a release's tables.
func pciCount(r apst.Release) int {
	n := 0
	for _, e := range apst.QuirkTables(r) {
		if e.Table == "pci_id_table" {
			n++
		}
	}
	return n
}

// §13.2, row by row.
func TestQuirkTablesPerRelease(t *testing.T) {
	for _, tc := range []struct {
		release string
		pci     int
		core    []string // the APST core entries, by vendor
		dmi     int
	}{
		{"4.11", 0, []string{"toshiba"}, 1},
		{"4.12", 1, []string{"toshiba"}, 1},
		{"4.14", 1, []string{"toshiba"}, 1},
		{"4.15", 1, []string{"toshiba"}, 2},
		{"4.16", 1, []string{"toshiba"}, 3},
		{"5.3", 1, []string{"toshiba"}, 3},
		{"5.3.8", 2, []string{"toshiba"}, 3},
		{"5.4", 2, []string{"toshiba"}, 3},
		{"5.10", 2, []string{"toshiba"}, 3},
		{"5.11", 3, []string{"toshiba"}, 3},
		{"5.12", 4, []string{"toshiba"}, 3},
		{"5.15", 4, []string{"toshiba"}, 3},
		{"5.15.80", 4, []string{"toshiba", "kioxia", "x5"}, 3},
		{"5.16", 4, []string{"toshiba", "kioxia"}, 3},
		{"5.17", 4, []string{"toshiba", "kioxia"}, 3},
		{"5.17.10", 5, []string{"toshiba", "kioxia"}, 3},
		{"5.18", 5, []string{"toshiba", "kioxia"}, 3},
		{"5.18.8", 4, []string{"toshiba", "kioxia", "x5"}, 3},
		{"5.19", 5, []string{"toshiba", "kioxia", "x5"}, 3},
		{"6.0", 5, []string{"toshiba", "kioxia", "x5"}, 3},
		{"6.1", 6, []string{"toshiba", "kioxia", "x5"}, 3},
		{"6.8", 6, []string{"toshiba", "kioxia", "x5"}, 3},
		{"6.9", 7, []string{"toshiba", "kioxia", "x5"}, 3},
		{"6.11", 7, []string{"toshiba", "kioxia", "x5"}, 4},
		{"6.15", 10, []string{"toshiba", "kioxia", "x5"}, 4},
		{"7.1", 10, []string{"toshiba", "kioxia", "x5"}, 4},
		{"7.3", 10, []string{"toshiba", "kioxia", "x5"}, 4},
	} {
		t.Run(tc.release, func(t *testing.T) {
			r, err := apst.ParseRelease(tc.release)
			require.NoError(t, err)
			assert.Equal(t, tc.pci, pciCount(r))
			var core []string
			dmi := 0
			for _, e := range apst.QuirkTables(r) {
				switch {
				case e.Table == "dmi":
					dmi++
				case e.Table == "core_quirks" && e.Quirks.APST() != 0:
					core = append(core, map[uint16]string{0x1179: "toshiba", 0x1e0f: "kioxia", 0x144d: "x5"}[e.VendorID])
				}
			}
			assert.Equal(t, tc.core, core)
			assert.Equal(t, tc.dmi, dmi)
		})
	}
}

// identityFor returns an identity an entry matches.
func identityFor(e apst.QuirkEntry, r apst.Release) apst.Identity {
	id := apst.Identity{VendorID: e.VendorID, Model: e.Model, Firmware: e.Firmware, PCI: e.Device, Release: r}
	if e.Table == "dmi" {
		id.VendorID = e.Device.Vendor
		if e.Device.IsZero() {
			id.PCI = apst.PCIID{Vendor: 0x1234, Device: 0x5678}
		}
		if e.DMIField == "board_name" {
			id.DMI = apst.DMI{BoardVendor: e.DMIVendor, BoardName: e.DMIValues[0]}
		} else {
			id.DMI = apst.DMI{SysVendor: e.DMIVendor, ProductName: e.DMIValues[0]}
		}
	}
	return id
}

func before(r apst.Release) apst.Release {
	switch {
	case r.Patch > 0:
		return apst.Release{Major: r.Major, Minor: r.Minor, Patch: r.Patch - 1}
	case r.Minor > 0:
		return apst.Release{Major: r.Major, Minor: r.Minor - 1, Patch: 999}
	}
	return apst.Release{Major: r.Major - 1, Minor: 99, Patch: 999}
}

// Every entry of the history changes the quirks of a drive it matches
// between the release just before a change and the release of the change:
// its first mainline release, its removal, each backport and each drop.
func TestQuirkHistoryEveryChange(t *testing.T) {
	history := apst.QuirkHistory()
	require.NotEmpty(t, history)
	for _, e := range history {
		t.Run(e.String(), func(t *testing.T) {
			if e.Added == e.Removed {
				// The SM951 firmware entry was in v4.11-rc1 only: no release had it.
				for _, r := range []string{"4.10", "4.11", "4.12", "7.1"} {
					rr, _ := apst.ParseRelease(r)
					assert.False(t, e.In(rr), r)
				}
				return
			}
			type change struct {
				at     apst.Release
				appear bool
			}
			changes := []change{{e.Added, true}}
			if !e.Removed.IsZero() {
				changes = append(changes, change{e.Removed, false})
			}
			for _, b := range e.Backports {
				changes = append(changes, change{b, true})
			}
			for _, d := range e.Dropped {
				changes = append(changes, change{d, false})
			}
			for _, ch := range changes {
				prev := before(ch.at) // the last stable release of the previous series
				if ch.at.Patch == 0 && e.In(prev) == ch.appear {
					// A stable release of the previous series changed first:
					// compare with that series' mainline release.
					prev = apst.Release{Major: ch.at.Major, Minor: ch.at.Minor - 1}
				}
				assert.Equal(t, !ch.appear, e.In(prev), "before %s (%s)", ch.at, prev)
				assert.Equal(t, ch.appear, e.In(ch.at), "at %s", ch.at)
				// The quirks differ, or (the Samsung X5, whose quirks moved
				// from its PCI ID to its model) where they come from.
				mBefore := apst.LookupQuirks(identityFor(e, prev))
				mAt := apst.LookupQuirks(identityFor(e, ch.at))
				assert.NotEqual(t, fmt.Sprint(mBefore.Quirks, mBefore.Sources), fmt.Sprint(mAt.Quirks, mAt.Sources), "quirks at %s and %s", prev, ch.at)
				if mBefore.Quirks == mAt.Quirks {
					assert.Equal(t, "Samsung Portable SSD X5", e.Model, "only the X5 keeps its quirks across a change")
				}
			}
		})
	}
}

// A stable release only gains what is backported to it: while the tables
// only grow (before the 144d:a808 episode and after it), every entry of a
// release is in every later release of its series.
func TestQuirkTablesMonotoneWithinSeries(t *testing.T) {
	for _, series := range []apst.Release{{Major: 4, Minor: 19}, {Major: 5, Minor: 4}, {Major: 6, Minor: 1}, {Major: 6, Minor: 6}, {Major: 6, Minor: 12}} {
		prev := apst.QuirkTables(series)
		for p := uint16(1); p < 400; p++ {
			r := apst.Release{Major: series.Major, Minor: series.Minor, Patch: p}
			cur := apst.QuirkTables(r)
			for _, e := range prev {
				assert.Contains(t, cur, e, "%s lost %s", r, e.String())
			}
			prev = cur
		}
	}
}

// The 144d:a808 episode: every 970 EVO Plus got NO_DEEPEST_PS in v5.18 and
// the stable releases of May–June 2022, and not before or after.
func TestSamsungA808Episode(t *testing.T) {
	evo := powerstate.Controller{VendorID: 0x144d, Model: "Samsung SSD 970 EVO Plus 1TB"}
	for _, tc := range []struct {
		release string
		want    apst.Quirks
	}{
		{"5.17", 0}, {"5.17.9", 0}, {"5.17.10", apst.QuirkNoDeepestPS}, {"5.17.15", apst.QuirkNoDeepestPS},
		{"5.18", apst.QuirkNoDeepestPS}, {"5.18.7", apst.QuirkNoDeepestPS}, {"5.18.8", 0}, {"5.19", 0},
		{"5.15.41", 0}, {"5.15.42", apst.QuirkNoDeepestPS}, {"5.15.50", apst.QuirkNoDeepestPS}, {"5.15.51", 0},
		{"5.10.117", 0}, {"5.10.118", apst.QuirkNoDeepestPS}, {"5.10.126", apst.QuirkNoDeepestPS}, {"5.10.127", 0},
		{"6.8", 0}, {"7.1", 0},
	} {
		r, err := apst.ParseRelease(tc.release)
		require.NoError(t, err)
		m := apst.DriveQuirks(&evo, r)
		assert.Equal(t, tc.want, m.APST(), tc.release)
		assert.Equal(t, apst.PCIID{Vendor: 0x144d, Device: 0xa808}, m.InferredPCI, tc.release)
		assert.Contains(t, m.InferredFrom, "970 EVO Plus")
	}
}

// kernel=5.15 and kernel=7.1 give different tables for a drive whose entry
// came in between (the Solidigm P44 Pro, v6.15 with no 5.15 backport before
// 5.15.185).
func TestKernelReleaseSelectsTables(t *testing.T) {
	c := powerstate.Controller{VendorID: 0x025e, Model: "SOLIDIGM SSDPFKKW020X7", NPSS: 4, APSTA: 1}
	for i := range 5 {
		c.PowerStates[i].NonOperational = i >= 3
		c.PowerStates[i].ExitLatency = powerstate.Microseconds(100 * (i + 1))
		c.PowerStates[i].EntryLatency = powerstate.Microseconds(100 * (i + 1))
	}
	plan := func(cfg string) apst.Plan {
		p, err := apst.ParseConfig(cfg, apst.DefaultParams(apst.Current))
		require.NoError(t, err)
		p.Quirks |= apst.DriveQuirks(&c, p.Release).Quirks
		pl, err := apst.Build(&c, p)
		require.NoError(t, err)
		return pl
	}
	old, cur := plan("kernel=5.15"), plan("kernel=7.1")
	assert.Equal(t, 4, old.MaxPS)
	assert.Equal(t, 3, cur.MaxPS, "NO_DEEPEST_PS from 025e:f1ac, inferred from the model")
	assert.NotEqual(t, old.Table, cur.Table)
	assert.Equal(t, 4, plan("kernel=5.15.184").MaxPS)
	assert.Equal(t, 3, plan("kernel=5.15.185").MaxPS, "the 5.15 backport")
}

// Every SSDPEKKW256G7 capture in the test data comes out NO_DEEPEST_PS by
// inference: the kernel never lets the 600p reach ps4.
func TestIntel600pCapturesInferNoDeepestPS(t *testing.T) {
	var paths []string
	for _, pattern := range []string{"corpus/*/*SSDPEKKW256G7*", "corpus/*/*/*SSDPEKKW256G7*", "identify/*ssdpekkw256g7*"} {
		paths = append(paths, testfixture.Glob(t, pattern)...)
	}
	require.GreaterOrEqual(t, len(paths), 6)
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			c, err := capture.ParseBytes(b)
			require.NoError(t, err)
			m := apst.DriveQuirks(&c, apst.Release{})
			assert.Equal(t, apst.QuirkNoDeepestPS, m.APST())
			assert.Equal(t, apst.PCIID{Vendor: 0x8086, Device: 0xf1a5}, m.InferredPCI)
			assert.Contains(t, m.InferredFrom, "Intel 600p")
			assert.Empty(t, m.UncheckedPCI)
			p := apst.DefaultParams(apst.Current)
			p.Quirks = m.Quirks
			plan, err := apst.Build(&c, p)
			require.NoError(t, err)
			assert.Equal(t, 3, plan.MaxPS)
		})
	}
}

func TestUncheckedPCI(t *testing.T) {
	// A Silicon Motion based drive: the generic IDs cannot be told apart.
	smi := powerstate.Controller{VendorID: 0x126f, Model: "Colorful CN600 512GB"}
	m := apst.DriveQuirks(&smi, apst.Release{Major: 7, Minor: 1})
	assert.Zero(t, m.InferredPCI)
	assert.Equal(t, []apst.PCIID{{Vendor: 0x126f, Device: 0x2262}, {Vendor: 0x126f, Device: 0x1001}}, m.UncheckedPCI)
	assert.Zero(t, m.APST())
	assert.Contains(t, strings.Join(m.Notes, "\n"), "PCI quirks unchecked: the PCI device ID is unknown and the model does not identify it; vendor 0x126f has quirked IDs 126f:2262, 126f:1001")
	// Before v6.9 the vendor had no quirked ID.
	m = apst.DriveQuirks(&smi, apst.Release{Major: 6, Minor: 8})
	assert.Empty(t, m.UncheckedPCI)
	// An Intel drive whose model names no known family: f1a5 is a candidate.
	other := powerstate.Controller{VendorID: 0x8086, Model: "INTEL SSDPEKKR128G7"}
	m = apst.DriveQuirks(&other, apst.Release{})
	assert.Equal(t, []apst.PCIID{{Vendor: 0x8086, Device: 0xf1a5}}, m.UncheckedPCI)
	// A known PCI ID settles it.
	other.PCIDeviceID = 0xf1a8
	m = apst.DriveQuirks(&other, apst.Release{})
	assert.Empty(t, m.UncheckedPCI)
	assert.Zero(t, m.InferredPCI)
	// The 760p (SSDPEKKW...G8) is not inferred as a 600p.
	g8 := powerstate.Controller{VendorID: 0x8086, Model: "INTEL SSDPEKKW256G8"}
	m = apst.DriveQuirks(&g8, apst.Release{})
	assert.Zero(t, m.InferredPCI)
	assert.Zero(t, m.APST())
}

func TestInferenceTable(t *testing.T) {
	for _, tc := range []struct {
		vid   uint16
		model string
		want  apst.PCIID
	}{
		{0x8086, "INTEL SSDPEKKW256G7", apst.PCIID{Vendor: 0x8086, Device: 0xf1a5}},
		{0x8086, "INTEL SSDPEKKW010T7", apst.PCIID{Vendor: 0x8086, Device: 0xf1a5}},
		{0x8086, "INTEL SSDPEKKF512G7", apst.PCIID{Vendor: 0x8086, Device: 0xf1a5}},
		{0x8086, "INTEL SSDPEKKA256G7", apst.PCIID{Vendor: 0x8086, Device: 0xf1a5}},
		{0x2646, "KINGSTON SA2000M8250G", apst.PCIID{Vendor: 0x2646, Device: 0x2263}},
		{0x2646, "KINGSTON SKC2000M81000G", apst.PCIID{Vendor: 0x2646, Device: 0x2262}},
		{0x2646, "KINGSTON SKC3000D2048G", apst.PCIID{}},
		{0x1e49, "ZHITAI TiPro7000 1TB", apst.PCIID{Vendor: 0x1e49, Device: 0x0041}},
		{0x1e49, "ZHITAI TiPro5000 512GB", apst.PCIID{Vendor: 0x1e49, Device: 0x0021}},
		{0x1e49, "ZHITAI TiPlus5000 1TB", apst.PCIID{Vendor: 0x1e49, Device: 0x0021}},
		{0x1e49, "ZHITAI TiPlus7100s 4TB", apst.PCIID{}},
		{0x1cc1, "ADATA SX8200PNP", apst.PCIID{Vendor: 0x1cc1, Device: 0x8201}},
		{0x15b7, "WDC WDS500G2B0C-00PXH0", apst.PCIID{Vendor: 0x15b7, Device: 0x5009}},
		{0x15b7, "WDC WDS200T2B0C-00PXH0", apst.PCIID{Vendor: 0x15b7, Device: 0x5009}},
		{0x15b7, "WDS250G2X0C-00L350", apst.PCIID{}},
		{0x025e, "SOLIDIGM SSDPFKKW020X7", apst.PCIID{Vendor: 0x025e, Device: 0xf1ac}},
		{0x025e, "P41PL NVMe SOLIDIGM 512GB", apst.PCIID{}},
		{0x144d, "Samsung SSD 970 EVO Plus 250GB", apst.PCIID{Vendor: 0x144d, Device: 0xa808}},
		{0x144d, "SAMSUNG MZVLB1T0HALR-00000", apst.PCIID{Vendor: 0x144d, Device: 0xa808}},
		{0x144d, "Samsung SSD 960 EVO 500GB", apst.PCIID{Vendor: 0x144d, Device: 0xa804}},
		{0x144d, "Samsung SSD 950 PRO 256GB", apst.PCIID{Vendor: 0x144d, Device: 0xa802}},
		{0x144d, "Samsung SSD 980 PRO 2TB", apst.PCIID{}},
		{0x126f, "Samsung SSD 970 EVO Plus 1TB", apst.PCIID{}}, // the VID must agree
	} {
		m := apst.LookupQuirks(apst.Identity{VendorID: tc.vid, Model: tc.model})
		assert.Equal(t, tc.want, m.InferredPCI, tc.model)
		if !tc.want.IsZero() {
			assert.Contains(t, m.InferredFrom, tc.model)
		}
	}
}

// The DMI rules need the machine: a capture never supplies it, and with the
// machine known the inferred PCI ID lets the device rules apply.
func TestDMIRulesNeedTheMachine(t *testing.T) {
	evo960 := apst.Identity{VendorID: 0x144d, Model: "Samsung SSD 960 EVO 500GB"}
	m := apst.LookupQuirks(evo960)
	assert.True(t, m.UncheckedDMI)
	assert.Zero(t, m.APST())
	evo960.DMI = apst.DMI{BoardVendor: "ASUSTeK COMPUTER INC.", BoardName: "PRIME B350M-A"}
	m = apst.LookupQuirks(evo960)
	assert.False(t, m.UncheckedDMI)
	assert.Equal(t, apst.QuirkNoAPST, m.APST())
	evo960.Release = apst.Release{Major: 4, Minor: 14}
	assert.Zero(t, apst.LookupQuirks(evo960).APST(), "the B350M-A rule came in v4.15")
}

func TestQuirkOverride(t *testing.T) {
	intel := apst.Identity{VendorID: 0x8086, Model: "INTEL SSDPEKKW256G7", PCI: apst.PCIID{Vendor: 0x8086, Device: 0xf1a5},
		Release: apst.Release{Major: 7, Minor: 1}, DMI: anyMachine}
	for _, tc := range []struct {
		name, override string
		release        apst.Release
		want           apst.Quirks
		overridden     bool
		note           string
	}{
		{"clears no_deepest_ps", "8086:f1a5:^no_deepest_ps", apst.Release{Major: 7, Minor: 1}, 0, true, "applied"},
		{"first matching entry wins", "8086:f1a5:no_apst-8086:f1a5:^no_deepest_ps", apst.Release{Major: 7, Minor: 1}, apst.QuirksAPST, true, "applied"},
		{"other device", "2646:2263:^no_deepest_ps", apst.Release{Major: 7, Minor: 1}, apst.QuirkNoDeepestPS, false, ""},
		{"before 7.0 there is no parameter", "8086:f1a5:^no_deepest_ps", apst.Release{Major: 6, Minor: 19}, apst.QuirkNoDeepestPS, false, "no such parameter"},
		{"malformed in 7.1: logged and ignored", "8086:f1a5", apst.Release{Major: 7, Minor: 1}, apst.QuirkNoDeepestPS, false, "log and ignore"},
		{"malformed in 7.3: refused", "8086:f1a5:bogus", apst.Release{Major: 7, Minor: 3}, apst.QuirkNoDeepestPS, false, "refuse"},
		{"unset parameter", "(null)\n", apst.Release{Major: 7, Minor: 1}, apst.QuirkNoDeepestPS, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := intel
			id.Override, id.Release = tc.override, tc.release
			m := apst.LookupQuirks(id)
			assert.Equal(t, tc.want, m.APST())
			assert.Equal(t, tc.overridden, m.Overridden)
			if tc.note != "" {
				found := false
				for _, n := range m.Notes {
					found = found || strings.Contains(n, tc.note)
				}
				assert.True(t, found, "notes %q want %q", m.Notes, tc.note)
			}
		})
	}
	// core_quirks bits are added after the override and cannot be cleared.
	toshiba := apst.Identity{VendorID: 0x1179, Model: "THNSF5256GPUK TOSHIBA", PCI: apst.PCIID{Vendor: 0x1179, Device: 0x0115},
		Override: "1179:0115:^no_apst", Release: apst.Release{Major: 7, Minor: 1}, DMI: anyMachine}
	m := apst.LookupQuirks(toshiba)
	assert.True(t, m.Overridden)
	assert.Equal(t, apst.QuirkNoAPST, m.APST())
}

func TestParseQuirkOverrides(t *testing.T) {
	ovs, err := apst.ParseQuirkOverrides(" 8086:F1A5:^no_deepest_ps,BOGUS_NID-0x126f:2262:NVME_QUIRK_NO_APST\n")
	require.NoError(t, err)
	require.Len(t, ovs, 2)
	assert.Equal(t, apst.QuirkOverride{ID: apst.PCIID{Vendor: 0x8086, Device: 0xf1a5}, Set: apst.Quirks(1 << 18), Clear: apst.QuirkNoDeepestPS}, ovs[0])
	assert.Equal(t, "8086:f1a5:^no_deepest_ps,bogus_nid", ovs[0].String())
	assert.Equal(t, apst.QuirkOverride{ID: apst.PCIID{Vendor: 0x126f, Device: 0x2262}, Set: apst.QuirkNoAPST}, ovs[1])
	for _, empty := range []string{"", "  \n", "(null)"} {
		ovs, err := apst.ParseQuirkOverrides(empty)
		require.NoError(t, err)
		assert.Empty(t, ovs)
	}
	for _, bad := range []string{"8086:f1a5", "8086:f1a5:", "8086:f1a5:nope", "xyz:f1a5:no_apst", "18086:f1a5:no_apst",
		"8086:f1a5:no_apst-", "8086:f1a5:no_apst:x", "8086:f1a5:^", "8086:f1a5:none", ":f1a5:no_apst"} {
		_, err := apst.ParseQuirkOverrides(bad)
		require.ErrorIs(t, err, apst.ErrInvalidConfig, bad)
		assert.Contains(t, err.Error(), "apst: ")
	}
}

func TestParseQuirksFile(t *testing.T) {
	q, unknown := apst.ParseQuirksFile("no_deepest_ps\nmedium_prio_sq\ndisable_write_zeroes\nno_temp_thresh_change\nfuture_quirk\n")
	assert.Equal(t, apst.QuirkNoDeepestPS|apst.Quirks(1<<7|1<<9|1<<14), q)
	assert.Equal(t, []string{"future_quirk"}, unknown)
	q, unknown = apst.ParseQuirksFile("")
	assert.Zero(t, q)
	assert.Empty(t, unknown)
	q, unknown = apst.ParseQuirksFile("0x10\n")
	assert.Zero(t, q, "a mask is not a quirk name")
	assert.Equal(t, []string{"0x10"}, unknown)
}

func TestQuirksText(t *testing.T) {
	q, err := apst.ParseQuirks("no-apst,no_deepest_ps")
	require.NoError(t, err)
	assert.Equal(t, apst.QuirkNoAPST|apst.QuirkNoDeepestPS, q)
	assert.Equal(t, "no-apst,no-deepest-ps", q.String())
	q, err = apst.ParseQuirks("none")
	require.NoError(t, err)
	assert.Equal(t, apst.Quirks(0), q)
	assert.Equal(t, "none", q.String())
	_, err = apst.ParseQuirks("no-apst,bogus")
	require.ErrorIs(t, err, apst.ErrInvalidConfig)
	assert.Contains(t, err.Error(), `"bogus"`)
	all := apst.Quirks(1<<32 - 1)
	assert.Contains(t, all.String(), "dmapool-align-512,admin-page-align,0xff000000")
	q23, err := apst.ParseQuirks("NVME_QUIRK_ADMIN_PAGE_ALIGN")
	require.NoError(t, err)
	assert.Equal(t, apst.Quirks(1<<23), q23, "bit 23 is ADMIN_PAGE_ALIGN (v7.3-rc1, 6.18.52)")
	for _, q := range []apst.Quirks{0, apst.QuirkNoAPST, all, 1 << 31, apst.Quirks(1<<18 | 1<<5)} {
		b, err := q.MarshalText()
		require.NoError(t, err)
		var back apst.Quirks
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, q, back, string(b))
	}
}

func TestPCIIDText(t *testing.T) {
	var id apst.PCIID
	require.NoError(t, id.UnmarshalText([]byte("8086:F1A5")))
	assert.Equal(t, apst.PCIID{Vendor: 0x8086, Device: 0xf1a5}, id)
	b, err := id.MarshalText()
	require.NoError(t, err)
	assert.Equal(t, "8086:f1a5", string(b))
	for _, bad := range []string{"", "8086", "8086:", "xyz:1234", "18086:1234", "8086-f1a5"} {
		err := id.UnmarshalText([]byte(bad))
		require.ErrorIs(t, err, apst.ErrInvalidConfig, bad)
		assert.Equal(t, apst.PCIID{Vendor: 0x8086, Device: 0xf1a5}, id, "unchanged on error")
	}
}

// Model and firmware match as the kernel's string_matches(): a prefix of
// the raw field, the rest spaces.
func TestDriveQuirksRawFields(t *testing.T) {
	c := powerstate.Controller{VendorID: 0x1179, Model: "THNSF5256GPUK TOSHIBA"}
	m := apst.DriveQuirks(&c, apst.Release{})
	assert.Equal(t, apst.QuirkNoAPST, m.APST())
	assert.Contains(t, m.Notes[len(m.Notes)-1], "model matched as the trimmed string padded with spaces")
	copy(c.ModelField[:], "THNSF5256GPUK TOSHIBA") // NUL-padded
	m = apst.DriveQuirks(&c, apst.Release{})
	assert.Zero(t, m.APST(), "a NUL-padded model does not match")
	for i := len("THNSF5256GPUK TOSHIBA"); i < len(c.ModelField); i++ {
		c.ModelField[i] = ' '
	}
	m = apst.DriveQuirks(&c, apst.Release{})
	assert.Equal(t, apst.QuirkNoAPST, m.APST())
	for _, n := range m.Notes {
		assert.NotContains(t, n, "padded with spaces")
	}
	liteon := powerstate.Controller{VendorID: 0x14a4}
	copy(liteon.FirmwareField[:], "22301111")
	assert.Equal(t, apst.Quirks(1<<10), apst.DriveQuirks(&liteon, apst.Release{}).Quirks)
}

// DriveQuirks is called for every drive of a survey: its allocations (the
// sources and notes it reports) stay few.
func TestDriveQuirksAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation allocates")
	}
	r := apst.Release{Major: 7, Minor: 1}
	plain := powerstate.Controller{VendorID: 0x144d, Model: "Samsung SSD 990 PRO 4TB", PCIDeviceID: 0xa80c}
	copy(plain.ModelField[:], "Samsung SSD 990 PRO 4TB                 ")
	assert.Zero(t, apst.DriveQuirks(&plain, r).Quirks)
	allocs := testing.AllocsPerRun(100, func() { _ = apst.DriveQuirks(&plain, r) })
	assert.LessOrEqual(t, allocs, 2.0, "a drive no entry concerns: the DMI note only")
	toshiba := powerstate.Controller{VendorID: 0x1179, Model: "THNSF5256GPUK TOSHIBA", PCIDeviceID: 0x0115}
	assert.Equal(t, apst.QuirkNoAPST, apst.DriveQuirks(&toshiba, r).APST())
	allocs = testing.AllocsPerRun(100, func() { _ = apst.DriveQuirks(&toshiba, r) })
	assert.LessOrEqual(t, allocs, 12.0, "a match: its source and the notes")
}

// TestDriveQuirksPCIVendorDiffers: the kernel matches its PCI ID table on
// config space's vendor, which on the HP EX920 (VID 1dee) is Silicon
// Motion's 126f; Build and DriveQuirks agree and say the two differ.
func TestDriveQuirksPCIVendorDiffers(t *testing.T) {
	c := powerstate.Controller{VendorID: 0x1dee, Model: "HP SSD EX920 1TB", NPSS: 4, APSTA: 1,
		PCIVendorID: 0x126f, PCIDeviceID: 0x2262}
	c.PowerStates[4] = powerstate.Descriptor{NonOperational: true, ExitLatency: 10000}
	m := apst.DriveQuirks(&c, apst.Release{Major: 6, Minor: 9})
	require.Equal(t, apst.QuirkNoDeepestPS, m.APST())
	require.Contains(t, strings.Join(m.Notes, "\n"), "the PCI vendor 0x126f differs from the Identify VID 0x1dee")
	p := apst.DefaultParams(apst.Current)
	p.Release = apst.Release{Major: 6, Minor: 9}
	plan, err := apst.Build(&c, p)
	require.NoError(t, err)
	require.Equal(t, apst.PCIID{Vendor: 0x126f, Device: 0x2262}, plan.Quirks.PCI)
	require.Equal(t, -1, plan.MaxPS)
	require.Equal(t, m.Notes, plan.Quirks.Notes(c.Model))
}
