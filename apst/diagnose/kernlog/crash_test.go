package kernlog_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// Real crash dumps, cut to the lines that matter: arm64's oops in nvme's
// reset work on a Huawei D06 (linux-next), a powerpc soft lockup in
// nvme_probe (linuxppc-dev), x86 dumps from io_uring's polled completions
// (io-uring) and a warning in nvme_setup_discard (LKML).
const (
	arm64Oops = `[148.260973] nvme nvme0: pci function 0000:81:00.0
[148.322016] Internal error: Oops: 96000004 [#1] PREEMPT SMP
[148.327577] Modules linked in: nvme nvme_core
[148.331927] CPU: 56 PID: 256 Comm: kworker/u195:0 Not tainted 
5.8.0-next-20200812 #27
[148.348260] Workqueue: nvme-reset-wq nvme_reset_work [nvme]
[148.353822] pstate: 80c00009 (Nzcv daif +PAN +UAO BTYPE=--)
[148.472193]nvme_alloc_queue+0x114/0x160 [nvme]
`
	ppcLockup = `[   28.193633] watchdog: BUG: soft lockup - CPU#280 stuck for 26s! [kworker/280:0:1436]
[   28.193657] Modules linked in: nvme nvme_core nvme_keyring nvme_auth pseries_wdt
[   28.193677] Workqueue: events work_for_cpu_fn
[   28.193712] NIP [c0000000017d8a84] mtree_load+0x244/0x370
[   28.193721] Call Trace:
[   28.193767] [c000001c03b8bb70] [c000000000ec6948] pci_alloc_irq_vectors_affinity+0xf8/0x1d0
[   28.193769] [c000001c03b8bc00] [c0080000131641cc] nvme_setup_io_queues+0x2c4/0x570 [nvme]
[   28.193776] [c000001c03b8bd00] [c008000013167e98] nvme_probe+0x340/0x450 [nvme]
`
	x86GPF = `[   89.921145] general protection fault: 0000 [#1] SMP DEBUG_PAGEALLOC PTI
[   89.927152] CPU: 1 PID: 11648 Comm: fio Tainted: G W         
5.4.0-rc8-bij #239
[   89.927158] RIP: 0010:nvme_unmap_data+0x195/0x1e0 [nvme]
[   89.940628] Call Trace:
[   90.069935]  nvme_pci_complete_rq+0xa5/0xb0 [nvme]
`
	x86Warning = `> [19231.556665] ------------[ cut here ]------------
> [19231.556674] WARNING: CPU: 20 PID: 502 at drivers/nvme/host/core.c:850 
> nvme_setup_discard+0x188/0x1f0
> [19231.556784] Workqueue: kblockd blk_mq_run_work_fn
> [19231.556789] RIP: 0010:nvme_setup_discard+0x188/0x1f0
`
	x86WarningElsewhere = `[   89.919739] WARNING: CPU: 13 PID: 11642 at block/blk-mq.c:691 
blk_mq_start_request+0xa8/0x130
[   89.919756] RIP: 0010:blk_mq_start_request+0xa8/0x130
[   89.919774] Call Trace:
[   89.919780]  nvme_queue_rq+0x5c1/0x6f0 [nvme]
[   89.919785]  ? __lock_acquire.isra.24+0x526/0x6c0
`
)

