package capture

import (
	"mime/quotedprintable"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// mailEncode encodes s as a mail client encodes a body.
func mailEncode(s string) string {
	var b strings.Builder
	w := quotedprintable.NewWriter(&b)
	_, _ = w.Write([]byte(s))
	_ = w.Close()
	return b.String()
}

func TestDecodeQuotedPrintable(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		decoded        bool
	}{
		{"soft break", "mn        : Samsung SSD 990 EVO Plus 1TB=\n            =20\n", "mn        : Samsung SSD 990 EVO Plus 1TB             \n", true},
		{"escapes", "a=3Db=20\nc\n", "a=b \nc\n", true},
		{"soft break, blanks after it", "ab= \t\ncd=\ne\n", "abcde\n", true},
		{"one soft break alone", "ab= \t\ncd\n", "ab= \t\ncd\n", false},
		{"crlf", "ab=\r\ncd=3D\r\n", "abcd=\n", true},
		{"quoted after encoding", "> > ab=\n> > cd=3D\n> > e\n", "> > abcd=\n> > e\n", true},
		{"quoted before encoding", "> ps    0 : mp:=\n6.00W\n", "> ps    0 : mp:6.00W\n", true},
		{"utf-8", "wctemp : 83=C2=B0C\n", "wctemp : 83°C\n", true},
		{"lower-case hex", "a=3db=20\n", "a=b \n", true},
		{"no final newline", "a=3D", "a=", true},
		{"no telling escape", "a=41\n", "a=41\n", false},
		{"smartctl banner", "=== START OF INFORMATION SECTION ===\n=20\n", "=== START OF INFORMATION SECTION ===\n=20\n", false},
		{"a plain =", "x = 1 =20\n", "x = 1 =20\n", false},
		{"a mail header", "Content-Type: text/plain; charset=UTF-8\n\nmn : a=20\nb=3D\n", "Content-Type: text/plain; charset=UTF-8\n\nmn : a \nb=\n", true},
		{"plain", "ps    0 : mp:6.00W operational\n", "ps    0 : mp:6.00W operational\n", false},
		{"base64 padding on long lines", "github.com/stretchr/testify v1.11.1 h1:7s2iGBzp5EwR7/aIZr8ao5+dra3wiQyKjjFuvgVKu7U=\ngolang.org/x/sys v0.38.0 h1:3yZWxaJjBmCWXqhN1qh02AkOnCQ1poK6oF+a7xWL6Gc=\n", "github.com/stretchr/testify v1.11.1 h1:7s2iGBzp5EwR7/aIZr8ao5+dra3wiQyKjjFuvgVKu7U=\ngolang.org/x/sys v0.38.0 h1:3yZWxaJjBmCWXqhN1qh02AkOnCQ1poK6oF+a7xWL6Gc=\n", false},
		{"empty", "", "", false},
		{"a lone = at the end", "ab=", "ab=", false},
	} {
		got, ok := decodeQuotedPrintable(tc.in)
		assert.Equal(t, tc.decoded, ok, tc.name)
		assert.Equal(t, tc.want, got, tc.name)
	}
}

// TestQuotedPrintableRoundTrip: what a mail client encodes decodes to the
// text (with "\n" line ends); a text the encoding leaves without a telling
// escape is returned as the encoder left it.
func TestQuotedPrintableRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.StringOfN(rapid.SampledFrom([]rune("ab =:>\t\n°x0123456789ABCDEF")), 0, 400, -1).Draw(t, "text")
		enc := mailEncode(s)
		got, ok := decodeQuotedPrintable(enc)
		want := strings.ReplaceAll(s, "\r\n", "\n")
		if ok {
			require.Equal(t, want, got)
		} else {
			require.Equal(t, want, strings.ReplaceAll(enc, "\r\n", "\n"))
		}
	})
}

// BenchmarkQuotedPrintablePlain: the test a plain capture pays.
func BenchmarkQuotedPrintablePlain(b *testing.B) {
	s := strings.Repeat("ps    0 : mp:6.00W operational enlat:0 exlat:0 rrt:0 rrl:0\n", 64)
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := decodeQuotedPrintable(s); ok {
			b.Fatal("decoded")
		}
	}
}

// FuzzDecodeQuotedPrintable: any text decodes without a panic, never
// grows, and the encoding of a text decodes back to it.
func FuzzDecodeQuotedPrintable(f *testing.F) {
	for _, s := range []string{"a=3Db=\n  c=20\n", "=== x ===\n", "> > ab=\n> > cd\n", "=C2=B0=\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := decodeQuotedPrintable(s)
		if !ok && got != s {
			t.Fatalf("not decoded but changed: %q", s)
		}
		if len(got) > len(s) {
			t.Fatalf("decoding grew %q to %q", s, got)
		}
		// A text with ">" is left out of the round trip: when a soft line
		// break's continuation starts with the quote of the line it breaks,
		// the decoder takes it for quoting repeated after the encoding (as a
		// mail client writes it) and strips it, by design; the table tests
		// cover both readings.
		if enc := mailEncode(s); !strings.Contains(s, "\r") && !strings.Contains(s, ">") {
			if dec, ok := decodeQuotedPrintable(enc); ok && dec != s {
				t.Fatalf("round trip of %q: %q", s, dec)
			}
		}
	})
}
