package diagnose

import (
	"fmt"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// fabricsWords are what only the NVMe over Fabrics transports (nvme-tcp,
// nvme-rdma, nvme-fc) print of a controller: their error recovery and
// reconnection ("starting error recovery", "Reconnecting in 10
// seconds...", "failed to connect queue: 0 ret=-111"), nvme-tcp's own
// timeout line ("queue 5: timeout request 0x11 type 6"), the keep-alive
// that fails when the network or target is gone, and the connect that
// failed: nvme-rdma's "rdma connection establishment failed (-104)"
// (drivers/nvme/host/rdma.c), nvme-tcp's "failed to connect socket: -111"
// (tcp.c) and the fabrics library's "Connect command failed" (fabrics.c);
// nvme-fc's own prefix on its controller's lines ("NVME-FC{0}: reset:
// Reconnect attempt failed (-111)", drivers/nvme/host/fc.c). A PCIe
// controller prints none of them. The connect line itself ("new ctrl:
// NQN ...") is no event of an incident: the reader keeps it in
// kernlog.Log.Fabrics.
var fabricsWords = []string{"starting error recovery", ": timeout request 0x", ": timeout cid 0x", "Reconnecting in ", "keep_alive", "Keep Alive", "failed to connect queue", "Failed reconnect attempt",
	"rdma connection establishment failed", "failed to connect socket", "Connect command failed", "NVME-FC{"}

// fabricsLine returns the first event of the incident that shows its
// controller is reached over a fabric, else the log's line that connected
// it over one (kernlog.Log.Fabrics), or nil.
func fabricsLine(in *kernlog.Incident, l *kernlog.Log) *kernlog.Event {
	if in == nil {
		return nil
	}
	for i := range in.Events {
		e := &in.Events[i]
		if tcpTimeout(e.Text) {
			return e
		}
		for _, w := range fabricsWords {
			if strings.Contains(e.Text, w) {
				return e
			}
		}
	}
	if l == nil || in.Controller == "" {
		return nil
	}
	if e, ok := l.Fabrics[in.Controller]; ok {
		return &e
	}
	return nil
}

// tcpTimeout reports whether a line is nvme-tcp's timeout of a request
// since 6.x, which names the PDU's type where nvme-pci's does not: "I/O
// tag 24 (6018) type 4 opcode 0x1 (I/O Cmd) QID 3 timeout"
// (drivers/nvme/host/tcp.c's nvme_tcp_timeout; nvme-pci's is "I/O tag 24
// (6018) opcode 0x1 (I/O Cmd) QID 3 timeout, aborting").
func tcpTimeout(text string) bool {
	i := strings.Index(text, ") type ")
	if i < 0 || !strings.Contains(text[:i], "I/O tag ") {
		return false
	}
	rest := text[i+len(") type "):]
	n := 0
	for n < len(rest) && n < 3 && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	return n > 0 && strings.HasPrefix(rest[n:], " opcode ")
}

// fabricsText is what a fabrics controller's failure is.
const fabricsText = "an NVMe over Fabrics controller (TCP, RDMA, Fibre Channel, or a loop to this machine's target): its drop-outs are the network's, the target's or the host's stack, not APST, ASPM, a PCIe link or system sleep, the layers this diagnosis weighs"

// fabricsCause is the one cause of a fabrics controller's failure: none of
// the layers this package weighs, which are a PCIe drive's. Its evidence is
// the log's line e that shows the fabric, else ev; its tests are the
// transport's (fabricsTests).
func fabricsCause(e *kernlog.Event, ev Line, tests []Test) Cause {
	if e != nil {
		ev = logLine(e, fabricsText)
	}
	return Cause{Layer: LayerUnknown, Likelihood: Possible, Score: 1, Against: []Line{},
		Evidence: []Line{ev}, Tests: tests}
}

// fabricsTests are the tests of a fabrics controller's failure for the
// transport its incident's lines show: nvme-fc's own prefix ("NVME-FC{1}:
// controller connectivity lost."), nvme-rdma's lines, a target on this
// very machine (nvmet's lines in the same log, or an address of the
// loopback: blktests and nvme_loop run so); a connection that failed for
// lack of memory (error -12, ENOMEM) first. TCP to another machine
// otherwise.
func (s *signals) fabricsTests() []Test {
	var text strings.Builder
	if s.inc != nil {
		for i := range s.inc.Events {
			text.WriteString(s.inc.Events[i].Text)
			text.WriteByte('\n')
		}
		if e, ok := s.in.Log.Fabrics[s.inc.Controller]; ok {
			text.WriteString(e.Text)
		}
	}
	t := text.String()
	var tests []Test
	if strings.Contains(t, "(-12)") || strings.Contains(t, "ret=-12") || strings.Contains(t, "error -12") {
		tests = append(tests, Test{Action: "the host could not allocate what the connection needs (error -12, ENOMEM): its memory, or for RDMA the device's limits on memory regions and queues, which a software RDMA device (rxe, siw) keeps low; check both before the network", Command: "free -m; rdma resource show; journalctl -k -b --no-pager | grep -i -E 'nvme|rdma|rxe|siw|mlx'", Cost: "free"})
	}
	switch {
	case strings.Contains(t, "NVME-FC{"):
		return append(tests, Test{Action: "check the Fibre Channel path: the HBA's own lines (lpfc, qla2xxx) for its link and remote ports, the fabric's zoning and the target's log; no IP network is involved", Command: "nvme list-subsys; cat /sys/class/fc_host/host*/port_state; journalctl -k -b --no-pager | grep -i -E 'nvme|lpfc|qla2xxx'", Cost: "free"})
	case len(s.target) > 0 || strings.Contains(t, " 127.0.0.1") || strings.Contains(t, "addr 127.") || strings.Contains(t, "addr ::1"):
		return append(tests, Test{Action: "the target is this machine's own (nvmet, over the loopback or nvme-loop): no network is between them, and the target's lines in the same log say how it ended the connection (a keep-alive it expired, a controller it deleted); a test suite's run (blktests) is read with its own output", Command: "journalctl -k -b --no-pager | grep -i -E 'nvmet|nvme'", Cost: "free"})
	case strings.Contains(t, "rdma"):
		return append(tests, Test{Action: "check the RDMA path to the target: the RDMA device's link and counters, the network under it (RoCE's lossless settings), the target's own log", Command: "nvme list-subsys; rdma link show; journalctl -k -b --no-pager | grep -i -E 'nvme|rdma'", Cost: "free"})
	}
	return append(tests, Test{Action: "check the path to the target: the network (link, MTU, drops), the target's own log, and the host's transport module", Command: "nvme list-subsys; ip -s link; journalctl -k -b --no-pager | grep -i -E 'nvme|tcp|rdma'", Cost: "free"})
}

// fabricsIdentify is the Identify data's word that its controller is
// reached over a fabric (IOCCSZ set, or a discovery controller), as
// evidence, and whether it says so.
func fabricsIdentify(id *powerstate.Controller) (Line, bool) {
	if id == nil {
		return Line{}, false
	}
	if f, known := id.Fabrics(); !f || !known {
		return Line{}, false
	}
	return Line{Source: "Identify data", Text: fmt.Sprintf("IOCCSZ %d, CNTRLTYPE %d: %s", id.IOCCSZ, id.ControllerType, fabricsText)}, true
}

// pcieSign says where the log shows the diagnosed controller is a PCIe
// one: a line of its that names its PCI function or reads PCI_STATUS
// (nvme-pci's controller-down), or the PCI function the log ties it to;
// "" when the log does not.
func (s *signals) pcieSign() string {
	if s.inc != nil {
		for i := range s.inc.Events {
			if e := &s.inc.Events[i]; e.PCI != "" || e.Kind == kernlog.ControllerDown && (e.HasPCIStatus || e.PCIStatusFailed) {
				return fmt.Sprintf("line %d", e.Line)
			}
		}
	}
	if s.dev != "" {
		return "PCI function " + s.dev
	}
	return ""
}

// targetNote says which lines were read as the NVMe over Fabrics target's
// (signals.target).
func targetNote(lines []kernlog.UnreadLine) string {
	if len(lines) == 0 {
		return ""
	}
	more := ""
	if len(lines) > 1 {
		more = fmt.Sprintf(" and %d more", len(lines)-1)
	}
	return fmt.Sprintf("line %d%s: the NVMe over Fabrics target's driver (nvmet): this machine serves a target too, and its lines are of the hosts' connections to it (a keep-alive that expired, a host's controller it ended), read as the target's, not as a drive's failure", lines[0].Line, more)
}
