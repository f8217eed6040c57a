package capture_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// pasteCaptures returns one capture of the 990 EVO Plus in every text
// format.
func pasteCaptures(t *testing.T) map[string]string {
	t.Helper()
	c := mustParse(t, smartctlReport(t, evoPlus))
	sj, err := smartctlJSON(&c)
	require.NoError(t, err)
	return map[string]string{
		"nvme-cli v1":    nvmeCLICapture(t, evoPlus, ".v1.txt"),
		"nvme-cli v2":    nvmeCLICapture(t, evoPlus, ".v2.txt"),
		"nvme-cli v2.12": nvmeCLICapture(t, evoPlus, ".v2_12.txt"),
		"nvme-cli json":  nvmeCLICapture(t, evoPlus, ".json"),
		"smartctl text":  smartctlReport(t, evoPlus),
		"smartctl json":  string(sj),
	}
}

// indent prefixes every non-empty line of s with p (and empty lines with
// the quote marks of p, as a mail client does).
func indent(s, p string) string {
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l == "" {
			continue
		}
		if strings.TrimSpace(l) == "" {
			b.WriteString(strings.TrimRight(p, " \t"))
			b.WriteString(l)
			continue
		}
		b.WriteString(p)
		b.WriteString(l)
	}
	return b.String()
}

// TestIndentedPastes: a capture pasted indented (a markdown or reST code
// block), tab-indented or quoted with "> " (an email), with prose around
// it, reads exactly as the capture itself.
func TestIndentedPastes(t *testing.T) {
	for name, s := range pasteCaptures(t) {
		want := mustParse(t, s)
		for _, p := range []string{"  ", "    ", "        ", "\t", "> ", "> > "} {
			for _, wrap := range []struct{ before, after string }{
				{"", ""},
				{"Here is my drive:\n\n```\n", "```\n\nThanks!\n"},
				{"On Monday, Ann wrote:\n", "\n-- \nAnn\n"},
			} {
				// A paste's closing fence or prose starts a line of its
				// own (the corpus's JSON files have no final newline).
				in := wrap.before + indent(s, p) + wrap.after
				if !strings.HasSuffix(s, "\n") && wrap.after != "" {
					in = wrap.before + indent(s, p) + "\n" + wrap.after
				}
				got, err := parseString(in)
				require.NoError(t, err, "%s indented %q", name, p)
				// The notes name lines, which move with the prose.
				got.Notes, want.Notes = nil, nil
				assert.Equal(t, want, got, "%s indented %q", name, p)
			}
		}
	}
}

func TestPasteRefusals(t *testing.T) {
	v2 := nvmeCLICapture(t, evoPlus, ".v2.txt")
	js := nvmeCLICapture(t, evoPlus, ".json")
	sm := smartctlReport(t, evoPlus)
	for _, tc := range []struct {
		name     string
		in       string
		sentinel error
		line     int
		msg      string
	}{
		{"two nvme-cli captures", v2 + "\n" + v2, capture.ErrMultipleCaptures, strings.Count(v2, "\n") + 3,
			"found 2 captures, the second starting on line " + itoa(strings.Count(v2, "\n")+3)},
		{"three smartctl reports", sm + sm + sm, capture.ErrMultipleCaptures, strings.Count(sm, "\n") + 1, "found 3 captures"},
		{"two JSON documents", js + js, capture.ErrMultipleCaptures, 0, "found 2 captures"},
		{"apsta twice", strings.Replace(v2, "apsta     : 0x1\n", "apsta     : 0x1\napsta     : 0\n", 1),
			capture.ErrDuplicateKey, lineOfText(v2, "apsta ") + 1, "apsta on lines " + itoa(lineOfText(v2, "apsta ")) + " and " + itoa(lineOfText(v2, "apsta ")+1)},
		{"JSON key twice", strings.Replace(js, `"apsta": 1,`, `"apsta": 1, "apsta": 0,`, 1), capture.ErrDuplicateKey, 0, "apsta on lines 10 and 10"},
		{"smartctl key twice", strings.Replace(sm, "Model Number:", "Model Number:                       Other\nModel Number:", 1),
			capture.ErrDuplicateKey, 0, "Model Number on lines"},
		{"model too long", strings.Replace(v2, "mn        : Samsung SSD 990 EVO Plus 1TB", "mn        : "+strings.Repeat("M", 41), 1),
			capture.ErrSyntax, lineOfText(v2, "mn "), "at most 40 characters for mn"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.NotEqual(t, tc.in, "")
			pe := parseErr(t, tc.in)
			assert.ErrorIs(t, pe, tc.sentinel)
			if tc.line > 0 {
				assert.Equal(t, tc.line, pe.Line, pe.Error())
			}
			assert.Contains(t, pe.Error(), tc.msg)
		})
	}
}

