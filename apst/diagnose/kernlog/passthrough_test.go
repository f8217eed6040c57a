package kernlog_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// A function the host hands to a virtual machine or a user-space driver
// shows itself by its driver's lines, failures or not: Xen's pciback
// seizing it (xen-devel,
// CAKhsbWb4FyqWBraid=99mfr=_wbXQHfKq6jBszN9-WmV_OiBYw@mail.gmail.com) and
// vfio-pci hiding a capability of it (SPDK's CI, posted c-37). The first
// line of each function is kept; a port's or the drive's own lines are
// not passthrough.
func TestPassthrough(t *testing.T) {
	l, err := kernlog.ReadString("Jul  2 00:36:54 gaia kernel: [    1.648270] pciback 0000:05:00.0: xen_pciback: seizing device\n"+
		"Jul  2 00:36:54 gaia kernel: [    1.770466] pciback 0000:05:00.0: xen_pciback: device is not found/assigned\n"+
		"[ 1730.748844] vfio-pci 0000:65:00.0: vfio_ecap_init: hiding ecap 0x19@0x2a0\n"+
		"[ 1730.800000] pcieport 0000:64:00.0: AER: enabled with IRQ 150\n"+
		"[ 1730.900000] nvme 0000:66:00.0: enabling device (0000 -> 0002)\n", kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Passthrough, 2, "%+v", l.Passthrough)
	p := l.Passthrough["0000:05:00.0"]
	assert.Equal(t, "pciback", p.Driver)
	assert.Equal(t, 1, p.Line)
	assert.Equal(t, "vfio-pci", l.Passthrough["0000:65:00.0"].Driver)
	assert.Equal(t, 3, l.Passthrough["0000:65:00.0"].Line)
}
