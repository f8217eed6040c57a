// Command tracegen writes a synthetic block I/O trace for the replay
// figures of examples/fleetbench: n commands of an interactive workload
// (tracetest.Interactive: a fixed seed, mean gap 2 ms, service 100 µs),
// rendered in one of the formats the trace package reads.
//
//	go run ./internal/tools/tracegen -format blkparse -n 2000000 -out /tmp/trace.blkparse
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
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || *n < 1 || fs.NArg() > 0 {
		return errors.New("want -out FILE, -n >= 1 and no arguments")
	}
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
	if err := tracetest.Render(w, f, tracetest.Interactive(1, *n, 2*time.Millisecond, 100*time.Microsecond), tracetest.Options{}); err != nil {
		file.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		file.Close()
		return err
	}
	return file.Close()
}
