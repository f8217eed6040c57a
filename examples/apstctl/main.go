// Command apstctl shows what the Linux kernel does with an NVMe drive's
// Autonomous Power State Transitions: the table it programs for a bound,
// why each state is used or not, and how that changes with the bound, the
// kernel generation and the module parameters.
//
// With no arguments it runs its main job on an embedded capture of a Samsung
// SSD 990 EVO Plus: the table at the default 100 ms bound next to the one at
// 25 ms. The command contract (flags, JSON keys, exit status) is in the
// project's docs/spec/cli.md; run "apstctl help" for the commands.
package main

import (
	"fmt"
	"io"
	"os"
)

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1 // a runtime failure (device, permission)
	exitUsage   = 2 // a usage error or an input that cannot be read or parsed
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

type command struct {
	name    string
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

func commands() []command {
	return []command{
		{"plan", "the table the kernel would program for a capture", runPlan},
		{"sweep", "every bound, partitioned into intervals with the same table", runSweep},
		{"compare", "two or more configurations side by side", runCompare},
		{"simulate", "idle timeline, wake penalties and idle power", runSimulate},
		{"recommend", "bounds that meet a stall limit or bar a state", runRecommend},
		{"survey", "a fleet of captures through two or more configurations", runSurvey},
		{"decode", "decode a programmed APST table (get-feature -f 0x0c text, JSON or raw bytes)", runDecode},
		{"convert", "turn a capture into another format (binary image, nvme-cli text or JSON, smartctl text)", runConvert},
		{"inspect", "what the kernel programmed on this machine (or a bundle), and why", runInspect},
		{"collect", "write a bundle of this machine's APST state for another machine", runCollect},
		{"set-latency", "set a controller's pm_qos_latency_tolerance_us, validated and read back", runSetLatency},
		{"set-cpu-latency", "set the CPU latency QoS knob of a controller or disk (patched kernels)", runSetCPULatency},
	}
}

// run dispatches a command line and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return runDemo(stdout, stderr)
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "--help" || name == "-help" {
		usage(stdout)
		return exitOK
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(args[1:], stdin, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "apstctl: unknown command %q\n\n", name)
	usage(stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: apstctl COMMAND [flags] [CAPTURE]")
	fmt.Fprintln(w, "\nWith no arguments, apstctl shows its main job on an embedded Samsung 990 EVO Plus capture.")
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-12s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nCAPTURE is a path or - for standard input. Run apstctl COMMAND -h for a command's flags.")
}