func TestCrashStack(t *testing.T) {
	for _, tc := range []struct {
		name, log string
		stackLine int    // 0: the dump names no NVMe code
		stack     string // the line Stack quotes
	}{
		{"arm64 oops in the reset work", arm64Oops, 6, "[148.348260] Workqueue: nvme-reset-wq nvme_reset_work [nvme]"},
		{"powerpc lockup in the probe", ppcLockup, 7, "[   28.193769] [c000001c03b8bc00] [c0080000131641cc] nvme_setup_io_queues+0x2c4/0x570 [nvme]"},
		{"x86 general protection fault", x86GPF, 4, "[   89.927158] RIP: 0010:nvme_unmap_data+0x195/0x1e0 [nvme]"},
		{"a warning whose line names nvme's source", x86Warning, 2, "[19231.556674] WARNING: CPU: 20 PID: 502 at drivers/nvme/host/core.c:850 nvme_setup_discard+0x188/0x1f0"},
		{"a warning elsewhere called from nvme", x86WarningElsewhere, 5, "[   89.919780]  nvme_queue_rq+0x5c1/0x6f0 [nvme]"},
		// The same warning as 6.19 and later print its banner
		// (28ea295f941e), and wrapped by a mail client after its "at".
		{"a 6.19 warning whose line names nvme's source", "[19231.556674] WARNING: drivers/nvme/host/core.c:850 at nvme_setup_discard+0x188/0x1f0, CPU#20: kworker/20:1H/502\n" +
			"[19231.556784] Workqueue: kblockd blk_mq_run_work_fn\n", 1, "[19231.556674] WARNING: drivers/nvme/host/core.c:850 at nvme_setup_discard+0x188/0x1f0, CPU#20: kworker/20:1H/502"},
		// A real one, broken after "WARNING:" and after "at" by the mail
		// client (6.19-rc4, dri-devel, Satadru Pramanik,
		// CAFrh3J_OtTdve_ryOXZLfBV9sWDZ--HyTJZi9mSQ6gko98PJrA@mail.gmail.com).
		{"a 6.19 warning a mail client broke after WARNING:", "> [  200.760128] ------------[ cut here ]------------\n" +
			"> [  200.760132] i915 0000:00:02.0: [drm] PCH PWM1 enabled\n> [  200.760134] WARNING:\n" +
			"> drivers/gpu/drm/i915/display/intel_display_power.c:1234 at\n> hsw_enable_pc8+0x8a4/0xb10 [i915], CPU#0: kworker/u32:6/1378\n" +
			"> [  200.760470] Workqueue: pm pm_runtime_work\n> [  200.760480] RIP: 0010:hsw_enable_pc8+0x8aa/0xb10 [i915]\n" +
			"> [  200.760671] Call Trace:\n> [  200.760678]  intel_display_power_suspend+0x61/0x80 [i915]\n", 0, ""},
		{"a 6.19 warning wrapped after its at", "[   89.919739] WARNING: block/blk-mq.c:691 at\nblk_mq_start_request+0xa8/0x130, CPU#13: fio/11642\n" +
			"[   89.919774] Call Trace:\n[   89.919780]  nvme_queue_rq+0x5c1/0x6f0 [nvme]\n", 4, "[   89.919780]  nvme_queue_rq+0x5c1/0x6f0 [nvme]"},
		// dumpstack.c marks a frame it did not unwind to with "? ": an
		// address left on the stack, no caller.
		{"only an unreliable frame", "[   10.000000] BUG: kernel NULL pointer dereference, address: 0000000000000008\n" +
			"[   10.000100] RIP: 0010:blk_mq_end_request+0x10/0x120\n[   10.000200]  ? nvme_irq+0x10/0x20 [nvme]\n", 0, ""},
		{"names that only hold nvme_", "[   10.000000] BUG: kernel NULL pointer dereference, address: 0000000000000008\n" +
			"[   10.000100] RIP: 0010:xnvme_submit+0x10/0x120\n[   10.000200]  nvme_ (no frame)\n", 0, ""},
		{"a frame past the dump", "[   10.000000] BUG: kernel NULL pointer dereference, address: 0000000000000008\n" +
			strings.Repeat("[   10.000100] R13: 0000000000000000 R14: 0000000000000000\n", 600) +
			"[   10.000200]  nvme_queue_rq+0x5c1/0x6f0 [nvme]\n", 0, ""},
		{"a frame seconds later", "[   10.000000] BUG: kernel NULL pointer dereference, address: 0000000000000008\n" +
			"[   13.000000]  nvme_queue_rq+0x5c1/0x6f0 [nvme]\n", 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tc.log, kernlog.Options{})
			require.NoError(t, err)
			var crashes []kernlog.Event
			for _, in := range l.Incidents {
				for _, e := range in.Events {
					if e.Action == kernlog.ActionKernelBug {
						crashes = append(crashes, e)
					}
				}
			}
			require.Len(t, crashes, 1, "one crash, its dump no second event")
			assert.Equal(t, tc.stackLine, crashes[0].StackLine)
			assert.Equal(t, tc.stack, crashes[0].Stack)
		})
	}
}

