package kernlog_test

import (
	"cmp"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// incidentView is an incident's controller and its events' kinds and
// lines: what the joining rules decide.
type incidentView struct {
	Controller string
	Events     []string
}

func viewOf(l *kernlog.Log) []incidentView {
	var out []incidentView
	for _, in := range l.Incidents {
		v := incidentView{Controller: in.Controller}
		for _, e := range in.Events {
			v.Events = append(v.Events, e.Controller+" "+string(e.Kind)+" "+e.Raw)
		}
		out = append(out, v)
	}
	return out
}

// A log without the boot's "pci function" line ties an NVMe function's
// AER errors to the log's one controller (the lines of
// https://github.com/FrameworkComputer/SoftwareFirmwareIssueTracker/issues/41,
// with a controller line of the same machine's kind).
func TestOneFunctionOneController(t *testing.T) {
	log := `[    1.000000] nvme nvme0: 16/0/0 default/read/poll queues
[  100.000000] pcieport 0000:00:02.1: AER: Correctable error message received from 0000:bf:00.0
[  100.000100] nvme 0000:bf:00.0: PCIe Bus Error: severity=Correctable, type=Physical Layer, (Receiver ID)
[  100.000200] nvme 0000:bf:00.0:   device [15b7:5017] error status/mask=00000001/0000e000
[  130.000000] nvme nvme0: I/O 12 QID 3 timeout, aborting
`
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	in := l.Incidents[0]
	assert.Equal(t, "nvme0", in.Controller)
	assert.Equal(t, "0000:bf:00.0", in.PCI)
	assert.Equal(t, map[kernlog.Kind]int{kernlog.AERReceived: 1, kernlog.AERError: 1, kernlog.IOTimeout: 1}, in.Counts)
	for _, e := range in.Events {
		assert.Equal(t, "nvme0", e.Controller, e.Raw)
	}
	assert.Equal(t, "nvme0", l.Addresses["0000:bf:00.0"])

	// With two controllers, the function stays itself.
	l, err = kernlog.ReadString(log+"[  131.000000] nvme nvme1: I/O 1 QID 1 timeout, aborting\n", kernlog.Options{})
	require.NoError(t, err)
	names := []string{}
	for _, in := range l.Incidents {
		names = append(names, in.Name())
	}
	assert.ElementsMatch(t, []string{"0000:bf:00.0", "nvme0", "nvme1"}, names)
}

// The NVMe driver's interrupt that reached handle_bad_irq names no
// controller: the log's only one is its; of two, neither. The lines are a
// Hyper-V guest's, as posted to linux-pci (testdata/threads/ml10-*).
func TestBadIRQOfTheOnlyController(t *testing.T) {
	const (
		fn0 = "[   84.482413] nvme nvme0: pci function 0b9d:00:00.0\n"
		fn1 = "[   84.482414] nvme nvme1: pci function 0b9d:00:01.0\n"
		irq = "[   84.556871] irq 17, desc: 00000000e8529819, depth: 0, count: 0, unhandled: 0\n" +
			"[   84.556883] ->handle_irq():  0000000062fa78bc, handle_bad_irq+0x0/0x270\n" +
			"[   84.556895] ->action(): 0000000069f160b3\n" +
			"[   84.556896] ->action->handler(): 00000000e15d8191, nvme_irq+0x0/0x3e8\n"
	)
	l, err := kernlog.ReadString(fn0+irq, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	assert.Equal(t, "nvme0", l.Incidents[0].Controller)
	assert.Equal(t, map[kernlog.Kind]int{kernlog.LostInterrupt: 1}, l.Incidents[0].Counts)

	l, err = kernlog.ReadString(fn0+fn1+irq, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	assert.Empty(t, l.Incidents[0].Controller)
}

// A port that reported a function's errors is above it: its link-down
// belongs to the function's controller.
func TestPortAboveController(t *testing.T) {
	log := `[    2.000000] nvme nvme1: pci function 0000:3e:00.0
[    2.000000] nvme nvme2: pci function 0000:3f:00.0
[  500.000000] pcieport 0000:00:1c.4: AER: Corrected error received: 0000:3e:00.0
[ 2000.000000] pcieport 0000:00:1c.4: pciehp: Slot(4): Link Down
`
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 2, "%+v", viewOf(l))
	assert.Equal(t, "nvme1", l.Incidents[1].Controller)
	assert.True(t, l.Incidents[1].Has(kernlog.LinkDown))
	assert.Equal(t, "nvme1", l.Incidents[1].Events[0].Controller)
}

// An address no line ties to a controller joins the one controller with
// an incident within the gap of it; not with two, not beyond the gap, and
// not a function another driver prints for.
func TestIncidentWindow(t *testing.T) {
	down := "[  500.000000] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff\n"
	// The fixture's port above nvme0 (testdata/d3cold.log of apst/diagnose).
	port := "[  500.200000] pcieport 0000:00:1d.0: Unable to change power state from D3cold to D0, device inaccessible\n"
	l, err := kernlog.ReadString(down+port, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	assert.Equal(t, "nvme0", l.Incidents[0].Controller)
	assert.Equal(t, "nvme0", l.Incidents[0].Events[1].Controller)

	l, err = kernlog.ReadString(down+"[  500.100000] nvme nvme1: I/O 5 QID 2 timeout, aborting\n"+port, kernlog.Options{})
	require.NoError(t, err)
	assert.Len(t, l.Incidents, 3, "two controllers: the port stays itself")

	l, err = kernlog.ReadString(down+"[ 9000.000000] pcieport 0000:00:1d.0: Unable to change power state from D3cold to D0, device inaccessible\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Len(t, l.Incidents, 2, "beyond the gap")

	// https://lore.kernel.org/linux-pci/665677F9F810B6C1+af6c83fd-f262-4721-b544-4336aaa83bfe@radxa.com/:
	// the function is a Wi-Fi card's.
	l, err = kernlog.ReadString(down+"[  500.300000] iwlwifi 0000:01:00.0: Unable to change power state from D3cold to D0, device inaccessible\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Len(t, l.Incidents, 2, "another driver's function")
}

// With several controllers down within the gap and no "pci function"
// line, an NVMe function's line joins the controller whose lines come
// right before and after it (the PCI core prints it within that
// controller's reset); a line whose neighbours are two controllers', and
// a port's line, join none. The lines are those an owner of a 6-bay board (a Beelink ME Mini)
// quotes for nvme0 when the first three slots dropped their drives one
// after another ("the same pattern repeated on nvme1 and nvme2"), with
// times and addresses of ours.
func TestEnclosingIncident(t *testing.T) {
	slot := func(ts int, ctrl, addr string) string {
		return fmt.Sprintf("[%5d.000001] nvme %s: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff\n", ts, ctrl) +
			fmt.Sprintf("[%5d.000010] nvme %s: Does your device have a faulty power saving mode enabled?\n", ts, ctrl) +
			fmt.Sprintf("[%5d.100001] nvme %s: Unable to change power state from D3cold to D0, device inaccessible\n", ts, addr) +
			fmt.Sprintf("[%5d.200001] nvme %s: Disabling device after reset failure: -19\n", ts, ctrl)
	}
	l, err := kernlog.ReadString(slot(1201, "nvme0", "0000:04:00.0")+slot(1203, "nvme1", "0000:05:00.0")+slot(1207, "nvme2", "0000:06:00.0"), kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 3, "%+v", viewOf(l))
	for i, want := range [][2]string{{"nvme0", "0000:04:00.0"}, {"nvme1", "0000:05:00.0"}, {"nvme2", "0000:06:00.0"}} {
		in := l.Incidents[i]
		assert.Equal(t, want[0], in.Controller)
		assert.True(t, in.Has(kernlog.ResumeFailure), "%s has its D3cold line", want[0])
		for _, e := range in.Events {
			if e.Kind == kernlog.ResumeFailure {
				assert.Equal(t, want[1], e.PCI)
				assert.Equal(t, want[0], e.Controller)
			}
		}
	}

	// Lines that join no controller: the function's (or the port's)
	// D3cold line, named by its address, stays an incident of its own.
	for _, tc := range []struct{ name, log, addr string }{
		{
			// nvme1's line between nvme0's and the address's: the
			// neighbours are two controllers'.
			name: "interleaved",
			log: "[ 1201.000001] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff\n" +
				"[ 1201.000002] nvme nvme1: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff\n" +
				"[ 1201.100001] nvme 0000:05:00.0: Unable to change power state from D3cold to D0, device inaccessible\n" +
				"[ 1201.200001] nvme nvme0: Disabling device after reset failure: -19\n" +
				"[ 1201.200002] nvme nvme1: Disabling device after reset failure: -19\n",
			addr: "0000:05:00.0",
		},
		{
			// Another drive's line amid a controller's timeouts, its own
			// controller's line next.
			name: "amid timeouts",
			log: "[  100.000000] nvme nvme0: I/O 12 QID 3 timeout, aborting\n" +
				"[  115.000000] nvme 0000:05:00.0: Unable to change power state from D3cold to D0, device inaccessible\n" +
				"[  116.000000] nvme nvme1: Removing after probe failure status: -19\n" +
				"[  130.000000] nvme nvme0: I/O 12 QID 3 timeout, reset controller\n",
			addr: "0000:05:00.0",
		},
		{
			// Its neighbours an hour away on either side, in a syslog
			// merged out of order (its times run back within the boot),
			// while two other controllers failed within the gap of it.
			name: "neighbours an hour away",
			log: "Dec  5 10:00:00 host kernel: nvme nvme0: I/O 12 QID 3 timeout, aborting\n" +
				"Dec  5 11:00:00 host kernel: nvme 0000:05:00.0: Unable to change power state from D3cold to D0, device inaccessible\n" +
				"Dec  5 12:00:00 host kernel: nvme nvme0: I/O 12 QID 3 timeout, reset controller\n" +
				"Dec  5 11:01:00 host kernel: nvme nvme1: Removing after probe failure status: -19\n" +
				"Dec  5 11:02:00 host kernel: nvme nvme2: Removing after probe failure status: -19\n",
			addr: "0000:05:00.0",
		},
		{
			// A port's line may be a switch's above both.
			name: "a port",
			log:  strings.Replace(slot(1201, "nvme0", "0000:04:00.0"), "nvme 0000:04:00.0", "pcieport 0000:00:1c.0", 1) + slot(1203, "nvme1", "0000:05:00.0"),
			addr: "0000:00:1c.0",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tc.log, kernlog.Options{})
			require.NoError(t, err)
			found := false
			for _, in := range l.Incidents {
				for _, e := range in.Events {
					if e.Kind == kernlog.ResumeFailure && e.PCI == tc.addr {
						found = true
						assert.Empty(t, in.Controller, "%+v", viewOf(l))
					}
				}
			}
			assert.True(t, found, "no D3cold line of %s: %+v", tc.addr, viewOf(l))
		})
	}
}

// A "pci function" line after the events (a log cut at the start, then
// the next boot) still ties them, merging the address's incident with the
// controller's.
func TestLateFunctionLine(t *testing.T) {
	log := `[ 3600.000000] pcieport 0000:00:1d.0: AER: Corrected error received: 0000:04:00.0
[ 3630.000000] nvme nvme0: I/O 124 QID 4 timeout, aborting
[ 3661.100000] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff
[ 3661.200000] nvme 0000:04:00.0: Unable to change power state from D3cold to D0, device inaccessible
[ 3700.000000] nvme nvme0: pci function 0000:04:00.0
`
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1, "%+v", viewOf(l))
	in := l.Incidents[0]
	assert.Equal(t, "nvme0", in.Controller)
	assert.Equal(t, "0000:04:00.0", in.PCI)
	assert.Equal(t, []int{1, 2, 3, 4}, []int{in.Events[0].Line, in.Events[1].Line, in.Events[2].Line, in.Events[3].Line}, "in log order")
	assert.Equal(t, 3600*1e9, float64(in.Start.Mono))
}

// Property: in a log with one controller that names its NVMe function on a
// line of the nvme driver, dropping the "pci function" line changes no
// incident's controller nor its events.
func TestRapidFunctionLineChangesNothing(t *testing.T) {
	names := make([]string, 0, len(shapes))
	for s := range shapes {
		names = append(names, s)
	}
	rapid.Check(t, func(t *rapid.T) {
		var picked []line
		function, nvme, ctrl := -1, false, false
		for _, l := range failure {
			if !rapid.Bool().Draw(t, "keep") {
				continue
			}
			if strings.Contains(l.msg, "pci function") {
				function = len(picked)
			} else {
				nvme = nvme || strings.HasPrefix(l.msg, "nvme 0000:04:00.0:")
				ctrl = ctrl || strings.HasPrefix(l.msg, "nvme nvme0:")
			}
			picked = append(picked, l)
		}
		if function < 0 || !nvme || !ctrl {
			t.Skip("the rule needs the function line, a line of the function and one of the controller")
		}
		shape := rapid.SampledFrom(names).Draw(t, "shape")
		var with, without strings.Builder
		for i, l := range picked {
			s := shapes[shape](l.mono, l.msg) + "\n"
			with.WriteString(s)
			if i == function {
				s = shapes[shape](l.mono, "usb 1-1: new high-speed USB device number 2 using xhci_hcd") + "\n"
			}
			without.WriteString(s)
		}
		if va, vb, same := sameJoins(t, with.String(), without.String()); !same {
			t.Fatalf("shape %q: with the line %+v\nwithout %+v", shape, va, vb)
		}
	})
}

// Property: controllers that go down one after another (their blocks of
// lines not interleaved, at any times) each with the PCI core's line for
// its function within its reset are joined the same with or without the
// boot's "pci function" lines: the enclosing incident is the one the
// function line names.
func TestRapidEnclosingAgreesWithFunctionLines(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		joinsAsFunctionLines(t, func(c int, fn string, at float64) string {
			block := fmt.Sprintf("[%12.6f] nvme nvme%d: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff\n", at, c)
			if rapid.Bool().Draw(t, "hint") {
				block += fmt.Sprintf("[%12.6f] nvme nvme%d: Does your device have a faulty power saving mode enabled?\n", at+0.00001, c)
			}
			block += fmt.Sprintf("[%12.6f] nvme %s: Unable to change power state from D3cold to D0, device inaccessible\n", at+0.1, fn)
			return block + fmt.Sprintf("[%12.6f] nvme nvme%d: Disabling device after reset failure: -19\n", at+0.2, c)
		})
	})
}

