package kernlog_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// kindCase is a real log line and the event it reads as (the fields the
// test names; Line, Time, Text and Raw are checked elsewhere).
type kindCase struct {
	source string // where the line was posted
	line   string
	want   kernlog.Event
}

// checkKinds reads each case's line alone and compares its one event with
// want, Kind and the fields want sets.
func checkKinds(t *testing.T, cases []kindCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.line, func(t *testing.T) {
			l, err := kernlog.ReadString(tc.line+"\n", kernlog.Options{})
			require.NoError(t, err)
			require.Len(t, l.Incidents, 1, "source %s", tc.source)
			require.Len(t, l.Incidents[0].Events, 1)
			got := l.Incidents[0].Events[0]
			assert.NotEmpty(t, got.Raw)
			assert.Equal(t, got.Line, got.EndLine)
			got.Line, got.EndLine, got.Time, got.Text, got.Raw, got.Driver, got.Device = 0, 0, kernlog.Timestamp{}, "", "", "", ""
			assert.Equal(t, tc.want, got, "source %s", tc.source)
		})
	}
}

func TestSleepKinds(t *testing.T) {
	const (
		hackmd    = "https://hackmd.io/@0xff07/SkEhGOla6"
		imx       = "https://lore.kernel.org/stable/ZhjK-nJQKVr5RcgZ@atmark-techno.com/"
		amd       = "nvme-pci: StorageD3Enable quirks commit 6e597263f990, https://source-hub.etos-pro.ru/microsoft/WSL2-Linux-Kernel/src/commit/6e597263f990a2db99e7380debc4044c38867971/drivers/acpi"
		nvidia    = "https://github.com/pop-os/pop/issues/3590"
		mintHib   = "Linux Mint forum, \"Resuming from hibernation brings up GRUB boot menu but resume works after that\", 2022-05-20"
		herobrine = "https://lore.kernel.org/all/ah3agpwmcDfn9plX@google.com/"
	)
	checkKinds(t, []kindCase{
		{hackmd, "[  147.319976] PM: suspend entry (deep)", kernlog.Event{Kind: kernlog.SuspendEntry, Mode: "deep"}},
		{"https://github.com/AsahiLinux/linux/issues/421", "[144958.032133] PM: suspend entry (s2idle)", kernlog.Event{Kind: kernlog.SuspendEntry, Mode: "s2idle"}},
		{hackmd, "[  147.812314] ACPI: PM: Preparing to enter system sleep state S3", kernlog.Event{Kind: kernlog.SuspendEntry, Mode: "S3"}},
		{"https://github.com/wezterm/wezterm/issues/4404 (the older spelling)", "[Sat Oct  7 16:30:18 2023] ACPI: Preparing to enter system sleep state S3", kernlog.Event{Kind: kernlog.SuspendEntry, Mode: "S3"}},
		{mintHib, "May 20 15:30:28 dellfvw kernel: [20551.394369] PM: hibernation entry", kernlog.Event{Kind: kernlog.SuspendEntry, Mode: "hibernation"}},
		{"the brief's shape", "[  100.000000] PM: Preparing system for sleep (s2idle)", kernlog.Event{Kind: kernlog.SuspendEntry, Mode: "s2idle"}},
		{"kernel 3.x shape", "[  100.000000] PM: Preparing system for mem sleep", kernlog.Event{Kind: kernlog.SuspendEntry, Mode: "mem"}},
		{imx, ">  [ 2614.754532] PM: suspend exit", kernlog.Event{Kind: kernlog.SuspendExit}},
		{imx, ">  [ 2614.730103] PM: resume devices took 0.080 seconds", kernlog.Event{Kind: kernlog.SuspendExit}},
		{"https://github.com/zen-kernel/zen-kernel/issues/264", "നവം 27 11:06:53 archie kernel: ACPI: PM: Waking up from system sleep state S3", kernlog.Event{Kind: kernlog.SuspendExit, Mode: "S3"}},
		{"https://github.com/NixOS/nixpkgs/issues/7271", "Apr 08 17:10:11 lucy kernel: ACPI: Waking up from system sleep state S3", kernlog.Event{Kind: kernlog.SuspendExit, Mode: "S3"}},
		{mintHib, "May 20 15:39:06 dellfvw kernel: PM: hibernation exit", kernlog.Event{Kind: kernlog.SuspendExit, Mode: "hibernation"}},
		// 4.x kernels' lines (kernel/power/suspend.c, kernel/power/process.c),
		// as a 4.2.0-41-generic syslog posted to a forum on 2016-07-11 and
		// a 14.04 one show them.
		{"a 4.2 syslog", "Jul 11 00:18:51 Charon kernel: [49741.274628] PM: Finishing wakeup.", kernlog.Event{Kind: kernlog.SuspendExit}},
		{"a 4.2 syslog", "Jul 11 00:18:51 Charon kernel: [49741.274632] Restarting tasks ... done.", kernlog.Event{Kind: kernlog.SuspendExit}},
		{"a 14.04 syslog", "Jan 10 14:26:00 ross-Laptop kernel: [99422.101415] PM: Syncing filesystems ... done.", kernlog.Event{Kind: kernlog.SuspendEntry}},
		{"a 14.04 syslog", "Jan 10 14:26:00 ross-Laptop kernel: [99422.146214] PM: Entering mem sleep", kernlog.Event{Kind: kernlog.SuspendEntry, Mode: "mem"}},
		{"6.16's spelling", "[  120.000000] Restarting tasks: Done", kernlog.Event{Kind: kernlog.SuspendExit}},
		{"6.x's pr_fmt", "[   34.435645] PM: hibernation: hibernation exit", kernlog.Event{Kind: kernlog.SuspendExit, Mode: "hibernation"}},
		// The freezer's and timekeeping's lines around a sleep, as
		// posted logs show them: a resume whose "done." came on a later
		// line (linux-pm, an ata2 resume log), a 6.x S3 cycle on arm64 and a
		// 5.x s2idle one with PM debug messages on (linux-acpi).
		{"a resume log on linux-pm", "[ 5580.280043] OOM killer enabled.", kernlog.Event{Kind: kernlog.SuspendExit}},
		{"a resume log on linux-pm", "[ 5580.280044] Restarting tasks ... ", kernlog.Event{Kind: kernlog.SuspendExit}},
		{"an arm64 S3 cycle", "[18292.133593] OOM killer disabled.", kernlog.Event{Kind: kernlog.SuspendEntry}},
		{"an arm64 S3 cycle", "[18295.693108] Restarting tasks: Starting", kernlog.Event{Kind: kernlog.SuspendExit}},
		{"an s2idle cycle on linux-acpi", ">> [   56.357057] PM: suspend-to-idle", kernlog.Event{Kind: kernlog.SuspendEntry, Mode: "s2idle"}},
		{"an s2idle cycle on linux-acpi", ">> [   69.338656] PM: Timekeeping suspended for 12.178 seconds", kernlog.Event{Kind: kernlog.SuspendExit}},
		{"an S3 resume", "[ 11.5] ACPI: PM: Low-level resume complete", kernlog.Event{Kind: kernlog.SuspendExit}},
		// drivers/acpi/sleep.c before its "ACPI: PM: " prefix.
		{"an older kernel's S3 resume", "[ 11.5] ACPI: Low-level resume complete", kernlog.Event{Kind: kernlog.SuspendExit}},
		// drivers/base/power/main.c's dpm_show_time and kernel/power/
		// suspend.c's suspend_test_finish, each phase's line.
		{"a devices' noirq resume", "[ 11.6] PM: noirq resume of devices complete after 2.345 msecs", kernlog.Event{Kind: kernlog.SuspendExit}},
		{"a devices' early resume", "[ 11.6] PM: early resume of devices complete after 1.234 msecs", kernlog.Event{Kind: kernlog.SuspendExit}},
		{"a hibernation's restore", "[ 11.6] PM: restore of devices complete after 250.500 msecs", kernlog.Event{Kind: kernlog.SuspendExit}},
		{"a devices' late suspend", "[ 10.6] PM: late suspend of devices complete after 1.200 msecs", kernlog.Event{Kind: kernlog.SuspendEntry}},
		{"a devices' suspend", "[ 10.6] PM: suspend of devices complete after 120.500 msecs", kernlog.Event{Kind: kernlog.SuspendEntry}},
		{"a hibernation's freeze", "[ 10.6] PM: freeze of devices complete after 100.100 msecs", kernlog.Event{Kind: kernlog.SuspendEntry}},
		{"the devices' suspend timed", "[ 10.6] PM: suspend devices took 0.512 seconds", kernlog.Event{Kind: kernlog.SuspendEntry}},
		// The lines beside the PM core's that an excerpt keeps: a Renesas
		// RZ/G3E board's deep sleep and a 5.x one on linux-renesas-soc and
		// KernelCI's reports, an s2idle suspend's end on linux-kernel, a
		// Raspberry Pi 4's S2 cycle (bcmgenet's list) and two Ubuntu
		// syslogs' S3 resumes with the older "PM: Restoring ..." spelling.
		{"a deep sleep on an RZ/G3E board", "[   68.714523] Filesystems sync: 0.000 seconds", kernlog.Event{Kind: kernlog.SuspendEntry}},
		{"a deep sleep on an RZ/G3E board", "[   68.720402] Freezing user space processes", kernlog.Event{Kind: kernlog.SuspendEntry}},
		{"a deep sleep on an RZ/G3E board", "[   68.726527] Freezing user space processes completed (elapsed 0.001 seconds)", kernlog.Event{Kind: kernlog.SuspendEntry}},
		{"a KernelCI suspend, 2021", "<6>[   27.347865] Freezing user space processes ... (elapsed 0.001 seconds) done.", kernlog.Event{Kind: kernlog.SuspendEntry}},
		{"a MacBook's syslog", "Sep 11 16:04:13 macbookpro kernel: Freezing remaining freezable tasks", kernlog.Event{Kind: kernlog.SuspendEntry}},
		{"an S3 cycle on linux-kernel", "[41805.011502] printk: Suspending console(s) (use no_console_suspend to debug)", kernlog.Event{Kind: kernlog.SuspendEntry}},
		{"an S3 cycle on linux-kernel", "[41805.523883] ACPI: EC: interrupt blocked", kernlog.Event{Kind: kernlog.SuspendEntry}},
		{"a Raspberry Pi 4's S2 cycle", "[ 3450.048340] Disabling non-boot CPUs ...", kernlog.Event{Kind: kernlog.SuspendEntry}},
		{"a Raspberry Pi 4's S2 cycle", "[ 3450.051332] Enabling non-boot CPUs ...", kernlog.Event{Kind: kernlog.SuspendExit}},
		{"an Ubuntu syslog's S3 resume", "Jun 19 19:21:04 teal kernel: [33987.814266] PM: Restoring platform NVS memory", kernlog.Event{Kind: kernlog.SuspendExit}},
		{"an S3 suspend's steps", "[38588.400000] ACPI: PM: Saving platform NVS memory", kernlog.Event{Kind: kernlog.SuspendEntry}},
		{"an HP laptop's resume on kvm@ (aZWctruDVn8aMZBG@debian.local)", "<5>[240548.183523] random: crng reseeded on system resumption", kernlog.Event{Kind: kernlog.SuspendExit}},
		// PM errors: the phase, the errno, the function when named.
		{amd, "[ 95.332909] PM: dpm_run_callback(): pci_pm_resume+0x0/0xe0 returns -16", kernlog.Event{Kind: kernlog.PMError, Phase: "resume", Errno: -16}},
		{amd, "[ 95.332936] nvme 0000:03:00.0: PM: failed to resume async: error -16", kernlog.Event{Kind: kernlog.PMError, Phase: "resume", Errno: -16, PCI: "0000:03:00.0"}},
		{imx, ">  [ 2614.649504] PM: Some devices failed to suspend, or early wake event detected", kernlog.Event{Kind: kernlog.PMError, Phase: "suspend"}},
		{nvidia, "Sep 18 13:02:38 pop-os kernel: [14902.841346] nvidia 0000:01:00.0: PM: pci_pm_suspend(): nv_pmops_suspend [nvidia] returns -5", kernlog.Event{Kind: kernlog.PMError, Phase: "suspend", Errno: -5, PCI: "0000:01:00.0"}},
		{nvidia, "Sep 18 13:02:38 pop-os kernel: [14902.842398] nvidia 0000:01:00.0: PM: dpm_run_callback(): pci_pm_suspend returns -5", kernlog.Event{Kind: kernlog.PMError, Phase: "suspend", Errno: -5, PCI: "0000:01:00.0"}},
		{"bugzilla.kernel.org 216728 (posted h-05, a laptop's xhci after S3)", "[  332.203654] xhci_hcd 0000:38:00.0: PCI post-resume error -19!", kernlog.Event{Kind: kernlog.PMError, Phase: "resume", Errno: -19, PCI: "0000:38:00.0"}},
		{"the brief's older shape", "[   50.000000] PM: Device 0000:01:00.0 failed to resume async: error -16", kernlog.Event{Kind: kernlog.PMError, Phase: "resume", Errno: -16, PCI: "0000:01:00.0"}},
		{"the brief", "[   50.000000] PM: failed to suspend async: error -16", kernlog.Event{Kind: kernlog.PMError, Phase: "suspend", Errno: -16}},
		{"the brief", "[   50.000000] nvme 0000:01:00.0: PM: pci_pm_suspend(): nvme_suspend+0x0/0x150 returns -16", kernlog.Event{Kind: kernlog.PMError, Phase: "suspend", Errno: -16, PCI: "0000:01:00.0"}},
		{"Kai-Heng Feng on stable@, 2022-05 (a Dell's failed S3)", "[   43.695342] PM: late suspend of devices failed", kernlog.Event{Kind: kernlog.PMError, Phase: "suspend"}},
		// A Qualcomm SC7280 laptop's drive that did not come back from
		// suspend-to-RAM, as its reporter quoted it: the PCI core had no
		// record of its state, and the PM core's watchdog fired on its
		// callback (which phase, the line does not say).
		{herobrine, "[   58.384442] nvme 0001:01:00.0: Unable to change power state from unknown to D0, device inaccessible",
			kernlog.Event{Kind: kernlog.ResumeFailure, FromState: "unknown", PCI: "0001:01:00.0"}},
		{herobrine, "[   68.875606] nvme 0001:01:00.0: PM: **** DPM device timeout ****", kernlog.Event{Kind: kernlog.PMError, PCI: "0001:01:00.0"}},
	})
}

