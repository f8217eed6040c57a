package survey

import (
	"slices"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst/analysis"
)

// Summary is the aggregate of a survey.
type Summary struct {
	// Configs are the survey's configurations.
	Configs []analysis.Config
	// Drives is the number of drives added.
	Drives int
	// Changed is the number of drives whose Set Features command (sent,
	// APSTE or table) differs from the first configuration's under at
	// least one other configuration.
	Changed int
	// Comparisons holds one entry per configuration after the first.
	Comparisons []Comparison
}

// Comparison is the aggregate of one configuration against the
// survey's first.
type Comparison struct {
	// Config is the index in the survey's configurations (1 or more) and
	// Name its name.
	Config int
	Name   string
	// Drives is the number of drives; Changed of them have a different Set
	// Features command (Change.Changed).
	Drives, Changed int
	// StallReduction is the distribution, over the changed drives, of
	// Change.StallReduction (µs).
	StallReduction analysis.Distribution
	// PowerIncrease is the distribution, over the changed drives, of
	// Change.PowerDelta (µW). An unchanged drive's delta is 0, so
	// Sum is also the fleet's total.
	PowerIncrease analysis.Distribution
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

// VendorSummary is a Comparison restricted to one vendor's drives.
type VendorSummary struct {
	Vendor                            string
	Drives, Changed                   int
	StallReduction, PowerIncrease analysis.Distribution
	NoIdle, BarsNone, BarsSome        int
	BarsAll, Gains                    int
}

// Summary aggregates the drives added so far. It does not change the
// survey; Add may be called again afterwards.
func (s *Survey) Summary() Summary {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.drives)
	nc := len(s.configs) - 1
	sum := Summary{Configs: slices.Clone(s.configs), Drives: n}
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
		cmp := Comparison{Config: k, Name: s.configs[k].Name, Drives: n,
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
			v.StallReduction = analysis.NewDistribution(stall[i])
			v.PowerIncrease = analysis.NewDistribution(power[i])
		}
		cmp.StallReduction = analysis.NewDistribution(allStall)
		cmp.PowerIncrease = analysis.NewDistribution(allPower)
		slices.Sort(cmp.BarsNone)
		slices.Sort(cmp.BarsAll)
		cmp.Vendors = vs
		sum.Comparisons = append(sum.Comparisons, cmp)
	}
	return sum
}