// sameJoins reads two logs (the second checked as every log is) and gives
// their incidents' views, and whether they hold the same incidents,
// controllers and events.
func sameJoins(t *rapid.T, with, without string) (va, vb []incidentView, same bool) {
	a, err := kernlog.ReadString(with, kernlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := kernlog.ReadString(without, kernlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkLog(t, b)
	va, vb = viewOf(a), viewOf(b)
	if len(va) != len(vb) {
		return va, vb, false
	}
	for i := range va {
		if va[i].Controller != vb[i].Controller || strings.Join(va[i].Events, "\n") != strings.Join(vb[i].Events, "\n") {
			return va, vb, false
		}
	}
	return va, vb, true
}

// The PCI core's recovery of a function an AER report names runs the
// error handlers of the drivers below the port: the one NVMe controller
// whose handler speaks then ("frozen state error detected", "restart
// after slot reset", drivers/nvme/host/pci.c) is the function's, whatever
// other controllers fail around it; two (a switch above both) tie it to
// neither, and a function the nvme driver never prints for is not tied.
// The lines are in the formats of drivers/pci/pcie/aer.c and nvme's pci.c.
func TestAERRecoveryTiesFunction(t *testing.T) {
	const (
		other    = "[  100.000000] nvme nvme1: I/O 12 QID 3 timeout, aborting\n"
		received = "[  101.000000] pcieport 0000:00:1c.0: AER: Uncorrected (Fatal) error received: 0000:01:00.0\n"
		busError = "[  101.000010] nvme 0000:01:00.0: PCIe Bus Error: severity=Uncorrected (Fatal), type=Transaction Layer, (Requester ID)\n" +
			"[  101.000020] nvme 0000:01:00.0:   device [144d:a808] error status/mask=00004000/00400000\n"
		frozen   = "[  101.000100] nvme nvme0: frozen state error detected, reset controller\n"
		recovery = "[  101.500000] pcieport 0000:00:1c.0: AER: Root Port link has been reset (0)\n" +
			"[  101.600000] nvme nvme0: restart after slot reset\n" +
			"[  101.700000] pcieport 0000:00:1c.0: AER: device recovery successful\n"
		later = "[  130.000000] nvme nvme1: I/O 12 QID 3 timeout, reset controller\n"
	)
	l, err := kernlog.ReadString(other+received+busError+frozen+recovery+later, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 2, "%+v", viewOf(l))
	assert.Equal(t, "nvme0", l.Addresses["0000:01:00.0"])
	in := l.Incidents[1]
	assert.Equal(t, "nvme0", in.Controller)
	assert.True(t, in.Has(kernlog.AERReceived) && in.Has(kernlog.AERError), "%+v", viewOf(l))
	assert.Equal(t, "0000:01:00.0", in.PCI)

	// Both controllers' handlers speak: a switch above both.
	both := strings.Replace(frozen, "101.000100", "101.000090", 1) + strings.Replace(frozen, "nvme0", "nvme1", 1)
	l, err = kernlog.ReadString(other+received+busError+both+later, kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Addresses["0000:01:00.0"], "%+v", viewOf(l))

	// No line of the nvme driver for the function: it may be a port
	// above the drives.
	l, err = kernlog.ReadString(other+received+frozen+later, kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Addresses["0000:01:00.0"], "%+v", viewOf(l))

	// The handler long after the report is another recovery's.
	late := strings.Replace(frozen, "[  101.000100]", "[  160.000000]", 1)
	l, err = kernlog.ReadString(other+received+busError+later+late, kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Addresses["0000:01:00.0"], "%+v", viewOf(l))

	// Without times, many lines later (the scan window's 64).
	unstamped := func(s string) string { return regexp.MustCompile(`(?m)^\[[ 0-9.]+\] `).ReplaceAllString(s, "") }
	filler := strings.Repeat("usb 1-1: new high-speed USB device number 2 using xhci_hcd\n", 70)
	l, err = kernlog.ReadString(unstamped(other+received+busError+frozen+later), kernlog.Options{})
	require.NoError(t, err)
	assert.Equal(t, "nvme0", l.Addresses["0000:01:00.0"], "%+v", viewOf(l))
	l, err = kernlog.ReadString(unstamped(other+received+busError+filler+frozen+later), kernlog.Options{})
	require.NoError(t, err)
	assert.Empty(t, l.Addresses["0000:01:00.0"], "%+v", viewOf(l))
}

// Property: controllers whose functions' AER errors the PCI core recovers
// one after another (at any spacing, each recovery with its controller's
// handler lines) are joined the same with or without the boot's "pci
// function" lines.
func TestRapidAERRecoveryAgreesWithFunctionLines(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		joinsAsFunctionLines(t, func(c int, fn string, at float64) string {
			block := fmt.Sprintf("[%12.6f] pcieport 0000:00:%02x.0: AER: Uncorrected (Fatal) error received: %s\n", at, 0x1c+c, fn) +
				fmt.Sprintf("[%12.6f] nvme %s: PCIe Bus Error: severity=Uncorrected (Fatal), type=Transaction Layer, (Requester ID)\n", at+0.00001, fn)
			if rapid.Bool().Draw(t, "frozen") {
				block += fmt.Sprintf("[%12.6f] nvme nvme%d: frozen state error detected, reset controller\n", at+0.0001, c)
			}
			block += fmt.Sprintf("[%12.6f] nvme nvme%d: restart after slot reset\n", at+0.5, c)
			if rapid.Bool().Draw(t, "timeout") {
				block += fmt.Sprintf("[%12.6f] nvme nvme%d: I/O 7 QID 2 timeout, aborting\n", at+1, c)
			}
			return block
		})
	})
}

