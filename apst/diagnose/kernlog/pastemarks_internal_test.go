package kernlog

import (
	"testing"

	"pgregory.net/rapid"
)

// The sixteen-bytes-at-a-time filter of pasteMarks says of every line what
// the exact test of each byte says: no line with an escape, a multi-byte
// blank's first byte, an ampersand or a backslash gets past it, at any
// offset and length. Most lines hold one such byte or none, among bytes
// that look like them to a careless filter (their neighbours in ASCII);
// each check tries a batch of them.
func TestPasteMarksIsMarked(t *testing.T) {
	line := rapid.Custom(func(t *rapid.T) []byte {
		n := rapid.IntRange(0, 80).Draw(t, "length")
		b := rapid.SliceOfN(rapid.SampledFrom([]byte("aZ09 [].:=%'[]^\x1a\x1c\x7f")), n, n).Draw(t, "bytes")
		if n > 0 && rapid.Bool().Draw(t, "marked") {
			b[rapid.IntRange(0, n-1).Draw(t, "at")] = rapid.SampledFrom([]byte("\x1b\xc2\xe2\xe3\xef&\\\x80\xff")).Draw(t, "mark")
		}
		return b
	})
	rapid.Check(t, func(t *rapid.T) {
		for _, b := range rapid.SliceOfN(line, 32, 32).Draw(t, "lines") {
			if got, want := pasteMarks(b), marked(b); got != want {
				t.Fatalf("pasteMarks(%q) = %v, the exact test says %v", b, got, want)
			}
		}
	})
}
