package kernlog

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// MaxTextLength bounds Event.Text and Event.Raw: a longer message is cut
// there and ends in "...".
const MaxTextLength = 512

// patterns are the regular expressions of the messages the package reads.
type patterns struct {
	reDown      *pattern
	reAbort     *pattern
	reProbe     *pattern
	reCoreProbe *pattern
	reNotReady  *pattern
	reResetFail *pattern
	reAPST      *pattern
	reResume    *pattern
	reAERRecv   *pattern
	reAERBus    *pattern
	reLinkDown  *pattern
	reBlkErr    *pattern
	reBufErr    *pattern
	reDisk      *pattern
	reNVMeErr   *pattern
	reStatus    *pattern
	rePMFail    *pattern
	rePMCall    *pattern
	rePMStage   *pattern
	reIRQ       *pattern
	reHMBSize   *pattern
	reHMBErr    *pattern
}

// re returns the patterns, compiled at their first use rather than when a
// program that imports the package starts (they cost about 2 ms of every
// start of apstctl, whatever its command). Safe for concurrent use; the
// patterns are never changed.
var re = sync.OnceValue(func() *patterns {
	return &patterns{
		reDown:      mustPattern(`^controller is down; will reset: CSTS[=:] ?0x([0-9a-fA-F]{1,8})(?:, PCI_STATUS=0x([0-9a-fA-F]{1,4})|, PCI_STATUS read failed \((-?[0-9]+)\))?`),
		reAbort:     mustPattern(`^Abort status: ?(?:0x)?([0-9a-fA-F]{1,8})`),
		reProbe:     mustPattern(`^Removing after probe failure status: (-?[0-9]{1,6})`),
		reCoreProbe: mustPattern(`^probe (?:of ([0-9a-fA-F:.]{7,20}) |with driver nvme )failed with error (-?[0-9]{1,6})`),
		reNotReady:  mustPattern(`^Device not ready; aborting (reset|initialisation|initialization)(?:, CSTS=0x([0-9a-fA-F]{1,8}))?`),
		reResetFail: mustPattern(`^Disabling device after reset failure: (-?[0-9]{1,6})`),
		reAPST:      mustPattern(`^failed to set APST feature \((-?[0-9]{1,6})\)`),
		reResume:    mustPattern(`(?:Unable to|can't|[Rr]efused to) change power state from (D[0-3](?:hot|cold)?|unknown) to D0\b`),
		reAERRecv:   mustPattern(`AER: (?:Multiple )?(Corrected|Correctable|Uncorrected \((?:Non-Fatal|Fatal)\)|Uncorrectable \((?:Non-Fatal|Fatal)\)) error (?:message )?received(?: from)?:? (?:([0-9a-fA-F:.]{7,20})|id=([0-9a-fA-F]{4})\b)`),
		reAERBus:    mustPattern(`PCIe Bus Error: severity=([^,]{1,40})(?:, type=([^,]{1,40}))?`),
		reLinkDown:  mustPattern(`[Ss]lot\([^)]{1,20}\): (Link Down|Card not present)`),
		reBlkErr:    mustPattern(`(?:I/O|critical [a-z ]{1,20}|operation not supported|timeout|recoverable transport|protection|kernel resource|device resource|offline) error, dev (nvme[0-9]{1,6}(?:c[0-9]{1,6})?n[0-9]{1,6}(?:p[0-9]{1,6})?)(?:, sector (?:[0-9]{1,20}|\.\.\.),?(?: op 0x[0-9a-f]{1,4}:\(([A-Z_]{1,20})\))?| ?\.\.\.)`),
		reBufErr:    mustPattern(`^Buffer I/O error on dev(?:ice)? (nvme[0-9]{1,6}(?:c[0-9]{1,6})?n[0-9]{1,6}(?:p[0-9]{1,6})?), `),
		reDisk:      mustPattern(`nvme[0-9]{1,6}(?:c[0-9]{1,6})?n[0-9]{1,6}(?:p[0-9]{1,6})?`),
		reNVMeErr:   mustPattern(`^(.{1,40}?)\(0x([0-9a-fA-F]{1,2})\) @ LBA (?:[0-9]{1,20}, [0-9]{1,10} blocks|\.\.\.), (.{1,80}?) \(sct 0x([0-9a-fA-F]{1,2}) / sc 0x([0-9a-fA-F]{1,2})\)`),
		reStatus:    mustPattern(`\(sct 0x([0-9a-fA-F]{1,2}) / sc 0x([0-9a-fA-F]{1,2})\)`),
		rePMFail:    mustPattern(`^(?:Device (\S{1,40}) )?failed to (suspend|resume|freeze|thaw|restore|poweroff|quiesce)(?: (?:async|late|noirq|early))*(?:: error (-?[0-9]{1,6}))?`),
		rePMCall:    mustPattern(`^([a-z_]{1,40})\(\): (\S{1,80}(?: \[[^\]]{1,40}\])?) returns (-?[0-9]{1,6})`),
		rePMStage:   mustPattern(`^(?:[a-z]{1,8} )?(suspend|resume) of devices failed`),
		reIRQ:       mustPattern(`^(?:irq ([0-9]{1,6}): nobody cared|Disabling IRQ #([0-9]{1,6}))`),
		reHMBSize:   mustPattern(`(?:allocated |min host memory \()([0-9]{1,9}) MiB`),
		reHMBErr:    mustPattern(`\(?err:? ?(-?[0-9]{1,9})`),
	}
})

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
// that is not an event (the returned Event then holds only the device the
// message names, if any). A disk's event has Disk set and the controller
// only when the disk's name says it (nvme0c1n1); Read ties the others.
func parseMessage(msg string) (Event, bool) {
	if !hasKeyword(msg) && !failureLine([]byte(msg)) {
		return Event{}, false
	}
	return parseKernelMessage(msg)
}