// joinsAsFunctionLines draws 2 to 4 controllers (nvmeN, function
// 0000:0M:00.0) whose failures, block(c, fn, at) each, come one after
// another at any spacing, and fails unless the log joins them as it does
// with the boot's "pci function" lines: one incident each.
func joinsAsFunctionLines(t *rapid.T, block func(c int, fn string, at float64) string) {
	n := rapid.IntRange(2, 4).Draw(t, "controllers")
	var with, without strings.Builder
	for c := 0; c < n; c++ {
		fmt.Fprintf(&with, "[    1.%06d] nvme nvme%d: pci function 0000:%02x:00.0\n", c, c, 4+c)
	}
	at := 100.0
	for c := 0; c < n; c++ {
		at += float64(rapid.IntRange(0, 900).Draw(t, "seconds"))
		b := block(c, fmt.Sprintf("0000:%02x:00.0", 4+c), at)
		with.WriteString(b)
		without.WriteString(b)
	}
	if va, vb, same := sameJoins(t, with.String(), without.String()); !same || len(va) != n {
		t.Fatalf("%d controllers: with the function lines %+v\nwithout %+v", n, va, vb)
	}
}

// The PCI core's enumeration says which port is above which function
// ("pci 0000:00:1c.0: PCI bridge to [bus 01]", drivers/pci/setup-bus.c):
// a port whose one bus holds one NVMe function is that drive's, so its
// hotplug slot's link down joins the drive's controller though another
// drive fails within the gap; a switch's port (several buses) or a bus of
// two functions ties nothing. The enumeration lines are in the shape of
// a boot's dmesg; the slot's line is pciehp's.
func TestBridgeTiesPort(t *testing.T) {
	const (
		boot = "[    0.300000] pci 0000:00:1c.0: PCI bridge to [bus 01]\n" +
			"[    0.300010] pci 0000:00:1c.0:   bridge window [mem 0x91000000-0x910fffff]\n" +
			"[    0.300100] pci 0000:00:1d.0: PCI bridge to [bus 02-05]\n" +
			"[    1.000000] nvme nvme0: pci function 0000:01:00.0\n" +
			"[    1.000100] nvme nvme1: pci function 0000:02:00.0\n"
		// The ports' link downs an hour after the drives' timeouts: no
		// window ties them, the buses alone may.
		far = "[  500.000000] nvme nvme0: I/O 12 QID 3 timeout, aborting\n" +
			"[  501.000000] nvme nvme1: I/O 40 QID 2 timeout, aborting\n" +
			"[ 4100.500000] pcieport 0000:00:1c.0: pciehp: Slot(1): Link Down\n" +
			"[ 4102.000000] pcieport 0000:00:1d.0: pciehp: Slot(2): Link Down\n"
		// Within the window of both drives' failures.
		near = "[  500.000000] nvme nvme0: I/O 12 QID 3 timeout, aborting\n" +
			"[  500.500000] pcieport 0000:00:1c.0: pciehp: Slot(1): Link Down\n" +
			"[  501.000000] nvme nvme1: I/O 40 QID 2 timeout, aborting\n" +
			"[  502.000000] pcieport 0000:00:1d.0: pciehp: Slot(2): Link Down\n"
	)
	slotOf := func(l *kernlog.Log, port string) string {
		for _, in := range l.Incidents {
			for _, e := range in.Events {
				if e.Kind == kernlog.LinkDown && (e.PCI == port || e.Reporter == port) {
					return in.Controller
				}
			}
		}
		t.Fatalf("no link down of %s: %+v", port, viewOf(l))
		return ""
	}
	read := func(log string) *kernlog.Log {
		l, err := kernlog.ReadString(log, kernlog.Options{})
		require.NoError(t, err)
		return l
	}
	noEnum := strings.Replace(boot, "PCI bridge to [bus 01]", "enabling device (0000 -> 0002)", 1)
	second := boot + "[    1.000200] nvme nvme2: pci function 0000:01:00.1\n"

	// By the buses alone: a port above one bus of one NVMe function.
	l := read(boot + far)
	assert.Equal(t, "nvme0", slotOf(l, "0000:00:1c.0"), "%+v", viewOf(l))
	assert.Empty(t, slotOf(l, "0000:00:1d.0"), "a switch's port: buses 02-05")
	assert.Empty(t, slotOf(read(noEnum+far), "0000:00:1c.0"), "without the enumeration")
	assert.Empty(t, slotOf(read(second+far), "0000:00:1c.0"), "a second function on the bus")

	// Within the window of two controllers' failures, the one a port may
	// be above: not one the buses put under another bridge (1d.0's
	// 02-05 hold nvme1's 02:00.0; 1c.0's 01 does not), nor one under a
	// sibling of the port (1c.0 and 1d.0 are both on bus 00).
	l = read(boot + near)
	assert.Equal(t, "nvme0", slotOf(l, "0000:00:1c.0"), "%+v", viewOf(l))
	assert.Equal(t, "nvme1", slotOf(l, "0000:00:1d.0"), "%+v", viewOf(l))
	assert.Equal(t, "nvme0", slotOf(read(noEnum+near), "0000:00:1c.0"), "its sibling 1d.0 holds nvme1's bus")
	// A bound port prints the same line ("pcieport ..." on a rescan): a
	// port whose buses do not hold the failing drive's does not join it.
	l = read(noEnum + "[    0.300200] pcieport 0000:00:1e.0: PCI bridge to [bus 06]\n" +
		"[  500.000000] nvme nvme0: I/O 12 QID 3 timeout, aborting\n" +
		"[  500.500000] pcieport 0000:00:1e.0: AER: Corrected error received: 0000:00:1e.0\n")
	seen := false
	for _, in := range l.Incidents {
		if in.PCI == "0000:00:1e.0" {
			seen = true
			assert.Empty(t, in.Controller, "%+v", viewOf(l))
		}
	}
	assert.True(t, seen, "the port's incident: %+v", viewOf(l))
}

