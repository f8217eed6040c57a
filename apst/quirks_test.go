package apst_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

func TestLookupQuirks(t *testing.T) {
	for _, tc := range []struct {
		name   string
		id     apst.Identity
		apstQ  apst.Quirks
		tables []string
	}{
		{"toshiba core entry", apst.Identity{VendorID: 0x1179, Model: "THNSF5256GPUK TOSHIBA"}, apst.QuirkNoAPST, []string{"core_quirks"}},
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
		})
	}
}

func TestQuirkTablesComplete(t *testing.T) {
	assert.Len(t, apst.CoreQuirks(), 4, "kernel-apst.md §7.1 lists 4 core entries")
	assert.Len(t, apst.PCIQuirks(), 10, "§7.2 lists 10 NO_DEEPEST_PS PCI entries")
	assert.Len(t, apst.DMIRules(), 3, "§7.3 lists 3 DMI rules")
	for _, p := range apst.PCIQuirks() {
		assert.Equal(t, apst.QuirkNoDeepestPS, p.Quirks.APST(), p.ID.String())
	}
	// The tables are fresh copies: changing one does not change the next.
	apst.CoreQuirks()[0].Quirks = 0
	assert.Equal(t, apst.QuirkNoAPST, apst.CoreQuirks()[0].Quirks)
}

func TestParseQuirks(t *testing.T) {
	q, err := apst.ParseQuirks("no-apst,no_deepest_ps")
	require.NoError(t, err)
	assert.Equal(t, apst.QuirkNoAPST|apst.QuirkNoDeepestPS, q)
	assert.Equal(t, "no-apst,no-deepest-ps", q.String())
	q, err = apst.ParseQuirks("none")
	require.NoError(t, err)
	assert.Equal(t, apst.Quirks(0), q)
	assert.Equal(t, "none", q.String())
	_, err = apst.ParseQuirks("no-apst,bogus")
	require.ErrorIs(t, err, apst.ErrUnknownQuirk)
	assert.Contains(t, err.Error(), `"bogus"`)
}

func TestParsePCIID(t *testing.T) {
	id, err := apst.ParsePCIID("8086:F1A5")
	require.NoError(t, err)
	assert.Equal(t, apst.PCIID{Vendor: 0x8086, Device: 0xf1a5}, id)
	assert.Equal(t, "8086:f1a5", id.String())
	for _, bad := range []string{"", "8086", "8086:", "xyz:1234", "18086:1234", "8086-f1a5"} {
		_, err := apst.ParsePCIID(bad)
		require.Error(t, err, bad)
	}
}

// DriveQuirks is LookupQuirks(...).APST() without allocating, so that a
// survey can call it for every drive.
func TestDriveQuirksDoesNotAllocate(t *testing.T) {
	c := powerstate.Controller{VendorID: 0x1179, Model: "THNSF5256GPUK TOSHIBA", PCIDeviceID: 0xf1a5,
		Known: powerstate.FieldsIdentify | powerstate.FieldPCIDeviceID}
	assert.Equal(t, apst.QuirkNoAPST, apst.DriveQuirks(&c))
	allocs := testing.AllocsPerRun(100, func() { _ = apst.DriveQuirks(&c) })
	assert.Zero(t, allocs)
}
