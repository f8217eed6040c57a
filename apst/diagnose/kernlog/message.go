package kernlog

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// MaxTextLength bounds Event.Text: a longer message is cut there and ends
// in "...".
const MaxTextLength = 512

// patterns are the regular expressions of the messages the package reads.
type patterns struct {
	pciAddr     *regexp.Regexp
	ctrlName    *regexp.Regexp
	diskName    *regexp.Regexp
	reDown      *regexp.Regexp
	reTimeout   *regexp.Regexp
	reAbort     *regexp.Regexp
	reProbe     *regexp.Regexp
	reNotReady  *regexp.Regexp
	reResetFail *regexp.Regexp
	reAPST      *regexp.Regexp
	reResume    *regexp.Regexp
	reAERRecv   *regexp.Regexp
	reAERBus    *regexp.Regexp
	reLinkDown  *regexp.Regexp
	reBlkErr    *regexp.Regexp
	reNVMeErr   *regexp.Regexp
}

// re returns the patterns, compiled at their first use rather than when a
// program that imports the package starts (the 16 of them cost about 2 ms
// of every start of apstctl, whatever its command). Safe for concurrent
// use; the patterns are never changed.
var re = sync.OnceValue(func() *patterns {
	return &patterns{
		pciAddr:     regexp.MustCompile(`^[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]$`),
		ctrlName:    regexp.MustCompile(`^nvme[0-9]{1,6}$`),
		diskName:    regexp.MustCompile(`^nvme([0-9]{1,6})(?:c([0-9]{1,6}))?n[0-9]{1,6}(?:p[0-9]{1,6})?$`),
		reDown:      regexp.MustCompile(`^controller is down; will reset: CSTS=0x([0-9a-fA-F]{1,8})(?:, PCI_STATUS=0x([0-9a-fA-F]{1,4})|, PCI_STATUS read failed \((-?[0-9]+)\))?`),
		reTimeout:   regexp.MustCompile(`^I/O (?:tag )?([0-9]{1,9}) (?:\(([0-9a-fA-F]{1,4})\) )?(?:opcode 0x([0-9a-fA-F]{1,2}) )?(?:\(([^)]{1,40})\) )?QID ([0-9]{1,5}) timeout, ([a-z ]{1,40}?)(?: req_op:(\S{1,40}))?(?: size:([0-9]{1,12}))?$`),
		reAbort:     regexp.MustCompile(`^Abort status: 0x([0-9a-fA-F]{1,8})`),
		reProbe:     regexp.MustCompile(`^Removing after probe failure status: (-?[0-9]{1,6})`),
		reNotReady:  regexp.MustCompile(`^Device not ready; aborting (reset|initialisation|initialization), CSTS=0x([0-9a-fA-F]{1,8})`),
		reResetFail: regexp.MustCompile(`^Disabling device after reset failure: (-?[0-9]{1,6})`),
		reAPST:      regexp.MustCompile(`^failed to set APST feature \((-?[0-9]{1,6})\)`),
		reResume:    regexp.MustCompile(`Unable to change power state from (D[0-3](?:hot|cold)?) to D0, device inaccessible`),
		reAERRecv:   regexp.MustCompile(`AER: (?:Multiple )?(Corrected|Correctable|Uncorrected \((?:Non-Fatal|Fatal)\)|Uncorrectable \((?:Non-Fatal|Fatal)\)) error (?:message )?received(?: from)?:? ([0-9a-fA-F:.]{7,20})`),
		reAERBus:    regexp.MustCompile(`PCIe Bus Error: severity=([^,]{1,40}), type=([^,]{1,40})`),
		reLinkDown:  regexp.MustCompile(`Slot\([^)]{1,20}\): (Link Down|Card not present)`),
		reBlkErr:    regexp.MustCompile(`(?:I/O|critical [a-z]{1,20}) error, dev (nvme[0-9]{1,6}(?:c[0-9]{1,6})?n[0-9]{1,6}(?:p[0-9]{1,6})?), sector [0-9]{1,20}(?: op 0x[0-9a-f]{1,4}:\(([A-Z_]{1,20})\))?`),
		reNVMeErr:   regexp.MustCompile(`^(.{1,40}?)\(0x([0-9a-fA-F]{1,2})\) @ LBA [0-9]{1,20}, [0-9]{1,10} blocks, (.{1,80}?) \(sct 0x([0-9a-fA-F]{1,2}) / sc 0x([0-9a-fA-F]{1,2})\)`),
	}
})

