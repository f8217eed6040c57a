package kernlog_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// The lines of the RockPro64 report that bisected the failure to
// 9d57e61bf723 (linux-pci, lore
// 7a1e2ebc-f7d8-8431-d844-41a9c36a8911@arm.com, quoted by Robin Murphy's
// reply): the boot whose NVMe function's BAR 0 found no room, and the one
// before the commit, which assigned it.
const (
	rockproFailed = `> [    0.378765] pci 0000:01:00.0: [144d:a808] type 00 class 0x010802
> [    0.378869] pci 0000:01:00.0: reg 0x10: [mem 0x00000000-0x00003fff 64bit]
> [    0.393311] pci 0000:00:00.0: BAR 14: no space for [mem size 0x00100000]
> [    0.393333] pci 0000:00:00.0: BAR 14: failed to assign [mem size 0x00100000]
> [    0.393356] pci 0000:01:00.0: BAR 0: no space for [mem size 0x00004000 64bit]
> [    0.393375] pci 0000:01:00.0: BAR 0: failed to assign [mem size 0x00004000 64bit]
> [    0.393397] pci 0000:00:00.0: PCI bridge to [bus 01]
> [    0.393839] pcieport 0000:00:00.0: PME: Signaling with IRQ 78
`
	rockproAssigned = `> [    0.379712] pci 0000:01:00.0: [144d:a808] type 00 class 0x010802
> [    0.379815] pci 0000:01:00.0: reg 0x10: [mem 0x00000000-0x00003fff 64bit]
> [    0.394285] pci 0000:00:00.0: BAR 14: assigned [mem 0xfa000000-0xfa0fffff]
> [    0.394312] pci 0000:01:00.0: BAR 0: assigned [mem 0xfa000000-0xfa003fff 64bit]
> [    0.394374] pci 0000:00:00.0: PCI bridge to [bus 01]
`
)

// barFaults are the ActionBARUnassigned events of l.
func barFaults(l *kernlog.Log) []kernlog.Event {
	var out []kernlog.Event
	for _, in := range l.Incidents {
		for _, e := range in.Events {
			if e.Action == kernlog.ActionBARUnassigned {
				out = append(out, e)
			}
		}
	}
	return out
}

