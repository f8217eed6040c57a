package sniff_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/internal/sniff"
)

// NotText says what input that is not text is, and nothing of text: UTF-8
// with a few stray bytes of another encoding in a comment is text.
func TestNotText(t *testing.T) {
	image, err := os.ReadFile(filepath.Join("testdata", "samsung-990-evo-plus-1tb-2B2QKXG7.bin"))
	require.NoError(t, err)
	rules, err := os.ReadFile(filepath.Join("testdata", "o.rules"))
	require.NoError(t, err)
	random := make([]byte, 512)
	for i := range random {
		random[i] = byte(i*131+7) | 1 // no NUL
	}
	for _, tc := range []struct {
		name string
		in   []byte
		want string
	}{
		{"empty", nil, ""},
		{"rules", rules, ""},
		{"a byte order mark and CRLF", []byte("\ufeffoptions nvme_core default_ps_max_latency_us=0\r\n"), ""},
		{"tabs, form feed and ESC", []byte("w\t/sys/x\f- - - - 0\x1b[0m\n"), ""},
		{"a Latin-1 comment", []byte("# r\xe9glage du \xe9tat \xe0 25 ms\noptions nvme_core default_ps_max_latency_us=25000\n"), ""},
		{"4 stray bytes in a short line", []byte("w /sys/x\xff\xfe\xfd\xfc\n"), ""},
		{"NUL first", []byte("\x00\x01\x02\xff\xfe binary\nw\t\xd7\x05"), "binary data (NUL at byte offset 0, line 1)"},
		{"NUL on line 3", []byte("a\nb\nc\x00"), "binary data (NUL at byte offset 5, line 3)"},
		{"an Identify image", image, "binary data (NUL at byte offset"},
		{"UTF-16 with its mark", []byte("\xff\xfeu\x00d\x00e\x00v\x00\n\x00"), "UTF-16 text (it starts with the byte order mark FF FE)"},
		{"UTF-16 big endian", []byte("\xfe\xff\x00u\x00d"), "UTF-16 text (it starts with the byte order mark FE FF)"},
		{"UTF-16 without a mark", []byte("o\x00p\x00t\x00i\x00o\x00n\x00s\x00 \x00n\x00"), "UTF-16 text (without a byte order mark)"},
		{"a mark alone, no UTF-16", []byte("\xff\xfe\xfa bad utf8\n"), ""},
		{"random bytes", random, "binary data ("},
		{"control characters", []byte("w /sys\x01\x02\x03\x04\x05\x06 x\n"), "binary data (6 of its 15 bytes are control characters or invalid UTF-8, the first at byte offset 6)"},
		{"invalid UTF-8", []byte("w \xc0\xc1\xf5\xf6\xf7\xff x\n"), "binary data (6 of its 11 bytes are control characters or invalid UTF-8, the first at byte offset 2)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := sniff.NotText(tc.in)
			if tc.want == "" {
				assert.Empty(t, got)
				return
			}
			assert.True(t, strings.HasPrefix(got, tc.want), "%q", got)
		})
	}
}

// Valid UTF-8 without control characters is text, however long; input
// with a NUL byte never is, and the offset named is the first NUL's.
func TestPropertyNotText(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.StringMatching(`[\t\n\r -~\x{a0}-\x{10ffff}]*`).Draw(t, "text")
		require.True(t, utf8.ValidString(s))
		require.Empty(t, sniff.NotText([]byte(s)), "%q", s)
		b := []byte(s)
		at := rapid.IntRange(0, len(b)).Draw(t, "at")
		withNUL := append(append(append([]byte{}, b[:at]...), 0), b[at:]...)
		got := sniff.NotText(withNUL)
		require.NotEmpty(t, got)
		if !strings.HasPrefix(got, "UTF-16") {
			require.Contains(t, got, "NUL at byte offset "+strconv.Itoa(bytes.IndexByte(withNUL, 0)))
		}
	})
}
