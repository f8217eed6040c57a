package capture_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// TestJSONTrailing: what follows a JSON capture's document is refused when
// it is text run into the closing brace or a bracket or value on a later
// line, naming its line; white space, and a line of text (a prompt, a
// warning, a code fence), still read.
func TestJSONTrailing(t *testing.T) {
	evo := mustParse(t, nvmeCLICapture(t, evoPlus, ".json"))
	sj, err := smartctlJSON(&evo)
	require.NoError(t, err)
	docs := map[string]string{
		"nvme-cli":    strings.TrimRight(nvmeCLICapture(t, evoPlus, ".json"), "\n"),
		"smartctl":    strings.TrimRight(string(sj), "\n"),
		"get-feature": strings.TrimRight(featureJSON(true, evoTable()), "\n"),
	}
	parse := func(name, s string) error {
		if name == "get-feature" {
			_, err := capture.ParseFeatureCapture(strings.NewReader(s))
			return err
		}
		_, err := parseString(s)
		return err
	}
	for name, doc := range docs {
		lines := strings.Count(doc, "\n") + 1
		for _, tc := range []struct {
			after string
			line  int // 0: accepted
			found string
		}{
			{"garbage\n", lines, "garbage"},
			{" garbage", lines, "garbage"},
			{"\n]\n", lines + 1, "]"},
			{"\n}\n", lines + 1, "}"},
			{"\n\n{\"a\":1}\n", lines + 2, `{"a"`},
			{"\r\n[1]\r\n", lines + 1, "[1"},
			{"\n", 0, ""},
			{"\r\n", 0, ""},
			{"  \n\t\n\n", 0, ""},
			{"\nroot@host:~# exit\n", 0, ""},
			{"\n```\n\nThanks!\n", 0, ""},
		} {
			err := parse(name, doc+tc.after)
			if tc.line == 0 {
				assert.NoError(t, err, "%s + %q", name, tc.after)
				continue
			}
			var pe *capture.ParseError
			if assert.ErrorAs(t, err, &pe, "%s + %q", name, tc.after) {
				assert.ErrorIs(t, err, capture.ErrTrailingData, name)
				assert.Equal(t, tc.line, pe.Line, "%s + %q: %v", name, tc.after, err)
				assert.Contains(t, err.Error(), "more after the end of the JSON document", name)
				assert.Contains(t, err.Error(), `found "`+strings.ReplaceAll(tc.found, `"`, `\"`), name)
			}
		}
	}
}

// TestRawTableReservedBits: 256 bytes with reserved bits 2:0 set in an
// entry are refused as no APST table, naming the entries; the buffer
// comes decoded with the error. A table the kernel builds, even with a
// timeout that spills into bits 63:32, reads.
func TestRawTableReservedBits(t *testing.T) {
	tbl := evoTable()
	good, err := tbl.MarshalBinary()
	require.NoError(t, err)
	spilled := tbl
	spilled[1] = 3<<3 | 1<<32<<8 // ITPT 2^32 ms: the kernel does not mask it
	spill, err := spilled.MarshalBinary()
	require.NoError(t, err)
	random := make([]byte, 256)
	for i := range random {
		random[i] = byte(i*151 + 7)
	}
	oneBit := bytes.Clone(good)
	oneBit[8*5] |= 1
	text := bytes.Repeat([]byte("This is a letter, no capture.\n"), 9)[:256]
	for _, tc := range []struct {
		name  string
		b     []byte
		looks string // "": accepted
		entry string
	}{
		{"kernel table", good, "", ""},
		{"spilled timeout", spill, "", ""},
		{"zero table", make([]byte, 256), "", ""},
		{"random", random, "random bytes or another binary file", "entry 0 is 0x"},
		{"one entry", oneBit, "a damaged APST table", "reserved bits 2:0 set in 1 of the 32 entries: entry 5 is 0x"},
		{"text", text, "text that is no get-feature capture", "reserved bits 2:0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fc, err := capture.ParseFeatureBytes(tc.b)
			if tc.looks == "" {
				require.NoError(t, err)
				assert.Equal(t, capture.FeatureBinary, fc.Format)
				return
			}
			require.ErrorIs(t, err, capture.ErrNotAPSTTable)
			var ne *capture.NotAPSTTableError
			require.True(t, errors.As(err, &ne))
			assert.Contains(t, ne.Looks, tc.looks)
			assert.Contains(t, err.Error(), tc.entry)
			assert.True(t, strings.HasPrefix(err.Error(), "capture: "), err.Error())
			want, _ := capture.ParseFeatureBytes(good)
			assert.Equal(t, capture.FeatureBinary, ne.Capture.Format)
			assert.NotEqual(t, want.Table, ne.Capture.Table)
		})
	}
}
