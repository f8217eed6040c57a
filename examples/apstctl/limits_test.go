package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
	"github.com/nvmeapst/nvmeapst/apst/persist"
	"github.com/nvmeapst/nvmeapst/apst/survey"
)

// Every command taking --with takes at most maxConfigs of them: the next is
// refused with the range (exit 2) before anything is read; maxConfigs are
// accepted.
func TestWithConfigurationsLimit(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "two.plain")
	assert.NoError(t, os.WriteFile(plain, []byte("0.0\n5.0\n"), 0o644))
	fleet := filepath.Join(dir, "fleet")
	assert.NoError(t, os.Mkdir(fleet, 0o755))
	b, err := os.ReadFile(evoImage)
	assert.NoError(t, err)
	assert.NoError(t, os.WriteFile(filepath.Join(fleet, "evo.bin"), b, 0o644))
	withs := func(n int) []string {
		var a []string
		for i := 1; i <= n; i++ {
			a = append(a, "--with", "ps-max-latency-us="+strconv.Itoa(i*1000))
		}
		return a
	}
	for _, args := range [][]string{
		{"compare", evoImage},
		{"replay", evoImage, plain},
		{"survey", fleet},
		{"measure", "--simulate", evoImage, "--trials", "1", "--idle", "1ms"},
	} {
		code, out, errOut := apstctl(t, nil, append(args, withs(maxConfigs+1)...)...)
		assert.Equal(t, exitUsage, code, "%q: %s", args, out)
		assert.Contains(t, errOut, "--with ps-max-latency-us=33000: configuration 33: want at most 32 configurations (--with given 1 to 32 times)", "%q", args)
		assert.Empty(t, out, "%q", args)

		code, out, errOut = apstctl(t, nil, append(args, withs(maxConfigs)...)...)
		assert.Equal(t, exitOK, code, "%q: %s", args, errOut)
		assert.NotEmpty(t, out, "%q", args)
	}
}

// simulate --count is refused outside 1 to 10000000 with the range.
func TestSimulateCountLimit(t *testing.T) {
	for _, n := range []string{"0", "-1", "10000001", "99999999999999999999", "x"} {
		code, out, errOut := apstctl(t, nil, "simulate", evoImage, "--gaps", "exp:1s", "--count", n)
		assert.Equal(t, exitUsage, code, "%s: %s", n, out)
		assert.Contains(t, errOut, "--count "+n+": want 1 to 10000000", n)
	}
	code, _, errOut := apstctl(t, nil, "simulate", evoImage, "--gaps", "exp:1s", "--count", "1")
	assert.Equal(t, exitOK, code, errOut)
}

// diagnose says how many "pci function" lines it did not keep beyond
// kernlog.MaxAddresses, in text and JSON.
func TestDiagnoseSaysDroppedAddresses(t *testing.T) {
	var b strings.Builder
	for i := range kernlog.MaxAddresses + 1000 {
		fmt.Fprintf(&b, "[ 1.0] nvme nvme%d: pci function 0000:%02x:%02x.%d\n", i%8, i>>8&0xff, i>>3&0x1f, i&7)
	}
	b.WriteString("[ 3.0] nvme nvme1: I/O 1 QID 1 timeout, aborting\n")
	log := filepath.Join(t.TempDir(), "kern.log")
	assert.NoError(t, os.WriteFile(log, []byte(b.String()), 0o644))
	code, out, errOut := apstctl(t, nil, "diagnose", "--log", log)
	assert.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "skipped: 1000 pci function lines of addresses beyond the first 4096")
	code, out, errOut = apstctl(t, nil, "diagnose", "--log", log, "-o", "json")
	assert.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, `"dropped_addresses": 1000`)
}

// survey --persist keeps persist.MaxFleetModels models; the drives of the
// others are said to have no rule, on the text report and in the rules file.
func TestSurveyPersistSaysDroppedModels(t *testing.T) {
	g, err := persist.ParseGoal("stall=25ms")
	assert.NoError(t, err)
	fleet, err := persist.NewFleet(g)
	assert.NoError(t, err)
	for i := range persist.MaxFleetModels + 3 {
		assert.NoError(t, fleet.Add("model "+strconv.Itoa(i), 100000, []survey.Step{{Min: 0}}))
	}
	assert.Equal(t, 3, fleet.Dropped)
	assert.Equal(t, "  3 drives of models beyond the first 100000 (the most --persist keeps): no rule for them\n", fleetDroppedText("  ", fleet.Dropped))
	assert.Equal(t, "# 1 drive of models beyond the first 100000 (the most --persist keeps): no rule for them\n", fleetDroppedText("# ", 1))
	assert.Empty(t, fleetDroppedText("# ", 0))
}

// --merge refuses a shard of more configurations than a survey takes.
func TestSurveyMergeConfigurationsLimit(t *testing.T) {
	var names []string
	for i := range maxConfigs + 1 {
		names = append(names, `{"name":"ps-max-latency-us=`+strconv.Itoa(i+1)+`"}`)
	}
	shard := filepath.Join(t.TempDir(), "shard.json")
	assert.NoError(t, os.WriteFile(shard, []byte(`{"configs":[`+strings.Join(names, ",")+`],"kernel_quirks":true,"drives":[]}`), 0o644))
	code, out, errOut := apstctl(t, nil, "survey", "--merge", "--format", "json", shard)
	assert.Equal(t, exitUsage, code, out)
	assert.Contains(t, errOut, "shard.json: 33 configurations: want 2 to 32 (a survey takes --with at most 32 times)")
}

// diagnose's text counts a log's lines, events and incidents in words ("1
// incident") and says only what it skipped ("1 line over 65536 bytes").
func TestDiagnoseCountsInWords(t *testing.T) {
	log := filepath.Join(t.TempDir(), "kern.log")
	text := "[ 1.0] nvme nvme0: " + strings.Repeat("A", kernlog.MaxLineLength+1) + "\n" +
		"[ 3.0] nvme nvme0: I/O 1 QID 1 timeout, aborting\n"
	require.NoError(t, os.WriteFile(log, []byte(text), 0o644))
	code, out, errOut := apstctl(t, nil, "diagnose", "--log", log)
	assert.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "kernel log: 2 lines, 1 event, 1 incident\n")
	assert.Contains(t, out, fmt.Sprintf("  skipped: 1 line over %d bytes\n", kernlog.MaxLineLength))
}
