package diagnose_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// The platform's own faults (IOMMU faults, a probe that ran out of
// memory, bounce buffers, a host bridge's config writes, a development
// kernel) speak for the platform; a drive left without its host memory
// buffer is a failure to diagnose, and the test raises the limit to what
// the drive asks; corrected errors the drive's own receiver logged leave
// the link and the drive's firmware undecided. Each log is made of real
// lines (sources named).
func TestPlatformSigns(t *testing.T) {
	for _, tc := range []struct {
		name, log string
		first     []diagnose.Layer // the first cause, or the undecided layers
		evidence  string           // a quote the first cause's evidence holds
		setting   string           // a setting one of its tests gives
	}{
		{
			// https://github.com/pop-os/pop/issues/853 (the IOMMU faults), with a timeout of the same drive.
			name: "iommu fault",
			log: "[    1.500000] nvme nvme0: pci function 0000:01:00.0\n" +
				"[   10.919607] nvme 0000:01:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0000 address=0xfc189000 flags=0x0000]\n" +
				"[   41.000000] nvme nvme0: I/O 12 QID 3 timeout, aborting\n",
			first: []diagnose.Layer{diagnose.LayerPlatform}, evidence: "IO_PAGE_FAULT", setting: "iommu=pt",
		},
		{
			// drivers/base/dd.c's report, the controller's admin timeout of
			// https://lore.kernel.org/all/aQEElhSCRNqaPf8m@aurel32.net/.
			name: "probe out of memory",
			log: "[    5.215631] nvme nvme0: pci function 0000:01:00.0\n" +
				"[   66.540485] nvme nvme0: I/O tag 28 (401c) QID 0 timeout, disable controller\n" +
				"[   66.585245] nvme 0000:01:00.0: probe with driver nvme failed with error -12\n",
			first: []diagnose.Layer{diagnose.LayerPlatform}, evidence: "error -12",
		},
		{
			// nvme-pci's own lines (drivers/nvme/host/pci.c): the drive
			// never came up, and nothing else happened.
			name: "probe failure alone",
			log: "[    2.100000] nvme nvme0: pci function 0000:01:00.0\n" +
				"[    2.300000] nvme nvme0: Removing after probe failure status: -19\n",
			first: []diagnose.Layer{diagnose.LayerPlatform, diagnose.LayerLink, diagnose.LayerDrive}, setting: "",
		},
		{
			// https://github.com/openwrt/openwrt/issues/14767 (posted
			// w-01): a BPI-R4's drive could not fetch the APST table,
			// status 0x4, Data Transfer Error; no refusal of the table.
			name: "apst table not fetched",
			log: "[    6.052184] nvme nvme0: failed to set APST feature (4)\n" +
				"[    6.120186] nvme nvme0: 4/0/0 default/read/poll queues\n",
			first: []diagnose.Layer{diagnose.LayerPlatform}, evidence: "failed to set APST feature (4)", setting: "iommu=pt",
		},
		{
			// https://github.com/oxidecomputer/crucible/issues/1239
			// (posted c-27): writes the drive could not move.
			name: "data transfer error",
			log: "[  531.166938] nvme0n1: Write(0x1) @ LBA 100492368, 2048 blocks, Data Transfer Error (sct 0x0 / sc 0x4) \n" +
				"[  531.166950] I/O error, dev nvme0n1, sector 100492368 op 0x1:(WRITE) flags 0x104000 phys_seg 256 prio class 2\n",
			first: []diagnose.Layer{diagnose.LayerPlatform}, evidence: "Data Transfer Error (sct 0x0 / sc 0x4)",
		},
		{
			// The Thomas-Krenn wiki's multipath path device (posted za-07):
			// the drive's own DMA stays possible, below the platform.
			name:  "data transfer error of a path device",
			log:   "[74942.261934] nvme0c0n1: I/O Cmd(0x1) @ LBA 218630656, 256 blocks, I/O Error (sct 0x0 / sc 0x4) DNR\n",
			first: []diagnose.Layer{diagnose.LayerPlatform}, evidence: "(sct 0x0 / sc 0x4) DNR",
		},
		{
			// https://github.com/ophub/fnnas/issues/515 (posted w-07): a
			// DesignWare host that gave up without an error; no drive seen.
			name:  "host init failed",
			log:   "[    2.007465] dw-pcie fe180000.pcie: Failed to initialize host\n",
			first: []diagnose.Layer{diagnose.LayerPlatform}, evidence: "Failed to initialize host",
		},
		{
			// https://github.com/raspberrypi/linux/issues/7445
			name:  "no host memory buffer",
			log:   "nvme nvme0: min host memory (64 MiB) above limit (32 MiB).\n",
			first: []diagnose.Layer{diagnose.LayerPlatform}, evidence: "above limit", setting: "nvme.max_host_mem_size_mb=64",
		},
		{
			// https://lore.kernel.org/all/20220625121011.8103-1-pgreco@centosproject.org/:
			// a namespace whose NGUID another drive's has is not created,
			// a known issue of 5.18 to 6.5 (the nvme-duplicate-nid entry).
			name: "duplicate namespace IDs",
			log: "[    2.264898] nvme nvme2: pci function 0000:05:00.0\n" +
				"[    2.347197] nvme nvme2: globally duplicate IDs for nsid 1\n",
			first: []diagnose.Layer{diagnose.LayerPlatform}, evidence: "globally duplicate IDs",
		},
		{
			// A tuning thread (testdata/threads/ml10-hv-arm64-msi-parent-nvme-irq.log):
			// nvme's interrupt reached handle_bad_irq, and nvme printed nothing.
			name: "interrupt without a handler",
			log: "[   84.482413] nvme nvme0: pci function 0b9d:00:00.0\n" +
				"[   84.556883] ->handle_irq():  0000000062fa78bc, handle_bad_irq+0x0/0x270\n" +
				"[   84.556896] ->action->handler(): 00000000e15d8191, nvme_irq+0x0/0x3e8\n",
			first: []diagnose.Layer{diagnose.LayerPlatform}, evidence: "nvme_irq", setting: "pci=nomsi",
		},
		{
			// A tuning thread (testdata/threads/ml11-xps7390-kioxia-wbt-write-hang.log):
			// a task blocked on the drive's I/O, and nvme saw no timeout.
			name:  "hung task without a timeout",
			log:   "Nov 23 12:39:57 xps-7390 kernel: [13641.000227][   T55] INFO: task jbd2/nvme0n1p3-:375 blocked for more than 122 seconds.\n",
			first: []diagnose.Layer{diagnose.LayerPlatform}, evidence: "blocked for more than",
		},
		{
			// https://github.com/FrameworkComputer/SoftwareFirmwareIssueTracker/issues/41
			name: "the drive's receiver",
			log: "pcieport 0000:00:02.1: AER: Correctable error message received from 0000:bf:00.0\n" +
				"nvme 0000:bf:00.0: PCIe Bus Error: severity=Correctable, type=Physical Layer, (Receiver ID)\n" +
				"nvme 0000:bf:00.0:   device [15b7:5017] error status/mask=00000001/0000e000\n" +
				"pcieport 0000:00:02.1: AER: Correctable error message received from 0000:bf:00.0\n" +
				"nvme 0000:bf:00.0: PCIe Bus Error: severity=Correctable, type=Physical Layer, (Receiver ID)\n",
			first: []diagnose.Layer{diagnose.LayerASPM, diagnose.LayerFirmware},
		},
		{
			// https://github.com/linux-nvme/nvme-cli/issues/151: two drives
			// gone within three minutes of each other share a cause; each
			// reset gave up with RDY still set (the old line without CSTS),
			// as a drive stuck in a power state does, so APST stays in
			// (and the firmware, which a reset that gives up fits as well).
			name: "two controllers down within minutes",
			log: "[11457.533097] nvme nvme2: I/O 0 QID 0 timeout, reset controller\n" +
				"[11483.115530] nvme nvme2: Device not ready; aborting reset\n" +
				"[11508.697977] nvme nvme2: Removing after probe failure status: -19\n" +
				"[11626.482776] nvme nvme3: I/O 0 QID 0 timeout, reset controller\n" +
				"[11652.065242] nvme nvme3: Device not ready; aborting reset\n" +
				"[11677.647717] nvme nvme3: Removing after probe failure status: -19\n",
			first: []diagnose.Layer{diagnose.LayerPlatform, diagnose.LayerAPST, diagnose.LayerFirmware}, evidence: "nvme nvme2: I/O 0 QID 0 timeout",
		},
		{
			// A tuning thread (testdata/threads/gh-solidrun-65-lx2160a-m2-rxerr.log):
			// the port heard the errors; another drive in the slot stopped them.
			name: "the port's receiver",
			log: "[  133.829728] pcieport 0001:00:00.0: AER: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)\n" +
				"[  133.839742] pcieport 0001:00:00.0: AER:   device [1957:8d80] error status/mask=00000001/00006000\n" +
				"[  133.848529] pcieport 0001:00:00.0: AER:    [ 0] RxErr\n",
			first: []diagnose.Layer{diagnose.LayerASPM, diagnose.LayerDrive},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := diagnoseFailure(t, tc.log)
			got := d.Undecided
			if len(got) == 0 {
				require.NotEmpty(t, d.Causes)
				got = []diagnose.Layer{d.Causes[0].Layer}
			}
			assert.ElementsMatch(t, tc.first, got, d.Summary)
			c := d.Causes[0]
			if tc.evidence != "" {
				var quotes []string
				for _, e := range c.Evidence {
					quotes = append(quotes, e.Quote)
				}
				assert.Contains(t, strings.Join(quotes, "\n"), tc.evidence)
			}
			if tc.setting != "" {
				var settings []string
				for _, x := range c.Tests {
					settings = append(settings, x.Setting)
				}
				assert.Contains(t, settings, tc.setting)
			}
		})
	}
}

