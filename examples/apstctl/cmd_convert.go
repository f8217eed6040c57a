package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// convertTarget is a format convert writes, with the spellings -o, --to
// accept for it (nvme-cli's -o normal|json|binary included).
type convertTarget struct {
	name    string
	aliases []string
	write   func(io.Writer, *powerstate.Controller) error
}

var convertTargets = []convertTarget{
	{"binary", nil, func(w io.Writer, c *powerstate.Controller) error {
		b, err := c.MarshalBinary()
		if err == nil {
			_, err = w.Write(b)
		}
		return err
	}},
	{"nvme-cli-text", []string{"normal", "text"}, capture.WriteNVMeCLIText},
	{"nvme-cli-json", []string{"json"}, capture.WriteNVMeCLIJSON},
	{"smartctl-text", nil, capture.WriteSmartctlText},
}

// convertFormat is the value of --to (also -o, --output-format, --format).
type convertFormat struct{ t *convertTarget }

func (f *convertFormat) String() string {
	if f.t == nil {
		return ""
	}
	return f.t.name
}

func (f *convertFormat) Set(s string) error {
	if t := findConvertTarget(s); t != nil {
		f.t = t
		return nil
	}
	return fmt.Errorf("want %s (the output file is --output FILE)", strings.Join(convertTargetNames(), ", "))
}

// fixedWords are the spellings Set accepts, for completion: each format's
// name and its aliases.
func (f *convertFormat) fixedWords() []string {
	var words []string
	for _, t := range convertTargets {
		words = append(words, t.name)
		words = append(words, t.aliases...)
	}
	return words
}

func findConvertTarget(s string) *convertTarget {
	for i := range convertTargets {
		t := &convertTargets[i]
		if t.name == s {
			return t
		}
		for _, a := range t.aliases {
			if a == s {
				return t
			}
		}
	}
	return nil
}

func convertTargetNames() []string {
	var names []string
	for _, t := range convertTargets {
		names = append(names, t.name)
	}
	return names
}

func convertCommand() *command {
	fs := newFlagSet("convert")
	var to convertFormat
	fs.Var(&to, "to", "FORMAT", "output format: binary, nvme-cli-text (or normal), nvme-cli-json (or json) or smartctl-text (required)")
	fs.Alias("o", "to")
	fs.Alias("output-format", "to")
	fs.Alias("format", "to") // --format is -o's alias on every command
	var out outputFile
	addOutputFile(fs, &out)
	force := addForceFlag(fs)
	c := &command{
		name:      "convert",
		usageLine: "convert [flags] --to FORMAT CAPTURE",
		short:     "turn a capture into another format (binary image, nvme-cli text or JSON, smartctl text)",
		long: `
Converts an Identify Controller capture (a path or -; binary, nvme-cli text or JSON, smartctl text
or JSON) to a 4096-byte image (binary), nvme-cli v2.12 id-ctrl text (nvme-cli-text) or JSON
(nvme-cli-json), or smartctl's table (smartctl-text), on standard output or in FILE. FILE is
replaced atomically: a failed write leaves an existing FILE as it was. Fields the capture did not
carry are left out of the text formats and are zero in an image, except APSTA, which an image then
sets to 1 (with a note on standard error), as apst.Build assumes. The text formats write a serial
number, model or firmware revision holding control characters escaped (\x1b, \xff), which read
back escaped; nvme-cli-json carries them exactly, unless one holds a byte that is not UTF-8, which
JSON cannot hold (refused: binary carries any byte). A binary image is not written to a
terminal: give --output FILE or redirect standard output.`,
		examples: []string{
			"convert --to nvme-cli-text testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin",
			"convert -o json testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin",
		},
		flags:   fs,
		minArgs: 1, maxArgs: 1,
	}
	c.run = func(ctx context.Context, x *invocation, args []string) error {
		if to.t == nil {
			return usagef("give the output format: --to %s", strings.Join(convertTargetNames(), "|"))
		}
		b, err := readCapture(args[0], x.stdin)
		if err != nil {
			return err
		}
		name := captureName(args[0])
		ctl, err := parseCapture(b, *force)
		if err != nil {
			return inputErr(fmt.Errorf("%s: %w", name, err))
		}
		if err := forceOnText(*force, ctl.Format, ctl.Format == powerstate.FormatBinary); err != nil {
			return err
		}
		if to.t.name == "binary" && !ctl.APSTAKnown() {
			// An image cannot say "unknown": write the assumption apst.Build
			// makes for such a capture, so that the image plans the same table.
			ctl.APSTA = 1
			fmt.Fprintf(x.errw, "apstctl convert: %s: the %s capture does not record APSTA; the image says 1 (APST supported), as apst.Build assumes\n", name, ctl.Format)
		}
		if to.t.name != "smartctl-text" && ctl.Knows(powerstate.FieldPowerStates) && !ctl.Knows(powerstate.FieldIdlePower|powerstate.FieldActivePower) {
			// The target has no "unknown" for them: say what its 0 means.
			fmt.Fprintf(x.errw, "apstctl convert: %s: the %s capture does not record the states' idle and active power (smartctl decodes them with the wrong scale bits); the %s output says 0, \"not reported\"\n", name, ctl.Format, to.t.name)
		}
		if to.t.name == "nvme-cli-text" || to.t.name == "smartctl-text" {
			escaped, err := escapeCaptureText(&ctl, to.t.name)
			if err != nil {
				return inputErr(fmt.Errorf("%s: %w", name, err))
			}
			if len(escaped) > 0 {
				fmt.Fprintf(x.errw, "apstctl convert: %s: the %s holds control characters or bytes that are not UTF-8: the %s output has them escaped (\\x1b), and reads back escaped\n", name, strings.Join(escaped, " and "), to.t.name)
			}
		}
		// Render first: a capture that cannot be written in the format is an
		// input error, and nothing is written.
		var buf strings.Builder
		if err := to.t.write(&buf, &ctl); err != nil {
			return inputErr(fmt.Errorf("%s: %w", name, err))
		}
		text := buf.String()
		if to.t.name == "nvme-cli-json" {
			text = escapeJSONTerminal(text)
		}
		if file := out.file(); file != "" {
			return writeFileOrFail("--output", file, func(w io.Writer) error {
				_, err := io.WriteString(w, text)
				return err
			})
		}
		if to.t.name == "binary" && x.stdoutIsTerminal() {
			return usagef("binary data not written to a terminal: give --output FILE, or redirect standard output")
		}
		_, err = io.WriteString(x.out, text)
		return err
	}
	return c
}
