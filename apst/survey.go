package apst

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// SurveyOptions tunes a Survey.
type SurveyOptions struct {
	// KernelQuirks gives every drive the APST quirks the kernel's quirk
	// tables assign it at probe time (DriveQuirks): they are added to the
	// quirks of each configuration, as the kernel adds them to whatever the
	// user configured. force_apst in a configuration overrides them as it
	// does in the kernel. When false, each configuration's Params.Quirks
	// apply to every drive as given.
	KernelQuirks bool
}

// Survey answers "what does a configuration change do to a whole fleet of
// drives": it runs every drive through two or more configurations, as
// Compare does for one, and keeps per drive only a few numbers (no
// controller, no plan), so that memory grows by a constant per drive
// however many are added: 48 bytes, 24 per configuration after the first
// and 24 per step of the drive's worst stall as a function of the bound
// (for StallBudget; 2 or 3 on every drive of the shipped corpus), besides
// the bytes of its name.
//
// Each configuration after the first is compared with the first. Summary and
// StallBudget depend only on the set of drives added, not on the order of
// the Add calls, so their results are deterministic. A Survey is safe for
// concurrent use; its zero value is not usable (use NewSurvey).
type Survey struct {
	configs []Config
	opts    SurveyOptions

	mu      sync.Mutex
	drives  []surveyDrive
	changes []surveyChange // len(configs)-1 per drive, drive-major
	sweeps  []budgetStep   // the drives' compact bound sweeps, back to back
	vendors []string
	vendorN map[string]int32
}

// surveyDrive is what a Survey keeps of one drive.
type surveyDrive struct {
	name     string
	vendor   int32
	changed  bool // under some configuration the programmed table differs from the first's
	sweepOff uint32
	sweepLen uint32
	// Under the first configuration: the reachable states, the worst wake
	// stall (EXLAT, µs) and the maximum power of the deepest reachable
	// state (µW).
	reach0 uint32
	stall0 uint32
	power0 uint32
}

// surveyChange is what a Survey keeps of one drive under one comparison.
type surveyChange struct {
	stall   int64 // stall reduction, µs
	power   int64 // idle power delta, µW
	changed bool
	gained  bool
	bars    BarClass
}

// budgetStep is one piece of a drive's bound sweep under the first
// configuration's parameters: from bound min up to the next step's min.
type budgetStep struct {
	min    uint64
	stall  uint32 // worst wake stall, µs
	power  uint32 // deepest reachable state's max power, µW
	states uint32 // reachable states (Reach.States)
	same   bool   // the plan programs what the first configuration does
}

// NewSurvey returns an empty survey of the given configurations (two or
// more; the first is the reference, e.g. the current default) with each
// configuration's quirks applied to every drive as given.
func NewSurvey(configs ...Config) (*Survey, error) {
	return NewSurveyWithOptions(SurveyOptions{}, configs...)
}

// NewSurveyWithOptions is NewSurvey with options. Fewer than two
// configurations is an error wrapping ErrTooFewConfigs; a configuration
// with an invalid generation one wrapping ErrUnknownGeneration.
func NewSurveyWithOptions(opts SurveyOptions, configs ...Config) (*Survey, error) {
	if len(configs) < 2 {
		return nil, fmt.Errorf("%w: got %d", ErrTooFewConfigs, len(configs))
	}
	for i, cfg := range configs {
		if !cfg.Params.Generation.Valid() {
			return nil, fmt.Errorf("apst: survey configuration %d (%s): %w: %d", i+1, cfg.Name, ErrUnknownGeneration, uint8(cfg.Params.Generation))
		}
	}
	return &Survey{
		configs: slices.Clone(configs),
		opts:    opts,
		vendorN: map[string]int32{},
	}, nil
}

// Configs returns the survey's configurations (a fresh copy).
func (s *Survey) Configs() []Config { return slices.Clone(s.configs) }

// Options returns the survey's options.
func (s *Survey) Options() SurveyOptions { return s.opts }

// Len returns the number of drives added.
func (s *Survey) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.drives)
}

