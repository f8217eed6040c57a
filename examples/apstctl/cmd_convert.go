package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// convertTargets are the formats convert writes.
var convertTargets = []string{"binary", "nvme-cli-text", "nvme-cli-json", "smartctl-text"}

// runConvert implements "apstctl convert --to FORMAT [-o FILE] CAPTURE": it
// reads an Identify Controller capture in any format powerstate.Parse
// detects (binary image, nvme-cli text or JSON, smartctl text or JSON) and
// writes it as a 4096-byte image (binary), nvme-cli v2.12 id-ctrl text
// (nvme-cli-text) or JSON (nvme-cli-json), or smartctl's table
// (smartctl-text), to FILE or standard output. Fields the capture did not
// carry are left out of the text formats and are zero in an image, except
// APSTA, which an image then sets to 1 (with a note on stderr) because
// apst.Build assumes APST is supported when APSTA is unknown. Exit status 0 on success, 2 for a usage error
// or an input that cannot be read or parsed (the message names the file
// and, for text, the line), 1 when the output cannot be written.
func runConvert(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("convert", flag.ContinueOnError)
	fs.SetOutput(stderr)
	to := fs.String("to", "", "output format: binary, nvme-cli-text, nvme-cli-json or smartctl-text (required)")
	out := fs.String("o", "", "write to `FILE` instead of standard output")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: apstctl convert --to binary|nvme-cli-text|nvme-cli-json|smartctl-text [-o FILE] CAPTURE\n\n"+
			"Converts an Identify Controller capture (a path or -; binary, nvme-cli text or JSON, smartctl text\n"+
			"or JSON) to another format.\n\nFlags:")
		fs.PrintDefaults()
	}
	path, err := decodeConvertArgs(fs, args)
	if err != nil {
		return decodeConvertExit(err)
	}
	var write func(io.Writer, *powerstate.Controller) error
	switch *to {
	case "binary":
		write = func(w io.Writer, c *powerstate.Controller) error {
			b, err := c.MarshalBinary()
			if err == nil {
				_, err = w.Write(b)
			}
			return err
		}
	case "nvme-cli-text":
		write = powerstate.WriteNVMeCLIText
	case "nvme-cli-json":
		write = powerstate.WriteNVMeCLIJSON
	case "smartctl-text":
		write = powerstate.WriteSmartctlText
	default:
		fmt.Fprintf(stderr, "apstctl convert: --to %q: want one of %q\n", *to, convertTargets)
		fs.Usage()
		return decodeConvertUsage
	}
	r, done, name, err := decodeConvertOpen(path, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "apstctl convert: %v\n", err)
		return decodeConvertUsage
	}
	c, err := powerstate.Parse(r)
	done()
	if err != nil {
		fmt.Fprintf(stderr, "apstctl convert: %s: %v\n", name, err)
		return decodeConvertUsage
	}
	if *to == "binary" && !c.APSTAKnown() {
		// An image cannot say "unknown": write the assumption apst.Build
		// makes for such a capture, so that the image plans the same table.
		c.APSTA = 1
		fmt.Fprintf(stderr, "apstctl convert: %s: the %s capture does not record APSTA; the image says 1 (APST supported), as apst.Build assumes\n", name, c.Format)
	}
	var buf bytes.Buffer
	if err := write(&buf, &c); err != nil {
		fmt.Fprintf(stderr, "apstctl convert: %s: %v\n", name, err)
		return decodeConvertUsage
	}
	if *out == "" {
		if _, err := stdout.Write(buf.Bytes()); err != nil {
			fmt.Fprintln(stderr, "apstctl convert:", err)
			return decodeConvertFailure
		}
		return decodeConvertOK
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		fmt.Fprintln(stderr, "apstctl convert:", err)
		return decodeConvertFailure
	}
	return decodeConvertOK
}
