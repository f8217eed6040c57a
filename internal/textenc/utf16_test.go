package textenc_test

import (
	"bytes"
	"io"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/internal/textenc"
)

func encode(units []uint16, o textenc.Order) []byte {
	var b []byte
	for _, u := range units {
		if o == textenc.BigEndian {
			b = append(b, byte(u>>8), byte(u))
		} else {
			b = append(b, byte(u), byte(u>>8))
		}
	}
	return b
}

func decode(t *testing.T, b []byte, o textenc.Order) string {
	out, err := io.ReadAll(textenc.NewUTF16Reader(bytes.NewReader(b), o))
	require.NoError(t, err)
	return string(out)
}

func TestUTF16BOM(t *testing.T) {
	assert.Equal(t, textenc.LittleEndian, textenc.UTF16BOM([]byte{0xff, 0xfe, 'a'}))
	assert.Equal(t, textenc.BigEndian, textenc.UTF16BOM([]byte{0xfe, 0xff}))
	assert.Equal(t, textenc.None, textenc.UTF16BOM([]byte{0xff}))
	assert.Equal(t, textenc.None, textenc.UTF16BOM([]byte("[ 1.0] nvme")))
}

// Unpaired surrogates become U+FFFD without taking the unit after them;
// a lone last byte is dropped.
func TestUTF16Edges(t *testing.T) {
	for _, o := range []textenc.Order{textenc.LittleEndian, textenc.BigEndian} {
		assert.Equal(t, "a\U0001F600b", decode(t, encode(utf16.Encode([]rune("a\U0001F600b")), o), o))
		assert.Equal(t, "\uFFFDx", decode(t, encode([]uint16{0xd83d, 'x'}, o), o), "a high surrogate, then a letter")
		assert.Equal(t, "\uFFFDy", decode(t, encode([]uint16{0xde00, 'y'}, o), o), "a low surrogate alone")
		assert.Equal(t, "\uFFFD", decode(t, encode([]uint16{0xd83d}, o), o), "a high surrogate at the end")
		assert.Equal(t, "z", decode(t, append(encode([]uint16{'z'}, o), 0x41), o), "a lone last byte")
	}
}

// Any text round-trips through UTF-16 in either byte order.
func TestRapidUTF16RoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.String().Draw(t, "s")
		o := rapid.SampledFrom([]textenc.Order{textenc.LittleEndian, textenc.BigEndian}).Draw(t, "order")
		out, err := io.ReadAll(textenc.NewUTF16Reader(bytes.NewReader(encode(utf16.Encode([]rune(s)), o)), o))
		if err != nil || string(out) != string([]rune(s)) {
			t.Fatalf("%q -> %q (%v)", s, out, err)
		}
	})
}

func TestUTF16Unmarked(t *testing.T) {
	line := "[  100.123456] nvme nvme0: controller is down\n"
	for _, tc := range []struct {
		name string
		b    []byte
		want textenc.Order
	}{
		{"little endian", encode(utf16.Encode([]rune(line)), textenc.LittleEndian), textenc.LittleEndian},
		{"big endian", encode(utf16.Encode([]rune(line)), textenc.BigEndian), textenc.BigEndian},
		{"UTF-8", []byte(line), textenc.None},
		{"too short to tell", encode(utf16.Encode([]rune("[ 1.0]")), textenc.LittleEndian), textenc.None},
		{"a control byte among the units", encode(utf16.Encode([]rune("[ 1\x01.0] nvme nvme0")), textenc.LittleEndian), textenc.None},
		{"binary zeros", make([]byte, 32), textenc.None},
		{"an Identify structure's start (VID 144d, SSVID 144d, serial)", append([]byte{0x4d, 0x14, 0x4d, 0x14}, []byte("S6B0NL0T123456      ")...), textenc.None},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, textenc.UTF16Unmarked(tc.b))
		})
	}
}

// Text in UTF-8 holds no zero byte, so no UTF-8 text reads as UTF-16
// without its mark.
func TestUTF16UnmarkedNeverUTF8(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.StringMatching(`[\x01-\x7f]{0,64}`).Draw(t, "text")
		assert.Equal(t, textenc.None, textenc.UTF16Unmarked([]byte(s)))
	})
}
