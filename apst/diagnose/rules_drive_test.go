package diagnose_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
)

// TestPS0AboveSlotPower: a drive whose PS0 maximum power (the 990 EVO
// Plus's 6.00 W) is above the slot power limit it captured, or its slot's
// when its own is unknown, is a sign for the drive layer quoting both
// values and the file; a limit at or above PS0's power, or unknown, is
// nothing.
func TestPS0AboveSlotPower(t *testing.T) {
	const devCfg, portCfg = "/sys/bus/pci/devices/0000:02:00.0/config", "/sys/bus/pci/devices/0000:00:01.2/config"
	needsRoot := diagnose.Fact{Source: devCfg, Status: diagnose.Unknown, Error: "needs root (an unprivileged read of config gives its first 64 bytes)"}
	portUnknown := diagnose.Fact{Source: portCfg, Status: diagnose.Unknown, Error: "slot power limit not set (0)"}
	const test = "move the drive to a slot that delivers PS0's power"
	for _, tc := range []struct {
		name       string
		dev, port  diagnose.Fact
		noIdentify bool
		want       string // "" for no sign; else the source quoted
	}{
		{"captured below PS0", fact(devCfg, "5 W"), fact(portCfg, "25 W"), false, devCfg},
		{"captured just below PS0", fact(devCfg, "5.999 W"), portUnknown, false, devCfg},
		{"captured equal to PS0", fact(devCfg, "6 W"), portUnknown, false, ""},
		{"captured above PS0", fact(devCfg, "25 W"), fact(portCfg, "5 W"), false, ""},
		{"captured unknown, slot below", needsRoot, fact(portCfg, "5 W"), false, portCfg},
		{"captured unknown, slot above", needsRoot, fact(portCfg, "75 W"), false, ""},
		{"both unknown", needsRoot, portUnknown, false, ""},
		{"not read at all", diagnose.Fact{}, diagnose.Fact{}, false, ""},
		{"a value not in watts", fact(devCfg, "5"), portUnknown, false, ""},
		{"no Identify", fact(devCfg, "5 W"), portUnknown, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fw := quietLaptop
			fw.dev, fw.port = "0000:02:00.0", "0000:00:01.2"
			facts := fw.facts("nvme0")
			facts.Path[0].SlotPower, facts.Path[1].SlotPower = tc.dev, tc.port
			in := diagnose.Input{Controller: "nvme0", Facts: facts, Log: readLog(t, "firmware.log", map[string]string{fw.dev: "nvme0", fw.port: "nvme0"})}
			if !tc.noIdentify {
				in.Identify = evo(t)
			}
			d := diagnose.Diagnose(in)
			require.True(t, d.Failure)
			c := d.Cause(diagnose.LayerDrive)
			require.NotNil(t, c)
			var sign *diagnose.Line
			for i, l := range c.Evidence {
				if strings.HasPrefix(l.Text, "PS0's maximum power") {
					sign = &c.Evidence[i]
				}
			}
			hasTest := strings.Contains(texts2(c.Tests), test)
			if tc.want == "" {
				assert.Nil(t, sign)
				assert.False(t, hasTest)
				return
			}
			require.NotNil(t, sign, texts(c.Evidence))
			assert.Equal(t, tc.want, sign.Source)
			assert.Contains(t, sign.Text, "6.00W (Identify Controller, power state 0)")
			lim := tc.dev
			if tc.want == portCfg {
				lim = tc.port
				assert.Contains(t, sign.Text, "of the drive's slot (root port 0000:00:01.2)")
			} else {
				assert.Contains(t, sign.Text, "the drive captured from its slot")
			}
			assert.Contains(t, sign.Text, "slot power limit "+lim.Value+" ")
			assert.Contains(t, sign.Text, tc.want)
			assert.True(t, hasTest, texts2(c.Tests))
		})
	}
}
