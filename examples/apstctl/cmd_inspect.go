package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	nvmeapst "github.com/nvmeapst/nvmeapst"
)

// liveSystem opens the running machine; tests replace it.
var liveSystem = nvmeapst.Live

// openInspectSystem returns the live machine, or the bundle or sysfs tree at
// root when root is set.
func openInspectSystem(root string) (*nvmeapst.System, error) {
	if root == "" {
		return liveSystem()
	}
	if _, err := os.Stat(root); err != nil {
		return nil, fmt.Errorf("--root: %w", err)
	}
	return nvmeapst.OpenRoot(root)
}

// inspectContext is cancelled by an interrupt, so that a hung device does
// not need a second ^C.
func inspectContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

// parseInterspersed parses flags that may come before, between or after the
// positional arguments ("inspect nvme0 --format json"). Once rawAfter
// positional arguments have been seen, the next argument is positional even
// if it starts with "-" (a value such as -5 for set-latency, which must be
// refused with the reason rather than as an unknown flag); rawAfter < 0
// disables that. "--" ends the flags.
func parseInterspersed(fs *flag.FlagSet, args []string, rawAfter int) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
		if rawAfter >= 0 && len(pos) == rawAfter && len(args) > 0 {
			pos = append(pos, args[0])
			args = args[1:]
		}
	}
}

// checkInspectFormat validates --format.
func checkInspectFormat(format string) error {
	if format != "text" && format != "json" {
		return fmt.Errorf("--format %q: want text or json", format)
	}
	return nil
}

// writeInspectJSON writes v as indented JSON.
func writeInspectJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// inspectExit maps an error of the library to an exit status: a controller
// or value named wrongly is bad input (2), anything else a runtime failure.
func inspectExit(err error) int {
	if errors.Is(err, nvmeapst.ErrNoController) || errors.Is(err, nvmeapst.ErrBundle) {
		return exitUsage
	}
	return exitFailure
}

func runInspect(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("inspect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", "", "read the bundle written by apstctl collect DIR (or a sysfs tree) at `DIR` instead of the live system")
	format := fs.String("format", "text", "output format: text or json")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: apstctl inspect [--root DIR] [--format text|json] [nvmeN...]

Shows, per NVMe controller, the quirks that apply and why, the latency bound
and where it comes from, the module parameters, the APST table the kernel
should have programmed, the table the drive holds (Get Features needs root),
the current power state, and a verdict: match, or the differing entries with
their likely causes. Without names, every controller is inspected.

Flags:`)
		fs.PrintDefaults()
	}
	names, err := parseInterspersed(fs, args, -1)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if err := checkInspectFormat(*format); err != nil {
		fmt.Fprintln(stderr, "apstctl inspect:", err)
		return exitUsage
	}
	for i, n := range names {
		names[i] = strings.TrimPrefix(n, "/dev/")
	}
	sys, err := openInspectSystem(*root)
	if err != nil {
		fmt.Fprintln(stderr, "apstctl inspect:", err)
		if *root != "" {
			return exitUsage
		}
		return exitFailure
	}
	ctx, stop := inspectContext()
	defer stop()
	rep, err := sys.Inspect(ctx, names...)
	if err != nil {
		fmt.Fprintln(stderr, "apstctl inspect:", err)
		return inspectExit(err)
	}
	if *format == "json" {
		err = writeInspectJSON(stdout, rep)
	} else {
		err = rep.WriteText(stdout)
	}
	if err != nil {
		fmt.Fprintln(stderr, "apstctl inspect:", err)
		return exitFailure
	}
	return exitOK
}