// A host memory buffer the drive did not get is no failure by itself: a
// drive must work without one (NVMe 1.4, 8.9), so the line alone is
// "possible" at most and asks for no setting (the drive already runs
// without the buffer); beside the drive's own failure it is a sign.
// https://github.com/QubesOS/qubes-issues/issues/9719 ("I experience no
// actual problems, only saw the error in the kernel log") and nvme-pci's
// timeout line.
func TestHostMemoryBufferAlone(t *testing.T) {
	const hmb = "[    4.621010] nvme nvme1: pci function 0000:02:00.0\n" +
		"[    4.641186] nvme nvme1: failed to allocate host memory buffer.\n" +
		"[    4.716788] nvme nvme1: 16/0/0 default/read/poll queues\n"
	for _, tc := range []struct {
		name, log string
		likely    diagnose.Likelihood
		setting   bool // the test without a buffer is offered
	}{
		{"alone", hmb, diagnose.Possible, false},
		{"beside a timeout", hmb + "[   64.000000] nvme nvme1: I/O 12 QID 3 timeout, aborting\n", diagnose.Likely, true},
		{"beside an I/O error", hmb + "[   64.000000] I/O error, dev nvme1n1, sector 2048 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 0\n", diagnose.Likely, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := diagnoseFailure(t, tc.log)
			require.NotEmpty(t, d.Causes)
			c := causeOf(&d, diagnose.LayerPlatform)
			assert.Equal(t, tc.likely, c.Likelihood, d.Summary)
			var settings []string
			for _, x := range c.Tests {
				settings = append(settings, x.Setting)
			}
			assert.Equal(t, tc.setting, slices.Contains(settings, "nvme.max_host_mem_size_mb=0"), "%q", settings)
		})
	}
}

// A hung task says the I/O was held above the driver only when nvme saw
// no command time out: beside nvme's own timeouts it is their consequence.
// hung_task.c's and nvme-pci's formats.
func TestHungTaskBesideTimeouts(t *testing.T) {
	d := diagnoseFailure(t, "[  100.000000] nvme nvme0: I/O 12 QID 3 timeout, aborting\n"+
		"[  230.000000] INFO: task jbd2/nvme0n1p2-8:402 blocked for more than 122 seconds.\n")
	for _, c := range d.Causes {
		for _, e := range c.Evidence {
			assert.NotContains(t, e.Quote, "INFO: task", "%s: %s", c.Layer, e.Text)
		}
	}
	l, err := kernlog.ReadString("[  230.000000] INFO: task kworker/u16:3:402 blocked for more than 122 seconds.\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Incidents, "a task named after no NVMe disk")
}

// A development kernel counts for the platform, beside timeouts that
// recovered (which fit APST and the platform alike).
func TestDevelopmentKernelLeansPlatform(t *testing.T) {
	const timeout = "[   31.000000] nvme nvme0: I/O 0 (I/O Cmd) QID 2 timeout, aborting\n"
	for _, tc := range []struct {
		release string
		dev     bool
	}{{"6.9.0", false}, {"6.9.0-rc3", true}, {"6.15.0-rc2-next-20250414", true}} {
		l, err := kernlog.ReadString("[    0.000000] Linux version "+tc.release+" (builder@host) #1 SMP\n"+timeout, kernlog.Options{})
		require.NoError(t, err)
		d := diagnose.Diagnose(diagnose.Input{Log: l})
		require.NotEmpty(t, d.Causes)
		var platform diagnose.Cause
		for _, c := range d.Causes {
			if c.Layer == diagnose.LayerPlatform {
				platform = c
			}
		}
		said := false
		for _, e := range platform.Evidence {
			said = said || strings.Contains(e.Text, "a development kernel ("+tc.release+")")
		}
		assert.Equal(t, tc.dev, said, tc.release)
		if tc.dev {
			assert.Equal(t, diagnose.LayerPlatform, d.Causes[0].Layer, "%s: %s", tc.release, d.Summary)
		}
	}
}

// A timeout the controller did not come back from is never called a
// recovery: nvme-pci disables a controller it is bringing up when a
// command times out ("disable controller"), and the probe failure that
// follows is the bring-up failing; a reset that ends in the driver
// removing the device did not recover either.
func TestTimeoutWithoutRecovery(t *testing.T) {
	for _, tc := range []struct {
		name, log string
		first     diagnose.Layer // "" when only the wording is checked
	}{
		{
			// nvme-pci's lines (drivers/nvme/host/pci.c, nvme_timeout and
			// nvme_remove_dead_ctrl) of a bring-up that timed out.
			name: "bring-up timed out",
			log: "[    1.234567] nvme nvme0: pci function 0000:01:00.0\n" +
				"[   62.401234] nvme nvme0: I/O 12 QID 0 timeout, disable controller\n" +
				"[   62.512345] nvme nvme0: Removing after probe failure status: -4\n",
			first: diagnose.LayerPlatform,
		},
		{
			// A blog post's log (testdata/threads/pg2-blog-nuc10-kingston-a2000-apst.log):
			// the reset found the device gone.
			name: "reset ended in removal",
			log: "nvme nvme0: I/O 10 QID 2 timeout, aborting\n" +
				"nvme nvme0: I/O 10 QID 2 timeout, reset controller\n" +
				"nvme nvme0: Removing after probe failure status: -19\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := diagnoseFailure(t, tc.log)
			require.NotEmpty(t, d.Causes)
			if tc.first != "" {
				assert.Empty(t, d.Undecided, d.Summary)
				assert.Equal(t, tc.first, d.Causes[0].Layer, d.Summary)
			}
			for _, c := range d.Causes {
				for _, e := range c.Evidence {
					assert.NotContains(t, e.Text, "recovered", "%s: %s", c.Layer, e.Text)
				}
			}
		})
	}
}

