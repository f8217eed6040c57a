package diagnose

import (
	"fmt"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// newestFirstNote says how a log whose lines ran newest first was read
// (kernlog.Log.NewestFirst), and what its line numbers count.
const newestFirstNote = "the log's lines run newest first (an export sorted by time, descending, or journalctl -r): it was read reversed, oldest first, and its line numbers count from its end (line 1 is its last line)"

// hostsNote says what a log of several machines' lines was read as: one
// machine's, when nothing chose one (kernlog.Options.Host), or the chosen
// one's; "" for a log of one machine.
func hostsNote(l *kernlog.Log) string {
	if l == nil || len(l.Hosts) < 2 {
		return ""
	}
	n := fmt.Sprint(len(l.Hosts))
	if l.MoreHosts {
		n = "more than " + n // the first MaxHosts are named
	}
	if l.Host != "" {
		return fmt.Sprintf("the log holds the kernel lines of %s hosts (%s): only %s's were read, and %d line(s) of the others were left out", n, hostList(l.Hosts), hostList([]string{l.Host}), l.OtherHostLines)
	}
	return fmt.Sprintf("the log holds the kernel lines of %s hosts (%s), read as one machine's: a controller of the same name on two of them is taken for one drive, and their failures for one; read one host's lines (apstctl diagnose --host NAME), or each host's on its own (--each-host)", n, hostList(l.Hosts))
}

// hostList joins host names, each quoted: they are the log's text.
func hostList(hosts []string) string {
	q := make([]string, len(hosts))
	for i, h := range hosts {
		q[i] = fmt.Sprintf("%q", h)
	}
	return strings.Join(q, ", ")
}
