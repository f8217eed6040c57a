package main

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Default configurations of "apstctl survey" without --with: the Linux
// default bound against the proposed 25 ms.
var surveyDefaultConfigs = []string{"ps-max-latency-us=100000", "ps-max-latency-us=25000"}

// surveySkippedExts are the file name extensions "apstctl survey" skips
// without trying to parse: documentation, tables and images that sit next
// to captures in a collection (README.md, MANIFEST.tsv, a survey's own
// SVG). Every other file is tried, and listed as unreadable if it is not a
// capture.
var surveySkippedExts = map[string]bool{
	".md": true, ".markdown": true, ".rst": true, ".tsv": true, ".csv": true,
	".svg": true, ".html": true, ".htm": true, ".pdf": true, ".png": true,
	".jpg": true, ".jpeg": true, ".gif": true,
}

// surveySkips reports whether the walk skips an entry quietly: a hidden
// file or directory (name starting with "."), or a file with one of
// surveySkippedExts.
func surveySkips(name string, dir bool) bool {
	if strings.HasPrefix(name, ".") && name != "." && name != ".." {
		return true
	}
	return !dir && surveySkippedExts[strings.ToLower(filepath.Ext(name))]
}

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
func surveyConfigs(with []string) ([]apst.Config, error) {
	specs := with
	switch len(with) {
	case 0:
		specs = surveyDefaultConfigs
	case 1:
		specs = []string{surveyDefaultConfigs[0], with[0]}
	}
	base := apst.DefaultParams(apst.Current)
	configs := make([]apst.Config, 0, len(specs))
	for _, w := range specs {
		p, err := apst.ParseConfig(w, base)
		if err != nil {
			return nil, fmt.Errorf("--with %q: %w", w, err)
		}
		configs = append(configs, apst.Config{Name: w, Params: p})
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
	begin(configs []apst.Config) error
	drive(row *apst.SurveyRow, c *powerstate.Controller) error
	end(r *surveyRun) error
}

// surveyRun is the state of one "apstctl survey" run. Per drive it keeps
// only what apst.Survey keeps; each capture is dropped once it is reported.
type surveyRun struct {
	survey     *apst.Survey
	out        surveyOutput
	plot       *svgPlot
	budget     apst.Microseconds
	hasBudget  bool
	row        apst.SurveyRow
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
	r.survey, err = apst.NewSurveyWithOptions(apst.SurveyOptions{KernelQuirks: sf.kernelQuirks}, configs...)
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

// walk surveys every file under root (or root itself when it is a file),
// in lexical order.
func (r *surveyRun) walk(root string) {
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if r.err != nil {
			return fs.SkipAll
		}
		if err != nil {
			r.unreadable = append(r.unreadable, surveyUnreadable{Path: path, Error: err.Error()})
			return nil // a directory that cannot be read is skipped
		}
		if path != root && surveySkips(d.Name(), d.IsDir()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			r.skipped++
			return nil
		}
		if d.IsDir() {
			return nil
		}
		r.file(path)
		return nil
	})
}

// file reads, parses and surveys one capture.
func (r *surveyRun) file(path string) {
	c, err := readSurveyCapture(path)
	if err != nil {
		r.unreadable = append(r.unreadable, surveyUnreadable{Path: path, Error: err.Error()})
		return
	}
	if err := r.survey.AddInto(&r.row, path, &c); err != nil {
		r.unreadable = append(r.unreadable, surveyUnreadable{Path: path, Error: err.Error()})
		return
	}
	if err := r.out.drive(&r.row, &c); err != nil {
		r.err = err
		return
	}
	if r.plot != nil {
		r.plot.drive(&r.row)
	}
}

