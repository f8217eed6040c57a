package kernlog

import (
	"strconv"
	"strings"
)

// aerReport follows an AER error report to its status line, whose bits
// name the errors (Event.AERStatus): drivers/pci/pcie/aer.c prints
// "PCIe Bus Error: severity=..., type=..., (...)", then "device
// [vvvv:dddd] error status/mask=SSSSSSSS/MMMMMMMM", then a line for each
// bit set ("[21] ACSViol (First)"), all under the device that reported.
type aerReport struct {
	line   int            // the report's line; 0 for none pending
	left   int            // how many more messages its status line may come in
	device string         // the device that printed it
	uncorr bool           // an uncorrectable error's (the other table of bits)
	bits   map[int]uint32 // the unmasked status of the reports read, by their lines
}

// aerStatusWindow is within how many messages after its report an AER
// status line may come (messages, not lines: a journal's export spends
// dozens of lines on one): the report's own lines come together.
const aerStatusWindow = 4

// begin notes an AER error report whose status line may follow.
func (a *aerReport) begin(e *Event, msg string) {
	_, dev, _ := splitDevice(msg)
	a.line, a.device, a.uncorr = 0, "", false
	if dev == "" || e.Severity == "" {
		return // APEI's report prints its status otherwise
	}
	a.line, a.left, a.device, a.uncorr = e.Line, aerStatusWindow, dev, e.Severity != "Corrected"
}

// aerStatus reads the status line of the pending AER report, reporting
// whether msg, a message that is no event, was one.
func (st *state) aerStatus(msg string) bool {
	a := &st.aer
	if a.line == 0 {
		return false
	}
	if a.left--; a.left < 0 {
		a.line = 0
		return false
	}
	_, dev, body := splitDevice(msg)
	if dev != a.device {
		return false
	}
	_, v, ok := strings.Cut(body, "error status/mask=")
	if !ok {
		return false
	}
	status, mask, ok := strings.Cut(strings.TrimSpace(v), "/")
	if !ok {
		return false
	}
	mask, _ = hexPrefix(mask) // the rest of the line, a paste's "**" among it
	sv, err1 := strconv.ParseUint(status, 16, 32)
	mv, err2 := strconv.ParseUint(mask, 16, 32)
	if err1 != nil || err2 != nil {
		return false
	}
	set := uint32(sv &^ mv)
	if a.bits == nil {
		a.bits = map[int]uint32{}
	}
	if _, seen := a.bits[a.line]; !seen && len(a.bits) < MaxAddresses*MaxIncidents {
		a.bits[a.line] = set
	}
	a.line = 0
	return true
}

// finish sets the status read on the reports' events.
func (a *aerReport) finish(l *Log) {
	if len(a.bits) == 0 {
		return
	}
	for i := range l.Incidents {
		for j := range l.Incidents[i].Events {
			if e := &l.Incidents[i].Events[j]; e.Kind == AERError {
				if b, ok := a.bits[e.Line]; ok {
					e.AERStatus = b
				}
			}
		}
	}
}

// AERErrors names the errors of an AER report's status (AERStatus) as
// the kernel prints them beside its status line, by the report's Severity.
// The names are those of drivers/pci/pcie/aer.c: "RxErr", "BadTLP",
// "BadDLLP", "Timeout" of a corrected error; "DLP", "SDES", "CmpltTO",
// "MalfTLP", "UnsupReq", "ACSViol" of an uncorrected one; a bit without a
// name as "bit N". Nil for an event with no status.
func (e Event) AERErrors() []string {
	names := &aerCorrectable
	if e.Severity != "Corrected" {
		names = &aerUncorrectable
	}
	var out []string
	for b := range 32 {
		if e.AERStatus&(1<<b) == 0 {
			continue
		}
		n := names[b]
		if n == "" {
			n = "bit " + strconv.Itoa(b)
		}
		out = append(out, n)
	}
	return out
}

// The names aer.c prints for the bits of the Correctable and
// Uncorrectable Error Status registers (PCI Express Base Specification,
// "Advanced Error Reporting Capability").
var (
	aerCorrectable   = [32]string{0: "RxErr", 6: "BadTLP", 7: "BadDLLP", 8: "Rollover", 12: "Timeout", 13: "NonFatalErr", 14: "CorrIntErr", 15: "HeaderOF"}
	aerUncorrectable = [32]string{0: "Undefined", 4: "DLP", 5: "SDES", 12: "TLP", 13: "FCP", 14: "CmpltTO", 15: "CmpltAbrt", 16: "UnxCmplt", 17: "RxOF",
		18: "MalfTLP", 19: "ECRC", 20: "UnsupReq", 21: "ACSViol", 22: "UncorrIntErr", 23: "BlockedTLP", 24: "AtomicOpBlocked", 25: "TLPBlockedErr", 26: "PoisonTLPBlocked"}
)