// A sleep is counted once however many of its lines the log has: an S3
// cycle's suspend prints "PM: suspend entry", "OOM killer disabled." and
// "Preparing to enter system sleep state S3", its resume four lines more;
// a second cycle counts again, and the lines stay kept as events.
func TestSleepCountsCycles(t *testing.T) {
	cycle := `[  100.000000] PM: suspend entry (deep)
[  100.200000] OOM killer disabled.
[  101.000000] ACPI: PM: Preparing to enter system sleep state S3
[  105.000000] ACPI: PM: Waking up from system sleep state S3
[  106.000000] OOM killer enabled.
[  106.100000] Restarting tasks ... done.
[  106.200000] PM: suspend exit
`
	for n, log := range map[int]string{1: cycle, 2: cycle + strings.ReplaceAll(cycle, "[  10", "[  11")} {
		l, err := kernlog.ReadString(log, kernlog.Options{})
		require.NoError(t, err)
		require.Len(t, l.Incidents, 1)
		in := l.Incidents[0]
		assert.Equal(t, map[kernlog.Kind]int{kernlog.SuspendEntry: n, kernlog.SuspendExit: n}, in.Counts, "%d cycles", n)
		assert.Len(t, in.Events, 7*n)
	}
}

// The embedded controller's "interrupt unblocked" ends a suspend only
// after its "interrupt blocked": every boot prints it at the EC's probe
// (an HP laptop's resume posted to kvm@, aZWctruDVn8aMZBG@debian.local,
// and a boot log's EC lines), and a drive failing at probe is not on a
// resume; a "blocked" in a boot's first seconds is the probe's too.
func TestECUnblockedIsAResumeOnlyAfterBlocked(t *testing.T) {
	resume := `<6>[207132.447702] ACPI: EC: interrupt blocked
<6>[240547.393406] ACPI: EC: interrupt unblocked
`
	boot := `[    0.287093] ACPI: EC: interrupt unblocked
[    0.287096] ACPI: EC: event unblocked
`
	// Some EC probes block the interrupt first, then unblock it a few
	// seconds later (an Intel laptop's boot in a linux-pm suspend
	// stress test, posted zf-08): no suspend either.
	probe := `[    5.216292] ACPI: EC: EC started
[    5.216309] ACPI: EC: interrupt blocked
[    9.731124] ACPI: EC: interrupt unblocked
`
	// Older kernels' query-event lines (drivers/acpi/ec.c): a resume's
	// "event unblocked" well past a boot's first seconds with no
	// "blocked" before it, as an excerpt that starts mid-resume has it
	// (Kai-Heng Feng's S3 resume, linux-pci, Message-ID:
	// <CAAd53p7FfRCgfC5dGL3HyP+rbVtR2VCfMPYBBvJ=-DFCWFeVPA@mail.gmail.com>),
	// and a suspend's "event blocked".
	midResume := "[   50.948400] ACPI: EC: event unblocked\n"
	eventPair := "[  812.400112] ACPI: EC: event blocked\n[  812.400130] ACPI: EC: interrupt blocked\n[  840.100007] ACPI: EC: interrupt unblocked\n[  840.100020] ACPI: EC: event unblocked\n"
	for log, want := range map[string]map[kernlog.Kind]int{
		resume:    {kernlog.SuspendEntry: 1, kernlog.SuspendExit: 1},
		boot:      nil,
		probe:     nil,
		midResume: {kernlog.SuspendExit: 1},
		eventPair: {kernlog.SuspendEntry: 1, kernlog.SuspendExit: 1}, // one sleep, its lines counted once
		// No time since boot to tell a probe's from a resume's.
		"ACPI: EC: event unblocked\n": nil,
		// A second boot's probe after a suspend that never came back.
		`[    0.0] Linux version 6.8.0
` + strings.SplitAfter(resume, "\n")[0] + `[    0.0] Linux version 6.8.0
` + boot: {kernlog.SuspendEntry: 1},
	} {
		l, err := kernlog.ReadString(log, kernlog.Options{})
		require.NoError(t, err)
		got := map[kernlog.Kind]int{}
		for _, in := range l.Incidents {
			for k, n := range in.Counts {
				got[k] += n
			}
		}
		if want == nil {
			want = map[kernlog.Kind]int{}
		}
		assert.Equal(t, want, got, log)
	}
}

// A line's own "****" is kept; Markdown's bold around a pasted line is
// not.
func TestStarsOfTheLineAreKept(t *testing.T) {
	for log, raw := range map[string]string{
		"[   68.875606] nvme 0001:01:00.0: PM: **** DPM device timeout ****":     "[   68.875606] nvme 0001:01:00.0: PM: **** DPM device timeout ****",
		"**[   68.875606] nvme 0001:01:00.0: PM: **** DPM device timeout ******": "[   68.875606] nvme 0001:01:00.0: PM: **** DPM device timeout ****",
	} {
		l, err := kernlog.ReadString(log+"\n", kernlog.Options{})
		require.NoError(t, err)
		require.Len(t, l.Incidents, 1)
		assert.Equal(t, raw, l.Incidents[0].Events[0].Raw)
	}
}