// SurveyRow is one drive's result, as Add returns it. The Survey keeps only
// a few numbers of it; the caller may print it and drop it.
type SurveyRow struct {
	// Name is the drive's name as given to Add (apstctl: the capture's path).
	Name string
	// Vendor is DriveVendor(Name, c).
	Vendor string
	// VendorID, Model and Firmware are the controller's VID, MN and FR.
	VendorID uint16
	Model    string
	Firmware string
	// Quirks are the APST quirks the kernel's tables assign the drive
	// (DriveQuirks) when the survey applies them, 0 otherwise.
	Quirks Quirks
	// Results holds, per configuration in the survey's order, what Compare's
	// Configs would hold: the configuration (with the drive's quirks
	// added), its plan, the reach and the maximum power of the deepest
	// reachable state.
	Results []ConfigResult
	// Changes holds, for each configuration after the first, how the drive
	// fares compared with the first.
	Changes []SurveyChange
	// Changed reports whether some Changes[i].Changed is true.
	Changed bool
}

// SurveyChange is how one drive's outcome under one configuration differs
// from its outcome under the survey's first configuration.
type SurveyChange struct {
	// Config is the index in the survey's configurations (1 or more).
	Config int
	// Changed reports whether the Set Features command differs: whether it
	// is sent, APSTE, or any of the 32 table entries.
	Changed bool
	// StallReduction is, in microseconds, the worst wake stall
	// (Reach.WorstExitLatency) under the first configuration minus the one
	// under this configuration: positive when this configuration shortens
	// the worst stall.
	StallReduction int64
	// IdlePowerDelta is, in microwatts, the maximum power of this
	// configuration's deepest reachable state minus the first's: what
	// Compare reports as Comparison.IdlePowerDelta for the pair. Positive
	// when this configuration costs idle power. It is exact.
	IdlePowerDelta int64
	// Barred is the set of states (bit n = state n) that the first
	// configuration's table reaches and this one's does not.
	Barred uint32
	// Gained is the set of states this configuration's table reaches and
	// the first's does not.
	Gained uint32
	// Bars classifies what the change does to the non-operational states
	// the first configuration reaches.
	Bars BarClass
}

// BarClass says what a change does to the non-operational states a drive
// reaches under the survey's first configuration (state 0, where every idle
// period starts, is left out).
type BarClass uint8

const (
	// BarsNoIdle: the first configuration reaches no non-operational
	// state, so there is nothing to bar.
	BarsNoIdle BarClass = iota
	// BarsNone: every state the first configuration reaches stays
	// reachable.
	BarsNone
	// BarsSome: some of them, not all, become unreachable.
	BarsSome
	// BarsAll: the first configuration reaches some non-operational state
	// and this one reaches none.
	BarsAll
)

var barNames = [...]string{BarsNoIdle: "no-idle", BarsNone: "none", BarsSome: "some", BarsAll: "all"}

// String returns the class's stable name: "no-idle", "none", "some" or
// "all".
func (b BarClass) String() string {
	if int(b) < len(barNames) {
		return barNames[b]
	}
	return fmt.Sprintf("BarClass(%d)", uint8(b))
}

// barClass classifies a change from reach set a to reach set b.
func barClass(a, b uint32) BarClass {
	a, b = a&^1, b&^1
	switch {
	case a == 0:
		return BarsNoIdle
	case a&^b == 0:
		return BarsNone
	case b == 0:
		return BarsAll
	}
	return BarsSome
}

// MilliWatts returns IdlePowerDelta in milliwatts.
func (ch *SurveyChange) MilliWatts() float64 { return float64(ch.IdlePowerDelta) / 1000 }

// Add runs controller c, named name, through every configuration of the
// survey and records the result. It returns the drive's row; the survey
// keeps only a few numbers of it, never c. Errors: a nil controller
// (ErrNilController).
func (s *Survey) Add(name string, c *powerstate.Controller) (SurveyRow, error) {
	var row SurveyRow
	err := s.AddInto(&row, name, c)
	return row, err
}

