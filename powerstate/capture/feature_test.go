package capture_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// evoTable is the table the kernel programs for a Samsung 990 EVO Plus
// with the default parameters: states 0-2 go to ps3 after 100 ms, ps3 to
// ps4 after 2000 ms.
func evoTable() apst.Table {
	var t apst.Table
	for s := range 3 {
		t[s] = apst.NewEntry(3, 100)
	}
	t[3] = apst.NewEntry(4, 2000)
	return t
}

// featureText renders a table as nvme-cli's "get-feature -f 0x0c" of a
// generation: "v0.9", "v1.0" (v1.0 to v1.14), "v1.15" (v1.15 to v2.8) and
// "v2.9" (v2.9 and later) with -H; "hexdump" (v1.15 header, no -H).
func featureText(gen string, enabled bool, t apst.Table) string {
	var b strings.Builder
	result := uint32(0)
	if enabled {
		result = 1
	}
	// C's "%#0*x" counts the "0x" in the width and prints no 0x for zero.
	zeroOr := func(width int) string {
		if result == 0 {
			return strings.Repeat("0", width)
		}
		return fmt.Sprintf("0x%0*x", width-2, result)
	}
	switch gen {
	case "v0.9":
		fmt.Fprintf(&b, "get-feature:0x0c (Autonomous Power State Transition), Current value: %s\n", zeroOr(8))
	case "v1.0":
		fmt.Fprintf(&b, "get-feature:0xc (Autonomous Power State Transition), Current value:%s\n", zeroOr(8))
	default:
		fmt.Fprintf(&b, "get-feature:0x0c (Autonomous Power State Transition), Current value:%s\n", zeroOr(10))
	}
	if gen == "hexdump" {
		raw, _ := t.MarshalBinary()
		b.WriteString("     ")
		for i := range 16 {
			fmt.Fprintf(&b, "%3x", i)
		}
		for off := 0; off < len(raw); off += 16 {
			fmt.Fprintf(&b, "\n%04x:", off)
			ascii := make([]byte, 16)
			for i, c := range raw[off : off+16] {
				fmt.Fprintf(&b, " %02x", c)
				ascii[i] = '.'
				if c >= '!' && c <= '~' {
					ascii[i] = c
				}
			}
			fmt.Fprintf(&b, " %q", ascii)
		}
		b.WriteString("\n")
		return b.String()
	}
	apste := "Disabled"
	if enabled {
		apste = "Enabled"
	}
	fmt.Fprintf(&b, "\tAutonomous Power State Transition Enable (APSTE): %s\n", apste)
	b.WriteString("\tAuto PST Entries\t.................\n")
	for i, e := range t {
		if gen == "v2.9" || gen == "table" {
			fmt.Fprintf(&b, "\tEntry[%2d]\n", i)
		} else {
			fmt.Fprintf(&b, "\tEntry[%2d]   \n", i)
		}
		b.WriteString("\t.................\n")
		low := uint32(e) // v1.x decoded the low 32 bits only; both fields are there
		if gen == "table" {
			// nvme-cli's "name : value" tables (feature_table.go): names
			// padded to the widest, indented two levels.
			fmt.Fprintf(&b, "\t\tIdle Time Prior to Transition (ITPT) : %d ms\n", (low&0xffffff00)>>8)
			fmt.Fprintf(&b, "\t\tIdle Transition Power State (ITPS)   : %d\n", (low&0xf8)>>3)
			b.WriteString("\t.................\n")
			continue
		}
		fmt.Fprintf(&b, "\tIdle Time Prior to Transition (ITPT): %d ms\n", (low&0xffffff00)>>8)
		fmt.Fprintf(&b, "\tIdle Transition Power State   (ITPS): %d\n", (low&0xf8)>>3)
		b.WriteString("\t.................\n")
	}
	return b.String()
}

// featureJSON renders the two objects of "-o json".
func featureJSON(enabled bool, t apst.Table) string {
	v := "0x00000000"
	apste := "Disabled"
	if enabled {
		v, apste = "0x00000001", "Enabled"
	}
	var entries []string
	for i, e := range t {
		entries = append(entries, fmt.Sprintf(`{"entry":"%2d","Idle Time Prior to Transition (ITPT)":"%d ms","Idle Transition Power State (ITPS)":%d}`,
			i, e.IdleTime(), e.TargetState()))
	}
	return fmt.Sprintf(`{"feature: 0x0c":{"name":"Autonomous Power State Transition","Current":%q}}`+"\n"+
		`{"Feature: 0x0c":{"Autonomous Power State Transition Enable (APSTE)":%q,"Auto PST Entries":[%s]}}`+"\n",
		v, apste, strings.Join(entries, ","))
}

