package kernlog_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// The firmware's _OSC that failed is Log.OSC, in both of
// drivers/acpi/pci_root.c's wordings (the older one as a Razer Blade's
// log gives it after a patched SSDT, posted zn-04); a host bridge without
// the method (AE_NOT_FOUND, as a virtual machine's) or a firmware that
// declines the features asked for (AE_SUPPORT) is none.
func TestOSC(t *testing.T) {
	const probe = "[    2.715192] nvme nvme0: Removing after probe failure status: -19\n"
	for _, tt := range []struct {
		line string
		want bool
	}{
		{"[    0.235414] acpi PNP0A08:00: _OSC failed (AE_ERROR); disabling ASPM", true},
		{"[    0.412001] acpi PNP0A08:00: _OSC: platform retains control of PCIe features (AE_ERROR)", true},
		{"[    0.301122] acpi PNP0A03:00: _OSC failed (AE_NOT_FOUND); disabling ASPM", false},
		{"[    0.301122] acpi PNP0A08:00: _OSC failed (AE_SUPPORT); disabling ASPM", false},
		{"[    0.412001] acpi PNP0A08:00: _OSC: platform retains control of PCIe features (AE_NOT_FOUND)", false},
		{"[    0.412001] acpi PNP0A08:00: _OSC: OS now controls [PCIeHotplug SHPCHotplug PME AER PCIeCapability LTR DPC]", false},
	} {
		l, err := kernlog.ReadString(tt.line+"\n"+probe, kernlog.Options{})
		require.NoError(t, err)
		if !tt.want {
			assert.Nil(t, l.OSC, tt.line)
			continue
		}
		require.NotNil(t, l.OSC, tt.line)
		assert.Equal(t, 1, l.OSC.Line)
		assert.Equal(t, tt.line[len("[    0.235414] "):], l.OSC.Text)
		assert.Zero(t, l.UnreadLines)
	}
}