// AddInto is Add writing the row into *row, reusing the capacity of its
// Results and Changes slices, so that a caller that streams rows need not
// allocate per drive. Concurrent calls need rows of their own.
func (s *Survey) AddInto(row *SurveyRow, name string, c *powerstate.Controller) error {
	if c == nil {
		return fmt.Errorf("apst: survey drive %q: %w", name, ErrNilController)
	}
	n := len(s.configs)
	*row = SurveyRow{
		Name: name, Vendor: DriveVendor(name, c), VendorID: c.VendorID,
		Model: c.Model, Firmware: c.Firmware,
		Results: slices.Grow(row.Results[:0], n)[:n],
		Changes: slices.Grow(row.Changes[:0], n-1)[:n-1],
	}
	var dq Quirks
	if s.opts.KernelQuirks {
		dq = DriveQuirks(c)
		row.Quirks = dq
	}
	for i, cfg := range s.configs {
		cfg.Params.Quirks |= dq
		plan, err := Build(c, cfg.Params)
		if err != nil { // not reached: NewSurvey checked the generations
			return fmt.Errorf("apst: survey drive %q, configuration %d (%s): %w", name, i+1, cfg.Name, err)
		}
		r := &row.Results[i]
		r.Config, r.Plan = cfg, plan
		r.Reach = Reachability(c, &r.Plan.Table)
		r.DeepestMaxPower = c.PowerStates[r.Reach.Deepest].MaxPower
	}
	first := &row.Results[0]
	for k := 1; k < n; k++ {
		r := &row.Results[k]
		ch := SurveyChange{
			Config:         k,
			Changed:        !sameCommand(&first.Plan, &r.Plan),
			StallReduction: int64(first.Reach.WorstExitLatency) - int64(r.Reach.WorstExitLatency),
			IdlePowerDelta: int64(r.DeepestMaxPower.MicroWatts()) - int64(first.DeepestMaxPower.MicroWatts()),
			Barred:         first.Reach.States &^ r.Reach.States &^ 1,
			Gained:         r.Reach.States &^ first.Reach.States &^ 1,
			Bars:           barClass(first.Reach.States, r.Reach.States),
		}
		row.Changes[k-1] = ch
		row.Changed = row.Changed || ch.Changed
	}
	var buf [Entries + 2]budgetStep
	steps := budgetSteps(c, &first.Plan, buf[:0])

	d := surveyDrive{
		name: name, changed: row.Changed, reach0: first.Reach.States,
		stall0: uint32(min(uint64(first.Reach.WorstExitLatency), math.MaxUint32)),
		power0: uint32(first.DeepestMaxPower.MicroWatts()),
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.vendorN[row.Vendor]
	if !ok {
		v = int32(len(s.vendors))
		vendor := strings.Clone(row.Vendor)
		s.vendors = append(s.vendors, vendor)
		s.vendorN[vendor] = v
	}
	d.vendor = v
	d.sweepOff, d.sweepLen = uint32(len(s.sweeps)), uint32(len(steps))
	s.sweeps = append(s.sweeps, steps...)
	s.drives = append(s.drives, d)
	for _, ch := range row.Changes {
		s.changes = append(s.changes, surveyChange{
			stall: ch.StallReduction, power: ch.IdlePowerDelta,
			changed: ch.Changed, gained: ch.Gained != 0, bars: ch.Bars,
		})
	}
	return nil
}

// sameCommand reports whether two plans make the kernel send the same Set
// Features command: both or neither sent, the same APSTE and table.
func sameCommand(a, b *Plan) bool {
	return a.Sent == b.Sent && a.Enabled == b.Enabled && a.Table == b.Table
}

// budgetSteps is a lean Sweep of c under the parameters of plan ref (whose
// bound is ignored): for each candidate start (0, 1 and every gate latency)
// the worst stall, the deepest state's power, the reach and whether the plan
// programs what ref does; neighbours with equal values are merged. It does
// not allocate beyond out's capacity.
func budgetSteps(c *powerstate.Controller, ref *Plan, out []budgetStep) []budgetStep {
	p := ref.Params
	mode := p.Mode()
	var buf [Entries + 2]uint64
	starts := breakpoints(c, mode, &buf)
	for _, start := range starts {
		p.MaxLatency = Microseconds(start)
		plan, err := Build(c, p)
		if err != nil { // not reached: the generation was checked
			continue
		}
		r := Reachability(c, &plan.Table)
		st := budgetStep{
			min:    start,
			stall:  uint32(min(uint64(r.WorstExitLatency), math.MaxUint32)),
			power:  uint32(c.PowerStates[r.Deepest].MaxPower.MicroWatts()),
			states: r.States,
			same:   sameCommand(&plan, ref),
		}
		if n := len(out); n > 0 {
			last := out[n-1]
			if last.stall == st.stall && last.power == st.power && last.states == st.states && last.same == st.same {
				continue
			}
		}
		out = append(out, st)
	}
	return out
}

// Distribution summarises a set of integer values: their count, extremes,
// nearest-rank median and 90th percentile (the smallest value that at least
// 50% or 90% of the values do not exceed), and their exact sum. All fields
// are 0 for an empty set.
type Distribution struct {
	N                     int
	Min, Median, P90, Max int64
	Sum                   int64
}

// Mean returns Sum/N, 0 for an empty set.
func (d Distribution) Mean() float64 {
	if d.N == 0 {
		return 0
	}
	return float64(d.Sum) / float64(d.N)
}

// distribution sorts vs in place and summarises it.
func distribution(vs []int64) Distribution {
	if len(vs) == 0 {
		return Distribution{}
	}
	slices.Sort(vs)
	rank := func(p int) int64 {
		k := (p*len(vs) + 99) / 100 // ceil(p*n/100), at least 1 for p > 0
		return vs[max(k, 1)-1]
	}
	d := Distribution{N: len(vs), Min: vs[0], Median: rank(50), P90: rank(90), Max: vs[len(vs)-1]}
	for _, v := range vs {
		d.Sum += v
	}
	return d
}

// SurveySummary is the aggregate of a survey.
type SurveySummary struct {
	// Configs are the survey's configurations.
	Configs []Config
	// Drives is the number of drives added.
	Drives int
	// Changed is the number of drives whose Set Features command (sent,
	// APSTE or table) differs from the first configuration's under at
	// least one other configuration.
	Changed int
	// Comparisons holds one entry per configuration after the first.
	Comparisons []SurveyComparison
}

// SurveyComparison is the aggregate of one configuration against the
// survey's first.
type SurveyComparison struct {
	// Config is the index in the survey's configurations (1 or more) and
	// Name its name.
	Config int
	Name   string
	// Drives is the number of drives; Changed of them have a different Set
	// Features command (SurveyChange.Changed).
	Drives, Changed int
	// StallReduction is the distribution, over the changed drives, of
	// SurveyChange.StallReduction (µs).
	StallReduction Distribution
	// IdlePowerIncrease is the distribution, over the changed drives, of
	// SurveyChange.IdlePowerDelta (µW). An unchanged drive's delta is 0, so
	// Sum is also the fleet's total.
	IdlePowerIncrease Distribution
	// Every drive is in exactly one of the four classes below. NoIdle
	// counts the drives that reach no non-operational state under the
	// first configuration (nothing to bar). BarsNone lists the drives that
	// keep every state the first configuration reaches; BarsAll those left
	// with no reachable non-operational state although the first
	// configuration reaches some; BarsSome counts the rest. The lists hold
	// the names given to Add, sorted.
	NoIdle   int
	BarsNone []string
	BarsSome int
	BarsAll  []string
	// Gains counts the drives that reach a state the first configuration
	// does not reach.
	Gains int
	// Vendors holds the same figures per vendor (DriveVendor), sorted by
	// vendor.
	Vendors []VendorSummary
}

// VendorSummary is a SurveyComparison restricted to one vendor's drives.
type VendorSummary struct {
	Vendor                            string
	Drives, Changed                   int
	StallReduction, IdlePowerIncrease Distribution
	NoIdle, BarsNone, BarsSome        int
	BarsAll, Gains                    int
}

// Summary aggregates the drives added so far. It does not change the
// survey; Add may be called again afterwards.
func (s *Survey) Summary() SurveySummary {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.drives)
	nc := len(s.configs) - 1
	sum := SurveySummary{Configs: slices.Clone(s.configs), Drives: n}
	for i := range s.drives {
		if s.drives[i].changed {
			sum.Changed++
		}
	}
	// Vendors in name order.
	order := make([]int32, len(s.vendors))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(s.vendors[a], s.vendors[b]) })
	rank := make([]int32, len(s.vendors))
	for r, v := range order {
		rank[v] = int32(r)
	}

	stall := make([][]int64, len(s.vendors))
	power := make([][]int64, len(s.vendors))
	var allStall, allPower []int64
	for k := 1; k <= nc; k++ {
		cmp := SurveyComparison{Config: k, Name: s.configs[k].Name, Drives: n,
			BarsNone: []string{}, BarsAll: []string{}}
		vs := make([]VendorSummary, len(s.vendors))
		for i := range stall {
			stall[i], power[i] = stall[i][:0], power[i][:0]
			vs[rank[i]].Vendor = s.vendors[i]
		}
		allStall, allPower = allStall[:0], allPower[:0]
		for i := range s.drives {
			d := &s.drives[i]
			ch := &s.changes[i*nc+k-1]
			v := &vs[rank[d.vendor]]
			v.Drives++
			if ch.changed {
				cmp.Changed++
				v.Changed++
				stall[d.vendor] = append(stall[d.vendor], ch.stall)
				power[d.vendor] = append(power[d.vendor], ch.power)
				allStall = append(allStall, ch.stall)
				allPower = append(allPower, ch.power)
			}
			if ch.gained {
				cmp.Gains++
				v.Gains++
			}
			switch ch.bars {
			case BarsNoIdle:
				cmp.NoIdle++
				v.NoIdle++
			case BarsNone:
				cmp.BarsNone = append(cmp.BarsNone, d.name)
				v.BarsNone++
			case BarsSome:
				cmp.BarsSome++
				v.BarsSome++
			case BarsAll:
				cmp.BarsAll = append(cmp.BarsAll, d.name)
				v.BarsAll++
			}
		}
		for i := range stall {
			v := &vs[rank[i]]
			v.StallReduction = distribution(stall[i])
			v.IdlePowerIncrease = distribution(power[i])
		}
		cmp.StallReduction = distribution(allStall)
		cmp.IdlePowerIncrease = distribution(allPower)
		slices.Sort(cmp.BarsNone)
		slices.Sort(cmp.BarsAll)
		cmp.Vendors = vs
		sum.Comparisons = append(sum.Comparisons, cmp)
	}
	return sum
}

