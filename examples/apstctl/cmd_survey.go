package main

import (
	"bufio"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/survey"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Default configurations of "apstctl survey" without --with: the Linux
// default bound against the proposed 25 ms.
var surveyDefaultConfigs = []string{"ps-max-latency-us=100000", "ps-max-latency-us=25000"}

const surveyUsage = `usage: apstctl survey [--with CFG]... [--format text|json|csv] [--stall-budget 25ms] [--svg FILE] DIR...

Runs every capture under the directories (recursively; any format, mixed: 4096-byte Identify images,
nvme id-ctrl text or JSON, smartctl text or JSON) through two or more configurations and reports, per
drive, the deepest reachable state, the worst wake stall and the deepest state's max power under each,
and for the fleet how many drives change, the spread of the stall reduction and of the idle power
increase, by vendor, and the drives where the change bars every non-operational state or none.

Each --with is a configuration as in compare: a comma list of the plan flags without dashes
(ps-max-latency-us=25000,kernel=v4.12, ...) or policy=NAME (linux-default, linux-25ms,
windows-balanced-dc, ...), on top of the Linux v5.14+ defaults. The first is the reference. Without
--with: ps-max-latency-us=100000 against ps-max-latency-us=25000; with one --with: the Linux default
against it. Each drive also gets the quirks the kernel's tables give it (see --kernel-quirks).

Files are read one at a time in lexical order (arguments in the order given), each at most 1 MiB.
Hidden files and directories and files named *.md, *.markdown, *.rst, *.tsv, *.csv, *.svg, *.html,
*.htm, *.pdf, *.png, *.jpg, *.jpeg, *.gif are skipped without a word; every other file that is not a
readable capture is listed as unreadable with the reason (a symbolic link to a directory is not
followed: it is "not a regular file"). A DIR argument may also be a single file.

--stall-budget answers the inverse question: the largest bound (under the first configuration's
other parameters) that keeps every drive's worst wake stall within the budget, and what it costs in
idle power against the first configuration. CSV holds the per-drive rows only; the summary and the
budget are in text and JSON.

Flags:
`

// surveyFlags holds the parsed command line of "apstctl survey".
type surveyFlags struct {
	with         withFlags
	format       string
	budget       string
	svg          string
	kernelQuirks bool
	dirs         []string
}

// parseSurveyFlags parses args, with flags allowed after the directories.
func parseSurveyFlags(args []string, stderr io.Writer) (*surveyFlags, int, bool) {
	sf := &surveyFlags{}
	fs := flag.NewFlagSet("survey", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Var(&sf.with, "with", "a configuration: comma list of k=v as in compare, or policy=NAME (repeat; the first is the reference)")
	fs.StringVar(&sf.format, "format", "text", "output format: text, json or csv (one row per drive)")
	fs.StringVar(&sf.budget, "stall-budget", "", "largest accepted worst wake stall (25ms, 4600us or µs): report the largest default bound that keeps every drive within it")
	fs.StringVar(&sf.svg, "svg", "", "also write a plot of worst wake stall against deepest-state max power, per drive and configuration, to this file")
	fs.BoolVar(&sf.kernelQuirks, "kernel-quirks", true, "add to each drive the APST quirks the kernel's tables give it (by VID, model, firmware, and PCI ID when the capture has one)")
	fs.Usage = func() {
		fmt.Fprint(stderr, surveyUsage)
		fs.PrintDefaults()
	}
	for {
		if err := fs.Parse(args); err != nil {
			return nil, exitForParse(err), false
		}
		if fs.NArg() == 0 {
			break
		}
		sf.dirs = append(sf.dirs, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(sf.dirs) == 0 {
		fmt.Fprintln(stderr, "apstctl survey: want at least one DIR")
		fs.Usage()
		return nil, exitUsage, false
	}
	return sf, exitOK, true
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

// surveyUnreadable is a file the survey could not use.
type surveyUnreadable struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

// surveyOutput writes the report as the drives come.
type surveyOutput interface {
	begin(configs []analysis.Config) error
	drive(row *survey.Row, c *powerstate.Controller) error
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
	row        survey.Row
	unreadable []surveyUnreadable
	skipped    int
	err        error // an output error: stops the walk
}

// runSurvey is "apstctl survey": a fleet of captures through two or more
// configurations.
func runSurvey(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	_ = stdin
	sf, code, ok := parseSurveyFlags(args, stderr)
	if !ok {
		return code
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "apstctl survey: %v\n", err)
		return exitUsage
	}
	configs, err := surveyConfigs(sf.with)
	if err != nil {
		return fail(err)
	}
	r := &surveyRun{}
	if sf.budget != "" {
		b, err := apst.ParseMicroseconds(sf.budget)
		if err != nil {
			return fail(fmt.Errorf("--stall-budget: %w", err))
		}
		r.budget, r.hasBudget = b, true
	}
	bw := bufio.NewWriter(stdout)
	switch sf.format {
	case "text":
		r.out = &surveyText{w: bw}
	case "json":
		r.out = &surveyJSON{w: bw}
	case "csv":
		r.out = &surveyCSV{w: csv.NewWriter(bw)}
	default:
		return fail(fmt.Errorf("--format %s: want text, json or csv", strconv.Quote(sf.format)))
	}
	for _, d := range sf.dirs {
		if _, err := os.Stat(d); err != nil {
			return fail(err)
		}
	}
	r.survey, err = survey.NewWithOptions(survey.Options{KernelQuirks: sf.kernelQuirks}, configs...)
	if err != nil {
		return fail(err)
	}
	var svgFile *os.File
	if sf.svg != "" {
		svgFile, err = os.Create(sf.svg)
		if err != nil {
			return fail(fmt.Errorf("--svg: %w", err))
		}
		defer svgFile.Close() // on an early return; closed and checked below otherwise
		names := make([]string, len(configs))
		for i, c := range configs {
			names[i] = c.Name
		}
		r.plot = newSVGPlot(svgFile, "apstctl survey: worst wake stall against deepest-state max power", names)
	}

	if err := r.out.begin(configs); err != nil {
		return r.outputFailed(stderr, err)
	}
	for _, d := range sf.dirs {
		r.walk(d)
		if r.err != nil {
			return r.outputFailed(stderr, r.err)
		}
	}
	if err := r.out.end(r); err != nil {
		return r.outputFailed(stderr, err)
	}
	if err := bw.Flush(); err != nil {
		return r.outputFailed(stderr, err)
	}
	if r.plot != nil {
		err := r.plot.close()
		if cerr := svgFile.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			fmt.Fprintf(stderr, "apstctl survey: --svg: %v\n", err)
			return exitFailure
		}
	}
	if sf.format == "csv" {
		for _, u := range r.unreadable {
			fmt.Fprintf(stderr, "apstctl survey: unreadable: %s: %s\n", u.Path, u.Error)
		}
	}
	if r.survey.Len() == 0 {
		fmt.Fprintf(stderr, "apstctl survey: no readable capture under %s\n", strings.Join(sf.dirs, " "))
		return exitUsage
	}
	return exitOK
}

func (r *surveyRun) outputFailed(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "apstctl survey: %v\n", err)
	return exitFailure
}
