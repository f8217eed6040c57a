package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
)

const triedLog = "../../apst/diagnose/testdata/aspm.log"

// Many --tried values cost time in proportion to their number: each was
// checked against every one before it (1000 values 1 s, 4000 more than
// 30 s, and ^C unheeded meanwhile). They are read together once; more
// than diagnose.MaxTried settings are a usage error naming the maximum.
func TestDiagnoseTriedManyValues(t *testing.T) {
	args := []string{"diagnose", "--log", triedLog}
	for range 4000 {
		args = append(args, "--tried", "pcie_aspm=off")
	}
	start := time.Now()
	code, stdout, stderr := apstctl(t, nil, args...)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, "tried: pcie_aspm=off (did not help)\n", "read once")
	assert.Less(t, time.Since(start), 5*time.Second)

	args = []string{"diagnose", "--log", triedLog}
	for i := range diagnose.MaxTried + 1 {
		args = append(args, "--tried", fmt.Sprintf("/sys/bus/pci/devices/0000:%03x:00.0/d3cold_allowed=0", i))
	}
	code, stdout, stderr = apstctl(t, nil, args...)
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, fmt.Sprintf("more than %d settings tried", diagnose.MaxTried))
}

// --tried reads values as the kernel does and refuses, with the one
// meant, one the kernel would ignore; before, pcie_aspm=OFF counted as
// off and pcie_aspm=of was weighed (with no effect), exit 0 both.
func TestDiagnoseTriedAsTheKernelReadsIt(t *testing.T) {
	for _, tc := range []struct{ tried, says string }{
		{"pcie_aspm=OFF", `the kernel takes pcie_aspm=off or force, compared exactly, and ignores pcie_aspm="OFF": did you mean "pcie_aspm=off"?`},
		{"pcie_aspm=of", `did you mean "pcie_aspm=off"?`},
		{"PCIE_ASPM=OFF", `unknown setting "PCIE_ASPM": did you mean "pcie_aspm=off"?`},
		{"nvme_core.default_ps_max_latency=0", `did you mean "nvme_core.default_ps_max_latency_us=0"?`},
		{"pcie_aspm=off:", `no outcome after ':'`},
	} {
		code, stdout, stderr := apstctl(t, nil, "diagnose", "--log", triedLog, "--tried", tc.tried)
		assert.Equal(t, exitUsage, code, tc.tried)
		assert.Empty(t, stdout, tc.tried)
		assert.Contains(t, stderr, tc.says, tc.tried)
	}
	// The same answer for APST off however the number is written, and
	// for a paste of lines as for one line.
	_, want, _ := apstctl(t, nil, "diagnose", "--log", triedLog, "--tried", "nvme_core.default_ps_max_latency_us=0,pcie_aspm=off:helped")
	require.Contains(t, want, "most likely aspm")
	for _, tried := range []string{
		"nvme_core.default_ps_max_latency_us=0x0,pcie_aspm=off:helped",
		"nvme_core.default_ps_max_latency_us=00 pcie_aspm=off :helped",
		"\ufeffnvme_core.default_ps_max_latency_us=0\r\npcie_aspm=off\t: helped\r\n",
	} {
		code, stdout, stderr := apstctl(t, nil, "diagnose", "--log", triedLog, "--tried", tried)
		require.Equal(t, exitOK, code, stderr)
		// (The value is quoted as given.)
		same := strings.NewReplacer("_us=0x0", "_us=0", "_us=00", "_us=0").Replace(stdout)
		assert.Equal(t, strings.Split(want, "\ntried: ")[0], strings.Split(same, "\ntried: ")[0], "%q", tried)
	}
	// A name the diagnosis does not know, far from all it does, is kept
	// and said to weigh nothing.
	code, stdout, stderr := apstctl(t, nil, "diagnose", "--log", triedLog, "--tried", "foo_bar=1")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, "note: tried foo_bar=1 (did not help): no setting the diagnosis knows")
}

// A --tried setting given as having helped that the log's own command line
// has is not counted as having helped, and a note says why, with the
// line; before, the answer was "most likely aspm (pcie_aspm helped ...)".
// It is no usage error: the log's command line is its last boot's, which
// may not be the failure's.
func TestDiagnoseTriedHelpedOnTheLogsCommandLine(t *testing.T) {
	log, err := os.ReadFile(triedLog)
	require.NoError(t, err)
	p := filepath.Join(t.TempDir(), "kern.log")
	require.NoError(t, os.WriteFile(p, []byte(strings.Replace(string(log), "ro quiet splash", "ro quiet splash pcie_aspm=off", 1)), 0o644))
	code, stdout, stderr := apstctl(t, nil, "diagnose", "--log", p, "--tried", "pcie_aspm=off:helped")
	require.Equal(t, exitOK, code, stderr)
	assert.NotContains(t, stdout, "most likely aspm")
	assert.Contains(t, stdout, "note: tried pcie_aspm=off (helped), yet the kernel command line (kernel log line 2) has pcie_aspm=off, and the drive failed: not counted as having helped")
	assert.Contains(t, stdout, "tried: pcie_aspm=off (did not help) [the log's command line]\n")
}