// BudgetAnswer is the answer of StallBudget.
type BudgetAnswer struct {
	// Budget is the largest worst wake stall accepted, in µs.
	Budget Microseconds
	// Params are the first configuration's parameters, whose bound
	// (ps_max_latency_us) is what varies; each drive also gets its quirks
	// when the survey applies them.
	Params Params
	// Drives is the number of drives.
	Drives int
	// Acceptable lists the bounds that keep every drive's worst wake stall
	// (Reach.WorstExitLatency) within Budget, as maximal ranges in
	// increasing order. Since the kernel never selects a state whose exit
	// latency exceeds the bound, every bound up to Budget is acceptable, so
	// Acceptable[0] starts at 0 and reaches at least Budget.
	Acceptable []BoundRange
	// Bound is the largest acceptable bound: the least restrictive default
	// that keeps every drive within the budget (NoLimit when no bound
	// breaks it).
	Bound Microseconds
	// Binding lists, sorted, the drives whose worst stall exceeds the
	// budget at Bound+1: those that keep the default from being higher.
	// Empty when Bound is NoLimit.
	Binding []string
	// Changed counts the drives whose Set Features command at Bound differs
	// from the one under the first configuration.
	Changed int
	// StallReduction and IdlePowerIncrease are the distributions, over the
	// changed drives, of the worst stall under the first configuration
	// minus the one at Bound (µs), and of the deepest reachable state's
	// maximum power at Bound minus under the first configuration (µW):
	// what the bound buys and costs. IdlePowerIncrease.Sum is the fleet's
	// total.
	StallReduction, IdlePowerIncrease Distribution
	// LosesAll lists, sorted, the drives that reach a non-operational state
	// under the first configuration but none at Bound.
	LosesAll []string
}

