package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// outputFormat is the value of -o, --output-format (also --format): normal
// (text for people; "text" is accepted) or json.
type outputFormat struct{ json bool }

func (o *outputFormat) String() string {
	if o.json {
		return "json"
	}
	return "normal"
}

// Canonical is the format s names: "normal" for "text".
func (o *outputFormat) Canonical(s string) string {
	if s == "text" {
		return "normal"
	}
	return s
}

// fixedWords are the values Set accepts, for completion.
func (o *outputFormat) fixedWords() []string { return []string{"normal", "text", "json"} }

func (o *outputFormat) Set(s string) error {
	switch s {
	case "normal", "text":
		o.json = false
	case "json":
		o.json = true
	default:
		return fmt.Errorf("want normal or json")
	}
	return nil
}

// addOutputFormat defines -o, --output-format FORMAT and its alias
// --format on fs.
//
// A command with -o also gets --output FILE (addReportFile), unless it
// defines a flag of that name itself.
func addOutputFormat(fs *flagSet) *outputFormat {
	o := &outputFormat{}
	fs.Var(o, "output-format", "FORMAT", "output format: normal (text) or json")
	fs.Alias("o", "output-format")
	fs.Alias("format", "output-format")
	return o
}

// addReportFile gives a command that prints (it has --output-format) and
// does not define --output itself the flag --output FILE: its report then
// goes to FILE, which runCommand writes once the command has succeeded,
// instead of standard output. It is called on every command of the table
// and is idempotent.
func addReportFile(c *command) {
	fs := c.flags
	if fs == nil || fs.report != nil || fs.fs.Lookup("output-format") == nil || fs.lookup("output") != nil {
		return
	}
	fs.report = new(outputFile)
	addOutputFile(fs, fs.report)
}

// writeJSON writes v as indented JSON and a newline.
func writeJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	// A log line's or a capture's bidirectional and C1 controls stay
	// escaped in JSON too (safeio.AppendJSONSafe): the same value, shown
	// as it is by a terminal or a pager.
	_, err := w.Write(safeio.AppendJSONSafe(nil, b.Bytes()))
	return err
}

// outputFile is the value of --output: a file name that does not name a
// format, so that a misplaced "json" never becomes a file called json. "-"
// and /dev/stdout name standard output (stdout is set): the report is
// written there, as without the flag, with no atomic replacement.
type outputFile struct {
	path   string
	stdout bool
}

func (o *outputFile) String() string { return o.path }

func (o *outputFile) Set(s string) error {
	if s == "" {
		return fmt.Errorf("want a file name")
	}
	if isFormatName(s) {
		return fmt.Errorf("this names a format, not a file: the format is -o %s (write ./%s for a file of that name)", s, s)
	}
	o.path, o.stdout = s, isStdoutName(s)
	return nil
}

// file returns the file to write, or "" when the flag was not given or
// names standard output.
func (o *outputFile) file() string {
	if o.stdout {
		return ""
	}
	return o.path
}

// besideReport refuses a file of the flag name (--svg, --factor-out) that
// names standard output: the report goes there, and the file is another
// thing written beside it.
func (o *outputFile) besideReport(name string) error {
	if o.stdout {
		return usagef("%s %s: the report goes to standard output; give a file for %s", name, o.path, name)
	}
	return nil
}

// isStdoutName reports whether an --output value names standard output:
// "-" or /dev/stdout (which a rename could not replace, and which opened
// again is not always the same file: /proc/self/fd/1 of a pipe).
func isStdoutName(s string) bool { return s == "-" || s == "/dev/stdout" }

// isFormatName reports whether s is the name of an output format of some
// command.
func isFormatName(s string) bool {
	switch s {
	case "normal", "text", "json", "ndjson", "csv", "binary":
		return true
	}
	return findConvertTarget(s) != nil
}

// addOutputFile defines --output FILE, stored in o: the report goes to
// FILE, replaced atomically once complete, instead of standard output.
// --file is its alias for one release (the survey's old name).
func addOutputFile(fs *flagSet, o *outputFile) {
	fs.Var(o, "output", "FILE", "write the report to FILE, replaced atomically once complete, instead of standard output (- or /dev/stdout: standard output)")
	fs.Alias("file", "output")
}
