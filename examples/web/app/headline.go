package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/internal/safeio"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// HeadlineView is the answer in one sentence, shown first after a paste:
// the drive, the deepest state the kernel lets it reach at the bound set,
// that state's worst wake stall and idle power, and what the kernel's
// default bound would do instead.
type HeadlineView struct {
	Drive   string       `json:"drive"`
	At      OutcomeView  `json:"at"`
	Default *OutcomeView `json:"default,omitempty"`
	// Same is true when the default bound programs the same deepest
	// state (or is the bound set).
	Same bool   `json:"same"`
	Text string `json:"text"`
}

// OutcomeView is what one bound gives: the deepest reachable state, the
// worst wake stall among the reachable states, and the deepest state's
// maximum power, where an idle drive settles.
type OutcomeView struct {
	Bound     string  `json:"bound"`
	Off       bool    `json:"apst_off"`
	Deepest   int     `json:"deepest"`
	StallUS   uint64  `json:"stall_us"`
	Stall     string  `json:"stall"`
	PowerW    float64 `json:"power_w"`
	Power     string  `json:"power"`
	IsDefault bool    `json:"is_default"`
	// Why says why the kernel programs no idle state whatever the bound
	// (the drive does not support APST, or a quirk keeps APST off); ""
	// when the bound decides.
	Why string `json:"why,omitempty"`
}

func outcomeView(c *powerstate.Controller, plan *apst.Plan, isDefault bool) OutcomeView {
	r := analysis.Reachability(c, &plan.Table)
	pow := c.PowerStates[r.Deepest].MaxPower
	o := OutcomeView{
		Bound: formatBound(plan.Params.Bound), Off: plan.MaxPS < 0 || r.Deepest == 0, Deepest: int(r.Deepest),
		StallUS: uint64(r.WorstExitLatency), Stall: formatMicros(uint64(r.WorstExitLatency)),
		PowerW: pow.Watts(), Power: formatWatts(pow.Watts()), IsDefault: isDefault,
	}
	if plan.Outcome < apst.OutcomeNoStates { // nothing sent, or APSTE=0
		switch {
		case plan.Quirks.Applied&apst.QuirkNoAPST != 0 && !plan.ForcedAPST:
			o.Why = "the kernel does not use APST on this drive (its no-apst quirk), whatever the bound"
		case plan.Outcome == apst.OutcomeUnsupported:
			o.Why = "the drive does not support APST (APSTA 0): the kernel programs no table, whatever the bound"
		}
	}
	return o
}

// headline is the sentence of the plan at p, with the plan at the
// kernel's default bound (def) beside it when p's bound is another.
func headline(c *powerstate.Controller, plan *apst.Plan, def *apst.Plan) *HeadlineView {
	name := safeio.EscapeTerminal(c.Model)
	if name == "" {
		name = "The drive"
	}
	h := &HeadlineView{Drive: name, At: outcomeView(c, plan, def == nil)}
	h.Text = fmt.Sprintf("%s at %s: %s.", name, boundPhrase(&h.At), outcomePhrase(&h.At))
	if def == nil {
		h.Same = true
		h.Text += " This is the kernel's default bound."
		return h
	}
	d := outcomeView(c, def, true)
	h.Default = &d
	h.Same = d.Deepest == h.At.Deepest && d.Off == h.At.Off
	if h.Same {
		h.Text += fmt.Sprintf(" The default bound (%s) does the same.", d.Bound)
	} else {
		h.Text += fmt.Sprintf(" The default bound (%s) would instead give %s.", d.Bound, outcomePhrase(&d))
	}
	return h
}

func boundPhrase(o *OutcomeView) string {
	if o.Bound == "0" {
		return "bound 0 (APST off)"
	}
	return "bound " + o.Bound
}

func outcomePhrase(o *OutcomeView) string {
	power, paren := "up to "+formatWatts(o.PowerW), "up to "+formatWatts(o.PowerW)
	if o.PowerW <= 0 {
		// A maximum power of 0 is one the drive does not report: "up to
		// 0 mW" would be a number it never gave.
		power, paren = "not reported by the drive", "its maximum power is not reported"
	}
	switch {
	case o.Off && o.Why != "":
		return fmt.Sprintf("%s; the drive stays in ps0 (%s), no wake stall", o.Why, paren)
	case o.Off:
		return fmt.Sprintf("no idle power state: the drive stays in ps0 (%s), no wake stall", paren)
	}
	return fmt.Sprintf("deepest state ps%d, worst wake stall %s, idle power %s", o.Deepest, o.Stall, power)
}

// formatMicros writes a duration of microseconds in one style for the
// whole page: µs below 1 ms, ms below 1 s, s above, with up to three
// significant decimals and no trailing zeros.
func formatMicros(us uint64) string {
	switch {
	case us == 0:
		return "0 µs"
	case us < 1000:
		return strconv.FormatUint(us, 10) + " µs"
	case us < 1_000_000:
		return trimFloat(float64(us)/1e3) + " ms"
	}
	return trimFloat(float64(us)/1e6) + " s"
}

// formatBound is formatMicros for a bound, or "unlimited".
func formatBound(b apst.Microseconds) string {
	if b == apst.NoLimit {
		return "unlimited"
	}
	if b == 0 {
		return "0"
	}
	return formatMicros(uint64(b))
}

// formatWatts writes a power in mW below 1 W, else W.
func formatWatts(w float64) string {
	if w < 1 {
		return trimFloat(w*1000) + " mW"
	}
	return trimFloat(w) + " W"
}

func trimFloat(f float64) string {
	s := strings.TrimRight(strconv.FormatFloat(f, 'f', 3, 64), "0")
	return strings.TrimSuffix(s, ".")
}

// unitStyle rewrites the durations of a library sentence ("6200us",
// "100ms") in the page's unit style (formatMicros: "6.2 ms", "100 ms"),
// so that the prose of the first viewport reads in one style. Numbers
// inside words and other units are left alone; it uses no regexp, which
// app.wasm does not link.
func unitStyle(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		if c < '0' || c > '9' || i > 0 && isWordByte(s[i-1]) {
			b.WriteByte(c)
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		unit := ""
		if j+2 <= len(s) && (s[j:j+2] == "us" || s[j:j+2] == "ms") && (j+2 == len(s) || !isWordByte(s[j+2])) {
			unit = s[j : j+2]
		}
		v, err := strconv.ParseUint(s[i:j], 10, 64)
		if unit == "" || err != nil || unit == "ms" && v > 1<<50 {
			b.WriteString(s[i:j])
			i = j
			continue
		}
		if unit == "ms" {
			v *= 1000
		}
		b.WriteString(formatMicros(v))
		i = j + 2
	}
	return b.String()
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.'
}
