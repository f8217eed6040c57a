package diagnose_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

func fact(src, v string) diagnose.Fact {
	return diagnose.Fact{Source: src, Value: v, Status: diagnose.Read}
}

// machine is the path of a drive at dev below the root port port with the
// given power-management settings on both.
type machine struct {
	dev, port                     string
	policy, cmdline               string
	l12, d3cold, control, runtime string
	portControl, portRuntime      string
	health                        *diagnose.HealthLog
	state                         string
}

func (m machine) facts(ctrl string) diagnose.Facts {
	fn := func(addr, role, control, runtime string) diagnose.Function {
		p := "/sys/bus/pci/devices/" + addr + "/"
		f := diagnose.Function{Address: addr, Role: role,
			D3coldAllowed: fact(p+"d3cold_allowed", m.d3cold),
			Control:       fact(p+"power/control", control),
			RuntimeStatus: fact(p+"power/runtime_status", runtime),
			PowerState:    fact(p+"power_state", map[string]string{"active": "D0", "suspended": "D3hot"}[runtime]),
		}
		f.Link.L1 = fact(p+"link/l1_aspm", "1")
		f.Link.L1_2 = fact(p+"link/l1_2_aspm", m.l12)
		if m.l12 == "" {
			f.Link.L1 = fact(p+"link/l1_aspm", "0")
			f.Link.L1_2 = diagnose.Fact{Source: p + "link/l1_2_aspm", Status: diagnose.NotExposed}
		}
		return f
	}
	f := diagnose.Facts{
		Controller:  ctrl,
		Address:     m.dev,
		ASPMPolicy:  fact("/sys/module/pcie_aspm/parameters/policy", m.policy),
		CommandLine: fact("/proc/cmdline", m.cmdline),
		State:       fact("/sys/class/nvme/"+ctrl+"/state", m.state),
		Path:        []diagnose.Function{fn(m.dev, "device", m.control, m.runtime), fn(m.port, "root port", m.portControl, m.portRuntime)},
		Health:      m.health,
	}
	return f
}

var quietLaptop = machine{dev: "0000:04:00.0", port: "0000:00:1d.0", policy: "default", cmdline: "root=UUID=5e1f rw",
	d3cold: "0", control: "on", runtime: "active", portControl: "on", portRuntime: "active", state: "live"}

func evo(t *testing.T) *powerstate.Controller {
	return identifyImage(t, "samsung-990-evo-plus-1tb-2B2QKXG7.bin")
}

// identifyImage decodes an Identify Controller image of testdata.
func identifyImage(t *testing.T, name string) *powerstate.Controller {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	c, err := powerstate.DecodeIdentify(b)
	require.NoError(t, err)
	return &c
}

func readLog(t *testing.T, name string, addrs map[string]string) *kernlog.Log {
	f, err := os.Open(filepath.Join("testdata", name))
	require.NoError(t, err)
	defer f.Close()
	l, err := kernlog.Read(t.Context(), f, kernlog.Options{Addresses: addrs})
	require.NoError(t, err)
	return l
}

func TestEachLayerRanksFirstOnItsFixture(t *testing.T) {
	aspm := quietLaptop
	aspm.policy, aspm.l12 = "powersupersave", "1"
	d3 := quietLaptop
	d3.d3cold, d3.control, d3.portControl, d3.state = "1", "auto", "auto", "deleting"
	rpm := quietLaptop
	rpm.portControl, rpm.portRuntime = "auto", "suspended"
	link := quietLaptop
	link.dev, link.port, link.policy = "0000:3e:00.0", "0000:00:1c.4", "performance"
	loss := quietLaptop
	loss.dev, loss.port = "0000:01:00.0", "0000:00:01.1"
	loss.health = &diagnose.HealthLog{PowerCycles: 212, UnsafeShutdowns: 97, PowerOnHours: 5012}
	fw := quietLaptop
	fw.dev, fw.port, fw.cmdline = "0000:02:00.0", "0000:00:01.2", "root=/dev/nvme0n1p2 nvme_core.default_ps_max_latency_us=0"

	for _, tc := range []struct {
		log      string
		ctrl     string
		m        machine
		identify bool
		params   func(*apst.Params)
		want     diagnose.Layer
		evidence string
		likely   bool
	}{
		{"apst.log", "nvme0", quietLaptop, true, nil, diagnose.LayerAPST, "the other layer that reads like this, ASPM, is out: ASPM L1 is off", true},
		{"aspm.log", "nvme0", aspm, false, nil, diagnose.LayerASPM, "L1 substates are enabled", true},
		{"d3cold.log", "nvme0", d3, true, nil, diagnose.LayerD3cold, "could not be brought back from D3cold", true},
		{"runtime-pm.log", "nvme0", rpm, false, nil, diagnose.LayerRuntimePM, "could not be brought back from D3hot", true},
		{"link.log", "nvme1", link, false, nil, diagnose.LayerLink, "reported the link down", true},
		{"power-loss.log", "nvme0", loss, false, nil, diagnose.LayerPowerLoss, "unsafe shutdowns", false},
		{"firmware.log", "nvme0", fw, true, func(p *apst.Params) { p.Bound = 0 }, diagnose.LayerFirmware, "Controller Fatal Status", false},
	} {
		t.Run(tc.log, func(t *testing.T) {
			facts := tc.m.facts(tc.ctrl)
			addrs := map[string]string{tc.m.dev: tc.ctrl, tc.m.port: tc.ctrl}
			in := diagnose.Input{Controller: tc.ctrl, Facts: facts, Log: readLog(t, tc.log, addrs)}
			if tc.identify {
				in.Identify = evo(t)
				in.Params = apst.DefaultParams(apst.Current)
				if tc.params != nil {
					tc.params(&in.Params)
				}
			}
			d := diagnose.Diagnose(in)
			require.True(t, d.Failure, d.Summary)
			require.Len(t, d.Causes, len(diagnose.Layers())-1, "every layer but unknown is ranked")
			first := d.Causes[0]
			assert.Equal(t, tc.want, first.Layer, "summary: %s\ncauses: %+v", d.Summary, d.Causes)
			assert.Empty(t, d.Undecided, d.Summary)
			assert.Equal(t, tc.likely, first.Likelihood == diagnose.Likely, "%s: %s", first.Likelihood, d.Summary)
			assert.Contains(t, texts(first.Evidence), tc.evidence)
			assert.NotEmpty(t, first.Tests)
			for i := 1; i < len(d.Causes); i++ {
				assert.GreaterOrEqual(t, d.Causes[i-1].Score, d.Causes[i].Score, "ordered most likely first")
			}
			for _, c := range d.Causes {
				for _, l := range append(c.Evidence, c.Against...) {
					if l.Line > 0 {
						assert.Contains(t, l.Source, "kernel log line", "a log line's evidence names it")
						assert.NotEmpty(t, l.Quote, "a log line's evidence quotes it")
					}
				}
			}
		})
	}
}

func TestQuietLogHasNoFailure(t *testing.T) {
	d := diagnose.Diagnose(diagnose.Input{Controller: "nvme0", Facts: quietLaptop.facts("nvme0"), Log: readLog(t, "quiet.log", nil), Identify: evo(t)})
	assert.False(t, d.Failure)
	assert.Empty(t, d.Causes, "no failure, no ranking")
	assert.Equal(t, "no failure seen in the kernel log for nvme0", d.Summary)
}

