package analysis

import "slices"

// Distribution summarises a set of integer values: their count, extremes,
// nearest-rank median and 90th percentile (the smallest value that at least
// 50% or 90% of the values do not exceed), and their exact sum. All fields
// are 0 for an empty set.
//
// The zero Distribution is that of the empty set, what NewDistribution
// returns for no values; its Mean is 0.
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

// NewDistribution sorts vs in place and summarises it.
func NewDistribution(vs []int64) Distribution {
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
