package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// maxConfigs bounds the configurations a command takes (--with given
// maxConfigs times at most), as measure's library bounds its own: each is a
// plan and, in a survey or a replay, a column of every drive or wake.
const maxConfigs = 32

// withFlags collects the repeated --with values, at most maxConfigs.
type withFlags []string

func (w *withFlags) String() string { return strings.Join(*w, " ") }

// Repeatable marks --with as a flag given once per configuration.
func (*withFlags) Repeatable() bool { return true }

func (w *withFlags) Set(s string) error {
	if len(*w) >= maxConfigs {
		return fmt.Errorf("configuration %d: want at most %d configurations (--with given 1 to %d times)", len(*w)+1, maxConfigs, maxConfigs)
	}
	*w = append(*w, s)
	return nil
}

// compareConfigJSON is one configuration's result, as compare prints it.
type compareConfigJSON struct {
	Name                  string     `json:"name"`
	Sent                  bool       `json:"sent"`
	Enabled               bool       `json:"enabled"`
	MaxPS                 int        `json:"max_ps"`
	MaxRoundTripUS        uint64     `json:"max_round_trip_us"`
	Entries               tableJSON  `json:"entries"`
	DeepestState          int        `json:"deepest_state"`
	WorstExitLatencyUS    uint64     `json:"worst_exit_latency_us"`
	DeepestStateMaxPowerW float64    `json:"deepest_state_max_power_w"`
	Outcome               string     `json:"outcome"`
	Mode                  string     `json:"mode"`
	Params                paramsJSON `json:"params"`
	// Assumptions are what this configuration assumed beyond the
	// top-level assumptions that every configuration shares; null when
	// nothing.
	Assumptions *assumptionsJSON `json:"assumptions"`
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
	Capture          captureJSON             `json:"capture"`
	CaptureNotes     []string                `json:"capture_notes"`
	Assumptions      assumptionsJSON         `json:"assumptions"`
}

func compareCommand() *command {
	fs := newFlagSet("compare")
	pf := addPlanFlags(fs)
	format := addOutputFormat(fs)
	var with withFlags
	fs.Var(&with, "with", "CONFIG", "a configuration to compare: comma list of k=v, or policy=NAME (repeat)")
	c := &command{
		name:      "compare",
		usageLine: "compare [flags] CAPTURE --with CONFIG [--with CONFIG]...",
		short:     "two or more configurations side by side",
		long: `
Compares the APST tables of two or more configurations of one drive. Each --with is a comma list of
the plan flags without dashes (ps-max-latency-us=25000,kernel=v4.12, ...) or policy=NAME
(linux-default, linux-25ms, windows-balanced-dc, ...), applied on top of the other flags. With a
single --with, the other flags alone are the first configuration. The idle power delta is that of
the deepest reachable state's max power, [2] against [1].`,
		examples: []string{
			"compare testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin --with ps-max-latency-us=100000 --with ps-max-latency-us=25000",
			"compare --ps-max-latency-us 25000 testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin --with policy=windows-balanced-dc",
		},
		flags:   fs,
		minArgs: 1, maxArgs: 1,
	}
	c.run = func(ctx context.Context, x *invocation, args []string) error {
		if len(with) == 0 {
			return usagef("give at least one --with (two to compare them with each other)")
		}
		ctl, base, err := pf.loadWithParams(args[0], x.stdin)
		if err != nil {
			return err
		}
		var configs []analysis.Config
		if len(with) == 1 {
			configs = append(configs, analysis.Config{Name: "flags", Params: base})
		}
		for _, w := range with {
			p, err := withConfig(ctl, base, w)
			if err != nil {
				return usagef("--with %s: %v", quoteArg(w), err)
			}
			configs = append(configs, analysis.Config{Name: w, Params: p})
		}
		cmp, err := analysis.Compare(ctl, configs...)
		if err != nil {
			return inputErr(err)
		}
		as := make([]apst.Assumptions, len(cmp.Configs))
		for i := range cmp.Configs {
			as[i] = cmp.Configs[i].Plan.Assumptions(ctl)
		}
		common, own := splitAssumptions(as)
		if format.json {
			out := compareJSON{
				Configs:          make([]compareConfigJSON, len(cmp.Configs)),
				IdlePowerDeltaMW: cmp.PowerDelta.MilliWatts(),
				Differences:      []compareDifferenceJSON{},
				Capture:          captureView(ctl),
				CaptureNotes:     captureNotesView(ctl),
				Assumptions:      assumptionsView(&common),
			}
			for i := range cmp.Configs {
				out.Configs[i] = configView(&cmp.Configs[i])
				out.Configs[i].Assumptions = ownAssumptionsView(&own[i])
			}
			for _, d := range cmp.Differences {
				dj := compareDifferenceJSON{Config: d.Config, Field: d.Field, From: d.From, To: d.To}
				if d.State >= 0 {
					s := d.State
					dj.State = &s
				}
				out.Differences = append(out.Differences, dj)
			}
			return writeJSON(x.out, out)
		}
		warnings := append(captureNoteLines(ctl), groupedAssumptionLines(as, numbered(len(as)))...)
		writeCompareText(x.out, ctl.States(), &cmp, describeController(ctl), warnings)
		return nil
	}
	return c
}

// configView is the JSON of one configuration's result.
func configView(r *analysis.ConfigResult) compareConfigJSON {
	return compareConfigJSON{
		Name: r.Config.Name, Sent: r.Plan.Sent, Enabled: r.Plan.Enabled, MaxPS: r.Plan.MaxPS,
		MaxRoundTripUS: uint64(r.Plan.MaxRoundTrip), Entries: tableJSON(r.Plan.Table),
		DeepestState: int(r.Reach.Deepest), WorstExitLatencyUS: uint64(r.Reach.WorstExitLatency),
		DeepestStateMaxPowerW: float64(r.DeepestMaxPower.MicroWatts()) / 1e6,
		Outcome:               r.Plan.Outcome.String(), Mode: r.Plan.Mode.String(), Params: paramsView(&r.Config.Params),
	}
}

func writeCompareText(w io.Writer, states []powerstate.Descriptor, cmp *analysis.Comparison, head string, warnings []string) {
	fmt.Fprintln(w, head)
	for _, warn := range warnings {
		fmt.Fprintln(w, warn)
	}
	for i, r := range cmp.Configs {
		fmt.Fprintf(w, "[%d] %s: %s\n", i+1, view.Escape(r.Config.Name), describeParams(&r.Config.Params))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, " \tstate\top\tmax power\tenlat/exlat us")
	for i := range cmp.Configs {
		fmt.Fprintf(tw, "\t[%d]", i+1)
	}
	fmt.Fprintln(tw)
	for _, row := range cmp.States {
		d := &states[row.State]
		mark := " "
		if row.Differs {
			mark = "*"
		}
		fmt.Fprintf(tw, "%s\tps%d\t%s\t%s\t%d/%d", mark, row.State, opKind(d), d.MaxPower, d.EntryLatency, d.ExitLatency)
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
	for _, row := range cmp.States {
		if row.Differs {
			fmt.Fprintln(w, "* the state's entry or decision differs between the configurations")
			break
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "idle power delta [2]-[1]: %+.1f mW (max power of the deepest reachable state)\n", cmp.PowerDelta.MilliWatts())
	if len(cmp.Differences) == 0 {
		fmt.Fprintln(w, "no differences")
	}
	for _, d := range cmp.Differences {
		fmt.Fprintf(w, "[%d] vs [1]: %s\n", d.Config+1, d)
	}
}
