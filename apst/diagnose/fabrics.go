package diagnose

import (
	"strings"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// fabricsWords are what only the NVMe over Fabrics transports (nvme-tcp,
// nvme-rdma, nvme-fc) print of a controller: their error recovery and
// reconnection ("starting error recovery", "Reconnecting in 10
// seconds...", "failed to connect queue: 0 ret=-111"), the keep-alive
// that fails when the network or target is gone, the connect line ("new
// ctrl: NQN ..."). A PCIe controller prints none of them.
var fabricsWords = []string{"starting error recovery", "Reconnecting in ", "keep_alive", "Keep Alive", "new ctrl: NQN", "failed to connect queue", "Failed reconnect attempt"}

// fabricsLine returns the first event of the incident that shows its
// controller is reached over a fabric, or nil.
func fabricsLine(in *kernlog.Incident) *kernlog.Event {
	if in == nil {
		return nil
	}
	for i := range in.Events {
		e := &in.Events[i]
		for _, w := range fabricsWords {
			if strings.Contains(e.Text, w) {
				return e
			}
		}
	}
	return nil
}

// fabricsCause is the one cause of a fabrics controller's failure: none of
// the layers this package weighs, which are a PCIe drive's.
func fabricsCause(e *kernlog.Event) Cause {
	return Cause{Layer: LayerUnknown, Likelihood: Possible, Score: 1, Against: []Line{},
		Evidence: []Line{logLine(e, "an NVMe over Fabrics controller (TCP, RDMA or Fibre Channel): its drop-outs are the network's, the target's or the host's stack, not APST, ASPM, a PCIe link or system sleep, the layers this diagnosis weighs")},
		Tests:    []Test{{Action: "check the path to the target: the network (link, MTU, drops), the target's own log, and the host's transport module", Command: "nvme list-subsys; ip -s link; journalctl -k -b --no-pager | grep -i -E 'nvme|tcp|rdma'", Cost: "free"}}}
}
