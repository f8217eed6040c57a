package capture

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPrefix(t *testing.T) {
	for in, want := range map[string]string{
		"vid : 1":        "",
		"    vid : 1":    "    ",
		"\tvid":          "\t",
		"> vid":          "> ",
		"> >   vid":      "> >   ",
		"":               "",
		"   ":            "   ",
		">\tps 0 : mp:1": ">\t",
	} {
		assert.Equal(t, want, pastePrefix(in), "%q", in)
	}
}

func TestDedent(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		marker   int
		prefix   string
		want     string
	}{
		{"no prefix", "a\n b\n", 1, "", "a\n b\n"},
		{"code block", "Look:\n\n    vid : 1\n      cont\n\n    ps 0\nThanks\n", 3, "    ",
			"\n\nvid : 1\n  cont\n\nps 0\n\n"},
		{"quote with blank quote lines", "Ann wrote:\n> vid : 1\n>\n> ps 0\n-- \n", 2, "> ",
			"\nvid : 1\n\nps 0\n\n"},
		{"crlf kept", "  a\r\n  b\r\n", 1, "  ", "a\r\nb\r\n"},
		{"no terminator", "  a\n  b", 2, "  ", "a\nb"},
		{"block ends at an unindented line", "  a\nb\n  c\n", 1, "  ", "a\n\n\n"},
		{"marker out of range", "  a\n", 7, "  ", "  a\n"},
		// A line emptied between a lone "\r" and a "\n" stays a line:
		// "\r\n" would be one terminator, and every line after it one up.
		{"lone cr before an emptied line", "x\ry\n  a\n", 3, "  ", "\r \na\n"},
		{"lone cr before an emptied line and a crlf", "x\ry\r\n  a\n", 3, "  ", "\r \r\na\n"},
		// The end of a quoted line a mail client wrapped stays, unquoted,
		// and the block goes on after it.
		{"wrapped quote", "> vid : 1\n> mn : " + strings.Repeat("x", 60) + "\nyz\n> ps 0\n", 1, "> ",
			"vid : 1\nmn : " + strings.Repeat("x", 60) + "\nyz\nps 0\n"},
		{"short quoted line: no wrap", "> vid : 1\nyz\n> ps 0\n", 1, "> ", "vid : 1\n\n\n"},
		{"doubled crlf kept", "  a\r\r\n  b\r\r\n", 1, "  ", "a\r\r\nb\r\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := dedent(tc.in, tc.marker, tc.prefix)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, strings.Count(tc.in, "\n"), strings.Count(got, "\n"), "line numbers kept")
			assert.Equal(t, lineCount(tc.in), lineCount(got), "lines as the parsers count them kept")
		})
	}
}

// lineCount counts lines as the parsers read them ("\n", "\r\n",
// "\r\r\n", a lone "\r").
func lineCount(s string) int {
	l := newLineReader(s)
	for {
		if _, _, ok := l.Next(); !ok {
			return l.N()
		}
	}
}

func TestText(t *testing.T) {
	assert.Equal(t, "abc", textOf([]byte("\xef\xbb\xbfabc")))
	assert.Equal(t, "a\u00e9\U0001F600\n", textOf([]byte{0xff, 0xfe, 'a', 0, 0xe9, 0, 0x3d, 0xd8, 0x00, 0xde, '\n', 0}))
	assert.Equal(t, "a\u00e9\n", textOf([]byte{0xfe, 0xff, 0, 'a', 0, 0xe9, 0, '\n'}))
	assert.Equal(t, "\xff\xfeodd", textOf([]byte("\xff\xfeodd")), "an odd length is not UTF-16")
	assert.Equal(t, "plain \xff", textOf([]byte("plain \xff")), "invalid UTF-8 is kept")
	assert.Equal(t, "", textOf(nil))
}

func TestRead(t *testing.T) {
	b, _, err := readBounded(strings.NewReader("hello"))
	assert.NoError(t, err)
	assert.Equal(t, "hello", string(b))
	b, _, err = readBounded(oneByte{strings.NewReader(strings.Repeat("x", 3*firstRead))})
	assert.NoError(t, err)
	assert.Len(t, b, 3*firstRead)
	_, expected, err := readBounded(strings.NewReader(strings.Repeat("x", MaxSize+1)))
	assert.ErrorIs(t, err, ErrTooLarge)
	assert.Equal(t, "at most 1048576 bytes", expected)
	b, _, err = readBounded(strings.NewReader(strings.Repeat("x", MaxSize)))
	assert.NoError(t, err)
	assert.Len(t, b, MaxSize)
}

// oneByte hides the Len method of the reader it wraps.
type oneByte struct{ r *strings.Reader }

func (o oneByte) Read(p []byte) (int, error) { return o.r.Read(p) }
