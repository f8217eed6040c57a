package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
)

// withFlags collects the repeated --with values.
type withFlags []string

func (w *withFlags) String() string { return strings.Join(*w, " ") }

func (w *withFlags) Set(s string) error {
	*w = append(*w, s)
	return nil
}

type compareConfigJSON struct {
	Name                  string      `json:"name"`
	Sent                  bool        `json:"sent"`
	Enabled               bool        `json:"enabled"`
	MaxPS                 int         `json:"max_ps"`
	MaxRoundTripUS        uint64      `json:"max_round_trip_us"`
	Entries               apst.Table  `json:"entries"`
	DeepestState          int         `json:"deepest_state"`
	WorstExitLatencyUS    uint64      `json:"worst_exit_latency_us"`
	DeepestStateMaxPowerW float64     `json:"deepest_state_max_power_w"`
	Outcome               string      `json:"outcome"`
	Mode                  string      `json:"mode"`
	Params                apst.Params `json:"params"`
}

type compareDifferenceJSON struct {
	Config int    `json:"config"`
	Field  string `json:"field"`
	State  *int   `json:"state,omitempty"`
	From   string `json:"from"`
	To     string `json:"to"`
}

type compareJSON struct {
	Configs          []compareConfigJSON     `json:"configs"`
	IdlePowerDeltaMW float64                 `json:"idle_power_delta_mw"`
	Differences      []compareDifferenceJSON `json:"differences"`
}

// runCompare is "apstctl compare": two or more configurations side by side.
func runCompare(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := newAnalysisCommand("compare", "[flags] CAPTURE --with 'k=v,...' --with 'k=v,...'",
		"Compares the APST tables of two or more configurations. Each --with is a comma list of the plan\n"+
			"flags without dashes (ps-max-latency-us=25000,kernel=v4.12, ...) or policy=NAME (linux-default,\n"+
			"linux-25ms, windows-balanced-dc, ...), applied on top of the other flags. With a single --with,\n"+
			"the other flags alone are the first configuration.",
		stderr)
	var with withFlags
	a.fs.Var(&with, "with", "a configuration to compare: comma list of k=v (repeat)")
	c, base, code, ok := a.parse(args, stdin)
	if !ok {
		return code
	}
	if len(with) == 0 {
		return a.fail(errors.New("give at least one --with (two to compare them with each other)"))
	}
	var configs []analysis.Config
	if len(with) == 1 {
		configs = append(configs, analysis.Config{Name: "flags", Params: base})
	}
	for _, w := range with {
		p, err := apst.ParseConfig(w, base)
		if err != nil {
			return a.fail(fmt.Errorf("--with %q: %w", w, err))
		}
		configs = append(configs, analysis.Config{Name: w, Params: p})
	}
	cmp, err := analysis.Compare(c, configs...)
	if err != nil {
		return a.fail(err)
	}
	if *a.format == "json" {
		out := compareJSON{
			Configs:          make([]compareConfigJSON, len(cmp.Configs)),
			IdlePowerDeltaMW: cmp.PowerDelta.MilliWatts(),
			Differences:      []compareDifferenceJSON{},
		}
		for i, r := range cmp.Configs {
			out.Configs[i] = compareConfigJSON{
				Name: r.Config.Name, Sent: r.Plan.Sent, Enabled: r.Plan.Enabled, MaxPS: r.Plan.MaxPS,
				MaxRoundTripUS: uint64(r.Plan.MaxRoundTrip), Entries: r.Plan.Table,
				DeepestState: int(r.Reach.Deepest), WorstExitLatencyUS: uint64(r.Reach.WorstExitLatency),
				DeepestStateMaxPowerW: float64(r.DeepestMaxPower.MicroWatts()) / 1e6,
				Outcome:               r.Plan.Outcome.String(), Mode: r.Plan.Mode.String(), Params: r.Config.Params,
			}
		}
		for _, d := range cmp.Differences {
			dj := compareDifferenceJSON{Config: d.Config, Field: d.Field, From: d.From, To: d.To}
			if d.State >= 0 {
				s := d.State
				dj.State = &s
			}
			out.Differences = append(out.Differences, dj)
		}
		return a.writeJSON(stdout, out)
	}

	fmt.Fprintln(stdout, describeController(c))
	for i, r := range cmp.Configs {
		fmt.Fprintf(stdout, "[%d] %s: %s\n", i+1, r.Config.Name, describeParams(&r.Config.Params))
	}
	fmt.Fprintln(stdout)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, " \tstate\top\tmax power\tenlat/exlat us")
	for i := range cmp.Configs {
		fmt.Fprintf(tw, "\t[%d]", i+1)
	}
	fmt.Fprintln(tw)
	for _, row := range cmp.States {
		d := &c.PowerStates[row.State]
		op := "op"
		if d.NonOperational {
			op = "non-op"
		}
		mark := " "
		if row.Differs {
			mark = "*"
		}
		fmt.Fprintf(tw, "%s\tps%d\t%s\t%s\t%d/%d", mark, row.State, op, d.MaxPower, d.EntryLatency, d.ExitLatency)
		for i, e := range row.Entries {
			cell := row.Reasons[i].String()
			if e != 0 {
				cell = e.String() + " " + cell
			}
			fmt.Fprintf(tw, "\t%s", cell)
		}
		fmt.Fprintln(tw)
	}
	summary := func(label string, f func(r *analysis.ConfigResult) string) {
		fmt.Fprintf(tw, " \t%s\t\t\t", label)
		for i := range cmp.Configs {
			fmt.Fprintf(tw, "\t%s", f(&cmp.Configs[i]))
		}
		fmt.Fprintln(tw)
	}
	summary("max_ps", func(r *analysis.ConfigResult) string { return fmt.Sprint(r.Plan.MaxPS) })
	summary("deepest reachable", func(r *analysis.ConfigResult) string {
		return fmt.Sprintf("ps%d (%s)", r.Reach.Deepest, r.DeepestMaxPower)
	})
	summary("worst wake stall", func(r *analysis.ConfigResult) string { return r.Reach.WorstExitLatency.String() })
	tw.Flush()
	fmt.Fprintln(stdout)
	fmt.Fprintf(stdout, "idle power delta [2]-[1]: %+.1f mW (max power of the deepest reachable state)\n", cmp.PowerDelta.MilliWatts())
	if len(cmp.Differences) == 0 {
		fmt.Fprintln(stdout, "no differences")
	}
	for _, d := range cmp.Differences {
		fmt.Fprintf(stdout, "[%d] vs [1]: %s\n", d.Config+1, d)
	}
	return exitOK
}
