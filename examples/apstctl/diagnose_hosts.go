package main

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
	"github.com/nvmeapst/nvmeapst/apst/persist"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
)

// maxEachHostLog bounds the log --each-host holds in memory to read it
// once a host.
const maxEachHostLog = 256 << 20

// diagnoseEachHost diagnoses each host's kernel lines of a log of several
// machines on its own (kernlog.Options.Host), the log read whole into
// memory first; a log of one machine, or of none named, is diagnosed as
// it is without --each-host. The text gives a line a host first, then
// each host's diagnosis; JSON is an array of diagnoses, a host each.
func diagnoseEachHost(ctx context.Context, x *invocation, r io.Reader, tried []diagnose.Tried, plat persist.Platform, asJSON bool) error {
	buf, err := io.ReadAll(io.LimitReader(r, maxEachHostLog+1))
	switch {
	case err != nil && ctx.Err() != nil:
		return err
	case err != nil:
		return inputErr(fmt.Errorf("--log: %w", err))
	case len(buf) > maxEachHostLog:
		return inputErr(fmt.Errorf("--log: --each-host reads the log once a host, held in memory, and this one is over %d MiB: read one host's lines at a time (--host NAME)", maxEachHostLog>>20))
	}
	all, err := diagnosePasted(ctx, x, bytes.NewReader(buf), pastedCapture{}, kernlog.Options{}, "", "", tried, plat)
	if err != nil {
		return err
	}
	results := []diagnoseResult{all}
	if hosts := all.Log.Hosts; len(hosts) > 1 {
		results = results[:0]
		for _, h := range hosts {
			d, err := diagnosePasted(ctx, x, bytes.NewReader(buf), pastedCapture{}, kernlog.Options{Host: h}, "", "", tried, plat)
			if err != nil {
				return err
			}
			results = append(results, d)
		}
	}
	if asJSON {
		views := make([]diagnosisJSON, len(results))
		for i := range results {
			views[i] = diagnoseView(&results[i])
		}
		return writeJSON(x.out, views)
	}
	if len(results) == 1 {
		writeDiagnosisText(x.out, &results[0])
		return nil
	}
	more := ""
	if all.Log.MoreHosts {
		more = fmt.Sprintf(" (the first %d of more: give the others' names with --host NAME)", len(results))
	}
	fmt.Fprintf(x.out, "the log holds the kernel lines of %d hosts%s, each diagnosed on its own:\n", len(results), more)
	for i := range results {
		fmt.Fprintf(x.out, "  %s: %s\n", view.Escape(results[i].Log.Host), view.EscapeMessage(results[i].Summary))
	}
	for i := range results {
		fmt.Fprintf(x.out, "\n== host %s ==\n", view.Escape(results[i].Log.Host))
		writeDiagnosisText(x.out, &results[i])
	}
	return nil
}