// parseKernelMessage is parseMessage of a message whose raw line passed
// Read's filter (it holds a keyword, or names a PCI function with a
// failure word).
func parseKernelMessage(msg string) (Event, bool) {
	if i := strings.Index(msg, "#012 "); i > 0 {
		// The record's dictionary after its message ("#012
		// SUBSYSTEM=pci#012 DEVICE=+pci:0000:00:01.1"): /dev/kmsg's and
		// extended netconsole's continuation lines, run onto the message
		// by a syslog daemon that writes a newline as "#012" (rsyslog's
		// control-character escape).
		msg = msg[:i]
	}
	e := Event{Text: clip(msg)}
	if v, ok := strings.CutPrefix(msg, "Linux version "); ok {
		e.Kind = Boot
		e.Text = clip(bootRelease(v))
		return e, true
	}
	if i := strings.Index(msg, "Kernel command line: "); i >= 0 && !strings.Contains(msg[:i], ":") {
		e.Kind, e.Text = CommandLine, clip(strings.TrimSpace(msg[i+len("Kernel command line: "):]))
		return e, true
	}
	for _, m := range machineLines {
		if v, ok := strings.CutPrefix(msg, m.prefix); ok && v != "" && v != "bare hardware" &&
			// DMI's other lines: "DMI: Memory slots populated: 2/2"
			// (drivers/firmware/dmi_scan.c, newer kernels), "DMI: not
			// present or invalid.".
			!strings.HasPrefix(v, "Memory slots populated") && !strings.HasPrefix(v, "not present") {
			e.Kind, e.Text = m.kind, clip(strings.TrimSpace(v))
			return e, true
		}
	}
	// x86 prints the command line once more, earlier, from setup_arch
	// (arch/x86/kernel/setup.c: "Command line: %s"); a paste that starts
	// at the top of dmesg often holds only this one.
	if v, ok := strings.CutPrefix(msg, "Command line: "); ok {
		e.Kind, e.Text = CommandLine, clip(strings.TrimSpace(v))
		return e, true
	}
	driver, device, body := splitDevice(msg)
	if driver == "" && device == "zpci" {
		if parseZPCI(&e, body) {
			return e, true
		}
		return Event{}, false
	}
	e.Driver, e.Device = driver, device
	switch {
	case isCtrlName(device):
		e.Controller = device
	case isPCIAddr(device):
		e.PCI = strings.ToLower(device)
	case isDiskName(device):
		e.Disk = device
		e.Controller = pathController(device)
	}
	if id, ok := nvmeDeviceID(driver, e.PCI, body); ok {
		e.Kind, e.Text = PCIDevice, id
		return e, true
	}
	if nvmeLine(&e) && probeLine(body) {
		e.Text = ""
		return e, false
	}
	// Each parser reads its lines and leaves e alone for others; what none
	// reads may be a DriverError.
	if parseBAR(&e, body) || parseController(&e, msg, body) || parseTimeout(&e, msg, body) || parsePCI(&e, msg, body) || parseBlock(&e, msg, body) ||
		parseSleep(&e, msg, body) || parsePlatform(&e, msg, body) || parseHMB(&e, msg, body) || parseFileSystem(&e, msg) || driverError(&e, body) {
		return e, true
	}
	// Not an event; the device it names still tells Read something.
	e.Text = ""
	return e, false
}

