package capture_test

import (
	"bytes"
	"fmt"
	"io"
	"mime/quotedprintable"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// The forms a capture takes on its way from a terminal into a bug report,
// each made the way it happens to a capture, applied to every capture of
// the corpus (TestCorpusForms) and kept as files made with the real tools
// under testdata/capture/forms (TestFormFiles).

// flatten strips the leading white space of every line, as a forum that
// does not keep it does.
func flatten(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimLeft(l, " \t")
	}
	return strings.Join(lines, "")
}

// tableOnly cuts a text capture to its power state table: from the
// "Supported Power States" title of a smartctl report to its last row, or
// from the first "ps" block of an nvme-cli text to its last block line,
// with the final line terminator when nl.
func tableOnly(s string, f powerstate.Format, nl bool) string {
	lines := strings.SplitAfter(s, "\n")
	start, end := -1, -1
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch f {
		case powerstate.FormatSmartctlText:
			if t == "Supported Power States" {
				start = i
			}
			if start >= 0 && i > start+1 && t != "" && t[0] >= '0' && t[0] <= '9' && end == i-1 {
				end = i
			}
			if start >= 0 && i == start+2 && t != "" {
				end = i
			}
		default:
			if start < 0 && strings.HasPrefix(t, "ps ") {
				start = i
			}
			if start >= 0 && t != "" && (l[0] == ' ' || strings.HasPrefix(t, "ps ")) {
				end = i
			}
		}
	}
	if start < 0 || end < start {
		return ""
	}
	out := strings.Join(lines[start:end+1], "")
	if !nl {
		out = strings.TrimRight(out, "\n")
	}
	return out
}

// mailEncode encodes s as a mail client encodes a body quoted-printable
// (soft line breaks at 76 characters, "=" as =3D, trailing blanks as =20).
func mailEncode(s string) string {
	var b strings.Builder
	w := quotedprintable.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.String()
}

// quote prefixes every line of s with depth "> " quotes, as a reply does.
func quote(s string, depth int) string {
	if depth == 0 {
		return s
	}
	return indent(s, strings.Repeat("> ", depth))
}

// formsOf returns every text capture of the corpus with its format: the
// real smartctl reports and the nvme-cli text of the three generations.
func formsOf(tb testing.TB) []corpusCapture {
	tb.Helper()
	var out []corpusCapture
	for _, dev := range corpusDevices(tb) {
		out = append(out, corpusCapture{dev.smartctl, powerstate.FormatSmartctlText})
		for _, o := range dev.others {
			if o.format == powerstate.FormatNVMeCLIText {
				out = append(out, o)
			}
		}
	}
	return out
}

// sameTable checks that got carries the table and fields of want: every
// field, notes aside (they name lines, which a form may move).
func sameCapture(t *testing.T, want, got powerstate.Controller, msg string) {
	t.Helper()
	want.Notes, got.Notes = nil, nil
	assert.Equal(t, want, got, msg)
}

// sameTable checks that got has the power state table of want.
func sameTable(t *testing.T, want, got *powerstate.Controller, msg string) {
	t.Helper()
	assert.Equal(t, want.NPSS, got.NPSS, msg)
	assert.Equal(t, want.PowerStates, got.PowerStates, msg)
	assert.Empty(t, diffControllers(want, got, powerstate.FieldPowerStates|powerstate.FieldNPSS|
		(want.Known()&got.Known()&(powerstate.FieldIdlePower|powerstate.FieldActivePower)), want.Format), msg)
}

