package main

import (
	"bytes"
	"io"
	"strings"
)

// Man pages: apstctl(1) and apstctl-CMD(1), made from the help text
// "apstctl help" and "apstctl help CMD" print (writeUsage, the command's
// usage line, long text, flags and examples), so that the pages and the
// help cannot say different things. docs/man holds them; TestManPages
// regenerates them with -update and fails when they drift.

// manDate is the date the pages carry: fixed, so that regenerating them
// changes nothing unless the help did.
const manDate = "2026-12-03"

// writeManPage writes the page of command c.
func writeManPage(w io.Writer, c *command) {
	title := "APSTCTL-" + strings.ToUpper(c.name)
	io.WriteString(w, `.TH "`+title+`" "1" "`+manDate+`" "nvmeapst" "apstctl manual"`+"\n")
	io.WriteString(w, ".SH NAME\n"+roffText("apstctl-"+c.name)+` \- `+roffText(c.short)+"\n")
	io.WriteString(w, ".SH SYNOPSIS\n.B apstctl\n"+roffText(c.usageLine)+"\n")
	io.WriteString(w, ".SH DESCRIPTION\n")
	writeRoffParagraphs(w, strings.TrimSpace(c.long))
	if c.flags != nil && len(c.flags.order) > 0 {
		io.WriteString(w, ".SH OPTIONS\n")
		var b bytes.Buffer
		c.flags.writeHelp(&b, c.flagOrder())
		lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
		for i := 0; i+1 < len(lines); i += 2 {
			io.WriteString(w, ".TP\n.B "+roffText(strings.TrimSpace(lines[i]))+"\n"+roffText(strings.TrimSpace(lines[i+1]))+"\n")
		}
	}
	if len(c.examples) > 0 {
		io.WriteString(w, ".SH EXAMPLES\n.nf\n")
		for _, e := range c.examples {
			io.WriteString(w, roffText("apstctl "+e)+"\n")
		}
		io.WriteString(w, ".fi\n")
	}
	io.WriteString(w, ".SH SEE ALSO\n.BR apstctl (1)\n")
}

// writeMainManPage writes apstctl(1): the general help and the commands.
func writeMainManPage(w io.Writer, cmds []*command) {
	io.WriteString(w, `.TH "APSTCTL" "1" "`+manDate+`" "nvmeapst" "apstctl manual"`+"\n")
	io.WriteString(w, ".SH NAME\napstctl \\- what the Linux kernel does with an NVMe drive's Autonomous Power State Transitions\n")
	io.WriteString(w, ".SH SYNOPSIS\n.B apstctl\nCOMMAND [flags] [ARGS]\n")
	var b bytes.Buffer
	writeUsage(&b, cmds)
	text := b.String()
	intro, rest, _ := strings.Cut(text, "Commands:\n")
	_, intro, _ = strings.Cut(intro, "\n\n") // the usage line is the synopsis
	_, outro, _ := strings.Cut(rest, "\n\n") // the commands, listed below with their pages
	io.WriteString(w, ".SH DESCRIPTION\n")
	writeRoffParagraphs(w, strings.TrimSpace(intro))
	io.WriteString(w, ".SH COMMANDS\n")
	for _, c := range cmds {
		io.WriteString(w, ".TP\n.B "+roffText(c.name)+"\n"+roffText(c.short)+"; see\n.BR apstctl-"+roffText(c.name)+" (1).\n")
	}
	writeRoffParagraphs(w, strings.TrimSpace(outro))
	io.WriteString(w, ".SH EXIT STATUS\n0 success, 1 a runtime failure, 2 a usage error or unreadable input; 128+N when signal N ended the command.\n")
	io.WriteString(w, ".SH SEE ALSO\n")
	for i, c := range cmds {
		sep := ",\n"
		if i == len(cmds)-1 {
			sep = "\n"
		}
		io.WriteString(w, ".BR apstctl-"+roffText(c.name)+" (1)"+sep)
	}
}

// writeRoffParagraphs writes text: blank lines separate paragraphs (.PP),
// indented lines are kept as they are (.nf ... .fi), the others filled.
func writeRoffParagraphs(w io.Writer, text string) {
	for i, para := range strings.Split(text, "\n\n") {
		if i > 0 {
			io.WriteString(w, ".PP\n")
		}
		verbatim := false
		for _, l := range strings.Split(para, "\n") {
			indented := strings.HasPrefix(l, "  ")
			switch {
			case indented && !verbatim:
				io.WriteString(w, ".nf\n")
				verbatim = true
			case !indented && verbatim:
				io.WriteString(w, ".fi\n")
				verbatim = false
			}
			io.WriteString(w, roffText(l)+"\n")
		}
		if verbatim {
			io.WriteString(w, ".fi\n")
		}
	}
}

// roffText escapes a line of text for roff: backslashes, hyphens (so that
// flags copy as ASCII), and a leading period or apostrophe, which would
// start a request.
func roffText(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}