// interesting is a cheap test that lets most lines of a large log skip the
// regular expressions.
func interesting(msg string) bool {
	return strings.Contains(msg, "nvme") || strings.Contains(msg, "AER") || strings.Contains(msg, "PCIe Bus Error") ||
		strings.Contains(msg, "D0, device inaccessible") || strings.Contains(msg, "Slot(") ||
		strings.HasPrefix(msg, "Linux version ") || strings.Contains(msg, "ommand line: ")
}

// keywords are the words one of which every event line holds.
var keywords = [][]byte{[]byte("nvme"), []byte("AER"), []byte("PCIe Bus Error"), []byte("D0, device inaccessible"),
	[]byte("Slot("), []byte("Linux version "), []byte("ommand line: ")}

// interestingBytes is interesting on a raw line, before its time stamp is
// parsed.
func interestingBytes(b []byte) bool {
	for _, k := range keywords {
		if bytes.Contains(b, k) {
			return true
		}
	}
	return false
}

// splitDevice splits "driver device: body" (dev_printk's prefix); driver
// and device are empty when the message has no such prefix, and device
// alone is set for "nvme0n1: body".
func splitDevice(msg string) (driver, device, body string) {
	a, rest, ok := strings.Cut(msg, " ")
	if !ok {
		return "", "", msg
	}
	if strings.HasSuffix(a, ":") {
		return "", strings.TrimSuffix(a, ":"), rest
	}
	b, body, ok := strings.Cut(rest, " ")
	if !ok || !strings.HasSuffix(b, ":") || strings.Contains(a, ":") {
		return "", "", msg
	}
	return a, strings.TrimSuffix(b, ":"), body
}

