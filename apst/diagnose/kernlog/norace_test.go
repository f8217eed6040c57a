//go:build !race

package kernlog_test

const raceEnabled = false