// parseController reads nvme-core's controller state lines.
func parseController(e *Event, _, body string) bool {
	switch {
	case strings.HasPrefix(body, "pci function "):
		a := strings.TrimSpace(strings.TrimPrefix(body, "pci function "))
		if e.Controller == "" || e.Disk != "" || !isPCIAddr(a) {
			return false
		}
		e.Kind, e.PCI = PCIFunction, strings.ToLower(a)
	case strings.HasPrefix(body, "new ctrl: NQN \""), strings.HasPrefix(body, "new ctrl: \""), strings.HasPrefix(body, "NVME-FC{") && strings.Contains(body, "}: new ctrl: NQN \""):
		if e.Controller == "" || e.Disk != "" {
			return false
		}
		e.Kind = FabricsConnect
	case strings.HasPrefix(body, "controller is down"):
		m := re().reDown.FindStringSubmatch(body)
		if m == nil {
			return false
		}
		e.Kind = ControllerDown
		e.CSTS, e.HasCSTS = uint32(hex(m[1])), true
		switch {
		case m[2] != "":
			e.PCIStatus, e.HasPCIStatus = uint16(hex(m[2])), true
		case m[3] != "":
			e.PCIStatusFailed = true
		}
	case strings.HasPrefix(body, "Failed status: ") && strings.Contains(body, ", reset controller"):
		// The same finding before 4.12 brought nvme_warn_reset: the
		// watchdog read CSTS with its fatal bit set (all ones: the drive
		// gone from the bus) and reset, "nvme 0000:01:00.0: Failed
		// status: 0xffffffff, reset controller." (nvme_watchdog_timer,
		// 4.5 to 4.11; nvme_kthread's before, without the "0x" and the
		// full stop: "Failed status: ffffffff, reset controller"). No
		// PCI_STATUS is read.
		v, _, _ := strings.Cut(strings.TrimPrefix(body[len("Failed status: "):], "0x"), ",")
		if len(v) == 0 || len(v) > 8 || strings.Trim(v, "0123456789abcdefABCDEF") != "" {
			return false
		}
		e.Kind = ControllerDown
		e.CSTS, e.HasCSTS = uint32(hex(v)), true
	case strings.HasPrefix(body, "Does your device have a faulty power saving mode enabled"):
		e.Kind = PowerSavingHint
	case (strings.HasPrefix(body, `Try "`) || strings.HasPrefix(body, `try "`)) && strings.Contains(body, "default_ps_max_latency_us"):
		e.Kind = WorkaroundHint
		v := body[len(`Try "`):]
		v, _, _ = strings.Cut(v, `"`)
		e.Text = clip(v)
	case strings.HasPrefix(body, "Abort status:"):
		// Before 4.5: "Abort status:0 result:0" (nvme-core.c's
		// abort_completion).
		m := re().reAbort.FindStringSubmatch(body)
		if m == nil {
			return false
		}
		e.Kind, e.Status = AbortStatus, int(hex(m[1]))
	case e.Device == "nvme" && strings.HasPrefix(body, "probe of "),
		e.PCI != "" && strings.HasPrefix(body, "probe with driver nvme failed with error "):
		// The driver core's report of a failed probe: "nvme: probe of
		// 0000:01:00.0 failed with error -12", since 6.3 "nvme
		// 0000:01:00.0: probe with driver nvme failed with error -12"
		// (drivers/base/dd.c).
		m := re().reCoreProbe.FindStringSubmatch(body)
		if m == nil || m[1] != "" && !isPCIAddr(m[1]) {
			return false
		}
		if m[1] != "" {
			e.PCI = strings.ToLower(m[1])
		}
		// It sums up what the driver reported before it (a timeout, a
		// controller that never became ready), so it is a DriverError
		// that carries the errno, not a failure of its own.
		e.Kind, e.Action, e.Errno, e.Driver, e.Device = DriverError, "probe failed", atoi(m[2]), "", ""
	case strings.HasPrefix(body, "Removing after probe failure"):
		m := re().reProbe.FindStringSubmatch(body)
		if m == nil {
			return false
		}
		e.Kind, e.Errno = ProbeFailure, atoi(m[1])
	case strings.HasPrefix(body, "Device not ready; aborting"):
		m := re().reNotReady.FindStringSubmatch(body)
		if m == nil {
			return false
		}
		e.Kind = ResetNotReady
		if m[2] != "" {
			e.CSTS, e.HasCSTS = uint32(hex(m[2])), true
		}
	case strings.HasPrefix(body, "Disabling device after reset failure"):
		m := re().reResetFail.FindStringSubmatch(body)
		if m == nil {
			return false
		}
		e.Kind, e.Errno = ResetFailure, atoi(m[1])
	case strings.HasPrefix(body, "ctrl state ") && strings.HasSuffix(body, " is not RESETTING"):
		// nvme-pci's reset work found the controller in another state
		// than the resetting one it was queued in (drivers/nvme/host/pci.c,
		// nvme_reset_work, since 5.3: "ctrl state 1 is not RESETTING") and
		// gave up with -ENODEV: a reset that raced a resume, another reset
		// or a removal, which the "Disabling device after reset failure:
		// -19" after it reports; nothing the device read.
		n := strings.TrimSuffix(strings.TrimPrefix(body, "ctrl state "), " is not RESETTING")
		if n == "" || len(n) > 2 || !allDigits(n) {
			return false
		}
		e.Kind, e.Errno, e.Action = ResetFailure, -19, ActionNotResetting
	case strings.HasPrefix(body, "failed to set APST feature"):
		e.Kind = APSTFailed
		if m := re().reAPST.FindStringSubmatch(body); m != nil {
			e.Errno = atoi(m[1])
		} else if strings.TrimRight(body, " .") != "failed to set APST feature" {
			return false
		}
	case strings.HasPrefix(body, "resetting controller due to persistent internal error"),
		strings.HasPrefix(body, "resetting controller due to AER"):
		// The drive raised an asynchronous event, Error / Persistent
		// Internal Error, and nvme-core resets it (core.c,
		// nvme_handle_aer_persistent_error): the drive says it is broken.
		// "due to AER" is the same line as the kernels that first had it
		// (6.7's core.c still words it so) and the stable updates it was
		// taken to word it: the NVMe asynchronous event, not PCIe's
		// Advanced Error Reporting (whose recovery nvme logs as "frozen
		// state error detected, reset controller").
		e.Kind, e.Action = DriverError, ActionPersistentError
	case strings.HasPrefix(body, "async event result ") && asyncPersistentError(body[len("async event result "):]):
		// Older kernels (4.x) printed every asynchronous event result
		// that was not a known notice ("async event result 00010300",
		// core.c's nvme_complete_async_event): type 0 (error status),
		// information 03h, a Persistent Internal Error (NVMe Base
		// Specification, Asynchronous Event Request completion dword 0),
		// the event newer kernels reset the controller for.
		e.Kind, e.Action = DriverError, ActionPersistentError
	case strings.HasPrefix(body, "resetting controller"):
		e.Kind = Reset
	case strings.HasPrefix(body, "Removing ctrl: NQN "):
		// A controller deleted (core.c's nvme_do_delete_ctrl, at info
		// level): on request, or by a fabrics transport that gave up.
		e.Kind, e.Action = Reset, ActionDeleted
	case strings.Contains(body, " genctr mismatch (got "), strings.HasPrefix(body, "invalid id ") && strings.Contains(body, " completed on queue "),
		strings.HasPrefix(body, "could not locate request for tag "):
		// A completion whose command identifier the host never issued
		// (nvme.h's nvme_find_rq, nvme-pci's nvme_handle_cqe): the
		// controller or the DMA that carried its completion got it wrong.
		e.Kind, e.Action = DriverError, ActionBogusCompletion
	case strings.HasPrefix(body, "frozen state error detected"):
		e.Kind, e.Action = AERRecovery, "reset controller"
	case strings.HasPrefix(body, "failure state error detected"):
		e.Kind, e.Action = AERRecovery, "request disconnect"
	case body == "restart after slot reset":
		// nvme_slot_reset: the recovery reset the slot and the driver
		// restarts the controller.
		e.Kind, e.Action = AERRecovery, "slot reset"
	default:
		return false
	}
	return true
}

