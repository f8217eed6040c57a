package capture_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// wrapAt breaks every line of s longer than width columns, as a mail
// client or a forum does: at the last blank before the limit (which the
// break drops) when words, else hard at the limit.
func wrapAt(s string, width int, words bool) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		nl := strings.HasSuffix(l, "\n")
		l = strings.TrimSuffix(l, "\n")
		for len(l) > width {
			cut, skip := width, 0
			if i := strings.LastIndex(l[:width+1], " "); words && i > 0 {
				cut, skip = i, 1
			}
			b.WriteString(l[:cut] + "\n")
			l = l[cut+skip:]
		}
		b.WriteString(l)
		if nl {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// TestWrappedSmartctlModel: a smartctl report wrapped at 72 columns puts
// the end of a long model on a line of its own, which was skipped: the
// model read was "Seagate BarraCuda 510 SSD" (or "... ZP1000CM30") with
// no error. It is refused, naming both lines.
func TestWrappedSmartctlModel(t *testing.T) {
	// The first lines of corpus/smartctl/Seagate_BarraCuda_510_SSD_ZP1000CM30001_STPSC014.txt.
	const head = "=== START OF INFORMATION SECTION ===\n" +
		"Model Number:                       Seagate BarraCuda 510 SSD ZP1000CM30001\n" +
		"Serial Number:                      --\n" +
		"Firmware Version:                   STPSC014\n"
	const table = "\nSupported Power States\nSt Op     Max   Active     Idle   RL RT WL WT  Ent_Lat  Ex_Lat\n" +
		" 0 +     9.00W       -        -    0  0  0  0        0       0\n\n"
	for _, tc := range []struct {
		name, in, found string
	}{
		{"words at 72", wrapAt(head+table, 72, true), "ZP1000CM30001"},
		{"hard at 72", wrapAt(head+table, 72, false), "001"},
		{"wrapped, then quoted in a reply", quote(wrapAt(head+table, 72, true), 2), "ZP1000CM30001"},
		{"serial", strings.Replace(head, "--\n", "S6S1NS0T\n123456\n", 1) + table, "123456"},
	} {
		pe := parseErr(t, tc.in)
		assert.ErrorIs(t, pe, capture.ErrSyntax, tc.name)
		assert.Contains(t, pe.Error(), "capture was wrapped", tc.name)
		assert.Contains(t, pe.Error(), `found "`+tc.found+`"`, tc.name)
	}
	// Every smartctl report of the corpus wrapped at 72 or 80 columns
	// reads as itself or is refused: never with another field.
	for _, dev := range corpusDevices(t) {
		b, err := os.ReadFile(dev.smartctl)
		require.NoError(t, err)
		want := mustParse(t, string(b))
		for _, width := range []int{64, 72, 80} {
			for _, words := range []bool{true, false} {
				got, err := parseString(wrapAt(string(b), width, words))
				if err == nil {
					sameCapture(t, want, got, dev.smartctl)
				}
			}
		}
	}
}
