package capture

import (
	"bytes"
	"io"
	"strings"
	"unsafe"

	"github.com/nvmeapst/nvmeapst/internal/textenc"
)

// hasUTF16BOM reports whether b starts with a UTF-16 byte order mark.
func hasUTF16BOM(b []byte) bool { return textenc.UTF16BOM(b) != textenc.None }

// textOf returns the capture as UTF-8 text: a UTF-8 byte order mark is
// dropped, and UTF-16 with a byte order mark (little or big endian, what
// Windows PowerShell's ">" writes) is converted into a new string; so is
// text copied from a web page, whose no-break spaces become blanks and
// whose zero-width spaces go. Anything else is returned as is, invalid
// UTF-8 byte for byte.
//
// Without conversion the result is a view of b, not a copy: b must not
// change while the string is in use, and a reader must copy (strings.Clone)
// every part of it that it keeps in its result. The readers of this module
// do so for every string they return.
func textOf(b []byte) string {
	s := textOfRaw(b)
	if strings.Contains(s, "\u00a0") || strings.Contains(s, "\u200b") {
		s = webSpaces.Replace(s)
	}
	return s
}

// webSpaces turns what a web page's &nbsp; becomes when a capture is
// copied from it (no-break spaces, and zero-width spaces at word breaks)
// back into the blanks the tool printed.
var webSpaces = strings.NewReplacer("\u00a0", " ", "\u200b", "")

// textOfRaw is textOf before the web page's spaces are undone.
func textOfRaw(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte{0xef, 0xbb, 0xbf}):
		return bytesView(b[3:])
	case hasUTF16BOM(b) && len(b)%2 == 0:
		out, _ := io.ReadAll(textenc.NewUTF16Reader(bytes.NewReader(b[2:]), textenc.UTF16BOM(b))) // a bytes.Reader does not fail
		return string(out)
	}
	return bytesView(b)
}

// bytesView returns the bytes of b as a string without copying them. b must not
// change while the string or any part of it is in use.
func bytesView(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
