package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst/persist"
	"github.com/nvmeapst/nvmeapst/apst/survey"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
)

// surveyPersist holds survey's --persist and --persist-rules: one udev
// rule per model that needs a setting under a goal.
type surveyPersist struct {
	goal  string
	rules outputFile
	fleet *persist.Fleet
}

func addSurveyPersistFlags(fs *flagSet) *surveyPersist {
	sp := &surveyPersist{}
	fs.StringVar(&sp.goal, "persist", "GOAL", "", "one udev rule per model that needs a setting under GOAL (stall=25ms, bar=ps4, power=10mW, deepest), with the drives it covers and its power cost, after the text report")
	fs.Var(&sp.rules, "persist-rules", "FILE", "with --persist: write the rules to FILE, atomically (a rules file for /etc/udev/rules.d)")
	return sp
}

// check validates the flags against the survey's other options.
func (sp *surveyPersist) check(o *surveyOptions) error {
	if sp.goal == "" {
		if sp.rules.path != "" {
			return usagef("--persist-rules goes with --persist GOAL")
		}
		return nil
	}
	g, err := persist.ParseGoal(sp.goal)
	if err == nil {
		sp.fleet, err = persist.NewFleet(g)
	}
	if err != nil {
		return usagef("--persist %s: %s", quoteArg(sp.goal), strings.TrimPrefix(err.Error(), "persist: goal: "))
	}
	if sp.rules.stdout {
		return usagef("--persist-rules %s: the rules follow the text report on standard output without --persist-rules; give a file", sp.rules.path)
	}
	if o.merge {
		return usagef("--persist reads each drive's model, which the shards' reports do not carry: survey the captures")
	}
	if o.format != "text" && sp.rules.path == "" {
		return usagef("--persist prints its rules after the text report: with --output-format %s give --persist-rules FILE", o.format)
	}
	return nil
}

// wrap returns out recording each drive for the rules.
func (sp *surveyPersist) wrap(out surveyOutput, w *bufio.Writer, text bool) surveyOutput {
	if sp.fleet == nil {
		return out
	}
	return &surveyPersistOutput{surveyOutput: out, sp: sp, w: w, text: text}
}

type surveyPersistOutput struct {
	surveyOutput
	sp   *surveyPersist
	w    *bufio.Writer
	text bool
}

func (p *surveyPersistOutput) drive(row *survey.Row, src *surveySource) error {
	if len(row.Results) > 0 && len(row.Sweep) > 0 {
		if err := p.sp.fleet.Add(row.Model, row.Results[0].Config.Params.Bound, row.Sweep); err != nil {
			return err
		}
	}
	return p.surveyOutput.drive(row, src)
}

func (p *surveyPersistOutput) end(r *surveyRun) error {
	if err := p.surveyOutput.end(r); err != nil {
		return err
	}
	rules, dropped := p.sp.fleet.Rules(), p.sp.fleet.Dropped
	if p.text {
		writeFleetRules(p.w, p.sp.goal, rules)
		fmt.Fprint(p.w, fleetDroppedText("  ", dropped))
	}
	if p.sp.rules.path == "" {
		return nil
	}
	return writeFileOrFail("--persist-rules", p.sp.rules.path, func(w io.Writer) error {
		if err := writeFleetRulesFile(w, p.sp.goal, rules); err != nil {
			return err
		}
		_, err := io.WriteString(w, fleetDroppedText("# ", dropped))
		return err
	})
}

// fleetDroppedText says, after prefix, how many drives got no rule because
// their models came after the first persist.MaxFleetModels; "" for none.
func fleetDroppedText(prefix string, dropped int) string {
	if dropped == 0 {
		return ""
	}
	return fmt.Sprintf("%s%s of models beyond the first %d (the most --persist keeps): no rule for them\n", prefix, plural(dropped, "drive"), persist.MaxFleetModels)
}

// writeFleetRules prints the rules section of the text report.
func writeFleetRules(w io.Writer, goal string, rules []persist.FleetRule) {
	needed := 0
	for _, r := range rules {
		if r.Needed {
			needed++
		}
	}
	fmt.Fprintf(w, "\nrules for goal %s: %d of %d models need a setting (udev rules, keyed on the model, the bound every drive of it takes)\n", view.Escape(goal), needed, len(rules))
	for _, r := range rules {
		if !r.Needed {
			continue
		}
		fmt.Fprintf(w, "  %s: %s", view.Escape(r.Model), plural(r.Drives, "drive"))
		switch {
		case r.Conflict:
			fmt.Fprintln(w, ": no rule: its drives need bounds no single value gives (firmware revisions differ); key rules on firmware_rev too")
			continue
		case r.Rule == "":
			fmt.Fprintln(w, ": no rule: the model cannot be quoted in a udev rule")
			continue
		}
		fmt.Fprintf(w, ", bound %s, worst exit latency %s -> %s, power %+.1f mW", boundText(r.Choice.Bound), r.StallBefore, r.StallAfter, r.PowerCost.MilliWatts())
		if r.NoState {
			fmt.Fprint(w, " (no bound meets the goal in a non-operational state: it stays in its operational states)")
		}
		fmt.Fprintln(w)
		fmt.Fprintln(w, "    "+view.Escape(r.Rule))
	}
}

// writeFleetRulesFile writes the rules file of --persist-rules.
func writeFleetRulesFile(w io.Writer, goal string, rules []persist.FleetRule) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# apstctl survey --persist %s: one rule per model that needs a setting.\n", safeComment(goal))
	fmt.Fprintf(bw, "# Each writes /sys/class/nvme/nvmeN/%s where it exists; undo: remove this file, then udevadm control --reload.\n", persist.ToleranceAttr)
	for _, r := range rules {
		if !r.Needed || r.Rule == "" {
			continue
		}
		fmt.Fprintf(bw, "# %s: %s, worst exit latency %s -> %s, power %+.1f mW\n%s\n",
			safeComment(r.Model), plural(r.Drives, "drive"), r.StallBefore, r.StallAfter, r.PowerCost.MilliWatts(), r.Rule)
	}
	return bw.Flush()
}

// safeComment keeps s on one comment line.
func safeComment(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
}