// parseTimeout reads a command timeout in the old and the 6.x shapes.
func parseTimeout(e *Event, _, body string) bool {
	if v, ok := strings.CutPrefix(body, "Timeout I/O "); ok {
		// Before 4.5 (nvme-core.c's nvme_timeout): "Timeout I/O 23 QID
		// 2", the abort or reset it starts on lines of their own.
		tag, rest := digitsPrefix(v)
		qid, ok := strings.CutPrefix(rest, " QID ")
		if tag == "" || len(tag) > 9 || !ok || qid == "" || len(qid) > 5 || !allDigits(qid) {
			return false
		}
		e.Tag, e.QID = atoi(tag), atoi(qid)
		e.Kind = IOTimeout
		if e.QID == 0 {
			e.Kind = AdminTimeout
		}
		return true
	}
	var t timeout
	var ok bool
	switch {
	case strings.HasPrefix(body, "I/O ") && (strings.Contains(body, " timeout, ") || strings.HasSuffix(body, " timeout")):
		t, ok = parseTimeoutLine(body)
	case strings.HasPrefix(body, "queue "):
		t, ok = parseFabricTimeout(body)
	}
	if !ok {
		return false
	}
	e.Tag, e.CommandID, e.Opcode, e.OpName, e.QID = t.tag, t.cid, t.opcode, t.opName, t.qid
	e.Action, e.ReqOp, e.Size = t.action, t.reqOp, t.size
	e.Kind = IOTimeout
	if e.QID == 0 && !t.elided {
		e.Kind = AdminTimeout
	}
	return true
}