// An NVMe function's memory BAR that the PCI core could not assign is a
// PlatformFault of the function, unless a later line assigns it or the
// nvme driver enables the device; the nvme driver's own failure to enable
// it is one in both wordings (setup-res.c's pci_enable_resources, 6.8 and
// before). Other functions' BARs, a bridge's windows, I/O BARs and
// another driver's enable failure are none. Lines not quoted from a
// report are the same lines in the other wording (6.8's
// pci_resource_name: "BAR 0 [mem size 0x00004000 64bit]: failed to
// assign") or the kernel's format strings filled in.
func TestUnassignedBAR(t *testing.T) {
	const (
		nvmeClass = "[    0.378765] pci 0000:01:00.0: [144d:a808] type 00 class 0x010802\n"
		failedNew = "[    0.393375] pci 0000:01:00.0: BAR 0 [mem size 0x00004000 64bit]: failed to assign\n"
		assigned  = "[    0.394312] pci 0000:01:00.0: BAR 0 [mem 0xfa000000-0xfa003fff 64bit]: assigned\n"
		function  = "[    1.100000] nvme nvme0: pci function 0000:01:00.0\n"
		enabling  = "[    1.100100] nvme 0000:01:00.0: enabling device (0000 -> 0002)\n"
		queues    = "[    1.200000] nvme nvme0: 8/0/0 default/read/poll queues\n"
	)
	for _, tc := range []struct {
		name, log string
		line      int // of the fault, 0 for none
	}{
		{name: "RockPro64, 5.13-rc1", log: rockproFailed, line: 6},
		{name: "RockPro64, before the commit", log: rockproAssigned},
		{name: "RockPro64, both boots as the report quotes them", log: rockproFailed + "> [..]\n>\n> For reference, here is the dmesg output when BAR\n> reassignment works:\n>\n" + rockproAssigned, line: 6},
		{name: "6.8's wording", log: nvmeClass + failedNew, line: 2},
		{name: "6.8's wording wrapped by a mail", log: "> " + nvmeClass + "> [    0.393375] pci 0000:01:00.0: BAR 0 [mem size 0x00004000 64bit]: failed\n> to assign\n", line: 2},
		{name: "wrapped in its resource", log: "> " + nvmeClass + "> [    0.393375] pci 0000:01:00.0: BAR 0: failed to assign [mem size\n> 0x00004000 64bit]\n", line: 2},
		{name: "wrapped right after its [mem", log: "> " + nvmeClass + "> [    0.393375] pci 0000:01:00.0: BAR 0: failed to assign [mem\n> size 0x00004000 64bit]\n", line: 2},
		{name: "wrapped right after its [mem, unquoted", log: nvmeClass + "[    0.393375] pci 0000:01:00.0: BAR 0: failed to assign [mem\nsize 0x00004000 64bit]\n" + function, line: 2},
		{name: "6.8's wording wrapped right after its [mem", log: nvmeClass + "[    0.393375] pci 0000:01:00.0: BAR 0 [mem\nsize 0x00004000 64bit]: failed to assign\n", line: 2},
		{name: "assigned on a later pass", log: nvmeClass + failedNew + assigned},
		{name: "another BAR assigned later", log: nvmeClass + failedNew + strings.Replace(assigned, "BAR 0", "BAR 2", 1), line: 2},
		{name: "the driver enabled it", log: nvmeClass + failedNew + function + enabling},
		{name: "the driver brought its queues up", log: nvmeClass + failedNew + function + queues},
		{name: "no class line, and nothing else: the one failure the log holds", log: failedNew, line: 1},
		{name: "no class line, in a log that names a drive", log: failedNew + strings.Replace(function, "01:00.0", "02:00.0", 1)},
		{name: "no class line, in a log with a drive's failure", log: failedNew + "[    9.000000] nvme nvme0: I/O 12 QID 0 timeout, reset controller\n"},
		{name: "no class line, in a log that names a controller", log: failedNew + "[    9.000000] nvme nvme0: 8/0/0 default/read/poll queues\n"},
		{name: "no class line, in a log with a port's incident", log: failedNew + "[    9.000000] pcieport 0000:00:1c.0: AER: Uncorrected (Fatal) error received: 0000:00:1c.0\n"},
		{name: "no class line, a function on bus 00", log: strings.ReplaceAll(failedNew, "0000:01:00.0", "0000:00:1c.0")},
		{name: "no class line, a prefetchable BAR", log: strings.Replace(failedNew, "64bit]", "64bit pref]", 1)},
		{name: "no class line, BAR 2", log: strings.Replace(failedNew, "BAR 0", "BAR 2", 1)},
		{name: "a bridge's class line", log: "[    0.378765] pci 0000:01:00.0: [1b21:1182] type 01 class 0x060400\n" + failedNew},
		{name: "no class line, but the nvme driver's function line", log: failedNew + function, line: 1},
		{name: "Wi-Fi's BAR (an iwlwifi report)", log: "[    2.214779] pci 0000:25:00.0: [8086:2723] type 00 class 0x028000\n" +
			"[    2.251872] pci 0000:25:00.0: BAR 0: no space for [mem size 0x00004000 64bit]\n" +
			"[    2.251873] pci 0000:25:00.0: BAR 0: failed to assign [mem size 0x00004000 64bit]\n"},
		{name: "a root port's BAR (posted n-08)", log: "[    4.886999] pci 0002:00:00.0: BAR 1 [mem size 0x40000000]: can't assign; no space\n" +
			"[    4.887699] pci 0002:00:00.0: BAR 1 [mem size 0x40000000]: failed to assign\n"},
		{name: "an I/O BAR", log: nvmeClass + "[    0.420935] pci 0000:01:00.0: BAR 0: failed to assign [io  size 0x0100]\n"},
		{name: "an SR-IOV BAR", log: nvmeClass + "[    0.420935] pci 0000:01:00.0: BAR 7: failed to assign [mem size 0x00100000 64bit]\n"},
		{name: "the driver's enable, 6.8", log: function + "[    1.100100] nvme 0000:01:00.0: BAR 0 [mem size 0x00004000 64bit]: not assigned; can't enable device\n", line: 2},
		{name: "the driver's enable, before 6.8", log: function + "[    1.100100] nvme 0000:01:00.0: can't enable device: BAR 0 [mem size 0x00004000 64bit] not assigned\n", line: 2},
		{name: "not claimed", log: function + "[    1.100100] nvme 0000:01:00.0: BAR 0 [mem 0x1f00000000-0x1f00003fff 64bit]: not claimed; can't enable device\n", line: 2},
		{name: "another driver's enable (mpt3sas, a sparc report)", log: "mpt3sas 0001:04:00.0: BAR 1 [mem size 0x00010000 64bit]: not assigned; can't enable device\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tc.log, kernlog.Options{})
			require.NoError(t, err)
			faults := barFaults(l)
			if tc.line == 0 {
				assert.Empty(t, faults)
				return
			}
			require.Len(t, faults, 1)
			assert.Equal(t, tc.line, faults[0].Line)
			assert.Equal(t, kernlog.PlatformFault, faults[0].Kind)
			assert.Equal(t, "0000:01:00.0", faults[0].PCI)
		})
	}
}

// A held failure becomes an event before the next event of its function,
// so that the incident keeps the lines' order, and the log's event count
// holds it once.
func TestUnassignedBAROrder(t *testing.T) {
	log := rockproFailed + "> [    1.100000] nvme 0000:01:00.0: probe with driver nvme failed with error -12\n"
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	in := l.Incidents[0]
	require.Len(t, in.Events, 2)
	assert.Equal(t, kernlog.ActionBARUnassigned, in.Events[0].Action)
	assert.Equal(t, 9, in.Events[1].Line)
	assert.EqualValues(t, 3, l.Events, "the class line, the fault and the probe failure")
	assert.Empty(t, l.Unread)
}