// TestUnusedFieldsAreNotes: a field APST does not use never refuses a
// capture; it is kept as unknown with a note naming the line.
func TestUnusedFieldsAreNotes(t *testing.T) {
	v2 := nvmeCLICapture(t, evoPlus, ".v2.txt")
	masked := strings.Replace(v2, "sn        : ", "sn        : XXXX-masked-by-the-reporter-XXXX ", 1)
	require.NotEqual(t, v2, masked)
	c := mustParse(t, masked)
	assert.False(t, c.Knows(powerstate.FieldSerial))
	assert.Empty(t, c.Serial)
	require.Len(t, c.Notes, 1)
	assert.Contains(t, c.Notes[0], "line "+itoa(lineOfText(v2, "sn "))+": sn kept as unknown (APST does not use it): expected at most 20 characters for sn")

	noted := strings.Replace(v2, "npss      :", "ver       : NVMe 2.0 (from the datasheet)\nnpss      :", 1)
	require.NotEqual(t, v2, noted)
	c = mustParse(t, noted)
	assert.False(t, c.Knows(powerstate.FieldVersion))
	require.Len(t, c.Notes, 1)
	assert.Contains(t, c.Notes[0], "ver kept as unknown")

	js := nvmeCLICapture(t, evoPlus, ".json")
	c = mustParse(t, strings.Replace(js, `"ieee": 9528,`, `"ieee": 9528, "cntlid": "unknown",`, 1))
	assert.False(t, c.Knows(powerstate.FieldControllerID))
	require.Len(t, c.Notes, 1)
	assert.Contains(t, c.Notes[0], `cntlid kept as unknown`)
}

func TestWrongKindOfCapture(t *testing.T) {
	_, err := capture.ParseBytes(make([]byte, 4000))
	require.ErrorIs(t, err, powerstate.ErrImageSize)
	assert.Equal(t, "capture: binary capture: expected a 4096-byte Identify Controller image: identify controller image is 4000 bytes, want exactly 4096", err.Error())

	for _, in := range []string{
		"get-feature:0x0c (Autonomous Power State Transition), Current value:0x00000001\n\tAutonomous Power State Transition Enable (APSTE): Enabled\n",
		"get-feature:0x0c (Autonomous Power State Transition), Current value:0x00000001\n     0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f\n0000: 18 64 00 00 00 00 00 00 18 64 00 00 00 00 00 00 \"..\"\n",
		`{"feature: 0x0c":{"Current":"0x00000001"}}`,
	} {
		_, err := parseString(in)
		require.ErrorIs(t, err, capture.ErrFeatureCapture, in)
		assert.Contains(t, err.Error(), "capture.ParseFeatureCapture")
	}
	raw := make([]byte, 256)
	raw[0] = 0x18
	_, err = capture.ParseBytes(raw)
	require.ErrorIs(t, err, capture.ErrFeatureCapture)
	assert.Equal(t, capture.FeatureBinary, capture.DetectFeatureFormat(raw))
}

// TestParseBytesDoesNotRetain: the controller ParseBytes returns owns its
// strings; changing the buffer after the call changes nothing.
func TestParseBytesDoesNotRetain(t *testing.T) {
	for name, s := range pasteCaptures(t) {
		b := []byte(s)
		c, err := capture.ParseBytes(b)
		require.NoError(t, err, name)
		want := c
		want.Serial, want.Model, want.Firmware = strings.Clone(c.Serial), strings.Clone(c.Model), strings.Clone(c.Firmware)
		for i := range b {
			b[i] = 'X'
		}
		assert.Equal(t, want, c, name)
	}
}