// A log whose failures are other drivers' devices' is no NVMe failure,
// and says whose they are; a failure line pasted without its device's
// name is not diagnosed as the drive's, and is not "no failure seen"
// either. A port's, the PCI core's and a passthrough's lines still count
// for the drive below them.
func TestFailuresOfOtherDevices(t *testing.T) {
	for _, tc := range []struct {
		name, log, summary string
		failure            bool
	}{
		{name: "a NIC and a SATA controller (as on a Mac's resume, https://github.com/t2linux/T2-Debian-and-Ubuntu-Kernel/issues/53)",
			log: "[ 1.0] tg3 0000:97:00.0: Unable to change power state from D3hot to D0, device inaccessible\n" +
				"[ 1.1] ahci 0000:8f:00.0: Unable to change power state from D3hot to D0, device inaccessible\n" +
				"[ 5000.0] tg3 0000:97:00.0: Unable to change power state from D3hot to D0, device inaccessible\n",
			summary: "no failure of an NVMe drive seen in the kernel log: the failures it holds are of other devices (tg3 0000:97:00.0, ahci 0000:8f:00.0)"},
		{name: "a USB host the PCI core could not wake (https://github.com/dell/thunderbolt-nvm-linux/issues/23)",
			log: "Nov 06 11:13:52 xps13 kernel: pci 0000:39:00.0: Refused to change power state, currently in D3\n" +
				"Nov 06 11:14:00 xps13 kernel: xhci_hcd 0000:39:00.0: Refused to change power state, currently in D3\n",
			summary: "no failure of an NVMe drive seen in the kernel log: the failures it holds are of other devices (xhci_hcd 0000:39:00.0)"},
		{name: "a GPU's reset lines, no event of its own (Ubuntu Forums, \"Constant Black Screen Randomly\", posted e-19)",
			log: "Dis 28 04:26:29 poopies kernel: amdgpu 0000:03:00.0: amdgpu: GPU mode1 reset failed\n" +
				"Dis 28 04:26:40 poopies kernel: amdgpu 0000:03:00.0: amdgpu: GPU reset(2) failed\n" +
				"Dis 28 04:26:40 poopies kernel: snd_hda_intel 0000:03:00.1: CORB reset timeout#2, CORBRP = 65535\n",
			summary: "no failure of an NVMe drive seen in the kernel log: the failures it holds are of other devices (amdgpu 0000:03:00.0, snd_hda_intel 0000:03:00.1)"},
		{name: "a Wi-Fi card's cut line (a Rockchip PCIe guide, posted e-21)",
			log:     "[ 848.871600] rtl88x2ce 0000:01:00.0: Refused to change power state, currently in   \n",
			summary: "no failure of an NVMe drive seen in the kernel log: the failures it holds are of other devices (rtl88x2ce 0000:01:00.0)"},
		{name: "a root port's own errors, whose recovery reached a SATA card below it (https://github.com/geerlingguy/raspberry-pi-pcie-devices/issues/116, posted g-12)",
			log: "[   58.245739] ahci 0000:01:00.0: AER: can't recover (no error_detected callback)\n" +
				"[   58.252996] pcieport 0000:00:00.0: AER: device recovery failed\n" +
				"[   58.258850] pcieport 0000:00:00.0: AER: Uncorrected (Non-Fatal) error received: 0000:00:00.0\n" +
				"[   58.267326] pcieport 0000:00:00.0: PCIe Bus Error: severity=Uncorrected (Non-Fatal), type=Transaction Layer, (Requester ID)\n",
			summary: "no failure of an NVMe drive seen in the kernel log: the failures it holds are of other devices (ahci 0000:01:00.0) and of PCIe ports that failed with them (0000:00:00.0)"},
		{name: "a line without its device (https://github.com/MrChromebox/firmware/issues/962)",
			log:     "Unable to change power state from D3cold to D0, device inaccessible\n",
			summary: "no failure of a named device seen in the kernel log: line 1 reports a failure without the device's name before it"},
		{name: "the drive refused the APST table (https://github.com/Frogging-Family/linux-tkg/issues/953)",
			log:     "`[    2.018711] nvme nvme0: failed to set APST feature (2)`\n",
			summary: "no failure seen in the kernel log; line 1: the drive refused the kernel's APST table (NVMe status 0x2)"},
		{name: "the APST line without its result (https://github.com/systemd/systemd/issues/23738)",
			log:     "[    0.855046] nvme nvme0: failed to set APST feature\n",
			summary: "no failure seen in the kernel log; line 1: the kernel could not program APST, and the line gives no result"},
		{name: "a reset and the Async Event requests it aborted (https://github.com/linux-nvme/nvme-cli/issues/2846)",
			log: "Jun 17 08:41:25 sm-1125hs-502 kernel: nvme nvme1: resetting controller\n" +
				"Jun 17 08:41:25 sm-1125hs-502 kernel: nvme_log_error: 337 callbacks suppressed\n" +
				"Jun 17 08:41:25 sm-1125hs-502 kernel: nvme1: Async Event(0xc), Host Aborted Command (sct 0x3 / sc 0x71)\n" +
				"Jun 17 08:41:25 sm-1125hs-502 kernel: nvme1: Async Event(0xc), Host Aborted Command (sct 0x3 / sc 0x71)\n",
			summary: "no failure seen in the kernel log; line 1: the controller was reset, and the commands it held were aborted by the host"},
		{name: "an admin command the drive failed", failure: true,
			log: "Jun 17 08:41:25 sm-1125hs-502 kernel: nvme1: Get Features(0xa), Internal Error (sct 0x0 / sc 0x6)\n"},
		{name: "the drive passed through to a guest", failure: true,
			log: "[586739.361003] vfio-pci 0000:01:00.0: Unable to change power state from D3cold to D0, device inaccessible\n"},
		{name: "the drive passed through to a guest, its reset with transactions pending (https://github.com/kata-containers/kata-containers/issues/11708)", failure: true,
			log:     "[586740.080470] vfio-pci 0000:01:00.0: timed out waiting for pending transaction; performing function level reset anyway\n",
			summary: "the drive at 0000:01:00.0: possibly platform (line 1: the host binds the function to vfio-pci, which hands it to a virtual machine or a user-space driver)."},
		{name: "the port above the drive", failure: true,
			log: "[  10.3] pcieport 0000:00:1c.4: pciehp: Slot(4): Link Down\n"},
		{name: "a port recovering a NIC (linux-pci, Message-Id <20240123090016.281252-1-stanislaw.gruszka@linux.intel.com>)",
			log: "[  853.253938] igc 0000:02:00.0: not ready 65535ms after bus reset; giving up\n" +
				"[  853.253973] pcieport 0000:00:1c.2: AER: Root Port link has been reset (-25)\n" +
				"[  853.253996] pcieport 0000:00:1c.2: AER: subordinate device reset failed\n" +
				"[  853.254099] pcieport 0000:00:1c.2: AER: device recovery failed\n" +
				"[  853.254178] igc 0000:02:00.0: Unable to change power state from D3hot to D0, device inaccessible\n",
			summary: "no failure of an NVMe drive seen in the kernel log: the failures it holds are of other devices (igc 0000:02:00.0) and of PCIe ports that failed with them (0000:00:1c.2)"},
		{name: "another driver's failure left unread (a Xen dom0's resume, xen-devel, Message-ID <5f050b30-fa1c-8387-0d6b-a667851b34b0@oderland.se>)",
			log: "Oct 17 22:49:11 dom0 kernel: amdgpu 0000:07:00.0: amdgpu: amdgpu_device_ip_resume failed (-22).\n" +
				"Oct 17 22:49:11 dom0 kernel: amdgpu 0000:07:00.0: PM: failed to resume async: error -22\n",
			summary: "no failure of an NVMe drive seen in the kernel log: the failures it holds are of other devices (amdgpu 0000:07:00.0)"},
		{name: "a root port's own fatal error among a NIC's unread failure lines, no NVMe device named (Mellanox ConnectX-3, posted m-21)",
			log: "kernel: mlx4_core 0000:01:00.0: command 0x21 failed: fw status = 0x1\n" +
				"kernel: pcieport 0000:00:1c.0: AER: Uncorrected (Fatal) error received: 0000:00:1c.0\n" +
				"kernel: pcieport 0000:00:1c.0: PCIe Bus Error: severity=Uncorrected (Fatal), type=Transaction Layer, (Receiver ID)\n" +
				"kernel: mlx4_core 0000:01:00.0: mlx4_pci_err_detected was called\n" +
				"kernel: mlx4_en 0000:01:00.0: Internal error detected, restarting device\n" +
				"kernel: pcieport 0000:00:1c.0: AER: device recovery successful\n",
			summary: "no failure of an NVMe drive seen in the kernel log: the failures it holds are of other devices (mlx4_core 0000:01:00.0) and of PCIe ports that failed with them (0000:00:1c.0)"},
		{name: "a GPU that fell off the bus, its port's corrected errors beside it (a blog's passed-through GPU a PSU cable cured, posted m-12)",
			log: "Nov 07 18:17:15 server kernel: NVRM: GPU 0000:01:00.0: GPU has fallen off the bus.\n" +
				"Nov 07 18:17:15 server kernel: pcieport 0000:00:01.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)\n" +
				"Nov 07 18:17:15 server kernel: pcieport 0000:00:01.0:   device [8086:460d] error status/mask=00002001/00002000\n" +
				"Nov 07 18:17:15 server kernel: pcieport 0000:00:01.0:    [ 0] RxErr                  (First)\n",
			summary: "no failure of an NVMe drive seen in the kernel log: the failures it holds are of other devices (GPU 0000:01:00.0)"},
		{name: "the same port's error among a NIC's lines, in a log that names an NVMe drive", failure: true,
			log: "kernel: nvme nvme0: pci function 0000:02:00.0\n" +
				"kernel: mlx4_core 0000:01:00.0: command 0x21 failed: fw status = 0x1\n" +
				"kernel: pcieport 0000:00:1c.0: AER: Uncorrected (Fatal) error received: 0000:00:1c.0\n" +
				"kernel: pcieport 0000:00:1c.0: PCIe Bus Error: severity=Uncorrected (Fatal), type=Transaction Layer, (Receiver ID)\n"},
		{name: "a passthrough driver's line beside a port's errors, no NVMe device named (Xen's pciback holds the drive for a guest)", failure: true,
			log: "[ 100.0] pciback 0000:01:00.0: xen_pciback: reset failed\n" +
				"[ 100.1] pcieport 0000:00:1d.0: AER: Uncorrected (Fatal) error received: 0000:00:1d.0\n" +
				"[ 100.1] pcieport 0000:00:1d.0: PCIe Bus Error: severity=Uncorrected (Fatal), type=Transaction Layer, (Receiver ID)\n"},
		{name: "a port's report of another driver's device's error",
			log: "[  900.0] pcieport 0000:00:1c.0: AER: Uncorrected (Non-Fatal) error received: 0000:02:00.0\n" +
				"[  900.1] ahci 0000:02:00.0: Unable to change power state from D3hot to D0, device inaccessible\n",
			summary: "no failure of an NVMe drive seen in the kernel log: the failures it holds are of other devices (ahci 0000:02:00.0)"},
		{name: "another driver's failed probe, the driver core's line (https://github.com/dell/thunderbolt-nvm-linux/issues/23)",
			log: "Nov 06 11:13:52 xps13 kernel: thunderbolt: probe of 0000:05:00.0 failed with error -108\n" +
				"Nov 06 11:14:00 xps13 kernel: xhci_hcd 0000:39:00.0: probe with driver xhci_hcd failed with error -19\n",
			summary: "no failure of an NVMe drive seen in the kernel log: the failures it holds are of other devices (thunderbolt 0000:05:00.0, xhci_hcd 0000:39:00.0)"},
		{name: "another driver's function failed to suspend (posted k-10, https://github.com/NixOS/nixpkgs/issues/468957)",
			log: "déc. 08 12:07:18 bestosprec kernel: nvidia 0000:01:00.0: PM: pci_pm_suspend(): nv_pmops_suspend [nvidia] returns -5\n" +
				"déc. 08 12:07:18 bestosprec kernel: nvidia 0000:01:00.0: PM: failed to suspend async: error -5\n",
			summary: "no failure of an NVMe drive seen in the kernel log: the failures it holds are of other devices (nvidia 0000:01:00.0)"},
		{name: "nvme's failed probe is the drive's", failure: true,
			log: "[    1.0] nvme: probe of 0000:01:00.0 failed with error -12\n"},
		{name: "the same port recovering a drive", failure: true,
			log: "[  853.253938] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff\n" +
				"[  853.253973] pcieport 0000:00:1c.2: AER: Root Port link has been reset (-25)\n" +
				"[  853.254099] pcieport 0000:00:1c.2: AER: device recovery failed\n" +
				"[  853.254178] igc 0000:02:00.0: Unable to change power state from D3hot to D0, device inaccessible\n"},
		{name: "a port whose error's source it named: a Wi-Fi card (linux-pci, Message-ID <20220506142254.mzl7jotubvebptlp@pali>)", failure: true,
			log: "[ 2733.258661] pcieport 0000:00:02.0: AER: Multiple Uncorrected (Non-Fatal) error received: 0000:02:00.0\n" +
				"[ 2733.258661] pcieport 0000:00:01.0: AER: Multiple Corrected error received: 0000:01:00.0\n" +
				"[ 2733.267932] ath10k_pci 0000:02:00.0: PCIe Bus Error: severity=Uncorrected (Non-Fatal), type=Transaction Layer, (Requester ID)\n" +
				"[ 2733.305282] ath10k_pci 0000:02:00.0: AER: can't recover (no error_detected callback)\n" +
				"[ 2733.313816] nvme 0000:01:00.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Transmitter ID)\n" +
				"[ 2733.320671] pcieport 0000:00:02.0: AER: device recovery failed\n" +
				"[ 2733.385120] nvme 0000:01:00.0: AER:   Error of this Agent is reported first\n",
			summary: "only corrected errors of the drive's link, which the link recovered from. Its failures are of other devices (ath10k_pci 0000:02:00.0)."},
		{name: "a Thunderbolt bridge's corrected error, no drive named (Dell DA300 dock, linux-pci, posted zk-05)", failure: true,
			log: "[    5.710957] pci 0000:01:00.0: PCIe Bus Error: severity=Corrected, type=Data Link Layer, (Receiver ID)\n" +
				"[    5.710959] pci 0000:01:00.0:   device [8086:1576] error status/mask=00000080/00002000\n" +
				"[   19.503002] pcieport 0000:01:00.0: PCIe Bus Error: severity=Corrected, type=Data Link Layer, (Receiver ID)\n" +
				"[   19.503010] pcieport 0000:01:00.0:   device [8086:1576] error status/mask=00000080/00002000\n",
			summary: "The log has no drop-out: only corrected errors of the port's link"},
		{name: "the nvme driver's line without its controller's number (https://github.com/MrChromebox/firmware/issues/944, posted f-07)", failure: true,
			log:     "nvme nvme: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n",
			summary: "the drive: undecided between apst and aspm (line 1 fits both)"},
		{name: "an NVMe function the log enumerated, without nvme's driver", failure: true,
			log: "[    0.5] pci 0000:01:00.0: [144d:a80c] type 00 class 0x010802 PCIe Endpoint\n" +
				"[  100.0] xyz 0000:01:00.0: Unable to change power state from D3cold to D0, device inaccessible\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			summaryOf(t, tc.log, tc.failure, tc.summary)
		})
	}
}

