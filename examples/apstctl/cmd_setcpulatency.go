package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"

	"github.com/nvmeapst/nvmeapst/sysfs"
)

// diskName matches a namespace block device (nvme0n1), as opposed to a
// controller (nvme0).
var diskName = regexp.MustCompile(`^nvme[0-9]+n[0-9]+$`)

func setCPULatencyCommand() *command {
	fs := newFlagSet("set-cpu-latency")
	root := fs.String("root", "DIR", sysfs.DefaultMountPoint, "the sysfs tree to write into (a bundle or a copy of /sys for testing)")
	timeout := fs.String("timeout-ms", "MS", "", "for a disk, also set cpu_lat_timeout_ms (0 to 2147483647)")
	format := addOutputFormat(fs)
	c := &command{
		name:      "set-cpu-latency",
		usageLine: "set-cpu-latency [flags] TARGET VALUE",
		short:     "set the CPU latency QoS knob of a controller or disk (patched kernels)",
		long: `
Sets the CPU latency QoS limit held while NVMe I/O is in flight, on kernels that carry the proposed
patches: for a controller (nvme0) its cpu_latency_us, for a disk (nvme0n1) its block-layer
cpu_lat_limit_us. VALUE is a number of microseconds from 0 to 2147483647, or -1 (or "off") to drop
the limit. A value outside that range is refused and nothing is written; the value is read back
after writing. A kernel without the patch says so. Like set-latency, exit status 0 means the values
were written; 1 that a write failed, and what was written before it has been put back; 128+N that
signal N arrived before apstctl was done, and every old value has been put back. With -o json: {"target": T, "changes": [{"attribute": A, "old": N, "new": N}, ...]}, where
-1 is "off".`,
		examples: []string{
			"set-cpu-latency nvme0 150",
			"set-cpu-latency --timeout-ms 3 nvme0n1 off",
		},
		flags:   fs,
		minArgs: 2, maxArgs: 2,
	}
	c.run = func(ctx context.Context, x *invocation, args []string) error {
		target := strings.TrimPrefix(args[0], "/dev/")
		us, err := parseCPULatency(args[1])
		if err != nil {
			return inputErr(fmt.Errorf("nothing written: %w", err))
		}
		isDisk := diskName.MatchString(target)
		var timeoutMS int64
		if *timeout != "" {
			if !isDisk {
				return usagef("--timeout-ms applies to a disk (nvmeNnM), not %s; nothing written", view.Escape(target))
			}
			if timeoutMS, err = strconv.ParseInt(*timeout, 10, 64); err != nil || timeoutMS < 0 || timeoutMS > 1<<31-1 {
				return usagef("--timeout-ms %s: want 0 to 2147483647; nothing written", quoteArg(*timeout))
			}
		}
		fsys, err := sysfs.NewFS(*root)
		if err != nil {
			return inputErr(err)
		}
		type step struct {
			attr string
			v    int64
			set  func(string, int64) (int64, int64, error)
		}
		steps := []step{{"cpu_latency_us", us, fsys.SetCPULatency}}
		if isDisk {
			steps = []step{{"cpu_lat_limit_us", us, fsys.SetDiskCPULatencyLimit}}
			if *timeout != "" {
				steps = append(steps, step{"cpu_lat_timeout_ms", timeoutMS, fsys.SetDiskCPULatencyTimeout})
			}
		}
		// The writes hold signals: one arriving between them is acted on
		// once they are done, putting every old value back. A write that
		// fails puts back the ones before it: the attributes hold either
		// all the old values or all the new ones.
		change := newLiveChange(ctx)
		var changes []cpuLatencyChangeJSON
		err = change.write(func(_ context.Context, record func(func() error)) error {
			for _, s := range steps {
				liveChangeHook("before " + s.attr)
				old, new, err := s.set(target, s.v)
				if err == nil || errors.Is(err, sysfs.ErrReadBack) {
					// Written (even if it reads back otherwise).
					set := s.set
					record(func() error {
						_, _, err := set(target, old)
						return err
					})
				}
				if err != nil {
					return err
				}
				changes = append(changes, cpuLatencyChangeJSON{Attribute: s.attr, Old: old, New: new})
				liveChangeHook("after " + s.attr)
			}
			return nil
		})
		if err != nil {
			if ctx.Err() != nil && len(changes) == 0 {
				return context.Cause(ctx) // interrupted before the first write
			}
			if rerr := change.rollback(); rerr != nil {
				err = fmt.Errorf("%w; and putting back what was written failed: %w", err, rerr)
			} else if len(changes) > 0 {
				err = fmt.Errorf("%w; nothing changed: %s put back", err, restoredList(changes))
			}
			// Status 2 is for what the user named wrongly (a controller or
			// disk that is not there); what the tree holds (an attribute
			// missing, unreadable, malformed, a FIFO) is a failure, 1, as
			// set-latency's.
			if len(changes) == 0 && (errors.Is(err, sysfs.ErrInvalidName) || errors.Is(err, sysfs.ErrNotSysfs) ||
				errors.Is(err, os.ErrNotExist) && !errors.Is(err, errors.ErrUnsupported)) {
				return inputErr(err)
			}
			return err
		}
		liveChangeHook("report")
		if format.json {
			writeJSON(x.out, struct {
				Target  string                 `json:"target"`
				Changes []cpuLatencyChangeJSON `json:"changes"`
			}{target, changes})
		} else {
			for _, c := range changes {
				fmt.Fprintf(x.out, "%s: %s %s -> %s\n", view.Escape(target), c.Attribute, cpuLatencyString(c.Old), cpuLatencyString(c.New))
			}
		}
		if interrupted, rerr := change.finish(x.out); interrupted {
			// A signal arrived: every old value is back (128+N), unless
			// putting one back failed (1, and the message says which).
			if rerr != nil {
				return fmt.Errorf("%s: written, and restoring failed: %w", view.Escape(target), rerr)
			}
			return fmt.Errorf("%s: written, then restored: %s", view.Escape(target), restoredList(changes))
		}
		if err := x.out.Err(); err != nil && !errors.Is(err, syscall.EPIPE) {
			// The value was written: the status stays 0 (cli.md).
			fmt.Fprintf(x.errw, "apstctl set-cpu-latency: %s: written; printing the result failed: %v\n", view.Escape(target), err)
		}
		return exitStatus(exitOK)
	}
	return c
}

// restoredList says which attributes were put back to what.
func restoredList(changes []cpuLatencyChangeJSON) string {
	parts := make([]string, len(changes))
	for i, c := range changes {
		parts[i] = c.Attribute + " " + cpuLatencyString(c.Old)
	}
	return strings.Join(parts, ", ")
}

// cpuLatencyChangeJSON is one attribute set-cpu-latency wrote; -1 is off.
type cpuLatencyChangeJSON struct {
	Attribute string `json:"attribute"`
	Old       int64  `json:"old"`
	New       int64  `json:"new"`
}

// parseCPULatency accepts -1 or "off" (no limit) and 0 to 2147483647 µs.
func parseCPULatency(s string) (int64, error) {
	if s == "off" {
		return -1, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < -1 || v > 1<<31-1 {
		return 0, fmt.Errorf("CPU latency %q: want -1 (or off) or a number of microseconds from 0 to 2147483647", s)
	}
	return v, nil
}

// cpuLatencyString shows -1 as "off".
func cpuLatencyString(v int64) string {
	if v < 0 {
		return "off"
	}
	return strconv.FormatInt(v, 10)
}