// TestCorpusForms runs every text capture of the corpus through each form
// a paste takes and checks that it reads as the original.
func TestCorpusForms(t *testing.T) {
	caps := formsOf(t)
	require.NotEmpty(t, caps)
	for _, cp := range caps {
		raw, err := os.ReadFile(cp.path)
		require.NoError(t, err)
		want, err := capture.Parse(bytes.NewReader(raw))
		require.NoError(t, err, cp.path)
		name := filepath.Base(cp.path)

		// Flattened: every field as the original.
		got, err := parseString(flatten(string(raw)))
		if assert.NoError(t, err, "%s flattened", name) {
			sameCapture(t, want, got, name+" flattened")
		}

		// A mail body: quoted ("> ") before or after the encoding, at any
		// depth, with prose around it.
		for depth := range 3 {
			for _, in := range []string{
				quote(mailEncode(string(raw)), depth),
				mailEncode(quote(string(raw), depth)),
				mailEncode("Hi,\n\nhere is what my drive says:\n\n" + quote(string(raw), depth) + "\nThanks, Ann\n"),
			} {
				got, err := parseString(in)
				if assert.NoError(t, err, "%s mail-encoded, depth %d", name, depth) {
					decoded := in != quote(string(raw), depth) && strings.Contains(in, "=")
					if decoded {
						assert.Contains(t, got.Notes, "the capture was quoted-printable (a mail body: =20, =3D, soft line breaks) and was decoded; line numbers are those of the decoded text", name)
					}
					sameCapture(t, want, got, name+" mail-encoded")
				}
			}
		}

		// The table alone, with and without its final newline.
		for _, nl := range []bool{true, false} {
			s := tableOnly(string(raw), cp.format, nl)
			require.NotEmpty(t, s, name)
			got, err := parseString(s)
			if assert.NoError(t, err, "%s table only (final newline %v)", name, nl) {
				assert.Equal(t, cp.format, got.Format, name)
				sameTable(t, &want, &got, name+" table only")
			}
			// Flattened too.
			got, err = parseString(flatten(s))
			if assert.NoError(t, err, "%s table only, flattened (final newline %v)", name, nl) {
				sameTable(t, &want, &got, name+" table only, flattened")
			}
		}
	}
}

// TestFlattenedErrors: a flattened capture that is malformed is refused
// with an error that never quotes a line of the shape it says it expected.
func TestFlattenedErrors(t *testing.T) {
	for _, suffix := range []string{".v1.txt", ".v2.txt", ".v2_12.txt"} {
		s := flatten(nvmeCLICapture(t, evoPlus, suffix))
		for _, tc := range []struct {
			name, old, new string
		}{
			{"rwt line lost", "rwt:0 rwl:0 idle_power:- active_power:-\n", ""},
			{"rwt value", "rwt:0 rwl:0", "rwt:x rwl:0"},
			{"ps line", "ps    0 : mp:", "ps    0 : mq:"},
		} {
			in := strings.Replace(s, tc.old, tc.new, 1)
			if in == s {
				continue
			}
			pe := parseErr(t, in)
			msg := pe.Error()
			// The quoted line, if any, is not of the expected shape.
			if strings.Contains(pe.Expected, `"rwt:N rwl:N`) {
				assert.NotContains(t, msg, `found "rwt:`, "%s %s: %s", suffix, tc.name, msg)
			}
			assert.ErrorIs(t, pe, capture.ErrSyntax, "%s %s", suffix, tc.name)
		}
	}
}

// TestTableOnlyCut: a table pasted alone whose last row was cut inside a
// number is refused as truncated, not read with the cut number.
func TestTableOnlyCut(t *testing.T) {
	s := tableOnly(smartctlReport(t, evoPlus), powerstate.FormatSmartctlText, false)
	require.True(t, strings.HasSuffix(s, "43000"))
	for _, cut := range []string{s[:len(s)-3], s[:len(s)-1], s[:len(s)-6]} {
		pe := parseErr(t, cut)
		assert.ErrorIs(t, pe, capture.ErrTruncated, "%q", cut[len(cut)-20:])
	}
	// Whole, it reads, and says it read to the end.
	c := mustParse(t, s)
	assert.Equal(t, uint8(4), c.NPSS)
	require.Len(t, c.Notes, 1)
	assert.Contains(t, c.Notes[0], "runs to the end of the capture")
	// The column line without the title reads too.
	c2 := mustParse(t, s[strings.Index(s, "St Op"):])
	assert.Equal(t, c.PowerStates, c2.PowerStates)
	// A malformed column line is named by its line.
	pe0 := parseErr(t, strings.Replace(s, "Ex_Lat", "Ex_Lot", 1))
	assert.ErrorIs(t, pe0, capture.ErrSyntax)
	assert.Equal(t, 2, pe0.Line)
	// Under a report a table that runs to the end is a cut report.
	report := smartctlReport(t, evoPlus)
	pe := parseErr(t, report[:strings.Index(report, "43000")+5])
	assert.ErrorIs(t, pe, capture.ErrTruncated)
}

