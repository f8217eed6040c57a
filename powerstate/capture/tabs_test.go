package capture_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// tabify turns the runs of two or more blanks of s that reach a tab stop
// (every 8 columns) into tabs, as unexpand -a, a terminal's copy or an
// editor's "indent with tabs" does.
func tabify(s string) string {
	var b strings.Builder
	col := 0
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == '\n' || c == '\r':
			b.WriteByte(c)
			col = 0
			i++
		case c == ' ':
			j := i
			for j < len(s) && s[j] == ' ' {
				j++
			}
			end := col + j - i
			if j-i >= 2 {
				for (col/8+1)*8 <= end {
					b.WriteByte('\t')
					col = (col/8 + 1) * 8
				}
			}
			b.WriteString(strings.Repeat(" ", end-col))
			col, i = end, j
		default:
			b.WriteByte(c)
			col++
			i++
		}
	}
	return b.String()
}

// TestTabbedNVMeCLIText: nvme-cli text whose aligned blanks a copy turned
// into tabs reads as the capture; the key lines were skipped before
// ("vid\t  : 0x144d" is no "key : value" of blanks), so the v1 text read
// with every header field unknown (APSTA among them, then assumed) and
// the v2 text had "no power state table".
func TestTabbedNVMeCLIText(t *testing.T) {
	// Lines of corpus/nvme-cli/synthetic/Samsung_SSD_990_EVO_Plus_1TB_2B2QKXG7.v2.txt
	// as unexpand -a leaves them.
	const v2Head = "vid\t  : 0x144d\nmn\t  : Samsung SSD 990 EVO Plus 1TB\t    \nfr\t  : 2B2QKXG7\nnpss\t  : 4\napsta\t  : 0x1\n"
	for _, tc := range []struct {
		name, head, ps string
	}{
		{"v1", v2Head, "ps    %d : mp:6.00W operational enlat:0 exlat:0 rrt:%d rrl:0\n\t  rwt:0 rwl:0 idle_power:- active_power:-\n"},
		{"v2", v2Head, "ps\t%d : mp:6.00W operational enlat:0 exlat:0 rrt:%d rrl:0\n\t    rwt:0 rwl:0 idle_power:- active_power:-\n\t    active_power_workload:-\n"},
		{"tab after colon", "vid\t:\t0x144d\nmn\t:\tSamsung SSD 990 EVO Plus 1TB\nfr\t:\t2B2QKXG7\nnpss\t:\t4\napsta\t:\t0x1\n",
			"ps\t%d\t:\tmp:6.00W\toperational\tenlat:0\texlat:0\trrt:%d\trrl:0\n\trwt:0\trwl:0\tidle_power:-\tactive_power:-\n"},
	} {
		in := tc.head
		for i := range 5 {
			in += fmt.Sprintf(tc.ps, i, i)
		}
		c := mustParse(t, in)
		assert.True(t, c.Knows(powerstate.FieldVendorID|powerstate.FieldModel|powerstate.FieldFirmware|powerstate.FieldAPSTA|powerstate.FieldNPSS), "%s: %v", tc.name, c.Missing)
		assert.Equal(t, uint16(0x144d), c.VendorID, tc.name)
		assert.Equal(t, "Samsung SSD 990 EVO Plus 1TB", c.Model, tc.name)
		assert.Equal(t, "2B2QKXG7", c.Firmware, tc.name)
		assert.Equal(t, uint8(1), c.APSTA, tc.name)
		assert.Equal(t, uint8(4), c.NPSS, tc.name)
		assert.Equal(t, uint8(4), c.PowerStates[4].RelativeReadThroughput, tc.name)
	}
	// Every text capture of the corpus, tabbed.
	for _, cp := range formsOf(t) {
		b, err := os.ReadFile(cp.path)
		require.NoError(t, err)
		raw := string(b)
		want := mustParse(t, raw)
		got, err := parseString(tabify(raw))
		if assert.NoError(t, err, cp.path) {
			sameCapture(t, want, got, cp.path+" tabbed")
		}
	}
	require.Equal(t, "a\tb  c\n\tx", tabify("a       b  c\n        x"))
}
