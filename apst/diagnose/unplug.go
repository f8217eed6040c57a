package diagnose

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// A device with a PCIe switch inside (a dock, a Thunderbolt or USB4
// device, an eGPU enclosure) that is unplugged leaves its switch's ports
// behind for a moment: pciehp reports the slot empty, and the PCI core,
// trying to wake the ports to remove them, finds them gone (a Surface
// dock's unplug, fwupd/fwupd#5878, posted v-05):
//
//	pcieport 0000:02:00.0: can't change power state from D3cold to D0 (config space inaccessible)
//	pcieport 0000:00:07.0: pciehp: Slot(0): Card not present
//	pcieport 0000:03:04.0: can't change power state from D3cold to D0 (config space inaccessible)
//
// In a log that names no NVMe drive that is an unplug, not a drive's
// failure to wake.

// unplugNear is how many lines from the slot's report a port's failure
// to wake is taken as the unplug's.
const unplugNear = 20

// unplugged returns the hot-plug slot's report of a lost card when every
// failure of l is that report or a PCIe port behind it that could not be
// woken near it, and at least one port is; nil otherwise. The ports are
// returned too, at most three.
func unplugged(l *kernlog.Log) (*kernlog.Event, []string) {
	removal := firstEvent(l, slotRemoval)
	if removal == nil {
		return nil, nil
	}
	var ports []string
	for i := range l.Incidents {
		in := &l.Incidents[i]
		if severity(in) == 0 {
			continue
		}
		for j := range in.Events {
			e := &in.Events[j]
			switch {
			case slotRemoval(e):
			case (e.Kind == kernlog.ResumeFailure || e.Kind == kernlog.PMError) && e.Driver == "pcieport" && e.PCI != "" &&
				e.PCI != removal.Reporter && e.Line-removal.Line <= unplugNear && removal.Line-e.Line <= unplugNear:
				if len(ports) < 3 && !slices.Contains(ports, e.PCI) {
					ports = append(ports, e.PCI)
				}
			case severityOf(e) == 0:
			default:
				return nil, nil
			}
		}
	}
	if len(ports) == 0 {
		return nil, nil
	}
	return removal, ports
}

// slotRemoval reports whether e is a hot-plug slot's report that its card
// or link is gone ("pciehp: Slot(0): Card not present", "Link Down").
func slotRemoval(e *kernlog.Event) bool {
	return e.Kind == kernlog.LinkDown && e.Action == "" && e.Reporter != ""
}

// severityOf is the severity of an incident of e alone.
func severityOf(e *kernlog.Event) int {
	return severity(&kernlog.Incident{Events: []kernlog.Event{*e}, Counts: map[kernlog.Kind]int{e.Kind: 1}, Controller: e.Controller})
}

// unplugSummary is the answer for an unplug (unplugged).
func unplugSummary(d *Diagnosis, removal *kernlog.Event, ports []string) string {
	d.Consequences = []Line{logLine(removal, "the hot-plug slot reported its card gone")}
	return fmt.Sprintf("no failure of an NVMe drive seen in the kernel log: line %d: the hot-plug slot of %s lost its card, and the PCIe ports behind it (%s) could not be woken as it left, as the ports of an unplugged device (a dock, a Thunderbolt or USB4 device) cannot: an unplug, and the log names no NVMe drive (if one was behind them, the nvme driver's lines of that boot say how it went: journalctl -k -b -1 --no-pager)", removal.Line, removal.Reporter, strings.Join(ports, ", "))
}