// x86 prints the oops header after the line that says what went wrong:
// one crash, not two; a second crash later is another.
func TestOopsHeaderIsTheSameCrash(t *testing.T) {
	log := `[  300.464609] BUG: unable to handle kernel NULL pointer dereference at 0000000000000008
[  300.466342] #PF error: [normal kernel read fault]
[  300.467385] PGD 0 P4D 0
[  300.467987] Oops: 0000 [#1] SMP PTI
[  300.471532] Workqueue: nvme-wq nvme_scan_work [nvme_core]
[  400.000000] Oops: 0000 [#2] SMP PTI
`
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	var lines []int
	for _, in := range l.Incidents {
		for _, e := range in.Events {
			lines = append(lines, e.Line)
			if e.Line == 1 {
				assert.Equal(t, 5, e.StackLine)
			}
		}
	}
	assert.Equal(t, []int{1, 6}, lines)
}

// A crash in the driver's code names no controller: the log's only one is
// its; of two, neither.
func TestCrashOfTheOnlyController(t *testing.T) {
	l, err := kernlog.ReadString(arm64Oops, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	assert.Equal(t, "nvme0", l.Incidents[0].Controller)

	l, err = kernlog.ReadString("[148.260000] nvme nvme1: pci function 0000:82:00.0\n"+arm64Oops, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	assert.Empty(t, l.Incidents[0].Controller)

	// A crash elsewhere is no NVMe controller's.
	l, err = kernlog.ReadString("[1.0] nvme nvme0: pci function 0000:81:00.0\n[2.0] BUG: kernel NULL pointer dereference, address: 0000000000000008\n", kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	assert.Empty(t, l.Incidents[0].Controller)
}

// The crash Read holds while its dump goes by keeps its place: before the
// event after it, in the boot it happened in, and at the end of the log.
func TestHeldCrashKeepsItsPlace(t *testing.T) {
	log := `[  100.000000] BUG: kernel NULL pointer dereference, address: 0000000000000008
[  100.000100]  nvme_reset_work+0xb34/0x14b4 [nvme]
[  100.000200] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff
[  101.000000] BUG: kernel NULL pointer dereference, address: 0000000000000018
[    0.000000] Linux version 6.8.0 (builder@host) #1 SMP
[    5.000000] BUG: kernel NULL pointer dereference, address: 0000000000000010
`
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	type got struct {
		line, boot int
		kind       kernlog.Kind
	}
	var all []got
	for _, in := range l.Incidents {
		for _, e := range in.Events {
			all = append(all, got{e.Line, in.Boot, e.Kind})
		}
	}
	assert.Equal(t, []got{{1, 0, kernlog.PlatformFault}, {3, 0, kernlog.ControllerDown}, {4, 0, kernlog.PlatformFault}, {6, 1, kernlog.PlatformFault}}, all)
}

// An event another CPU printed in the middle of a dump waits behind the
// crash, and the dump's later lines still place the crash.
func TestEventInsideADump(t *testing.T) {
	log := `[   89.921145] general protection fault: 0000 [#1] SMP DEBUG_PAGEALLOC PTI
[   89.925168] nvme nvme0: I/O 5 QID 3 timeout, aborting
[   89.927158] RIP: 0010:nvme_unmap_data+0x195/0x1e0 [nvme]
[   95.000000] nvme nvme0: I/O 6 QID 3 timeout, aborting
`
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	var lines []int
	for _, e := range l.Incidents[0].Events {
		lines = append(lines, e.Line)
		if e.Kind == kernlog.PlatformFault {
			assert.Equal(t, 3, e.StackLine)
		}
	}
	assert.Equal(t, []int{1, 2, 4}, lines)
}

// Only __warn()'s banner is a kernel warning: another message that opens
// with "WARNING: " (a driver's own shout) is no crash of the kernel's.
func TestWarnBannerOnly(t *testing.T) {
	for _, line := range []string{
		"[    3.100000] WARNING: this kernel was built without the microcode loader",
		"[    3.100000] WARNING: drivers are loading: please wait",
		"[    3.100000] WARNING: 1:2 at",
		"[    3.100000] WARNING: at least one lane of the link is down",
	} {
		l, err := kernlog.ReadString(line+"\n", kernlog.Options{})
		require.NoError(t, err)
		for _, in := range l.Incidents {
			for _, e := range in.Events {
				assert.NotEqual(t, kernlog.ActionKernelBug, e.Action, line)
			}
		}
	}
}

// A dump of the driver's code whose first lines were not pasted (a Rock
// Pi 4B's timeout handler reading a gone device, posted f-16:
// https://github.com/radxa-build/rock-pi-4b/issues/5) is kept as
// Log.DriverFrame; the dump of a crash, a lockdep warning or a hung task
// the log holds is none.
func TestDriverFrame(t *testing.T) {
	const fragment = `[   72.403363] Workqueue: kblockd blk_mq_timeout_work
[   72.403390] pstate: 00000005 (nzcv daif -PAN -UAO -TCO -DIT -SSBS BTYPE=--)
[   72.403400] pc : readl+0x4/0x18
[   72.403419] lr : nvme_timeout+0x50/0x350
`
	l, err := kernlog.ReadString(fragment, kernlog.Options{})
	require.NoError(t, err)
	require.NotNil(t, l.DriverFrame)
	assert.Equal(t, 4, l.DriverFrame.Line)
	assert.Equal(t, "[   72.403419] lr : nvme_timeout+0x50/0x350", l.DriverFrame.Raw)
	assert.Empty(t, l.Incidents)

	for name, log := range map[string]string{
		"a crash": arm64Oops,
		// Lockdep's report (xen-devel, posted b-27).
		"a lockdep warning": `Oct 17 22:52:07 dom0 kernel: WARNING: possible circular locking dependency detected
Oct 17 22:52:07 dom0 kernel:        pci_enable_device_flags+0xcf/0x100
Oct 17 22:52:07 dom0 kernel:        nvme_pci_enable+0x28/0x1e0 [nvme]
Oct 17 22:52:07 dom0 kernel:        nvme_reset_work+0x61/0x490 [nvme]
`,
		"a hung task": `[  369.061539] INFO: task kworker/u8:1:58 blocked for more than 122 seconds.
[  369.061560] Workqueue: nvme-wq nvme_scan_work [nvme_core]
[  369.061601]  nvme_scan_work+0x2a4/0x2f0 [nvme_core]
`,
		"an unreliable frame": "[   72.403419]  ? nvme_irq+0x10/0x20 [nvme]\n",
	} {
		l, err := kernlog.ReadString(log, kernlog.Options{})
		require.NoError(t, err, name)
		assert.Nil(t, l.DriverFrame, name)
	}
}

// A hung-task report that names no NVMe disk (a Pinebook Pro's fdisk
// after resume, posted i-19:
// https://github.com/samueldr/wip-pinebook-pro/issues/3) is kept as
// Log.BlockedTask, the first of them; one named after an NVMe disk is a
// HungTask event instead.
func TestBlockedTask(t *testing.T) {
	l, err := kernlog.ReadString(`[ 1934.301295] INFO: task fdisk:3791 blocked for more than 966 seconds.
[ 1934.304747]       Tainted: P         C O      5.10.35 #1-NixOS
[ 1934.311737]  blk_queue_enter+0x138/0x290
[ 2000.000000] INFO: task fdisk:3792 blocked for more than 1000 seconds.
`, kernlog.Options{})
	require.NoError(t, err)
	require.NotNil(t, l.BlockedTask)
	assert.Equal(t, 1, l.BlockedTask.Line)
	assert.Equal(t, "INFO: task fdisk:3791 blocked for more than 966 seconds.", l.BlockedTask.Text)
	assert.Empty(t, l.BlockedTask.Kind)
	assert.Equal(t, "5.10.35 (NixOS 5.10.35)", l.Release)
	assert.Empty(t, l.Incidents)

	l, err = kernlog.ReadString("[  369.061539] INFO: task jbd2/nvme0n1p3-:375 blocked for more than 122 seconds.\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Nil(t, l.BlockedTask)
	require.Len(t, l.Incidents, 1)
	assert.Equal(t, kernlog.HungTask, l.Incidents[0].Events[0].Kind)
}

// A hung-task report whose stack runs through the NVMe driver's code is a
// HungTask event with that Stack, in no controller's incident when the log
// names none: the driver itself hung (the timeout handler blocked in
// nvme_dev_disable, posted zc-01: linux-block, Message-ID:
// <20251204191555.GB337106-mkhalfella@purestorage.com>; a power-off
// blocked in nvme_wait_freeze_timeout, posted zc-11: linux-block,
// Message-ID: <d713fe1b-3eaa-4de4-99a6-5910247ffad5@kernel.dk>). Events
// printed in its dump keep their place; the report ends at the next one.
func TestHungTaskInDriverCode(t *testing.T) {
	tests := []struct {
		name, log string
		stack     string
		stackLine int
	}{
		{"timeout handler", `Oct  1 15:19:30 hostname kernel: INFO: task kworker/151:1H:2442 blocked for more than 122 seconds.
Oct  1 15:19:30 hostname kernel:      Tainted: G            E       6.13.2-ge5f37b497f62 #1
Oct  1 15:19:30 hostname kernel: Workqueue: kblockd blk_mq_timeout_work
Oct  1 15:19:30 hostname kernel: Call Trace:
Oct  1 15:19:30 hostname kernel: blk_mq_quiesce_tagset+0x25/0xc0
Oct  1 15:19:30 hostname kernel: nvme_dev_disable+0x9c/0x250
Oct  1 15:19:30 hostname kernel: nvme_timeout+0x1fc/0x520
`, "Oct  1 15:19:30 hostname kernel: nvme_dev_disable+0x9c/0x250", 6},
		{"power-off", `[   75.549201] INFO: task systemd-shutdow:1 blocked for more than 15 seconds.
[   75.549636]       Not tainted 6.7.0-rc5-00173-g34d71db9cce2 #4540
[   75.549977] "echo 0 > /proc/sys/kernel/hung_task_timeout_secs" disables this message.
[   75.550900] Call trace:
[   75.551857]  blk_mq_freeze_queue_wait_timeout+0xf4/0x18c
[   75.552157]  nvme_wait_freeze_timeout+0x68/0xa4
[   75.552503]  nvme_dev_disable+0x35c/0x374
`, "[   75.552157]  nvme_wait_freeze_timeout+0x68/0xa4", 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tt.log, kernlog.Options{})
			require.NoError(t, err)
			assert.Nil(t, l.BlockedTask)
			require.Len(t, l.Incidents, 1)
			require.Len(t, l.Incidents[0].Events, 1)
			e := l.Incidents[0].Events[0]
			assert.Equal(t, kernlog.HungTask, e.Kind)
			assert.Equal(t, 1, e.Line)
			assert.Empty(t, e.Disk)
			assert.Equal(t, tt.stack, e.Stack)
			assert.Equal(t, tt.stackLine, e.StackLine)
			assert.EqualValues(t, 1, l.Events)
		})
	}

	// A report whose dump names no driver code stays Log.BlockedTask, and
	// the next report ends it: the second is the driver's.
	l, err := kernlog.ReadString(`[ 10.000000] INFO: task fdisk:3791 blocked for more than 966 seconds.
[ 10.000001]  blk_queue_enter+0x138/0x290
[ 10.000002] INFO: task kworker/u8:3:99 blocked for more than 966 seconds.
[ 10.000003]  nvme_reset_work+0x802/0xd84 [nvme]
`, kernlog.Options{})
	require.NoError(t, err)
	require.NotNil(t, l.BlockedTask)
	assert.Equal(t, 1, l.BlockedTask.Line)
	require.Len(t, l.Incidents, 1)
	assert.Equal(t, 3, l.Incidents[0].Events[0].Line)
}

// The release a dump's taint line names is the log's when it has no
// "Linux version" line (lib/dump_stack.c, kernel/hung_task.c; lines from
// posted zc-01, zc-11, zc-08, i-19 and ze-05); a "Linux version" line
// wins. Its flags but G are Log.Taint, the first dump's of the boot.
func TestTaintRelease(t *testing.T) {
	tests := []struct{ name, log, release, taint string }{
		{"hung task, flags", "Oct  1 15:19:30 hostname kernel:      Tainted: G            E       6.13.2-ge5f37b497f62 #1\n", "6.13.2-ge5f37b497f62", "E"},
		{"hung task, not tainted", "[   75.549201] INFO: task systemd-shutdow:1 blocked for more than 15 seconds.\n[   75.549636]       Not tainted 6.7.0-rc5-00173-g34d71db9cce2 #4540\n", "6.7.0-rc5-00173-g34d71db9cce2", ""},
		{"dump's CPU line", "[  100.1] CPU: 3 PID: 1 Comm: kworker/3:1 Not tainted 6.1.0-18-amd64 #1 Debian 6.1.76-1\n", "6.1.0-18-amd64 (Debian 6.1.76-1)", ""},
		{"out of tree", "[  575.812327] CPU: 3 PID: 2542 Comm: xio-tester Tainted: G           OE      6.8.0-117-generic #117-Ubuntu\n", "6.8.0-117-generic", "OE"},
		{"NixOS", "[ 1934.304747]       Tainted: P         C O      5.10.35 #1-NixOS\n", "5.10.35 (NixOS 5.10.35)", "PCO"},
		{"6.12's letters spelled out", "[  100.1] Tainted: [W]=WARN, [O]=OOT_MODULE\n", "", ""},
		{"no flags", "[  100.1] Tainted: 6.1.0 #1\n", "", ""},
		{"a bare Not tainted is no dump's", "[  100.1]       Not tainted 6.7.0 #1\n", "", ""},
		{"Linux version wins", "[    0.0] Linux version 6.8.0-45-generic (buildd@lcy02-amd64-075) #45-Ubuntu SMP\n[  100.1] CPU: 3 PID: 1 Comm: x Tainted: G        W 6.1.0 #1\n", "6.8.0-45-generic", "W"},
		{"the first dump's", "[  100.1] CPU: 3 PID: 1 Comm: x Not tainted 6.1.0 #1\n[  200.1] CPU: 3 PID: 1 Comm: x Tainted: G        W 6.1.0 #1\n", "6.1.0", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tt.log, kernlog.Options{})
			require.NoError(t, err)
			assert.Equal(t, tt.release, l.Release)
			assert.Equal(t, tt.taint, l.Taint)
		})
	}
}

