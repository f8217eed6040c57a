package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/sysfs"
)

// diskName matches a namespace block device (nvme0n1), as opposed to a
// controller (nvme0).
var diskName = regexp.MustCompile(`^nvme[0-9]+n[0-9]+$`)

// runSetCPULatency sets the CPU latency QoS knobs that some patched kernels
// carry: the nvme-pci controller's cpu_latency_us, or a disk's
// cpu_lat_limit_us (and with --timeout-ms its cpu_lat_timeout_ms). Each
// value is validated first, written, and read back.
func runSetCPULatency(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("set-cpu-latency", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", sysfs.DefaultMountPoint, "the sysfs tree to write into (`DIR`; a bundle or a copy of /sys for testing)")
	timeout := fs.String("timeout-ms", "", "for a disk, also set cpu_lat_timeout_ms to `MS` (0 to 2147483647)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: apstctl set-cpu-latency [--root DIR] [--timeout-ms MS] TARGET VALUE

Sets the CPU latency QoS limit held while NVMe I/O is in flight, on kernels
that carry the proposed patches: for a controller (nvme0) its cpu_latency_us,
for a disk (nvme0n1) its block-layer cpu_lat_limit_us. VALUE is a number of
microseconds from 0 to 2147483647, or -1 (or "off") to drop the limit. A
value outside that range is refused and nothing is written; the value is read
back after writing. A kernel without the patch says so.

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
		fmt.Fprintf(stderr, "apstctl set-cpu-latency: want 2 arguments (TARGET VALUE), got %d %q\n", len(pos), pos)
		fs.Usage()
		return exitUsage
	}
	target := strings.TrimPrefix(pos[0], "/dev/")
	us, err := parseCPULatency(pos[1])
	if err != nil {
		fmt.Fprintln(stderr, "apstctl set-cpu-latency: nothing written:", err)
		return exitUsage
	}
	isDisk := diskName.MatchString(target)
	var timeoutMS int64
	if *timeout != "" {
		if !isDisk {
			fmt.Fprintf(stderr, "apstctl set-cpu-latency: --timeout-ms applies to a disk (nvmeNnM), not %s; nothing written\n", target)
			return exitUsage
		}
		if timeoutMS, err = strconv.ParseInt(*timeout, 10, 64); err != nil || timeoutMS < 0 || timeoutMS > 1<<31-1 {
			fmt.Fprintf(stderr, "apstctl set-cpu-latency: --timeout-ms %q: want 0 to 2147483647; nothing written\n", *timeout)
			return exitUsage
		}
	}
	fsys, err := sysfs.NewFS(*root)
	if err != nil {
		fmt.Fprintln(stderr, "apstctl set-cpu-latency:", err)
		return exitUsage
	}
	report := func(attr string, old, new int64, err error) int {
		if err != nil {
			fmt.Fprintln(stderr, "apstctl set-cpu-latency:", err)
			if errors.Is(err, os.ErrPermission) || errors.Is(err, errors.ErrUnsupported) {
				return exitFailure
			}
			return exitUsage
		}
		fmt.Fprintf(stdout, "%s: %s %s -> %s\n", target, attr, cpuLatencyString(old), cpuLatencyString(new))
		return exitOK
	}
	if !isDisk {
		old, new, err := fsys.SetCPULatency(target, us)
		return report("cpu_latency_us", old, new, err)
	}
	old, new, err := fsys.SetDiskCPULatencyLimit(target, us)
	if code := report("cpu_lat_limit_us", old, new, err); code != exitOK || *timeout == "" {
		return code
	}
	old, new, err = fsys.SetDiskCPULatencyTimeout(target, timeoutMS)
	return report("cpu_lat_timeout_ms", old, new, err)
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