func parseFeature(t *testing.T, s string) capture.FeatureCapture {
	t.Helper()
	fc, err := capture.ParseFeatureCapture(strings.NewReader(s))
	require.NoError(t, err)
	return fc
}

func TestParseFeatureGenerations(t *testing.T) {
	tbl := evoTable()
	raw, err := tbl.MarshalBinary()
	require.NoError(t, err)
	for _, tc := range []struct {
		name   string
		in     string
		format capture.FeatureFormat
		exact  bool
		known  bool
	}{
		{"table", featureText("table", true, tbl), capture.FeatureTextTable, false, true},
		{"v0.9", featureText("v0.9", true, tbl), capture.FeatureText, false, true},
		{"v1.0-v1.14", featureText("v1.0", true, tbl), capture.FeatureText, false, true},
		{"v1.15-v2.8", featureText("v1.15", true, tbl), capture.FeatureText, false, true},
		{"v2.9+", featureText("v2.9", true, tbl), capture.FeatureText, false, true},
		{"crlf", strings.ReplaceAll(featureText("v2.9", true, tbl), "\n", "\r\n"), capture.FeatureText, false, true},
		{"hex dump", featureText("hexdump", true, tbl), capture.FeatureHexDump, true, true},
		{"json", featureJSON(true, tbl), capture.FeatureJSON, false, true},
		{"raw", string(raw), capture.FeatureBinary, true, false},
		{"prompt and trailing text", "$ sudo nvme get-feature -f 0x0c -H /dev/nvme0\n" + featureText("v2.9", true, tbl) + "$ exit\n",
			capture.FeatureText, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fc := parseFeature(t, tc.in)
			assert.Equal(t, tc.format, fc.Format)
			assert.Equal(t, tc.format, capture.DetectFeatureFormat([]byte(tc.in)))
			assert.Equal(t, powerstate.FormatUnknown, capture.DetectFormat([]byte(tc.in)))
			assert.Equal(t, tbl, fc.Table)
			assert.Equal(t, tc.exact, !fc.Masked)
			assert.Equal(t, tc.known, fc.APSTE.Known())
			assert.Equal(t, tc.known, fc.APSTE == apst.APSTEEnabled)
			if tc.known && tc.format != capture.FeatureBinary {
				assert.Equal(t, "Current", fc.Select)
			}
			f, err := capture.ParseFeature(strings.NewReader(tc.in))
			require.NoError(t, err)
			assert.Equal(t, fc.Feature, f)
		})
	}
	t.Run("disabled, zero value", func(t *testing.T) {
		for _, gen := range []string{"v0.9", "v1.0", "v1.15", "v2.9", "hexdump"} {
			fc := parseFeature(t, featureText(gen, false, apst.Table{}))
			assert.True(t, fc.APSTE.Known(), gen)
			assert.Equal(t, apst.APSTEDisabled, fc.APSTE, gen)
			assert.Equal(t, apst.Table{}, fc.Table, gen)
		}
		assert.Equal(t, apst.APSTEDisabled, parseFeature(t, featureJSON(false, tbl)).APSTE)
	})
	t.Run("reserved bits: only the hex dump keeps them", func(t *testing.T) {
		odd := tbl
		odd[5] = apst.Entry(0x0000_0001_0000_6419) // bits 32 and 0 set
		fc := parseFeature(t, featureText("hexdump", true, odd))
		assert.Equal(t, odd, fc.Table)
		fc = parseFeature(t, featureText("v1.0", true, odd))
		assert.Equal(t, apst.NewEntry(3, 100), fc.Table[5], "v1.x printed the low 32 bits' ITPS and ITPT")
		assert.True(t, fc.Masked)
	})
	t.Run("fields and dump together", func(t *testing.T) {
		both := featureText("hexdump", true, tbl) + strings.SplitN(featureText("v2.9", true, tbl), "\n", 2)[1]
		fc := parseFeature(t, both)
		assert.Equal(t, tbl, fc.Table)
		assert.False(t, fc.Masked)
		other := tbl
		other[0] = apst.NewEntry(4, 100)
		bad := featureText("hexdump", true, tbl) + strings.SplitN(featureText("v2.9", true, other), "\n", 2)[1]
		_, err := capture.ParseFeature(strings.NewReader(bad))
		assert.ErrorIs(t, err, capture.ErrSyntax)
	})
}