// parsePCI reads the PCI core's, AER's and pciehp's lines.
func parsePCI(e *Event, msg, body string) bool {
	switch {
	case strings.Contains(body, "change power state from D"), strings.Contains(body, "change power state from unknown to D0"):
		// "from unknown": the PCI core had no record of the device's
		// state (PCI_UNKNOWN, pci_power_name) when it brought it to D0.
		m := re().reResume.FindStringSubmatch(body)
		if m == nil {
			if strings.Contains(body, "change power state from D0 to D3") && strings.HasSuffix(body, "device inaccessible") {
				// The way down: "Unable to change power state from D0 to
				// D3hot, device inaccessible" (drivers/pci/pci.c,
				// pci_set_low_power_state), a function gone as it was put
				// to sleep.
				e.Kind, e.Phase, e.FromState = PMError, "suspend", "D0"
				return true
			}
			return false
		}
		e.Kind, e.FromState = ResumeFailure, m[1]
	case strings.HasPrefix(body, "Refused to change power state, currently in D3") || strings.HasPrefix(body, "refused to change power state (currently D3"):
		// The PCI core's pci_raw_set_power_state before it named both
		// states (4.x: "Refused to change power state, currently in D3";
		// then "refused to change power state (currently D3hot)"): the
		// function's PMCSR still says D3, as it does when config space
		// reads all ones. Since 2019 it says "from D3hot to D0".
		e.Kind, e.FromState = ResumeFailure, "D3hot"
	case strings.Contains(body, "error received") || strings.Contains(body, "error message received"):
		m := re().reAERRecv.FindStringSubmatch(msg)
		if m != nil && m[3] != "" {
			// Kernels before 4.19 give the source as its requester ID,
			// "Corrected error received: id=00e5": bus, device and function
			// in the port's domain.
			m[2] = requesterAddr(e.PCI, m[3])
		}
		if m == nil || !isPCIAddr(m[2]) {
			return false
		}
		e.Kind, e.Severity, e.Reporter, e.PCI = AERReceived, severity(m[1]), e.PCI, strings.ToLower(m[2])
		e.Controller = ""
	case strings.HasPrefix(body, "AER: found no error details for "):
		// The line after "error message received from 0000:02:00.0" when
		// no device below the port had the error logged in its AER
		// capability (drivers/pci/pcie/aer.c, 6.8 to 6.9; later kernels
		// append "(no details found)" to the line before instead): a
		// device that no longer answers reads so. The received line
		// carries the severity.
		a := strings.TrimSpace(body[len("AER: found no error details for "):])
		if !isPCIAddr(a) {
			return false
		}
		e.Kind, e.Action, e.Reporter, e.PCI = AERReceived, "no details", e.PCI, strings.ToLower(a)
		e.Controller = ""
	case cutAERReceived(body) != "":
		// A pager cut the port's "AER: Multiple Corrected error received:
		// 0000:04:00.0" at the terminal's width and marked the cut with
		// '>' (journalctl -e and less -S): the port received an error
		// report of that severity; its source is lost.
		e.Kind, e.Severity, e.Action = AERReceived, cutAERReceived(body), "source cut off"
		e.Reporter, e.PCI, e.Controller = e.PCI, "", ""
	case strings.Contains(body, "AER: can't find device of ID"):
		// AER got an error message whose requester ID names no device
		// it knows (drivers/pci/pcie/aer.c, "can't find device of
		// ID%04x"): behind Intel VMD, or a device gone. The port that
		// received it reports it; the source is unknown.
		e.Kind, e.Action = AERReceived, "source not found"
		e.Reporter, e.PCI, e.Controller = e.PCI, "", ""
	case strings.Contains(body, "PCIe Bus Error: "):
		m := re().reAERBus.FindStringSubmatch(body)
		if m == nil {
			return false
		}
		e.Kind, e.Severity, e.Layer = AERError, severity(strings.TrimSpace(m[1])), strings.TrimSpace(m[2])
	case strings.HasPrefix(body, "AER: aer_layer=") && strings.Contains(body, ", aer_agent="):
		// An error the firmware handled first and passed on through APEI
		// (aer.c's cper_print_aer: "aer_status: ..., aer_mask: ...", the
		// bits, then "aer_layer=Physical Layer, aer_agent=Receiver ID"):
		// the layer, without the severity, which the GHES record before
		// it gives ("event severity: corrected"); an uncorrectable one
		// goes on with "aer_uncor_severity: ..." (below).
		layer, _, _ := strings.Cut(body[len("AER: aer_layer="):], ", aer_agent=")
		e.Kind, e.Layer = AERError, layer
	case strings.HasPrefix(body, "AER: aer_uncor_severity: "):
		e.Kind, e.Severity = AERError, "Uncorrected"
	case e.Driver == "pcieport" && body == "retraining failed":
		// The PCI core's last try at a link that would not train
		// (quirks.c's pcie_failed_link_retrain: "broken device, retraining
		// non-functional downstream link at 2.5GT/s", then this): the
		// link below the port stayed down.
		e.Kind, e.Action = LinkDown, ActionLinkNotActive
		e.Reporter, e.PCI, e.Controller = e.PCI, "", ""
	case strings.HasPrefix(body, "Data Link Layer Link Active not set in "):
		// The port waited for its link to train after a reset, a resume or
		// a hot-plug, and it did not (drivers/pci/pci.c,
		// pcie_wait_for_link_status's callers; pciehp).
		e.Kind, e.Action = LinkDown, ActionLinkNotActive
		e.Reporter, e.PCI, e.Controller = e.PCI, "", ""
	case e.Driver == "nvme" && body == "Device failed to resume":
		// Before 4.5, a reset that could not bring the controller back
		// (nvme-core.c's nvme_dev_reset, 4.2-4.4's nvme_dead_ctrl): not a
		// system resume, the controller's restart after a reset; it is
		// removed next, as "Removing after probe failure" says later.
		e.Kind = ResetFailure
	case e.Driver == "thunderbolt" && e.PCI != "" && (strings.HasSuffix(body, " (PCI): activation failed") || strings.HasSuffix(body, ": PCIe tunnel activation failed, aborting")):
		// The Thunderbolt/USB4 host (its NHI function) could not set up
		// the PCIe tunnel to a device it found (drivers/thunderbolt,
		// tunnel.c's "activation failed" of a PCI tunnel, tb.c's "PCIe
		// tunnel activation failed, aborting"): nothing behind that
		// device, a drive in an enclosure among them, reached the PCIe
		// bus. The event names the host, not a drive.
		e.Kind, e.Action = LinkDown, ActionTunnelFailed
		e.Reporter, e.PCI, e.Controller = e.PCI, "", ""
	case e.PCI != "" && (body == "HC died; cleaning up" || strings.HasPrefix(body, "xHCI host controller not responding, assume dead") ||
		strings.HasPrefix(body, "xHCI host not responding to stop endpoint command")):
		// A USB host controller that stopped answering (xhci-ring.c: a
		// command it did not complete, "xHCI host controller not
		// responding, assume dead", then xhci_hc_died's "HC died; cleaning
		// up"): its function's own failure, most often after a resume;
		// every USB device behind it is gone.
		e.Kind, e.Action = DriverError, ActionHostDied
	case strings.HasPrefix(body, "PCI post-resume error ") && strings.HasSuffix(body, "!"):
		// A USB host controller's PCI glue could not resume it
		// (drivers/usb/core/hcd-pci.c, "PCI post-resume error %d!"): the
		// function's own failure to wake, with the errno.
		e.Kind, e.Phase, e.Errno = PMError, "resume", atoi(strings.TrimSuffix(body[len("PCI post-resume error "):], "!"))
	case e.PCI != "" && body == "timed out waiting for pending transaction; performing function level reset anyway":
		// The PCI core's function level reset (drivers/pci/pci.c,
		// pcie_flr): the function still held transactions it never
		// completed, as a hung or vanished device does; the reset goes on.
		e.Kind, e.Action = DriverError, ActionPendingTransactions
	case e.PCI != "" && strings.HasPrefix(body, "BAR ") && strings.Contains(body, ": error updating (") && strings.HasSuffix(body, " != 0xffffffff)"):
		// The PCI core wrote a BAR and read back all ones
		// (drivers/pci/setup-res.c, pci_std_update_resource: "BAR 0:
		// error updating (0xf8010004 != 0xffffffff)"): the function did
		// not answer its config space, as one still in reset or gone
		// does.
		e.Kind = DriverError
	case strings.HasPrefix(body, "not ready ") && strings.HasSuffix(body, "after resume; giving up"):
		// The PCI core waited for the function to answer after a resume
		// and gave up (drivers/pci/pci.c, pci_dev_wait): it did not come
		// back from the sleep.
		e.Kind, e.Phase = PMError, "resume"
	case strings.HasPrefix(body, "not ready ") && strings.HasSuffix(body, "; giving up") && strings.Contains(body, "ms after "):
		// The same wait after a reset ("not ready 65535ms after bus
		// reset; giving up", "after FLR"): the function did not come back
		// from it.
		e.Kind, e.Action = ResetFailure, "not ready after "+strings.TrimSuffix(body[strings.Index(body, "ms after ")+len("ms after "):], "; giving up")
	case (strings.Contains(body, "Slot(") || strings.Contains(body, "slot(")) && (strings.Contains(body, "Link Down") || strings.Contains(body, "Card not present") ||
		strings.Contains(body, "): Cannot train link") || strings.HasSuffix(body, "): No link") || strings.HasSuffix(body, "): No device found") ||
		strings.HasSuffix(body, "): Power fault")),
		strings.HasPrefix(body, "Power fault on slot "):
		// 3.x and 4.x kernels: "slot(6): Link Down event". After pciehp
		// powered a slot or a card was inserted, pciehp_check_link_status
		// says the link did not train ("Cannot train link: status
		// 0x1811", "No link") or no device answered on it ("No device
		// found"); the slot's power controller can report a fault
		// (pciehp_hpc.c's pciehp_ist, pciehp_ctrl.c's board_added; before
		// about 4.19 "Card not present on Slot(1)" and "Power fault on
		// slot 1", pciehp_ctrl.c's handlers).
		switch {
		case re().reLinkDown.FindStringSubmatch(body) != nil, strings.HasPrefix(body, "Card not present on Slot("):
			e.Kind = LinkDown
		case strings.HasSuffix(body, "): Power fault"), strings.HasPrefix(body, "Power fault on slot "):
			e.Kind, e.Action = LinkDown, ActionPowerFault
		case strings.Contains(body, "): Cannot train link"), strings.HasSuffix(body, "): No link"), strings.HasSuffix(body, "): No device found"):
			e.Kind, e.Action = LinkDown, ActionLinkNotActive
		default:
			return false
		}
		e.Reporter = e.PCI
		if e.Reporter == "" {
			// pciehp's own prefix: "pciehp 0000:00:1d.0:pcie004:".
			if a, _, ok := strings.Cut(e.Device, ":pcie"); ok && isPCIAddr(a) {
				e.Reporter = strings.ToLower(a)
			}
		}
		e.PCI = ""
	case strings.Contains(msg, "DPC: containment event") || strings.Contains(msg, "DPC: unmasked uncorrectable error detected"):
		// Downstream Port Containment took the link down to contain an
		// error; recovery follows.
		e.Kind, e.Action = AERRecovery, "containment"
		if e.Driver == "pcieport" {
			e.Reporter, e.PCI = e.PCI, ""
		}
	case strings.HasSuffix(msg, " message") && (strings.Contains(msg, "AER: broadcast ") || e.Driver == "pcieport" && strings.HasPrefix(body, "broadcast ")):
		// The recovery's steps: "AER: broadcast error_detected message",
		// mmio_enabled, slot_reset, resume; a dynamic-debug call site of a
		// vendor kernel printed them without "AER: " (a DPC report's
		// "[222] pcie_do_recovery:201: pcieport 0000:00:01.1: broadcast
		// error_detected message").
		step := strings.TrimSuffix(msg[strings.Index(msg, "broadcast ")+len("broadcast "):], " message")
		if len(step) > 20 {
			return false
		}
		e.Kind, e.Action = AERRecovery, step
		if e.Driver == "pcieport" {
			e.Reporter, e.PCI = e.PCI, ""
		}
	case e.Driver == "pcieport" && (strings.HasSuffix(body, "subordinate device reset failed") ||
		strings.HasPrefix(body, "link reset at upstream device ") && strings.HasSuffix(body, " failed")):
		// pcie/err.c: the recovery could not reset the devices below the
		// port (5.x's "link reset at upstream device 0000:89:02.0
		// failed", its reset_link); "device recovery failed" follows.
		e.Kind, e.Action = AERRecovery, "failed"
		e.Reporter, e.PCI = e.PCI, ""
	case e.Driver == "pcieport" && strings.Contains(body, "Port link has been reset"):
		// The recovery reset the link below a port (aer.c's
		// aer_root_reset: "AER: Root Port link has been reset (0)", or a
		// Downstream Port's).
		e.Kind, e.Action = AERRecovery, "link reset"
		e.Reporter, e.PCI = e.PCI, ""
	case strings.Contains(msg, "AER: ") && (strings.Contains(body, "evice recovery") || strings.Contains(body, "can't recover")):
		e.Kind = AERRecovery
		switch {
		case strings.Contains(body, "recovery successful"):
			e.Action = "successful"
		case strings.Contains(body, "recovery failed"):
			e.Action = "failed"
		case strings.Contains(body, "no error_detected callback"):
			e.Action = "no callback"
		default:
			e.Action = "failed"
		}
		if e.Driver == "pcieport" {
			e.Reporter, e.PCI = e.PCI, ""
		}
	default:
		return false
	}
	return true
}