// StallBudget answers the inverse question: the largest bound B such that,
// for every drive added, the worst wake stall under the first
// configuration's parameters with ps_max_latency_us = B is at most budget,
// and what B costs in idle power across the fleet compared with the first
// configuration. Each drive's worst stall as a function of the bound is
// read from its exact bound sweep (the same breakpoints as Sweep), and the
// fleet's acceptable bounds are the intersection of the drives'. With no
// drives every bound is acceptable.
func (s *Survey) StallBudget(budget Microseconds) BudgetAnswer {
	s.mu.Lock()
	defer s.mu.Unlock()
	ans := BudgetAnswer{Budget: budget, Params: s.configs[0].Params, Drives: len(s.drives),
		Binding: []string{}, LosesAll: []string{}}
	acc := []BoundRange{{0, NoLimit}}
	var mine, next []BoundRange
	for i := range s.drives {
		mine = s.acceptable(&s.drives[i], budget, mine[:0])
		next = intersectRanges(acc, mine, next[:0])
		acc, next = next, acc
	}
	ans.Acceptable = slices.Clone(acc)
	if len(acc) > 0 { // always: [0, budget] is acceptable for every drive
		ans.Bound = acc[len(acc)-1].Max
	}
	var stall, power []int64
	for i := range s.drives {
		d := &s.drives[i]
		steps := s.sweeps[d.sweepOff : d.sweepOff+d.sweepLen]
		st := stepAt(steps, ans.Bound)
		if ans.Bound != NoLimit && Microseconds(stepAt(steps, ans.Bound+1).stall) > budget {
			ans.Binding = append(ans.Binding, d.name)
		}
		if !st.same {
			ans.Changed++
			stall = append(stall, int64(d.stall0)-int64(st.stall))
			power = append(power, int64(st.power)-int64(d.power0))
		}
		if st.states&^1 == 0 && d.reach0&^1 != 0 {
			ans.LosesAll = append(ans.LosesAll, d.name)
		}
	}
	ans.StallReduction = distribution(stall)
	ans.IdlePowerIncrease = distribution(power)
	slices.Sort(ans.Binding)
	slices.Sort(ans.LosesAll)
	return ans
}