func TestParseFeatureErrors(t *testing.T) {
	tbl := evoTable()
	v29 := featureText("v2.9", true, tbl)
	for _, tc := range []struct {
		name     string
		in       string
		sentinel error
		line     int
		expected string
	}{
		{"other feature", strings.Replace(v29, "get-feature:0x0c", "get-feature:0x02", 1), capture.ErrSyntax, 1, "feature 0x0c"},
		{"capabilities", strings.Replace(v29, "Current value", "Supported capabilities value", 1), capture.ErrSyntax, 1, "select"},
		{"bad value", strings.Replace(v29, "value:0x00000001", "value:0xzz", 1), capture.ErrSyntax, 1, "hexadecimal"},
		{"itps 32", strings.Replace(v29, "(ITPS): 3\n", "(ITPS): 32\n", 1), capture.ErrSyntax, 7, "0 to 31"},
		{"itpt 2^24", strings.Replace(v29, "(ITPT): 100 ms", "(ITPT): 16777216 ms", 1), capture.ErrSyntax, 6, "2^24"},
		{"entry out of order", strings.Replace(v29, "Entry[ 2]", "Entry[ 3]", 1), capture.ErrSyntax, 14, "Entry[ 2]"},
		{"apste disagrees", strings.Replace(v29, "(APSTE): Enabled", "(APSTE): Disabled", 1), capture.ErrSyntax, 2, "agree"},
		{"apste garbage", strings.Replace(v29, "(APSTE): Enabled", "(APSTE): Maybe", 1), capture.ErrSyntax, 2, "Enabled"},
		{"prose", "hello\n", capture.ErrUnknownFormat, 0, ""},
		{"empty", "", capture.ErrEmpty, 0, "APST buffer"},
		{"blank", " \n\r\n\t\n", capture.ErrEmpty, 0, "APST buffer"},
		{"json cut", featureJSON(true, tbl)[:200], capture.ErrTruncated, 0, ""},
		{"json few entries", dropLastEntry(featureJSON(true, tbl)), capture.ErrTruncated, 2, "32"},
		{"json bad itps", strings.Replace(featureJSON(true, tbl), `(ITPS)":3`, `(ITPS)":99`, 1), capture.ErrSyntax, 2, "0 to 31"},
		{"json no feature", `{"a":1}`, capture.ErrUnknownFormat, 0, ""},
		{"json disagrees", strings.Replace(featureJSON(true, tbl), `"Current":"0x00000001"`, `"Current":"0x00000000"`, 1), capture.ErrSyntax, 0, "agree"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := capture.ParseFeature(strings.NewReader(tc.in))
			require.Error(t, err)
			assert.ErrorIs(t, err, tc.sentinel)
			var pe *capture.ParseError
			require.ErrorAs(t, err, &pe)
			if tc.line > 0 {
				assert.Equal(t, tc.line, pe.Line, err.Error())
			}
			assert.Contains(t, pe.Expected, tc.expected)
			assert.True(t, strings.HasPrefix(err.Error(), "capture: "), err.Error())
			assert.NotContains(t, err.Error(), "powerstate:")
			assert.NotContains(t, err.Error(), "apst:")
			if pe.Line > 0 {
				assert.Contains(t, err.Error(), fmt.Sprintf("capture, line %d: expected ", pe.Line))
			}
		})
	}
	t.Run("truncated text names capture", func(t *testing.T) {
		cut := v29[:strings.Index(v29, "(ITPS): 3")+len("(ITPS")]
		for name, parse := range map[string]func() error{
			"ParseFeature":        func() error { _, err := capture.ParseFeature(strings.NewReader(cut)); return err },
			"ParseFeatureCapture": func() error { _, err := capture.ParseFeatureCapture(strings.NewReader(cut)); return err },
			"ParseFeatureBytes":   func() error { _, err := capture.ParseFeatureBytes([]byte(cut)); return err },
		} {
			err := parse()
			require.Error(t, err, name)
			assert.ErrorIs(t, err, capture.ErrTruncated, name)
			assert.True(t, strings.HasPrefix(err.Error(), "capture: feature-text capture, line "), "%s: %v", name, err)
			var pe *capture.ParseError
			assert.ErrorAs(t, err, &pe, name)
		}
	})
	t.Run("identify capture", func(t *testing.T) {
		_, err := capture.ParseFeatureBytes(make([]byte, powerstate.IdentifySize))
		require.ErrorIs(t, err, capture.ErrIdentifyCapture)
		assert.True(t, strings.HasPrefix(err.Error(), "capture: "), err.Error())
	})
	t.Run("too large", func(t *testing.T) {
		r := &endless{}
		_, err := capture.ParseFeature(r)
		assert.ErrorIs(t, err, capture.ErrTooLarge)
		assert.True(t, strings.HasPrefix(err.Error(), "capture: "), err.Error())
		assert.LessOrEqual(t, r.n, int64(capture.MaxSize+1))
	})
	t.Run("read error", func(t *testing.T) {
		_, err := capture.ParseFeature(io.MultiReader(strings.NewReader("get"), errReader{}))
		assert.ErrorContains(t, err, "cable unplugged")
		assert.True(t, strings.HasPrefix(err.Error(), "capture: "), err.Error())
	})
}