// readSurveyCapture opens a regular file of at most 1 MiB and parses it.
func readSurveyCapture(path string) (powerstate.Controller, error) {
	f, err := os.Open(path)
	if err != nil {
		return powerstate.Controller{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return powerstate.Controller{}, err
	}
	if !fi.Mode().IsRegular() {
		return powerstate.Controller{}, errors.New("not a regular file")
	}
	if fi.Size() > powerstate.MaxCaptureSize {
		return powerstate.Controller{}, fmt.Errorf("%d bytes: a capture is at most %d bytes", fi.Size(), powerstate.MaxCaptureSize)
	}
	return powerstate.Parse(f)
}

// surveyConfigJSON is a configuration's result for one drive: the object
// compare prints for each configuration.
func surveyConfigJSON(r *apst.ConfigResult) compareConfigJSON {
	return compareConfigJSON{
		Name: r.Config.Name, Sent: r.Plan.Sent, Enabled: r.Plan.Enabled, MaxPS: r.Plan.MaxPS,
		MaxRoundTripUS: uint64(r.Plan.MaxRoundTrip), Entries: r.Plan.Table,
		DeepestState: int(r.Reach.Deepest), WorstExitLatencyUS: uint64(r.Reach.WorstExitLatency),
		DeepestStateMaxPowerW: float64(r.DeepestMaxPower.MicroWatts()) / 1e6,
		Outcome:               r.Plan.Outcome.String(), Mode: r.Plan.Mode.String(), Params: r.Config.Params,
	}
}

type surveyChangeJSON struct {
	Config           int     `json:"config"`
	Changed          bool    `json:"changed"`
	StallReductionUS int64   `json:"stall_reduction_us"`
	IdlePowerDeltaMW float64 `json:"idle_power_delta_mw"`
	Bars             string  `json:"bars"`
	BarredStates     []int   `json:"barred_states"`
	GainedStates     []int   `json:"gained_states"`
}

type surveyDriveJSON struct {
	Path             string              `json:"path"`
	Model            string              `json:"model"`
	Firmware         string              `json:"firmware"`
	Vendor           string              `json:"vendor"`
	VendorID         string              `json:"vendor_id"`
	Format           string              `json:"format"`
	Quirks           string              `json:"quirks"`
	Changed          bool                `json:"changed"`
	Configs          []compareConfigJSON `json:"configs"`
	IdlePowerDeltaMW float64             `json:"idle_power_delta_mw"`
	Changes          []surveyChangeJSON  `json:"changes"`
}

func newSurveyDriveJSON(row *apst.SurveyRow, c *powerstate.Controller) surveyDriveJSON {
	d := surveyDriveJSON{
		Path: row.Name, Model: row.Model, Firmware: row.Firmware, Vendor: row.Vendor,
		VendorID: fmt.Sprintf("0x%04x", row.VendorID), Format: c.Format.String(),
		Quirks: row.Quirks.String(), Changed: row.Changed,
		Configs: make([]compareConfigJSON, len(row.Results)),
		Changes: make([]surveyChangeJSON, len(row.Changes)),
	}
	for i := range row.Results {
		d.Configs[i] = surveyConfigJSON(&row.Results[i])
	}
	for i, ch := range row.Changes {
		d.Changes[i] = surveyChangeJSON{
			Config: ch.Config, Changed: ch.Changed, StallReductionUS: ch.StallReduction,
			IdlePowerDeltaMW: ch.MilliWatts(), Bars: ch.Bars.String(),
			BarredStates: stateList(ch.Barred), GainedStates: stateList(ch.Gained),
		}
	}
	d.IdlePowerDeltaMW = d.Changes[0].IdlePowerDeltaMW
	return d
}

type surveyStallJSON struct {
	N      int   `json:"n"`
	Min    int64 `json:"min"`
	Median int64 `json:"median"`
	P90    int64 `json:"p90"`
	Max    int64 `json:"max"`
	Sum    int64 `json:"sum"`
}

type surveyPowerJSON struct {
	N      int     `json:"n"`
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	P90    float64 `json:"p90"`
	Max    float64 `json:"max"`
	Sum    float64 `json:"sum"`
	Mean   float64 `json:"mean"`
}

func stallJSON(d apst.Distribution) surveyStallJSON {
	return surveyStallJSON{N: d.N, Min: d.Min, Median: d.Median, P90: d.P90, Max: d.Max, Sum: d.Sum}
}

// powerJSON converts a distribution of µW to mW.
func powerJSON(d apst.Distribution) surveyPowerJSON {
	mw := func(v int64) float64 { return float64(v) / 1000 }
	return surveyPowerJSON{N: d.N, Min: mw(d.Min), Median: mw(d.Median), P90: mw(d.P90), Max: mw(d.Max),
		Sum: mw(d.Sum), Mean: d.Mean() / 1000}
}

type surveyVendorJSON struct {
	Vendor              string          `json:"vendor"`
	Drives              int             `json:"drives"`
	Changed             int             `json:"changed"`
	NoIdle              int             `json:"no_idle"`
	BarsNone            int             `json:"bars_none"`
	BarsSome            int             `json:"bars_some"`
	BarsAll             int             `json:"bars_all"`
	Gains               int             `json:"gains"`
	StallReductionUS    surveyStallJSON `json:"stall_reduction_us"`
	IdlePowerIncreaseMW surveyPowerJSON `json:"idle_power_increase_mw"`
}

type surveyComparisonJSON struct {
	Config              int                `json:"config"`
	Name                string             `json:"name"`
	Changed             int                `json:"changed"`
	Unchanged           int                `json:"unchanged"`
	NoIdle              int                `json:"no_idle"`
	BarsNone            []string           `json:"bars_none"`
	BarsSome            int                `json:"bars_some"`
	BarsAll             []string           `json:"bars_all"`
	Gains               int                `json:"gains"`
	StallReductionUS    surveyStallJSON    `json:"stall_reduction_us"`
	IdlePowerIncreaseMW surveyPowerJSON    `json:"idle_power_increase_mw"`
	ByVendor            []surveyVendorJSON `json:"by_vendor"`
}

type surveyRangeJSON struct {
	MinUS uint64 `json:"min_us"`
	MaxUS uint64 `json:"max_us"`
}

type surveyBudgetJSON struct {
	BudgetUS            uint64            `json:"budget_us"`
	BoundUS             uint64            `json:"bound_us"`
	Acceptable          []surveyRangeJSON `json:"acceptable"`
	Binding             []string          `json:"binding"`
	Changed             int               `json:"changed"`
	LosesAll            []string          `json:"loses_all"`
	StallReductionUS    surveyStallJSON   `json:"stall_reduction_us"`
	IdlePowerIncreaseMW surveyPowerJSON   `json:"idle_power_increase_mw"`
	Params              apst.Params       `json:"params"`
}

type surveyConfigNameJSON struct {
	Name   string      `json:"name"`
	Params apst.Params `json:"params"`
}

type surveySummaryJSON struct {
	Drives          int                    `json:"drives"`
	Changed         int                    `json:"changed"`
	UnreadableFiles int                    `json:"unreadable_files"`
	SkippedFiles    int                    `json:"skipped_files"`
	KernelQuirks    bool                   `json:"kernel_quirks"`
	Configs         []surveyConfigNameJSON `json:"configs"`
	Comparisons     []surveyComparisonJSON `json:"comparisons"`
	StallBudget     *surveyBudgetJSON      `json:"stall_budget,omitempty"`
}

func newSurveySummaryJSON(r *surveyRun) surveySummaryJSON {
	sum := r.survey.Summary()
	out := surveySummaryJSON{
		Drives: sum.Drives, Changed: sum.Changed, UnreadableFiles: len(r.unreadable), SkippedFiles: r.skipped,
		KernelQuirks: r.survey.Options().KernelQuirks,
		Configs:      make([]surveyConfigNameJSON, len(sum.Configs)),
		Comparisons:  make([]surveyComparisonJSON, len(sum.Comparisons)),
	}
	for i, c := range sum.Configs {
		out.Configs[i] = surveyConfigNameJSON{Name: c.Name, Params: c.Params}
	}
	for i, c := range sum.Comparisons {
		cj := surveyComparisonJSON{
			Config: c.Config, Name: c.Name, Changed: c.Changed, Unchanged: c.Drives - c.Changed,
			NoIdle: c.NoIdle, BarsNone: c.BarsNone, BarsSome: c.BarsSome, BarsAll: c.BarsAll, Gains: c.Gains,
			StallReductionUS: stallJSON(c.StallReduction), IdlePowerIncreaseMW: powerJSON(c.IdlePowerIncrease),
			ByVendor: make([]surveyVendorJSON, len(c.Vendors)),
		}
		for j, v := range c.Vendors {
			cj.ByVendor[j] = surveyVendorJSON{
				Vendor: v.Vendor, Drives: v.Drives, Changed: v.Changed, NoIdle: v.NoIdle,
				BarsNone: v.BarsNone, BarsSome: v.BarsSome, BarsAll: v.BarsAll, Gains: v.Gains,
				StallReductionUS: stallJSON(v.StallReduction), IdlePowerIncreaseMW: powerJSON(v.IdlePowerIncrease),
			}
		}
		out.Comparisons[i] = cj
	}
	if r.hasBudget {
		b := r.survey.StallBudget(r.budget)
		bj := &surveyBudgetJSON{
			BudgetUS: uint64(b.Budget), BoundUS: uint64(b.Bound), Binding: b.Binding, Changed: b.Changed,
			LosesAll: b.LosesAll, StallReductionUS: stallJSON(b.StallReduction),
			IdlePowerIncreaseMW: powerJSON(b.IdlePowerIncrease), Params: b.Params,
		}
		for _, rg := range b.Acceptable {
			bj.Acceptable = append(bj.Acceptable, surveyRangeJSON{MinUS: uint64(rg.Min), MaxUS: uint64(rg.Max)})
		}
		out.StallBudget = bj
	}
	return out
}

// surveyJSON streams {"drives":[...],"summary":{...},"unreadable":[...]},
// one drive per line.
type surveyJSON struct {
	w   *bufio.Writer
	n   int
	buf []byte
}

func (j *surveyJSON) begin([]apst.Config) error {
	_, err := j.w.WriteString("{\"drives\":[")
	return err
}

func (j *surveyJSON) drive(row *apst.SurveyRow, c *powerstate.Controller) error {
	d := newSurveyDriveJSON(row, c)
	var err error
	j.buf, err = appendSurveyDriveJSON(j.buf[:0], &d)
	if err != nil {
		return err
	}
	if j.n > 0 {
		j.w.WriteByte(',')
	}
	j.n++
	j.w.WriteString("\n")
	_, err = j.w.Write(j.buf)
	return err
}

// appendSurveyDriveJSON appends what json.Marshal(d) writes, byte for byte
// (a test checks it on the whole corpus), without reflection: the 32 table
// entries of every configuration are most of a survey's output.
func appendSurveyDriveJSON(b []byte, d *surveyDriveJSON) ([]byte, error) {
	var err error
	str := func(key, v string) {
		b = append(b, key...)
		if err == nil {
			b, err = appendJSONValue(b, v)
		}
	}
	str(`{"path":`, d.Path)
	str(`,"model":`, d.Model)
	str(`,"firmware":`, d.Firmware)
	str(`,"vendor":`, d.Vendor)
	str(`,"vendor_id":`, d.VendorID)
	str(`,"format":`, d.Format)
	str(`,"quirks":`, d.Quirks)
	b = append(b, `,"changed":`...)
	b = strconv.AppendBool(b, d.Changed)
	b = append(b, `,"configs":[`...)
	for i := range d.Configs {
		c := &d.Configs[i]
		if i > 0 {
			b = append(b, ',')
		}
		str(`{"name":`, c.Name)
		b = append(b, `,"sent":`...)
		b = strconv.AppendBool(b, c.Sent)
		b = append(b, `,"enabled":`...)
		b = strconv.AppendBool(b, c.Enabled)
		b = append(b, `,"max_ps":`...)
		b = strconv.AppendInt(b, int64(c.MaxPS), 10)
		b = append(b, `,"max_round_trip_us":`...)
		b = strconv.AppendUint(b, c.MaxRoundTripUS, 10)
		b = append(b, `,"entries":`...)
		b = appendTableJSON(b, &c.Entries)
		b = append(b, `,"deepest_state":`...)
		b = strconv.AppendInt(b, int64(c.DeepestState), 10)
		b = append(b, `,"worst_exit_latency_us":`...)
		b = strconv.AppendUint(b, c.WorstExitLatencyUS, 10)
		b = append(b, `,"deepest_state_max_power_w":`...)
		b = appendJSONFloat(b, c.DeepestStateMaxPowerW)
		str(`,"outcome":`, c.Outcome)
		str(`,"mode":`, c.Mode)
		b = append(b, `,"params":`...)
		if err == nil {
			b, err = appendJSONValue(b, c.Params)
		}
		b = append(b, '}')
	}
	b = append(b, `],"idle_power_delta_mw":`...)
	b = appendJSONFloat(b, d.IdlePowerDeltaMW)
	b = append(b, `,"changes":[`...)
	for i := range d.Changes {
		ch := &d.Changes[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"config":`...)
		b = strconv.AppendInt(b, int64(ch.Config), 10)
		b = append(b, `,"changed":`...)
		b = strconv.AppendBool(b, ch.Changed)
		b = append(b, `,"stall_reduction_us":`...)
		b = strconv.AppendInt(b, ch.StallReductionUS, 10)
		b = append(b, `,"idle_power_delta_mw":`...)
		b = appendJSONFloat(b, ch.IdlePowerDeltaMW)
		str(`,"bars":`, ch.Bars)
		b = append(b, `,"barred_states":`...)
		b = appendIntsJSON(b, ch.BarredStates)
		b = append(b, `,"gained_states":`...)
		b = appendIntsJSON(b, ch.GainedStates)
		b = append(b, '}')
	}
	b = append(b, "]}"...)
	return b, err
}

// appendJSONValue appends json.Marshal(v).
func appendJSONValue(b []byte, v any) ([]byte, error) {
	j, err := json.Marshal(v)
	return append(b, j...), err
}

// appendJSONFloat appends f as encoding/json writes a float64.
func appendJSONFloat(b []byte, f float64) []byte {
	if a := math.Abs(f); a == 0 || (a >= 1e-6 && a < 1e21) {
		return strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	j, _ := json.Marshal(f) // exponent form; f is never NaN or infinite here
	return append(b, j...)
}

// appendIntsJSON appends a list of small integers ("[]" when empty).
func appendIntsJSON(b []byte, vs []int) []byte {
	b = append(b, '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return append(b, ']')
}

// appendTableJSON appends what apst.Table's MarshalJSON writes: 32 objects
// {"state":N,"value":"0x%016x","target_state":N,"idle_time_ms":N}.
func appendTableJSON(b []byte, t *apst.Table) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '[')
	for i, e := range t {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"state":`...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, `,"value":"0x`...)
		for sh := 60; sh >= 0; sh -= 4 {
			b = append(b, hex[uint64(e)>>uint(sh)&0xf])
		}
		b = append(b, `","target_state":`...)
		b = strconv.AppendUint(b, uint64(e.TargetState()), 10)
		b = append(b, `,"idle_time_ms":`...)
		b = strconv.AppendUint(b, uint64(e.IdleTime()), 10)
		b = append(b, '}')
	}
	return append(b, ']')
}

func (j *surveyJSON) end(r *surveyRun) error {
	sum, err := json.MarshalIndent(newSurveySummaryJSON(r), "", "  ")
	if err != nil {
		return err
	}
	un := r.unreadable
	if un == nil {
		un = []surveyUnreadable{}
	}
	unb, err := json.MarshalIndent(un, "", "  ")
	if err != nil {
		return err
	}
	if j.n > 0 {
		j.w.WriteString("\n")
	}
	j.w.WriteString("],\n\"summary\":")
	j.w.Write(sum)
	j.w.WriteString(",\n\"unreadable\":")
	j.w.Write(unb)
	_, err = j.w.WriteString("}\n")
	return err
}

// surveyCSV writes one row per drive.
type surveyCSV struct {
	w *csv.Writer
}

func (s *surveyCSV) begin(configs []apst.Config) error {
	h := []string{"path", "vendor", "vendor_id", "model", "firmware", "format", "quirks", "changed"}
	for i := range configs {
		p := "c" + strconv.Itoa(i+1) + "_"
		h = append(h, p+"enabled", p+"max_ps", p+"deepest_state", p+"worst_exit_latency_us", p+"deepest_state_max_power_w")
	}
	for k := 1; k < len(configs); k++ {
		p := "c" + strconv.Itoa(k+1) + "_"
		h = append(h, p+"stall_reduction_us", p+"idle_power_delta_mw", p+"bars", p+"barred_states")
	}
	return s.w.Write(h)
}

func (s *surveyCSV) drive(row *apst.SurveyRow, c *powerstate.Controller) error {
	rec := []string{row.Name, row.Vendor, fmt.Sprintf("0x%04x", row.VendorID), row.Model, row.Firmware,
		c.Format.String(), row.Quirks.String(), strconv.FormatBool(row.Changed)}
	for i := range row.Results {
		r := &row.Results[i]
		rec = append(rec, strconv.FormatBool(r.Plan.Enabled), strconv.Itoa(r.Plan.MaxPS), strconv.Itoa(int(r.Reach.Deepest)),
			strconv.FormatUint(uint64(r.Reach.WorstExitLatency), 10),
			strconv.FormatFloat(float64(r.DeepestMaxPower.MicroWatts())/1e6, 'f', -1, 64))
	}
	for _, ch := range row.Changes {
		rec = append(rec, strconv.FormatInt(ch.StallReduction, 10), strconv.FormatFloat(ch.MilliWatts(), 'f', -1, 64),
			ch.Bars.String(), apst.FormatStates(ch.Barred))
	}
	return s.w.Write(rec)
}

func (s *surveyCSV) end(*surveyRun) error {
	s.w.Flush()
	return s.w.Error()
}

// surveyText writes the report for people: a line per drive as it comes,
// then the summary.
type surveyText struct {
	w       *bufio.Writer
	configs int
}

func (t *surveyText) begin(configs []apst.Config) error {
	t.configs = len(configs)
	for i, c := range configs {
		fmt.Fprintf(t.w, "[%d] %s: %s\n", i+1, c.Name, describeParams(&c.Params))
	}
	fmt.Fprintln(t.w, "\nPer drive, under each configuration: deepest reachable state, worst wake stall, its max power;")
	fmt.Fprintln(t.w, "then the idle power change against [1]. * = the table changes.")
	fmt.Fprintln(t.w)
	fmt.Fprintf(t.w, "  %-15s", "vendor")
	for i := range configs {
		fmt.Fprintf(t.w, "  %-24s", fmt.Sprintf("[%d]", i+1))
	}
	for k := 1; k < len(configs); k++ {
		fmt.Fprintf(t.w, "  %12s", fmt.Sprintf("[%d]-[1]", k+1))
	}
	_, err := fmt.Fprintln(t.w, "  capture")
	return err
}

func (t *surveyText) drive(row *apst.SurveyRow, _ *powerstate.Controller) error {
	mark := " "
	if row.Changed {
		mark = "*"
	}
	fmt.Fprintf(t.w, "%s %-15s", mark, row.Vendor)
	for i := range row.Results {
		r := &row.Results[i]
		fmt.Fprintf(t.w, "  ps%-2d %9s %11s", r.Reach.Deepest, r.Reach.WorstExitLatency, r.DeepestMaxPower)
	}
	for _, ch := range row.Changes {
		fmt.Fprintf(t.w, "  %+9.1f mW", ch.MilliWatts())
	}
	_, err := fmt.Fprintf(t.w, "  %s\n", row.Name)
	return err
}

// textListMax bounds the drive lists the text report prints in full.
const textListMax = 20

func (t *surveyText) end(r *surveyRun) error {
	w := t.w
	sum := r.survey.Summary()
	fmt.Fprintf(w, "\n%d drives surveyed; %d unreadable files, %d skipped by name", sum.Drives, len(r.unreadable), r.skipped)
	if r.survey.Options().KernelQuirks {
		fmt.Fprintln(w, "; kernel quirks applied")
	} else {
		fmt.Fprintln(w, "; kernel quirks not applied")
	}
	for _, u := range r.unreadable {
		fmt.Fprintf(w, "  unreadable: %s: %s\n", u.Path, u.Error)
	}
	list := func(label string, names []string) {
		fmt.Fprintf(w, "  %s: %d drives\n", label, len(names))
		for i, n := range names {
			if i == textListMax {
				fmt.Fprintf(w, "      ... and %d more (all in --format json)\n", len(names)-textListMax)
				break
			}
			fmt.Fprintf(w, "      %s\n", n)
		}
	}
	for _, c := range sum.Comparisons {
		fmt.Fprintf(w, "\n[%d] %s against [1] %s:\n", c.Config+1, c.Name, sum.Configs[0].Name)
		fmt.Fprintf(w, "  the table changes on %d of %d drives (%d unchanged)\n", c.Changed, c.Drives, c.Drives-c.Changed)
		fmt.Fprintf(w, "  worst wake stall reduction, changed drives:  %s\n", formatStallDist(c.StallReduction))
		fmt.Fprintf(w, "  idle power increase, changed drives:         %s\n", formatPowerDist(c.IdlePowerIncrease))
		list("bars every non-operational state [1] reaches", c.BarsAll)
		fmt.Fprintf(w, "  bars some of them: %d drives\n", c.BarsSome)
		list("bars none of them", c.BarsNone)
		fmt.Fprintf(w, "  reach no non-operational state under [1]: %d drives; reach a state [1] does not: %d drives\n", c.NoIdle, c.Gains)
		fmt.Fprintln(w, "  by vendor (PCI vendor ID, else the model's first word):")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "    vendor\tdrives\tchanged\tbars all\tbars none\tstall cut median us\tmax us\tpower median mW\tmax mW\ttotal mW\t")
		for _, v := range c.Vendors {
			fmt.Fprintf(tw, "    %s\t%d\t%d\t%d\t%d\t%d\t%d\t%+.1f\t%+.1f\t%+.1f\t\n", v.Vendor, v.Drives, v.Changed, v.BarsAll, v.BarsNone,
				v.StallReduction.Median, v.StallReduction.Max, mW(v.IdlePowerIncrease.Median), mW(v.IdlePowerIncrease.Max), mW(v.IdlePowerIncrease.Sum))
		}
		tw.Flush()
	}
	if r.hasBudget {
		b := r.survey.StallBudget(r.budget)
		fmt.Fprintf(w, "\nStall budget %s, bound varied under [1]'s other parameters:\n", b.Budget)
		var rs []string
		for _, rg := range b.Acceptable {
			rs = append(rs, rg.String())
		}
		fmt.Fprintf(w, "  largest default bound that keeps every drive's worst wake stall within %s: %s (acceptable: %s)\n",
			b.Budget, b.Bound, strings.Join(rs, ", "))
		list("drives that set it (over budget one microsecond above)", b.Binding)
		fmt.Fprintf(w, "  at %s against [1]: the table changes on %d of %d drives\n", b.Bound, b.Changed, b.Drives)
		fmt.Fprintf(w, "  worst wake stall reduction, changed drives:  %s\n", formatStallDist(b.StallReduction))
		fmt.Fprintf(w, "  idle power increase, changed drives:         %s\n", formatPowerDist(b.IdlePowerIncrease))
		list("left with no reachable non-operational state", b.LosesAll)
	}
	_, err := fmt.Fprintln(w)
	return err
}

func mW(uw int64) float64 { return float64(uw) / 1000 }

func formatStallDist(d apst.Distribution) string {
	if d.N == 0 {
		return "none"
	}
	return fmt.Sprintf("min %dus, median %dus, p90 %dus, max %dus", d.Min, d.Median, d.P90, d.Max)
}

func formatPowerDist(d apst.Distribution) string {
	if d.N == 0 {
		return "none"
	}
	return fmt.Sprintf("min %+.1f mW, median %+.1f mW, p90 %+.1f mW, max %+.1f mW; total %+.1f mW (mean %+.1f mW)",
		mW(d.Min), mW(d.Median), mW(d.P90), mW(d.Max), mW(d.Sum), d.Mean()/1000)
}