// stepAt returns the step of a drive's sweep that holds bound b.
func stepAt(steps []budgetStep, b Microseconds) budgetStep {
	i, found := slices.BinarySearchFunc(steps, uint64(b), func(st budgetStep, b uint64) int {
		switch {
		case st.min < b:
			return -1
		case st.min > b:
			return 1
		}
		return 0
	})
	if !found {
		i--
	}
	return steps[max(i, 0)]
}

// acceptable appends to out the bound ranges that keep drive d within
// budget.
func (s *Survey) acceptable(d *surveyDrive, budget Microseconds, out []BoundRange) []BoundRange {
	steps := s.sweeps[d.sweepOff : d.sweepOff+d.sweepLen]
	for j, st := range steps {
		if Microseconds(st.stall) > budget {
			continue
		}
		hi := NoLimit
		if j+1 < len(steps) {
			hi = Microseconds(steps[j+1].min - 1)
		}
		if n := len(out); n > 0 && out[n-1].Max+1 == Microseconds(st.min) {
			out[n-1].Max = hi
			continue
		}
		out = append(out, BoundRange{Min: Microseconds(st.min), Max: hi})
	}
	return out
}

// intersectRanges appends to out the intersection of two sorted lists of
// disjoint ranges.
func intersectRanges(a, b, out []BoundRange) []BoundRange {
	for i, j := 0, 0; i < len(a) && j < len(b); {
		lo, hi := max(a[i].Min, b[j].Min), min(a[i].Max, b[j].Max)
		if lo <= hi {
			out = append(out, BoundRange{Min: lo, Max: hi})
		}
		if a[i].Max < b[j].Max {
			i++
		} else {
			j++
		}
	}
	return out
}

