package sniff

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/nvmeapst/nvmeapst/internal/textenc"
)

// Bytes of b that text need not hold beyond which NotText calls it
// binary: more than binaryMin of them, and more than 1 in binaryShare of
// its bytes. A setting with a few bytes of Latin-1 in a comment is text
// (one accented letter in a word is about 1 byte in 30 of prose); random
// data holds about 6 in 10.
const (
	binaryMin   = 4
	binaryShare = 16
)

// NotText says what b is when it is not text that a command reads line by
// line (a rules file, a setting), as a noun phrase for a refusal:
//
//   - "binary data (NUL at byte offset 5, line 1)": a NUL byte anywhere
//     (no text file holds one);
//   - "UTF-16 text (it starts with the byte order mark FF FE)": text as
//     Windows PowerShell saves it (ASCII's every other byte a NUL), with
//     a byte order mark or without;
//   - "binary data (300 of its 5000 bytes are control characters or
//     invalid UTF-8, the first at byte offset 0)": more of them than
//     a few bytes of another encoding in a comment.
//
// It is "" for text: UTF-8 (a byte order mark allowed) with tabs, line
// ends and at most a few such bytes. Offsets count from 0, lines from 1.
func NotText(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		// ASCII in UTF-16 holds a NUL in every other byte.
		if o := textenc.UTF16BOM(b); o != textenc.None {
			return "UTF-16 text (it starts with the byte order mark " + bomText(o) + ")"
		}
		if textenc.UTF16Unmarked(b) != textenc.None {
			return "UTF-16 text (without a byte order mark)"
		}
		return fmt.Sprintf("binary data (NUL at byte offset %d, line %d)", i, bytes.Count(b[:i], []byte("\n"))+1)
	}
	bad, first := 0, -1
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != 0x1b || c == 0x7f {
				bad++
				first = cmpFirst(first, i)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			bad++
			first = cmpFirst(first, i)
		}
		i += size
	}
	if bad > binaryMin && bad*binaryShare > len(b) {
		return fmt.Sprintf("binary data (%d of its %d bytes are control characters or invalid UTF-8, the first at byte offset %d)", bad, len(b), first)
	}
	return ""
}

// cmpFirst returns first, or i when first is not set yet.
func cmpFirst(first, i int) int {
	if first < 0 {
		return i
	}
	return first
}

// bomText writes a UTF-16 byte order mark's bytes.
func bomText(o textenc.Order) string {
	if o == textenc.LittleEndian {
		return "FF FE"
	}
	return "FE FF"
}