// parseMessage recognises one kernel message; ok is false for anything
// that is not an event.
func parseMessage(msg string) (Event, bool) {
	if !interesting(msg) {
		return Event{}, false
	}
	e := Event{Text: clip(msg)}
	if v, ok := strings.CutPrefix(msg, "Linux version "); ok {
		e.Kind = Boot
		e.Text, _, _ = strings.Cut(v, " ")
		e.Text = clip(e.Text)
		return e, true
	}
	if _, v, ok := strings.Cut(msg, "Kernel command line: "); ok && !strings.Contains(msg[:strings.Index(msg, "Kernel command line: ")], ":") {
		e.Kind, e.Text = CommandLine, clip(strings.TrimSpace(v))
		return e, true
	}
	driver, device, body := splitDevice(msg)
	e.Driver, e.Device = driver, device
	switch {
	case re().ctrlName.MatchString(device):
		e.Controller = device
	case re().pciAddr.MatchString(device):
		e.PCI = strings.ToLower(device)
	case re().diskName.MatchString(device):
		e.Disk = device
		e.Controller = diskController(device)
	}
	switch {
	case strings.HasPrefix(body, "pci function "):
		a := strings.TrimSpace(strings.TrimPrefix(body, "pci function "))
		if e.Controller == "" || !re().pciAddr.MatchString(a) {
			return Event{}, false
		}
		e.Kind, e.PCI = PCIFunction, strings.ToLower(a)
	case strings.HasPrefix(body, "controller is down"):
		m := re().reDown.FindStringSubmatch(body)
		if m == nil {
			return Event{}, false
		}
		e.Kind = ControllerDown
		e.CSTS, e.HasCSTS = uint32(hex(m[1])), true
		switch {
		case m[2] != "":
			e.PCIStatus, e.HasPCIStatus = uint16(hex(m[2])), true
		case m[3] != "":
			e.PCIStatusFailed = true
		}
	case strings.HasPrefix(body, "Does your device have a faulty power saving mode enabled"):
		e.Kind = PowerSavingHint
	case strings.HasPrefix(body, `Try "`) && strings.Contains(body, "default_ps_max_latency_us"):
		e.Kind = WorkaroundHint
		v := strings.TrimPrefix(body, `Try "`)
		v, _, _ = strings.Cut(v, `"`)
		e.Text = clip(v)
	case strings.HasPrefix(body, "I/O ") && strings.Contains(body, " timeout, "):
		m := re().reTimeout.FindStringSubmatch(body)
		if m == nil {
			return Event{}, false
		}
		e.Tag = atoi(m[1])
		e.CommandID = strings.ToLower(m[2])
		if m[3] != "" {
			e.Opcode = int(hex(m[3]))
		}
		e.OpName, e.QID, e.Action, e.ReqOp = m[4], atoi(m[5]), m[6], m[7]
		if m[8] != "" {
			e.Size, _ = strconv.ParseInt(m[8], 10, 64)
		}
		e.Kind = IOTimeout
		if e.QID == 0 {
			e.Kind = AdminTimeout
		}
	case strings.HasPrefix(body, "Abort status: "):
		m := re().reAbort.FindStringSubmatch(body)
		if m == nil {
			return Event{}, false
		}
		e.Kind, e.Status = AbortStatus, int(hex(m[1]))
	case strings.HasPrefix(body, "Removing after probe failure"):
		m := re().reProbe.FindStringSubmatch(body)
		if m == nil {
			return Event{}, false
		}
		e.Kind, e.Errno = ProbeFailure, atoi(m[1])
	case strings.HasPrefix(body, "Device not ready; aborting"):
		m := re().reNotReady.FindStringSubmatch(body)
		if m == nil {
			return Event{}, false
		}
		e.Kind, e.CSTS, e.HasCSTS = ResetNotReady, uint32(hex(m[2])), true
	case strings.HasPrefix(body, "Disabling device after reset failure"):
		m := re().reResetFail.FindStringSubmatch(body)
		if m == nil {
			return Event{}, false
		}
		e.Kind, e.Errno = ResetFailure, atoi(m[1])
	case strings.HasPrefix(body, "failed to set APST feature"):
		m := re().reAPST.FindStringSubmatch(body)
		if m == nil {
			return Event{}, false
		}
		e.Kind, e.Errno = APSTFailed, atoi(m[1])
	case body == "resetting controller" || strings.HasPrefix(body, "resetting controller"):
		e.Kind = Reset
	case strings.Contains(body, "D0, device inaccessible"):
		m := re().reResume.FindStringSubmatch(body)
		if m == nil {
			return Event{}, false
		}
		e.Kind, e.FromState = ResumeFailure, m[1]
	case strings.Contains(body, "error received") || strings.Contains(body, "error message received"):
		m := re().reAERRecv.FindStringSubmatch(body)
		if m == nil || !re().pciAddr.MatchString(m[2]) {
			return Event{}, false
		}
		e.Kind, e.Severity, e.Reporter, e.PCI = AERReceived, severity(m[1]), e.PCI, strings.ToLower(m[2])
		e.Controller = ""
	case strings.Contains(body, "PCIe Bus Error: "):
		m := re().reAERBus.FindStringSubmatch(body)
		if m == nil {
			return Event{}, false
		}
		e.Kind, e.Severity, e.Layer = AERError, severity(m[1]), strings.TrimSpace(m[2])
	case strings.Contains(body, "Slot(") && (strings.Contains(body, "Link Down") || strings.Contains(body, "Card not present")):
		if re().reLinkDown.FindStringSubmatch(body) == nil {
			return Event{}, false
		}
		e.Kind = LinkDown
		e.Reporter = e.PCI
		if e.Reporter == "" {
			// pciehp's own prefix: "pciehp 0000:00:1d.0:pcie004:".
			if a, _, ok := strings.Cut(device, ":pcie"); ok && re().pciAddr.MatchString(a) {
				e.Reporter = strings.ToLower(a)
			}
		}
		e.PCI = ""
	case strings.Contains(msg, " error, dev nvme"):
		m := re().reBlkErr.FindStringSubmatch(msg)
		if m == nil {
			return Event{}, false
		}
		e.Kind, e.Disk, e.ReqOp = IOError, m[1], m[2]
		e.Controller, e.Driver, e.Device = diskController(m[1]), "", ""
	case e.Disk != "" && strings.Contains(body, " @ LBA "):
		m := re().reNVMeErr.FindStringSubmatch(body)
		if m == nil {
			return Event{}, false
		}
		e.Kind, e.OpName, e.Opcode = IOError, strings.TrimSpace(m[1]), int(hex(m[2]))
		e.SCT, e.SC, e.HasSC = int(hex(m[4])), int(hex(m[5])), true
	default:
		return Event{}, false
	}
	return e, true
}

// diskController is the controller of a disk name: nvme0n1 is controller
// nvme0's (its subsystem's head, which is controller 0 on a single-port
// drive), nvme1c2n1 is controller nvme2's path.
func diskController(d string) string {
	m := re().diskName.FindStringSubmatch(d)
	if m == nil {
		return ""
	}
	if m[2] != "" {
		return "nvme" + m[2]
	}
	return "nvme" + m[1]
}

// severity spells an AER severity as the older kernels do.
func severity(s string) string {
	s = strings.Replace(s, "Correctable", "Corrected", 1)
	return strings.Replace(s, "Uncorrectable", "Uncorrected", 1)
}

func hex(s string) uint64 {
	v, _ := strconv.ParseUint(s, 16, 32)
	return v
}

func atoi(s string) int {
	v, _ := strconv.Atoi(s)
	return v
}

// clip bounds a message kept in an event.
func clip(s string) string {
	if len(s) <= MaxTextLength {
		return s
	}
	return s[:MaxTextLength-3] + "..."
}
