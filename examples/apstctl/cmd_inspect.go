package main

import (
	"context"
	"io"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"strings"
)

func inspectCommand() *command {
	fs := newFlagSet("inspect")
	root := addRootFlag(fs, "read the bundle written by apstctl collect DIR (or a sysfs tree) at DIR instead of the live system")
	format := addOutputFormat(fs)
	c := &command{
		name:      "inspect",
		usageLine: "inspect [flags] [nvmeN...]",
		short:     "what the kernel programmed on this machine (or a bundle), and why",
		long: `
Shows, per NVMe controller, the quirks that apply and why, the latency bound and where it comes
from, the module parameters, the APST table the kernel should have programmed, the table the drive
holds (Get Features needs root), the current power state, and a verdict: match, or the differing
entries with their likely causes. Without names, every controller is inspected.`,
		examples: []string{
			"inspect --root testdata/bundle",
			"inspect --root testdata/bundle nvme2 -o json",
		},
		flags:   fs,
		minArgs: 0, maxArgs: -1,
	}
	c.run = func(ctx context.Context, x *invocation, names []string) error {
		for i, n := range names {
			names[i] = strings.TrimPrefix(n, "/dev/")
		}
		sys, err := openSystem(*root)
		if err != nil {
			return err
		}
		rep, err := sys.Inspect(ctx, names...)
		if err != nil {
			return systemError(err)
		}
		pm := map[string]*diagnose.Facts{}
		for _, c := range rep.Controllers {
			f, _ := sys.PowerFacts(c.Name) // unreadable files are facts marked so
			pm[c.Name] = &f
		}
		if format.json {
			v := reportView(rep)
			for i := range v.Controllers {
				v.Controllers[i].PowerManagement = factsView(pm[v.Controllers[i].Name])
			}
			err = writeJSON(x.out, v)
		} else {
			writeReportText(x.out, rep, func(w io.Writer, c *nvmeapst.ControllerReport) {
				writePowerLayers(w, pm[c.Name])
			})
		}
		if err == nil && len(rep.Problems) > 0 {
			// The report is whole, but a controller (or an attribute of
			// one) could not be read: exit 1, as cli.md says of a
			// runtime failure.
			return exitStatus(exitFailure)
		}
		return err
	}
	return c
}
