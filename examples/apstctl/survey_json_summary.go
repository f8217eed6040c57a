package main

import (
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
)

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

func stallJSON(d analysis.Distribution) surveyStallJSON {
	return surveyStallJSON{N: d.N, Min: d.Min, Median: d.Median, P90: d.P90, Max: d.Max, Sum: d.Sum}
}

// powerJSON converts a distribution of µW to mW.
func powerJSON(d analysis.Distribution) surveyPowerJSON {
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
	MinUS        uint64 `json:"min_us"`
	MaxUS        uint64 `json:"max_us"`
	MaxUnlimited bool   `json:"max_unlimited"`
}

type surveyBudgetJSON struct {
	BudgetUS            uint64            `json:"budget_us"`
	BudgetUnlimited     bool              `json:"budget_unlimited"`
	BoundUS             uint64            `json:"bound_us"`
	BoundUnlimited      bool              `json:"bound_unlimited"`
	Acceptable          []surveyRangeJSON `json:"acceptable"`
	Binding             []string          `json:"binding"`
	Changed             int               `json:"changed"`
	LosesAll            []string          `json:"loses_all"`
	StallReductionUS    surveyStallJSON   `json:"stall_reduction_us"`
	IdlePowerIncreaseMW surveyPowerJSON   `json:"idle_power_increase_mw"`
	Params              apst.Params       `json:"params"`
}

type surveySummaryJSON struct {
	Drives          int `json:"drives"`
	Changed         int `json:"changed"`
	UnreadableFiles int `json:"unreadable_files"`
	// UnreadableNotListed counts the unreadable files beyond the list's
	// limit: in unreadable_files, not in the document's unreadable list.
	UnreadableNotListed int `json:"unreadable_not_listed"`
	// UnreadableByReason counts the unreadable files by class
	// (survey_reasons.go): empty, all-zero, random-bytes, ...
	UnreadableByReason map[string]int `json:"unreadable_by_reason"`
	SkippedFiles       int            `json:"skipped_files"`
	KernelQuirks       bool           `json:"kernel_quirks"`
	// Drives whose quirks rest on a PCI ID inferred from the model, and
	// drives with quirked PCI IDs of their vendor's left unchecked.
	QuirksInferred  int `json:"quirks_inferred"`
	QuirksUnchecked int `json:"quirks_unchecked"`
	// BundleDrives counts the drives read from bundles of apstctl
	// collect (rows of format "bundle"): their PCI ID and DMI strings are
	// the bundle's, not inferred.
	BundleDrives int `json:"bundle_drives"`
	// Assumptions count the drives per kind of assumption, said once.
	Assumptions surveyAssumptionsJSON  `json:"assumptions"`
	Configs     []surveyConfigNameJSON `json:"configs"`
	Comparisons []surveyComparisonJSON `json:"comparisons"`
	StallBudget *surveyBudgetJSON      `json:"stall_budget,omitempty"`
	// Shards are the identities of the surveys the report holds: one for
	// a survey of directories, those of every shard for --merge.
	Shards []string `json:"shards,omitempty"`
}

func newSurveySummaryJSON(r *surveyRun) surveySummaryJSON {
	sum := r.survey.Summary()
	out := surveySummaryJSON{
		Drives: sum.Drives, Changed: sum.Changed, UnreadableFiles: r.unreadable.len(), UnreadableNotListed: r.unreadable.notListed(), SkippedFiles: r.skipped,
		UnreadableByReason: r.unreadable.reasons(),
		KernelQuirks:       r.survey.Options().KernelQuirks,
		QuirksInferred:     r.quirksInferred, QuirksUnchecked: r.quirksUnchecked, BundleDrives: r.bundleDrives,
		Assumptions: surveyAssumptionsView(r),
		Configs:     surveyConfigNames(sum.Configs),
		Comparisons: make([]surveyComparisonJSON, len(sum.Comparisons)),
	}
	for i, c := range sum.Comparisons {
		cj := surveyComparisonJSON{
			Config: c.Config, Name: c.Name, Changed: c.Changed, Unchanged: c.Drives - c.Changed,
			NoIdle: c.NoIdle, BarsNone: c.BarsNone, BarsSome: c.BarsSome, BarsAll: c.BarsAll, Gains: c.Gains,
			StallReductionUS: stallJSON(c.StallReduction), IdlePowerIncreaseMW: powerJSON(c.PowerIncrease),
			ByVendor: make([]surveyVendorJSON, len(c.Vendors)),
		}
		for j, v := range c.Vendors {
			cj.ByVendor[j] = surveyVendorJSON{
				Vendor: v.Vendor, Drives: v.Drives, Changed: v.Changed, NoIdle: v.NoIdle,
				BarsNone: v.BarsNone, BarsSome: v.BarsSome, BarsAll: v.BarsAll, Gains: v.Gains,
				StallReductionUS: stallJSON(v.StallReduction), IdlePowerIncreaseMW: powerJSON(v.PowerIncrease),
			}
		}
		out.Comparisons[i] = cj
	}
	if r.hasBudget {
		b := r.survey.StallBudget(r.budget)
		bj := &surveyBudgetJSON{
			BudgetUS: uint64(b.Budget), BudgetUnlimited: b.Budget == apst.NoLimit,
			BoundUS: uint64(b.Bound), BoundUnlimited: b.Bound == apst.NoLimit, Binding: b.Binding, Changed: b.Changed,
			LosesAll: b.LosesAll, StallReductionUS: stallJSON(b.StallReduction),
			IdlePowerIncreaseMW: powerJSON(b.PowerIncrease), Params: b.Params,
		}
		for _, rg := range b.Acceptable {
			bj.Acceptable = append(bj.Acceptable, surveyRangeJSON{MinUS: uint64(rg.Min), MaxUS: uint64(rg.Max), MaxUnlimited: rg.Max == apst.NoLimit})
		}
		out.StallBudget = bj
	}
	return out
}