// POWER's EEH line that froze an endpoint is Log.EEH, the first of them
// (posted ze-01: linux-nvme, Message-ID:
// <4300e404-39ab-4b76-82a6-2d583a9386c2@redhat.com>); its narration is no
// event and no unread line.
func TestEEH(t *testing.T) {
	l, err := kernlog.ReadString(`[Thu Jan 15 14:25:29 2026] EEH: Recovering PHB#18-PE#10000
[Thu Jan 15 14:25:29 2026] EEH: Frozen PHB#18-PE#10000 detected
[Thu Jan 15 14:25:29 2026] EEH: This PCI device has failed 1 times in the last hour and will be permanently disabled after 5 failures.
[Thu Jan 15 14:25:29 2026] PCI 0018:01:00.0#10000: EEH: Invoking nvme->error_detected(IO frozen)
[Thu Jan 15 14:25:29 2026] nvme nvme0: frozen state error detected, reset controller
`, kernlog.Options{})
	require.NoError(t, err)
	require.NotNil(t, l.EEH)
	assert.Equal(t, 2, l.EEH.Line)
	assert.Equal(t, "EEH: Frozen PHB#18-PE#10000 detected", l.EEH.Text)
	assert.Empty(t, l.EEH.Kind)
	assert.Zero(t, l.UnreadLines)
	require.Len(t, l.Incidents, 1)
	assert.Equal(t, kernlog.AERRecovery, l.Incidents[0].Events[0].Kind)
}