// summaryOf diagnoses log alone and checks whether it found a failure and
// that its summary holds summary (when not empty).
func summaryOf(t *testing.T, log string, failure bool, summary string) diagnose.Diagnosis {
	t.Helper()
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	d := diagnose.Diagnose(diagnose.Input{Log: l})
	require.Equal(t, failure, d.Failure, d.Summary)
	if summary != "" {
		assert.Contains(t, d.Summary, summary)
	}
	return d
}

// Lines the reader skipped unread (longer than kernlog.MaxLineLength, or
// holding NUL bytes) are never "no failure seen": a log whose other lines
// were read says so, a failure read beside them carries a note, and a log
// joined into one line is refused (kernlog.ErrNotKernelLog), nothing of it
// read.
func TestSkippedLinesAreSaid(t *testing.T) {
	down := "nvme nvme0: controller is down; will reset: CSTS=0x3, PCI_STATUS=0x10"
	joined := down + " " + strings.Repeat(down+" ", kernlog.MaxLineLength/len(down)+1)
	for _, tc := range []struct {
		name, log, summary, note string
		failure                  bool
	}{
		{name: "a line joined from a log beside a quiet one", log: "nvme nvme0: pci function 0000:01:00.0\n" + joined + "\n",
			summary: "no failure seen in the lines read, but 1 line(s) of the log were skipped unread (1 longer than 65536 bytes): paste the log with its line breaks"},
		{name: "a line of NUL bytes beside a quiet one", log: "nvme nvme0: pci function 0000:01:00.0\n\x00\x00\x00\n",
			summary: "no failure seen in the lines read, but 1 line(s) of the log were skipped unread (1 holding NUL bytes)"},
		{name: "a failure beside a long line", log: joined + "\n" + down + "\n", failure: true,
			note: "1 line(s) of the log were skipped unread (1 longer than 65536 bytes): the diagnosis rests on the other lines"},
		{name: "nothing skipped", log: down + "\n", failure: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := summaryOf(t, tc.log, tc.failure, tc.summary)
			var notes []string
			for _, n := range d.Notes {
				if strings.Contains(n, "skipped unread") {
					notes = append(notes, n)
				}
			}
			if tc.note == "" {
				assert.Empty(t, notes)
			} else {
				assert.Equal(t, []string{tc.note}, notes)
			}
		})
	}
}

func texts(ls []diagnose.Line) string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l.Source + ": " + l.Text + "\n")
	}
	return b.String()
}

func TestAPSTBarsOnlyTheOffendingState(t *testing.T) {
	d := diagnose.Diagnose(diagnose.Input{Controller: "nvme0", Facts: quietLaptop.facts("nvme0"), Log: readLog(t, "apst.log", nil),
		Identify: evo(t), Params: apst.DefaultParams(apst.Current)})
	a := d.Causes[0]
	require.Equal(t, diagnose.LayerAPST, a.Layer)
	assert.Equal(t, diagnose.Likely, a.Likelihood)
	assert.Contains(t, texts(a.Evidence), "the table takes an idle drive to ps4 (entry 1600 us, exit 43000 us) under the bound 100000us")
	require.NotEmpty(t, a.Tests)
	bar := a.Tests[0]
	assert.Equal(t, "echo 42999 | sudo tee /sys/class/nvme/nvme0/power/pm_qos_latency_tolerance_us", bar.Command)
	assert.Contains(t, bar.Action, "bar only ps4: a bound of 42999 us keeps ps3")
	assert.Equal(t, "the drive idles in ps3 (0.0800W) instead of ps4 (0.0070W): about +73 mW while idle", bar.Cost)
	last := a.Tests[len(a.Tests)-1]
	assert.Contains(t, last.Command, "nvme_core.default_ps_max_latency_us=0", "=0 only where the evidence points at APST, and last")
	assert.Contains(t, d.Summary, "First bar only ps4")
	// 6.12.48 predates the Set Features refusal: reading the drive's table is a test.
	assert.Contains(t, texts2(a.Tests), "nvme get-feature /dev/nvme0 -f 0x0c -H")
}

func texts2(ts []diagnose.Test) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.Action + " | " + t.Command + " | " + t.Cost + "\n")
	}
	return b.String()
}

func TestSetFeaturesRefusal(t *testing.T) {
	for _, tc := range []struct {
		rel   string
		want  bool
		known bool
	}{
		{"7.3.0-rc1", true, true}, {"7.3", true, true}, {"7.4.1", true, true}, {"7.2.6", true, true}, {"7.2.5", false, true},
		{"6.18.52", true, true}, {"6.18.51", false, true}, {"6.12.110-1-lts", true, true}, {"6.12.109", false, true},
		{"6.6.158", true, true}, {"6.6.157", false, true}, {"6.1.200", false, true}, {"7.1.9", false, true},
	} {
		r, err := apst.ParseRelease(tc.rel)
		require.NoError(t, err)
		got, known := diagnose.RefusesAPSTPassthrough(r)
		assert.Equal(t, tc.want, got, tc.rel)
		assert.Equal(t, tc.known, known, tc.rel)
	}
	_, known := diagnose.RefusesAPSTPassthrough(apst.Release{})
	assert.False(t, known)

	// On such a kernel nvme set-feature is neither a cause nor a test.
	d := diagnose.Diagnose(diagnose.Input{Controller: "nvme0", Log: readLog(t, "apst.log", nil), Identify: evo(t),
		Params: apst.DefaultParams(apst.Current), Release: apst.Release{Major: 6, Minor: 12, Patch: 110}})
	a := d.Cause(diagnose.LayerAPST)
	assert.Contains(t, texts(a.Against), "refuses Set Features 0Ch from user space")
	assert.NotContains(t, texts2(a.Tests), "nvme get-feature")
	assert.NotContains(t, texts2(a.Tests), "set-feature")
}

func TestNothingKnown(t *testing.T) {
	d := diagnose.Diagnose(diagnose.Input{})
	assert.False(t, d.Failure)
	assert.Empty(t, d.Causes)
	assert.Contains(t, d.Summary, "no failure seen: no kernel log was read")
}

