package main

import (
	"context"
	"fmt"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
	"text/tabwriter"
)

func decodeCommand() *command {
	fs := newFlagSet("decode")
	format := addOutputFormat(fs)
	force := fs.Bool("force", false, "read 256 bytes that do not look like an APST table (reserved bits 2:0 set: random bytes, another file) as one anyway, with a note")
	c := &command{
		name:      "decode",
		usageLine: "decode [flags] FEATURE-CAPTURE",
		short:     "decode a programmed APST table (nvme get-feature -f 0x0c text, JSON or raw bytes)",
		long: `
Decodes the APST table programmed in a controller from FEATURE-CAPTURE (a path, or - for standard
input): the output of nvme get-feature -f 0x0c (with or without -H, or -o json) or the raw
256-byte buffer (-b). Every entry is shown: state, target state (ITPS), idle time (ITPT, ms) and the
raw 64-bit value. APSTE is shown as unknown when the capture does not record it (the raw buffer),
and entries rebuilt from ITPS and ITPT alone (-H text) are marked so. A partial capture (a paste
that shows some entries, or the header and APSTE only) decodes what it shows; the entries it does
not show are unknown (?), not zero, and a note says which. A hex dump of the raw buffer (xxd,
hexdump -C, od -A x -t x1z) reads too. 256 raw bytes that no APST table can be (reserved bits 2:0
set in an entry, as in random bytes) are refused with what they look like; --force decodes them
anyway, with a note.`,
		examples: []string{
			"decode examples/apstctl/testdata/feature/samsung-990-evo-plus-100ms.txt",
			"decode -o json examples/apstctl/testdata/feature/samsung-990-evo-plus-100ms.raw",
		},
		flags:   fs,
		minArgs: 1, maxArgs: 1,
	}
	c.run = func(ctx context.Context, x *invocation, args []string) error {
		fc, err := loadFeature(args[0], x.stdin, *force)
		if err != nil {
			return err
		}
		if err := forceOnText(*force, fc.Format, fc.Format == capture.FeatureBinary); err != nil {
			return err
		}
		if format.json {
			return writeJSON(x.out, struct {
				featureJSON
				Notes []string `json:"notes"`
			}{featureView(&fc.Feature), nonNil(fc.Notes)})
		}
		w := x.out
		fmt.Fprintf(w, "APSTE: %s\n", apsteText(fc.APSTE))
		if fc.Select != "" {
			fmt.Fprintf(w, "Select: %s\n", view.Escape(fc.Select))
		}
		if fc.Masked {
			fmt.Fprintln(w, "Entries rebuilt from ITPS/ITPT (the capture does not show the other bits)")
		}
		for _, n := range fc.Notes {
			fmt.Fprintln(w, "note:", view.EscapeMessage(n))
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "state\ttarget\tidle_ms\tvalue\t")
		for i, e := range fc.Table {
			if fc.Unknown.Has(uint8(i)) {
				fmt.Fprintf(tw, "%d\t?\t?\tunknown\t\n", i)
				continue
			}
			fmt.Fprintf(tw, "%d\t%d\t%d\t%s\t\n", i, e.TargetState(), e.IdleTime(), hexEntry(e))
		}
		return tw.Flush()
	}
	return c
}