// A kernel crash whose dump runs through the NVMe driver's code, with no
// failure the driver reported, is the failure: the kernel's, possibly
// (nothing the drive did is in the log). A crash elsewhere is no failure
// of the drive; beside a failure the driver reported, the crash in its
// code weighs less (it may follow from that failure). The dumps are
// real: a Huawei D06's oops in nvme's reset work, as posted to linux-next
// (https://lore.kernel.org/all/454c65b1-872a-a48c-662d-690044662772@huawei.com/),
// cut to its lines that matter.
func TestDriverCrash(t *testing.T) {
	const (
		fn   = "[148.260973] nvme nvme0: pci function 0000:81:00.0\n"
		oops = "[148.322016] Internal error: Oops: 96000004 [#1] PREEMPT SMP\n" +
			"[148.327577] Modules linked in: nvme nvme_core\n" +
			"[148.348260] Workqueue: nvme-reset-wq nvme_reset_work [nvme]\n" +
			"[148.472193]nvme_alloc_queue+0x114/0x160 [nvme]\n"
		elsewhere = "[148.322016] Internal error: Oops: 96000004 [#1] PREEMPT SMP\n" +
			"[148.348260] Workqueue: events_unbound async_run_entry_fn\n"
		down = "[148.200000] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff\n"
	)
	d := diagnoseFailure(t, fn+oops)
	assert.Equal(t, "nvme0", d.Controller)
	require.Equal(t, diagnose.LayerPlatform, d.Causes[0].Layer, d.Summary)
	assert.Equal(t, diagnose.Possible, d.Causes[0].Likelihood)
	assert.Equal(t, 3, d.Causes[0].Score)
	ev := d.Causes[0].Evidence[0]
	assert.Equal(t, 2, ev.Line)
	assert.Contains(t, ev.Text, "line 4: [148.348260] Workqueue: nvme-reset-wq nvme_reset_work [nvme]")
	assert.Contains(t, d.Summary, "nvme0: possibly platform (line 2: the kernel crashed in the NVMe driver's own code")
	tests := d.Causes[0].Tests
	require.NotEmpty(t, tests)
	assert.Contains(t, tests[len(tests)-1].Action, "linux-nvme@lists.infradead.org")

	// Two controllers: the crash names neither, and is still the log's
	// failure when none is named.
	d = diagnoseFailure(t, "[148.200000] nvme nvme1: pci function 0000:82:00.0\n"+fn+oops)
	assert.Equal(t, diagnose.LayerPlatform, d.Causes[0].Layer, d.Summary)
	assert.Empty(t, d.Controller)

	l, err := kernlog.ReadString(fn+elsewhere, kernlog.Options{})
	require.NoError(t, err)
	d = diagnose.Diagnose(diagnose.Input{Log: l})
	assert.False(t, d.Failure, d.Summary)

	d = diagnoseFailure(t, fn+down+oops)
	p := causeOf(&d, diagnose.LayerPlatform)
	var crash *diagnose.Line
	for i := range p.Evidence {
		if p.Evidence[i].Line == 3 {
			crash = &p.Evidence[i]
		}
	}
	require.NotNil(t, crash, "the crash is evidence beside the controller going down")
	assert.Contains(t, crash.Text, "the kernel crashed in the NVMe driver's code (its dump, line 5")
	assert.NotContains(t, crash.Text, "before the driver reported")
	for _, tc := range p.Tests {
		assert.NotContains(t, tc.Action, "linux-nvme@", "a crash beside another failure is no crash report's")
	}
}

// A drive that answers the namespace identification descriptor list with
// an NVMe status needs the kernel's NO_NS_DESC_LIST quirk (its firmware
// does not implement the command): undecided between the platform's
// quirk and the firmware. A negative errno is a controller that did not
// answer, no sign of either. The lines are the Seagate Nytro XM1440
// patch's (https://lore.kernel.org/all/20210310132323.463924004@linuxfoundation.org/)
// and 5.x's spelling of the same report.
func TestDescriptorsRefused(t *testing.T) {
	const fn = "[   10.785605] nvme nvme0: pci function 0000:04:00.0\n"
	for _, line := range []string{
		"[   13.239627] nvme nvme0: Identify Descriptors failed (8194)\n",
		"[   13.239627] nvme nvme0: Identify Descriptors failed (nsid=1, status=0x2002)\n",
	} {
		d := diagnoseFailure(t, fn+line)
		assert.ElementsMatch(t, []diagnose.Layer{diagnose.LayerPlatform, diagnose.LayerFirmware}, d.Undecided, d.Summary)
		assert.Contains(t, causeOf(&d, diagnose.LayerPlatform).Evidence[0].Text, "NO_NS_DESC_LIST")
	}
	d := diagnoseFailure(t, fn+"[   13.239627] nvme nvme0: Identify Descriptors failed (-4)\n")
	for _, c := range d.Causes {
		for _, e := range c.Evidence {
			assert.NotContains(t, e.Text, "NO_NS_DESC_LIST")
		}
	}
}

