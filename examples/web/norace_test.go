//go:build browser && !race

package main

const raceEnabled = false