// TestZeroParamsTakeTheDrivesQuirks: the zero Params are the release's
// defaults with the quirks the kernel's tables give the drive, so a drive
// the kernel never runs APST on is not blamed on an APST table.
func TestZeroParamsTakeTheDrivesQuirks(t *testing.T) {
	c := powerstate.Controller{VendorID: 0x1179, Model: "THNSF5256GPUK TOSHIBA", Firmware: "51025KLA", NPSS: 4, APSTA: 1}
	for i := 1; i <= 4; i++ {
		c.PowerStates[i] = powerstate.Descriptor{NonOperational: i >= 3, EntryLatency: 1000, ExitLatency: powerstate.Microseconds(1000 * i)}
	}
	d := diagnose.Diagnose(diagnose.Input{Identify: &c, Log: readLog(t, "apst.log", nil)})
	assert.Contains(t, strings.Join(d.Notes, "\n"), "and the quirks the kernel's tables give the drive (no-apst)")
}

// TestSubjectIsWhomDiagnosePicks: Subject names the controller Diagnose
// diagnoses when none is named, on every fixture log.
func TestSubjectIsWhomDiagnosePicks(t *testing.T) {
	for _, name := range []string{"apst.log", "aspm.log", "d3cold.log"} {
		l := readLog(t, name, nil)
		assert.Equal(t, diagnose.Diagnose(diagnose.Input{Log: l}).Controller, diagnose.Subject(l), name)
	}
	assert.Empty(t, diagnose.Subject(nil))
}

// A controller reached over a fabric (nvme-tcp's error recovery, as a
// metal-stack log shows it: https://github.com/metal-stack/metal-images/pull/190)
// is none of a PCIe drive's layers: the answer says so, ranks nothing of
// them and quotes the line.
func TestFabricsController(t *testing.T) {
	d := diagnoseFailure(t, "[Wed Jun 28 13:19:08 2023] nvme nvme4: queue 0: timeout request 0x0 type 4\n"+
		"[Wed Jun 28 13:19:08 2023] nvme nvme4: starting error recovery\n"+
		"[Wed Jun 28 13:19:08 2023] nvme nvme4: failed nvme_keep_alive_end_io error=10\n"+
		"[Wed Jun 28 13:19:08 2023] nvme nvme4: Reconnecting in 10 seconds...\n")
	assert.Contains(t, d.Summary, "nvme4: an NVMe over Fabrics controller (line 1)")
	require.Len(t, d.Causes, 1)
	assert.Equal(t, diagnose.LayerUnknown, d.Causes[0].Layer)
	assert.Equal(t, "[Wed Jun 28 13:19:08 2023] nvme nvme4: queue 0: timeout request 0x0 type 4", d.Causes[0].Evidence[0].Quote)
	assert.Empty(t, d.Undecided)

	// nvme-tcp's timeout line alone says the fabric: a dmesg -H log of
	// timeouts and the NIC's link (posted g-18, linux-rdma, Message-ID:
	// <20200729085711.GA5762@chelsio.com>).
	d = diagnoseFailure(t, "[Jul29 07:17] nvme nvme0: queue 0: timeout request 0xe type 4\n"+
		"[ +13.816015] cxgb4 0000:02:00.4: Port 0 link down, reason: Link Down\n"+
		"[Jul29 07:18] nvme nvme0: queue 0: timeout request 0xe type 4\n")
	assert.Contains(t, d.Summary, "nvme0: an NVMe over Fabrics controller (line 1)")
	require.Len(t, d.Causes, 1)
	assert.Equal(t, diagnose.LayerUnknown, d.Causes[0].Layer)

	// A connect that failed says the fabric too: nvme-rdma's line (posted
	// i-09, https://github.com/spdk/spdk/issues/697), nvme-tcp's and the
	// fabrics library's (drivers/nvme/host/tcp.c, fabrics.c).
	for _, line := range []string{
		"[Mon Dec 26 06:14:36 2022] nvme nvme0: rdma connection establishment failed (-104)\n",
		"[  120.000000] nvme nvme0: failed to connect socket: -111\n",
		"[  120.000000] nvme nvme0: Connect command failed, error wo/DNR bit: 6\n",
		// nvme-fc's prefix (posted f-12, linux-nvme).
		"> [4164487.114519] nvme nvme0: NVME-FC{0}: reset: Reconnect attempt failed (-111)\n",
		// nvme-loop's connect line, then the disk's I/O error (posted
		// f-02, a blktests run on linux-nvme).
		"[  176.037674] nvme nvme0: new ctrl: \"blktests-subsystem-1\"\n[  177.240516] print_req_error: I/O error, dev nvme0n1, sector 0 flags 801\n",
	} {
		d = diagnoseFailure(t, line)
		assert.Contains(t, d.Summary, "nvme0: an NVMe over Fabrics controller (line 1)", line)
	}
}

// The NVMe over Fabrics target's own lines (nvmet, its transports) are
// this machine serving a target, not a drive of its failing: a host's log
// with them (a blktests loop, posted i-12: linux-block, Message-Id:
// <4F41414B-05F8-4E7D-A312-8A47B8468C78@linaro.org>) is answered for the
// host's controller and says how they were read; a target's log alone
// says whose failures it holds and where to look.
func TestFabricsTarget(t *testing.T) {
	const target = "[  155.366535] nvmet: ctrl 1 keep-alive timer (15 seconds) expired!\n" +
		"[  155.366568] nvmet: ctrl 1 fatal error occurred!\n"
	l, err := kernlog.ReadString(target+
		"[  155.366608] nvme nvme0: starting error recovery\n"+
		"[  155.375674] nvme nvme0: Reconnecting in 10 seconds...\n", kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Unread, 1, "the reader lists the target's failure line")
	d := diagnose.Diagnose(diagnose.Input{Log: l})
	assert.True(t, d.Failure)
	assert.Contains(t, d.Summary, "nvme0: an NVMe over Fabrics controller (line 3)")
	assert.Empty(t, d.Unread, "the diagnosis reads it as the target's")
	assert.Contains(t, d.Notes, "line 2: the NVMe over Fabrics target's driver (nvmet): this machine serves a target too, and its lines are of the hosts' connections to it (a keep-alive that expired, a host's controller it ended), read as the target's, not as a drive's failure")

	for _, log := range []string{target, "Mar 31 20:59:44 rig kernel: nvmet_tcp: failed to allocate queue, error -12\nMar 31 20:59:45 rig kernel: nvmet: ctrl 2 fatal error occurred!\n"} {
		l, err = kernlog.ReadString(log, kernlog.Options{})
		require.NoError(t, err)
		d = diagnose.Diagnose(diagnose.Input{Log: l})
		assert.False(t, d.Failure)
		assert.Empty(t, d.Unread)
		assert.True(t, strings.HasPrefix(d.Summary, "no failure of an NVMe drive of this machine seen in the kernel log: line "), d.Summary)
		assert.Contains(t, d.Summary, "is the NVMe over Fabrics target's (nvmet)")
		assert.False(t, slices.ContainsFunc(d.Notes, func(n string) bool { return strings.Contains(n, "(nvmet)") }), "said once: %v", d.Notes)
	}

	// A host's line that only mentions a target is the host's.
	l, err = kernlog.ReadString("[  155.366568] vfio-pci 0000:01:00.0: nvmet: reset failed\n", kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Unread, 1)
	d = diagnose.Diagnose(diagnose.Input{Log: l})
	assert.Len(t, d.Unread, 1)
}

// A stack dump of the driver's code pasted without its first lines (posted
// f-16: https://github.com/radxa-build/rock-pi-4b/issues/5) is no
// failure the log shows, but it says where the failure's lines are.
func TestDriverFrameFragment(t *testing.T) {
	l, err := kernlog.ReadString("[   72.403400] pc : readl+0x4/0x18\n[   72.403419] lr : nvme_timeout+0x50/0x350\n", kernlog.Options{})
	require.NoError(t, err)
	d := diagnose.Diagnose(diagnose.Input{Log: l})
	assert.False(t, d.Failure)
	assert.Equal(t, "no failure line seen in the kernel log, but line 2 is a frame of the NVMe driver's code in a stack dump whose first lines, which say what failed (a crash, a warning, a hung task), are not in the log; give the whole log of that boot (journalctl -k -b -1 --no-pager, or dmesg), from the dump's first line on", d.Summary)
	require.Len(t, d.Consequences, 1)
	assert.Equal(t, "[   72.403419] lr : nvme_timeout+0x50/0x350", d.Consequences[0].Quote)
}

// A kernel warning whose dump, as far as the log holds it, does not run
// through the nvme driver's code (a WSL2 guest's MSI setup, the paste
// cut after the banner: posted n-17,
// https://github.com/snu-csl/nvmevirt/issues/8) is no failure of a drive,
// but it is said, not passed over as "no failure seen".
func TestKernelBugElsewhere(t *testing.T) {
	l, err := kernlog.ReadString(`[  115.290183] nvme nvme1: pci function 0001:10:00.0
[  115.290305] ------------[ cut here ]------------
[  115.290306] WARNING: CPU: 1 PID: 107 at pci_msi_setup_msi_irqs+0x1b/0x90
`, kernlog.Options{})
	require.NoError(t, err)
	d := diagnose.Diagnose(diagnose.Input{Log: l})
	assert.False(t, d.Failure)
	assert.Equal(t, "no failure of an NVMe drive seen in the kernel log; line 3: the kernel warned or crashed, and the dump, as far as the log holds it, does not run through the nvme driver's code (give the whole dump, to its end, if the drive is in question)", d.Summary)
	require.Len(t, d.Consequences, 1)
	assert.Equal(t, 3, d.Consequences[0].Line)
}

