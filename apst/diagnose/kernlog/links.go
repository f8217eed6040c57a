package kernlog

import (
	"strings"
	"time"
)

// links is what the log says of how its controllers, PCI functions, ports
// and disks belong together, beyond the "pci function" lines
// (Log.Addresses): Read uses it at the end to tie the events that name
// only an address or a disk to a controller.
type links struct {
	ctrl  string // the first controller the log names
	ctrls int    // how many controllers it names (counted to 2)
	// named are the controllers the log's lines name, at most
	// MaxAddresses of them (Log.Controllers).
	named map[string]bool
	fn    string // the first NVMe PCI function (a line of driver nvme)
	fns   int    // how many (counted to 2)
	// ports maps a port to the function whose AER errors it reported ("" if
	// several); other holds the functions a driver other than nvme prints
	// for (a network card, a USB controller).
	ports map[string]string
	other map[string]bool
	// disks are the NVMe disks the log names; probes the latest
	// "default/read/poll queues" lines of this boot, whose controller the
	// partition scan that follows belongs to.
	disks     map[string]bool
	probes    []probe // a ring
	nextProbe int
	lastScan  int // the line of the last partition scan
	// nvmeFns are the functions the nvme driver prints for; aer is the
	// PCI core's recovery of the function the last AER report named.
	nvmeFns map[string]bool
	aer     aerRecovery
	// bridges are the buses below each bridge the PCI core set up ("pci
	// 0000:00:1c.0: PCI bridge to [bus 01]"), the last it printed.
	bridges map[string]busRange
}

// probe is a controller's probe line.
type probe struct {
	ctrl string
	line int
	ts   Timestamp
}

// Namespace scan window: the partition scan of a namespace follows its
// controller's "queues" line within these many lines and this time.
const (
	scanLines  = 64
	scanWindow = 10 * time.Second
	maxProbes  = 8
)

