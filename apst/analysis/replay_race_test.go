//go:build race

package analysis_test

const replayRaceEnabled = true
