package capture_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// utf16LE encodes s as UTF-16LE with a byte order mark, as PowerShell's
// ">" writes it.
func utf16LE(s string) []byte {
	b := []byte{0xff, 0xfe}
	for _, r := range s {
		b = append(b, byte(r), byte(r>>8))
	}
	return b
}

// quote prefixes every line of s with p.
func quoteWith(s, p string) string {
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l != "" {
			b.WriteString(p + l)
		}
	}
	return b.String()
}

// TestFeaturePastes: every form pasted indented, quoted, or in UTF-16
// reads as the capture itself.
func TestFeaturePastes(t *testing.T) {
	tbl := evoTable()
	for _, in := range []string{featureText("v2.9", true, tbl), featureText("v1.0", false, tbl),
		featureText("hexdump", true, tbl), featureJSON(true, tbl)} {
		want := parseFeature(t, in)
		for _, p := range []string{"  ", "    ", "        ", "\t", "> "} {
			got, err := capture.ParseFeatureCapture(strings.NewReader("My drive:\n\n" + quoteWith(in, p) + "\nThanks\n"))
			require.NoError(t, err, "%q\n%s", p, in)
			assert.Equal(t, want, got, "%q", p)
		}
		got, err := capture.ParseFeatureBytes(utf16LE(in))
		require.NoError(t, err, "UTF-16\n%s", in)
		assert.Equal(t, want, got, "UTF-16")
	}
}

func TestFeatureRefusals(t *testing.T) {
	tbl := evoTable()
	v29 := featureText("v2.9", true, tbl)
	entry32 := v29 + "\tEntry[32]\n\t.................\n\tIdle Time Prior to Transition (ITPT): 100 ms\n\tIdle Transition Power State   (ITPS): 3\n"
	for _, tc := range []struct {
		name     string
		in       string
		sentinel error
		line     int
		msg      string
	}{
		{"entry 32", entry32, capture.ErrSyntax, strings.Count(v29, "\n") + 1, `at most 32 entries (Entry[ 0] to Entry[31]) after line 3: malformed capture: found "Entry[32]"`},
		{"two captures", v29 + v29, capture.ErrMultipleCaptures, strings.Count(v29, "\n") + 1,
			"a second get-feature header, the second capture starting on line " + itoa(strings.Count(v29, "\n")+1)},
		{"APSTE twice", strings.Replace(v29, "\tAuto PST", "\tAutonomous Power State Transition Enable (APSTE): Disabled\n\tAuto PST", 1),
			capture.ErrDuplicateKey, 3, "APSTE on lines 2 and 3"},
		{"two JSON captures", featureJSON(true, tbl) + featureJSON(true, tbl), capture.ErrMultipleCaptures, 3, "a second select value"},
		{"id-ctrl text", "NVME Identify Controller:\nvid       : 0x144d\n", capture.ErrIdentifyCapture, 0, "capture.Parse"},
		{"smartctl", "smartctl 7.4 2023-08-01 r5530\n=== START OF INFORMATION SECTION ===\n", capture.ErrIdentifyCapture, 0, "not an APST feature capture"},
		{"identify image", string(append(make([]byte, 4095), 1)), capture.ErrIdentifyCapture, 0, "binary capture"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := capture.ParseFeatureCapture(strings.NewReader(tc.in))
			require.Error(t, err)
			assert.ErrorIs(t, err, tc.sentinel)
			var pe *capture.ParseError
			require.ErrorAs(t, err, &pe)
			if tc.line > 0 {
				assert.Equal(t, tc.line, pe.Line, err.Error())
			}
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

// TestRawFeatureIsUnknown: the raw 256-byte buffer does not hold APSTE;
// nothing reads it as disabled.
func TestRawFeatureIsUnknown(t *testing.T) {
	tbl := evoTable()
	raw, err := tbl.MarshalBinary()
	require.NoError(t, err)
	fc, err := capture.ParseFeatureBytes(raw)
	require.NoError(t, err)
	assert.Equal(t, apst.APSTEUnknown, fc.APSTE)
	assert.False(t, fc.APSTE.Known())
	assert.Equal(t, "unknown", fc.APSTE.String())
	assert.False(t, fc.Masked)
	assert.Equal(t, capture.FeatureBinary, fc.Format)

	h := parseFeature(t, featureText("v2.9", true, tbl))
	assert.True(t, h.Masked, "-H text prints ITPS and ITPT only")
	assert.Equal(t, apst.APSTEEnabled, h.APSTE)
}

func TestAPSTEText(t *testing.T) {
	for _, a := range []apst.APSTE{apst.APSTEUnknown, apst.APSTEDisabled, apst.APSTEEnabled} {
		b, err := a.MarshalText()
		require.NoError(t, err)
		var back apst.APSTE
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, a, back)
		assert.Equal(t, a.String(), string(b))
	}
	var a apst.APSTE
	assert.ErrorIs(t, a.UnmarshalText([]byte("on")), apst.ErrAPSTE)
	_, err := apst.APSTE(7).MarshalText()
	assert.ErrorIs(t, err, apst.ErrAPSTE)
	assert.Equal(t, "APSTE(7)", apst.APSTE(7).String())
}

func TestFeatureEqualMasked(t *testing.T) {
	tbl := evoTable()
	drive := apst.Feature{APSTE: apst.APSTEEnabled, Table: tbl, Masked: true}
	kernel := tbl
	kernel[0] |= 1 << 40 // a reserved bit the -H text cannot show
	assert.True(t, drive.Equal(&kernel))
	drive.Masked = false
	assert.False(t, drive.Equal(&kernel))
	assert.True(t, drive.Equal(&tbl))
}

// TestParseFeatureBytesDoesNotRetain: Select is the capture's own string.
func TestParseFeatureBytesDoesNotRetain(t *testing.T) {
	b := []byte(featureText("v2.9", true, evoTable()))
	fc, err := capture.ParseFeatureBytes(b)
	require.NoError(t, err)
	for i := range b {
		b[i] = 'X'
	}
	assert.Equal(t, "Current", fc.Select)
}

// TestFeaturePasteEndingInARange: a paste that shows the first entries and
// sums up the rest ("Entry[4-31] are: ...") reads with those unknown.
func TestFeaturePasteEndingInARange(t *testing.T) {
	full := featureText("v2.9", true, evoTable())
	i := strings.Index(full, "\tEntry[ 4]")
	require.Positive(t, i)
	for _, tail := range []string{"\tEntry[4-31] are: ITPT 0 ms, ITPS 0\n", "\tEntry[ 4 - 31]: all zero\n", "\tEntry [4-31] are zero\n"} {
		fc, err := capture.ParseFeatureCapture(strings.NewReader(full[:i] + tail))
		require.NoError(t, err, "%q", tail)
		assert.Equal(t, apst.States(0xfffffff0), fc.Unknown, "%q", tail)
		assert.Equal(t, evoTable()[3], fc.Table[3])
	}
}
