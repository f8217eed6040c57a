package kernlog_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// Android's logcat -b kernel (logcat's threadtime format: the date
// without its year, pid and tid 0, the priority, the tag padded to eight)
// is no shape Read knows: logd moved each message's prefix into the tag
// (AOSP's LogKlog.cpp: "nvme nvme0: ..." becomes the tag "nvme0", a PCI
// function's "nvme 0000:01:00.0: ..." the tag "nvme 0000" and the message
// "01:00.0: ..."), so the driver's name and the address cannot be told
// back for sure. A failure line is never dropped for that: a line whose
// message kept its words is read (without its time), the others are
// listed unread.
func TestAndroidLogcatKernel(t *testing.T) {
	const log = `--------- beginning of kernel
12-05 04:54:58.101     0     0 I         : Linux version 6.1.75-android14-11 (build-user@build-host) #1 SMP PREEMPT
12-05 04:54:59.201     0     0 I nvme0   : pci function 0000:01:00.0
12-05 04:55:59.123     0     0 E nvme0   : controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10
12-05 04:55:59.124     0     0 W nvme0   : Does your device have a faulty power saving mode enabled?
12-05 04:55:59.223     0     0 I nvme 0000: 01:00.0: Unable to change power state from D3cold to D0, device inaccessible
12-05 04:55:59.323     0     0 E nvme0   : Disabling device after reset failure: -19
12-05 04:55:59.423     0     0 E         : I/O error, dev nvme0n1, sector 123456 op 0x0:(READ) flags 0x80700 phys_seg 1 prio class 2
12-05 04:55:59.523     0     0 E nvme0n1 : I/O Cmd(0x2) @ LBA 123456, 8 blocks, I/O Error (sct 0x3 / sc 0x71)
`
	l, err := kernlog.ReadString(log, kernlog.Options{})
	require.NoError(t, err)
	seen := map[int]bool{}
	for _, in := range l.Incidents {
		for _, e := range in.Events {
			seen[e.Line] = true
		}
	}
	for _, u := range l.Unread {
		seen[u.Line] = true
	}
	for _, n := range []int{4, 6, 7, 8, 9} {
		assert.True(t, seen[n], "failure line %d neither read nor listed unread", n)
	}
	assert.Positive(t, l.UnreadLines, "the page says some lines could not be read")
}