// parseBlock reads the block layer's and nvme's I/O errors.
func parseBlock(e *Event, msg, body string) bool {
	switch {
	case strings.Contains(msg, " error, dev nvme"):
		m := re().reBlkErr.FindStringSubmatch(msg)
		if m == nil {
			return false
		}
		e.Kind, e.Disk, e.ReqOp = IOError, m[1], m[2]
		e.Controller, e.Driver, e.Device, e.PCI = pathController(m[1]), "", "", ""
	case strings.HasPrefix(msg, "Buffer I/O error on dev nvme"), strings.HasPrefix(msg, "Buffer I/O error on device nvme"):
		// fs/buffer.c's older spelling: "on device".
		m := re().reBufErr.FindStringSubmatch(msg)
		if m == nil {
			return false
		}
		e.Kind, e.Disk = IOError, m[1]
		e.Controller, e.Driver, e.Device = pathController(m[1]), "", ""
	case e.Disk != "" && e.Driver == "Dev" && strings.HasPrefix(body, "unable to read RDB block "):
		// The Amiga partition table's reader could not read the disk's
		// block (block/partitions/amiga.c, "Dev %s: unable to read RDB
		// block %d"): a read that failed at a partition scan.
		e.Kind, e.ReqOp = IOError, "read"
		e.Controller, e.Driver, e.Device = pathController(e.Disk), "", ""
	case e.Disk != "" && strings.HasPrefix(body, "detected capacity change from ") && strings.HasSuffix(body, " to 0"):
		e.Kind = DiskGone
	case e.Disk != "" && strings.Contains(body, " @ LBA "):
		m := re().reNVMeErr.FindStringSubmatch(body)
		if m == nil {
			return false
		}
		e.Kind, e.OpName, e.Opcode = IOError, strings.TrimSpace(m[1]), int(hex(m[2]))
		e.SCT, e.SC, e.HasSC = int(hex(m[4])), int(hex(m[5])), true
	case e.Disk != "" && strings.HasPrefix(body, "...") && strings.Contains(body, "(sct 0x"):
		// nvme_log_error's line with its command elided by whoever
		// pasted it ("nvme1n1: ... Namespace Not Ready (sct 0x0 / sc
		// 0x82)", a home SIEM's write-up, posted zr-03): its status still
		// says what the drive answered.
		m := re().reStatus.FindStringSubmatch(body)
		if m == nil {
			return false
		}
		e.Kind = IOError
		e.SCT, e.SC, e.HasSC = int(hex(m[1])), int(hex(m[2])), true
	default:
		return false
	}
	return true
}

