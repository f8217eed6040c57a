package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

func planCommand() *command {
	fs := newFlagSet("plan")
	pf := addPlanFlags(fs)
	format := addOutputFormat(fs)
	c := &command{
		name:      "plan",
		usageLine: "plan [flags] CAPTURE",
		short:     "the table the kernel would program for a capture",
		long: `
Shows the APST table the kernel would program for the drive of CAPTURE (a path, or - for standard
input: a 4096-byte Identify image, nvme id-ctrl text or JSON, smartctl text or JSON), state by
state with the reason for each decision, under the kernel parameters of the flags (default: the
current algorithm at the 100000 us default bound, with the quirks the kernel's tables give the
drive). What the capture does not record (APSTA, the PCI ID) is said, with what was assumed. A
capture of an NVMe over Fabrics controller (NVMe/TCP, RDMA, FC: a non-zero IOCCSZ, or CNTRLTYPE 2)
is said to be one: its power states are the target's, and the kernel plans them as a PCIe drive's.`,
		examples: []string{
			"plan --ps-max-latency-us 25000 testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin",
			"plan -o json --pm-qos auto testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin",
			"plan --kernel 5.15 --pci-id 8086:f1a5 testdata/identify/intel-ssdpekkw256g7-PSF109C.bin",
		},
		flags:   fs,
		minArgs: 1, maxArgs: 1,
	}
	c.run = func(ctx context.Context, x *invocation, args []string) error {
		ctl, err := loadController(args[0], x.stdin, *pf.force)
		if err != nil {
			return err
		}
		if err := forceOnText(*pf.force, ctl.Format, ctl.Format == powerstate.FormatBinary); err != nil {
			return err
		}
		p, err := pf.params(ctl)
		var pre *preAPSTKernel
		if errors.As(err, &pre) {
			// The kernel's answer: nothing is sent.
			if format.json {
				return writeJSON(x.out, struct {
					Kernel       string      `json:"kernel"`
					Sent         bool        `json:"sent"`
					Note         string      `json:"note"`
					Capture      captureJSON `json:"capture"`
					CaptureNotes []string    `json:"capture_notes"`
				}{pre.release.String(), false, pre.Error(), captureView(ctl), captureNotesView(ctl)})
			}
			fmt.Fprintln(x.out, describeController(ctl))
			fmt.Fprintln(x.out, "kernel "+pre.release.String()+": "+pre.Error())
			writeCaptureNotes(x.out, ctl)
			return nil
		}
		if err != nil {
			return err
		}
		plan, err := apst.Build(ctl, p)
		if err != nil {
			return inputErr(err)
		}
		a := plan.Assumptions(ctl)
		if format.json {
			return writeJSON(x.out, struct {
				planJSON
				quirkJSON
				Capture      captureJSON     `json:"capture"`
				CaptureNotes []string        `json:"capture_notes"`
				Assumptions  assumptionsJSON `json:"assumptions"`
			}{planView(&plan), quirkView(pf.match), captureView(ctl), captureNotesView(ctl), assumptionsView(&a)})
		}
		writePlanText(x.out, ctl, &plan, &a)
		return nil
	}
	return c
}

// writePlanText prints the plan as a readable report.
func writePlanText(w io.Writer, c *powerstate.Controller, plan *apst.Plan, a *apst.Assumptions) {
	fmt.Fprintln(w, describeController(c))
	fmt.Fprintln(w, describeParams(&plan.Params))
	fmt.Fprintln(w, describeOutcome(plan))
	writeCaptureNotes(w, c)
	writeAssumptions(w, a)
	for _, warn := range plan.Warnings() {
		fmt.Fprintln(w, "kernel warning:", warn)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "state\top\tmax power\tenlat us\texlat us\tentry\tdecision")
	for i, d := range c.States() {
		fmt.Fprintf(tw, "ps%d\t%s\t%s\t%d\t%d\t%s\t%s\n", i, opKind(&d), d.MaxPower, d.EntryLatency, d.ExitLatency,
			plan.Table[i], plan.Explain(c, uint8(i)))
	}
	tw.Flush()
	if log := plan.KernelLog(); log != "" {
		fmt.Fprintln(w)
		if plan.Logs() {
			fmt.Fprintln(w, "kernel log:", log)
		} else {
			fmt.Fprintln(w, "kernel log: (none in this generation; later kernels log:", log+")")
		}
	}
}