// A journal stamps the lines a suspend printed late with the time it read
// them, after the sleep: one suspend's lines, a quiet gap between them,
// are one incident and count once (NixOS/nixpkgs#119843, posted y-11, "a
// log from a working resume"). A new suspend's first line after the gap
// starts a new incident.
func TestSuspendAcrossTheSleep(t *testing.T) {
	const entry = "Apr 19 06:34:37 gaming kernel: PM: suspend entry (deep)\n" +
		"Apr 19 06:34:37 gaming kernel: Filesystems sync: 0.006 seconds\n"
	const late = "Apr 19 06:39:42 gaming kernel: Freezing user space processes ... (elapsed 0.001 seconds) done.\n" +
		"Apr 19 06:39:42 gaming kernel: OOM killer disabled.\n" +
		"Apr 19 06:39:42 gaming kernel: ACPI: Preparing to enter system sleep state S3\n"
	l, err := kernlog.ReadString(entry+"\n"+late, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	assert.Equal(t, 1, l.Incidents[0].Counts[kernlog.SuspendEntry])
	assert.Len(t, l.Incidents[0].Events, 5)

	l, err = kernlog.ReadString(entry+"Apr 19 06:49:42 gaming kernel: PM: suspend entry (deep)\n", kernlog.Options{})
	require.NoError(t, err)
	assert.Len(t, l.Incidents, 2, "another suspend")
}

// The PM core's device-less line of a callback that failed joins the
// device whose own line follows it with the same error (a Dell laptop's
// s2idle resume, posted t-08), not an incident of the kernel's; alone, or
// before another error, it stays the kernel's.
func TestCallbackJoinsItsDevice(t *testing.T) {
	const callback = "[  621.622029] PM: dpm_run_callback(): pci_pm_resume+0x0/0xf0 returns -16\n"
	l, err := kernlog.ReadString("[  621.620012] nvme nvme0: I/O 6 QID 0 timeout, reset controller\n"+
		callback+
		"[  621.622156] nvme 0000:02:00.0: PM: pci_pm_resume+0x0/0xf0 returned -16 after 61645374 usecs\n"+
		"[  621.622190] nvme 0000:02:00.0: PM: failed to resume: error -16\n", kernlog.Options{Addresses: map[string]string{"0000:02:00.0": "nvme0"}})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1)
	in := l.Incidents[0]
	assert.Equal(t, "nvme0", in.Controller)
	require.Len(t, in.Events, 3, "the line with the time it took is no event")
	assert.Equal(t, 2, in.Events[1].Line)
	assert.Equal(t, "0000:02:00.0", in.Events[1].PCI)

	for _, tail := range []string{"", "[  621.622190] nvme 0000:02:00.0: PM: failed to resume: error -5\n"} {
		l, err = kernlog.ReadString(callback+tail, kernlog.Options{})
		require.NoError(t, err)
		require.NotEmpty(t, l.Incidents)
		assert.Equal(t, "kernel", cmp.Or(l.Incidents[0].Controller, l.Incidents[0].PCI, "kernel"), "%q", tail)
		assert.Equal(t, 1, l.Incidents[0].Events[0].Line)
	}
}

