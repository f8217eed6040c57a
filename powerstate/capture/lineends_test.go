package capture_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// TestLineEnds: a capture with Windows ("\r\n"), doubled Windows ("\r\r\n":
// a CRLF file converted a second time, as a paste from Windows mail or an
// editor leaves it) or old Mac ("\r") line ends reads as the capture
// itself, and a damaged one is refused on the line of the LF capture. The
// doubled line ends were two line ends: the text formats were refused one
// line after the table's header ("found \"\"") at twice the line number,
// and JSON errors named twice the line.
func TestLineEnds(t *testing.T) {
	ends := []struct{ name, nl string }{
		{"LF", "\n"}, {"CRLF", "\r\n"}, {"CRCRLF", "\r\r\n"}, {"CR", "\r"},
	}
	for _, tc := range []struct {
		name, path string // path under the corpus, or under testdata/capture
		old, bad   string // damage: the first old replaced with bad
		line       int    // the line the damaged capture is refused on
	}{
		{"smartctl -x", "smartctl/Samsung_SSD_980_1TB_1B4QFXO7.txt", " 2 +     2.19W", " 2 +     2.1xW", 33},
		{"nvme-cli v1 text", "nvme-cli/synthetic/Samsung_SSD_980_1TB_1B4QFXO7.v1.txt", "mp:4.49W", "mp:4.4xW", 14},
		{"nvme-cli v2.12 text", "nvme-cli/synthetic/Samsung_SSD_980_1TB_1B4QFXO7.v2_12.txt", "mp:4.49W", "mp:4.4xW", 18},
		{"nvme-cli JSON", "nvme-cli/synthetic/Samsung_SSD_980_1TB_1B4QFXO7.json", `"apsta": 1`, `"apsta": x`, 10},
		{"smartctl JSON", "capture:smartctl-7.5-samsung-990-evo-plus.json", `"value": 600`, `"value": 6x0`, 110},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b []byte
			if rel, ok := strings.CutPrefix(tc.path, "capture:"); ok {
				b = readTestdata(t, filepath.Join("capture", rel))
			} else {
				var err error
				b, err = os.ReadFile(filepath.Join(corpusDir, filepath.FromSlash(tc.path)))
				require.NoError(t, err)
			}
			clean := strings.ReplaceAll(string(b), "\r\n", "\n")
			require.Contains(t, clean, tc.old)
			want := mustParse(t, clean)
			for _, e := range ends {
				got, err := parseString(strings.ReplaceAll(clean, "\n", e.nl))
				if assert.NoError(t, err, e.name) {
					sameCapture(t, want, got, e.name)
				}
				damaged := strings.Replace(clean, tc.old, tc.bad, 1)
				_, err = parseString(strings.ReplaceAll(damaged, "\n", e.nl))
				var pe *capture.ParseError
				if assert.True(t, errors.As(err, &pe), "%s: %v", e.name, err) {
					assert.Equal(t, tc.line, pe.Line, "%s: %v", e.name, err)
					assert.ErrorIs(t, err, capture.ErrSyntax, e.name)
				}
			}
		})
	}
}
