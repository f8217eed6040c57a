package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// persist --check gives each drive the bound of the setting checked (the
// default where it does not reach), and reads the drives of --root or of
// this machine with their own kernel, quirks and PCI ID: a bound flag, and
// without a CAPTURE any plan flag, would change nothing and is refused.
func TestPersistCheckRefusesIgnoredPlanFlags(t *testing.T) {
	const rules = "testdata/persist/evo-family.rules"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--root", bundleDir, "--kernel", "5.10"}, "--kernel applies to a CAPTURE's plan: with --check and no CAPTURE"},
		{[]string{"--root", bundleDir, "--quirks", "none"}, "--quirks applies to a CAPTURE's plan"},
		{[]string{"--root", bundleDir, "--pci-id", "144d:a80d"}, "--pci-id applies to a CAPTURE's plan"},
		{[]string{"--root", bundleDir, "--force-apst"}, "--force-apst applies to a CAPTURE's plan"},
		{[]string{"--root", bundleDir, "--apst-primary-timeout-ms", "5"}, "--apst-primary-timeout-ms applies to a CAPTURE's plan"},
		{[]string{"--root", bundleDir, "--ps-max-latency-us", "5"}, "--ps-max-latency-us does not go with --check: the setting checked gives each drive its bound"},
		{[]string{evoImage, "--pm-qos", "5000"}, "--pm-qos does not go with --check"},
		{[]string{evoImage, "--default-ps-max-latency-us", "5000"}, "--default-ps-max-latency-us does not go with --check"},
	} {
		code, out, errOut := apstctl(t, nil, append([]string{"persist", "--check", rules}, tc.args...)...)
		assert.Equal(t, exitUsage, code, "%q", tc.args)
		assert.Empty(t, out)
		assert.Contains(t, errOut, "apstctl persist: "+tc.want)
	}
	// A plan flag with a CAPTURE plans it.
	code, _, errOut := apstctl(t, nil, "persist", "--check", rules, evoImage, "--root", bundleDir, "--kernel", "5.10")
	assert.Equal(t, exitOK, code, errOut)
}

// persist without a CAPTURE uses --pci-id only to key a --scope pci rule:
// beside another scope it would change nothing, and is refused.
func TestPersistPCIIDWithoutItsScope(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--bound", "25000", "--pci-id", "144d:a80d"}, "--pci-id goes with --scope pci (or a CAPTURE, whose quirks it settles): the all scope would not use it"},
		{[]string{"--bound", "25000", "--pci-id", "144d:a80d", "--model", "Samsung*"}, "the model scope would not use it"},
		{[]string{"--ac", "1000", "--battery", "25000", "--pci-id", "144d:a80d"}, "the all scope would not use it"},
	} {
		code, out, errOut := apstctl(t, nil, append([]string{"persist"}, tc.args...)...)
		assert.Equal(t, exitUsage, code, "%q", tc.args)
		assert.Empty(t, out)
		assert.Contains(t, errOut, "apstctl persist: --pci-id goes with --scope pci")
		assert.Contains(t, errOut, tc.want)
	}
	for _, args := range [][]string{
		{"--bound", "25000", "--pci-id", "144d:a80d", "--scope", "pci"},
		{"--bound", "25000", "--pci-id", "144d:a80d", evoImage},
	} {
		code, _, errOut := apstctl(t, nil, append([]string{"persist"}, args...)...)
		assert.Equal(t, exitOK, code, "%q: %s", args, errOut)
	}
}

// measure --seed draws the random offsets of a live drive (and a simulated
// drive's noise): with --offsets fixed on a live drive it would change
// nothing, and is refused before anything is read or written.
func TestMeasureSeedWithFixedOffsets(t *testing.T) {
	code, out, errOut := apstctl(t, nil, "measure", "nvme999n1", "--offsets", "fixed", "--offset", "4096", "--seed", "5") // no such drive, should it get that far
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "apstctl measure: --seed draws the random offsets: with --offsets fixed on a live drive it would be ignored")
	// Simulated, the seed draws the noise.
	code, _, errOut = apstctl(t, nil, "measure", "--simulate", evoImage, "--trials", "2", "--offsets", "fixed", "--seed", "5")
	assert.Equal(t, exitOK, code, errOut)
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

// A boolean flag given a value that is no boolean says what it wants, as
// --help=x does, not package flag's "parse error".
func TestBoolFlagValue(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"plan", evoImage, "--force-apst=maybe"}, "apstctl plan: --force-apst=maybe: want true or false"},
		{[]string{"survey", corpusDir, "--summary=2x"}, "apstctl survey: --summary=2x: want true or false"},
		{[]string{"survey", corpusDir, "--kernel-quirks="}, `apstctl survey: --kernel-quirks="": want true or false`},
		{[]string{"measure", "--simulate", evoImage, "--trials-detail=on"}, "apstctl measure: --trials-detail=on: want true or false"},
	} {
		code, out, errOut := apstctl(t, nil, tc.args...)
		assert.Equal(t, exitUsage, code)
		assert.Empty(t, out)
		assert.Contains(t, errOut, tc.want)
		assert.NotContains(t, errOut, "parse error")
	}
}

// --format is the alias of -o, --output-format on every command that
// prints, convert too (whose -o is --to): the same bytes, and a second
// spelling with another value is a contradiction.
func TestConvertFormatAlias(t *testing.T) {
	var outs []string
	for _, spelling := range [][]string{{"--to", "json"}, {"-o", "json"}, {"-ojson"}, {"--output-format", "json"}, {"--format", "json"}, {"--format=nvme-cli-json"}} {
		code, out, errOut := apstctl(t, nil, append([]string{"convert", evoImage}, spelling...)...)
		require.Equal(t, exitOK, code, "%q: %s", spelling, errOut)
		outs = append(outs, out)
	}
	for _, out := range outs[1:] {
		assert.Equal(t, outs[0], out)
	}
	code, _, errOut := apstctl(t, nil, "convert", evoImage, "--format", "json", "--to", "binary")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "--format json and --to binary contradict each other")
}
