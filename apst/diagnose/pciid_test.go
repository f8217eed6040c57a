package diagnose_test

import (
	"strings"
	"testing"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ex920 is the HP EX920's Identify data (VID 1dee), made from a real
// smartctl report (linuxhw/SMART, NVMe/HP/SSD EX920/SSD EX920 1TB): a
// Silicon Motion 126f:2262 function, which the kernel's PCI ID table
// gives NO_DEEPEST_PS, though no capture carries the PCI ID.
func ex920(t *testing.T) *powerstate.Controller {
	return identifyImage(t, "HP_SSD_EX920_1TB_SVN163.id-ctrl.bin")
}

// TestLogPCIIDJoinsTheCapture holds that a capture given beside a log is
// planned with the PCI ID the log's enumeration line gives its controller,
// as the kernel's PCI quirk table matches it, and that what the log and
// the capture disagree on is said.
func TestLogPCIIDJoinsTheCapture(t *testing.T) {
	const (
		boot = "[    0.000000] Linux version 6.8.0-40-generic\n"
		fn   = "[    1.000000] nvme nvme0: pci function 0000:01:00.0\n"
		down = "[  100.000000] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff\n"
	)
	enum := func(id string) string {
		return "[    0.412500] pci 0000:01:00.0: [" + id + "] type 00 class 0x010802 PCIe Endpoint\n"
	}
	for _, tc := range []struct {
		name, log string
		pci       uint16 // the PCI device ID given with the capture
		deepest   string // the APST plan's deepest state, as the evidence says it
		note      string // a note that must be given
		noNote    string // and one that must not
	}{
		{name: "the log's PCI ID applies the PCI quirk", log: boot + enum("126f:2262") + fn + down,
			deepest: "to ps3 ", note: "its PCI ID 126f:2262 from the log's enumeration line of 0000:01:00.0",
			noNote: "the capture may be of another controller; the PCI quirk table was not matched"},
		{name: "without the enumeration line the quirk is unknown", log: boot + fn + down,
			deepest: "to ps4 ", noNote: "its PCI ID"},
		{name: "the only NVMe function is the controller's", log: boot + enum("126f:2262") + down,
			deepest: "to ps3 ", note: "its PCI ID 126f:2262 from the log's enumeration line of 0000:01:00.0"},
		{name: "a tied function of another vendor is taken and said", log: boot + enum("144d:a80c") + fn + down,
			deepest: "to ps4 ", note: "(VID 1dee) is not the PCI vendor of the log's enumeration line of 0000:01:00.0 (144d:a80c): the log's ID was used"},
		{name: "a given PCI ID stands", log: boot + enum("144d:a80c") + fn + down, pci: 0x2262,
			deepest: "to ps3 ", note: "the PCI ID given with the Identify data (126f:2262) is not the one the log's enumeration line of 0000:01:00.0 names (144d:a80c)", noNote: "its PCI ID"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ex920(t)
			c.PCIDeviceID = tc.pci
			if tc.pci != 0 {
				c.PCIVendorID = 0x126f
			}
			before := *c
			l, err := kernlog.ReadString(tc.log, kernlog.Options{})
			require.NoError(t, err)
			d := diagnose.Diagnose(diagnose.Input{Log: l, Identify: c})
			require.True(t, d.Failure, d.Summary)
			assert.Equal(t, before, *c, "the caller's Identify data is not changed")
			notes := strings.Join(d.Notes, "\n")
			if tc.note != "" {
				assert.Contains(t, notes, tc.note)
			}
			if tc.noNote != "" {
				assert.NotContains(t, notes, tc.noNote)
			}
			var plan []string
			for _, e := range d.Cause(diagnose.LayerAPST).Evidence {
				if e.Source == "APST plan" {
					plan = append(plan, e.Text)
				}
			}
			require.NotEmpty(t, plan, d.Summary)
			assert.Contains(t, plan[0], "takes an idle drive "+tc.deepest)
		})
	}
}
