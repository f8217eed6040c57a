package analysis

import (
	"math/bits"

	"github.com/nvmeapst/nvmeapst/apst"
)

// countedPercentiles returns the nearest-rank 50th, 90th and 99th
// percentiles and the maximum of a multiset given as values[i] occurring
// counts[i] times, total being the sum of the counts (at least 1): the value
// at rank ceil(p*total/100), at least 1, of the sorted multiset. It is how
// Simulate and Replay summarise wake penalties without keeping one value per
// wake. values and counts have the same length, at most apst.Entries+1.
func countedPercentiles(values []apst.Microseconds, counts []uint64, total uint64) (p50, p90, p99, maxV apst.Microseconds) {
	var buf [apst.Entries + 1]int
	order := buf[:len(values)]
	for i := range order {
		order[i] = i
	}
	sortIndexes(order, func(a, b int) int {
		switch {
		case values[a] < values[b]:
			return -1
		case values[a] > values[b]:
			return 1
		}
		return 0
	})
	rank := func(p uint64) apst.Microseconds {
		hi, lo := bits.Mul64(p, total)
		k, r := bits.Div64(hi, lo, 100) // p <= 100, so hi < 100
		if r != 0 {
			k++
		}
		k = max(k, 1)
		var cum uint64
		for _, i := range order {
			cum += counts[i]
			if cum >= k {
				return values[i]
			}
		}
		return values[order[len(order)-1]]
	}
	return rank(50), rank(90), rank(99), rank(100)
}
