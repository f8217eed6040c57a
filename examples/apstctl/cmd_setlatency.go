package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
)

func runSetLatency(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("set-latency", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", "", "write into the sysfs tree or bundle at `DIR` instead of the live system")
	format := fs.String("format", "text", "output format: text or json")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: apstctl set-latency [--root DIR] [--format text|json] nvmeN VALUE

Writes VALUE to /sys/class/nvme/nvmeN/power/pm_qos_latency_tolerance_us and
reads it back. VALUE is what the kernel accepts: a number of microseconds
from 0 to 2147483647 (0 turns APST off), "auto" or "any" (both: no limit).
A value the kernel would reject is refused and nothing is written. Shows the
table the kernel now programs (and the drive's, when readable) and how to make
the setting persistent. Needs root on a live system.

Flags:`)
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args, 1)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if len(pos) != 2 {
		fmt.Fprintf(stderr, "apstctl set-latency: want 2 arguments (nvmeN VALUE), got %d %q\n", len(pos), pos)
		fs.Usage()
		return exitUsage
	}
	if err := checkInspectFormat(*format); err != nil {
		fmt.Fprintln(stderr, "apstctl set-latency:", err)
		return exitUsage
	}
	name, value := strings.TrimPrefix(pos[0], "/dev/"), pos[1]
	// Refuse a bad value before touching anything, even the live system.
	if _, err := apst.ParseTolerance(value); err != nil {
		fmt.Fprintln(stderr, "apstctl set-latency: nothing written:", err)
		return exitUsage
	}
	sys, err := openInspectSystem(*root)
	if err != nil {
		fmt.Fprintln(stderr, "apstctl set-latency:", err)
		if *root != "" {
			return exitUsage
		}
		return exitFailure
	}
	ctx, stop := inspectContext()
	defer stop()
	ch, err := sys.SetLatency(ctx, name, value)
	if err != nil {
		fmt.Fprintln(stderr, "apstctl set-latency:", err)
		if errors.Is(err, apst.ErrInvalidTolerance) {
			return exitUsage
		}
		return inspectExit(err)
	}
	if *format == "json" {
		err = writeInspectJSON(stdout, ch)
	} else {
		err = ch.WriteText(stdout)
	}
	if err != nil {
		fmt.Fprintln(stderr, "apstctl set-latency:", err)
		return exitFailure
	}
	return exitOK
}
