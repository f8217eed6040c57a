package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// persist --check and --check-line refuse a kernel log (exit 2): the
// settings its lines name (nvme's advice after a controller-down) are not
// set. A "Kernel command line:" line alone is a command line, and is
// checked.
func TestPersistCheckRefusesAKernelLog(t *testing.T) {
	const advice = `[ 7336.014312] nvme nvme0: Try "nvme_core.default_ps_max_latency_us=0 pcie_aspm=off pcie_port_pm=off" and report a bug`
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"--check", "../../apst/diagnose/testdata/apst.log"},
			"apstctl persist: ../../apst/diagnose/testdata/apst.log: this looks like a kernel log (line 6 is a kernel event), not a setting: --check reads udev rules, a modprobe.d options line, a kernel command line"},
		{[]string{"--check-line", advice}, "apstctl persist: --check-line: this looks like a kernel log (line 1 is a kernel event), not a setting: --check-line reads udev rules"},
		{[]string{"--check-line", "[    0.000000] Linux version 6.12.48-1-lts (linux-lts@archlinux) #1 SMP\n[    0.000000] Command line: nvme_core.default_ps_max_latency_us=0"},
			`this looks like a kernel log (its "Linux version" line is a boot's), not a setting`},
	} {
		code, stdout, stderr := apstctl(t, nil, append([]string{"persist", "--root", "../../sysfs/testdata/laptop-tlp"}, tc.args...)...)
		assert.Equal(t, 2, code, stderr)
		assert.Empty(t, stdout)
		assert.Contains(t, stderr, tc.says)
		assert.Contains(t, stderr, "for a kernel log, apstctl diagnose --log FILE")
	}
	code, stdout, stderr := apstctl(t, nil, "persist", "--root", "../../sysfs/testdata/laptop-tlp", "--check-line", "[    0.041000] Kernel command line: BOOT_IMAGE=/vmlinuz root=UUID=5e1f nvme_core.default_ps_max_latency_us=0")
	assert.Equal(t, 1, code, stderr)
	assert.Contains(t, stdout, "mistake (global-zero), line 1: nvme_core.default_ps_max_latency_us=0")
}
