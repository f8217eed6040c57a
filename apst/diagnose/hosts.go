package diagnose

import (
	"fmt"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// hostsNote says what a log of several machines' lines was read as: one
// machine's, when nothing chose one (kernlog.Options.Host), or the chosen
// one's; "" for a log of one machine.
func hostsNote(l *kernlog.Log) string {
	switch {
	case l == nil || len(l.Hosts) < 2:
		return ""
	case l.Host != "":
		return fmt.Sprintf("the log holds the kernel lines of %d hosts (%s): only %s's were read, and %d line(s) of the others were left out", len(l.Hosts), hostList(l.Hosts), hostList([]string{l.Host}), l.OtherHostLines)
	}
	return fmt.Sprintf("the log holds the kernel lines of %d hosts (%s), read as one machine's: a controller of the same name on two of them is taken for one drive, and their failures for one; read one host's lines (apstctl diagnose --host NAME)", len(l.Hosts), hostList(l.Hosts))
}

// hostList joins host names, each quoted: they are the log's text.
func hostList(hosts []string) string {
	q := make([]string, len(hosts))
	for i, h := range hosts {
		q[i] = fmt.Sprintf("%q", h)
	}
	return strings.Join(q, ", ")
}
