package diagnose_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// A swap of hardware already tried separates the drive from its slot: a
// drive that fails in another slot too, or whose slot works with another
// drive, is the drive; one that works elsewhere is not. The log is
// nvme-pci's controller-down of a drive gone from the bus, which alone
// leaves the layer open (drivers/nvme/host/pci.c's lines).
func TestSwapsTried(t *testing.T) {
	const log = "[ 5000.000000] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff\n" +
		"[ 5000.100000] nvme nvme0: Removing after probe failure status: -19\n"
	for _, tc := range []struct {
		tried string
		drive bool // the drive is the first cause
	}{
		{"other-slot:no", true},
		{"other-machine:no", true},
		{"other-drive:helped", true},
		{"replaced:helped", true},
		{"other-slot:helped", false},
		{"other-drive:no", false},
		{"", false},
	} {
		t.Run(tc.tried, func(t *testing.T) {
			l, err := kernlog.ReadString(log, kernlog.Options{})
			require.NoError(t, err)
			d := diagnose.Diagnose(diagnose.Input{Log: l, Tried: diagnose.ParseTried(tc.tried)})
			require.True(t, d.Failure)
			require.NotEmpty(t, d.Causes)
			first := d.Causes[0].Layer == diagnose.LayerDrive && len(d.Undecided) == 0
			assert.Equal(t, tc.drive, first, d.Summary)
			for _, c := range d.Causes {
				if c.Layer != diagnose.LayerDrive {
					continue
				}
				for _, x := range c.Tests {
					if tc.tried != "" {
						assert.NotContains(t, x.Action, "another drive into this slot", "a swap already tried is not asked for again")
					}
				}
			}
		})
	}
}
