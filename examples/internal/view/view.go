// Package view holds what apstctl (examples/apstctl) and the web page
// (examples/web) show alike, so that neither keeps a copy of the other's:
// the escaping of untrusted strings, the key=value text of a
// configuration, and the shapes of a diagnosis's evidence, tests and
// unread lines (the conversions from the diagnosis are in view/diagview,
// apart, so that what uses these types does not link the diagnosis).
//
// The functions are pure and safe for concurrent use.
package view

import (
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// Escape is an untrusted string (a model, a serial, a firmware revision,
// a path, a log line) as text output shows it: control characters and
// bidirectional marks escaped (safeio.EscapeTerminal).
func Escape(s string) string { return safeio.EscapeTerminal(s) }

// EscapeMessage is a message (an error or a problem: prose that quotes its
// values, %q) as text output shows it: as it is unless it carries a
// control character, then Escape'd, so that the values it quoted are not
// escaped a second time ("\\n" for a quoted newline) when nothing needs it.
func EscapeMessage(s string) string {
	if safeio.HasControl(s) {
		return Escape(s)
	}
	return s
}

// ConfigText is the key=value text of p that apstctl's --with and the
// page's compare fields read back. Without QuirksGiven, apst.Build looks
// the quirks up itself and p.Quirks holds what that lookup finds: the text
// leaves them to the tables.
func ConfigText(p *apst.Params) string {
	cfg := *p
	if !cfg.QuirksGiven {
		cfg.Quirks = 0
	}
	return cfg.String()
}

// Evidence is one line of evidence of a diagnosis (diagnose.Line): where
// it comes from, what it means, and for a kernel log line its number and
// the line as it appears.
type Evidence struct {
	Source string `json:"source"`
	Text   string `json:"text"`
	Line   int    `json:"line,omitempty"`
	Quote  string `json:"quote,omitempty"`
}

// Test is one way to confirm or rule out a cause (diagnose.Test).
type Test struct {
	Action  string   `json:"action"`
	Command string   `json:"command,omitempty"`
	Cost    string   `json:"cost"`
	Setting string   `json:"setting,omitempty"`
	Where   []string `json:"where,omitempty"`
}

// Unread is a kernel log line that looks like an NVMe or PCIe failure
// message and could not be read.
type Unread struct {
	Line int    `json:"line"`
	Text string `json:"text"`
	// Program is the program the line is of when not the kernel's: set
	// in a diagnosis's Relayed list (a syslog line of smartd's that
	// repeats a kernel message), empty in Unread.
	Program string `json:"program,omitempty"`
}
