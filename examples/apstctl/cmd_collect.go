package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	nvmeapst "github.com/nvmeapst/nvmeapst"
)

func runCollect(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("collect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", "", "collect from the sysfs tree or bundle at `DIR` instead of the live system")
	format := fs.String("format", "text", "output format: text or json (the manifest)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: apstctl collect [--format text|json] DIR

Writes a bundle to DIR (which must not exist, or be empty): the sysfs files
inspect reads, under their paths below /sys, each controller's Identify
Controller data and APST feature, and a manifest with the time and the kernel
release. "apstctl inspect --root DIR" then shows the report of this machine
anywhere. Run it as root to include the APST tables (Get Features needs
CAP_SYS_ADMIN); failures are recorded in the bundle.

Flags:`)
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args, -1)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "apstctl collect: want 1 argument (the bundle directory), got %d %q\n", len(pos), pos)
		fs.Usage()
		return exitUsage
	}
	if err := checkInspectFormat(*format); err != nil {
		fmt.Fprintln(stderr, "apstctl collect:", err)
		return exitUsage
	}
	sys, err := openInspectSystem(*root)
	if err != nil {
		fmt.Fprintln(stderr, "apstctl collect:", err)
		if *root != "" {
			return exitUsage
		}
		return exitFailure
	}
	ctx, stop := inspectContext()
	defer stop()
	dir := pos[0]
	man, err := sys.Collect(ctx, dir)
	if err != nil {
		fmt.Fprintln(stderr, "apstctl collect:", err)
		if errors.Is(err, os.ErrExist) {
			return exitUsage
		}
		return exitFailure
	}
	for _, c := range man.Controllers {
		for _, p := range []struct {
			what string
			p    *nvmeapst.Problem
		}{{"open", c.OpenError}, {"identify", c.IdentifyError}, {"get features APST", c.APSTError}, {"get features power management", c.PowerManagementError}} {
			if p.p != nil {
				fmt.Fprintf(stderr, "apstctl collect: warning: %s: %s: %s (recorded in the bundle)\n", c.Name, p.what, p.p)
			}
		}
	}
	for _, s := range man.Skipped {
		fmt.Fprintf(stderr, "apstctl collect: warning: %s not collected: %s\n", s.Path, s.Error)
	}
	if *format == "json" {
		if err := writeInspectJSON(stdout, man); err != nil {
			fmt.Fprintln(stderr, "apstctl collect:", err)
			return exitFailure
		}
		return exitOK
	}
	release := man.KernelRelease
	if release == "" {
		release = "unknown"
	}
	fmt.Fprintf(stdout, "wrote %s: %d controller(s), %d sysfs file(s), kernel %s, %s\n",
		dir, len(man.Controllers), len(man.Files), release, man.Created.Format("2006-01-02 15:04:05 MST"))
	for _, c := range man.Controllers {
		status := "identify and APST table"
		switch {
		case c.OpenError != nil:
			status = "no admin command data"
		case c.Identify == "":
			status = "no identify data"
		case c.APST == "":
			status = "identify only (the APST table needs root)"
		}
		fmt.Fprintf(stdout, "  %s: %s\n", c.Name, status)
	}
	fmt.Fprintf(stdout, "inspect it with: apstctl inspect --root %s\n", dir)
	return exitOK
}