// TestNVMeCLI3Captures: nvme-cli 3.0 renames "nvme id-ctrl" to "nvme id
// ctrl" and prints a deprecation warning on stderr for the old name, which
// a capture taken with 2>&1 holds before (or, flushed late, after) the
// output; it can also make JSON the default output. Each reads as the
// capture without the warning.
func TestNVMeCLI3Captures(t *testing.T) {
	warnings := []string{
		"WARNING: 'nvme id-ctrl' is deprecated and will be removed, use 'nvme id ctrl' instead\n",
		"warning: id-ctrl: deprecated command name, use \"nvme id ctrl\"\n",
		"Deprecated: id-ctrl, use 'id ctrl'\n",
	}
	for _, suffix := range []string{".v1.txt", ".v2.txt", ".v2_12.txt", ".json"} {
		s := nvmeCLICapture(t, evoPlus, suffix)
		want := mustParse(t, s)
		// nvme-cli ends its output with a newline (the corpus's JSON
		// files do not): a warning flushed late starts a line of its own.
		// (Text run into the closing brace is refused: TestJSONTrailing.)
		ended := s
		if !strings.HasSuffix(s, "\n") {
			ended += "\n"
		}
		for _, w := range warnings {
			for _, in := range []string{w + s, ended + w, "$ sudo nvme id-ctrl /dev/nvme0 2>&1\n" + w + s} {
				got, err := parseString(in)
				if assert.NoError(t, err, "%s with %q", suffix, w) {
					sameCapture(t, want, got, suffix+" with a warning")
				}
			}
		}
	}
}

// formFiles are the files of testdata/forms (made by its make.sh the way
// each form occurs) with the capture each was made from, and whether the
// form keeps every field (else the table).
var formFiles = []struct {
	file, original string
	whole          bool
	note           string
}{
	{"evo.nvme-cli-v1.flattened.txt", "corpus/nvme-cli/synthetic/" + evoPlus + ".v1.txt", true, ""},
	{"evo.nvme-cli-v2_12.flattened.txt", "corpus/nvme-cli/synthetic/" + evoPlus + ".v2_12.txt", true, ""},
	{"evo.smartctl.flattened.txt", "corpus/smartctl/" + evoPlus + ".txt", true, ""},
	{"evo.smartctl.table-only.txt", "corpus/smartctl/" + evoPlus + ".txt", false, "runs to the end of the capture"},
	{"evo.nvme-cli-v2_12.qp.txt", "corpus/nvme-cli/synthetic/" + evoPlus + ".v2_12.txt", true, "quoted-printable"},
	{"evo.smartctl.qp-quoted-first.eml", "corpus/smartctl/" + evoPlus + ".txt", true, "quoted-printable"},
	{"evo.smartctl.qp-quoted-after.txt", "corpus/smartctl/" + evoPlus + ".txt", true, "quoted-printable"},
	{"evo.nvme-cli-3.0-warning.txt", "corpus/nvme-cli/synthetic/" + evoPlus + ".v2_12.txt", true, ""},
	{"evo.image.hexdump-C.txt", testfixture.Samsung990EVOPlus, true, "hexdump -C, lines 2 to 24"},
	{"evo.image.xxd.txt", testfixture.Samsung990EVOPlus, true, "xxd, lines 1 to 256"},
	{"evo.image.od.txt", testfixture.Samsung990EVOPlus, true, "od -A x -t x1z"},
}

// TestFormFiles reads each form file and compares it with the capture it
// was made from.
func TestFormFiles(t *testing.T) {
	// The hex dump layouts of testfixture.hexDump, which the corpus tests
	// use, are the tools' own.
	img := testfixture.ReadFile(t, testfixture.Samsung990EVOPlus)
	for file, layout := range map[string]string{"evo.image.hexdump-C.txt": "hexdump -C", "evo.image.xxd.txt": "xxd", "evo.image.od.txt": "od -A x -t x1z"} {
		real := string(testfixture.ReadFile(t, "forms/"+file))
		assert.Contains(t, flatten(real), flatten(testfixture.HexDump(img, layout)), file)
	}
	pe := parseErr(t, string(testfixture.ReadFile(t, "forms/evo.image-2048.hexdump-C.txt")))
	assert.ErrorIs(t, pe, powerstate.ErrImageSize)
	assert.Contains(t, pe.Error(), "2048 bytes")

	for _, ff := range formFiles {
		want, err := capture.Parse(bytes.NewReader(testfixture.ReadFile(t, ff.original)))
		require.NoError(t, err)
		got, err := capture.Parse(bytes.NewReader(testfixture.ReadFile(t, "forms/"+ff.file)))
		require.NoError(t, err, ff.file)
		if ff.whole {
			sameCapture(t, want, got, ff.file)
		} else {
			sameTable(t, &want, &got, ff.file)
		}
		if ff.note != "" {
			assert.Contains(t, strings.Join(got.Notes, "\n"), ff.note, ff.file)
		}
	}
}

