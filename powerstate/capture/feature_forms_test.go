package capture_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// statesFrom is the set of states from..31.
func statesFrom(from int) apst.States {
	var s apst.States
	for i := from; i < apst.Entries; i++ {
		s |= 1 << i
	}
	return s
}

// TestFeaturePartial: a capture that shows only some entries decodes what
// it shows; the rest is unknown (not zero), and a note says which.
func TestFeaturePartial(t *testing.T) {
	tbl := evoTable()
	v29 := featureText("v2.9", true, tbl)
	dump := featureText("hexdump", true, tbl)
	for _, tc := range []struct {
		name   string
		in     string
		known  int
		apste  apst.APSTE
		masked bool
		note   string
	}{
		{"cut before entry 5", v29[:strings.Index(v29, "\tEntry[ 5]")], 5, apst.APSTEEnabled, true, "entries 0 to 4 only"},
		{"cut in entry 17", v29[:strings.Index(v29, "Entry[17]")+9], 17, apst.APSTEEnabled, true, "entries 17 to 31 are unknown"},
		{"cut after ITPT", v29[:strings.Index(v29, "\tEntry[ 2]")] + "\tEntry[ 2]\n\t.................\n\tIdle Time Prior to Transition (ITPT): 100 ms\n", 2, apst.APSTEEnabled, true, "entries 0 to 1"},
		{"ITPS 3 cut at the end", v29[:strings.Index(v29, "\tEntry[ 2]")] + "\tEntry[ 2]\n\t.................\n\tIdle Time Prior to Transition (ITPT): 100 ms\n\tIdle Transition Power State   (ITPS): 3", 2, apst.APSTEEnabled, true, "may be cut"},
		{"ITPS 4 at the end", strings.TrimSuffix(strings.TrimSuffix(v29[:strings.Index(v29, "\tEntry[ 4]")], "\t.................\n"), "\n"), 4, apst.APSTEEnabled, true, "entries 0 to 3"},
		{"prose after entry 3", v29[:strings.Index(v29, "\tEntry[ 4]")] + "\t...\nThe rest is zero.\n", 4, apst.APSTEEnabled, true, "entries 0 to 3 only"},
		{"header only", "get-feature:0x0c (Autonomous Power State Transition), Current value:0x00000001\n", 0, apst.APSTEEnabled, false, "no entry"},
		{"header and APSTE", strings.Join(strings.SplitAfter(featureText("v2.9", false, tbl), "\n")[:2], ""), 0, apst.APSTEDisabled, false, "no entry"},
		{"APSTE alone", "\tAutonomous Power State Transition Enable (APSTE): Disabled\n", 0, apst.APSTEDisabled, false, "no entry"},
		{"hex dump cut", strings.Join(strings.SplitAfter(dump, "\n")[:10], ""), 16, apst.APSTEEnabled, false, "holds 128 of the 256 bytes"},
	} {
		fc, err := capture.ParseFeatureCapture(strings.NewReader(tc.in))
		require.NoError(t, err, tc.name)
		assert.Equal(t, statesFrom(min(tc.known, 32)), fc.Unknown, tc.name)
		assert.Equal(t, tc.apste, fc.APSTE, tc.name)
		assert.Equal(t, tc.masked, fc.Masked, tc.name)
		require.Len(t, fc.Notes, 1, tc.name)
		assert.Contains(t, fc.Notes[0], tc.note, tc.name)
		for i := range apst.Entries {
			switch {
			case i >= tc.known:
				assert.Zero(t, fc.Table[i], "%s: entry %d unknown", tc.name, i)
			case tc.masked:
				assert.Equal(t, tbl[i]&apst.EntryMask, fc.Table[i], "%s: entry %d", tc.name, i)
			default:
				assert.Equal(t, tbl[i], fc.Table[i], "%s: entry %d", tc.name, i)
			}
		}
		// What it shows agrees with the table; what it does not is not
		// compared.
		other := tbl
		for i := tc.known; i < apst.Entries; i++ {
			other[i] = apst.NewEntry(1, 7)
		}
		assert.True(t, fc.Equal(&other), tc.name)
		if tc.known > 0 {
			other[0] = apst.NewEntry(1, 7)
			assert.False(t, fc.Equal(&other), tc.name)
		}
	}
	// An entry after the prose that ended the entries is refused.
	bad := v29[:strings.Index(v29, "\tEntry[ 4]")] + "The rest:\n" + v29[strings.Index(v29, "\tEntry[ 4]"):]
	_, err := capture.ParseFeatureCapture(strings.NewReader(bad))
	assert.ErrorIs(t, err, capture.ErrSyntax)
}

// featureForms are the get-feature files of testdata/forms with the
// capture each was made from.
var featureForms = []struct {
	file, original string
	unknown        apst.States
	note           string
}{
	{"evo-feature.wiki-partial.txt", "samsung-990-evo-plus-100ms.txt", statesFrom(4), "entries 0 to 3 only"},
	{"evo-feature.blog-partial.txt", "", statesFrom(0), "no entry"},
	{"evo-feature.auto-pst-3.0.txt", "samsung-990-evo-plus-100ms.txt", 0, ""},
	{"evo-feature.flattened.txt", "samsung-990-evo-plus-100ms.txt", 0, ""},
	{"evo-feature.qp-quoted.txt", "samsung-990-evo-plus-100ms.txt", 0, "quoted-printable"},
	{"evo-feature.raw.hexdump-C.txt", "samsung-990-evo-plus-100ms.raw", 0, "hexdump -C, lines 1 to 5"},
	{"evo-feature.raw.xxd.txt", "samsung-990-evo-plus-100ms.raw", 0, "xxd, lines 1 to 16"},
	{"evo-feature.raw.od.txt", "samsung-990-evo-plus-100ms.raw", 0, "od -A x -t x1z"},
}

// TestFeatureFormFiles reads each get-feature form, made the way it occurs
// (testdata/forms/make.sh), and compares it with the capture it was made
// from.
func TestFeatureFormFiles(t *testing.T) {
	for _, ff := range featureForms {
		got, err := capture.ParseFeatureBytes(testfixture.ReadFile(t, "forms/"+ff.file))
		require.NoError(t, err, ff.file)
		assert.Equal(t, ff.unknown, got.Unknown, ff.file)
		if ff.note != "" {
			assert.Contains(t, strings.Join(got.Notes, "\n"), ff.note, ff.file)
		} else {
			assert.Empty(t, got.Notes, ff.file)
		}
		if ff.original == "" {
			assert.Equal(t, apst.APSTEDisabled, got.APSTE, ff.file)
			continue
		}
		want, err := capture.ParseFeatureCapture(bytes.NewReader(testfixture.ReadFile(t, "../examples/apstctl/testdata/feature/"+ff.original)))
		require.NoError(t, err)
		if strings.HasSuffix(ff.original, ".raw") {
			assert.Equal(t, capture.FeatureHexDump, got.Format, ff.file)
			assert.Equal(t, want.Table, got.Table, ff.file)
			assert.Equal(t, apst.APSTEUnknown, got.APSTE, ff.file)
			continue
		}
		assert.Equal(t, want.APSTE, got.APSTE, ff.file)
		assert.Equal(t, want.Masked, got.Masked, ff.file)
		for i := range apst.Entries {
			if !ff.unknown.Has(uint8(i)) {
				assert.Equal(t, want.Table[i], got.Table[i], "%s entry %d", ff.file, i)
			}
		}
	}
}
