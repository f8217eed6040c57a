// Command tracegen writes a synthetic block I/O trace for the replay
// figures of examples/fleetbench: n commands of an interactive workload
// (tracetest.Interactive: a fixed seed, mean gap 2 ms, service 100 µs),
// rendered in one of the formats the trace package reads.
//
//	go run ./internal/tools/tracegen -format blkparse -n 2000000 -out /tmp/trace.blkparse
//
// A blkparse trace is written in blkparse's default layout (see
// tracetest.Options): -actions QGIDC writes the five lines blkparse prints
// of each command of a plain trace, -actions DC the two of `blkparse -a
// issue -a complete`; -cpus and -devices spread the commands over CPUs and
// devices; -first-seq, -time-offset and -pid widen the fields past
// blkparse's widths (99999990, 100000s and 1234567 do).
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
	"github.com/nvmeapst/nvmeapst/apst/analysis/trace/tracetest"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "tracegen:", err)
		os.Exit(2)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("tracegen", flag.ContinueOnError)
	format := fs.String("format", "blkparse", "trace format: blkparse, biosnoop, biosnoop-bpftrace, fio-iolog or plain")
	n := fs.Int("n", 1000000, "number of commands")
	out := fs.String("out", "", "file to write")
	var opt tracetest.Options
	fs.StringVar(&opt.Actions, "actions", "QDC", "blkparse: the actions written per command, letters of QGIDC with D and C")
	fs.IntVar(&opt.CPUs, "cpus", 1, "blkparse: CPUs the commands are spread over")
	fs.IntVar(&opt.Devices, "devices", 1, "blkparse: devices the commands are spread over (259,0, 259,1...)")
	fs.Uint64Var(&opt.FirstSeq, "first-seq", 1, "blkparse: the first sequence number of each CPU")
	fs.DurationVar(&opt.TimeOffset, "time-offset", 0, "blkparse: added to every time")
	pid := fs.Uint("pid", 4242, "blkparse: the PID of the Q, G, I and D lines")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || *n < 1 || fs.NArg() > 0 {
		return errors.New("want -out FILE, -n >= 1 and no arguments")
	}
	if *pid < 1 || *pid > 1<<22 || opt.CPUs < 1 || opt.Devices < 1 || opt.FirstSeq < 1 {
		return errors.New("want -pid 1 to 4194304 (the kernel's PID_MAX_LIMIT), -cpus, -devices and -first-seq >= 1")
	}
	opt.PID = uint32(*pid)
	var f trace.Format
	found := false
	for _, g := range trace.Formats() {
		if g.String() == *format {
			f, found = g, true
		}
	}
	if !found {
		return fmt.Errorf("-format %q: want one of %v", *format, trace.Formats())
	}
	file, err := os.Create(*out)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(file, 1<<20)
	if err := tracetest.Render(w, f, tracetest.Interactive(1, *n, 2*time.Millisecond, 100*time.Microsecond), opt); err != nil {
		file.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		file.Close()
		return err
	}
	return file.Close()
}
