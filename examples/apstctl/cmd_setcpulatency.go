package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/examples/internal/view"
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
after writing. A kernel without the patch says so. Like set-latency, exit status 0 means the value
was written. With -o json: {"target": T, "changes": [{"attribute": A, "old": N, "new": N}, ...]}, where
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
		var changes []cpuLatencyChangeJSON
		report := func(attr string, old, new int64, err error) error {
			if err != nil {
				if errors.Is(err, os.ErrPermission) || errors.Is(err, errors.ErrUnsupported) {
					return err
				}
				return inputErr(err)
			}
			changes = append(changes, cpuLatencyChangeJSON{Attribute: attr, Old: old, New: new})
			if !format.json {
				fmt.Fprintf(x.out, "%s: %s %s -> %s\n", view.Escape(target), attr, cpuLatencyString(old), cpuLatencyString(new))
			}
			return nil
		}
		set := func() error {
			if !isDisk {
				old, new, err := fsys.SetCPULatency(target, us)
				return report("cpu_latency_us", old, new, err)
			}
			old, new, err := fsys.SetDiskCPULatencyLimit(target, us)
			if err := report("cpu_lat_limit_us", old, new, err); err != nil || *timeout == "" {
				return err
			}
			old, new, err = fsys.SetDiskCPULatencyTimeout(target, timeoutMS)
			return report("cpu_lat_timeout_ms", old, new, err)
		}
		err = set()
		if ctx.Err() != nil && len(changes) > 0 {
			// A signal arrived during the writes: undo them, newest first,
			// so that 128+N means nothing changed.
			var failed []string
			for i := len(changes) - 1; i >= 0; i-- {
				if rerr := restoreCPULatency(fsys, target, changes[i]); rerr != nil {
					failed = append(failed, fmt.Sprintf("restoring %s to %s: %v", changes[i].Attribute, cpuLatencyString(changes[i].Old), rerr))
				}
			}
			if len(failed) > 0 {
				return fmt.Errorf("%s: %s", view.Escape(target), strings.Join(failed, "; "))
			}
			return fmt.Errorf("%s: written, then restored", view.Escape(target))
		}
		if format.json && len(changes) > 0 {
			writeJSON(x.out, struct {
				Target  string                 `json:"target"`
				Changes []cpuLatencyChangeJSON `json:"changes"`
			}{target, changes})
		}
		if err != nil {
			return err
		}
		if err := x.out.Err(); err != nil {
			// The value was written: the status stays 0 (cli.md).
			fmt.Fprintf(x.errw, "apstctl set-cpu-latency: %s: written; printing the result failed: %v\n", view.Escape(target), err)
		}
		return exitStatus(exitOK)
	}
	return c
}

// restoreCPULatency writes back the old value of a change.
func restoreCPULatency(fsys sysfs.FS, target string, c cpuLatencyChangeJSON) error {
	var err error
	switch c.Attribute {
	case "cpu_latency_us":
		_, _, err = fsys.SetCPULatency(target, c.Old)
	case "cpu_lat_limit_us":
		_, _, err = fsys.SetDiskCPULatencyLimit(target, c.Old)
	case "cpu_lat_timeout_ms":
		_, _, err = fsys.SetDiskCPULatencyTimeout(target, c.Old)
	}
	return err
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
