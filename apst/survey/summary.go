package survey

import (
	"slices"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst/analysis"
)

// Summary is the aggregate of a survey.
//
// The zero Summary is what Summary returns for a zero Survey: no
// configurations, no drives and no comparisons.
type Summary struct {
	// Configs are the survey's configurations.
	Configs []analysis.Config
	// Drives is the number of drives recorded.
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
//
// The zero Comparison compares no configuration (Config 0 is the first
// itself) over no drive: every count is 0, both distributions are empty and
// it has no vendor.
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
//
// The zero VendorSummary is that of no drive of an unnamed vendor: every
// count is 0 and both distributions are empty.
type VendorSummary struct {
	Vendor                        string
	Drives, Changed               int
	StallReduction, PowerIncrease analysis.Distribution
	NoIdle, BarsNone, BarsSome    int
	BarsAll, Gains                int
}

// Summary aggregates the drives recorded so far. It does not change the
// survey; drives may be added afterwards. A zero Survey's summary has no
// configurations, no drives and no comparisons.
func (s *Survey) Summary() Summary {
	st := s.snapshot()
	n := st.len()
	nc := len(s.configs) - 1
	sum := Summary{Configs: slices.Clone(s.configs), Drives: n}
	for i := range n {
		for k := 1; k <= nc; k++ {
			if st.power[k].at(int(st.prof.at(i)))&flagChanged != 0 {
				sum.Changed++
				break
			}
		}
	}
	// Vendors in name order.
	order := make([]uint32, len(st.vendors))
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(a, b uint32) int { return strings.Compare(st.vendors[a], st.vendors[b]) })
	rank := make([]uint32, len(st.vendors))
	for r, v := range order {
		rank[v] = uint32(r)
	}

	stall := make([][]int64, len(st.vendors))
	power := make([][]int64, len(st.vendors))
	var allStall, allPower []int64
	for k := 1; k <= nc; k++ {
		cmp := Comparison{Config: k, Name: s.configs[k].Name, Drives: n,
			BarsNone: []string{}, BarsAll: []string{}}
		vs := make([]VendorSummary, len(st.vendors))
		for i := range stall {
			stall[i], power[i] = stall[i][:0], power[i][:0]
			vs[rank[i]].Vendor = st.vendors[i]
		}
		allStall, allPower = allStall[:0], allPower[:0]
		var names nameCursor // in order
		for i := range n {
			p := int(st.prof.at(i))
			vendor := st.vendor.at(p)
			v := &vs[rank[vendor]]
			v.Drives++
			pk := st.power[k].at(p)
			if pk&flagChanged != 0 {
				cmp.Changed++
				v.Changed++
				ds := int64(st.stall[0].at(p)) - int64(st.stall[k].at(p))
				dp := int64(pk&powerMask) - int64(st.power[0].at(p)&powerMask)
				stall[vendor] = append(stall[vendor], ds)
				power[vendor] = append(power[vendor], dp)
				allStall = append(allStall, ds)
				allPower = append(allPower, dp)
			}
			if pk&flagGained != 0 {
				cmp.Gains++
				v.Gains++
			}
			switch st.bars[k-1].at(p) {
			case BarsNoIdle:
				cmp.NoIdle++
				v.NoIdle++
			case BarsNone:
				cmp.BarsNone = append(cmp.BarsNone, names.at(&st.names, i))
				v.BarsNone++
			case BarsSome:
				cmp.BarsSome++
				v.BarsSome++
			case BarsAll:
				cmp.BarsAll = append(cmp.BarsAll, names.at(&st.names, i))
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
