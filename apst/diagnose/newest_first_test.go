package diagnose_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// A log pasted newest first gives the answer it gives oldest first, its
// line numbers counted from its end, and says so once.
func TestNewestFirstNote(t *testing.T) {
	for _, name := range []string{"apst.log", "aspm.log", "d3cold.log", "firmware.log"} {
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile("testdata/" + name)
			require.NoError(t, err)
			lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
			for i, j := 0, len(lines)-1; i < j; i, j = i+1, j-1 {
				lines[i], lines[j] = lines[j], lines[i]
			}
			l, err := kernlog.ReadString(string(b), kernlog.Options{})
			require.NoError(t, err)
			want := diagnose.Diagnose(diagnose.Input{Log: l})
			rl, err := kernlog.ReadString(strings.Join(lines, "\n")+"\n", kernlog.Options{})
			require.NoError(t, err)
			require.True(t, rl.NewestFirst)
			got := diagnose.Diagnose(diagnose.Input{Log: rl})
			assert.Equal(t, want.Summary, got.Summary)
			assert.Equal(t, want.Undecided, got.Undecided)
			assert.Contains(t, got.Notes, "the log's lines run newest first (an export sorted by time, descending, or journalctl -r): it was read reversed, oldest first, and its line numbers count from its end (line 1 is its last line)")
			assert.NotContains(t, strings.Join(want.Notes, "\n"), "newest first")
		})
	}
}

// A log whose line ends were lost (every message on one line, as a web
// form pastes it) gives the answer it gives line by line: messages on
// one line keep their order.
func TestOneLineLog(t *testing.T) {
	const removal = "[ 3901.112233] nvme nvme0: pci function 0000:04:00.0\n" +
		"[ 3950.200001] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n" +
		"[ 3950.200010] nvme nvme0: Does your device have a faulty power saving mode enabled?\n" +
		"[ 3950.300000] nvme 0000:04:00.0: Unable to change power state from D3cold to D0, device inaccessible\n" +
		"[ 3950.400000] nvme nvme0: Disabling device after reset failure: -19\n"
	for _, name := range []string{"removal", "apst.log", "aspm.log", "d3cold.log", "firmware.log"} {
		t.Run(name, func(t *testing.T) {
			b := []byte(removal)
			if name != "removal" {
				var err error
				b, err = os.ReadFile("testdata/" + name)
				require.NoError(t, err)
			}
			l, err := kernlog.ReadString(string(b), kernlog.Options{})
			require.NoError(t, err)
			want := diagnose.Diagnose(diagnose.Input{Log: l})
			one, err := kernlog.ReadString(strings.ReplaceAll(strings.TrimSpace(string(b)), "\n", " ")+"\n", kernlog.Options{})
			require.NoError(t, err)
			got := diagnose.Diagnose(diagnose.Input{Log: one})
			assert.Equal(t, want.Undecided, got.Undecided)
			require.NotEmpty(t, got.Causes)
			assert.Equal(t, want.Causes[0].Layer, got.Causes[0].Layer)
			assert.Equal(t, want.Causes[0].Likelihood, got.Causes[0].Likelihood)
		})
	}
}
