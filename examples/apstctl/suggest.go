package main

// suggest returns the candidate closest to name when it is close enough to
// be a typo (an edit distance of at most 2 and at most half the name's
// length, or name is a prefix of exactly one candidate), or "".
func suggest(name string, candidates []string) string {
	best, bestD := "", 1<<30
	prefixed := ""
	nPrefixed := 0
	for _, c := range candidates {
		if len(name) >= 2 && len(c) > len(name) && c[:len(name)] == name {
			if prefixed != c {
				nPrefixed++
			}
			prefixed = c
		}
		if d := editDistance(name, c); d < bestD || d == bestD && c < best {
			best, bestD = c, d
		}
	}
	if bestD <= 2 && 2*bestD <= len(name) {
		return best
	}
	if nPrefixed == 1 {
		return prefixed
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