// DriveQuirks returns the APST quirks (NO_APST, NO_DEEPEST_PS) the kernel's
// quirk tables assign controller c at probe time (LookupQuirks(...).APST()
// without allocating), from what
// the capture records: VID, model and firmware for core_quirks[], and the
// PCI vendor:device ID for the nvme-pci table when the capture has it
// (powerstate.FieldPCIDeviceID; most captures do not, so PCI-ID quirks such
// as the Intel 600p's are then missed). No DMI rule applies: the machine is
// unknown.
func DriveQuirks(c *powerstate.Controller) Quirks {
	id := Identity{VendorID: c.VendorID, Model: c.Model, Firmware: c.Firmware}
	if c.Known.Has(powerstate.FieldPCIDeviceID) {
		id.PCI = PCIID{Vendor: c.VendorID, Device: c.PCIDeviceID}
	}
	var q Quirks
	for i := range surveyCoreQuirks {
		cq := &surveyCoreQuirks[i]
		if cq.VendorID == id.VendorID && paddedMatch(id.Model, cq.Model) && paddedMatch(id.Firmware, cq.Firmware) {
			q |= cq.Quirks
		}
	}
	if !id.PCI.IsZero() {
		for i := range surveyPCIQuirks {
			if surveyPCIQuirks[i].ID == id.PCI {
				q |= surveyPCIQuirks[i].Quirks
			}
		}
	}
	return q.APST()
}

// The kernel's quirk tables, built once: DriveQuirks runs for every drive
// of a survey and must not allocate. They are never modified.
var (
	surveyCoreQuirks = CoreQuirks()
	surveyPCIQuirks  = PCIQuirks()
)

// pciVendors names the PCI vendor IDs common on NVMe drives (the PCI ID
// Repository's names, shortened). Many retail drives carry the ID of their
// controller's maker (Phison, Silicon Motion, Realtek, Maxio, InnoGrit)
// rather than their brand's: that is also who writes the power state table.
var pciVendors = map[uint16]string{
	0x025e: "Solidigm",
	0x10ec: "Realtek",
	0x106b: "Apple",
	0x1179: "Toshiba",
	0x126f: "Silicon Motion",
	0x1344: "Micron",
	0x144d: "Samsung",
	0x14a4: "Lite-On",
	0x15b7: "SanDisk/WD",
	0x17aa: "Lenovo",
	0x1987: "Phison",
	0x1b4b: "Marvell",
	0x1b96: "Western Digital",
	0x1bb1: "Seagate",
	0x1c58: "HGST",
	0x1c5c: "SK hynix",
	0x1cc1: "ADATA",
	0x1d79: "Transcend",
	0x1d97: "Longsys",
	0x1dbe: "InnoGrit",
	0x1dee: "Biwin",
	0x1e0f: "KIOXIA",
	0x1e49: "YMTC",
	0x1e4b: "Maxio",
	0x1f40: "Netac",
	0x2646: "Kingston",
	0x8086: "Intel",
	0xc0a9: "Micron/Crucial",
}

// DriveVendor returns the vendor a survey groups controller c under: the
// name of its PCI vendor ID (VID) when it is one of a small table of
// vendors common on NVMe drives; otherwise the first word of the model
// number; otherwise the first word of name's last path element (up to a
// space, "_" or "."); otherwise "unknown".
func DriveVendor(name string, c *powerstate.Controller) string {
	if c != nil {
		if v, ok := pciVendors[c.VendorID]; ok && (c.Known == 0 || c.Known.Has(powerstate.FieldVendorID)) {
			return v
		}
		if f := strings.Fields(c.Model); len(f) > 0 {
			return f[0]
		}
	}
	base := name[strings.LastIndexAny(name, `/\`)+1:]
	if i := strings.IndexAny(base, " _."); i >= 0 {
		base = base[:i]
	}
	if base == "" {
		return "unknown"
	}
	return base
}
