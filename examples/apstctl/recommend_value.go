package main

import (
	"fmt"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/persist"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// recommendedValue is the one bound recommend gives, what it costs against
// the current bound, and the lines that apply it.
type recommendedValue struct {
	ctl               *powerstate.Controller
	choice            persist.Choice
	reach             analysis.Reach
	power, curPower   powerstate.Power
	applyNow, persist string
}

// recommendedValueJSON is recommendedValue in recommend's JSON.
type recommendedValueJSON struct {
	RecommendedUS        *uint64  `json:"recommended_us"`
	RecommendedUnlimited bool     `json:"recommended_unlimited"`
	RecommendedRule      string   `json:"recommended_rule"`
	RecommendedWhy       string   `json:"recommended_why"`
	SameTableRange       *string  `json:"same_table_range"`
	RecommendedWakeUS    *uint64  `json:"recommended_worst_wake_stall_us"`
	RecommendedPowerW    *float64 `json:"recommended_deepest_state_max_power_w"`
	CurrentPowerW        float64  `json:"current_deepest_state_max_power_w"`
	IdlePowerDeltaMW     *float64 `json:"idle_power_delta_mw"`
	ApplyNow             string   `json:"apply_now"`
	Persist              string   `json:"persist"`
}

// chooseRecommended picks the recommended bound of rec (nil when no bound
// is possible).
func chooseRecommended(ctl *powerstate.Controller, p *apst.Params, rec *analysis.Recommendation, goal analysis.Goal) (*recommendedValue, error) {
	if !rec.Possible {
		return nil, nil
	}
	ch, err := persist.Choose(rec.Recommended, p.Bound, goal.MaxStall)
	if err != nil {
		return nil, err
	}
	re := reachAt(&rec.Sweep, ch.Bound)
	v := &recommendedValue{
		ctl: ctl, choice: ch, reach: re,
		power:    ctl.PowerStates[re.Deepest].MaxPower,
		curPower: ctl.PowerStates[rec.Current.Reach.Deepest].MaxPower,
	}
	tol := ch.Tolerance().String()
	if ch.Rule != persist.RuleCurrent {
		v.applyNow = "apstctl set-latency nvmeN " + tol
		v.persist = "apstctl persist --bound " + tol + persistScopeArgs(ctl)
	}
	return v, nil
}

// persistScopeArgs are the persist flags that select the drives of ctl's
// model: the family glob of every capacity where the model ends in one.
func persistScopeArgs(ctl *powerstate.Controller) string {
	m := strings.TrimSpace(ctl.Model)
	if m == "" {
		return ""
	}
	glob, _ := persist.ModelFamily(m)
	if persist.ModelScope(glob).Validate() != nil {
		return ""
	}
	return " --model " + shellQuote(glob)
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=,+@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func (v *recommendedValue) view(opt analysis.SimOptions) recommendedValueJSON {
	if v == nil {
		return recommendedValueJSON{}
	}
	b := uint64(v.choice.Bound)
	r := v.choice.Range.String()
	w := uint64(reachStall(v.ctl, opt, v.reach))
	pw := float64(v.power.MicroWatts()) / 1e6
	d := float64(int64(v.power.MicroWatts())-int64(v.curPower.MicroWatts())) / 1000
	return recommendedValueJSON{
		RecommendedUS: &b, RecommendedUnlimited: v.choice.Bound == apst.NoLimit,
		RecommendedRule: v.choice.Rule.String(), RecommendedWhy: v.choice.Why,
		SameTableRange: &r, RecommendedWakeUS: &w, RecommendedPowerW: &pw,
		CurrentPowerW:    float64(v.curPower.MicroWatts()) / 1e6,
		IdlePowerDeltaMW: &d, ApplyNow: v.applyNow, Persist: v.persist,
	}
}

// writeText prints the recommended bound, what it costs against the current
// bound, and the lines that apply it now and for good.
func (v *recommendedValue) writeText(w *checkedWriter, rec *analysis.Recommendation, opt analysis.SimOptions) {
	ch := v.choice
	fmt.Fprintf(w, "recommended bound: %s (%s)\n", boundText(ch.Bound), ch.Why)
	fmt.Fprintf(w, "  every bound in %s programs the same table\n", ch.Range)
	fmt.Fprintf(w, "  at %s: worst wake stall %s, deepest ps%d (max power %s)\n",
		boundText(ch.Bound), describeReachStall(v.ctl, opt, v.reach), v.reach.Deepest, v.power)
	cur := rec.Current
	delta := float64(int64(v.power.MicroWatts())-int64(v.curPower.MicroWatts())) / 1000
	fmt.Fprintf(w, "  at the current %s: worst wake stall %s, deepest ps%d (max power %s); idle power %+.1f mW (max power of the deepest reachable state)\n",
		cur.Bound, describeReachStall(v.ctl, opt, cur.Reach), cur.Reach.Deepest, v.curPower, delta)
	if ch.Rule == persist.RuleCurrent {
		fmt.Fprintln(w, "nothing to change: the current bound already programs this table")
		return
	}
	fmt.Fprintf(w, "apply now:  %s   (nvmeN: this drive's controller; apstctl inspect lists them)\n", view.Escape(v.applyNow))
	fmt.Fprintf(w, "for good:   %s   (a udev rule and the other forms: apstctl help persist)\n", view.Escape(v.persist))
}

// boundText is a bound as a person reads it: "25000us", "0us (APST off)",
// "any (no limit)".
func boundText(b apst.Microseconds) string {
	switch {
	case b == 0:
		return "0us (APST off)"
	case b > persist.MaxValue:
		return "any (no limit)"
	}
	return b.String()
}
