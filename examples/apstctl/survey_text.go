package main

import (
	"bufio"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/survey"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// surveyText writes the report for people: a line per drive as it comes,
// then the summary.
type surveyText struct {
	w       *bufio.Writer
	configs int
}

func (t *surveyText) begin(configs []analysis.Config) error {
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

func (t *surveyText) drive(row *survey.Row, _ *powerstate.Controller) error {
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
		fmt.Fprintf(t.w, "  %+9.1f mW", ch.PowerDelta.MilliWatts())
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
		fmt.Fprintf(w, "  idle power increase, changed drives:         %s\n", formatPowerDist(c.PowerIncrease))
		list("bars every non-operational state [1] reaches", c.BarsAll)
		fmt.Fprintf(w, "  bars some of them: %d drives\n", c.BarsSome)
		list("bars none of them", c.BarsNone)
		fmt.Fprintf(w, "  reach no non-operational state under [1]: %d drives; reach a state [1] does not: %d drives\n", c.NoIdle, c.Gains)
		fmt.Fprintln(w, "  by vendor (PCI vendor ID, else the model's first word):")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "    vendor\tdrives\tchanged\tbars all\tbars none\tstall cut median us\tmax us\tpower median mW\tmax mW\ttotal mW\t")
		for _, v := range c.Vendors {
			fmt.Fprintf(tw, "    %s\t%d\t%d\t%d\t%d\t%d\t%d\t%+.1f\t%+.1f\t%+.1f\t\n", v.Vendor, v.Drives, v.Changed, v.BarsAll, v.BarsNone,
				v.StallReduction.Median, v.StallReduction.Max, mW(v.PowerIncrease.Median), mW(v.PowerIncrease.Max), mW(v.PowerIncrease.Sum))
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
		fmt.Fprintf(w, "  idle power increase, changed drives:         %s\n", formatPowerDist(b.PowerIncrease))
		list("left with no reachable non-operational state", b.LosesAll)
	}
	_, err := fmt.Fprintln(w)
	return err
}

func mW(uw int64) float64 { return float64(uw) / 1000 }

func formatStallDist(d analysis.Distribution) string {
	if d.N == 0 {
		return "none"
	}
	return fmt.Sprintf("min %dus, median %dus, p90 %dus, max %dus", d.Min, d.Median, d.P90, d.Max)
}

func formatPowerDist(d analysis.Distribution) string {
	if d.N == 0 {
		return "none"
	}
	return fmt.Sprintf("min %+.1f mW, median %+.1f mW, p90 %+.1f mW, max %+.1f mW; total %+.1f mW (mean %+.1f mW)",
		mW(d.Min), mW(d.Median), mW(d.P90), mW(d.Max), mW(d.Sum), d.Mean()/1000)
}
