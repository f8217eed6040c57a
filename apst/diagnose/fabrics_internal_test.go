package diagnose

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// nvme-tcp's timeout line is told from nvme-pci's by the PDU type it
// names (drivers/nvme/host/tcp.c and pci.c's formats; the first as a k3s
// cluster's log and blktests' runs give it, posted zq-02 and zc-02).
func TestTCPTimeout(t *testing.T) {
	for line, want := range map[string]bool{
		"nvme nvme13: I/O tag 24 (6018) type 4 opcode 0x1 (I/O Cmd) QID 3 timeout":                          true,
		"nvme nvme4: I/O tag 1 (b001) type 4 opcode 0x18 (Keep Alive) QID 0 timeout":                        true,
		"nvme nvme0: I/O tag 49 (a031) type 4 opcode 0x1 (Write)":                                           true,
		"nvme nvme0: I/O tag 840 (1348) opcode 0x2 (Read) QID 6 timeout, aborting req_op:READ(0) size:4096": false,
		"nvme nvme0: I/O tag 0 (0000) QID 0 timeout, disable controller":                                    false,
		"nvme nvme0: queue 2: timeout request 0xe type 4":                                                   false,
		"nvme nvme0: I/O tag 1 (b001) type x opcode 0x18":                                                   false,
	} {
		assert.Equal(t, want, tcpTimeout(line), line)
	}
}