// IOMMU faults of the drive's DMA with no timeout or reset of the drive
// (posted z-02, zg-05: https://lore.kernel.org/all/366b1545-fdea-3423-10a7-308ca2bef746@molgen.mpg.de/,
// where Keith Busch suggested iommu=soft and Joerg Roedel a driver's or
// the drive's firmware bug) are no drop-out, but they are said, with how
// many and the test; another device's faults, or an NVMe function's
// while another controller is asked about, are not the drive's.
func TestIOMMUFaultsAlone(t *testing.T) {
	for _, tc := range []struct {
		name, log, ctrl string
		want            string // the summary's start; "" for plain "no failure seen"
		line            int
	}{
		{"amd-vi of nvme", "[    4.194306] nvme 0000:01:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x000c address=0xffffc080 flags=0x0050]\n" +
			"[    4.206970] nvme 0000:01:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x000c address=0xffffc000 flags=0x0050]\n", "",
			"no failure of the drive seen in the kernel log (no timeout, reset or drop-out); line 1: the IOMMU refused 2 DMA(s) of the drive (0000:01:00.0)", 1},
		{"dmar of a controller's function", "[    1.000000] nvme nvme0: pci function 0000:02:00.0\n" +
			"[   20.000000] DMAR: [DMA Read NO_PASID] Request device [02:00.0] fault addr 0xfffe0000 [fault reason 0x06] PTE Read access is not set\n", "",
			"no failure of the drive seen in the kernel log (no timeout, reset or drop-out); line 2: the IOMMU refused 1 DMA(s) of the drive (0000:02:00.0)", 2},
		{"dmar of another device", "[    1.000000] nvme nvme0: pci function 0000:02:00.0\n" +
			"[   20.000000] DMAR: [DMA Read NO_PASID] Request device [00:02.0] fault addr 0xfffe0000 [fault reason 0x06] PTE Read access is not set\n", "", "", 0},
		{"dmar alone of a device not named nvme", "[   20.000000] DMAR: [DMA Read NO_PASID] Request device [00:02.0] fault addr 0xfffe0000 [fault reason 0x06] PTE Read access is not set\n", "", "", 0},
		{"another controller asked", "[    1.000000] nvme nvme0: pci function 0000:02:00.0\n[    1.000001] nvme nvme1: pci function 0000:03:00.0\n" +
			"[   20.000000] DMAR: [DMA Read NO_PASID] Request device [02:00.0] fault addr 0xfffe0000 [fault reason 0x06] PTE Read access is not set\n", "nvme1", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tc.log, kernlog.Options{})
			require.NoError(t, err)
			d := diagnose.Diagnose(diagnose.Input{Log: l, Controller: tc.ctrl})
			assert.False(t, d.Failure, d.Summary)
			assert.Empty(t, d.Causes, d.Summary)
			if tc.want == "" {
				assert.True(t, strings.HasPrefix(d.Summary, "no failure seen in the kernel log"), d.Summary)
				assert.Empty(t, d.Consequences)
				return
			}
			assert.True(t, strings.HasPrefix(d.Summary, tc.want), d.Summary)
			assert.Contains(t, d.Summary, "iommu=soft, or iommu=pt")
			require.Len(t, d.Consequences, 1)
			assert.Equal(t, tc.line, d.Consequences[0].Line)
		})
	}
}

// A hung task that names no device (posted i-19, a Pinebook Pro's NVMe
// frozen after resume: https://github.com/samueldr/wip-pinebook-pro/issues/3)
// is said, with where the drive's own lines would be.
func TestBlockedTaskWithoutDevice(t *testing.T) {
	l, err := kernlog.ReadString("[ 1934.301295] INFO: task fdisk:3791 blocked for more than 966 seconds.\n[ 1934.311737]  blk_queue_enter+0x138/0x290\n", kernlog.Options{})
	require.NoError(t, err)
	d := diagnose.Diagnose(diagnose.Input{Log: l})
	assert.False(t, d.Failure)
	assert.True(t, strings.HasPrefix(d.Summary, "no failure of an NVMe drive seen in the kernel log; line 1: a task stayed blocked past the hung-task limit, and the log does not say on which device"), d.Summary)
	require.Len(t, d.Consequences, 1)
	assert.Equal(t, "[ 1934.301295] INFO: task fdisk:3791 blocked for more than 966 seconds.", d.Consequences[0].Quote)
}

// A hung task whose stack runs through the NVMe driver's own code, and
// nothing else of the drive (posted zc-11, a power-off blocked in
// nvme_wait_freeze_timeout: linux-block, Message-ID:
// <d713fe1b-3eaa-4de4-99a6-5910247ffad5@kernel.dk>), is a failure: the
// driver hung, a kernel matter, with the frame quoted; a development
// kernel's release, read from the report's taint line, says so too.
func TestHungTaskInDriverCode(t *testing.T) {
	d := diagnoseFailure(t, `[   75.549201] INFO: task systemd-shutdow:1 blocked for more than 15 seconds.
[   75.549636]       Not tainted 6.7.0-rc5-00173-g34d71db9cce2 #4540
[   75.550900] Call trace:
[   75.551857]  blk_mq_freeze_queue_wait_timeout+0xf4/0x18c
[   75.552157]  nvme_wait_freeze_timeout+0x68/0xa4
[   75.552503]  nvme_dev_disable+0x35c/0x374
`)
	require.True(t, d.Failure, d.Summary)
	require.NotEmpty(t, d.Causes)
	c := d.Causes[0]
	assert.Equal(t, diagnose.LayerPlatform, c.Layer)
	assert.Equal(t, diagnose.Possible, c.Likelihood)
	require.NotEmpty(t, c.Evidence)
	assert.Equal(t, 1, c.Evidence[0].Line)
	assert.Contains(t, c.Evidence[0].Text, "in the NVMe driver's own code (its stack, line 5: [   75.552157]  nvme_wait_freeze_timeout+0x68/0xa4)")
	assert.Contains(t, d.Summary, "a task stayed blocked past the hung-task limit in the NVMe driver's own code")
	for _, n := range d.Notes {
		assert.NotContains(t, n, "names no NVMe controller", "the dump names the NVMe driver")
	}
	var release bool
	for _, e := range c.Evidence {
		release = release || strings.Contains(e.Text, "a development kernel (6.7.0-rc5-00173-g34d71db9cce2)")
	}
	assert.True(t, release, "%+v", c.Evidence)
}

// A reset that gave up on the controller's state ("ctrl state 1 is not
// RESETTING") disables the device with the driver's own -19: a race of
// the reset with a resume or another reset, not a device that read all
// ones, so neither APST nor ASPM takes the -19 (posted zf-06, a Tegra
// board's resume, and zc-10, an admin command that timed out before it,
// whose first reset brought the controller back: Jon Hunter, linux-pci,
// Message-IDs <cf1e685a-a1cb-45ec-bdc3-1ef1a3d1044e@nvidia.com> and
// <9a76a4a7-c02c-436a-8f69-57606a6b2bed@nvidia.com>).
func TestResetRacedIsNoDeviceGone(t *testing.T) {
	for _, tc := range []struct {
		name, log string
		live      bool // the controller was live: the race is the platform's evidence
		apst      bool // a timeout that recovered speaks for APST too
	}{
		{"alone", "  nvme nvme0: ctrl state 1 is not RESETTING\n  nvme nvme0: Disabling device after reset failure: -19\n  Aborting journal on device nvme0n1p1-8.\n", true, false},
		{"after a timeout", `[ 1002.467432] nvme nvme0: I/O tag 12 (400c) opcode 0x9 (Admin Cmd) QID 0 timeout, reset controller
[ 1002.493713] nvme nvme0: 12/0/0 default/read/poll queues
[ 1003.050448] nvme nvme0: ctrl state 1 is not RESETTING
[ 1003.054035] nvme nvme0: Disabling device after reset failure: -19
`, true, true},
		// Dead (6) after a DPC containment and recovery (posted j-03,
		// linux-pci): the removal's consequence, no race of its own.
		{"dead", "[  217.071614] nvme nvme0: ctrl state 6 is not RESETTING\n[  217.071700] nvme nvme0: Disabling device after reset failure: -19\n", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := diagnoseFailure(t, tc.log)
			for _, c := range d.Causes {
				for _, e := range c.Evidence {
					assert.NotContains(t, e.Text, "read all ones", c.Layer)
				}
			}
			assert.Empty(t, causeOf(&d, diagnose.LayerASPM).Evidence)
			assert.Equal(t, tc.apst, len(causeOf(&d, diagnose.LayerAPST).Evidence) > 0)
			platform := causeOf(&d, diagnose.LayerPlatform).Evidence
			if !tc.live {
				assert.Empty(t, platform)
				return
			}
			require.NotEmpty(t, d.Causes)
			assert.Equal(t, diagnose.LayerPlatform, d.Causes[0].Layer, d.Summary)
			require.NotEmpty(t, platform)
			assert.Contains(t, platform[0].Text, "no longer in its resetting state but live")
			assert.Contains(t, platform[0].Quote, "ctrl state 1 is not RESETTING")
		})
	}
}

// assertEvidence diagnoses log and asserts that one of its causes has
// evidence whose meaning starts with want.
func assertEvidence(t *testing.T, log, want string) {
	t.Helper()
	d := diagnoseFailure(t, log)
	for _, c := range d.Causes {
		for _, e := range c.Evidence {
			if strings.HasPrefix(e.Text, want) {
				return
			}
		}
	}
	t.Errorf("no evidence starts with %q: %+v", want, d.Causes)
}

