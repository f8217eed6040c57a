package diagnose_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// A log of several machines' lines says it was read as one machine's, or
// as the one kernlog.Options.Host chose; a log of one machine says
// nothing of hosts.
func TestHostsNote(t *testing.T) {
	const (
		node1 = "Dec  5 04:55:59 node1 kernel: nvme nvme0: I/O 12 QID 3 timeout, aborting\n"
		node2 = "Dec  5 04:56:30 node2 kernel: nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n"
	)
	hostNotes := func(log string, opts kernlog.Options) []string {
		l, err := kernlog.ReadString(log, opts)
		require.NoError(t, err)
		d := diagnose.Diagnose(diagnose.Input{Log: l})
		require.True(t, d.Failure, d.Summary)
		var n []string
		for _, note := range d.Notes {
			if strings.Contains(note, " hosts (") {
				n = append(n, note)
			}
		}
		return n
	}
	assert.Equal(t, []string{`the log holds the kernel lines of 2 hosts ("node1", "node2"), read as one machine's: a controller of the same name on two of them is taken for one drive, and their failures for one; read one host's lines (apstctl diagnose --host NAME), or each host's on its own (--each-host)`},
		hostNotes(node1+node2, kernlog.Options{}))
	assert.Equal(t, []string{`the log holds the kernel lines of 2 hosts ("node1", "node2"): only "node2"'s were read, and 1 line(s) of the others were left out`},
		hostNotes(node1+node2, kernlog.Options{Host: "node2"}))
	var many strings.Builder
	for i := range kernlog.MaxHosts + 2 {
		many.WriteString(strings.ReplaceAll(node2, "node2", fmt.Sprintf("n%02d", i)))
	}
	n := hostNotes(many.String(), kernlog.Options{})
	require.Len(t, n, 1)
	assert.Contains(t, n[0], `the log holds the kernel lines of more than 16 hosts ("n00", "n01", `)
	assert.Contains(t, n[0], `"n15"), read as one machine's`)
	assert.Empty(t, hostNotes(node2, kernlog.Options{}))
	assert.Empty(t, hostNotes(strings.ReplaceAll(node1+node2, "node1", "node2"), kernlog.Options{}))
}