// A Write Zeroes or discard the drive refused as invalid is a command the
// kernel sends that this drive does not take: undecided between a kernel
// quirk or regression (the platform's layer) and the firmware. The lines
// are an SK hynix SC300 quirk patch's (linux-nvme, Message-Id
// <20200417083641.28205-1-kai.heng.feng@canonical.com>) and a 6.11 run's
// in a regression report (linux-kernel, Message-ID
// <20241121211930.GF394828@pauld.westford.csb>). A Read refused so (a
// locked or reformatted namespace, as a sedutil user's
// https://github.com/Drive-Trust-Alliance/sedutil/issues/468 shows) is
// not.
func TestCommandRefused(t *testing.T) {
	for _, log := range []string{
		"[  224.567695] blk_update_request: operation not supported error, dev nvme1n1, sector 499384320 op 0x9:(WRITE_ZEROES) flags 0x1000000 phys_seg 0 prio class 0]\n",
		"[  473.398188] operation not supported error, dev nvme2n1, sector 13952 op 0x9:(WRITE_ZEROES) flags 0x800 phys_seg 0 prio class 0\n",
		"[  473.534550] nvme0n1: Dataset Management(0x9) @ LBA 14000, 256 blocks, Invalid Command Opcode (sct 0x0 / sc 0x1) DNR\n",
	} {
		d := diagnoseFailure(t, log)
		assert.ElementsMatch(t, []diagnose.Layer{diagnose.LayerPlatform, diagnose.LayerFirmware}, d.Undecided, d.Summary)
		ev := causeOf(&d, diagnose.LayerPlatform).Evidence[0]
		assert.Contains(t, ev.Text, "DISABLE_WRITE_ZEROES")
		assert.Equal(t, strings.TrimSuffix(log, "\n"), ev.Quote)
	}
	d := diagnoseFailure(t, "[    3.301677] blk_update_request: operation not supported error, dev nvme0n1, sector 0 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 0\n")
	for _, c := range d.Causes {
		for _, e := range c.Evidence {
			assert.NotContains(t, e.Text, "refused", d.Summary)
		}
	}
}

// Controllers that went down hours apart are two failures, not one cause.
func TestFailuresHoursApartShareNothing(t *testing.T) {
	d := diagnoseFailure(t, "[  100.0] nvme nvme2: Removing after probe failure status: -19\n"+
		"[ 9000.0] nvme nvme3: I/O 0 QID 0 timeout, reset controller\n"+
		"[ 9030.0] nvme nvme3: Removing after probe failure status: -19\n")
	require.Equal(t, "nvme3", d.Controller)
	for _, c := range d.Causes {
		for _, e := range c.Evidence {
			assert.NotContains(t, e.Text, "other NVMe controller", c.Layer)
		}
	}
}

// A failure known only by its PCI address may be one of the controllers
// that went down near it: one such controller shares nothing with it (it
// may be its own), two do, and the evidence says one may be its own. The
// address's line comes beyond the gap (DefaultGap, 5 min), so it joins none.
func TestAddressFailureAmongOthers(t *testing.T) {
	const d3cold = "[  450.000000] nvme 0000:06:00.0: Unable to change power state from D3cold to D0, device inaccessible\n"
	// Two NVMe functions, so that the log's one controller is not tied
	// to the one function.
	one := "[    1.000000] nvme 0000:05:00.0: enabling device (0000 -> 0002)\n" +
		"[  100.000000] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff\n"
	two := one + "[  110.000000] nvme nvme1: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff\n"

	d := diagnoseFailure(t, one+d3cold)
	require.Equal(t, "0000:06:00.0", d.Address, d.Summary)
	require.Empty(t, d.Controller)
	for _, c := range d.Causes {
		for _, e := range append(c.Evidence, c.Against...) {
			assert.NotContains(t, e.Text, "NVMe controller", c.Layer)
		}
	}

	d = diagnoseFailure(t, two+d3cold)
	require.Equal(t, "0000:06:00.0", d.Address, d.Summary)
	texts := ""
	for _, e := range causeOf(&d, diagnose.LayerPlatform).Evidence {
		texts += e.Text + "\n"
	}
	assert.Contains(t, texts, "2 NVMe controllers went down within minutes of this failure (one may be this drive's own")
	assert.NotContains(t, texts, "other NVMe controller")
}

// Three drives that dropped off the bus seconds apart: each drive's lines
// fit APST and ASPM alike, and three at once a shared cause as well, so
// the answer is undecided between all three (none left out by list
// order), the cheapest test first.
func TestUndecidedBetweenThree(t *testing.T) {
	var log strings.Builder
	for i, ts := range []int{1201, 1203, 1207} {
		fmt.Fprintf(&log, "[%5d.000001] nvme nvme%d: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff\n", ts, i)
		fmt.Fprintf(&log, "[%5d.100001] nvme 0000:%02x:00.0: Unable to change power state from D3cold to D0, device inaccessible\n", ts, 4+i)
		fmt.Fprintf(&log, "[%5d.200001] nvme nvme%d: Disabling device after reset failure: -19\n", ts, i)
	}
	d := diagnoseFailure(t, log.String())
	assert.Equal(t, []diagnose.Layer{diagnose.LayerAPST, diagnose.LayerASPM, diagnose.LayerPlatform}, d.Undecided, d.Summary)
	assert.Contains(t, d.Summary, "undecided between apst (line 7), aspm (line 7) and platform (line 1)")
	require.NotNil(t, d.Separate)
	assert.Equal(t, "nvme_core.default_ps_max_latency_us=0", d.Separate.Setting)
	for _, l := range d.Undecided {
		assert.NotEqual(t, diagnose.Likely, d.Cause(l).Likelihood)
	}
}

// A kernel that ran in a virtual machine (the hypervisor it detected,
// arch/x86/kernel/cpu/hypervisor.c's "Hypervisor detected: %s", or the
// machine's DMI name) sees the hypervisor's drive: its drop-out speaks
// for the platform beside the kernel's own APST hint, and the test reads
// the host's log. A Xen PV kernel may be dom0, which drives the machine's
// own drives, and a bare-metal cloud instance is no virtual machine.
func TestGuest(t *testing.T) {
	down := "[ 5000.100000] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff\n" +
		"[ 5000.100010] nvme nvme0: Does your device have a faulty power saving mode enabled?\n" +
		"[ 5000.100020] nvme nvme0: Try \"nvme_core.default_ps_max_latency_us=0 pcie_aspm=off pcie_port_pm=off\" and report a bug\n"
	for _, tc := range []struct {
		name, head string
		first      []diagnose.Layer
	}{
		{"kvm guest", "[    0.000000] Hypervisor detected: KVM\n", []diagnose.Layer{diagnose.LayerPlatform, diagnose.LayerAPST, diagnose.LayerASPM}},
		{"qemu machine", "[    0.000000] DMI: QEMU Standard PC (Q35 + ICH9, 2009), BIOS 1.16.3-debian-1.16.3-2 04/01/2014\n", []diagnose.Layer{diagnose.LayerPlatform, diagnose.LayerAPST, diagnose.LayerASPM}},
		{"ec2 nitro guest", "[    0.000000] DMI: Amazon EC2 m5.large/, BIOS 1.0 10/16/2017\n", []diagnose.Layer{diagnose.LayerPlatform, diagnose.LayerAPST, diagnose.LayerASPM}},
		{"xen dom0", "[    0.000000] Hypervisor detected: Xen PV\n", []diagnose.Layer{diagnose.LayerAPST, diagnose.LayerASPM}},
		{"ec2 bare metal", "[    0.000000] DMI: Amazon EC2 i3.metal/Not Specified, BIOS 1.0 10/16/2017\n", []diagnose.Layer{diagnose.LayerAPST, diagnose.LayerASPM}},
		{"bare hardware", "[    0.000000] Booting paravirtualized kernel on bare hardware\n", []diagnose.Layer{diagnose.LayerAPST, diagnose.LayerASPM}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := diagnoseFailure(t, tc.head+down)
			assert.ElementsMatch(t, tc.first, d.Undecided, d.Summary)
			p := d.Cause(diagnose.LayerPlatform)
			guest := slices.ContainsFunc(p.Evidence, func(l diagnose.Line) bool { return strings.Contains(l.Text, "virtual machine") })
			assert.Equal(t, tc.first[0] == diagnose.LayerPlatform, guest)
			if guest {
				assert.Equal(t, 1, p.Evidence[0].Line)
				assert.Contains(t, p.Tests[0].Action, "on the host (the hypervisor, not the guest)")
				assert.Equal(t, "journalctl -k -b --no-pager", p.Tests[0].Command)
			}
			// A guest's BIOS is the hypervisor's: no test sends its user
			// to the machine vendor's BIOS, and none reads the guest's
			// DMI for it.
			if guest {
				kernel := slices.IndexFunc(p.Tests, func(x diagnose.Test) bool { return strings.Contains(x.Action, "newest stable kernel") })
				require.GreaterOrEqual(t, kernel, 0, "%+v", p.Tests)
				assert.Contains(t, p.Tests[kernel].Action, "in the guest")
				assert.NotContains(t, p.Tests[kernel].Action+p.Tests[kernel].Command, "BIOS")
				assert.NotContains(t, p.Tests[kernel].Command, "bios_version")
			}
		})
	}
}

