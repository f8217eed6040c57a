package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A plan flag that the others make change nothing is refused, naming both:
// --pci-id beside --quirks (the PCI-ID table's quirks are replaced), and a
// secondary (or the other primary) beside a primary of 0 (the kernel then
// uses the 2% heuristic, which reads none of them). Each alone, or with a
// primary that is not 0, is read.
func TestPlanFlagsThatChangeNothing(t *testing.T) {
	inRepoRoot(t)
	const id = "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin"
	for _, tc := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"--quirks", "none", "--pci-id", "8086:f1a5"}, exitUsage, "--quirks and --pci-id contradict each other"},
		{[]string{"--apst-primary-timeout-ms", "0", "--apst-secondary-timeout-ms", "12345"}, exitUsage, "--apst-secondary-timeout-ms changes nothing"},
		{[]string{"--apst-primary-timeout-ms", "0", "--apst-secondary-latency-tol-us", "7"}, exitUsage, "2% heuristic"},
		{[]string{"--apst-primary-latency-tol-us", "0", "--apst-primary-timeout-ms", "50"}, exitUsage, "--apst-primary-timeout-ms changes nothing"},
		{[]string{"--quirks", "none"}, exitOK, ""},
		{[]string{"--pci-id", "8086:f1a5"}, exitOK, ""},
		{[]string{"--apst-primary-timeout-ms", "0"}, exitOK, ""},
		{[]string{"--apst-primary-timeout-ms", "0", "--apst-primary-latency-tol-us", "0"}, exitOK, ""},
		{[]string{"--apst-primary-timeout-ms", "50", "--apst-secondary-timeout-ms", "500"}, exitOK, ""},
	} {
		code, _, errOut := apstctl(t, nil, append([]string{"plan", id}, tc.args...)...)
		assert.Equal(t, tc.code, code, "%v: %s", tc.args, errOut)
		assert.Contains(t, errOut, tc.says, tc.args)
	}
	// compare's --with may give a configuration what the base flags do not.
	code, _, errOut := apstctl(t, nil, "compare", id, "--quirks", "none", "--pci-id", "8086:f1a5", "--with", "quirks=tables", "--with", "ps-max-latency-us=25000")
	assert.Equal(t, exitOK, code, errOut)
}

// --force reads a binary image (or APST buffer) that looks like none: given
// with a text capture, which says what it is, it would be ignored, and is
// refused; with a binary image it is read.
func TestForceOnTextRefused(t *testing.T) {
	inRepoRoot(t)
	for _, args := range [][]string{
		{"plan", "testdata/corpus/smartctl/ADATA_FALCON_V9002s94.txt", "--force"},
		{"decode", "examples/apstctl/testdata/feature/samsung-990-evo-plus-100ms.txt", "--force"},
	} {
		code, _, errOut := apstctl(t, nil, args...)
		assert.Equal(t, exitUsage, code, "%v: %s", args, errOut)
		assert.Contains(t, errOut, "read it without --force", args)
	}
	code, _, errOut := apstctl(t, nil, "plan", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "--force")
	assert.Equal(t, exitOK, code, errOut)
}

// check's --force serves both captures: with a binary image that needs it
// and a get-feature text capture it is read (it was refused as applying to
// the text one); with two text captures it is refused.
func TestCheckForceServesEitherCapture(t *testing.T) {
	inRepoRoot(t)
	img, err := os.ReadFile("testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin")
	require.NoError(t, err)
	for i := 24; i < 64; i++ { // the model number: blank, as no Identify image has it
		img[i] = 0
	}
	blank := filepath.Join(t.TempDir(), "blank.bin")
	require.NoError(t, os.WriteFile(blank, img, 0o644))
	const feature = "examples/apstctl/testdata/feature/samsung-990-evo-plus-100ms.txt"
	code, _, errOut := apstctl(t, nil, "check", blank, feature)
	require.Equal(t, exitUsage, code, "the image needs --force: %s", errOut)
	code, out, errOut := apstctl(t, nil, "check", "--force", blank, feature)
	assert.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "from binary")
	code, _, errOut = apstctl(t, nil, "check", "--force", "testdata/corpus/smartctl/ADATA_FALCON_V9002s94.txt", feature)
	assert.Equal(t, exitUsage, code, errOut)
	assert.Contains(t, errOut, "read it without --force")
}
