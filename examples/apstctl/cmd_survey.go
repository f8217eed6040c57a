package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/survey"
	"github.com/nvmeapst/nvmeapst/apst/survey/shard"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// Default configurations of "apstctl survey" without --with: the Linux
// default bound against the proposed 25 ms.
var surveyDefaultConfigs = []string{"ps-max-latency-us=100000", "ps-max-latency-us=25000"}

// surveyLong is the paragraph of "apstctl help survey".
const surveyLong = `
Runs every capture under the directories (recursively; any format, mixed: 4096-byte Identify images,
nvme id-ctrl text or JSON, smartctl text or JSON) through two or more configurations and reports, per
drive, the deepest reachable state, the worst wake stall and the deepest state's max power under each,
and for the fleet how many drives change, the spread of the stall reduction and of the idle power
increase, by vendor, and the drives where the change bars every non-operational state or none.
--summary leaves the drives out.

Each --with is a configuration as in compare: a comma list of the plan flags without dashes
(ps-max-latency-us=25000,kernel=v4.12, ...) or policy=NAME (linux-default, linux-25ms,
windows-balanced-dc, ...), on top of the Linux v5.14+ defaults. The first is the reference. Without
--with: ps-max-latency-us=100000 against ps-max-latency-us=25000; with one --with: the Linux default
against it. Each drive also gets the quirks the kernel's tables give it (see --kernel-quirks).

Files are read and parsed by --workers goroutines (default: one per CPU), each at most 1 MiB, and
reported in lexical order (arguments in the order given) whatever the number of workers. Hidden
files and directories and files named *.md, *.markdown, *.rst, *.tsv, *.csv, *.svg, *.html, *.htm,
*.pdf, *.png, *.jpg, *.jpeg, *.gif are skipped without a word; every other file that is
not a readable capture is listed as unreadable with the reason (a named pipe, socket or device is
refused without being read; a symbolic link inside a directory is followed to a file, not to a
directory). A DIR argument may be a single file, a pipe the user names (<(cat CAPTURE), read as a
capture) or a symbolic link to a directory. On a terminal, standard error shows the count of
captures read every 1000. A survey without a readable capture writes no report (exit 2).

A bundle of "apstctl collect" (a directory holding its manifest.json, at any depth, or DIR itself) is
one machine, read as "inspect --root" reads it: a row per controller, "DIR (bundle, nvmeN)", with
the bundle's real PCI ID, DMI strings, release, module parameters, per-device bound and quirks file;
each --with applies on top of them (--with "" is the machine as inspect reports it; quirks=none
replaces its quirks, as in compare). Its files are neither captures nor unreadable.

--stall-budget answers the inverse question: the largest bound (under the first configuration's
other parameters) that keeps every drive's worst wake stall within the budget, and what it costs in
idle power against the first configuration. CSV holds the per-drive rows only; the summary and the
budget are in text and JSON.

--merge reads the JSON (or NDJSON) reports of surveys of shards of a fleet, run with the same
configurations, and reports exactly what one survey of the whole fleet reports: the drives of every
shard in the order given, and the summary of them all (text: the summary only).`

// surveyOptions holds the parsed flags of "apstctl survey".
type surveyOptions struct {
	with         withFlags
	format       string
	budget       string
	svg          outputFile
	file         outputFile
	kernelQuirks bool
	full         bool
	summary      bool
	merge        bool
	workers      int
	persist      *surveyPersist
}

// surveyConfigs builds the configurations from the --with values.
func surveyConfigs(with []string) ([]analysis.Config, error) {
	specs := with
	switch len(with) {
	case 0:
		specs = surveyDefaultConfigs
	case 1:
		specs = []string{surveyDefaultConfigs[0], with[0]}
	}
	base := apst.DefaultParams(apst.Current)
	configs := make([]analysis.Config, 0, len(specs))
	for _, w := range specs {
		p, err := apst.ParseConfig(w, base)
		if err != nil {
			return nil, fmt.Errorf("--with %q: %w", w, err)
		}
		configs = append(configs, analysis.Config{Name: w, Params: p})
	}
	return configs, nil
}

// surveyUnreadable is a file the survey could not use: its Reason
// classifies its Error (survey_reasons.go), "" in a shard of an older
// apstctl.
type surveyUnreadable = shard.Unreadable

// surveyOutput writes the report as the drives come.
type surveyOutput interface {
	begin(configs []analysis.Config, kernelQuirks bool) error
	// drive writes one drive's row; src says where it comes from.
	drive(row *survey.Row, src *surveySource) error
	// unreadable is told of each unreadable file, in order.
	unreadable(u surveyUnreadable) error
	end(r *surveyRun) error
}

