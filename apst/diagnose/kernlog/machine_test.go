package kernlog_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// TestMachineAndHypervisor reads the lines that name the machine and the
// hypervisor (real lines: a KVM guest's boot, an EC2 Xen domU's crash
// dump header, an s390 KVM guest's), the last boot's, outside incidents.
func TestMachineAndHypervisor(t *testing.T) {
	tests := []struct {
		name, log           string
		machine, hyper      string
		machineLine, hyper1 int
	}{
		{"kvm guest boot",
			"[    0.000000] Linux version 6.8.0-45-generic (buildd@lcy02-amd64-075) #45-Ubuntu SMP\n" +
				"[    0.000000] DMI: QEMU Standard PC (Q35 + ICH9, 2009), BIOS 1.16.3-debian-1.16.3-2 04/01/2014\n" +
				"[    0.000000] DMI: Memory slots populated: 1/1\n" +
				"[    0.000000] Hypervisor detected: KVM\n" +
				"[    0.012345] Booting paravirtualized kernel on KVM\n",
			"QEMU Standard PC (Q35 + ICH9, 2009), BIOS 1.16.3-debian-1.16.3-2 04/01/2014", "KVM", 2, 5},
		{"crash dump header",
			"[ 1234.567890] Hardware name: Xen HVM domU, BIOS 4.11.amazon 08/24/2006\n",
			"Xen HVM domU, BIOS 4.11.amazon 08/24/2006", "", 1, 0},
		{"bare hardware is no hypervisor",
			"[    0.000000] DMI: LENOVO 21CBCTO1WW/21CBCTO1WW, BIOS N3AET75W (1.40 ) 03/02/2023\n" +
				"[    0.020000] Booting paravirtualized kernel on bare hardware\n",
			"LENOVO 21CBCTO1WW/21CBCTO1WW, BIOS N3AET75W (1.40 ) 03/02/2023", "", 1, 0},
		{"journal",
			"Dec 01 10:00:00 vm kernel: Hypervisor detected: Microsoft Hyper-V\n",
			"", "Microsoft Hyper-V", 0, 1},
		// A device tree's model (drivers/of/fdt.c), as a Raspberry Pi 5's
		// dmesg posted with its boot shows it.
		{"device tree model",
			"[    0.000000] random: crng init done\n" +
				"[    0.000000] Machine model: Raspberry Pi 5 Model B Rev 1.0\n",
			"Raspberry Pi 5 Model B Rev 1.0", "", 2, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tt.log, kernlog.Options{})
			require.NoError(t, err)
			assert.Empty(t, l.Incidents)
			if tt.machine == "" {
				assert.Nil(t, l.Machine)
			} else if assert.NotNil(t, l.Machine) {
				assert.Equal(t, kernlog.Machine, l.Machine.Kind)
				assert.Equal(t, tt.machine, l.Machine.Text)
				assert.Equal(t, tt.machineLine, l.Machine.Line)
			}
			if tt.hyper == "" {
				assert.Nil(t, l.Hypervisor)
			} else if assert.NotNil(t, l.Hypervisor) {
				assert.Equal(t, kernlog.Hypervisor, l.Hypervisor.Kind)
				assert.Equal(t, tt.hyper, l.Hypervisor.Text)
				assert.Equal(t, tt.hyper1, l.Hypervisor.Line)
			}
		})
	}
	// A new boot forgets the last one's machine.
	l, err := kernlog.ReadString("[    0.000000] Hypervisor detected: KVM\n[    0.000000] Linux version 6.8.0 (x@y) #1 SMP\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Nil(t, l.Hypervisor)
}
