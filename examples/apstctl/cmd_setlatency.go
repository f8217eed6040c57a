package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
	"strings"
	"syscall"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

// toleranceAttr is the attribute set-latency writes.
const toleranceAttr = "pm_qos_latency_tolerance_us"

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
written; so is a number with a leading 0, which the kernel reads as octal (05000 is 2560). Shows
the table the kernel now programs (and the drive's, when readable) and how to make the setting
persistent. Needs root on a live system.

The exit status says whether sysfs was changed: 0 when the value was written and reads back as
asked, whatever happens to the report afterwards (a report that cannot be printed or built is
said on standard error, and the status stays 0); 2 when nothing was written because the value,
the controller or the command line is wrong; 1 when the write failed; 128+N when signal N arrived
before apstctl was done, at any point: the old value has been put back (signals are held while the
value is written and read back, then acted on).`,
		examples: []string{
			"set-latency nvme0 25000",
			"set-latency --root /tmp/apst-copy nvme2 auto -o json",
		},
		flags:   fs,
		minArgs: 2, maxArgs: 2,
	}
	c.run = func(ctx context.Context, x *invocation, args []string) (status error) {
		name, value := strings.TrimPrefix(args[0], "/dev/"), args[1]
		// Refuse a bad value before touching anything, even the live system.
		tol, err := apst.ParseTolerance(value)
		if err != nil {
			return inputErr(fmt.Errorf("nothing written: %w", err))
		}
		if apst.OctalLooking(value) {
			// The kernel reads the number in base 0 (kstrtos32): 05000 is
			// 2560 µs, which nobody who types it means.
			return usagef("%s: the kernel reads a leading 0 as octal, so this would set %s µs; nothing written: write it without the 0 (or with 0x for hexadecimal)", quoteArg(value), tol)
		}
		sys, err := openSystem(*root)
		if err != nil {
			return err
		}
		// The write and its read-back hold signals: one arriving meanwhile
		// is acted on once they are done, putting the old value back.
		change := newLiveChange(ctx)
		var ch *nvmeapst.LatencyChange
		err = change.write(func(ctx context.Context, record func(func() error)) error {
			liveChangeHook("before " + toleranceAttr)
			var err error
			ch, err = sys.SetLatency(ctx, name, value)
			if ch != nil {
				old := ch.Old.String()
				record(func() error {
					_, _, err := sys.FS.SetLatencyTolerance(name, old)
					return err
				})
				liveChangeHook("after " + toleranceAttr)
			}
			return err
		})
		if ch == nil {
			if errors.Is(err, sysfs.ErrAPSTDisabled) {
				// No attribute to write: the controller is the wrong one
				// for this (the kernel has APST disabled for it), and
				// nothing was written.
				return inputErr(err)
			}
			return systemError(err)
		}
		liveChangeHook("report")
		defer func() {
			// A signal before this point has put the old value back: the
			// status is then 128+N, or 1 when restoring failed.
			if interrupted, rerr := change.finish(x.out); interrupted {
				if rerr != nil {
					status = fmt.Errorf("%s: %s -> %s written, and restoring %s failed: %w", view.Escape(name), ch.Old, ch.New, ch.Old, rerr)
				} else {
					status = fmt.Errorf("%s: %s -> %s written, then restored to %s", view.Escape(name), ch.Old, ch.New, ch.Old)
				}
			}
		}()
		// sysfs has changed: from here on the status is 0, unless a signal
		// puts the old value back.
		if err != nil {
			if !errors.Is(err, context.Canceled) { // a signal: finish says what it did
				fmt.Fprintf(x.errw, "apstctl set-latency: %s: %s -> %s written; %v\n", view.Escape(name), ch.Old, ch.New, err)
			}
			return exitStatus(exitOK)
		}
		if format.json {
			err = writeJSON(x.out, latencyChangeView(ch))
		} else {
			writeLatencyChangeText(x.out, ch)
			err = x.out.Err()
		}
		if err != nil && !errors.Is(err, syscall.EPIPE) { // EPIPE: SIGPIPE, quietly
			fmt.Fprintf(x.errw, "apstctl set-latency: %s: %s -> %s written; printing the report failed: %v\n", view.Escape(name), ch.Old, ch.New, err)
		}
		return exitStatus(exitOK)
	}
	return c
}
