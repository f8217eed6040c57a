package describe

import (
	"testing"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDescribe(t *testing.T) {
	c, err := powerstate.DecodeIdentify(testfixture.ReadFile(t, testfixture.Samsung990EVOPlus))
	require.NoError(t, err)
	assert.Equal(t, "Samsung SSD 990 EVO Plus 1TB (firmware 2B2QKXG7, VID 144d), NPSS 4, APSTA 0x1, from binary", Controller(&c))
	p := apst.DefaultParams(apst.Current)
	p.Bound = 25000
	plan, err := apst.Build(&c, p)
	require.NoError(t, err)
	assert.Equal(t, "kernel current (tolerance), bound 25000us, primary 100ms/15000us, secondary 2000ms/100000us, quirks none", Params(&p, true))
	assert.Equal(t, "kernel current (tolerance), primary 100ms/15000us, secondary 2000ms/100000us, quirks none", Params(&p, false))
	assert.Equal(t, "APST enabled: deepest state ps3, max round-trip latency 6200us", Outcome(&plan))
	assert.Equal(t, "ps0-2 ->ps3@100ms", Table(&plan.Table, c.StateCount()))
	assert.Equal(t, "-", Table(&apst.Table{}, 5))

	c.Model, c.Firmware = "evil\x1b[2J", ""
	c.Missing |= powerstate.FieldAPSTA | powerstate.FieldVendorID
	assert.Equal(t, `evil\x1b[2J (firmware unknown, VID unknown), NPSS 4, APSTA unknown, from binary`, Controller(&c))
	p.Bound = 0
	plan, err = apst.Build(&c, p)
	require.NoError(t, err)
	assert.Equal(t, "APST disabled (APSTE=0, zero table): the bound is 0", Outcome(&plan))
}

// The lines of what was assumed: each part in its words, the caller's name
// for the PCI ID, the prefix after the kind, untrusted text escaped.
func TestAssumptions(t *testing.T) {
	assert.Nil(t, Assumptions(&apst.Assumptions{}, "", "--pci-id"), "nothing assumed, nothing said")
	a := apst.Assumptions{
		APSTAUnknown:    true,
		PCIInferred:     apst.PCIID{Vendor: 0x8086, Device: 0xf1a5},
		PCIInferredFrom: "model \"evil\x1b[2J\"",
		PCIUnchecked:    []apst.PCIID{{Vendor: 0x144d, Device: 0xa802}, {Vendor: 0x144d, Device: 0xa804}},
		Other:           []string{"one more\x07"},
	}
	assert.Equal(t, []string{
		"note: [2] " + apst.NoteAPSTAUnknown,
		`warning: [2] the capture carries no PCI ID; 8086:f1a5 was inferred from model "evil\x1b[2J" (give a PCI ID to override)`,
		"warning: [2] the capture carries no PCI ID, and this vendor has quirked PCI IDs (144d:a802, 144d:a804): PCI quirks unchecked; give a PCI ID VVVV:DDDD to settle it",
		`note: [2] one more\x07`,
	}, Assumptions(&a, "[2] ", "a PCI ID"))
	assert.Contains(t, Assumptions(&a, "", "--pci-id")[1], "(give --pci-id to override)")
}

// The fabrics sentence: by IOCCSZ, by CNTRLTYPE 2, and none for a PCIe
// controller or a capture that does not say.
func TestFabrics(t *testing.T) {
	c := powerstate.Controller{ControllerType: 1, IOCCSZ: 4}
	assert.Equal(t, "the controller is an NVMe over Fabrics controller (IOCCSZ 4): its power states are the target's, "+
		"and the table is what the host kernel programs from them (targets usually report APSTA 0: no APST)", Fabrics(&c))
	c = powerstate.Controller{ControllerType: 2}
	assert.Contains(t, Fabrics(&c), "(a discovery controller, CNTRLTYPE 2)")
	c = powerstate.Controller{ControllerType: 1}
	assert.Empty(t, Fabrics(&c), "PCIe")
	c = powerstate.Controller{Missing: powerstate.FieldControllerType | powerstate.FieldIOCCSZ}
	assert.Empty(t, Fabrics(&c), "unknown")
}
