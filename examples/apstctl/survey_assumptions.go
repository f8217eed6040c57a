package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/survey"
)

// Survey says what was assumed as a summary (cli.md, "What was assumed"):
// each assumption once for the fleet, with the number of drives whose
// answer it can change, never per row. A row names the kinds that apply to
// it in "assumed", so that --merge counts them again.

// Assumption kinds, as a row's "assumed" lists them.
const (
	assumedAPSTA   = "apsta-unknown"
	assumedRelease = "release-unknown"
	assumedBase    = "base-unknown"
	assumedDMI     = "dmi-unchecked"
)

// assumedKinds are the kinds with their names, in the order a row lists
// them, and their counters.
var assumedKinds = [...]struct {
	kind  survey.Assumed
	name  string
	count func(*surveyAssumedCounts) *int
}{
	{survey.AssumedAPSTA, assumedAPSTA, func(s *surveyAssumedCounts) *int { return &s.APSTAUnknown }},
	{survey.AssumedRelease, assumedRelease, func(s *surveyAssumedCounts) *int { return &s.ReleaseUnknown }},
	{survey.AssumedBase, assumedBase, func(s *surveyAssumedCounts) *int { return &s.BaseUnknown }},
	{survey.AssumedDMI, assumedDMI, func(s *surveyAssumedCounts) *int { return &s.DMIUnchecked }},
}

// surveyAssumedCounts counts the drives per kind of assumption.
type surveyAssumedCounts struct {
	APSTAUnknown   int `json:"apsta_unknown"`
	ReleaseUnknown int `json:"release_unknown"`
	BaseUnknown    int `json:"base_unknown"`
	DMIUnchecked   int `json:"dmi_unchecked"`
}

// add counts a drive's kinds.
func (s *surveyAssumedCounts) add(a survey.Assumed) {
	for _, k := range assumedKinds {
		if a&k.kind != 0 {
			*k.count(s)++
		}
	}
}

// surveyAssumptionsJSON is the summary's "assumptions": per kind, the
// drives whose answer it can change (the PCI ID's are quirks_inferred and
// quirks_unchecked beside it), and the sentences the text says.
type surveyAssumptionsJSON struct {
	surveyAssumedCounts
	Notes []string `json:"notes"`
}

// surveyAssumptionNotes are the sentences of the counts, one per kind that
// some drive assumed: what the text summary says once for the fleet.
func surveyAssumptionNotes(s surveyAssumedCounts, configs []apst.Params) []string {
	var out []string
	if s.APSTAUnknown > 0 {
		out = append(out, fmt.Sprintf("%s: the capture does not record APSTA; APST support was assumed", plural(s.APSTAUnknown, "drive")))
	}
	if s.ReleaseUnknown > 0 {
		out = append(out, fmt.Sprintf("%s: kernel release unknown: assumed the newest quirk tables (Linux %s), and a quirk entry that could apply to the drive is not in every release's tables (give kernel= in --with)",
			plural(s.ReleaseUnknown, "drive"), apst.NewestRelease()))
	}
	if s.BaseUnknown > 0 {
		var rels []string
		for i := range configs {
			if r := configs[i].Release; r.BaseUnknown && !slices.Contains(rels, r.String()) {
				rels = append(rels, r.String())
			}
		}
		out = append(out, fmt.Sprintf("%s: distribution kernel %s: its upstream stable base is unknown; assumed the newest stable tables of the series (apstctl plan --kernel names the entries at stake)",
			plural(s.BaseUnknown, "drive"), strings.Join(rels, ", ")))
	}
	if s.DMIUnchecked > 0 {
		out = append(out, fmt.Sprintf("%s: DMI rules not checked: the machine is unknown (a capture carries no DMI data), and a DMI rule of the tables used could apply to the drive",
			plural(s.DMIUnchecked, "drive")))
	}
	return out
}

// writeSurveyAssumptions prints the summary's assumption lines.
func writeSurveyAssumptions(w io.Writer, r *surveyRun) {
	for _, n := range surveyAssumptionNotes(r.assumed, surveyParams(r)) {
		fmt.Fprintln(w, "  note: "+n)
	}
}

// surveyAssumptionsView is the summary's "assumptions".
func surveyAssumptionsView(r *surveyRun) surveyAssumptionsJSON {
	return surveyAssumptionsJSON{surveyAssumedCounts: r.assumed, Notes: nonNil(surveyAssumptionNotes(r.assumed, surveyParams(r)))}
}

// surveyParams are the parameters of the survey's configurations.
func surveyParams(r *surveyRun) []apst.Params {
	cs := r.survey.Configs()
	out := make([]apst.Params, len(cs))
	for i := range cs {
		out[i] = cs[i].Params
	}
	return out
}