// A fabrics controller's test is its transport's: Fibre Channel (posted
// zc-04, a SLES supportconfig's lpfc lines), RDMA whose connection failed
// for lack of memory (posted zc-09, soft-RoCE), a target on the loopback
// (posted g-19, blktests: linux-block, Message-ID:
// <1711488120.3435389.1602219830518.JavaMail.zimbra@redhat.com>), TCP
// otherwise; no note speaks of an APST verdict it does not give.
func TestFabricsTransportTests(t *testing.T) {
	tests := []struct {
		name, log string
		first     string
		n         int
	}{
		{"fibre channel", "[10795.014472][T31147] nvme nvme1: NVME-FC{1}: controller connectivity lost.\n", "check the Fibre Channel path", 1},
		{"rdma, out of memory", "[  981.641676] nvme nvme0: rdma connection establishment failed (-12)\n", "the host could not allocate what the connection needs (error -12, ENOMEM)", 2},
		{"loopback", "[  724.681350] nvme nvme0: new ctrl: NQN \"blktests-subsystem-1\", addr 127.0.0.1:4420\n" +
			"[  787.042066] nvme nvme0: queue 2: timeout request 0xe type 4\n" +
			"[  787.047649] nvme nvme0: starting error recovery\n", "the target is this machine's own", 1},
		{"tcp", "[  724.681350] nvme nvme0: new ctrl: NQN \"nqn.2014-08.org.nvmexpress:uuid:1\", addr 192.168.1.20:4420\n" +
			"[  787.047649] nvme nvme0: starting error recovery\n", "check the path to the target: the network", 1},
		// nvme-tcp's timeout names the PDU's type, nvme-pci's does not
		// (a k3s cluster's Longhorn volumes, posted zq-02).
		{"tcp timeout alone", "Apr 17 10:28:43 nl-k8s-03 kernel: nvme nvme13: I/O tag 24 (6018) type 4 opcode 0x1 (I/O Cmd) QID 3 timeout\n", "check the path to the target: the network", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := diagnoseFailure(t, tt.log)
			require.Len(t, d.Causes, 1, d.Summary)
			assert.Equal(t, diagnose.LayerUnknown, d.Causes[0].Layer)
			require.Len(t, d.Causes[0].Tests, tt.n)
			assert.True(t, strings.HasPrefix(d.Causes[0].Tests[0].Action, tt.first), d.Causes[0].Tests[0].Action)
			for _, n := range d.Notes {
				assert.NotContains(t, n, "APST", "a fabrics controller's answer weighs no APST")
			}
		})
	}
}

// A controller that gave up becoming ready with Controller Fatal Status
// set answered and said it failed (QEMU's emulated controller, a
// secondary one not brought online, posted zc-07): firmware first, the
// platform's time or power below it.
func TestNotReadyWithFatalStatus(t *testing.T) {
	d := diagnoseFailure(t, `[   95.377976] nvme nvme1: pci function 0000:01:00.1
[   95.381532] nvme nvme1: Device not ready; aborting initialisation, CSTS=0x2
`)
	require.NotEmpty(t, d.Causes)
	assert.Equal(t, diagnose.LayerFirmware, d.Causes[0].Layer)
	assert.Contains(t, d.Causes[0].Evidence[0].Text, "Controller Fatal Status (CSTS 0x2, bit 1)")
}

// A crash whose dump runs through the NVMe driver but whose line names
// another file happened there, called from the driver (an EC2 Xen guest's
// BUG in its event channels from nvme_reset_work, posted zc-06); the
// report goes to that file's maintainers.
func TestCrashInAnotherFile(t *testing.T) {
	d := diagnoseFailure(t, `  INFO: nvme nvme77: 1/0/0 default/read/poll queues
  CRIT: kernel BUG at drivers/xen/events/events_base.c:427!
  WARN: invalid opcode: 0000 [#1] SMP NOPTI
  WARN: Workqueue: nvme-reset-wq nvme_reset_work [nvme]
  WARN: RIP: e030:bind_evtchn_to_cpu+0xc2/0xd0
`)
	require.NotEmpty(t, d.Causes)
	c := d.Causes[0]
	assert.Equal(t, diagnose.LayerPlatform, c.Layer)
	assert.Contains(t, c.Evidence[0].Text, "the kernel crashed in drivers/xen/events/events_base.c:427, called from the NVMe driver's code, before")
	var report bool
	for _, tt := range c.Tests {
		report = report || strings.Contains(tt.Action, "maintainers of drivers/xen/events/events_base.c (scripts/get_maintainer.pl -f drivers/xen/events/events_base.c")
	}
	assert.True(t, report, "%+v", c.Tests)
}

// Lines that could not be read do not hide what was read of a failure's
// traces: a hung task beside a line of prose that names nvme and a
// failure word (a forum post's first line above its paste; the task's
// lines from posted i-19).
func TestUnreadBesideBlockedTask(t *testing.T) {
	d := summaryOf(t, "nvme0 timeout then the reset hangs, log below\n[ 1934.301295] INFO: task fdisk:3791 blocked for more than 966 seconds.\n[ 1934.311737]  blk_queue_enter+0x138/0x290\n", false, "")
	assert.False(t, d.Failure)
	assert.True(t, strings.HasPrefix(d.Summary, "no failure read, but 1 line(s) look like NVMe or PCIe messages and could not be read"), d.Summary)
	assert.Contains(t, d.Summary, "; line 2: a task stayed blocked past the hung-task limit")
	require.Len(t, d.Consequences, 1)
	assert.Equal(t, 2, d.Consequences[0].Line)
}

// An IOMMU fault at address 0 (an AMD server's linux-next regression,
// posted ze-03, wrapped by the mailer) speaks for the platform as any
// IOMMU fault does, but the IOMMU's passthrough is no test for it: it
// would let the DMA reach physical page 0.
func TestIOMMUFaultAtAddressZero(t *testing.T) {
	d := diagnoseFailure(t, `>> [   49.361223] nvme nvme0: controller is down; will reset: CSTS=0x3, 
>> PCI_STATUS=0x1010
>> [   49.536300] nvme nvme0: 32/0/0 default/read/poll queues
>> [   49.605281] nvme 0000:41:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT 
>> domain=0x0018 address=0x0 flags=0x0000]
`)
	require.NotEmpty(t, d.Causes)
	c := d.Causes[0]
	assert.Equal(t, diagnose.LayerPlatform, c.Layer)
	var zero bool
	for _, e := range c.Evidence {
		zero = zero || strings.Contains(e.Text, "a DMA of the drive to address 0, which is never mapped")
	}
	assert.True(t, zero, "%+v", c.Evidence)
	for _, tst := range c.Tests {
		assert.NotEqual(t, "iommu=pt", tst.Setting)
	}
}

// A link down that pciehp reports after the port's DPC contained an
// error is DPC's doing, said so (a Kunpeng root port's Completer Abort,
// posted ze-09: linux-pci, Message-ID: <20210428144041.GA27967@wunner.de>);
// without the containment the drive left the bus; after a Surprise Down,
// the link's own loss, it is no DPC's doing.
func TestLinkDownAfterDPC(t *testing.T) {
	const dpc = "[12508.408576] pcieport 0000:00:10.0: DPC: containment event, status:0x1f21 source:0x0000\n" +
		"[12508.434277] pcieport 0000:00:10.0: PCIe Bus Error: severity=Uncorrected (Non-Fatal), type=Transaction Layer, (Completer ID)\n"
	const down = "[12511.152329] pcieport 0000:00:10.0: pciehp: Slot(0): Link Down\n"
	// A Surprise Down that DPC contained (its status line, an AMD root
	// port's on a drive's hot removal: linux-pci, Message-ID:
	// <3c5da397-6d72-26cd-7204-4388ff3da1dd@linux.intel.com>, posted
	// zj-07): the link was lost first, which the report says too.
	const sdes = "[  100.000001] pcieport 0000:00:01.4: DPC: containment event, status:0x1f01 source:0x0000\n" +
		"[  100.000002] pcieport 0000:00:01.4: PCIe Bus Error: severity=Uncorrected (Fatal), type=Transaction Layer, (Receiver ID)\n" +
		"[  100.000003] pcieport 0000:00:01.4:   device [1022:14ab] error status/mask=00000020/04004000\n" +
		"[  100.000004] pcieport 0000:00:01.4:    [ 5] SDES (First)\n" +
		"[  101.000000] pcieport 0000:00:01.4: pciehp: Slot(16): Link Down\n"
	for log, want := range map[string]string{
		dpc + down: "the port above the drive reported the link down after its DPC contained an uncorrectable error (line 1)",
		down:       "the port above the drive reported the link down: the drive left the bus",
		sdes:       "the port above the drive reported the link down, which its DPC contained as a Surprise Down (line 1): the link was lost first",
	} {
		assertEvidence(t, log, want)
	}
	assertEvidence(t, sdes, "1 uncorrected AER error report(s) for the drive's link, its status a Surprise Down: the link went down without warning, as when a drive is pulled from a hot-plug slot")
}

// The PCI core's recovery that POWER's EEH ran has its report in the
// log: the EEH line is quoted, not said missing (posted ze-01); so has the
// recovery of a function s390's firmware reported (posted o-09).
func TestRecoveryUnderEEH(t *testing.T) {
	const rec = "[Thu Jan 15 14:25:29 2026] nvme nvme0: frozen state error detected, reset controller\n"
	for log, want := range map[string]string{
		"[Thu Jan 15 14:25:29 2026] EEH: Frozen PHB#18-PE#10000 detected\n" + rec: "POWER's error handling, EEH, froze the drive's endpoint (line 1)",
		rec: "the PCI core ran its error recovery for the drive (AER or DPC): an uncorrectable error on its link, whose report the log does not hold",
		// s390's firmware reports the error itself (posted o-09).
		"zpci: 000e:00:00.0: Event 0x3a reports an error for PCI function 0x1004\nnvme nvme0: frozen state error detected, reset controller\n": "the machine's firmware reported an error for the drive's PCI function (s390's zPCI error event)",
	} {
		assertEvidence(t, log, want)
	}
}

