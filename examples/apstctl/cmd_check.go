package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

type checkReproductionJSON struct {
	Config            string     `json:"config"`
	BoundMinUS        uint64     `json:"bound_min_us"`
	BoundMaxUS        uint64     `json:"bound_max_us"`
	BoundMaxUnlimited bool       `json:"bound_max_unlimited"`
	Reason            string     `json:"reason"`
	Params            paramsJSON `json:"params"`
}

type checkJSON struct {
	Verdict      string                  `json:"verdict"`
	APSTEDiffers bool                    `json:"apste_differs"`
	Differences  []entryDiffJSON         `json:"differences"`
	ReproducedBy []checkReproductionJSON `json:"reproduced_by"`
	Notes        []string                `json:"notes"`
	Expected     planJSON                `json:"expected"`
	Drive        featureJSON             `json:"drive"`
	quirkJSON
	Capture      captureJSON     `json:"capture"`
	CaptureNotes []string        `json:"capture_notes"`
	Assumptions  assumptionsJSON `json:"assumptions"`
}

func checkView(v *analysis.Verdict, m *apst.QuirkMatch, a *apst.Assumptions) checkJSON {
	out := checkJSON{
		Verdict: "mismatch", APSTEDiffers: v.APSTEDiffers,
		Differences: entryDiffsView(v.Differences), ReproducedBy: []checkReproductionJSON{}, Notes: nonNil(v.Notes),
		Expected: planView(&v.Expected), Drive: featureView(&v.Drive), quirkJSON: quirkView(m),
		Assumptions: assumptionsView(a),
	}
	if v.Match {
		out.Verdict = "match"
	}
	for _, r := range v.ReproducedBy {
		out.ReproducedBy = append(out.ReproducedBy, checkReproductionJSON{
			Config: view.ConfigText(&r.Params), BoundMinUS: uint64(r.Min), BoundMaxUS: uint64(r.Max),
			BoundMaxUnlimited: r.Max == apst.NoLimit, Reason: r.Reason, Params: paramsView(&r.Params),
		})
	}
	return out
}

func checkCommand() *command {
	fs := newFlagSet("check")
	pf := addPlanFlags(fs)
	pf.forceShared = true // one --force for both captures
	fs.lookup("force").Usage = "read an ID-CAPTURE of 4096 bytes that does not look like an Identify Controller image (all zero, random, a namespace image, an impossible field), or a FEATURE-CAPTURE of 256 bytes that does not look like an APST table (reserved bits 2:0 set), as one anyway, with a note"
	format := addOutputFormat(fs)
	c := &command{
		name:      "check",
		usageLine: "check [flags] ID-CAPTURE FEATURE-CAPTURE",
		short:     "does the drive hold the table the kernel would program? (id-ctrl and get-feature captures)",
		long: `
Compares the APST feature a drive holds (FEATURE-CAPTURE: nvme get-feature -f 0x0c with or without
-H, its JSON, or the raw 256-byte buffer) with the table the kernel programs for the drive of
ID-CAPTURE (nvme id-ctrl, smartctl, or the 4096-byte image) under the plan flags, and lists every
configuration that reproduces the drive's table: the bound interval, the kernel generation, the
quirks, force_apst and the module parameters, each with the reason it was tried. Only ITPS and ITPT
are compared when the capture records no more (-H text), and APSTE is not compared when the
capture does not record it (the raw buffer). Exit status as diff's: 0 match, 1 mismatch, 2 an
unreadable capture or a usage error.`,
		examples: []string{
			"check testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin examples/apstctl/testdata/feature/samsung-990-evo-plus-100ms.txt",
			"check --ps-max-latency-us 25000 testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin examples/apstctl/testdata/feature/samsung-990-evo-plus-100ms.txt -o json",
		},
		flags:   fs,
		minArgs: 2, maxArgs: 2,
	}
	c.run = func(ctx context.Context, x *invocation, args []string) error {
		if namesStandardInput(args[0]) && namesStandardInput(args[1]) {
			// Refused before anything is read: on a terminal the first
			// read would ask for a paste that could never be used.
			return usagef("ID-CAPTURE %s and FEATURE-CAPTURE %s both name standard input, which holds one file: give one of them as a file", quoteArg(args[0]), quoteArg(args[1]))
		}
		ctl, p, err := pf.loadWithParams(args[0], x.stdin)
		if err != nil {
			return err
		}
		fc, err := loadFeature(args[1], x.stdin, *pf.force)
		if err != nil {
			return err
		}
		if err := forceOnText(*pf.force, ctl.Format, ctl.Format == powerstate.FormatBinary || fc.Format == capture.FeatureBinary); err != nil {
			return err
		}
		v, err := analysis.Check(ctl, p, fc.Feature)
		if err != nil {
			return inputErr(err)
		}
		a := v.Expected.Assumptions(ctl)
		if format.json {
			out := checkView(&v, pf.match, &a)
			out.Capture, out.CaptureNotes = captureView(ctl), captureNotesView(ctl)
			if err := writeJSON(x.out, out); err != nil {
				return err
			}
		} else {
			writeCheckText(x.out, ctl, &p, &v, &a)
		}
		if !v.Match {
			if err := x.out.Err(); err != nil {
				return err
			}
			return exitStatus(exitFailure)
		}
		return nil
	}
	return c
}

func writeCheckText(w io.Writer, c *powerstate.Controller, p *apst.Params, v *analysis.Verdict, a *apst.Assumptions) {
	fmt.Fprintln(w, describeController(c))
	fmt.Fprintln(w, describeParams(p))
	writeCaptureNotes(w, c)
	writeAssumptions(w, a)
	fmt.Fprintln(w, "kernel:", describeOutcome(&v.Expected))
	fmt.Fprintln(w, "drive: APSTE", apsteText(v.Drive.APSTE))
	fmt.Fprintln(w)
	if v.Match {
		fmt.Fprintln(w, "verdict: match: the drive holds the table the kernel programs")
	} else {
		n := len(v.Differences)
		what := fmt.Sprintf("%d entr%s differ%s", n, map[bool]string{true: "y", false: "ies"}[n == 1], map[bool]string{true: "s", false: ""}[n == 1])
		if v.APSTEDiffers {
			what = fmt.Sprintf("APSTE differs (kernel %s), %s", apsteText(apst.APSTEOf(v.Expected.Enabled)), what)
		}
		fmt.Fprintln(w, "verdict: mismatch:", what)
	}
	if len(v.Differences) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  state\texpected\tdrive\twhy")
		for _, d := range v.Differences {
			fmt.Fprintf(tw, "  ps%d\t%s\t%s\t%s\n", d.State, d.Expected, d.Drive, d.Reason)
		}
		tw.Flush()
	}
	if len(v.ReproducedBy) == 0 {
		fmt.Fprintln(w, "reproduced by: no configuration tried")
	} else {
		fmt.Fprintln(w, "reproduced by:")
		for _, r := range v.ReproducedBy {
			fmt.Fprintf(w, "  %s, bound %s: %s\n", view.ConfigText(&r.Params), analysis.BoundRange{Min: r.Min, Max: r.Max}, r.Reason)
		}
	}
	for _, n := range v.Notes {
		fmt.Fprintln(w, "note:", n)
	}
}
