package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/nvmeapst/nvmeapst/apst"
)

// Exit statuses of decode and convert (the same values as the rest of
// apstctl: docs/spec/cli.md).
const (
	decodeConvertOK      = 0
	decodeConvertFailure = 1 // writing the output failed
	decodeConvertUsage   = 2 // usage error, or an input that cannot be read or parsed
)

// decodeConvertArgs parses args, allowing flags after the positional
// argument ("convert CAPTURE --to binary"), and requires exactly one
// positional argument.
func decodeConvertArgs(fs *flag.FlagSet, args []string) (string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return "", err
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(pos) != 1 {
		fmt.Fprintf(fs.Output(), "apstctl %s: want 1 argument (CAPTURE, a path or -), got %d %q\n", fs.Name(), len(pos), pos)
		fs.Usage()
		return "", errors.New("wrong number of arguments")
	}
	return pos[0], nil
}

// decodeConvertExit maps a flag parsing error to an exit status: -h is
// success, anything else a usage error.
func decodeConvertExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return decodeConvertOK
	}
	return decodeConvertUsage
}

// decodeConvertOpen opens the capture at path, "-" meaning stdin; the
// returned name is what messages call it.
func decodeConvertOpen(path string, stdin io.Reader) (io.Reader, func(), string, error) {
	if path == "-" {
		return stdin, func() {}, "standard input", nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, path, err
	}
	return f, func() { f.Close() }, path, nil
}

// decodeJSON is the JSON output of decode.
type decodeJSON struct {
	Enabled bool              `json:"enabled"`
	Entries []decodeEntryJSON `json:"entries"`
}

type decodeEntryJSON struct {
	State       int    `json:"state"`
	Value       string `json:"value"`
	TargetState uint8  `json:"target_state"`
	IdleTimeMS  uint64 `json:"idle_time_ms"`
}

// runDecode implements "apstctl decode [--format text|json] CAPTURE": it
// reads the programmed APST table from a Get Features FID 0Ch capture (nvme
// get-feature -f 0x0c with or without -H, its JSON, or the raw 256-byte
// buffer) and prints every entry: state, target state (ITPS), idle time
// (ITPT, ms) and the raw 64-bit value. The JSON form is
// {"enabled":B,"entries":[{"state":N,"value":"0x%016x","target_state":N,"idle_time_ms":N},...]}
// with all 32 entries. Exit status 0 on success, 2 for a usage error or a
// capture that cannot be read or parsed (the message names the file and
// line).
func runDecode(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("decode", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output format: text or json")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: apstctl decode [--format text|json] CAPTURE\n\n"+
			"Decodes the APST table programmed in a controller from CAPTURE (a path or -): the output of\n"+
			"nvme get-feature -f 0x0c (with or without -H, or -o json) or the raw 256-byte buffer.\n\nFlags:")
		fs.PrintDefaults()
	}
	path, err := decodeConvertArgs(fs, args)
	if err != nil {
		return decodeConvertExit(err)
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "apstctl decode: --format %q: want text or json\n", *format)
		return decodeConvertUsage
	}
	r, done, name, err := decodeConvertOpen(path, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "apstctl decode: %v\n", err)
		return decodeConvertUsage
	}
	fc, err := apst.ParseFeatureCapture(r)
	done()
	if err != nil {
		fmt.Fprintf(stderr, "apstctl decode: %s: %v\n", name, err)
		return decodeConvertUsage
	}
	if !fc.EnabledKnown {
		fmt.Fprintf(stderr, "apstctl decode: %s: the %s capture does not record APSTE; it is shown as disabled\n", name, fc.Format)
	}
	if *format == "json" {
		out := decodeJSON{Enabled: fc.Enabled, Entries: make([]decodeEntryJSON, apst.Entries)}
		for i, e := range fc.Table {
			out.Entries[i] = decodeEntryJSON{State: i, Value: fmt.Sprintf("0x%016x", uint64(e)),
				TargetState: e.TargetState(), IdleTimeMS: uint64(e.IdleTime())}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			fmt.Fprintln(stderr, "apstctl decode:", err)
			return decodeConvertFailure
		}
		return decodeConvertOK
	}
	apste := "disabled"
	switch {
	case !fc.EnabledKnown:
		apste = "unknown (not in the capture)"
	case fc.Enabled:
		apste = "enabled"
	}
	fmt.Fprintf(stdout, "APSTE: %s\n", apste)
	if fc.Select != "" {
		fmt.Fprintf(stdout, "Select: %s\n", fc.Select)
	}
	if !fc.Exact {
		fmt.Fprintln(stdout, "Entries rebuilt from ITPS/ITPT (the capture does not show reserved bits)")
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "state\ttarget\tidle_ms\tvalue\t")
	for i, e := range fc.Table {
		fmt.Fprintf(tw, "%d\t%d\t%d\t0x%016x\t\n", i, e.TargetState(), e.IdleTime(), uint64(e))
	}
	if err := tw.Flush(); err != nil {
		fmt.Fprintln(stderr, "apstctl decode:", err)
		return decodeConvertFailure
	}
	return decodeConvertOK
}