// A guest that failed on resume is told neither to update a BIOS nor to
// set nvme.noacpi=1 (StorageD3Enable is a laptop firmware's hint, which a
// hypervisor's virtual firmware does not give), and is sent to the host.
func TestGuestResume(t *testing.T) {
	log := "[    0.000000] DMI: QEMU Standard PC (Q35 + ICH9, 2009), BIOS 1.16.3-debian-1.16.3-2 04/01/2014\n" +
		"[  100.000000] PM: suspend entry (s2idle)\n" +
		"[  160.000000] PM: suspend exit\n" +
		"[  191.000000] nvme nvme0: I/O tag 5 (0005) QID 0 timeout, reset controller\n"
	d := diagnoseFailure(t, log)
	s := d.Cause(diagnose.LayerSuspend)
	require.NotEmpty(t, s.Tests, d.Summary)
	for _, c := range d.Causes {
		for _, x := range c.Tests {
			assert.NotContains(t, x.Action+x.Command, "BIOS", c.Layer)
			assert.NotContains(t, x.Command, "nvme.noacpi", c.Layer)
		}
	}
	assert.True(t, slices.ContainsFunc(s.Tests, func(x diagnose.Test) bool { return strings.Contains(x.Action, "whoever runs the host") }), "%+v", s.Tests)
}

// A drive behind Intel VMD (its PCI domain is one vmd.c numbers from
// 0x10000) gets a note of the layer between it and the host, which no
// score weighs; a drive in domain 0000 gets none.
func TestBehindVMD(t *testing.T) {
	for _, tc := range []struct {
		addr string
		vmd  bool
	}{{"10000:e1:00.0", true}, {"0000:01:00.0", false}, {"0001:01:00.0", false}} {
		t.Run(tc.addr, func(t *testing.T) {
			d := diagnoseFailure(t, "[  100.000000] nvme nvme0: pci function "+tc.addr+"\n"+
				"[  200.000000] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff\n")
			vmd := slices.ContainsFunc(d.Notes, func(n string) bool { return strings.Contains(n, "Intel VMD") })
			assert.Equal(t, tc.vmd, vmd, "%q", d.Notes)
			assert.Equal(t, []diagnose.Layer{diagnose.LayerAPST, diagnose.LayerASPM}, d.Undecided, "the note weighs nothing")
		})
	}
}

// A PCIe host controller whose driver failed to probe for another reason
// than its link is the platform's (a LS1043A's after a device-tree change,
// https://lore.kernel.org/all/20250327151949.2765193-1-ioana.ciornei@nxp.com/);
// one that gave up on its link, the link's or the drive's power. With a
// drive the log shows at work, either is an empty slot, no failure.
func TestHostControllerNeverUp(t *testing.T) {
	d := diagnoseFailure(t, "[    0.157050] layerscape-pcie 3500000.pcie: No syscfg phandle specified\n"+
		"[    0.157053] layerscape-pcie 3500000.pcie: probe with driver layerscape-pcie failed with error -22\n")
	require.Empty(t, d.Undecided, d.Summary)
	assert.Equal(t, diagnose.LayerPlatform, d.Causes[0].Layer, d.Summary)
	assert.Equal(t, diagnose.Likely, d.Causes[0].Likelihood, d.Summary)
	assert.Contains(t, d.Causes[0].Evidence[0].Quote, "failed with error -22")

	d = diagnoseFailure(t, "[    2.285827] rockchip-dw-pcie a40000000.pcie: Link failed to come up. LTSSM: POLL_COMPLIANCE\n"+
		"[    2.286584] rockchip-dw-pcie a40000000.pcie: probe with driver rockchip-dw-pcie failed with error -110\n")
	assert.ElementsMatch(t, []diagnose.Layer{diagnose.LayerLink, diagnose.LayerPowerLoss}, d.Undecided, d.Summary)

	for _, empty := range []string{
		"[    2.1] rockchip-dw-pcie a40000000.pcie: Device not found\n",
		"[    2.1] layerscape-pcie 3500000.pcie: probe with driver layerscape-pcie failed with error -22\n",
	} {
		l, err := kernlog.ReadString(empty+
			"[    2.5] nvme nvme0: pci function 0002:21:00.0\n"+
			"[    2.7] nvme nvme0: 8/0/0 default/read/poll queues\n", kernlog.Options{})
		require.NoError(t, err)
		d = diagnose.Diagnose(diagnose.Input{Log: l})
		assert.False(t, d.Failure, d.Summary)
		assert.Contains(t, d.Summary, "no failure seen in the kernel log of the NVMe drive it shows at work; line 1: a PCIe host controller's link never came up", empty)
	}
}

// A board described by a device tree has no ACPI and no BIOS: its sleep's
// tests are not nvme.noacpi=1 (StorageD3Enable is an ACPI property) and
// no BIOS update, but the board's kernel and device tree; its host
// controller failing to resume is the platform's; its link lost on resume
// did not train again. The lines are a MediaTek MT8195 board's, as
// Guoqing Jiang posted them with the device-tree fix (devicetree list,
// Message-Id 20250721095959.57703-1-guoqing.jiang@canonical.com).
func TestDeviceTreeBoardResume(t *testing.T) {
	d := diagnoseFailure(t, "mtk-pcie-gen3 112f0000.pcie: PCIe link down, current LTSSM state: detect.quiet (0x0)\n"+
		"mtk-pcie-gen3 112f0000.pcie: PM: dpm_run_callback(): genpd_resume_noirq returns -110\n"+
		"mtk-pcie-gen3 112f0000.pcie: PM: failed to resume noirq: error -110\n")
	layers := map[diagnose.Layer]diagnose.Cause{}
	for _, c := range d.Causes {
		layers[c.Layer] = c
		for _, tst := range c.Tests {
			assert.NotContains(t, tst.Setting, "noacpi", tst.Action)
			assert.NotContains(t, tst.Action, "BIOS", tst.Action)
			assert.NotContains(t, tst.Command, "dmi", tst.Action)
		}
	}
	assert.Equal(t, diagnose.LayerSuspend, d.Causes[0].Layer, d.Summary)
	for l, want := range map[diagnose.Layer]string{
		diagnose.LayerPlatform: "host controller itself failed to resume",
		diagnose.LayerLink:     "did not train again on resume",
	} {
		require.NotEmpty(t, layers[l].Evidence, "%s: %s", l, d.Summary)
		assert.Contains(t, layers[l].Evidence[0].Text, want)
	}
}