// dropLastEntry removes entry 31 from featureJSON's output.
func dropLastEntry(s string) string {
	i := strings.Index(s, `,{"entry":"31"`)
	j := strings.Index(s[i:], "}") + i + 1
	return s[:i] + s[j:]
}

type endless struct{ n int64 }

func (r *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '\t'
	}
	r.n += int64(len(p))
	return len(p), nil
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("cable unplugged") }

func FuzzParseFeature(f *testing.F) {
	tbl := evoTable()
	raw, _ := tbl.MarshalBinary()
	f.Add(raw)
	for _, gen := range []string{"v0.9", "v1.0", "v1.15", "v2.9", "hexdump", "table"} {
		f.Add([]byte(featureText(gen, true, tbl)))
		f.Add([]byte(featureText(gen, false, apst.Table{})))
	}
	f.Add([]byte(featureJSON(true, tbl)))
	v29 := featureText("v2.9", true, tbl)
	f.Add([]byte(v29[:strings.Index(v29, "\tEntry[ 4]")] + "...\n"))
	f.Add([]byte(testfixture.HexDump(raw, "hexdump -C")))
	f.Add([]byte(testfixture.HexDump(raw[:100], "xxd")))
	f.Fuzz(func(t *testing.T, b []byte) {
		fc, err := capture.ParseFeatureCapture(bytes.NewReader(b))
		if err != nil {
			var pe *capture.ParseError
			if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "capture: ") {
				t.Fatalf("error %v (%T) does not start with capture: and wrap a *capture.ParseError", err, err)
			}
			return
		}
		// An entry a partial capture does not show is unknown, held as 0.
		for s := range fc.Unknown.All() {
			if fc.Table[s] != 0 {
				t.Fatalf("unknown entry %d is %v", s, fc.Table[s])
			}
		}
		if fc.Unknown != 0 && len(fc.Notes) == 0 {
			t.Fatal("a partial capture without a note")
		}
		// The raw buffer round-trips exactly; a table with reserved bits
		// 2:0 set (a text capture may show one) is refused as raw bytes,
		// which carry no header to say what they are, and decoded all the
		// same.
		raw, _ := fc.Table.MarshalBinary()
		back, err := capture.ParseFeatureCapture(bytes.NewReader(raw))
		var ne *capture.NotAPSTTableError
		if errors.As(err, &ne) && slices.ContainsFunc(fc.Table[:], apst.Entry.ReservedLow) {
			back, err = ne.Capture, nil
		}
		if err != nil || back.Table != fc.Table {
			t.Fatalf("raw re-parse: %v, %v != %v", err, back.Table, fc.Table)
		}
		// The -H text and the JSON keep ITPS, ITPT and APSTE.
		for _, s := range []string{featureText("v2.9", fc.APSTE == apst.APSTEEnabled, fc.Table), featureJSON(fc.APSTE == apst.APSTEEnabled, fc.Table),
			featureText("hexdump", fc.APSTE == apst.APSTEEnabled, fc.Table)} {
			back, err := capture.ParseFeatureCapture(strings.NewReader(s))
			if err != nil {
				t.Fatalf("re-parse: %v\n%s", err, s)
			}
			if fc.APSTE.Known() && back.APSTE != fc.APSTE {
				t.Fatalf("APSTE %v != %v", back.APSTE, fc.APSTE)
			}
			for i := range fc.Table {
				if back.Table[i].TargetState() != fc.Table[i].TargetState() || back.Table[i].IdleTime() != fc.Table[i].IdleTime() {
					t.Fatalf("entry %d: %v != %v", i, back.Table[i], fc.Table[i])
				}
			}
		}
	})
}