func (l *links) init(map[string]string) {
	l.ports, l.other, l.disks, l.nvmeFns = map[string]string{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	l.named = map[string]bool{}
	l.bridges = map[string]busRange{}
}

func (l *links) newBoot(st *state) {
	l.flushAER(st)
	l.probes, l.nextProbe, l.lastScan = l.probes[:0], 0, 0
}

func (l *links) sawController(c string) {
	if len(l.named) < MaxAddresses {
		l.named[c] = true
	}
	switch {
	case l.ctrls == 0:
		l.ctrl, l.ctrls = c, 1
	case l.ctrl != c:
		l.ctrls = 2
	}
}

func (l *links) sawFunction(a string) {
	switch {
	case l.fns == 0:
		l.fn, l.fns = a, 1
	case l.fn != a:
		l.fns = 2
	}
}

// observe notes what a line (an event or not) says of the links.
func (l *links) observe(st *state, msg string, e *Event, ok bool, ts Timestamp, line int) {
	if e.Controller != "" && (e.Disk == "" || pathController(e.Disk) != "") {
		l.sawController(e.Controller)
	}
	switch {
	case ok && (e.Kind == PCIFunction || e.Kind == PCIDevice), e.Driver == "nvme" && e.PCI != "":
		l.sawFunction(e.PCI)
		if e.Driver == "nvme" && e.PCI != "" && len(l.nvmeFns) < MaxAddresses {
			l.nvmeFns[e.PCI] = true
		}
	case e.PCI != "" && e.Driver != "" && e.Driver != "pci" && e.Driver != "pcieport" && e.Driver != "pciehp" && e.Driver != "zpci" && len(l.other) < MaxAddresses:
		l.other[e.PCI] = true
	}
	if ok && e.Kind == AERReceived && e.Reporter != "" && e.Reporter != e.PCI {
		if dev, seen := l.ports[e.Reporter]; !seen && len(l.ports) < MaxAddresses {
			l.ports[e.Reporter] = e.PCI
		} else if seen && dev != e.PCI {
			l.ports[e.Reporter] = ""
		}
	}
	if !ok && (e.Driver == "pci" || e.Driver == "pcieport") && e.PCI != "" {
		// "pci 0000:00:07.0: PCI bridge to [bus 01-2b]" at enumeration,
		// "pcieport ..." when the port driver has bound it (a rescan, a
		// hot-plug, a resume).
		if r, found := bridgeBuses(msg, e.PCI); found {
			if _, known := l.bridges[e.PCI]; known || len(l.bridges) < MaxAddresses {
				l.bridges[e.PCI] = r
			}
		}
	}
	switch {
	case ok && (e.Kind == AERReceived || e.Kind == AERError) && e.PCI != "" && e.Controller == "":
		l.sawAER(st, e.PCI, ts, line)
	case ok && e.Action == ActionPlatformError && e.PCI != "":
		// s390's firmware reports the error of an endpoint itself (its
		// zPCI functions have no ports the kernel sees).
		l.sawAER(st, e.PCI, ts, line)
		l.aer.endpoint = true
	case ok && e.Kind == AERRecovery && e.Controller != "" && e.Driver == "nvme" && aerHandler(e.Action):
		l.sawHandler(e.Controller, ts, line)
	}
	if e.Disk != "" {
		l.sawDisk(st, diskHead(e.Disk))
	}
	if e.Controller != "" && e.Disk == "" && strings.HasSuffix(msg, " default/read/poll queues") {
		if len(l.probes) < maxProbes {
			l.probes = append(l.probes, probe{})
		}
		l.probes[l.nextProbe] = probe{ctrl: e.Controller, line: line, ts: ts}
		l.nextProbe = (l.nextProbe + 1) % maxProbes
	}
	if e.Disk != "" && e.Driver == "" && partitionScanLine(msg, e.Disk) {
		l.sawDisk(st, e.Disk)
		l.partitionScan(st, e.Disk, line, ts)
	}
}

// partitionScanLine reports whether msg is the block layer's partition
// scan of a disk: "nvme0n1: p1 p2 p3", "nvme0n1: p1 p2 < p5 p6 >",
// "nvme0n1:".
func partitionScanLine(msg, disk string) bool {
	if !strings.HasPrefix(msg, disk) || len(msg) == len(disk) || msg[len(disk)] != ':' || diskHead(disk) != disk {
		return false
	}
	rest := strings.TrimSuffix(msg[len(disk)+1:], " unknown partition table")
	for rest != "" {
		var f string
		f, rest, _ = strings.Cut(strings.TrimLeft(rest, " "), " ")
		if f != "" && f != "<" && f != ">" && (len(f) < 2 || f[0] != 'p' || !allDigits(f[1:])) {
			return false
		}
	}
	return true
}

func (l *links) sawDisk(st *state, head string) {
	if !l.disks[head] && len(l.disks) < MaxAddresses {
		l.disks[head] = true
	}
}

// partitionScan ties a namespace to the controller whose probe its
// partition scan follows: the one controller probed within the window
// since the last scan, or else (a controller with several namespaces) the
// one probed within the window. Two controllers probed at once leave the
// scan to neither.
func (l *links) partitionScan(st *state, head string, line int, ts Timestamp) {
	defer func() { l.lastScan = line }()
	for _, sinceScan := range []bool{true, false} {
		ctrl, found := "", false
		for _, p := range l.probes {
			if line-p.line > scanLines || sinceScan && p.line < l.lastScan {
				continue
			}
			if d, ok := ts.sub(p.ts); ok && (d > scanWindow || d < 0) {
				continue
			}
			found = true
			switch {
			case ctrl == "":
				ctrl = p.ctrl
			case ctrl != p.ctrl:
				return // two controllers probed: the scan is either's
			}
		}
		if found {
			st.setNamespace(head, ctrl)
			return
		}
	}
}

// setNamespace maps a disk to its controller within MaxAddresses.
func (st *state) setNamespace(head, ctrl string) {
	if _, known := st.log.Namespaces[head]; !known && len(st.log.Namespaces) >= MaxAddresses {
		st.log.DroppedNamespaces++
		return
	}
	st.log.Namespaces[head] = ctrl
}