// The device tree's model line, or an arm64 crash dump's machine name
// with its "(DT)", says a board with no BIOS, and "Raspberry Pi" a Pi:
// its settings go to cmdline.txt; a Rockchip or Jetson board's, by its
// model or its host controller's lines, to extlinux.conf.
func TestDeviceTreeFromTheMachineLine(t *testing.T) {
	// On a resume: the suspend's tests are where an x86 laptop's
	// nvme.noacpi=1 and BIOS update would come.
	const down = "[  800.000000] PM: suspend exit\n" +
		"[  812.104211] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n"
	d := diagnoseFailure(t, down)
	require.True(t, slices.ContainsFunc(d.Causes, func(c diagnose.Cause) bool {
		return slices.ContainsFunc(c.Tests, func(tst diagnose.Test) bool { return tst.Setting == "nvme.noacpi=1" })
	}), "without a machine line the laptop's test stays: %s", d.Summary)
	for _, tc := range []struct{ machine, where string }{
		{"[    0.000000] Machine model: Raspberry Pi 5 Model B Rev 1.0\n", "cmdline.txt"},
		{"[  300.000000] Hardware name: Radxa ROCK 5B (DT)\n", "/boot/extlinux/extlinux.conf"},
		// An RK3588 host's line under Armbian, another slot's (posted
		// q-03), its time moved before the failure's.
		{"[    8.541235] rk-pcie fe150000.pcie: PCIe Link Fail, LTSSM is 0x0, hw_retries=0\n", "/boot/extlinux/extlinux.conf"},
	} {
		d = diagnoseFailure(t, tc.machine+down)
		var where []string
		for _, c := range d.Causes {
			for _, tst := range c.Tests {
				assert.NotContains(t, tst.Action, "BIOS", tc.machine)
				assert.NotContains(t, tst.Setting, "noacpi", tc.machine)
				where = append(where, tst.Where...)
			}
		}
		if tc.where != "" {
			assert.True(t, slices.ContainsFunc(where, func(w string) bool { return strings.Contains(w, tc.where) }), "%s: %v", tc.machine, where)
		}
	}
}

// A bring-up that lost a race with another state change ("failed to mark
// controller live", then removed with status 0) is the kernel's, not a
// drive that stopped answering: an EBS volume hot-attached to an EC2
// instance, as https://github.com/coreos/bugs/issues/2371 shows it.
func TestBringUpRaceIsTheKernels(t *testing.T) {
	d := diagnoseFailure(t, "[ 2753.803879] nvme nvme2: pci function 0000:00:1e.0\n"+
		"[ 2753.805987] nvme 0000:00:1e.0: enabling device (0000 -> 0002)\n"+
		"[ 2753.919589] nvme nvme2: failed to mark controller live\n"+
		"[ 2753.920704] nvme nvme2: Removing after probe failure status: 0\n")
	assert.Equal(t, []diagnose.Layer{diagnose.LayerPlatform}, firstOf(&d), d.Summary)
	require.NotEmpty(t, d.Causes[0].Evidence)
	assert.Contains(t, d.Causes[0].Evidence[0].Text, "race in the kernel")
	for _, c := range d.Causes {
		for _, e := range c.Evidence {
			assert.NotContains(t, e.Text, "stopped answering", c.Layer)
		}
	}
}

// Two drives that fail their bring-up together (an IOMMU change under
// test: iommu + linux-kselftest, Message-ID
// <pntkuh63y26rygrkxegbzncvc3shtplucrnzkkz2dimpkfyn75@uekvyuz5kred>, posted
// e-13): the driver core's "probe with driver nvme failed" lines, of
// functions the log ties to no controller, sum up what the controllers
// said; the diagnosis is of a controller, whose unanswered Identify is the
// bring-up failing. After a reset failure the same Identify line is a
// reset's, no bring-up.
func TestBringUpOfTwoControllers(t *testing.T) {
	const log = "[   72.171930] nvme nvme0: I/O tag 0 (0000) QID 0 timeout, disable controller\n" +
		"[   72.179618] nvme nvme1: I/O tag 24 (0018) QID 0 timeout, disable controller\n" +
		"[   72.197176] nvme nvme0: Identify Controller failed (-4)\n" +
		"[   72.203063] nvme nvme1: Identify Controller failed (-4)\n" +
		"[   72.209237] nvme 0000:05:00.0: probe with driver nvme failed with error -5\n" +
		"[   72.209336] nvme 0000:44:00.0: probe with driver nvme failed with error -5\n"
	d := diagnoseFailure(t, log)
	assert.Equal(t, "nvme1", d.Controller, d.Summary)
	assert.True(t, strings.HasPrefix(d.Summary, "nvme1: possibly platform (line 4: the drive stopped answering while the driver brought it up)"), d.Summary)

	// An AER recovery's reset (linux-pci, posted b-15): its Identify is
	// a running controller's reset, the link's failure before it.
	reset := "[ 6265.348320] nvme nvme1: frozen state error detected, reset controller\n" +
		"[ 6265.635289] nvme nvme1: restart after slot reset\n" +
		"[ 6326.988701] nvme nvme1: Identify Controller failed (-4)\n" +
		"[ 6326.995253] nvme nvme1: Disabling device after reset failure: -5\n"
	d = diagnoseFailure(t, reset)
	for _, c := range d.Causes {
		for _, e := range c.Evidence {
			assert.NotContains(t, e.Text, "while the driver brought it up", "a reset's Identify: %s", d.Summary)
		}
	}
}

// An interrupt the kernel disabled after the drive's controller went down
// is the failed controller's doing (it raises its interrupt with nothing
// to complete, so nvme_irq handles none): no sign of the platform's
// interrupt routing, which the same line before a failure is. The lines
// of blog.nerdz.cloud's 990 PRO (a tuning thread, the drive replaced) and
// nvme-pci's timeout line.
func TestLostInterruptAfterDown(t *testing.T) {
	const down = "nvme nvme1: controller is down; will reset: CSTS=0x3, PCI_STATUS=0x11\n"
	const irq = "Disabling IRQ #173\n"
	after := diagnoseFailure(t, down+irq)
	assert.NotEqual(t, []diagnose.Layer{diagnose.LayerPlatform}, verdict(&after), after.Summary)
	c := causeOf(&after, diagnose.LayerPlatform)
	assert.LessOrEqual(t, c.Score, 2, after.Summary)
	require.NotEmpty(t, c.Evidence)
	assert.Contains(t, c.Evidence[0].Text, "after the controller went down (line 1)")

	before := diagnoseFailure(t, "[   10.000000] "+irq+"[   40.000000] nvme nvme1: I/O 12 QID 3 timeout, aborting\n")
	assert.Equal(t, []diagnose.Layer{diagnose.LayerPlatform}, verdict(&before), before.Summary)
}

