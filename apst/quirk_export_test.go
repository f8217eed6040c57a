package apst

// QuirkHistory exposes every entry the quirk tables have had, for the
// history tests.
func QuirkHistory() []QuirkEntry {
	out := make([]QuirkEntry, len(quirkHistory))
	for i := range quirkHistory {
		out[i] = quirkHistory[i].clone()
	}
	return out
}
