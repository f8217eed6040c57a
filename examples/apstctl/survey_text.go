package main

import (
	"bufio"
	"fmt"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/survey"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// surveyText writes the report for people: a line per drive as it comes,
// then the summary (with --merge, the summary only). Names, paths and
// reasons come from the captures and are printed with their control
// characters escaped (safeio.EscapeTerminal).
type surveyText struct {
	w           *bufio.Writer
	configs     int
	merged      bool
	summary     bool   // --summary: no line per drive
	line, field []byte // drive's buffers
}

func (t *surveyText) begin(configs []analysis.Config, _ bool) error {
	t.configs = len(configs)
	for i, c := range configs {
		fmt.Fprintf(t.w, "[%d] %s: %s\n", i+1, c.Name, describeParams(&c.Params))
	}
	if t.merged {
		_, err := fmt.Fprintln(t.w, "\nThe shards' drives are in their JSON reports; the summary of them all:")
		return err
	}
	if t.summary {
		return nil
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

// drive writes the drive's line, formatted by hand (strconv, no fmt): on
// a fleet the lines are most of the report's cost.
func (t *surveyText) drive(row *survey.Row, _ *surveySource) error {
	if t.summary {
		return nil
	}
	if t.field == nil {
		t.field = make([]byte, 0, 256)
	}
	b := t.line[:0]
	if row.Changed {
		b = append(b, "* "...)
	} else {
		b = append(b, "  "...)
	}
	b = appendPadRight(b, safeio.AppendEscapeTerminal(t.field[:0], row.Vendor), 15)
	for i := range row.Results {
		r := &row.Results[i]
		b = append(b, "  ps"...)
		b = appendPadRight(b, strconv.AppendUint(t.field[:0], uint64(r.Reach.Deepest), 10), 2)
		b = append(b, ' ')
		f := strconv.AppendUint(t.field[:0], uint64(r.Reach.WorstExitLatency), 10)
		b = appendPadLeft(b, append(f, "us"...), 9)
		b = append(b, ' ')
		f, _ = r.DeepestMaxPower.AppendText(t.field[:0])
		b = appendPadLeft(b, f, 11)
	}
	for _, ch := range row.Changes {
		b = append(b, "  "...)
		b = appendPadLeft(b, appendSignedMilli(t.field[:0], ch.PowerDelta.MilliWatts()), 9)
		b = append(b, " mW"...)
	}
	b = append(b, "  "...)
	b = safeio.AppendEscapeTerminal(b, row.Name)
	b = append(b, '\n')
	t.line = b
	_, err := t.w.Write(b)
	return err
}

// appendSignedMilli appends v as fmt's %+.1f does.
func appendSignedMilli(b []byte, v float64) []byte {
	if !math.Signbit(v) {
		b = append(b, '+')
	}
	return strconv.AppendFloat(b, v, 'f', 1, 64)
}

// appendPadLeft appends f right-aligned in width characters (fmt's %9s),
// appendPadRight left-aligned (%-15s); widths count runes, as fmt does.
func appendPadLeft(b, f []byte, width int) []byte {
	for n := utf8.RuneCount(f); n < width; n++ {
		b = append(b, ' ')
	}
	return append(b, f...)
}

func appendPadRight(b, f []byte, width int) []byte {
	b = append(b, f...)
	for n := utf8.RuneCount(f); n < width; n++ {
		b = append(b, ' ')
	}
	return b
}

func (t *surveyText) unreadable(surveyUnreadable) error { return nil } // listed at the end

// textListMax bounds the drive lists the text report prints in full.
const textListMax = 20

func (t *surveyText) end(r *surveyRun) error {
	w := t.w
	sum := r.survey.Summary()
	fmt.Fprintf(w, "\n%s surveyed; %s, %d skipped by name", plural(sum.Drives, "drive"), plural(r.unreadable.len(), "unreadable file"), r.skipped)
	if r.survey.Options().KernelQuirks {
		fmt.Fprintln(w, "; kernel quirks applied")
		if r.quirksInferred+r.quirksUnchecked > 0 {
			fmt.Fprintf(w, "  no capture records the PCI device ID: the quirk lookup inferred it from the model on %s; on %d, PCI IDs of their vendor (or of their controller maker, the Identify SSVID) that carry quirks could not be checked (quirks_inferred_from, quirks_unchecked_pci in --format json)\n",
				plural(r.quirksInferred, "drive"), r.quirksUnchecked)
		}
	} else {
		fmt.Fprintln(w, "; kernel quirks not applied")
	}
	writeSurveyAssumptions(w, r)
	if r.bundleDrives > 0 {
		fmt.Fprintf(w, "  %s read from bundles of apstctl collect (DIR (bundle, nvmeN)): their PCI IDs and DMI strings are read from the bundle, not inferred, unless it lacks them; each configuration applies on top of their module parameters, bound and quirks (bundle, with pci_id_gap and dmi_error, in --format json)\n", plural(r.bundleDrives, "drive"))
	}
	if r.unreadable.len() > 0 {
		fmt.Fprintf(w, "  unreadable by reason: %s\n", reasonCounts(r.unreadable.byReason))
	}
	for _, u := range r.unreadable.listed {
		fmt.Fprintf(w, "  unreadable: %s: %s\n", safeio.EscapeTerminal(u.Path), view.EscapeMessage(u.Error))
	}
	if n := r.unreadable.notListed(); n > 0 {
		fmt.Fprintf(w, "  ... and %d more unreadable files, not listed (the list keeps the first %d)\n", n, len(r.unreadable.listed))
	}
	list := func(label string, names []string) {
		fmt.Fprintf(w, "  %s: %s\n", label, plural(len(names), "drive"))
		for i, n := range names {
			if i == textListMax {
				fmt.Fprintf(w, "      ... and %d more (all in --format json)\n", len(names)-textListMax)
				break
			}
			fmt.Fprintf(w, "      %s\n", safeio.EscapeTerminal(n))
		}
	}
	for _, c := range sum.Comparisons {
		fmt.Fprintf(w, "\n[%d] %s against [1] %s:\n", c.Config+1, c.Name, sum.Configs[0].Name)
		fmt.Fprintf(w, "  the table changes on %d of %s (%d unchanged)\n", c.Changed, plural(c.Drives, "drive"), c.Drives-c.Changed)
		fmt.Fprintf(w, "  worst wake stall reduction, changed drives:  %s\n", formatStallDist(c.StallReduction))
		fmt.Fprintf(w, "  idle power increase, changed drives:         %s\n", formatPowerDist(c.PowerIncrease))
		list("bars every non-operational state [1] reaches", c.BarsAll)
		fmt.Fprintf(w, "  bars some of them: %s\n", plural(c.BarsSome, "drive"))
		list("bars none of them", c.BarsNone)
		fmt.Fprintf(w, "  reach no non-operational state under [1]: %s; reach a state [1] does not: %s\n", plural(c.NoIdle, "drive"), plural(c.Gains, "drive"))
		fmt.Fprintln(w, "  by vendor (PCI vendor ID, else the model's first word):")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "    vendor\tdrives\tchanged\tbars all\tbars none\tstall cut median us\tmax us\tpower median mW\tmax mW\ttotal mW\t")
		for _, v := range c.Vendors {
			fmt.Fprintf(tw, "    %s\t%d\t%d\t%d\t%d\t%d\t%d\t%+.1f\t%+.1f\t%+.1f\t\n", safeio.EscapeTerminal(v.Vendor), v.Drives, v.Changed, v.BarsAll, v.BarsNone,
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
		fmt.Fprintf(w, "  at %s against [1]: the table changes on %d of %s\n", b.Bound, b.Changed, plural(b.Drives, "drive"))
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
