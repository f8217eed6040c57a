package main

import (
	"encoding/json"
	"fmt"
	"io"
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
// It also defines --output FILE: the command's report is then written to
// FILE (runCommand does it, once the command has succeeded) instead of
// standard output.
func addOutputFormat(fs *flagSet) *outputFormat {
	o := &outputFormat{}
	fs.Var(o, "output-format", "FORMAT", "output format: normal (text) or json")
	fs.Alias("o", "output-format")
	fs.Alias("format", "output-format")
	fs.report = new(string)
	addOutputFile(fs, fs.report)
	return o
}

// writeJSON writes v as indented JSON and a newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// outputFile is the value of --output: a file name that does not name a
// format, so that a misplaced "json" never becomes a file called json.
type outputFile struct{ p *string }

func (o *outputFile) String() string {
	if o.p == nil {
		return ""
	}
	return *o.p
}

func (o *outputFile) Set(s string) error {
	if s == "" {
		return fmt.Errorf("want a file name")
	}
	if isFormatName(s) {
		return fmt.Errorf("this names a format, not a file: the format is -o %s (write ./%s for a file of that name)", s, s)
	}
	*o.p = s
	return nil
}

// isFormatName reports whether s is the name of an output format of some
// command.
func isFormatName(s string) bool {
	switch s {
	case "normal", "text", "json", "ndjson", "csv", "binary":
		return true
	}
	return findConvertTarget(s) != nil
}

// addOutputFile defines --output FILE, stored in p: the report goes to
// FILE, replaced atomically once complete, instead of standard output.
// --file is its alias for one release (the survey's old name).
func addOutputFile(fs *flagSet, p *string) {
	fs.Var(&outputFile{p: p}, "output", "FILE", "write the report to FILE, replaced atomically once complete, instead of standard output")
	fs.Alias("file", "output")
}
