package safeio_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

func TestEscapeTerminal(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"Samsung SSD 990 EVO Plus 1TB", "Samsung SSD 990 EVO Plus 1TB"},
		{"\x1b[2J\x1b[Hfake", `\x1b[2J\x1b[Hfake`},
		{"a\r\nb\tc", `a\r\nb\tc`},
		{"nul\x00del\x7f", `nul\x00del\x7f`},
		{`back\slash`, `back\\slash`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`},
		{"c1 \u0085\u009b", `c1 \u0085\u009b`},
		{"bidi \u202eevil\u202c", `bidi \u202eevil\u202c`},
		{"sep \u2028\u2029", `sep \u2028\u2029`},
		{"ünïcödé 日本語 🙂 ½", "ünïcödé 日本語 🙂 ½"},
		{"\ufffd is valid", "\ufffd is valid"},
		{"truncated \xe6\x97", `truncated \xe6\x97`},
	}
	for _, tt := range tests {
		t.Run(strconv.Quote(tt.in), func(t *testing.T) {
			got := safeio.EscapeTerminal(tt.in)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.want, string(safeio.AppendEscapeTerminal(nil, tt.in)))
			back, err := unescape(got)
			require.NoError(t, err)
			assert.Equal(t, tt.in, back)
		})
	}
	for _, tt := range tests {
		assert.Equal(t, tt.in != tt.want && tt.in != `back\slash`, safeio.HasControl(tt.in), "HasControl(%q)", tt.in)
	}
	s := "plain model"
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = safeio.EscapeTerminal(s) }))
}

func TestCSVCell(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"Samsung", "Samsung"},
		{"=HYPERLINK(\"x\")", "'=HYPERLINK(\"x\")"},
		{"+1", "'+1"},
		{"-2+3", "'-2+3"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\tx", "'\tx"},
		{"\rx", "'\rx"},
		{"a=b", "a=b"},
		// A spreadsheet in a locale whose list separator is ";" (German,
		// French Excel) splits the line there: a cell starts after each.
		{"x;=1+1;", "x;'=1+1;"},
		{";=HYPERLINK(\"x\")", ";'=HYPERLINK(\"x\")"},
		{"=a;+b;-c;@d", "'=a;'+b;'-c;'@d"},
		{"a;b; =c", "a;b; =c"},
		{"a;", "a;"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, safeio.CSVCell(tt.in), "%q", tt.in)
	}
}

// No cell a spreadsheet makes of a CSVCell value, splitting it on commas
// (the whole value) or on semicolons, starts a formula; and the value is
// the input with one apostrophe before each such start, nothing else.
func TestCSVCellProperty(t *testing.T) {
	formula := func(s string, i int) bool { return i < len(s) && strings.IndexByte("=+-@\t\r", s[i]) >= 0 }
	rapid.Check(t, func(t *rapid.T) {
		in := rapid.StringOfN(rapid.SampledFrom([]rune("=+-@;\t\r a\"'")), 0, 24, -1).Draw(t, "in")
		out := safeio.CSVCell(in)
		for _, cell := range strings.Split(out, ";") {
			if formula(cell, 0) {
				t.Fatalf("CSVCell(%q) = %q: cell %q starts a formula", in, out, cell)
			}
		}
		starts := 0
		for i := range len(in) {
			if formula(in, i) && (i == 0 || in[i-1] == ';') {
				starts++
			}
		}
		if len(out) != len(in)+starts || strings.ReplaceAll(out, "'", "") != strings.ReplaceAll(in, "'", "") {
			t.Fatalf("CSVCell(%q) = %q: not the input with %d apostrophes", in, out, starts)
		}
	})
}

// unescape inverts EscapeTerminal; it exists to prove the escaping
// injective.
func unescape(s string) (string, error) {
	var out []byte
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			out = append(out, s[i])
			continue
		}
		if i+1 >= len(s) {
			return "", fmt.Errorf("trailing backslash")
		}
		i++
		switch s[i] {
		case '\\':
			out = append(out, '\\')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'x':
			if i+3 > len(s) {
				return "", fmt.Errorf("short \\x")
			}
			v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				return "", err
			}
			out = append(out, byte(v))
			i += 2
		case 'u':
			if i+5 > len(s) {
				return "", fmt.Errorf("short \\u")
			}
			v, err := strconv.ParseUint(s[i+1:i+5], 16, 16)
			if err != nil {
				return "", err
			}
			out = utf8.AppendRune(out, rune(v))
			i += 4
		default:
			return "", fmt.Errorf("unknown escape \\%c", s[i])
		}
	}
	return string(out), nil
}

func FuzzEscapeTerminal(f *testing.F) {
	for _, s := range []string{"", "model", "\x1b[31m", "a\\b", "\xff", "\u0085", "\u202e", "\r\n\t", "\\x1b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := safeio.EscapeTerminal(s)
		if !utf8.ValidString(got) {
			t.Fatalf("%q: output %q is not valid UTF-8", s, got)
		}
		for _, r := range got {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0x2028 || r == 0x2029 || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
				t.Fatalf("%q: output %q holds %U", s, got, r)
			}
		}
		// Escaping changes more than the doubling of backslashes exactly
		// when s holds something to escape. (Removing the backslashes
		// instead can join invalid bytes into a valid rune: "\xf3\x9c\xac\\\xbf".)
		if want := got != strings.ReplaceAll(s, `\`, `\\`); safeio.HasControl(s) != want {
			t.Fatalf("%q: HasControl is %v, want %v", s, !want, want)
		}
		back, err := unescape(got)
		if err != nil || back != s {
			t.Fatalf("%q: escaped to %q, which unescapes to %q (%v): not injective", s, got, back, err)
		}
	})
}

// AppendJSONSafe escapes in JSON text what a terminal acts on and
// encoding/json leaves raw, keeping the value: every string decodes to
// what was encoded, and no such character is left in the text.
func TestAppendJSONSafe(t *testing.T) {
	for _, s := range []string{
		"plain", "", "Samsung SSD 990 EVO Plus 1TB",
		"a\u202eb", "\u2066x\u2069", "\u061c\u200e\u200f", "c1\u009b[2J", "del\x7f", "mixed é ü 中 \u202d",
		"json's own: \" \\ \n \u2028 <&>",
	} {
		raw, err := json.Marshal(map[string]string{"k": s})
		require.NoError(t, err)
		out := safeio.AppendJSONSafe(nil, raw)
		var back map[string]string
		require.NoError(t, json.Unmarshal(out, &back), "%q -> %s", s, out)
		assert.Equal(t, s, back["k"])
		assert.False(t, safeio.HasControl(string(out)), "%q -> %q", s, out)
		if !safeio.HasControl(string(raw)) && !strings.Contains(string(raw), "\x7f") {
			assert.Equal(t, raw, out, "%q: nothing to escape, copied as it is", s)
		}
	}
	assert.Equal(t, `"a\u202eb"`, string(safeio.AppendJSONSafe(nil, []byte("\"a\u202eb\""))))
	assert.Equal(t, `x"a"`, string(safeio.AppendJSONSafe([]byte("x"), []byte(`"a"`))))
}