// The NVMe driver's own messages pasted without their prefix, in a log
// that names one controller, are that controller's (a homelab's incident
// table, posted m-17: "`Device not ready; aborting reset, CSTS=0x1` →
// `Disabling device after reset failure: -19`" in a row after nvme0's);
// with two controllers they stay the kernel's, and a line of another kind
// keeps the incident the kernel's.
func TestDriverMessagesOfTheOnlyController(t *testing.T) {
	const head = "| Time                | Event                                                                                                                     |\n" +
		"| ------------------- | ------------------------------------------------------------------------------------------------------------------------- |\n"
	const first = "| 2026-06-25 00:53:28 | `nvme nvme0: Admin Cmd QID 0 timeout, reset controller`                                                                   |\n"
	const row = "| 2026-06-25 00:55:10 | `Device not ready; aborting reset, CSTS=0x1` → `Disabling device after reset failure: -19` → I/O error flood on `nvme0n1` |\n"
	l, err := kernlog.ReadString(head+first+row, kernlog.Options{})
	require.NoError(t, err)
	require.Len(t, l.Incidents, 1, "%+v", l.Incidents)
	assert.Equal(t, "nvme0", l.Incidents[0].Controller)
	assert.Equal(t, 1, l.Incidents[0].Counts[kernlog.ResetNotReady])

	l, err = kernlog.ReadString(head+first+"| 2026-06-25 00:53:29 | `nvme nvme1: I/O 12 QID 0 timeout, reset controller` |\n"+row, kernlog.Options{})
	require.NoError(t, err)
	var kernel int
	for _, in := range l.Incidents {
		if in.Controller == "" && in.Counts[kernlog.ResetNotReady] > 0 {
			kernel++
		}
	}
	assert.Equal(t, 1, kernel, "two controllers: whose is not said")
}
