//go:build !race

package apst_test

// raceEnabled reports a -race build, whose instrumentation allocates.
const raceEnabled = false