// TestCorpusHexDumps: every image of the corpus, hex-dumped in the three
// common layouts (nvme id-ctrl --raw-binary | hexdump -C, xxd, od -A x -t
// x1z), reads as the image; a dump cut short says how many bytes it holds.
func TestCorpusHexDumps(t *testing.T) {
	n := 0
	for _, dev := range corpusDevices(t) {
		for _, o := range dev.others {
			if o.format != powerstate.FormatBinary {
				continue
			}
			img, err := os.ReadFile(o.path)
			require.NoError(t, err)
			want, err := powerstate.DecodeIdentify(img)
			require.NoError(t, err)
			for _, layout := range []string{"hexdump -C", "xxd", "od -A x -t x1z"} {
				got, err := parseString(testfixture.HexDump(img, layout))
				if !assert.NoError(t, err, "%s %s", o.path, layout) {
					continue
				}
				assert.Contains(t, strings.Join(got.Notes, "\n"), "read from a hex dump of the image ("+layout, o.path)
				sameCapture(t, want, got, o.path+" "+layout)
			}
			n++
		}
	}
	require.NotZero(t, n)
	img := testfixture.ReadFile(t, testfixture.Samsung990EVOPlus)
	for _, size := range []int{2048, 4000, 16} {
		pe := parseErr(t, testfixture.HexDump(img[:size], "xxd"))
		assert.ErrorIs(t, pe, powerstate.ErrImageSize)
		assert.Contains(t, pe.Error(), fmt.Sprintf("hold %d bytes", size))
		assert.Contains(t, pe.Error(), fmt.Sprintf("image is %d bytes", size))
	}
	// The 256-byte APST buffer dumped is a feature capture.
	assert.Equal(t, capture.FeatureHexDump, capture.DetectFeatureFormat([]byte(testfixture.HexDump(img[2048:2304], "hexdump -C"))))
	pe := parseErr(t, testfixture.HexDump(img[2048:2304], "hexdump -C"))
	assert.ErrorIs(t, pe, capture.ErrFeatureCapture)
}

// TestActivePowerKept: the idle and active power nvme-cli prints are kept
// from every generation (v0.9 to v2.0 prints ACTP and APS without the
// workload, which stays unknown) and written back by the writers.
func TestActivePowerKept(t *testing.T) {
	v1 := "npss    : 0\n" +
		"ps    0 : mp:9.00W operational enlat:0 exlat:0 rrt:0 rrl:0\n" +
		"          rwt:0 rwl:0 idle_power:0.6300W active_power:5.50W\n"
	c := mustParse(t, v1)
	assert.True(t, c.Knows(powerstate.FieldIdlePower|powerstate.FieldActivePower))
	assert.False(t, c.Knows(powerstate.FieldActiveWorkload), "the v1 text prints no workload")
	assert.Equal(t, watts(550, powerstate.Scale0_01W), c.PowerStates[0].ActivePower)
	assert.Equal(t, watts(6300, powerstate.Scale0_0001W), c.PowerStates[0].IdlePower)
	for _, w := range []func(io.Writer, *powerstate.Controller) error{capture.WriteNVMeCLIText, capture.WriteNVMeCLIJSON} {
		var b bytes.Buffer
		require.NoError(t, w(&b, &c))
		back, err := capture.Parse(&b)
		require.NoError(t, err)
		assert.Equal(t, c.PowerStates[0].ActivePower, back.PowerStates[0].ActivePower)
		assert.Equal(t, c.PowerStates[0].IdlePower, back.PowerStates[0].IdlePower)
	}
	var b bytes.Buffer
	require.NoError(t, capture.WriteNVMeCLIText(&b, &c))
	assert.Contains(t, b.String(), "idle_power:0.6300W active_power:5.50W")
}