// pathController is the controller a disk name states: nvme1c2n1 is the
// path of namespace 1 of subsystem 1 through controller nvme2. Other names
// (nvme1n1) do not say which controller: under native multipath nvme1n1 is
// subsystem 1's namespace, whatever its controllers are.
func pathController(d string) string {
	_, c, _, ok := diskParts(d)
	if !ok || c == "" {
		return ""
	}
	return "nvme" + c
}

// numberController is the controller a disk name suggests by its number
// alone: nvme1n1 is nvme1's on a single-port drive without multipath.
func numberController(d string) string {
	sub, c, _, ok := diskParts(d)
	switch {
	case !ok:
		return ""
	case c != "":
		return "nvme" + c
	}
	return "nvme" + sub
}

// diskHead is the namespace of a disk or partition name: nvme0n1p2 is on
// nvme0n1.
func diskHead(d string) string {
	if i := strings.LastIndexByte(d, 'p'); i > 0 && i+1 < len(d) && allDigits(d[i+1:]) {
		return d[:i]
	}
	return d
}

// cutAERReceived returns the severity of a port's "error received" line
// that a pager cut and marked with a final '>' ("AER: Multiple Corrected
// e>"), or "" when the body is not such a line: what is left must be the
// start of the line, naming its severity in full.
func cutAERReceived(body string) string {
	if !strings.HasPrefix(body, "AER: ") || !strings.HasSuffix(body, ">") {
		return ""
	}
	r := strings.TrimPrefix(strings.TrimRight(strings.TrimSuffix(body, ">"), " "), "AER: ")
	r = strings.TrimPrefix(r, "Multiple ")
	for _, full := range [...]string{"Corrected error received", "Correctable error message received",
		"Uncorrected (Non-Fatal) error received", "Uncorrected (Fatal) error received",
		"Uncorrectable (Non-Fatal) error message received", "Uncorrectable (Fatal) error message received"} {
		word := full[:strings.IndexByte(full, ' ')]
		if len(r) <= len(word) || !strings.HasPrefix(full, r) {
			continue
		}
		if word == "Corrected" || word == "Correctable" {
			return "Corrected"
		}
		if i := strings.IndexByte(full, ')'); len(r) > i {
			return severity(full[:i+1])
		}
		return "Uncorrected"
	}
	return ""
}

// severity spells an AER severity as the older kernels do: newer ones'
// "Correctable" is "Corrected", "Uncorrectable" "Uncorrected".
func severity(s string) string {
	s = strings.Replace(s, "Correctable", "Corrected", 1)
	return strings.Replace(s, "Uncorrectable", "Uncorrected", 1)
}

// hex and atoi read a number the message's format guarantees (0 when it
// does not read). They are not inlined (go:noinline): their copies at
// 39 places took 1.1 KB of the page's app-log.wasm.
//
//go:noinline
func hex(s string) uint64 {
	v, _ := strconv.ParseUint(s, 16, 32)
	return v
}

//go:noinline
func atoi(s string) int {
	v, _ := strconv.Atoi(s)
	return v
}

// clip bounds a message kept in an event. It is not inlined
// (go:noinline): its copies at sixteen places took 1.6 KB of the page's
// app-log.wasm.
//
//go:noinline
func clip(s string) string {
	if len(s) <= MaxTextLength {
		return s
	}
	return s[:MaxTextLength-3] + "..."
}

