package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// analysisCommand is the flag handling the analysis commands share: the plan
// flags, --format, one CAPTURE argument, and flags allowed before and after
// it ("apstctl compare CAPTURE --with ... --with ...").
type analysisCommand struct {
	name   string
	fs     *flag.FlagSet
	pf     *planFlags
	format *string
	stderr io.Writer
}

func newAnalysisCommand(name, synopsis, description string, stderr io.Writer) *analysisCommand {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	a := &analysisCommand{name: name, fs: fs, pf: addPlanFlags(fs), stderr: stderr}
	a.format = fs.String("format", "text", "output format: text or json")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: apstctl %s %s\n\n%s\n\nFlags:\n", name, synopsis, description)
		fs.PrintDefaults()
	}
	return a
}

// fail prints an error naming the command and returns the usage status.
func (a *analysisCommand) fail(err error) int {
	fmt.Fprintf(a.stderr, "apstctl %s: %v\n", a.name, err)
	return exitUsage
}

// parse parses args (flags may follow the capture), loads the capture and
// derives the kernel parameters from the plan flags. On failure it has
// already reported and returns the exit status with ok false.
func (a *analysisCommand) parse(args []string, stdin io.Reader) (c *powerstate.Controller, p apst.Params, code int, ok bool) {
	var pos []string
	for {
		if err := a.fs.Parse(args); err != nil {
			return nil, p, exitForParse(err), false
		}
		if a.fs.NArg() == 0 {
			break
		}
		pos = append(pos, a.fs.Arg(0))
		args = a.fs.Args()[1:]
	}
	if len(pos) != 1 {
		fmt.Fprintf(a.stderr, "apstctl %s: want 1 argument (CAPTURE), got %d %q\n", a.name, len(pos), pos)
		a.fs.Usage()
		return nil, p, exitUsage, false
	}
	if err := formatFlag(*a.format); err != nil {
		return nil, p, a.fail(err), false
	}
	c, err := loadController(pos[0], stdin)
	if err != nil {
		return nil, p, a.fail(err), false
	}
	p, err = a.pf.params(c)
	if err != nil {
		return nil, p, a.fail(err), false
	}
	return c, p, exitOK, true
}

// writeJSON writes v indented.
func (a *analysisCommand) writeJSON(w io.Writer, v any) int {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(a.stderr, "apstctl %s: %v\n", a.name, err)
		return exitFailure
	}
	return exitOK
}

// compactTable describes the non-zero entries of a table, grouping equal
// neighbours: "ps0-2 ->ps3@100ms, ps3 ->ps4@2000ms", or "-" when empty.
func compactTable(t *apst.Table, n int) string {
	var parts []string
	for s := 0; s < n; {
		e := t[s]
		end := s
		for end+1 < n && t[end+1] == e {
			end++
		}
		if e != 0 {
			if end > s {
				parts = append(parts, fmt.Sprintf("ps%d-%d %s", s, end, e))
			} else {
				parts = append(parts, fmt.Sprintf("ps%d %s", s, e))
			}
		}
		s = end + 1
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}

// describeParamsNoBound is describeParams without the bound, for commands
// that vary it.
func describeParamsNoBound(p *apst.Params) string {
	s := describeParams(p)
	bound := ", bound " + p.Bound.String()
	return strings.Replace(s, bound, "", 1)
}

// stateList returns a state bit set as a sorted list of indices.
func stateList(set apst.States) []int {
	out := []int{}
	for s := range set.All() {
		out = append(out, int(s))
	}
	return out
}

type sweepIntervalJSON struct {
	MinUS              uint64     `json:"min_us"`
	MaxUS              uint64     `json:"max_us"`
	MaxPS              int        `json:"max_ps"`
	WorstExitLatencyUS uint64     `json:"worst_exit_latency_us"`
	Entries            apst.Table `json:"entries"`
	Sent               bool       `json:"sent"`
	Enabled            bool       `json:"enabled"`
	MaxRoundTripUS     uint64     `json:"max_round_trip_us"`
	DeepestState       int        `json:"deepest_state"`
	ReachableStates    []int      `json:"reachable_states"`
}

type sweepJSON struct {
	Intervals []sweepIntervalJSON `json:"intervals"`
	Params    apst.Params         `json:"params"`
}

// runSweep is "apstctl sweep": the exact partition of the bound range into
// intervals that give the same table.
func runSweep(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := newAnalysisCommand("sweep", "[flags] CAPTURE",
		"Partitions every bound ps_max_latency_us (0 to 2^64-1) into the maximal intervals that give the\n"+
			"same APST table, with each interval's max PS and worst-case exit latency. The bound flags are ignored.",
		stderr)
	c, p, code, ok := a.parse(args, stdin)
	if !ok {
		return code
	}
	sw, err := analysis.Sweep(c, p)
	if err != nil {
		return a.fail(err)
	}
	if *a.format == "json" {
		out := sweepJSON{Intervals: make([]sweepIntervalJSON, len(sw.Intervals)), Params: p}
		for i, iv := range sw.Intervals {
			out.Intervals[i] = sweepIntervalJSON{
				MinUS: uint64(iv.Min), MaxUS: uint64(iv.Max), MaxPS: iv.MaxPS(),
				WorstExitLatencyUS: uint64(iv.Reach.WorstExitLatency), Entries: iv.Plan.Table,
				Sent: iv.Plan.Sent, Enabled: iv.Plan.Enabled, MaxRoundTripUS: uint64(iv.Plan.MaxRoundTrip),
				DeepestState: int(iv.Reach.Deepest), ReachableStates: stateList(iv.Reach.States),
			}
		}
		return a.writeJSON(stdout, out)
	}
	fmt.Fprintln(stdout, describeController(c))
	fmt.Fprintln(stdout, describeParamsNoBound(&p)+"; every bound from 0 to 2^64-1:")
	fmt.Fprintln(stdout)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "bound us\tmax_ps\tdeepest\tworst exit\ttable")
	for _, iv := range sw.Intervals {
		table := compactTable(&iv.Plan.Table, c.StateCount())
		switch {
		case !iv.Plan.Sent:
			table = "nothing sent (" + iv.Plan.Outcome.String() + ")"
		case !iv.Plan.Enabled:
			table = "APST off (APSTE=0)"
		case iv.Plan.Outcome == apst.OutcomeNoStates:
			table = "APSTE=1, no state qualifies"
		}
		fmt.Fprintf(tw, "%s\t%d\tps%d\t%s\t%s\n", analysis.BoundRange{Min: iv.Min, Max: iv.Max},
			iv.MaxPS(), iv.Reach.Deepest, iv.Reach.WorstExitLatency, table)
	}
	tw.Flush()
	return exitOK
}
