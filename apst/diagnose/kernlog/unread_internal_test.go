package kernlog

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// taskLine and paramList take what a hung-task report and a wrapped
// command line print, and nothing that reads as a message: posted logs
// i-14 and i-09, sched_show_task's two formats, and nvme's own lines.
func TestTaskLineAndParamList(t *testing.T) {
	for _, tc := range []struct {
		msg         string
		task, param bool
	}{
		{"xfsaild/nvme1n1 D    0   289      2 0x80004000", true, false},
		{"task:jbd2/nvme0n1p2-8 state:D stack:0     pid:402   ppid:2      flags:0x00004000", true, false},
		{"biosdevname=0 ipv6.disable=1 nvme_core.multipath=N", false, true},
		{"root=UUID=a594bda9-1e75-41f4-a95e-6b3d836803de ro maybe-ubiquity net.ifnames=0", false, true},
		{"nvme0n1: p1 p2 p3 p4 p5", false, false},
		{"nvme nvme0: I/O 12 QID 3 timeout, aborting", false, false},
		{"CSTS=0xffffffff, PCI_STATUS=0x10 nvme0", false, false},
		{"nvme_core.default_ps_max_latency_us=0", false, false},
	} {
		assert.Equal(t, tc.task, taskLine(tc.msg), "taskLine(%q)", tc.msg)
		assert.Equal(t, tc.param, paramList(tc.msg), "paramList(%q)", tc.msg)
	}
}

// "rror" is a failure word only as "error" or "Error", not inside
// "mirror": md's line wrapped onto a line of its own (posted j-06) is no
// failure of its own.
func TestErrorWord(t *testing.T) {
	for s, want := range map[string]bool{
		"mirror: nvme7n1p2":            false,
		"I/O error, dev nvme0n1":       true,
		"mirror error on nvme1":        true,
		"Error -5 detected on nvme0n1": true,
		"rror":                         false, // no word ends so
		"mirrors mirror":               false,
		"Error -5":                     true,
		"horror":                       false,
	} {
		assert.Equal(t, want, errorWord(s), s)
		assert.Equal(t, want, failureWord(s), s)
	}
}