// nvmeDeviceID reads the PCI core's enumeration line of an NVMe function
// (drivers/pci/probe.c: "pci 0000:04:00.0: [144d:a80c] type 00 class
// 0x010802", 6.x adding " PCIe Endpoint"): its vendor:device ID, lower
// case. Class 0x0108 is a non-volatile memory controller.
func nvmeDeviceID(driver, pci, body string) (string, bool) {
	if driver != "pci" || pci == "" || len(body) < len("[vvvv:dddd] type 00 class 0x0108") || body[0] != '[' || body[5] != ':' || body[10] != ']' {
		return "", false
	}
	id := strings.ToLower(body[1:10])
	if !strings.HasPrefix(body[11:], " type 00 class 0x0108") && !(appleANS(id) && strings.HasPrefix(body[11:], " type 00 class 0x0180")) {
		return "", false
	}
	for i, c := range id {
		if i != 4 && !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return "", false
		}
	}
	return id, true
}

// appleANS reports whether a vendor:device ID is one of Apple's NVMe
// controllers that the PCI core enumerates as mass storage of another
// kind (class 0x018002) and nvme-pci binds by their IDs (its table's
// 106b:2001, 106b:2003 and 106b:2005; a MacBook10,1's 106b:2003 in
// hw-probe dmesg, posted zt-08, zt-11).
func appleANS(id string) bool {
	return id == "106b:2001" || id == "106b:2003" || id == "106b:2005"
}

// bootRelease is the release of a "Linux version" line (its text after
// those words): the first word, and for a distribution's X.Y.0-N release
// the stable update it is built on, where the line gives it, in the form
// apst.ParseRelease reads: Ubuntu's "(Ubuntu 5.4.0-72.80-generic 5.4.106)"
// at the end ("5.4.0-72-generic (Ubuntu 5.4.0-72.80-generic 5.4.106)"),
// Debian's uname -v "#1 SMP Debian 5.10.209-2 (2024-01-31)" ("5.10.0-28-amd64
// (Debian 5.10.209-2)"), without an epoch ("1:"); NixOS's "#1-NixOS" names
// the distribution ("6.12.28 (NixOS 6.12.28)").
func bootRelease(v string) string {
	rel, rest, _ := strings.Cut(v, " ")
	// The base is in the uname -v part, after its "#": before it, the
	// compiler's "(Ubuntu 11.4.0-1ubuntu1~22.04)" of a line cut short.
	rest = strings.TrimSpace(rest)
	h := strings.LastIndexByte(rest, '#')
	if h < 0 {
		return rel
	}
	if v := strings.TrimLeft(rest[h+1:], "0123456789"); v == "-NixOS" || strings.HasPrefix(v, "-NixOS ") {
		// NixOS builds the release it names ("#1-NixOS SMP PREEMPT_DYNAMIC
		// ..."): said in the form of a base, so the platform is known.
		return rel + " (NixOS " + rel + ")"
	}
	if !distroRelease(rel) {
		return rel
	}
	if i := strings.LastIndex(rest, "(Ubuntu "); i > h && strings.HasSuffix(rest, ")") {
		return rel + " " + rest[i:]
	}
	if _, after, ok := strings.Cut(rest[h:], " Debian "); ok {
		if f := strings.Fields(after); len(f) > 0 {
			base := f[0]
			if _, b, ok := strings.Cut(base, ":"); ok {
				base = b
			}
			return rel + " (Debian " + base + ")"
		}
	}
	return rel
}

// distroRelease reports whether rel is a distribution's X.Y.0-N release
// ("5.10.0-28-amd64", "5.15.0-91-generic", "6.1.0-rpi7-rpi-2712"), whose
// stable base the line may give.
func distroRelease(rel string) bool {
	x, rest, ok := strings.Cut(rel, ".")
	if !ok || x == "" || !allDigits(x) {
		return false
	}
	y, rest, ok := strings.Cut(rest, ".")
	if !ok || y == "" || !allDigits(y) {
		return false
	}
	// Raspberry Pi OS's first Bookworm kernels are Debian's too:
	// "6.1.0-rpi7-rpi-2712", built on "Debian 1:6.1.63-1+rpt1".
	return strings.HasPrefix(rest, "0-") && len(rest) > 2 && (isDigit(rest[2]) || strings.HasPrefix(rest, "0-rpi"))
}

// requesterAddr is the PCI address of requester ID id ("00e5": bus 0x00,
// device 0x1c, function 5) in the domain of the port at port, or "" when
// port is no address.
func requesterAddr(port, id string) string {
	dom, _, ok := strings.Cut(port, ":")
	if !ok || len(dom) < 4 || len(dom) > 8 {
		return "" // a domain is four hex digits, or five and more behind VMD ("10003")
	}
	v, err := strconv.ParseUint(id, 16, 16)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%s:%02x:%02x.%d", dom, v>>8, v>>3&0x1f, v&7)
}

// machineLines are the lines that name the machine or its hypervisor,
// by their message's start.
var machineLines = []struct {
	prefix string
	kind   Kind
}{
	{"DMI: ", Machine},
	{"Hardware name: ", Machine},
	// A device tree's model, which drivers/of/fdt.c prints at boot on Arm
	// and RISC-V boards ("Machine model: Raspberry Pi 5 Model B Rev 1.0").
	{"Machine model: ", Machine},
	{"Hypervisor detected: ", Hypervisor},
	{"Booting paravirtualized kernel on ", Hypervisor},
}

// asyncPersistentError reports whether an asynchronous event's completion
// dword 0, in hex, is an error status event (type 0, bits 2:0) whose
// information (bits 15:8) is 03h, a Persistent Internal Error.
func asyncPersistentError(v string) bool {
	v = strings.TrimSpace(v)
	if len(v) == 0 || len(v) > 8 {
		return false
	}
	r, err := strconv.ParseUint(v, 16, 32)
	return err == nil && r&0x7 == 0 && (r>>8)&0xff == 0x03
}