// surveyRun is the state of one "apstctl survey" run. Per drive it keeps
// only what survey.Survey keeps; each capture is dropped once it is reported.
type surveyRun struct {
	survey     *survey.Survey
	out        surveyOutput
	plot       *svgPlot
	budget     apst.Microseconds
	hasBudget  bool
	unreadable unreadableList
	skipped    int
	drives     int // rows reported, for the progress lines
	// hold keeps the report until its first drive (survey_hold.go).
	hold     *heldWriter
	progress io.Writer
	// quirksInferred and quirksUnchecked count the drives whose quirks
	// rest on a PCI ID inferred from the model, and those with PCI IDs of
	// their vendor's that carry quirks but could not be checked.
	quirksInferred, quirksUnchecked int
	// assumed counts the drives per kind of assumption (survey_assumptions.go).
	assumed surveyAssumedCounts
	// bundleDrives counts the rows of controllers of bundles.
	bundleDrives int
	// shards holds the identities of the surveys a merged report holds
	// and its drives, each with the argument that held it, so that a
	// survey or a drive two arguments hold is refused.
	shards shard.Set
}

// run surveys the positional arguments (directories, files, or with
// --merge the shards' reports), writing the report to standard output (or
// --output) and progress to standard error when it is a terminal. Errors: a
// *usageError for a bad command line, an *inputError when nothing can be
// surveyed, any other error when writing failed or ctx was cancelled.
func (o *surveyOptions) run(ctx context.Context, x *invocation, args []string) error {
	stdout, stderr := io.Writer(x.out), io.Writer(x.errw)
	if o.workers < 1 || o.workers > surveyWorkersMax {
		return usagef("--workers %d: want 1 to %d", o.workers, surveyWorkersMax)
	}
	if err := o.svg.besideReport("--svg"); err != nil {
		return err
	}
	r := &surveyRun{progress: x.progress(), unreadable: unreadableList{limit: unreadableListLimit}}
	if o.budget != "" {
		b, err := apst.ParseMicroseconds(o.budget)
		if err != nil {
			return usagef("--stall-budget: %v", err)
		}
		r.budget, r.hasBudget = b, true
	}
	if o.full && o.format != "json" && o.format != "ndjson" {
		return usagef("--full does nothing for --output-format %s: it adds each configuration's whole result to JSON", o.format)
	}
	if o.summary && (o.format == "csv" || o.format == "ndjson") {
		return usagef("--summary and --output-format %s contradict each other: %s holds the drives only", o.format, o.format)
	}
	if r.hasBudget && o.format == "csv" {
		// CSV holds the per-drive rows only: the budget's answer is in
		// text and JSON.
		return usagef("--stall-budget and --output-format csv contradict each other: csv holds the drives only; the budget's answer is in text, json and ndjson")
	}
	if err := o.persist.check(o); err != nil {
		return err
	}
	if o.merge {
		// The shards' configurations and rows are the merge's: name the
		// flag that would change nothing.
		given := ""
		switch {
		case len(o.with) > 0:
			given = "with"
		case o.full:
			given = "full"
		case o.svg.path != "":
			given = "svg"
		case o.format == "csv":
			given = "output-format csv"
		}
		if given != "" {
			return usagef("--%s and --merge contradict each other: --merge takes its configurations and rows from the shards (--with, --full, --svg and --format csv do not apply)", given)
		}
		// The shards were read with their own quirk tables and workers:
		// given to a merge, these would change nothing.
		if name := x.cmd.flags.firstGiven("kernel-quirks", "workers"); name != "" {
			return usagef("--%s and --merge contradict each other: the shards were surveyed with their own --%s; a merge reads their reports", name, name)
		}
	}
	stdinUsed := false
	for _, a := range args {
		if a == "-" && o.merge {
			// A report on standard input (cmd | apstctl survey --merge -), once.
			if stdinUsed {
				return usagef("- names standard input, which holds one report: give it once")
			}
			stdinUsed = true
			continue
		}
		if a == "-" {
			// Standard input is not walked: a survey reads files and
			// directories, and a pipe the user names.
			return usagef("- (standard input) is read by survey --merge only: a survey reads files and directories; name a pipe instead (apstctl survey <(nvme id-ctrl /dev/nvme0)), or plan one capture on standard input with apstctl plan -")
		}
		if _, err := os.Stat(a); err != nil {
			if d := danglingLink(a); d != "" && errors.Is(err, fs.ErrNotExist) {
				return inputErr(fmt.Errorf("%s: %s", safeio.EscapeTerminal(a), safeio.EscapeTerminal(d)))
			}
			return inputErr(err)
		}
	}
	var configs []analysis.Config
	if !o.merge {
		var err error
		if configs, err = surveyConfigs(o.with); err != nil {
			return usagef("%v", err)
		}
		if r.survey, err = survey.NewWithOptions(survey.Options{KernelQuirks: o.kernelQuirks}, configs...); err != nil {
			return usagef("%v", err)
		}
	}

	noCapture := false
	report := func(w io.Writer) error {
		r.hold = &heldWriter{w: w, max: surveyHoldMax}
		bw := bufio.NewWriterSize(r.hold, 64<<10)
		r.out = o.persist.wrap(newSurveyOutput(o, bw), bw, o.format == "text")
		var err error
		if o.merge {
			err = r.merge(ctx, args, x.stdin)
		} else {
			err = r.surveyFiles(ctx, o, configs, args)
		}
		if err != nil {
			return err
		}
		if r.survey == nil || r.survey.Len() == 0 {
			// Refused: nothing of the report is written (no file, nothing
			// on standard output); the unreadable files go to standard
			// error.
			noCapture = true
			return inputErr(fmt.Errorf("no readable capture under %s", safeio.EscapeTerminal(strings.Join(args, " "))))
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		return r.hold.release()
	}
	withPlot := report
	if o.svg.path != "" {
		withPlot = func(w io.Writer) error {
			return writeFileOrFail("--svg", o.svg.path, func(sw io.Writer) error {
				names := make([]string, len(configs))
				for i, c := range configs {
					names[i] = c.Name
				}
				r.plot = newSVGPlot(sw, "apstctl survey: worst wake stall against deepest-state max power", names)
				if err := report(w); err != nil {
					return err
				}
				return r.plot.close()
			})
		}
	}
	var err error
	if file := o.file.file(); file != "" {
		err = writeFileOrFail("--output", file, withPlot)
	} else {
		err = withPlot(stdout)
	}
	r.endProgress()
	if noCapture || err == nil && o.format == "csv" {
		r.listUnreadable(stderr)
	}
	return err
}

// listUnreadable lists the unreadable files on standard error, for a
// report that does not (CSV) or is not written (no readable capture).
func (r *surveyRun) listUnreadable(stderr io.Writer) {
	for _, u := range r.unreadable.listed {
		fmt.Fprintf(stderr, "apstctl survey: unreadable: %s: %s\n", safeio.EscapeTerminal(u.Path), view.EscapeMessage(u.Error))
	}
	if n := r.unreadable.notListed(); n > 0 {
		fmt.Fprintf(stderr, "apstctl survey: and %d more unreadable files, not listed (the list keeps the first %d)\n", n, len(r.unreadable.listed))
	}
}

// summaryOnly is a report without its drives (--summary).
type summaryOnly struct{ surveyOutput }

func (summaryOnly) drive(*survey.Row, *surveySource) error { return nil }

// newSurveyOutput returns the writer of the format o asks for.
func newSurveyOutput(o *surveyOptions, w *bufio.Writer) surveyOutput {
	switch o.format {
	case "json":
		if o.summary {
			return summaryOnly{newSurveyJSON(w, o.full, false)}
		}
		return newSurveyJSON(w, o.full, false)
	case "ndjson":
		return newSurveyJSON(w, o.full, true)
	case "csv":
		return &surveyCSV{w: csv.NewWriter(w)}
	}
	return &surveyText{w: w, merged: o.merge, summary: o.summary}
}

// surveyCommand is "apstctl survey".
func surveyCommand() *command {
	fs := newFlagSet("survey")
	o := &surveyOptions{}
	fs.Var(&o.with, "with", "CONFIG", "a configuration: comma list of k=v as in compare, or policy=NAME (repeat; the first is the reference)")
	fs.Choice(&o.format, "output-format", "text", []string{"text", "normal", "json", "ndjson", "csv"}, "output format: text (normal), json, ndjson (one JSON object per line) or csv (one row per drive)")
	fs.Alias("o", "output-format")
	fs.Alias("format", "output-format")
	addOutputFile(fs, &o.file)
	fs.BoolVar(&o.summary, "summary", false, "the summary only, without a line per drive (text and JSON)")
	fs.BoolVar(&o.full, "full", false, "JSON: give each configuration's whole result per drive (the 32 entries, mode and params, as compare does)")
	fs.StringVar(&o.budget, "stall-budget", "DURATION", "", "largest accepted worst wake stall (25ms, 4600us): report the largest default bound that keeps every drive within it")
	fs.Var(&o.svg, "svg", "FILE", "also write a plot of worst wake stall against deepest-state max power, per drive and configuration, to FILE")
	fs.BoolVar(&o.kernelQuirks, "kernel-quirks", true, "add to each drive the APST quirks the kernel's tables give it (by VID, model, firmware, and PCI ID when the capture has one)")
	fs.BoolVar(&o.merge, "merge", false, "the arguments are JSON reports of surveys of shards of a fleet: report the survey of the whole fleet")
	fs.IntVar(&o.workers, "workers", "N", defaultSurveyWorkers(runtime.GOMAXPROCS(0)), "captures read and parsed at once")
	o.persist = addSurveyPersistFlags(fs)
	c := &command{
		name:      "survey",
		usageLine: "survey [flags] DIR...\n       apstctl survey --merge [flags] SHARD.json...",
		short:     "a fleet of captures through two or more configurations",
		long:      surveyLong,
		examples: []string{
			"survey testdata/corpus/smartctl",
			"survey --summary --stall-budget 25ms testdata/corpus/smartctl -o json",
			"survey --with policy=linux-default --with policy=windows-balanced-dc testdata/corpus",
		},
		flags:   fs,
		minArgs: 1, maxArgs: -1,
	}
	c.run = func(ctx context.Context, x *invocation, args []string) error {
		if o.format == "normal" {
			o.format = "text"
		}
		return o.run(ctx, x, args)
	}
	return c
}
