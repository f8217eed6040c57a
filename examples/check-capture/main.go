// Command check-capture tells whether a drive holds the APST table the
// kernel programs, from two captures a user can paste into a bug report:
// nvme id-ctrl (any powerstate format) and nvme get-feature -f 0x0c (-H
// text, hex dump, JSON or the raw 256 bytes). It prints the verdict of
// analysis.Check: the entries that differ and the configurations that
// would program what the drive holds.
//
//	go run ./examples/check-capture -with ps-max-latency-us=100000 \
//		testdata/bundle/ioctl/nvme2/identify.bin testdata/bundle/ioctl/nvme2/apst.bin
//
// The exit status is diff's: 0 match, 1 mismatch, 2 unreadable or usage.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// errMismatch is run's result when the drive differs.
var errMismatch = errors.New("mismatch")

func main() {
	err := run(os.Stdout, os.Args[1:])
	switch {
	case errors.Is(err, errMismatch):
		os.Exit(1)
	case err != nil:
		fmt.Fprintln(os.Stderr, "check-capture:", err)
		os.Exit(2)
	}
}

// run checks the captures named in args and prints the verdict to w; it
// returns errMismatch when the drive does not hold the kernel's table.
func run(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("check-capture", flag.ContinueOnError)
	with := fs.String("with", "", "the parameters the kernel is believed to use, key=value,... (apst.ParseConfig), on the v5.14+ defaults")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return fmt.Errorf("usage: check-capture [-with CONFIG] ID-CAPTURE FEATURE-CAPTURE")
	}
	id, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return err
	}
	c, err := capture.ParseBytes(id)
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	f, err := os.Open(fs.Arg(1))
	if err != nil {
		return err
	}
	defer f.Close()
	drive, err := capture.ParseFeature(f)
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(1), err)
	}
	p, err := apst.ParseConfig(*with, apst.DefaultParams(apst.Current))
	if err != nil {
		return err
	}
	v, err := analysis.Check(&c, p, drive)
	if err != nil {
		return err
	}
	verdict := "match"
	if !v.Match {
		verdict = "mismatch"
	}
	fmt.Fprintf(w, "%s: %s under %s\n", c.Model, verdict, p)
	if v.APSTEDiffers {
		fmt.Fprintf(w, "  APSTE: kernel %v, drive %s\n", v.Expected.Enabled, v.Drive.APSTE)
	}
	for _, d := range v.Differences {
		fmt.Fprintf(w, "  ps%d: kernel %s, drive %s\n", d.State, d.Expected, d.Drive)
	}
	for _, r := range v.ReproducedBy {
		fmt.Fprintf(w, "  reproduced by %s for bounds %s..%s (%s)\n", r.Params, r.Min, r.Max, r.Reason)
	}
	for _, n := range v.Expected.Assumptions(&c).Notes() {
		fmt.Fprintln(w, "  note:", n)
	}
	for _, n := range v.Notes {
		fmt.Fprintln(w, "  note:", n)
	}
	if !v.Match {
		return errMismatch
	}
	return nil
}