// A drive a host hands to a virtual machine (Xen's pciback here) that did
// not come back from the FLR the passthrough asked for: the passthrough's
// reset, with the way to use another; the port's AER of the same reset is
// no longer "likely" the link. The lines as a Xen user posted them
// (xen-devel, CAKhsbWaeniirR5ZiOn_ixa51Z_HrfiAQ3mUpevykxTjo+o8G-g@mail.gmail.com),
// unwrapped.
func TestPassthroughResetFailed(t *testing.T) {
	d := diagnoseFailure(t, "[  574.623143] pciback 0000:05:00.0: xen_pciback: resetting (FLR, D3, etc) the device\n"+
		"[  574.623203] pcieport 0000:00:1d.0: DPC: containment event, status:0x1f11 source:0x0000\n"+
		"[  574.623209] pcieport 0000:00:1d.0: PCIe Bus Error: severity=Uncorrected (Non-Fatal), type=Transaction Layer, (Receiver ID)\n"+
		"[  574.623261] pcieport 0000:00:1d.0:    [21] ACSViol                (First)\n"+
		"[  643.667069] pciback 0000:05:00.0: not ready 65535ms after FLR; giving up\n")
	assert.NotEqual(t, diagnose.Likely, d.Causes[0].Likelihood, d.Summary)
	var found bool
	for _, c := range d.Causes {
		if c.Layer != diagnose.LayerPlatform {
			continue
		}
		require.NotEmpty(t, c.Evidence, d.Summary)
		assert.Contains(t, c.Evidence[0].Text, "passthrough driver (pciback)")
		found = slices.ContainsFunc(c.Tests, func(tst diagnose.Test) bool {
			return strings.Contains(tst.Command, "/sys/bus/pci/devices/0000:05:00.0/reset_method")
		})
	}
	assert.True(t, found, d.Summary)
}

// On POWER the platform's test is its system firmware's level, not a BIOS
// (which it has not, nor DMI): a warning in arch/powerpc's IOMMU code from
// the NVMe driver's reset work, in a kernel built from a tree named by its
// absolute path (Srikar Dronamraju, linuxppc-dev, Message-ID:
// <20230323095333.GI1005120@linux.vnet.ibm.com>, posted zh-09), and EEH's
// report of a frozen endpoint (posted ze-01, a PM1735 on a POWER LPAR:
// linux-nvme, Message-ID: <4300e404-39ab-4b76-82a6-2d583a9386c2@redhat.com>).
func TestPowerHasNoBIOS(t *testing.T) {
	for name, log := range map[string]string{
		"a warning in arch/powerpc": ` WARNING: CPU: 242 PID: 1219 at /home/srikar/work/linux.git/arch/powerpc/kernel/iommu.c:227 iommu_range_alloc+0x3d4/0x450
 Workqueue: nvme-reset-wq nvme_reset_work [nvme]
 NIP [c00000000005a134] iommu_range_alloc+0x3d4/0x450
 Call Trace:
 [c00007fd4c7eba60] [c0080001093210d8] nvme_alloc_queue+0x90/0x2b0 [nvme]
 [c00007fd4c7ebac0] [c008000109326034] nvme_reset_work+0x44c/0x1870 [nvme]
 ---[ end trace 01e0ce48acf1df9b ]---
 nvme nvme0: Removing after probe failure status: -12
`,
		"EEH": `[Thu Jan 15 14:25:29 2026] EEH: Frozen PHB#18-PE#10000 detected
[Thu Jan 15 14:25:29 2026] PCI 0018:01:00.0#10000: EEH: Invoking nvme->error_detected(IO frozen)
[Thu Jan 15 14:25:29 2026] nvme nvme0: frozen state error detected, reset controller
[Thu Jan 15 14:25:31 2026] nvme nvme0: Removing after probe failure status: -19
`,
	} {
		t.Run(name, func(t *testing.T) {
			d := diagnoseFailure(t, log)
			c := causeOf(&d, diagnose.LayerPlatform)
			require.NotEmpty(t, c.Tests, d.Summary)
			var firmware bool
			for _, ts := range c.Tests {
				assert.NotContains(t, ts.Command, "/sys/class/dmi/")
				assert.NotContains(t, ts.Action, "BIOS")
				firmware = firmware || strings.Contains(ts.Action, "the server's newest system firmware")
			}
			assert.True(t, firmware, "%+v", c.Tests)
		})
	}
}

// An uncorrected AER report whose status is an ACS Violation alone is a
// request the port's Access Control Services forbade: the platform's
// setting, not the link's signal, and the recovery after it no link
// error whose report is missing (an S3 resume on a kernel that enabled
// ACS there, Kai-Heng Feng, linux-pci, Message-ID:
// <CAAd53p7FfRCgfC5dGL3HyP+rbVtR2VCfMPYBBvJ=-DFCWFeVPA@mail.gmail.com>,
// posted zg-03). The same report with a receiver error beside it is the
// link's.
func TestACSViolationIsNoLinkError(t *testing.T) {
	const report = `[   50.947816] pcieport 0000:00:1b.0: DPC: containment event, status:0x1f01 source:0x0000
[   50.947829] pcieport 0000:00:1b.0: PCIe Bus Error: severity=Uncorrected (Non-Fatal), type=Transaction Layer, (Receiver ID)
[   50.947830] pcieport 0000:00:1b.0:   device [8086:06ac] error status/mask=%s/00010000
[   50.947843] nvme nvme0: frozen state error detected, reset controller
[   50.951730] nvme nvme0: Removing after probe failure status: -19
`
	for _, tc := range []struct {
		status string
		acs    bool
	}{{"00200000", true}, {"00200001", false}} {
		t.Run(tc.status, func(t *testing.T) {
			d := diagnoseFailure(t, fmt.Sprintf(report, tc.status))
			var acs bool
			for _, e := range causeOf(&d, diagnose.LayerPlatform).Evidence {
				acs = acs || strings.HasPrefix(e.Text, "the port blocked a request of the drive's under its Access Control Services")
			}
			assert.Equal(t, tc.acs, acs, d.Summary)
			var linkAER bool
			for _, e := range causeOf(&d, diagnose.LayerLink).Evidence {
				linkAER = linkAER || strings.Contains(e.Text, "uncorrected AER error report") || strings.Contains(e.Text, "whose report the log does not hold")
			}
			assert.Equal(t, !tc.acs, linkAER, "%+v", causeOf(&d, diagnose.LayerLink).Evidence)
		})
	}
}

