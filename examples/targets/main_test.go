package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/testfixture"
)

func TestTargets990EVOPlus(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(&out, []string{testfixture.Path(testfixture.Samsung990EVOPlus)}))
	s := out.String()
	assert.Contains(t, s, "Samsung SSD 990 EVO Plus 1TB (binary), current, quirks none\n")
	assert.Contains(t, s, "  bound 0us        targets off        deepest ps0, worst exit 0us (same table for 0us..0us)\n")
	assert.Contains(t, s, "  bound 25000us    targets ps3        deepest ps3, worst exit 4600us (same table for 4600us..42999us)\n")
	assert.Contains(t, s, "  bound 100000us   targets ps3,ps4    deepest ps4, worst exit 43000us (same table for 43000us..unlimited)\n")
	assert.Contains(t, s, "note: kernel release unknown")
}

func TestTargetsIntel600pQuirk(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(&out, []string{"-with", "kernel=6.8", testfixture.Path(testfixture.IntelSSDPEKKW256G7), "unlimited"}))
	s := out.String()
	assert.Contains(t, s, "quirks no-deepest-ps\n")
	assert.Contains(t, s, "  bound unlimited  targets ps3        deepest ps3, worst exit 300us (same table for 300us..unlimited)\n")
	assert.Contains(t, s, "PCI ID inferred as 8086:f1a5")
}

func TestTargetsErrors(t *testing.T) {
	var out bytes.Buffer
	assert.ErrorContains(t, run(&out, nil), "usage")
	assert.Error(t, run(&out, []string{testfixture.Path("identify/missing.bin")}))
	assert.ErrorContains(t, run(&out, []string{testfixture.Path(testfixture.Samsung990EVOPlus), "12abc"}), "12abc")
	assert.Error(t, run(&out, []string{"-with", "kernel=v9", testfixture.Path(testfixture.Samsung990EVOPlus)}))
}