// A crash in a virtual machine leads with the crash, the machine after it
// as the scene; a kernel tainted by an out-of-tree module says so (a QEMU
// guest's oops in blk_mq_complete_request_remote under a test tool's
// module, posted ze-05).
func TestCrashInAGuest(t *testing.T) {
	l, err := kernlog.ReadString(`[  575.769600] nvme2n1: I/O Cmd(0x2) @ LBA 780693336, 16 blocks, I/O Error (sct 0x3 / sc 0x71)
[  575.807349] BUG: kernel NULL pointer dereference, address: 00000000000000fe
[  575.811534] Oops: 0000 [#1] PREEMPT SMP NOPTI
[  575.812327] CPU: 3 PID: 2542 Comm: xio-tester Tainted: G           OE      6.8.0-117-generic #117-Ubuntu
[  575.813969] Hardware name: QEMU Standard PC (Q35 + ICH9, 2009), BIOS rel-1.17.0-0-gb52ca86e094d-prebuilt.qemu.org 04/01/2014
[  575.815881] RIP: 0010:blk_mq_complete_request_remote+0x23/0x1a0
`, kernlog.Options{})
	require.NoError(t, err)
	assert.Equal(t, "OE", l.Taint)
	d := diagnose.Diagnose(diagnose.Input{Log: l})
	require.NotEmpty(t, d.Causes)
	c := d.Causes[0]
	assert.Equal(t, diagnose.LayerPlatform, c.Layer)
	require.Len(t, c.Evidence, 2)
	assert.Equal(t, 2, c.Evidence[0].Line, d.Summary)
	assert.Contains(t, c.Evidence[0].Text, "the kernel was tainted by a module built outside the kernel's tree (O)")
	assert.Contains(t, c.Evidence[1].Text, "the kernel ran in a virtual machine")
}

// A file system's corruption on an NVMe disk, with no I/O error, is no
// failure of the drive, and the answer says so and what to check (posted
// zf-04), rather than that the log names no NVMe drive.
func TestFileSystemCorruptionWithoutIOError(t *testing.T) {
	d := summaryOf(t, "[73729.556544] EXT4-fs error (device nvme0n1p2): ext4_lookup:1700: inode #917524: comm rm: iget: checksum invalid\n", false, "")
	assert.False(t, d.Failure)
	assert.True(t, strings.HasPrefix(d.Summary, "no failure of the drive seen in the kernel log; line 1: EXT4-fs reports trouble of its own on nvme0n1p2"), d.Summary)
	require.Len(t, d.Consequences, 1)
	assert.Equal(t, 1, d.Consequences[0].Line)
}

// A controller deleted (nvme disconnect with a file system still mounted,
// posted j-11: linux-ext4, Message-ID:
// <TYZP153MB0627DED95B9B9B2E86D66EFED762A@TYZP153MB0627.APCP153.PROD.OUTLOOK.COM>)
// makes its disk's I/O fail: no failure of the drive; a deletion after a
// failure (a transport that gave up reconnecting) is the failure's end,
// not its cause.
func TestDeletedController(t *testing.T) {
	const deleted = "[Wed May 14 16:58:50 2025] nvme nvme0: Removing ctrl: NQN \"nqn.2019-05.io.openebs:4cde20d8\"\n"
	const after = "[Wed May 14 16:58:50 2025] Buffer I/O error on dev nvme0n1, logical block 1081344, lost sync page write\n" +
		"[Wed May 14 16:58:50 2025] blk_update_request: recoverable transport error, dev nvme0n1, sector 8650752 op 0x1:(WRITE) flags 0x20800 phys_seg 1 prio class 0\n" +
		"[Wed May 14 16:58:50 2025] Buffer I/O error on dev nvme0n1, logical block 1081344, lost sync page write\n"
	read := func(log string) diagnose.Diagnosis {
		l, err := kernlog.ReadString(log, kernlog.Options{})
		require.NoError(t, err)
		return diagnose.Diagnose(diagnose.Input{Log: l})
	}
	d := read(deleted + after)
	assert.False(t, d.Failure)
	assert.Empty(t, d.Causes)
	assert.Equal(t, "no failure of the drive seen in the kernel log for nvme0; line 1: the controller was deleted (nvme disconnect, a test's teardown, or a fabrics transport that gave up), and the I/O errors after it are of the disk it took away (a file system still mounted on it: unmount it before you disconnect)", d.Summary)
	require.Len(t, d.Consequences, 2, "each line once")
	assert.Equal(t, 2, d.Consequences[0].Line)
	assert.Equal(t, 3, d.Consequences[1].Line)

	d = read(deleted)
	assert.False(t, d.Failure)
	assert.Equal(t, "no failure seen in the kernel log; line 1: the controller was deleted (nvme disconnect, a test's teardown, or a fabrics transport that gave up), and nothing in the log says it failed", d.Summary)

	// The deletion after the failure, or a failure after the deletion.
	for _, log := range []string{
		after + deleted,
		"[Wed May 14 16:58:49 2025] nvme nvme0: I/O tag 3 (1003) opcode 0x1 (I/O Cmd) QID 2 timeout, reset controller\n" + deleted + after,
		deleted + after + "[Wed May 14 16:58:51 2025] nvme nvme0: I/O tag 3 (1003) opcode 0x1 (I/O Cmd) QID 2 timeout, reset controller\n",
	} {
		d = read(log)
		assert.True(t, d.Failure, log)
		assert.NotContains(t, d.Summary, "deleted", log)
	}
}

// A device a command asked the PCI core to remove, whose -19 and lost
// disk follow it, did not fail: the removal did that (a root port removed
// through sysfs on an R-Car board, posted zj-05: linux-pci's lockdep
// report of it). A failure before the command, or one the removal does
// not make, is still one.
func TestRemovedOnRequest(t *testing.T) {
	const remove = "$ echo 1 > /sys/bus/pci/devices/0000:01:00.0/remove\n"
	const after = "[  300.100000] nvme nvme0: failed to set APST feature (-19)\n[  300.100100] nvme0n1: detected capacity change from 1953525168 to 0\n"
	d := summaryOf(t, "[    1.000000] nvme nvme0: pci function 0000:01:00.0\n"+remove+after, false,
		"no failure of the drive seen in the kernel log for nvme0; line 2: a command asked the PCI core to remove the device (echo 1 > /sys/bus/pci/devices/0000:01:00.0/remove)")
	assert.Contains(t, d.Summary, "echo 1 | sudo tee /sys/bus/pci/rescan")
	for _, log := range []string{
		after + remove,
		remove + "[  300.100000] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n",
		remove + "[  300.100000] nvme nvme0: Removing after probe failure status: -12\n",
	} {
		d := summaryOf(t, log, true, "")
		assert.NotContains(t, d.Summary, "remove the device", log)
	}
}

// A controller whose Identify data says it is reached over a fabric
// (IOCCSZ set, as Linux nvmet reports it) is answered so when its log has
// no fabrics line of its own (timeouts alone); a log that shows the
// controller on PCIe (nvme-pci's controller-down reads PCI_STATUS) is of
// another controller than the capture: diagnosed without the capture,
// and a note says so.
func TestFabricsIdentify(t *testing.T) {
	id := &powerstate.Controller{Model: "Linux", Firmware: "6.8.0", ControllerType: 1, IOCCSZ: 4}
	timeouts := "[  100.000000] nvme nvme1: I/O tag 12 (100c) opcode 0x1 (I/O Cmd) QID 2 timeout\n" +
		"[  100.100000] nvme nvme1: I/O 12 QID 2 timeout, reset controller\n"
	l, err := kernlog.ReadString(timeouts, kernlog.Options{})
	require.NoError(t, err)
	d := diagnose.Diagnose(diagnose.Input{Log: l, Identify: id})
	assert.Contains(t, d.Summary, "nvme1: an NVMe over Fabrics controller (its Identify data: IOCCSZ 4)")
	require.Len(t, d.Causes, 1)
	assert.Equal(t, "Identify data", d.Causes[0].Evidence[0].Source)

	l = readLog(t, "apst.log", nil)
	d = diagnose.Diagnose(diagnose.Input{Log: l, Identify: id})
	assert.Equal(t, diagnose.Diagnose(diagnose.Input{Log: l}).Summary, d.Summary, "diagnosed as without the capture")
	assert.True(t, slices.ContainsFunc(d.Notes, func(n string) bool {
		return strings.HasPrefix(n, "the Identify data given is an NVMe over Fabrics controller's (IOCCSZ 4), but the log shows nvme0 on PCIe (line ")
	}), "%q", d.Notes)

	// A PCIe capture changes nothing of this.
	pcie := &powerstate.Controller{Model: "M", Firmware: "F", ControllerType: 1}
	d = diagnose.Diagnose(diagnose.Input{Log: l, Identify: pcie})
	for _, n := range d.Notes {
		assert.NotContains(t, n, "Fabrics")
	}
}

// A failure in a log that names no NVMe controller, disk or function (a
// port's link down alone, as https://github.com/lnls-dig/bpm-gw/issues/73
// shows one) is taken to be the drive's, and a note says so; a log that
// names the drive has no such note.
func TestLogWithoutTheDriveSaysSo(t *testing.T) {
	const note = "the log names no NVMe controller, disk or function: the failure of 0000:02:05.0 is taken to be the drive's"
	d := summaryOf(t, "[Ter Set 19 06:01:41 2017] pciehp 0000:02:05.0:pcie24: slot(6): Link Down event\n", true, "")
	assert.True(t, slices.ContainsFunc(d.Notes, func(n string) bool { return strings.HasPrefix(n, note) }), "%q", d.Notes)
	d = summaryOf(t, "[  1.0] nvme nvme0: pci function 0000:03:00.0\n[Ter Set 19 06:01:41 2017] pciehp 0000:02:05.0:pcie24: slot(6): Link Down event\n", true, "")
	for _, n := range d.Notes {
		assert.NotContains(t, n, "names no NVMe")
	}
}

