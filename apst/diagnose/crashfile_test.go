package diagnose

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCrashFile reads the source file a kernel-bug line names, in the
// forms lib/bug.c and kernel/panic.c print (lines from posted zc-06, zc-08
// and the 6.19 banner), and nothing from a line that names none.
func TestCrashFile(t *testing.T) {
	tests := []struct{ text, file string }{
		{"kernel BUG at drivers/xen/events/events_base.c:427!", "drivers/xen/events/events_base.c:427"},
		{"WARNING: CPU: 26 PID: 658 at kernel/irq/chip.c:210 irq_startup+0x1c0/0x1e0", "kernel/irq/chip.c:210"},
		{"WARNING: drivers/nvme/host/pci.c:1234 at nvme_setup_prps, CPU#3: kworker/3:1/99", "drivers/nvme/host/pci.c:1234"}, // the form of 28ea295f941e
		// A tree's absolute path (posted zh-09, linuxppc-dev), and trees
		// kept under directories named like the tree's own.
		{"WARNING: CPU: 242 PID: 1219 at /home/srikar/work/linux.git/arch/powerpc/kernel/iommu.c:227 iommu_range_alloc+0x3d4/0x450", "arch/powerpc/kernel/iommu.c:227"},
		{"kernel BUG at /build/kernel/drivers/nvme/host/pci.c:1234!", "drivers/nvme/host/pci.c:1234"},
		{"WARNING: CPU: 1 PID: 2 at /build/kernel/kernel/irq/chip.c:210 irq_startup+0x1c0/0x1e0", "kernel/irq/chip.c:210"},
		{"WARNING: CPU: 1 PID: 2 at /src/drivers/net/ethernet/intel/e1000e/netdev.c:1234 e1000_x+0x1/0x2", "drivers/net/ethernet/intel/e1000e/netdev.c:1234"},
		{"kernel BUG at /var/lib/build/linux/drivers/nvme/host/pci.c:1234!", "drivers/nvme/host/pci.c:1234"},
		{"kernel BUG at /var/lib/build/linux/lib/list_debug.c:59!", "lib/list_debug.c:59"},
		{"WARNING: possible circular locking dependency detected", ""},
		{"BUG: kernel NULL pointer dereference, address: 0000000000000008", ""},
		{"kernel BUG at", ""},
		{"WARNING: CPU: 1 PID: 2 at", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.file, crashFile(tt.text), tt.text)
	}
}
