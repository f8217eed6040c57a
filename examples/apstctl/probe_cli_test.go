package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// --pci-id is the capture's PCI ID whatever --quirks says: an invalid one
// is refused, and a --with quirks=tables (which looks the tables up again)
// uses it, instead of inferring the ID from the model and telling the user
// to give the --pci-id they gave.
func TestPCIIDBesideQuirks(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		code    int
		want    string // in standard error, or in standard output when code is exitOK
		notWant string // nowhere
	}{
		{"invalid ID refused", []string{"plan", intelImage, "--quirks", "none", "--pci-id", "garbage"},
			exitUsage, "--pci-id garbage: ", ""},
		{"invalid ID refused, sweep", []string{"sweep", intelImage, "--quirks", "no-apst", "--pci-id", "8086"},
			exitUsage, "--pci-id 8086: ", ""},
		{"tables of a --with use it", []string{"compare", intelImage, "--quirks", "none", "--pci-id", "8086:f1a5",
			"--with", "quirks=tables", "--with", "kernel=4.11"},
			exitOK, "quirks no-deepest-ps", "was inferred from model"},
		{"tables of a --with use it, replay", []string{"replay", intelImage, "testdata/replay/intel-600p-run.plain",
			"--quirks", "none", "--pci-id", "8086:f1a5", "--with", "quirks=tables"},
			exitOK, "quirks no-deepest-ps", "give --pci-id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := apstctl(t, nil, tc.args...)
			assert.Equal(t, tc.code, code, errOut)
			if tc.code == exitOK {
				assert.Contains(t, out, tc.want)
			} else {
				assert.Empty(t, out)
				assert.Contains(t, errOut, tc.want)
			}
			if tc.notWant != "" {
				assert.NotContains(t, out+errOut, tc.notWant)
			}
		})
	}
}

// A kernel before v4.11 has no APST: plan answers that it sends nothing,
// whatever the parameters, so a parameter flag beside it changes nothing
// and is refused, as the tolerance-band flags are beside v4.12.
func TestPreAPSTKernelRefusesParameterFlags(t *testing.T) {
	for _, tc := range []struct {
		extra []string
		want  string
	}{
		{[]string{"--ps-max-latency-us", "5"}, "--kernel 4.10 and --ps-max-latency-us contradict each other: Linux 4.10 has no APST"},
		{[]string{"--pm-qos", "auto"}, "--kernel 4.10 and --pm-qos contradict each other"},
		{[]string{"--quirks", "no-apst"}, "--kernel 4.10 and --quirks contradict each other"},
		{[]string{"--apst-primary-timeout-ms", "3"}, "--kernel 4.10 and --apst-primary-timeout-ms contradict each other"},
		{[]string{"--pci-id", "144d:a80d"}, "--kernel 4.10 and --pci-id contradict each other"},
		{[]string{"--force-apst"}, "--kernel 4.10 and --force-apst contradict each other"},
	} {
		t.Run(tc.extra[0], func(t *testing.T) {
			code, out, errOut := apstctl(t, nil, append([]string{"plan", evoImage, "--kernel", "4.10"}, tc.extra...)...)
			assert.Equal(t, exitUsage, code)
			assert.Empty(t, out)
			assert.Contains(t, errOut, "apstctl plan: "+tc.want)
		})
	}
	// Alone, or with what changes the answer's form, it is the answer.
	for _, extra := range [][]string{nil, {"-o", "json"}, {"--force-apst=false"}} {
		code, out, errOut := apstctl(t, nil, append([]string{"plan", evoImage, "--kernel", "4.10"}, extra...)...)
		assert.Equal(t, exitOK, code, errOut)
		assert.Contains(t, out, "has no APST")
	}
}

// survey's CSV holds the per-drive rows only, so a --stall-budget, whose
// answer is in the summary, would be dropped: refused like --summary.
func TestSurveyCSVRefusesStallBudget(t *testing.T) {
	capture := corpusDir + "/smartctl/Samsung_SSD_990_EVO_Plus_1TB_2B2QKXG7.txt"
	code, out, errOut := apstctl(t, nil, "survey", "-o", "csv", "--stall-budget", "25ms", capture)
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "apstctl survey: --stall-budget and --output-format csv contradict each other")
	for _, format := range []string{"normal", "json", "ndjson"} {
		code, out, errOut := apstctl(t, nil, "survey", "-o", format, "--stall-budget", "25ms", capture)
		assert.Equal(t, exitOK, code, errOut)
		assert.Contains(t, strings.ToLower(out), "budget", format)
	}
}

// "-" is standard input in the dialect; a survey, which walks files and
// directories, says it reads it with --merge only, rather than "stat -: no
// such file or directory".
func TestSurveyStandardInput(t *testing.T) {
	code, out, errOut := apstctl(t, nil, "survey", "-")
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "apstctl survey: - (standard input) is read by survey --merge only")
	assert.NotContains(t, errOut, "stat -")
}
