package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
)

func setLatencyCommand() *command {
	fs := newFlagSet("set-latency")
	root := addRootFlag(fs, "write into the sysfs tree or bundle at DIR instead of the live system")
	format := addOutputFormat(fs)
	c := &command{
		name:      "set-latency",
		usageLine: "set-latency [flags] nvmeN VALUE",
		short:     "set a controller's pm_qos_latency_tolerance_us, validated and read back",
		long: `
Writes VALUE to /sys/class/nvme/nvmeN/power/pm_qos_latency_tolerance_us and reads it back. VALUE
is what the kernel accepts: a number of microseconds from 0 to 2147483647 (0 turns APST off),
"auto" or "any" (both: no limit). A value the kernel would reject is refused and nothing is
written. Shows the table the kernel now programs (and the drive's, when readable) and how to make
the setting persistent. Needs root on a live system.

The exit status says whether sysfs was changed: 0 when the value was written and reads back as
asked, whatever happens to the report afterwards (a report that cannot be printed or built is
said on standard error, and the status stays 0); 2 when nothing was written because the value,
the controller or the command line is wrong; 1 when the write failed.`,
		examples: []string{
			"set-latency nvme0 25000",
			"set-latency --root /tmp/apst-copy nvme2 auto -o json",
		},
		flags:   fs,
		minArgs: 2, maxArgs: 2,
	}
	c.run = func(ctx context.Context, x *invocation, args []string) error {
		name, value := strings.TrimPrefix(args[0], "/dev/"), args[1]
		// Refuse a bad value before touching anything, even the live system.
		if _, err := apst.ParseTolerance(value); err != nil {
			return inputErr(fmt.Errorf("nothing written: %w", err))
		}
		sys, err := openSystem(*root)
		if err != nil {
			return err
		}
		ch, err := sys.SetLatency(ctx, name, value)
		if ch == nil {
			return systemError(err)
		}
		if ctx.Err() != nil {
			// A signal arrived while the value was written or read back:
			// put the old value back, so that 128+N means nothing changed.
			if _, _, rerr := sys.FS.SetLatencyTolerance(name, ch.Old.String()); rerr != nil {
				return fmt.Errorf("%s: %s -> %s written, and restoring %s failed: %w", view.Escape(name), ch.Old, ch.New, ch.Old, rerr)
			}
			return fmt.Errorf("%s: %s -> %s written, then restored to %s", view.Escape(name), ch.Old, ch.New, ch.Old)
		}
		// sysfs has changed: from here on the status is 0.
		if err != nil {
			fmt.Fprintf(x.errw, "apstctl set-latency: %s: %s -> %s written; %v\n", view.Escape(name), ch.Old, ch.New, err)
			return exitStatus(exitOK)
		}
		if format.json {
			err = writeJSON(x.out, latencyChangeView(ch))
		} else {
			writeLatencyChangeText(x.out, ch)
			err = x.out.Err()
		}
		if err != nil {
			fmt.Fprintf(x.errw, "apstctl set-latency: %s: %s -> %s written; printing the report failed: %v\n", view.Escape(name), ch.Old, ch.New, err)
		}
		return exitStatus(exitOK)
	}
	return c
}