func TestPlatformKinds(t *testing.T) {
	const lattePanda = "https://github.com/LattePandaTeam/LattePanda-Mu/issues/14"
	checkKinds(t, []kindCase{
		{"https://lore.kernel.org/all/92ee253f-bf6a-481a-acc2-daf26d268395@riscstar.com/", "   pci 0000:01:00.0: ASPM: DT platform, enabling ClockPM",
			kernlog.Event{Kind: kernlog.ASPMPlatform, PCI: "0000:01:00.0"}},
		{"https://github.com/KastB/r8169/issues/8", "kernel: r8169 0000:02:00.0: can't disable ASPM; OS doesn't have ASPM control",
			kernlog.Event{Kind: kernlog.ASPMPlatform, PCI: "0000:02:00.0"}},
		// Its sibling, when a driver asks to enable a state (vmd does
		// for the drives behind it; drivers/pci/pcie/aspm.c).
		{"aspm.c's format", "[    2.000000] nvme 10000:e1:00.0: can't override BIOS ASPM; OS doesn't have ASPM control",
			kernlog.Event{Kind: kernlog.ASPMPlatform, PCI: "10000:e1:00.0"}},
		{lattePanda, "[    0.035200] PCIe ASPM is disabled", kernlog.Event{Kind: kernlog.ASPMPlatform}},
		{lattePanda, "[    0.123456] ACPI FADT declares the system doesn't support PCIe ASPM, so disable it", kernlog.Event{Kind: kernlog.ASPMPlatform}},
		{lattePanda, "[    0.354349] acpi PNP0A08:00: FADT indicates ASPM is unsupported, using BIOS configuration", kernlog.Event{Kind: kernlog.ASPMPlatform}},
		{"the brief", "[    0.500000] pcieport 0000:00:1c.0: ASPM: current common clock configuration is inconsistent, reconfiguring",
			kernlog.Event{Kind: kernlog.ASPMPlatform, PCI: "0000:00:1c.0"}},
		{"the brief", "[    0.500000] PCIe ASPM is not supported", kernlog.Event{Kind: kernlog.ASPMPlatform}},
		// Interrupts nobody handled.
		{"https://github.com/Dunedan/mbp-2016-linux/issues/9", `[  104.774723] irq 21: nobody cared (try booting with the "irqpoll" option)`, kernlog.Event{Kind: kernlog.LostInterrupt, IRQ: 21}},
		{"https://github.com/Dunedan/mbp-2016-linux/issues/9", "[  104.774789] Disabling IRQ #21", kernlog.Event{Kind: kernlog.LostInterrupt, IRQ: 21}},
		// handle_bad_irq's dump of an interrupt with no flow handler
		// (kernel/irq/debug.h, print_irq_desc): its handler line names
		// nvme's; the lines before it are not events.
		{"https://lore.kernel.org/all/SN6PR02MB41573141969F6B3028099C65D442A@SN6PR02MB4157.namprd02.prod.outlook.com/",
			"[   84.556896] ->action->handler(): 00000000e15d8191, nvme_irq+0x0/0x3e8", kernlog.Event{Kind: kernlog.LostInterrupt, Action: kernlog.ActionBadIRQ}},
		// A timeout that ends in "completion polled" stays a timeout.
		{"https://github.com/starfive-tech/VisionFive2/issues/36", "[60386.019927] nvme nvme0: I/O 210 QID 4 timeout, completion polled",
			kernlog.Event{Kind: kernlog.IOTimeout, Controller: "nvme0", Tag: 210, QID: 4, Action: "completion polled"}},
		{"https://github.com/inindev/nanopi-r5/issues/23", "[  107.508575] nvme nvme0: I/O 12 QID 0 timeout, completion polled",
			kernlog.Event{Kind: kernlog.AdminTimeout, Controller: "nvme0", Tag: 12, Action: "completion polled"}},
		// A paste that elided the ids keeps what the driver did; its words
		// say I/O, its queue is unknown.
		{"https://github.com/projectbluefin/lab/issues/298", "kernel: nvme nvme1: I/O tag ... timeout, completion polled",
			kernlog.Event{Kind: kernlog.IOTimeout, Controller: "nvme1", Action: "completion polled"}},
		// nvme-tcp's own timeout line (tcp.c, nvme_tcp_timeout): the
		// queue, the request's tag in hex, and in 6.x the command id and
		// opcode; queue 0 is the admin queue (posted f-11, g-19, g-18).
		{"linux-nvme, Message-ID: <MW3PR11MB4684AEE8587BFCC0A9F41DE4E5F70@MW3PR11MB4684.namprd11.prod.outlook.com> (posted f-11)", "[ 1907.415517] nvme nvme0: queue 5: timeout request 0x11 type 6",
			kernlog.Event{Kind: kernlog.IOTimeout, Controller: "nvme0", Tag: 0x11, QID: 5}},
		{"linux-block, Message-ID: <1711488120.3435389.1602219830518.JavaMail.zimbra@redhat.com>", "[  787.052211] nvme nvme0: queue 4: timeout request 0x61 type 4",
			kernlog.Event{Kind: kernlog.IOTimeout, Controller: "nvme0", Tag: 0x61, QID: 4}},
		{"https://github.com/openebs/mayastor/issues/1330", "[  265.3] nvme nvme2: queue 0: timeout cid 0xb001 type 4 opcode 0x18 (Admin Cmd)",
			kernlog.Event{Kind: kernlog.AdminTimeout, Controller: "nvme2", CommandID: "b001", Opcode: 0x18, OpName: "Admin Cmd"}},
		// nvme-tcp's 6.x line with the PDU type (as the diagnose
		// package's fabrics test quotes it).
		{"tcp.c's 6.x format", "[  100.000000] nvme nvme1: I/O tag 12 (100c) type 4 opcode 0x1 (I/O Cmd) QID 2 timeout",
			kernlog.Event{Kind: kernlog.IOTimeout, Controller: "nvme1", Tag: 12, CommandID: "100c", Opcode: 1, OpName: "I/O Cmd", QID: 2}},
		// nvme-rdma's (and the older fabrics transports') line ends at
		// "timeout" (posted g-03).
		{"https://github.com/spdk/spdk/issues/1725", "[20204.410181] nvme nvme0: I/O 1 QID 0 timeout",
			kernlog.Event{Kind: kernlog.AdminTimeout, Controller: "nvme0", Tag: 1}},
	})
	// The ASPM line's Text is its body.
	l, err := kernlog.ReadString("kernel: r8169 0000:02:00.0: can't disable ASPM; OS doesn't have ASPM control\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Equal(t, "can't disable ASPM; OS doesn't have ASPM control", l.Incidents[0].Events[0].Text)
}

func TestDriverKinds(t *testing.T) {
	const rpi = "https://github.com/raspberrypi/rpi-eeprom/issues/378"
	checkKinds(t, []kindCase{
		{rpi, "[    1.322199] nvme nvme0: allocated 128 MiB host memory buffer.", kernlog.Event{Kind: kernlog.HostMemoryBuffer, Controller: "nvme0", Size: 128 << 20}},
		{rpi, "[    1.322337] nvme nvme0: failed to set host mem (err 8578, flags 0x1).", kernlog.Event{Kind: kernlog.HostMemoryBuffer, Controller: "nvme0", Status: 8578}},
		{"https://lore.kernel.org/all/92ee253f-bf6a-481a-acc2-daf26d268395@riscstar.com/", "   nvme nvme0: allocated 64 MiB host memory buffer (16 segments).",
			kernlog.Event{Kind: kernlog.HostMemoryBuffer, Controller: "nvme0", Size: 64 << 20}},
		{"https://github.com/QubesOS/qubes-issues/issues/9719", "**[    4.641186] nvme nvme1: failed to allocate host memory buffer.**", kernlog.Event{Kind: kernlog.HostMemoryBuffer, Controller: "nvme1"}},
		// The block layer on a disk whose capacity fell to zero (the
		// controller given up on, or removed), as posted to linux-pci and
		// quoted there; a capacity that grows is no event (TestSkipsWhatIsNotAnEvent).
		{"https://lore.kernel.org/all/20220124214635.GA1553164@bhelgaas/", "> [  178.004633] nvme5n1: detected capacity change from 83984375 to 0",
			kernlog.Event{Kind: kernlog.DiskGone, Disk: "nvme5n1", Controller: "nvme5", GuessedController: true}},
		// A step of nvme-core's namespace scan that failed, with the NVMe
		// status the drive answered (as the Seagate Nytro XM1440 quirk's
		// commit quotes it, and 5.x's spelling) or an errno (no answer).
		{"https://lore.kernel.org/all/20210310132323.463924004@linuxfoundation.org/", "[   13.239627] nvme nvme0: Identify Descriptors failed (8194)",
			kernlog.Event{Kind: kernlog.DriverError, Controller: "nvme0", Status: 8194}},
		{"core.c's format since 5.x", "[   13.239627] nvme nvme0: Identify Descriptors failed (nsid=1, status=0x2002)",
			kernlog.Event{Kind: kernlog.DriverError, Controller: "nvme0", Status: 0x2002}},
		{"core.c's format", "[   13.239627] nvme nvme0: Identify Descriptors failed (-4)",
			kernlog.Event{Kind: kernlog.DriverError, Controller: "nvme0", Errno: -4}},
		// nvme_configure_timestamp's warning (core.c) with an errno: the
		// controller did not answer at a start or a reset.
		{"core.c's format", "[  212.003456] nvme nvme0: could not set timestamp (-19)",
			kernlog.Event{Kind: kernlog.DriverError, Controller: "nvme0", Errno: -19}},
		// nvme_set_queue_count's error (core.c): a degraded controller
		// that answered Set Features Number of Queues with a status.
		{"core.c's format", "[    3.104512] nvme nvme0: Could not set queue count (16386)",
			kernlog.Event{Kind: kernlog.DriverError, Controller: "nvme0", Status: 16386}},
		// nvme-pci's reset work that found the controller live, not
		// resetting (pci.c, nvme_reset_work): the driver's own -19, as Jon
		// Hunter posted it from a Tegra194 board's resume (posted zc-10)
		// and without its time (posted zf-06).
		{"https://lore.kernel.org/all/9a76a4a7-c02c-436a-8f69-57606a6b2bed@nvidia.com/", ">>   [ 1003.050448] nvme nvme0: ctrl state 1 is not RESETTING",
			kernlog.Event{Kind: kernlog.ResetFailure, Action: kernlog.ActionNotResetting, Errno: -19, Controller: "nvme0"}},
		{"https://lore.kernel.org/all/cf1e685a-a1cb-45ec-bdc3-1ef1a3d1044e@nvidia.com/", "  nvme nvme0: ctrl state 1 is not RESETTING",
			kernlog.Event{Kind: kernlog.ResetFailure, Action: kernlog.ActionNotResetting, Errno: -19, Controller: "nvme0"}},
		// A USB host controller that died after a resume (an HP
		// EliteBook's xhci, posted zl-04; a Raspberry Pi 4's, posted v-09):
		// another device's failure, which names it.
		{"posted zl-04", "[162644.651076] xhci_hcd 0000:c3:00.3: HC died; cleaning up",
			kernlog.Event{Kind: kernlog.DriverError, Action: kernlog.ActionHostDied, PCI: "0000:c3:00.3"}},
		{"posted v-09", "Jul 4 14:48:15 microbox kernel: [ 1672.752114] xhci_hcd 0000:01:00.0: xHCI host controller not responding, assume dead",
			kernlog.Event{Kind: kernlog.DriverError, Action: kernlog.ActionHostDied, PCI: "0000:01:00.0"}},
		{"posted v-09", "Jul 4 14:48:15 microbox kernel: [ 1672.752064] xhci_hcd 0000:01:00.0: xHCI host not responding to stop endpoint command.",
			kernlog.Event{Kind: kernlog.DriverError, Action: kernlog.ActionHostDied, PCI: "0000:01:00.0"}},
		// Native multipath requeuing I/O that no live controller can take
		// (multipath.c; a Longhorn node's NVMe/TCP timeout, posted n-04):
		// the namespace's disk names the head, its controller guessed.
		{"https://github.com/longhorn/longhorn/issues/7697", "[  623.190411] block nvme5n1: no usable path - requeuing I/O",
			kernlog.Event{Kind: kernlog.DriverError, Disk: "nvme5n1", Controller: "nvme5", GuessedController: true}},
		// The APST line without its result, as a user posted it.
		{"https://github.com/systemd/systemd/issues/23738", "[    0.855046] nvme nvme0: failed to set APST feature",
			kernlog.Event{Kind: kernlog.APSTFailed, Controller: "nvme0"}},
		// AER's note that no device had the error logged (aer.c, 6.8 to
		// 6.9, the shape its commit gives), after the line that carries
		// the severity.
		{"https://lore.kernel.org/r/20231206224231.732765-3-helgaas@kernel.org", "pcieport 0000:00:1c.5: AER: found no error details for 0000:00:1c.5",
			kernlog.Event{Kind: kernlog.AERReceived, Action: "no details", Reporter: "0000:00:1c.5", PCI: "0000:00:1c.5"}},
		// AER recovery, of a port (Reporter) or of a device (PCI).
		{"https://github.com/minisforum-docs/MS-02-Ultra/issues/10", "Sep 22 09:59:09 pve kernel: pcieport 0000:80:1b.4: AER: device recovery failed",
			kernlog.Event{Kind: kernlog.AERRecovery, Reporter: "0000:80:1b.4", Action: "failed"}},
		{"https://github.com/minisforum-docs/MS-02-Ultra/issues/10", "Sep 22 09:59:09 pve kernel: xhci_hcd 0000:97:00.0: AER: can't recover (no error_detected callback)",
			kernlog.Event{Kind: kernlog.AERRecovery, PCI: "0000:97:00.0", Action: "no callback"}},
		{"the brief", "[   60.000000] pcieport 0000:00:1c.0: AER: device recovery successful", kernlog.Event{Kind: kernlog.AERRecovery, Reporter: "0000:00:1c.0", Action: "successful"}},
		// An error the firmware handled first (APEI/GHES), as aer.c's
		// cper_print_aer prints it: the layer without a severity (posted
		// l-11, linux-pci, Message-ID:
		// <fed46c6e-1617-6dbb-9478-8137eecb5855@redhat.com>), and the
		// line only an uncorrectable one adds (aer.c's format).
		{"posted l-11", "[   79.322017] nvme 0000:70:00.0: AER: aer_layer=Physical Layer, aer_agent=Receiver ID",
			kernlog.Event{Kind: kernlog.AERError, PCI: "0000:70:00.0", Layer: "Physical Layer"}},
		{"aer.c's cper_print_aer", "[   79.322017] nvme 0000:70:00.0: AER: aer_uncor_severity: 0x00462030",
			kernlog.Event{Kind: kernlog.AERError, PCI: "0000:70:00.0", Severity: "Uncorrected"}},
		{"the brief", "[   60.000000] nvme nvme0: frozen state error detected, reset controller", kernlog.Event{Kind: kernlog.AERRecovery, Controller: "nvme0", Action: "reset controller"}},
		// The recovery's steps: the link reset (aer.c's aer_root_reset;
		// its errno since 5.8), a reset that failed (pcie/err.c), the
		// driver restarting its controller (nvme_slot_reset). Lines as
		// posted to linux-pm (an igc resume thread), a GitHub issue and
		// linux-nvme.
		{"an igc thread on linux-pm", "[  853.253973] pcieport 0000:00:1c.2: AER: Root Port link has been reset (-25)",
			kernlog.Event{Kind: kernlog.AERRecovery, Reporter: "0000:00:1c.2", Action: "link reset"}},
		{"a GitHub issue's log", "[ 1752.124836] pcieport 0000:40:01.3: AER: Root Port link has been reset",
			kernlog.Event{Kind: kernlog.AERRecovery, Reporter: "0000:40:01.3", Action: "link reset"}},
		{"an igc thread on linux-pm", "[  853.253996] pcieport 0000:00:1c.2: AER: subordinate device reset failed",
			kernlog.Event{Kind: kernlog.AERRecovery, Reporter: "0000:00:1c.2", Action: "failed"}},
		{"a hot-plug loop on linux-pci (20220317225944.GA765564@bhelgaas)", "> [256237.500842] pcieport 0000:89:02.0: link reset at upstream device 0000:89:02.0 failed",
			kernlog.Event{Kind: kernlog.AERRecovery, Reporter: "0000:89:02.0", Action: "failed"}},
		{"a linux-nvme thread", "[  163.390895] nvme nvme0: restart after slot reset",
			kernlog.Event{Kind: kernlog.AERRecovery, Controller: "nvme0", Action: "slot reset"}},
		// A recovery step printed by a call site whose dynamic debug has
		// the thread id, function and line decorations on (a DPC report
		// of a laptop's Thunderbolt port, pasted with its annotations),
		// without the "AER: " of a mainline kernel; the module and
		// source-file decorations, and an interrupt's "<intr>" for the
		// thread id.
		{"a Chinese DPC/AER report in a public GitHub repository (posted/j-04)", "[  740.121556] [222] pcie_do_recovery:201: pcieport 0000:00:01.1: broadcast error_detected message",
			kernlog.Event{Kind: kernlog.AERRecovery, Reporter: "0000:00:01.1", Action: "error_detected"}},
		{"dynamic-debug-howto.rst's flags fmlt", "[  740.121556] [222] pcieportdrv:pcie_do_recovery:err.c:201: pcieport 0000:00:01.1: AER: broadcast resume message",
			kernlog.Event{Kind: kernlog.AERRecovery, Reporter: "0000:00:01.1", Action: "resume"}},
		{"dynamic-debug-howto.rst's flags tl", "[  740.121556] <intr> 201: pcieport 0000:00:01.1: AER: broadcast slot_reset message",
			kernlog.Event{Kind: kernlog.AERRecovery, Reporter: "0000:00:01.1", Action: "slot_reset"}},
		// A controller deleted (a blktests teardown,
		// https://github.com/linux-blktests/blktests/issues/168): a reset
		// that ends it, no failure by itself.
		{"https://github.com/linux-blktests/blktests/issues/168", "[   68.312832] [   T1223] nvme nvme1: Removing ctrl: NQN \"blktests-subsystem-1\"",
			kernlog.Event{Kind: kernlog.Reset, Controller: "nvme1", Action: kernlog.ActionDeleted}},
		// Other failure lines of the driver.
		{"https://github.com/thesofproject/sof-test/issues/616", "[ 6846.214748] kernel: nvme nvme0: Device shutdown incomplete; abort shutdown",
			kernlog.Event{Kind: kernlog.DriverError, Controller: "nvme0"}},
		{"https://github.com/AsahiLinux/linux/issues/421 (its title)", "nvme nvme0: Device not ready; aborting shutdown, CSTS=0x5", kernlog.Event{Kind: kernlog.DriverError, Controller: "nvme0"}},
		// nvme-pci brought the controller up with its admin queue alone and
		// removes its namespaces (a held-out thread of the evaluation set
		// showed the line; it was "no failure seen" before).
		{"https://github.com/raspberrypi/linux/issues/6751", "[    0.714095] nvme nvme0: IO queues not created", kernlog.Event{Kind: kernlog.DriverError, Controller: "nvme0"}},
		{"https://lore.kernel.org/all/20220625121011.8103-1-pgreco@centosproject.org/", "[    2.347197] nvme nvme2: globally duplicate IDs for nsid 1", kernlog.Event{Kind: kernlog.DriverError, Controller: "nvme2"}},
		{"https://github.com/linux-nvme/nvme-cli/issues/2846", "Jun 17 08:41:25 sm-1125hs-502 kernel: nvme1: Async Event(0xc), Host Aborted Command (sct 0x3 / sc 0x71)",
			kernlog.Event{Kind: kernlog.DriverError, Controller: "nvme1", SCT: 3, SC: 0x71, HasSC: true}},
		{"https://github.com/intel/S0ixSelftestTool/issues/40 (as the reporter typed it)", "nvme nvme0:  I/0 458 (I/O Cmd) QID 2 timeout, aborting", kernlog.Event{Kind: kernlog.DriverError, Controller: "nvme0"}},
		{"a cut line", "nvme nvme0: controller is down", kernlog.Event{Kind: kernlog.DriverError, Controller: "nvme0"}},
		// A placeholder for the tag (qubes-issues#9548 writes "I/O xxx
		// QID x", posted z-08): a timeout still, its queue when given.
		{"a tag's placeholder", "nvme nvme0: I/O x QID 1 timeout, aborting", kernlog.Event{Kind: kernlog.IOTimeout, Controller: "nvme0", QID: 1, Action: "aborting"}},
		{"https://github.com/QubesOS/qubes-issues/issues/9548", "nvme nvme0: I/O xxx QID x timeout, completion polled", kernlog.Event{Kind: kernlog.IOTimeout, Controller: "nvme0", Action: "completion polled"}},
		// The 6.x line with its command id's placeholder too, quoted in
		// a Chinese post's prose (posted zg-10); an id that is a word is
		// no placeholder.
		{"posted zg-10", "内核持续刷 `nvme0: I/O tag XXX (cid Y) QID N timeout, completion polled`，本次", kernlog.Event{Kind: kernlog.IOTimeout, Controller: "nvme0", Action: "completion polled"}},
		{"no placeholder", "nvme nvme0: I/O tag XXX (cid abc) QID N timeout, completion polled", kernlog.Event{Kind: kernlog.DriverError, Controller: "nvme0"}},
	})
}

// The older and other spellings of the events the package always read.
func TestAlternateSpellings(t *testing.T) {
	const rockchipURL = "https://github.com/Joshua-Riek/ubuntu-rockchip/issues/155"
	checkKinds(t, []kindCase{
		{rockchipURL, "[   43.542743] nvme 0004:41:00.0: can't change power state from D3cold to D0 (config space inaccessible)",
			kernlog.Event{Kind: kernlog.ResumeFailure, PCI: "0004:41:00.0", FromState: "D3cold"}},
		{"https://github.com/clearlinux/distribution/issues/3291", "Mar 26 12:24:25 DadsGram kernel: pcieport 0000:03:02.0: Unable to change power state from D3hot to D0, device inaccessible",
			kernlog.Event{Kind: kernlog.ResumeFailure, PCI: "0000:03:02.0", FromState: "D3hot"}},
		{"the brief", "[    9.000000] nvme 0000:01:00.0: Unable to change power state from D3hot to D0", kernlog.Event{Kind: kernlog.ResumeFailure, PCI: "0000:01:00.0", FromState: "D3hot"}},
		// 4.x's PCI core (pci_raw_set_power_state's message before 5.x
		// reworded it): the function still says D3 after the move to D0.
		{"drivers/pci/pci.c of 4.x", "[ 5000.200000] nvme 0000:01:00.0: Refused to change power state, currently in D3", kernlog.Event{Kind: kernlog.ResumeFailure, PCI: "0000:01:00.0", FromState: "D3hot"}},
		{"drivers/pci/pci.c until about 5.4 (2019)", "[ 5000.200000] nvme 0000:01:00.0: refused to change power state (currently D3hot)", kernlog.Event{Kind: kernlog.ResumeFailure, PCI: "0000:01:00.0", FromState: "D3hot"}},
		{"drivers/pci/pci.c from about 5.4 (2019)", "[ 5000.200000] nvme 0000:01:00.0: refused to change power state from D3hot to D0", kernlog.Event{Kind: kernlog.ResumeFailure, PCI: "0000:01:00.0", FromState: "D3hot"}},
		{"drivers/pci/pci.c since about 5.19 (May 2022)", "[ 5000.200000] nvme 0000:01:00.0: Refused to change power state from D3hot to D0", kernlog.Event{Kind: kernlog.ResumeFailure, PCI: "0000:01:00.0", FromState: "D3hot"}},
		{"https://github.com/geerlingguy/raspberry-pi-pcie-devices/issues/600", "[ 57.024944] pcieport 0000:00:00.0: AER: Multiple Uncorrected (Non-Fatal) error received: 0000:00:00.0",
			kernlog.Event{Kind: kernlog.AERReceived, PCI: "0000:00:00.0", Reporter: "0000:00:00.0", Severity: "Uncorrected (Non-Fatal)"}},
		// Before 4.19 the source is its requester ID (bus, device,
		// function), in the port's domain.
		{"https://github.com/hirschmann/nbfc/issues/181", "jan. 29 20:50:17 kevin kernel: pcieport 0000:00:1c.5: AER: Corrected error received: id=00e5",
			kernlog.Event{Kind: kernlog.AERReceived, PCI: "0000:00:1c.5", Reporter: "0000:00:1c.5", Severity: "Corrected"}},
		{"https://github.com/geerlingguy/raspberry-pi-pcie-devices/issues/64", "[    3.499148] pcieport 0000:00:1d.0: AER: Multiple Corrected error received: id=00e8",
			kernlog.Event{Kind: kernlog.AERReceived, PCI: "0000:00:1d.0", Reporter: "0000:00:1d.0", Severity: "Corrected"}},
		{"4.x aer.c's format, a device below the port", "[    3.499148] pcieport 0001:00:1d.0: AER: Uncorrected (Non-Fatal) error received: id=0108",
			kernlog.Event{Kind: kernlog.AERReceived, PCI: "0001:01:01.0", Reporter: "0001:00:1d.0", Severity: "Uncorrected (Non-Fatal)"}},
		// A domain of five hex digits (as behind Intel VMD).
		{"https://access.redhat.com/solutions/56302", "Feb  5 15:41:33 hostname kernel: pcieport 10003:00:00.0: AER: Corrected error received: id=ae00",
			kernlog.Event{Kind: kernlog.AERReceived, PCI: "10003:ae:00.0", Reporter: "10003:00:00.0", Severity: "Corrected"}},
		// Before 4.12 the watchdog's line of a controller that reads CSTS
		// with its fatal bit set (all ones: gone from the bus), without
		// PCI_STATUS; before 4.5 nvme_kthread's, without the full stop.
		{"Ubuntu Forums, \"Severe NVME Issue with Ubuntu 16.04 and Samsung 960 Pro M2 SSD\" (2016-12-24)", "[   37.805783] nvme 0000:01:00.0: Failed status: 0xffffffff, reset controller.",
			kernlog.Event{Kind: kernlog.ControllerDown, PCI: "0000:01:00.0", CSTS: 0xffffffff, HasCSTS: true}},
		{"https://github.com/commaai/openpilot/issues/21928", "<4>[  307.063915] nvme 0001:01:00.0: Failed status: 0xffffffff, reset controller.",
			kernlog.Event{Kind: kernlog.ControllerDown, PCI: "0001:01:00.0", CSTS: 0xffffffff, HasCSTS: true}},
		{"drivers/nvme/host/pci.c of 4.4", "[  100.000000] nvme 0000:01:00.0: Failed status: 0x3, reset controller",
			kernlog.Event{Kind: kernlog.ControllerDown, PCI: "0000:01:00.0", CSTS: 3, HasCSTS: true}},
		// Before 4.5 the driver was drivers/block/nvme-core.c (3.19 to
		// 4.4): its watchdog's line without "0x", its timeout, the abort's
		// status and a reset that failed.
		{"nvme-core.c of 3.19", "[  100.000000] nvme 0000:01:00.0: Failed status: ffffffff, reset controller",
			kernlog.Event{Kind: kernlog.ControllerDown, PCI: "0000:01:00.0", CSTS: 0xffffffff, HasCSTS: true}},
		{"nvme-core.c of 3.19", "[  100.000000] nvme 0000:01:00.0: Timeout I/O 23 QID 2",
			kernlog.Event{Kind: kernlog.IOTimeout, PCI: "0000:01:00.0", Tag: 23, QID: 2}},
		{"nvme-core.c of 3.19", "[  100.000000] nvme 0000:01:00.0: Timeout I/O 5 QID 0",
			kernlog.Event{Kind: kernlog.AdminTimeout, PCI: "0000:01:00.0", Tag: 5}},
		{"nvme-core.c of 3.19", "[  100.000000] nvme 0000:01:00.0: Abort status:0 result:0",
			kernlog.Event{Kind: kernlog.AbortStatus, PCI: "0000:01:00.0"}},
		// A reset that could not bring the controller back, not a system
		// resume (nvme_dev_reset, nvme_dead_ctrl).
		{"nvme-core.c of 3.19", "[  100.000000] nvme 0000:01:00.0: Device failed to resume",
			kernlog.Event{Kind: kernlog.ResetFailure, PCI: "0000:01:00.0"}},
		{"a cut timeout", "[  100.000000] nvme 0000:01:00.0: Timeout I/O 23 QID", kernlog.Event{Kind: kernlog.DriverError, PCI: "0000:01:00.0"}},
		{"a cut value", "[  100.000000] nvme 0000:01:00.0: Failed status: 0x, reset controller", kernlog.Event{Kind: kernlog.DriverError, PCI: "0000:01:00.0"}},
		// pciehp after it powered a slot or a card was inserted
		// (drivers/pci/hotplug/pciehp_hpc.c, pciehp_check_link_status):
		// the link did not train, or no device answered on it; and the
		// slot's power controller reporting a fault (pciehp_ist,
		// board_added).
		{"pciehp_hpc.c's format", "[  100.000000] pcieport 0000:00:1c.0: pciehp: Slot(1): Cannot train link: status 0x1811",
			kernlog.Event{Kind: kernlog.LinkDown, Action: kernlog.ActionLinkNotActive, Reporter: "0000:00:1c.0"}},
		{"pciehp_hpc.c's format", "[  100.000000] pcieport 0000:00:1c.0: pciehp: Slot(1): No link",
			kernlog.Event{Kind: kernlog.LinkDown, Action: kernlog.ActionLinkNotActive, Reporter: "0000:00:1c.0"}},
		{"pciehp_hpc.c's format", "[  100.000000] pcieport 0000:00:1c.0: pciehp: Slot(1): No device found",
			kernlog.Event{Kind: kernlog.LinkDown, Action: kernlog.ActionLinkNotActive, Reporter: "0000:00:1c.0"}},
		{"pciehp_hpc.c's format", "[  100.000000] pcieport 0000:00:1c.0: pciehp: Slot(1): Power fault",
			kernlog.Event{Kind: kernlog.LinkDown, Action: kernlog.ActionPowerFault, Reporter: "0000:00:1c.0"}},
		// pciehp_ctrl.c's handlers before about 4.19.
		{"pciehp_ctrl.c of 4.14", "[  100.000000] pciehp 0000:00:1c.0:pcie004: Card not present on Slot(1)",
			kernlog.Event{Kind: kernlog.LinkDown, Reporter: "0000:00:1c.0"}},
		{"pciehp_ctrl.c of 4.14", "[  100.000000] pciehp 0000:00:1c.0:pcie004: Power fault on slot 1",
			kernlog.Event{Kind: kernlog.LinkDown, Action: kernlog.ActionPowerFault, Reporter: "0000:00:1c.0"}},
		// fs/buffer.c's older spelling, "on device".
		{"https://github.com/Joshua-Riek/ubuntu-rockchip/issues/970", "[ 4730.850402] Buffer I/O error on device nvme0n1p1, logical block 1066386",
			kernlog.Event{Kind: kernlog.IOError, Disk: "nvme0n1p1", Controller: "nvme0", GuessedController: true}},
		// A journal's colours saved as HTML (https://github.com/t2linux/T2-Debian-and-Ubuntu-Kernel/issues/53).
		{"https://github.com/t2linux/T2-Debian-and-Ubuntu-Kernel/issues/53", `Sep 07 08:31:30 amiga kernel: <font color="#C01C28"><b>tg3 0000:97:00.0: Unable to change power state from D3hot to D0, device inaccessible</b></font>`,
			kernlog.Event{Kind: kernlog.ResumeFailure, PCI: "0000:97:00.0", FromState: "D3hot"}},
		// The block layer names its status (block/blk-core.c): not only
		// "I/O" and "critical medium".
		{"https://github.com/Drive-Trust-Alliance/sedutil/issues/468", "[    3.301677] blk_update_request: operation not supported error, dev nvme0n1, sector 0 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 0",
			kernlog.Event{Kind: kernlog.IOError, Disk: "nvme0n1", ReqOp: "READ", Controller: "nvme0", GuessedController: true}},
		{"https://github.com/FrameworkComputer/SoftwareFirmwareIssueTracker/issues/41", "pcieport 0000:00:02.1: AER: Correctable error message received from 0000:bf:00.0",
			kernlog.Event{Kind: kernlog.AERReceived, PCI: "0000:bf:00.0", Reporter: "0000:00:02.1", Severity: "Corrected"}},
		{"https://github.com/balena-os/balena-intel/issues/304", "Jun 03 13:30:13 e2e8468 kernel: pcieport 0000:00:1c.0: AER: PCIe Bus Error: severity=Corrected, type=Data Link Layer, (Transmitter ID)",
			kernlog.Event{Kind: kernlog.AERError, PCI: "0000:00:1c.0", Severity: "Corrected", Layer: "Data Link Layer"}},
		{"the brief", "[   30.000000] nvme 0000:01:00.0: PCIe Bus Error: severity=Uncorrectable (Fatal)", kernlog.Event{Kind: kernlog.AERError, PCI: "0000:01:00.0", Severity: "Uncorrected (Fatal)"}},
		{rockchipURL, "[   43.508836] blk_update_request: I/O error, dev nvme0n1, sector 500118016 op 0x0:(READ) flags 0x80700 phys_seg 1 prio class 0",
			kernlog.Event{Kind: kernlog.IOError, Disk: "nvme0n1", ReqOp: "READ", Controller: "nvme0", GuessedController: true}},
		{rockchipURL, "[   43.650902] Buffer I/O error on dev nvme0n1p1, logical block 16256, async page read",
			kernlog.Event{Kind: kernlog.IOError, Disk: "nvme0n1p1", Controller: "nvme0", GuessedController: true}},
		{"https://github.com/raspberrypi/linux/issues/6661 (with its trailing blank)", "Jan 29 17:09:49 argon kernel: nvme0n1: I/O Cmd(0x2) @ LBA 32545872, 8 blocks, I/O Error (sct 0x3 / sc 0x71) ",
			kernlog.Event{Kind: kernlog.IOError, Disk: "nvme0n1", Controller: "nvme0", GuessedController: true, Opcode: 2, OpName: "I/O Cmd", SCT: 3, SC: 0x71, HasSC: true}},
		// A user who elided the numbers ("sector ...", "LBA ...")
		// still pasted the drive's I/O errors.
		{"https://github.com/linuxmuster/linuxmuster-linbo7/issues/165", "I/O error, dev nvme0n1, sector ..., op 0x0:(READ) ...",
			kernlog.Event{Kind: kernlog.IOError, Disk: "nvme0n1", ReqOp: "READ", Controller: "nvme0", GuessedController: true}},
		{"https://github.com/linuxmuster/linuxmuster-linbo7/issues/165", "nvme0n1: I/O Cmd(0x2) @ LBA ..., I/O Error (sct 0x3 / sc 0x71)",
			kernlog.Event{Kind: kernlog.IOError, Disk: "nvme0n1", Controller: "nvme0", GuessedController: true, Opcode: 2, OpName: "I/O Cmd", SCT: 3, SC: 0x71, HasSC: true}},
		// Or the whole command, keeping the status (a home SIEM's
		// write-up, posted zr-03).
		{"posted zr-03", "nvme1n1: ... Namespace Not Ready (sct 0x0 / sc 0x82)",
			kernlog.Event{Kind: kernlog.IOError, Disk: "nvme1n1", Controller: "nvme1", GuessedController: true, SCT: 0, SC: 0x82, HasSC: true}},
		{"posted zr-03", "blk_update_request: critical target error, dev nvme1n1 ...",
			kernlog.Event{Kind: kernlog.IOError, Disk: "nvme1n1", Controller: "nvme1", GuessedController: true}},
		{"https://ahmedalsawi.github.io/posts/2025/01/linux-kernel-debug-nvme-timeout", "[   31.777624] nvme nvme0: I/O tag 641 (c281) opcode 0x1 (I/O Cmd) QID 8 timeout, aborting req_op:WRITE(1) size:4096",
			kernlog.Event{Kind: kernlog.IOTimeout, Controller: "nvme0", Tag: 641, CommandID: "c281", Opcode: 1, OpName: "I/O Cmd", QID: 8, Action: "aborting", ReqOp: "WRITE(1)", Size: 4096}},
	})
}

// The platform's faults and the driver core's probe report: real lines.
func TestPlatformFaultKinds(t *testing.T) {
	checkKinds(t, []kindCase{
		{"https://github.com/pop-os/pop/issues/853", "[   10.919607] nvme 0000:01:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0000 address=0xfc189000 flags=0x0000]",
			kernlog.Event{Kind: kernlog.PlatformFault, Action: "iommu-fault", PCI: "0000:01:00.0"}},
		{"https://github.com/spdk/spdk/issues/2514", "kernel: DMAR: [DMA Write] Request device [99:00.0] fault addr 0 [fault reason 05] PTE Write access is not set",
			kernlog.Event{Kind: kernlog.PlatformFault, Action: "iommu-fault", PCI: "0000:99:00.0"}},
		{"https://github.com/thesofproject/sof-test/issues/744", "[    0.960486] kernel: DMAR: [DMA Read NO_PASID] Request device [0x00:0x02.0] fault addr 0x7c346000 [fault reason 0x06] PTE Read access is not set",
			kernlog.Event{Kind: kernlog.PlatformFault, Action: "iommu-fault", PCI: "0000:00:02.0"}},
		{"https://github.com/spdk/spdk/issues/1403", "[71232.530950] WARNING: CPU: 0 PID: 1306671 at drivers/iommu/intel-iommu.c:602 domain_get_iommu+0x45/0x50",
			kernlog.Event{Kind: kernlog.PlatformFault, Action: "kernel-bug"}},
		// __warn()'s banner since 28ea295f941e (6.19-rc1), "WARNING:
		// FILE:LINE at FUNC, CPU#N: COMM/PID", as a 7.0-rc7 arm64 board
		// printed it (quoted in the fix's commit message), and without a
		// file, "WARNING: at FUNC, CPU#N: ..." (kernel/panic.c).
		{"https://git.kernel.org/stable/c/4af24c27a39ba147a613a09e10b9e0f7294524c0", "[  789.490657] WARNING: lib/refcount.c:28 at refcount_warn_saturate+0xf4/0x144, CPU#0: kworker/u16:1/440",
			kernlog.Event{Kind: kernlog.PlatformFault, Action: "kernel-bug"}},
		{"kernel/panic.c's __warn() without a file", "[   61.020000] WARNING: at nvme_timeout+0x1a4/0x320 [nvme], CPU#3: kworker/3:1H/210",
			kernlog.Event{Kind: kernlog.PlatformFault, Action: "kernel-bug", StackLine: 1,
				Stack: "[   61.020000] WARNING: at nvme_timeout+0x1a4/0x320 [nvme], CPU#3: kworker/3:1H/210"}},
		// arm64's die() (arch/arm64/kernel/traps.c), as a Huawei D06's
		// oops in nvme_reset_work was posted to linux-next.
		{"https://lore.kernel.org/all/454c65b1-872a-a48c-662d-690044662772@huawei.com/", "[148.322016] Internal error: Oops: 96000004 [#1] PREEMPT SMP",
			kernlog.Event{Kind: kernlog.PlatformFault, Action: "kernel-bug"}},
		// die()'s string is what went wrong: empty for a synchronous
		// external abort on a 4.14 arm64 board (a ZynqMP's NVMe bring-up,
		// testdata/posted/b-29), "Oops - BUG" for a BUG(); 32-bit ARM
		// prints the same shape with a shorter code.
		{"arm64 4.14, a ZynqMP board's notes (posted/b-29)", "[    4.750378] Internal error: : 96000010 [#1] SMP",
			kernlog.Event{Kind: kernlog.PlatformFault, Action: "kernel-bug"}},
		{"arch/arm64/kernel/traps.c's BUG()", "[   12.000000] Internal error: Oops - BUG: 00000000f2000800 [#1] PREEMPT SMP",
			kernlog.Event{Kind: kernlog.PlatformFault, Action: "kernel-bug"}},
		{"arch/arm/kernel/traps.c", "[    7.100000] Internal error: Oops: 17 [#1] SMP ARM",
			kernlog.Event{Kind: kernlog.PlatformFault, Action: "kernel-bug"}},
		{"https://lore.kernel.org/all/CA+enf=v9rY_xnZML01oEgKLmvY1NGBUUhnSJaETmXtDtXfaczA@mail.gmail.com/", "[    7.423439] pci_bus 0000:01: 2-byte config write to 0000:01:00.0 offset 0x7a may corrupt adjacent RW1C bits",
			kernlog.Event{Kind: kernlog.PlatformFault, Action: "config-access", PCI: "0000:01:00.0"}},
		{"https://lore.kernel.org/all/aQEElhSCRNqaPf8m@aurel32.net/", "[   66.585245] nvme 0000:01:00.0: probe with driver nvme failed with error -4",
			kernlog.Event{Kind: kernlog.DriverError, Action: "probe failed", Errno: -4, PCI: "0000:01:00.0"}},
		{"drivers/base/dd.c's shape before 6.3 (dev_warn of really_probe)", "[    2.600000] nvme: probe of 0000:01:00.0 failed with error -12",
			kernlog.Event{Kind: kernlog.DriverError, Action: "probe failed", Errno: -12, PCI: "0000:01:00.0"}},
		// The PCI core's link and readiness waits (drivers/pci/pci.c):
		// a link that did not train, a function that never answered after
		// a resume; still waiting is no failure.
		{"pci.c's format", "[  100.000000] pcieport 0000:00:1c.4: Data Link Layer Link Active not set in 1000 msec",
			kernlog.Event{Kind: kernlog.LinkDown, Action: kernlog.ActionLinkNotActive, Reporter: "0000:00:1c.4"}},
		// pciehp before 4.19: lower case, "event", its service's prefix, a
		// dmesg -T time in the pt_BR locale.
		{"https://github.com/lnls-dig/bpm-gw/issues/73", "[Ter Set 19 06:01:41 2017] pciehp 0000:02:05.0:pcie24: slot(6): Link Down event",
			kernlog.Event{Kind: kernlog.LinkDown, Reporter: "0000:02:05.0"}},
		{"linux-pci, f18bafacbd8316c9623658e2935f8fc3b276af64.camel@web.de (decoded)", "[76621.007651] [ T175001] pcieport 0000:02:00.0: Unable to change power state from D0 to D3hot, device inaccessible",
			kernlog.Event{Kind: kernlog.PMError, Phase: "suspend", FromState: "D0", PCI: "0000:02:00.0"}},
		// The same line with its poster's note run on after an arrow
		// (https://github.com/omacom/omarchy/pull/11570, a MacBook's S3
		// test).
		{"https://github.com/omacom/omarchy/pull/11570", "[  656.891] pcieport 0000:05:00.0: Unable to change power state from D0 to D3hot, device inaccessible   <- TB tree already gone at suspend_noirq",
			kernlog.Event{Kind: kernlog.PMError, Phase: "suspend", FromState: "D0", PCI: "0000:05:00.0"}},
		{"a note with a double arrow", "[  100.0] nvme nvme0: I/O 12 QID 2 timeout, aborting  <== here it hangs",
			kernlog.Event{Kind: kernlog.IOTimeout, Controller: "nvme0", Tag: 12, QID: 2, Action: "aborting"}},
		{"https://lore.kernel.org/all/20240123090016.281252-1-stanislaw.gruszka@linux.intel.com/", "[  853.253938] igc 0000:02:00.0: not ready 65535ms after bus reset; giving up",
			kernlog.Event{Kind: kernlog.ResetFailure, Action: "not ready after bus reset", PCI: "0000:02:00.0"}},
		{"pci.c's format", "[  102.000000] nvme 0000:01:00.0: not ready 65535ms after resume; giving up",
			kernlog.Event{Kind: kernlog.PMError, Phase: "resume", PCI: "0000:01:00.0"}},
		// A drive behind VMD that did not answer after the domain's bus
		// reset, as quoted on linux-pci
		// (371da708-3520-41af-8c1f-c8c3d53710ee@canonical.com): the BAR
		// written read back all ones.
		{"an ESC8000's VMD domain", ">    pci 10000:01:00.0: BAR 0: error updating (0xf8010004 != 0xffffffff)",
			kernlog.Event{Kind: kernlog.DriverError, PCI: "10000:01:00.0"}},
		{"an ESC8000's VMD domain", ">    pci 10000:01:00.0: BAR 0: error updating (high 0x00000000 != 0xffffffff)",
			kernlog.Event{Kind: kernlog.DriverError, PCI: "10000:01:00.0"}},
		// A host controller whose link never trained: a Raspberry Pi's
		// (pcie-brcmstb.c) and DesignWare's (dw_pcie_wait_for_link).
		{"pcie-brcmstb.c's format", "[    1.134565] brcm-pcie 1000110000.pcie: link down",
			kernlog.Event{Kind: kernlog.LinkDown, Action: kernlog.ActionHostLinkDown}},
		{"pcie-designware.c's format", "[    2.402211] imx6q-pcie 33800000.pcie: Phy link never came up",
			kernlog.Event{Kind: kernlog.LinkDown, Action: kernlog.ActionHostLinkDown}},
		{"a RockPro64's log, as a port's notes give it", "[    3.500881] rockchip-pcie f8000000.pcie: PCIe link training gen1 timeout!",
			kernlog.Event{Kind: kernlog.LinkDown, Action: kernlog.ActionHostLinkDown}},
		{"a qcom host's name", "[    2.402211] qcom-pcie 1c00000.pci: Phy link never came up",
			kernlog.Event{Kind: kernlog.LinkDown, Action: kernlog.ActionHostLinkDown}},
		// The PCI core's last try at a link that would not train, as an
		// extended netconsole record a syslog receiver stored: its caller
		// id before the message and its dictionary run on with "#012"
		// (posted o-15, linux-pci, Message-ID:
		// <e807ca71fdef97c931fd9f92eda0f7551aa3ef7b.camel@web.de>).
		{"posted o-15", "T5971;pcieport 0000:00:01.1: retraining failed#012 SUBSYSTEM=pci#012 DEVICE=+pci:0000:00:01.1",
			kernlog.Event{Kind: kernlog.LinkDown, Reporter: "0000:00:01.1", Action: kernlog.ActionLinkNotActive}},
		// MediaTek's pcie-mediatek-gen3.c, its probe failure reported under
		// the driver's name (posted o-13,
		// https://github.com/kiddin9/Kwrt/issues/1737).
		{"https://github.com/kiddin9/Kwrt/issues/1737", "[    2.727856] mtk-pcie-gen3 11280000.pcie: PCIe link down, current LTSSM state: detect.quiet (0x1)",
			kernlog.Event{Kind: kernlog.LinkDown, Action: kernlog.ActionHostLinkDown}},
		{"https://github.com/kiddin9/Kwrt/issues/1737", "[    2.736660] mtk-pcie-gen3: probe of 11280000.pcie failed with error -110",
			kernlog.Event{Kind: kernlog.LinkDown, Action: kernlog.ActionHostLinkDown}},
		// Rockchip's vendor kernel's rk-pcie on an Orange Pi 5 (posted
		// n-13, https://github.com/schneid-l/u-boot-orangepi5/issues/2).
		{"https://github.com/schneid-l/u-boot-orangepi5/issues/2", "[Wed Aug  7 07:20:47 2024] rk-pcie fe170000.pcie: PCIe Link Fail, LTSSM is 0x3, hw_retries=1",
			kernlog.Event{Kind: kernlog.LinkDown, Action: kernlog.ActionHostLinkDown}},
		// DesignWare's messages since the dw_pcie_wait_for_link rework,
		// which say what the link state machine did: a Rock 5B's, as
		// posted to linux-pci, and a Qualcomm Rb3Gen2's with its PCIe
		// switch unpowered, as the series' cover letter gives it
		// (20251230-pci-dwc-suspend-rework-v3-0-40cd485714f5@oss.qualcomm.com).
		{"https://lore.kernel.org/all/aVezfq-8bTKczYkp@ryzen/", "[    2.285827] rockchip-dw-pcie a40000000.pcie: Link failed to come up. LTSSM: POLL_COMPLIANCE",
			kernlog.Event{Kind: kernlog.LinkDown, Action: kernlog.ActionHostLinkDown}},
		{"the series' cover letter", "qcom-pcie 1c08000.pcie: Device not found",
			kernlog.Event{Kind: kernlog.LinkDown, Action: kernlog.ActionHostLinkDown}},
		{"pcie-designware.c's format, detected, not active", "[    2.100000] imx6q-pcie 33800000.pcie: Device found, but not active",
			kernlog.Event{Kind: kernlog.LinkDown, Action: kernlog.ActionHostLinkDown}},
		// The hung-task detector (kernel/hung_task.c) on a task named
		// after an NVMe disk: as posted to linux-block (an XPS 7390's),
		// and a name cut at 15 bytes.
		{"https://lore.kernel.org/all/b3ba57a7-d363-9c17-c4be-9dbe86875@panix.com/",
			"Nov 23 12:39:57 xps-7390 kernel: [13641.000227][   T55] INFO: task jbd2/nvme0n1p3-:375 blocked for more than 122 seconds.",
			kernlog.Event{Kind: kernlog.HungTask, Disk: "nvme0n1p3", Controller: "nvme0", GuessedController: true}},
		{"hung_task.c's format", "[  370.000000] INFO: task jbd2/nvme10n1p:402 blocked for more than 245 seconds.",
			kernlog.Event{Kind: kernlog.HungTask, Disk: "nvme10n1", Controller: "nvme10", GuessedController: true}},
		// The speed a Raspberry Pi's controller trained its link at
		// (pcie-brcmstb.c's "link up, %s x%d %s"): a Pi 5 with a Hailo AI
		// HAT+ at Gen 3, a Compute Module 4's at Gen 2.
		{"a Pi 5's log, as its notes give it", "[    0.499571] brcm-pcie 1000110000.pcie: link up, 8.0 GT/s PCIe x1 (!SSC)",
			kernlog.Event{Kind: kernlog.HostLinkUp}},
		{"a CM4's boot log", "[    0.988144] brcm-pcie fd500000.pcie: link up, 5.0 GT/s PCIe x1 (SSC)",
			kernlog.Event{Kind: kernlog.HostLinkUp}},
		// nvme-core's reset on a drive's Persistent Internal Error event
		// (drivers/nvme/host/core.c, nvme_handle_aer_persistent_error).
		{"core.c's format", "[ 5123.104211] nvme nvme0: resetting controller due to persistent internal error",
			kernlog.Event{Kind: kernlog.DriverError, Action: kernlog.ActionPersistentError, Controller: "nvme0"}},
		// Its first wording, kept in the stable updates it was taken to
		// (a 6.1.y backport's core.c): the NVMe asynchronous event, not
		// PCIe AER.
		{"core.c's first format", "[ 5123.104211] nvme nvme0: resetting controller due to AER",
			kernlog.Event{Kind: kernlog.DriverError, Action: kernlog.ActionPersistentError, Controller: "nvme0"}},
		// Before it, the event's result alone: error status (type 0),
		// information 03h (a test host's nvme4 quoted on linux-nvme,
		// Message-ID <20191006192109.GA9983@keith-busch>, posted zm-01).
		{"core.c's result line", "Aug 26 15:00:56 testhost kernel: nvme nvme4: async event result 00010300",
			kernlog.Event{Kind: kernlog.DriverError, Action: kernlog.ActionPersistentError, Controller: "nvme4"}},
		// Completions with a command ID the host never issued (nvme.h's
		// nvme_find_rq, nvme-pci's nvme_handle_cqe).
		{"nvme.h's format", "[  100.000000] nvme nvme0: request 0x3f genctr mismatch (got 0x1 expected 0x2)",
			kernlog.Event{Kind: kernlog.DriverError, Action: kernlog.ActionBogusCompletion, Controller: "nvme0"}},
		{"pci.c's format", "[  100.000100] nvme nvme0: invalid id 63 completed on queue 2",
			kernlog.Event{Kind: kernlog.DriverError, Action: kernlog.ActionBogusCompletion, Controller: "nvme0"}},
		{"nvme.h's format", "[  100.000200] nvme nvme0: could not locate request for tag 0x3f",
			kernlog.Event{Kind: kernlog.DriverError, Action: kernlog.ActionBogusCompletion, Controller: "nvme0"}},
	})
}

// The driver core's report of a PCIe host controller whose driver failed
// to probe: the link's timeout is the host's link down, any other error
// the platform's. Lines as posted: a LS1043A's after a device-tree change
// (https://lore.kernel.org/all/20250327151949.2765193-1-ioana.ciornei@nxp.com/),
// a SM8450's with a clock it could not get, a RockPro64's without a card
// and an X1E's PHY that never powered on (both -110), and the format
// before 6.3; a DesignWare host's driver that gave up without an error.
func TestHostProbeFailure(t *testing.T) {
	for _, tc := range []struct {
		line   string
		kind   kernlog.Kind
		action string
		errno  int
	}{
		{"[    0.157053] layerscape-pcie 3500000.pcie: probe with driver layerscape-pcie failed with error -22", kernlog.PlatformFault, kernlog.ActionHostProbeFailed, -22},
		{"qcom-pcie 1c08000.pcie: probe with driver qcom-pcie failed with error -22", kernlog.PlatformFault, kernlog.ActionHostProbeFailed, -22},
		{"[    5.107373] rockchip-pcie f8000000.pcie: probe with driver rockchip-pcie failed with error -110", kernlog.LinkDown, kernlog.ActionHostLinkDown, 0},
		{"qcom-pcie 1bd0000.pcie: probe with driver qcom-pcie failed with error -110", kernlog.LinkDown, kernlog.ActionHostLinkDown, 0},
		{"[    5.1] rockchip-pcie: probe of f8000000.pcie failed with error -2", kernlog.PlatformFault, kernlog.ActionHostProbeFailed, -2},
		// A DesignWare host that gave up without an error number: an
		// RK3588's (ophub/fnnas#515, posted w-07) and Rockchip's vendor
		// driver's (Joshua-Riek/ubuntu-rockchip#1235).
		{"[    2.007465] dw-pcie fe180000.pcie: Failed to initialize host", kernlog.PlatformFault, kernlog.ActionHostProbeFailed, 0},
		{"rk-pcie fe170000.pcie: failed to initialize host", kernlog.PlatformFault, kernlog.ActionHostProbeFailed, 0},
	} {
		l, err := kernlog.ReadString(tc.line+"\n", kernlog.Options{})
		require.NoError(t, err, tc.line)
		require.Len(t, l.Incidents, 1, tc.line)
		require.Len(t, l.Incidents[0].Events, 1, tc.line)
		e := l.Incidents[0].Events[0]
		assert.Equal(t, tc.kind, e.Kind, tc.line)
		assert.Equal(t, tc.action, e.Action, tc.line)
		assert.Equal(t, tc.errno, e.Errno, tc.line)
		assert.Empty(t, e.Controller+e.PCI+e.Device, tc.line)
	}
	// Another driver's probe, a platform device that is no PCIe host, and
	// nvme's own report are not a host's.
	for _, line := range []string{
		"[    1.0] dwc3 fe800000.usb: probe with driver dwc3 failed with error -110",
		"[    1.0] rockchip-naneng-combphy fe840000.phy: probe with driver rockchip-naneng-combphy failed with error -2",
		"[   66.585245] nvme 0000:01:00.0: probe with driver nvme failed with error -12",
		"[   66.585245] nvme: probe of 0000:01:00.0 failed with error -12",
	} {
		l, err := kernlog.ReadString("[    0.0] Linux version 6.12.8 (x@y) #1 SMP\n"+line+"\n", kernlog.Options{})
		require.NoError(t, err, line)
		for _, in := range l.Incidents {
			for _, e := range in.Events {
				assert.NotEqual(t, kernlog.ActionHostProbeFailed, e.Action, line)
				assert.NotEqual(t, kernlog.ActionHostLinkDown, e.Action, line)
			}
		}
	}
}

// Rockchip's vendor driver says it failed to initialise the host after
// its link failed (Joshua-Riek/ubuntu-rockchip#1235's title, posted q-03's
// lines): the link's consequence, no failure of its own.
func TestHostInitAfterItsLink(t *testing.T) {
	l, err := kernlog.ReadString("[ 4461.340174] rk-pcie fe150000.pcie: PCIe Link Fail, LTSSM is 0x0, hw_retries=0\n"+
		"[ 4461.340238] rk-pcie fe150000.pcie: failed to initialize host\n"+
		"[ 4461.400000] rk-pcie fe170000.pcie: failed to initialize host\n", kernlog.Options{})
	require.NoError(t, err)
	var kinds []string
	for _, in := range l.Incidents {
		for _, e := range in.Events {
			kinds = append(kinds, fmt.Sprintf("%d %s %s", e.Line, e.Kind, e.Action))
		}
	}
	assert.Equal(t, []string{"1 link-down host link down", "3 platform-fault host probe failed"}, kinds, "another host's failure stays")
	assert.Zero(t, l.UnreadLines)
}

// An asynchronous event's result that is no Persistent Internal Error
// (a notice: a namespace's attributes changed; a SMART/Health event; a
// transient internal error) is no event of the drive's failure.
func TestAsyncEventResultOthers(t *testing.T) {
	for _, v := range []string{"00000002", "00010001", "00040400", "0001030", "zz010300"} {
		l, err := kernlog.ReadString("[    1.000000] nvme nvme0: 16/0/0 default/read/poll queues\n[    5.000000] nvme nvme0: async event result "+v+"\n", kernlog.Options{})
		require.NoError(t, err)
		for _, in := range l.Incidents {
			for _, e := range in.Events {
				assert.NotEqual(t, kernlog.ActionPersistentError, e.Action, v)
			}
		}
	}
}
