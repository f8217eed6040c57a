package capture_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// wrapAt breaks every line of s longer than width columns, as a mail
// client or a forum does: at the last blank before the limit (which the
// break drops) when words, else hard at the limit. A line that starts with
// requote (a mail quote) has it repeated on its continuations, as some
// clients do.
func wrapAt(s string, width int, words bool, requote string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		nl := strings.HasSuffix(l, "\n")
		l = strings.TrimSuffix(l, "\n")
		again := ""
		if requote != "" && strings.HasPrefix(l, requote) {
			again = requote
		}
		for len(l) > width {
			cut, skip := width, 0
			if i := strings.LastIndex(l[:width+1], " "); words && i > len(again) {
				cut, skip = i, 1
			}
			b.WriteString(l[:cut] + "\n")
			l = again + l[cut+skip:]
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
		{"words at 72", wrapAt(head+table, 72, true, ""), "ZP1000CM30001"},
		{"hard at 72", wrapAt(head+table, 72, false, ""), "001"},
		{"wrapped, then quoted in a reply", quote(wrapAt(head+table, 72, true, ""), 2), "ZP1000CM30001"},
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
				got, err := parseString(wrapAt(string(b), width, words, ""))
				if err == nil {
					sameCapture(t, want, got, dev.smartctl)
				}
			}
		}
	}
}

// TestWrappedQuotedCapture: a capture quoted in a mail ("> ") whose client
// then wrapped the long lines, leaving the end of a line on a line of its
// own without the quote (or with it), reads as the capture when no line
// it reads was wrapped, and is refused naming the wrapped line when one
// was. The unquoted end of a line ended the quoted block, so the rest of
// the capture was dropped: "capture has no power state table" for a
// smartctl -x report (its "Optional NVM Commands" line wraps), and an
// nvme-cli power state line wrapped at 72 to 78 columns was refused as
// malformed without naming the wrap.
func TestWrappedQuotedCapture(t *testing.T) {
	for _, tc := range []struct {
		name, path    string // under the corpus
		depth, width  int
		words         bool
		requote       bool
		line, of      int    // the line refused and the line it continues; 0 when it reads
		found, expect string // the refused line's text and what was expected
	}{
		{"smartctl -x at 72", "smartctl/Samsung_SSD_980_1TB_1B4QFXO7.txt", 1, 72, true, false, 0, 0, "", ""},
		{"smartctl -x at 72, requoted", "smartctl/Samsung_SSD_980_1TB_1B4QFXO7.txt", 1, 72, true, true, 0, 0, "", ""},
		{"smartctl -x, banner wrapped twice", "smartctl/Intel_SSDPE21D480GA_E2010420.txt", 1, 72, true, false, 0, 0, "", ""},
		{"smartctl model at 72", "smartctl/Seagate_BarraCuda_510_SSD_ZP1000CM30001_STPSC014.txt", 1, 72, true, false, 8, 7, "ZP1000CM30001", `a "Key: value" line`},
		{"smartctl table header, quoted twice, at 64", "smartctl/Samsung_SSD_980_1TB_1B4QFXO7.txt", 2, 64, true, false, 40, 39, "Ex_Lat", "power state row 0"},
		{"smartctl table header, hard at 64", "smartctl/Samsung_SSD_980_1TB_1B4QFXO7.txt", 2, 64, false, false, 40, 39, "at", "power state row 0"},
		{"nvme-cli v2 ps line at 72", "nvme-cli/synthetic/Intel_MEMPEK1J016GAL_K4110400.v2.txt", 1, 72, true, false, 23, 22, "rrl:0", `"rwt:N rwl:N idle_power:P active_power:P"`},
		{"nvme-cli v2 ps line at 72, requoted", "nvme-cli/synthetic/Intel_MEMPEK1J016GAL_K4110400.v2.txt", 1, 72, true, true, 23, 22, "rrl:0", `"rwt:N rwl:N idle_power:P active_power:P"`},
		{"nvme-cli v2 ps line hard at 78", "nvme-cli/synthetic/SanDisk_A400_SD9PN9U-256G-1001_A3590001.v2.txt", 1, 78, false, false, 26, 25, "0", `"rwt:N rwl:N idle_power:P active_power:P"`},
		{"nvme-cli v1 ps line at 74", "nvme-cli/synthetic/Intel_MEMPEK1J016GAL_K4110400.v1.txt", 1, 74, true, false, 20, 19, "rrl:0", `"rwt:N rwl:N idle_power:P active_power:P"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(corpusDir, filepath.FromSlash(tc.path)))
			require.NoError(t, err)
			requote := ""
			if tc.requote {
				requote = strings.Repeat("> ", tc.depth)
			}
			in := wrapAt(quote(string(b), tc.depth), tc.width, tc.words, requote)
			require.NotEqual(t, quote(string(b), tc.depth), in, "wrapped")
			if tc.line == 0 {
				got, err := parseString(in)
				if assert.NoError(t, err) {
					sameCapture(t, mustParse(t, string(b)), got, tc.path)
				}
				return
			}
			pe := parseErr(t, in)
			assert.ErrorIs(t, pe, capture.ErrSyntax)
			assert.Equal(t, tc.line, pe.Line, pe.Error())
			assert.Equal(t, tc.found, strings.TrimLeft(strings.Split(in, "\n")[tc.line-1], "> "), "the line named is the wrapped end")
			assert.Equal(t, tc.expect+" after line "+strconv.Itoa(tc.of)+
				" (this line continues it: the capture was wrapped; give it with its lines whole)", pe.Expected)
			assert.Contains(t, pe.Error(), `found "`+tc.found+`"`)
		})
	}
	// Every text capture of the corpus quoted once or twice and wrapped
	// at 64 to 78 columns reads as itself or is refused naming the wrap.
	for _, cp := range formsOf(t) {
		b, err := os.ReadFile(cp.path)
		require.NoError(t, err)
		want := mustParse(t, string(b))
		for depth := 1; depth <= 2; depth++ {
			q := quote(string(b), depth)
			for _, width := range []int{64, 72, 78} {
				for _, words := range []bool{true, false} {
					for _, requote := range []string{"", strings.Repeat("> ", depth)} {
						got, err := parseString(wrapAt(q, width, words, requote))
						if err != nil {
							assert.Contains(t, err.Error(), "the capture was wrapped", "%s quoted %d, at %d", cp.path, depth, width)
							continue
						}
						sameCapture(t, want, got, cp.path)
					}
				}
			}
		}
	}
}