// A drive that stopped answering as it was brought up, in a log where
// another driver's device failed its probe too, points at what the two
// share (an AMD IOMMU's page-table change that timed out both an NVMe
// probe and a ConnectX's, iommu list, Message-ID
// <abd93b56-3a25-4ae7-8a35-8ff6c3727e66@oracle.com>, posted zp-02).
func TestProbeFailedBesideAnotherDevice(t *testing.T) {
	const nvme = "[   72.171930] nvme nvme0: I/O tag 0 (0000) QID 0 timeout, disable controller\n" +
		"[   72.197176] nvme nvme0: Identify Controller failed (-4)\n" +
		"[   72.209237] nvme 0000:05:00.0: probe with driver nvme failed with error -5\n"
	const other = "[  134.386593] mlx5_core 0000:61:00.0: probe with driver mlx5_core failed with error -110\n"
	has := func(d diagnose.Diagnosis) bool {
		for _, e := range causeOf(&d, diagnose.LayerPlatform).Evidence {
			if strings.HasPrefix(e.Text, "another driver's device failed to come up in this log too") {
				assert.Equal(t, 4, e.Line)
				assert.Equal(t, strings.TrimSpace(other), e.Quote)
				return true
			}
		}
		return false
	}
	l, err := kernlog.ReadString(nvme+other, kernlog.Options{})
	require.NoError(t, err)
	d := diagnose.Diagnose(diagnose.Input{Log: l})
	assert.True(t, has(d), d.Summary)
	assert.False(t, has(diagnoseFailure(t, nvme)))
}

// The firmware's _OSC that failed is the platform's evidence beside a
// drive's failure, never a failure by itself (a Razer Blade's probe after
// a patched SSDT, posted zn-04).
func TestOSCFailedIsThePlatforms(t *testing.T) {
	const osc = "[    0.235414] acpi PNP0A08:00: _OSC failed (AE_ERROR); disabling ASPM\n"
	assertEvidence(t, osc+"[    2.715192] nvme nvme0: Removing after probe failure status: -19\n", "the firmware's _OSC method failed")
	l, err := kernlog.ReadString(osc+"[    1.000000] nvme nvme0: 16/0/0 default/read/poll queues\n", kernlog.Options{})
	require.NoError(t, err)
	assert.False(t, diagnose.Diagnose(diagnose.Input{Log: l}).Failure)
}

// A drive whose registers got no address is the platform's, likely: the
// kernel's own pci=realloc first, then the source of the bridge windows
// (a board's device tree, a PC's firmware setup, both where the log does
// not say which); the nvme driver's -ENOMEM after its failed enable is no
// lack of memory; and the RockPro64's 5.13-rc regression is matched by
// its release. The lines are the RockPro64 report's (linux-pci, lore
// 7a1e2ebc-f7d8-8431-d844-41a9c36a8911@arm.com) and setup-res.c's enable
// failure as 6.8 words it.
func TestUnassignedBARPlatform(t *testing.T) {
	const (
		rockpro = "[    0.378765] pci 0000:01:00.0: [144d:a808] type 00 class 0x010802\n" +
			"[    0.393356] pci 0000:01:00.0: BAR 0: no space for [mem size 0x00004000 64bit]\n" +
			"[    0.393375] pci 0000:01:00.0: BAR 0: failed to assign [mem size 0x00004000 64bit]\n"
		enable = "[    1.000000] nvme nvme0: pci function 0000:01:00.0\n" +
			"[    1.100000] nvme 0000:01:00.0: BAR 0 [mem size 0x00004000 64bit]: not assigned; can't enable device\n" +
			"[    1.200000] nvme 0000:01:00.0: probe with driver nvme failed with error -12\n"
	)
	for _, tc := range []struct {
		name, log string
		line      int
		dt, pc    bool // the tests given
		known     bool // of-pci-mem64-5.13-rc matched
	}{
		{name: "PCI core, machine unknown", log: rockpro, line: 3, dt: true, pc: true},
		{name: "PCI core, 5.13-rc3 on a board", log: "[    0.000000] Linux version 5.13.0-rc3 (x@y) #1 SMP PREEMPT\n[    0.000000] Machine model: Pine64 RockPro64 v2.0\n" + rockpro, line: 5, dt: true, known: true},
		{name: "driver's enable on a PC", log: "[    0.000000] DMI: LENOVO 20XW/20XW, BIOS N32ET75W (1.51 ) 10/19/2021\n" + enable, line: 3, pc: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := diagnoseFailure(t, tc.log)
			require.Equal(t, []diagnose.Layer{diagnose.LayerPlatform}, firstOf(&d), d.Summary)
			c := d.Causes[0]
			assert.Equal(t, diagnose.Likely, c.Likelihood, d.Summary)
			require.NotEmpty(t, c.Evidence)
			assert.Equal(t, tc.line, c.Evidence[0].Line, d.Summary)
			assert.True(t, strings.HasPrefix(c.Evidence[0].Text, "the drive's registers got no address"), c.Evidence[0].Text)
			for _, ev := range c.Evidence {
				assert.NotContains(t, ev.Text, "lack of memory", "the enable's -ENOMEM")
			}
			require.NotEmpty(t, c.Tests)
			assert.Equal(t, "pci=realloc", c.Tests[0].Setting)
			actions := ""
			for _, test := range c.Tests {
				actions += test.Action + "\n"
			}
			assert.Equal(t, tc.dt, strings.Contains(actions, "on a board with a device tree"), actions)
			assert.Equal(t, tc.pc, strings.Contains(actions, "on a PC or server"), actions)
			matched := slices.ContainsFunc(d.Known, func(k diagnose.Known) bool { return k.ID == "of-pci-mem64-5.13-rc" })
			assert.Equal(t, tc.known, matched)
		})
	}
}

// A function's BAR 0 that the PCI core could not assign, in a log that
// never says what the function is (a patch's four quoted lines, posted
// zv-02): possibly the drive, never likely, with lspci to tell; a log that
// shows the function as another class, or names a drive elsewhere, holds
// no failure.
func TestUnassignedBARUnnamedFunction(t *testing.T) {
	const spx = "[ 0.150731] pci 0002:00:00.0: BAR 14: no space for [mem size 0x00100000]\n" +
		"[ 0.150744] pci 0002:00:00.0: BAR 14: failed to assign [mem size 0x00100000]\n" +
		"[ 0.150758] pci 0002:01:00.0: BAR 0: no space for [mem size 0x00004000 64bit]\n" +
		"[ 0.150769] pci 0002:01:00.0: BAR 0: failed to assign [mem size 0x00004000 64bit]\n"
	d := diagnoseFailure(t, spx)
	require.Equal(t, []diagnose.Layer{diagnose.LayerPlatform}, firstOf(&d), d.Summary)
	c := d.Causes[0]
	assert.Equal(t, diagnose.Possible, c.Likelihood, d.Summary)
	require.NotEmpty(t, c.Evidence)
	assert.Equal(t, 4, c.Evidence[0].Line)
	assert.True(t, strings.HasPrefix(c.Evidence[0].Text, "the registers of a function the log never names got no address"), c.Evidence[0].Text)
	require.GreaterOrEqual(t, len(c.Tests), 2)
	assert.Equal(t, "lspci -nn -s 0002:01:00.0", c.Tests[0].Command)
	assert.Equal(t, "pci=realloc", c.Tests[1].Setting)

	for name, log := range map[string]string{
		"Wi-Fi's class line": "[ 0.150700] pci 0002:01:00.0: [8086:2723] type 00 class 0x028000\n" + spx,
		"a drive named":      spx + "[ 1.000000] nvme nvme0: pci function 0003:01:00.0\n",
	} {
		t.Run(name, func(t *testing.T) {
			summaryOf(t, log, false, "")
		})
	}
}