// A function whose driver has no error handler ("AER: can't recover (no
// error_detected callback)"; nvme's has one) is not the drive: the
// failure diagnosed is the switch port's uncorrected error before it. The
// lines as a Red Hat solution shows them
// (https://access.redhat.com/solutions/7128107).
func TestNoErrorHandlerIsNotTheDrive(t *testing.T) {
	d := summaryOf(t, "    kernel: pcieport 0000:00:1b.2: AER: Uncorrectable (Fatal) error message received from 0000:03:04.0\n"+
		"    kernel: pcieport 0000:03:04.0: PCIe Bus Error: severity=Uncorrectable (Fatal), type=Transaction Layer, (Receiver ID)\n"+
		"    kernel: pcieport 0000:03:04.0:   device [111d:8063] error status/mask=00000020/00000000\n"+
		"    kernel: pcieport 0000:03:04.0:    [ 5] SDES                   (First)\n"+
		"    kernel: pci 0000:05:00.0: AER: can't recover (no error_detected callback)\n"+
		"    kernel: pcieport 0000:03:04.0: AER: Downstream Port link has been reset (0)\n"+
		"    kernel: pcieport 0000:03:04.0: AER: device recovery failed\n", true, "")
	assert.Equal(t, "0000:03:04.0", d.Address)
	assert.Equal(t, diagnose.LayerLink, d.Causes[0].Layer, d.Summary)
}

// TestAPSTOffSaysWhatTheKernelSends: only a disabled plan sends APSTE=0;
// a drive without APST (APSTA 0) or with NPSS above 31 gets no table at
// all (kernel-apst.md §10.6), and the latter keeps what its firmware set.
func TestAPSTOffSaysWhatTheKernelSends(t *testing.T) {
	base := powerstate.Controller{VendorID: 0x144d, Model: "TEST", Firmware: "1", NPSS: 4, APSTA: 1}
	for i := 1; i <= 4; i++ {
		base.PowerStates[i] = powerstate.Descriptor{NonOperational: i >= 3, EntryLatency: 1000, ExitLatency: powerstate.Microseconds(1000 * i)}
	}
	p := apst.DefaultParams(apst.Current)
	off := p
	off.Bound = 0
	for _, tc := range []struct {
		name   string
		apsta  uint8
		npss   uint8
		params apst.Params
		want   string
		not    string
	}{
		{"disabled", 1, 4, off, "the kernel sends APSTE=0 to this drive (disabled)", "no table"},
		{"unsupported", 0, 4, p, "the drive does not support APST (APSTA=0), so the kernel sends it no table (unsupported)", "APSTE=0"},
		{"invalid-npss", 1, 32, p, "the kernel sends this drive no APST table (invalid-npss: NPSS above 31): it keeps whatever its firmware set", "never enters"},
	} {
		c := base
		c.APSTA, c.NPSS = tc.apsta, tc.npss
		d := diagnose.Diagnose(diagnose.Input{Controller: "nvme0", Log: readLog(t, "apst.log", nil), Identify: &c, Params: tc.params})
		against := texts(d.Cause(diagnose.LayerAPST).Against)
		assert.Contains(t, against, tc.want, tc.name)
		assert.NotContains(t, against, tc.not, tc.name)
	}
}

// TestASPMOutNamesTheSettingTried: the reason ASPM is out names the
// setting the drive failed with (pcie_aspm=off leaves firmware-set ASPM
// on, pcie_aspm.policy=performance turns it off: they are not the same).
func TestASPMOutNamesTheSettingTried(t *testing.T) {
	for _, setting := range []string{"pcie_aspm=off", "pcie_aspm.policy=performance"} {
		d := diagnose.Diagnose(diagnose.Input{Controller: "nvme0", Log: readLog(t, "apst.log", nil),
			Tried: diagnose.ParseTried(setting + ":no")})
		ev := texts(d.Cause(diagnose.LayerAPST).Evidence)
		assert.Contains(t, ev, "ASPM, is out: the drive failed with "+setting+" too", setting)
	}
}

// The nvme driver's line with its controller's number lost ("nvme nvme:",
// https://github.com/MrChromebox/firmware/issues/944) is the drive's
// failure, diagnosed as the drive's with a note that says so; a line with
// no driver at all stays unnamed (TestFailuresOfOtherDevices).
func TestUnnamedNVMeLine(t *testing.T) {
	d := summaryOf(t, "nvme nvme: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n", true, "the drive: ")
	assert.Empty(t, d.Controller)
	assert.Contains(t, strings.Join(d.Notes, "\n"), `line 1 is the nvme driver's but names no controller ("nvme nvme:" where the kernel writes nvme0, nvme1, ...)`)
	d = summaryOf(t, "nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n", true, "nvme0: ")
	assert.NotContains(t, strings.Join(d.Notes, "\n"), "names no controller")
}

// Input.Address diagnoses the incident of that PCI function where the log
// ties it to no controller; without it the log's most severe failure is
// diagnosed.
func TestDiagnoseByAddress(t *testing.T) {
	l, err := kernlog.ReadString("[  100.0] nvme 0000:01:00.0: Unable to change power state from D3cold to D0, device inaccessible\n"+
		"[  200.0] pcieport 0000:00:1c.0: AER: Corrected error received: 0000:02:00.0\n"+
		"[  200.1] nvme 0000:02:00.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)\n"+
		"[  200.2] nvme 0000:02:00.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)\n", kernlog.Options{})
	require.NoError(t, err)
	d := diagnose.Diagnose(diagnose.Input{Log: l})
	assert.Equal(t, "0000:01:00.0", d.Address, d.Summary)
	d = diagnose.Diagnose(diagnose.Input{Log: l, Address: "0000:02:00.0"})
	assert.Equal(t, "0000:02:00.0", d.Address, d.Summary)
	require.True(t, d.Failure, d.Summary)
	assert.Contains(t, d.Summary, "only corrected errors")
}

// A function given by address that the log ties to a controller ("nvme
// nvme0: pci function 0000:04:00.0") is diagnosed as that controller: the
// answer is the one naming the controller gives, never "no failure seen".
func TestDiagnoseAddressTiedByLog(t *testing.T) {
	l := readLog(t, "apst.log", nil)
	byName := diagnose.Diagnose(diagnose.Input{Log: l, Controller: "nvme0"})
	require.True(t, byName.Failure, byName.Summary)
	byAddr := diagnose.Diagnose(diagnose.Input{Log: l, Address: "0000:04:00.0"})
	assert.True(t, byAddr.Failure, byAddr.Summary)
	assert.Equal(t, "nvme0", byAddr.Controller)
	assert.Equal(t, byName.Summary, byAddr.Summary)
	assert.Equal(t, byName.Causes, byAddr.Causes)
}

// A failure the log ties to no NVMe device is taken for the drive's, and
// on that assumption no cause is likely: a port's Surprise Down is
// "possible" link, and "likely" once the drive's function is named (or
// the log names it). A port's or host's own failure (a slot's power
// fault) holds whatever the device is, and stays likely.
func TestUnnamedDeviceNotLikely(t *testing.T) {
	const sdes = "[ 100.0] pcieport 0000:00:01.1: AER: Uncorrected (Fatal) error received: 0000:00:01.1\n" +
		"[ 100.0] pcieport 0000:00:01.1: PCIe Bus Error: severity=Uncorrected (Fatal), type=Transaction Layer, (Receiver ID)\n" +
		"[ 100.0] pcieport 0000:00:01.1:   device [8086:6f03] error status/mask=00000020/00000000\n" +
		"[ 100.0] pcieport 0000:00:01.1:    [ 5] SDES                   (First)\n"
	for _, tc := range []struct {
		name, log, address string
		want               diagnose.Likelihood
	}{
		{name: "no NVMe device named", log: sdes, want: diagnose.Possible},
		{name: "the function given", log: sdes, address: "0000:00:01.1", want: diagnose.Likely},
		{name: "the log names the drive", log: "[   1.0] nvme nvme0: pci function 0000:01:00.0\n" + sdes, want: diagnose.Likely},
		{name: "a slot's power fault", log: "[7200.0] pcieport 0000:00:1c.0: pciehp: Slot(1): Power fault\n", want: diagnose.Likely},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tc.log, kernlog.Options{})
			require.NoError(t, err)
			d := diagnose.Diagnose(diagnose.Input{Log: l, Address: tc.address})
			require.NotEmpty(t, d.Causes, d.Summary)
			assert.Equal(t, tc.want, d.Causes[0].Likelihood, d.Summary)
			assumed := slices.ContainsFunc(d.Notes, func(n string) bool { return strings.Contains(n, "no cause is called likely") })
			assert.Equal(t, tc.want == diagnose.Possible, assumed, "%q", d.Notes)
		})
	}
}

// A diagnosis is the caller's: changing its Relayed lines changes neither
// the log nor the next diagnosis of it.
func TestDiagnosisOwnsRelayed(t *testing.T) {
	l := readLog(t, "relayed-only.log", nil)
	first := diagnose.Diagnose(diagnose.Input{Log: l})
	require.NotEmpty(t, first.Relayed, first.Summary)
	program := l.Relayed[0].Program
	first.Relayed[0].Program = "changed"
	assert.Equal(t, program, l.Relayed[0].Program)
	again := diagnose.Diagnose(diagnose.Input{Log: l})
	assert.Equal(t, program, again.Relayed[0].Program)
}