func TestDecodeAllocatesOnce(t *testing.T) {
	img := testfixture.ReadFile(t, testfixture.Samsung990EVOPlus)
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := powerstate.DecodeIdentify(img); err != nil {
			t.Fatal(err)
		}
	})
	assert.LessOrEqual(t, allocs, 1.0, "DecodeIdentify")
	allocs = testing.AllocsPerRun(100, func() {
		if _, err := capture.ParseBytes(img); err != nil {
			t.Fatal(err)
		}
	})
	assert.LessOrEqual(t, allocs, 1.0, "ParseBytes of an image")
}

// TestUTF16Captures: what PowerShell's ">" writes reads as the capture.
func TestUTF16Captures(t *testing.T) {
	for name, s := range pasteCaptures(t) {
		want := mustParse(t, s)
		for _, le := range []bool{true, false} {
			got, err := capture.ParseBytes(utf16With(s, le))
			require.NoError(t, err, name)
			assert.Equal(t, want, got, name)
		}
	}
}

// A capture copied from a web page that kept its blanks as &nbsp; (each
// run of blanks a no-break space and a blank, a zero-width space at a
// line's end) reads as the capture does; so does one also saved as UTF-16.
func TestWebPageCaptures(t *testing.T) {
	for name, s := range pasteCaptures(t) {
		want := mustParse(t, s)
		web := strings.ReplaceAll(strings.ReplaceAll(s, "  ", "\u00a0 "), "\n", "\u200b\n")
		got, err := capture.ParseBytes([]byte(web))
		require.NoError(t, err, name)
		assert.Equal(t, want, got, name)
		got, err = capture.ParseBytes(utf16With(web, true))
		require.NoError(t, err, name)
		assert.Equal(t, want, got, name)
	}
}

// utf16With encodes s as UTF-16 with a byte order mark.
func utf16With(s string, le bool) []byte {
	b := []byte{0xfe, 0xff}
	if le {
		b = []byte{0xff, 0xfe}
	}
	for _, r := range s {
		if le {
			b = append(b, byte(r), byte(r>>8))
		} else {
			b = append(b, byte(r>>8), byte(r))
		}
	}
	return b
}

// lineOfText returns the 1-based line of the first line of s starting with
// prefix.
func lineOfText(s, prefix string) int {
	for i, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, prefix) {
			return i + 1
		}
	}
	return 0
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestStrayIndent: a first line indented by accident over a capture that
// is not indented reads as the capture.
func TestStrayIndent(t *testing.T) {
	v2 := nvmeCLICapture(t, evoPlus, ".v2.txt")
	want := mustParse(t, v2)
	got := mustParse(t, strings.Replace(v2, "NVME Identify Controller:", "  NVME Identify Controller:", 1))
	assert.Equal(t, want, got)
}

// TestDuplicateElementKeys: a key given twice inside a power state element
// is refused too, naming the element.
func TestDuplicateElementKeys(t *testing.T) {
	c := mustParse(t, smartctlReport(t, evoPlus))
	sj, err := smartctlJSON(&c)
	require.NoError(t, err)
	s := strings.Replace(string(sj), `"exit_latency_us":`, `"exit_latency_us":1,"exit_latency_us":`, 1)
	require.NotEqual(t, string(sj), s)
	pe := parseErr(t, s)
	assert.ErrorIs(t, pe, capture.ErrDuplicateKey)
	assert.Contains(t, pe.Error(), "nvme_power_states[0].exit_latency_us is on line")

	js := nvmeCLICapture(t, evoPlus, ".json")
	s = strings.Replace(js, `"exit_lat": 0,`, `"exit_lat": 0, "exit_lat": 5,`, 1)
	require.NotEqual(t, js, s)
	pe = parseErr(t, s)
	assert.ErrorIs(t, pe, capture.ErrDuplicateKey)
	assert.Contains(t, pe.Error(), "psds[0].exit_lat is on line")
}
