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
func addOutputFormat(fs *flagSet) *outputFormat {
	o := &outputFormat{}
	fs.Var(o, "output-format", "FORMAT", "output format: normal (text) or json")
	fs.Alias("o", "output-format")
	fs.Alias("format", "output-format")
	return o
}

// writeJSON writes v as indented JSON and a newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
