package kernlog_test

import (
	"fmt"
	"testing"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

func TestZZ(t *testing.T) {
	for _, m := range []string{
		"nvme nvme0: could not set timestamp (-19)",
		"nvme nvme0: Failed to read smart log (error -5)",
		"nvme nvme0: I/O 7 QID 0 timeout, disable controller",
		"nvme nvme0: Device shutdown incomplete; abort shutdown",
		"nvme nvme0: Shutdown timeout set to 8 seconds",
		"nvme nvme0: Minimum device page size 134217728 too large for host (4096)",
		"nvme nvme0: failed to submit abort",
		"nvme nvme0: Failed to get ANA log: 16641",
		"nvme nvme0: Identify namespace failed (-19)",
		"nvme nvme0: Identify Controller failed (-4)",
		"nvme nvme0: resetting controller",
		"nvme nvme0: Removing after probe failure status: -4",
		"nvme nvme0: failed to allocate host memory buffer.",
		"nvme nvme0: Ignoring bogus Namespace Identifiers",
		"nvme 0000:01:00.0: can't change power state from D3cold to D0 (config space inaccessible)",
		"nvme nvme0: IO queues not created",
		"nvme nvme0: Failed to configure AEN (cfg 900)",
		"nvme nvme0: controller is down; will reset: CSTS=0x3, PCI_STATUS read failed (134)",
		"nvme nvme0: failed to set APST feature (-4)",
		"nvme nvme0: Cancelling I/O 12 QID 3",
		"nvme nvme0: I/O tag 28 (401c) QID 0 timeout, completion polled",
		"nvme nvme0: Admin Cmd(0x6), I/O Error (sct 0x3 / sc 0x71)",
		"nvme nvme0: Get Features(0xa), Internal Error (sct 0x0 / sc 0x6)",
		"nvme nvme0: I/O Cmd(0x2) @ LBA 3456, 8 blocks, Access Denied (sct 0x2 / sc 0x86) DNR",
		"nvme nvme0: Disabling device after reset failure: -110",
		"nvme 0000:02:00.0: Unable to change power state from D3hot to D0, device inaccessible",
		"nvme nvme0: controller reset failed",
		"nvme nvme0: Device not ready; aborting shutdown, CSTS=0x1",
		"nvme nvme0: Shutdown timeout set to 10 seconds",
		"nvme nvme0: failed to set host behavior",
		"nvme nvme0: Failed to initialize controller",
		"nvme nvme0: Reset failure status: -19, failed to reconnect",
	} {
		l, err := kernlog.ReadString("[  100.000000] "+m+"\n", kernlog.Options{})
		st := "skip"
		if err != nil {
			st = "ERR " + err.Error()
		} else if len(l.Incidents) > 0 {
			e := l.Incidents[0].Events[0]
			st = string(e.Kind) + " " + e.Action
		} else if len(l.Unread) > 0 {
			st = "UNREAD"
		}
		fmt.Printf("%-28s %s\n", st, m)
	}
}
