package analysis

// sortIndexes sorts idx, the indexes of a few elements, by cmp, keeping
// equal ones in order: an insertion sort, for the short lists it is given
// (a table's entries, the reproductions of a check), which neither
// allocates nor costs the page's wasm a generic instantiation of
// slices.SortStableFunc.
func sortIndexes(idx []int, cmp func(a, b int) int) {
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && cmp(idx[j-1], idx[j]) > 0; j-- {
			idx[j-1], idx[j] = idx[j], idx[j-1]
		}
	}
}
