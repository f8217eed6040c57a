package capture_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// TestFabricsCaptures reads CNTRLTYPE and IOCCSZ from every format that
// carries them, and leaves them unknown in smartctl's, which does not.
func TestFabricsCaptures(t *testing.T) {
	const both = powerstate.FieldControllerType | powerstate.FieldIOCCSZ
	nvmet := testfixture.ReadFile(t, "fabrics/nvmet-loop.nvme-cli.txt")
	for _, tc := range []struct {
		name           string
		path           string // a fixture, or
		text           string // the capture itself
		format         powerstate.Format
		cntrltype      uint8
		ioccsz         uint32
		missing        powerstate.Fields // of CNTRLTYPE and IOCCSZ
		fabrics, known bool
		note           string // a note the reader leaves, if any
	}{
		{name: "nvmet text", path: "fabrics/nvmet-loop.nvme-cli.txt", format: powerstate.FormatNVMeCLIText,
			cntrltype: 1, ioccsz: 4, fabrics: true, known: true},
		{name: "nvmet json", path: "fabrics/nvmet-loop.nvme-cli.json", format: powerstate.FormatNVMeCLIJSON,
			cntrltype: 1, ioccsz: 4, fabrics: true, known: true},
		{name: "nvmet image", path: "fabrics/nvmet-loop.bin", format: powerstate.FormatBinary,
			cntrltype: 1, ioccsz: 4, fabrics: true, known: true},
		{name: "PCIe text", path: "fabrics/pcie-990-evo-plus.nvme-cli.txt", format: powerstate.FormatNVMeCLIText,
			cntrltype: 1, known: true},
		{name: "PCIe json", path: "fabrics/pcie-990-evo-plus.nvme-cli.json", format: powerstate.FormatNVMeCLIJSON,
			cntrltype: 1, known: true},
		{name: "PCIe image, CNTRLTYPE not reported", path: testfixture.Samsung990EVOPlus, format: powerstate.FormatBinary,
			known: true},
		{name: "smartctl", path: "corpus/smartctl/Samsung_SSD_990_EVO_Plus_1TB_2B2QKXG7.txt", format: powerstate.FormatSmartctlText,
			missing: both},
		{name: "nvmet text -H", format: powerstate.FormatNVMeCLIText, cntrltype: 1, ioccsz: 4, fabrics: true, known: true,
			text: strings.Replace(string(nvmet), "cntrltype : 1\n", "cntrltype : 1\n  [7:2] : 0\tReserved\n  [1:0] : 0x1\tI/O Controller\n", 1)},
		{name: "older nvme-cli: no cntrltype line", format: powerstate.FormatNVMeCLIText, ioccsz: 4, fabrics: true, known: true,
			missing: powerstate.FieldControllerType,
			text:    strings.Replace(string(nvmet), "cntrltype : 1\n", "", 1)},
		{name: "excerpt without ioccsz", format: powerstate.FormatNVMeCLIText, cntrltype: 1,
			missing: powerstate.FieldIOCCSZ,
			text:    strings.Replace(string(nvmet), "ioccsz    : 4\n", "", 1)},
		{name: "ioccsz in hex", format: powerstate.FormatNVMeCLIText, cntrltype: 1, ioccsz: 0x104, fabrics: true, known: true,
			text: strings.Replace(string(nvmet), "ioccsz    : 4\n", "ioccsz    : 0x104\n", 1)},
		{name: "discovery controller", format: powerstate.FormatNVMeCLIText, cntrltype: 2, fabrics: true, known: true,
			text: strings.NewReplacer("cntrltype : 1\n", "cntrltype : 2\n", "ioccsz    : 4\n", "ioccsz    : 0\n").Replace(string(nvmet))},
		{name: "ioccsz not a number", format: powerstate.FormatNVMeCLIText, cntrltype: 1,
			missing: powerstate.FieldIOCCSZ, note: "ioccsz",
			text: strings.Replace(string(nvmet), "ioccsz    : 4\n", "ioccsz    : four\n", 1)},
		{name: "cntrltype too wide", format: powerstate.FormatNVMeCLIText, ioccsz: 4, fabrics: true, known: true,
			missing: powerstate.FieldControllerType, note: "cntrltype",
			text: strings.Replace(string(nvmet), "cntrltype : 1\n", "cntrltype : 256\n", 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte(tc.text)
			if tc.path != "" {
				in = testfixture.ReadFile(t, tc.path)
			}
			c, err := capture.ParseBytes(in)
			require.NoError(t, err)
			assert.Equal(t, tc.format, c.Format)
			assert.Equal(t, tc.cntrltype, c.ControllerType, "CNTRLTYPE")
			assert.Equal(t, tc.ioccsz, c.IOCCSZ, "IOCCSZ")
			assert.Equal(t, tc.missing, c.Missing&both, "missing")
			fabrics, known := c.Fabrics()
			assert.Equal(t, tc.fabrics, fabrics, "fabrics")
			assert.Equal(t, tc.known, known, "known")
			if tc.note != "" {
				require.Len(t, c.Notes, 1)
				assert.Contains(t, c.Notes[0], tc.note)
			} else {
				assert.Empty(t, c.Notes)
			}
			// The plan's inputs do not depend on the fields: APSTA 0 from
			// every nvmet capture.
			if tc.fabrics && tc.format != powerstate.FormatSmartctlText {
				assert.Equal(t, uint8(0), c.APSTA)
			}
		})
	}
}

// TestFabricsWritten: the nvme-cli writers print cntrltype and ioccsz where
// nvme-cli does, and each format reads them back.
func TestFabricsWritten(t *testing.T) {
	c, err := capture.ParseBytes(testfixture.ReadFile(t, "fabrics/nvmet-loop.bin"))
	require.NoError(t, err)
	var text, js bytes.Buffer
	require.NoError(t, capture.WriteNVMeCLIText(&text, &c))
	require.NoError(t, capture.WriteNVMeCLIJSON(&js, &c))
	assert.Contains(t, text.String(), "rtd3e     : 0\ncntrltype : 1\noacs      : 0\n")
	assert.Contains(t, text.String(), "cctemp    : 0\nioccsz    : 4\nps ")
	assert.Contains(t, js.String(), "  \"cntrltype\": 1,\n")
	assert.Contains(t, js.String(), "  \"ioccsz\": 4,\n")
	for _, b := range [][]byte{text.Bytes(), js.Bytes()} {
		got, err := capture.ParseBytes(b)
		require.NoError(t, err)
		assert.Equal(t, uint8(1), got.ControllerType)
		assert.Equal(t, uint32(4), got.IOCCSZ)
		assert.True(t, got.Knows(powerstate.FieldControllerType|powerstate.FieldIOCCSZ))
	}
	assert.Empty(t, roundTrip(&c))

	// A capture that lacked them writes neither line.
	c.Missing |= powerstate.FieldControllerType | powerstate.FieldIOCCSZ
	text.Reset()
	require.NoError(t, capture.WriteNVMeCLIText(&text, &c))
	assert.NotContains(t, text.String(), "cntrltype")
	assert.NotContains(t, text.String(), "ioccsz")
}
