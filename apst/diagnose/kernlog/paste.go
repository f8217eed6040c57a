package kernlog

import (
	"bytes"
	"encoding/binary"
)

// pasteMarks reports whether a line holds what copying a log through a
// terminal, a web page or a word processor adds to it: an escape sequence
// (dmesg --color=always, or a terminal's scrollback copied with its
// colours), a multi-byte blank or an invisible character (the start byte
// of U+00A0 no-break space, which a web page's &nbsp; becomes; of U+2007,
// U+200B, U+202F and U+3000; of a byte order mark), an HTML entity (a
// log copied from a page's source: &quot;, &gt;, &#61;), or a backslash,
// which a Markdown editor puts before the punctuation it would otherwise
// format (Reddit's: "\[  100.123456\] ... PCI\_STATUS=0x10"). One pass,
// no allocation: most lines have none.
func pasteMarks(b []byte) bool {
	// Sixteen bytes at a time (this runs on every line): any byte of 0x80 or
	// more, an escape, an ampersand or a backslash sends the line to the
	// exact test.
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+16 <= len(b); i += 16 {
		w, v := binary.LittleEndian.Uint64(b[i:]), binary.LittleEndian.Uint64(b[i+8:])
		we, wa, wb, ve, va, vb := w^(0x1b*lo), w^('&'*lo), w^('\\'*lo), v^(0x1b*lo), v^('&'*lo), v^('\\'*lo)
		if (w|v|(we-lo)&^we|(wa-lo)&^wa|(wb-lo)&^wb|(ve-lo)&^ve|(va-lo)&^va|(vb-lo)&^vb)&hi != 0 && marked(b[i:i+16]) {
			return true
		}
	}
	return marked(b[i:])
}

// marked is pasteMarks's test of each byte.
func marked(b []byte) bool {
	for _, c := range b {
		switch c {
		case 0x1b, 0xc2, 0xe2, 0xe3, 0xef, '&', '\\':
			return true
		}
	}
	return false
}

// unpaste undoes what pasteMarks finds, into dst (reused): escape
// sequences are dropped (CSI "ESC [ ... final byte", and any other escape
// with the byte after it), the blanks become spaces, the invisible
// characters go, and the five entities HTML escapes (&amp; &lt; &gt;
// &quot; &#39;, and &apos; &nbsp;, and a numeric one of a printable ASCII
// character, &#61; or &#x3D;) become their characters, and a Markdown
// editor's backslash before punctuation goes (markdownEscape). Anything
// else is kept as it is.
func unpaste(dst, b []byte) []byte {
	dst = dst[:0]
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == 0x1b:
			i++
			if i < len(b) && b[i] == '[' {
				i++
				for i < len(b) && (b[i] < 0x40 || b[i] > 0x7e) {
					i++ // parameter and intermediate bytes
				}
			}
			i++ // the final byte, or the escape's one byte
			continue
		case c == '&':
			if r, n := entity(b[i:]); n > 0 {
				dst = append(dst, r)
				i += n
				continue
			}
		case c == '\\' && i+1 < len(b) && markdownEscape(dst, b[i+1:]):
			i++ // the punctuation itself is kept
			continue
		case c == 0xe2 && (treeGlyph(b[i:]) || bulletGlyph(b[i:])) && blank(dst):
			// A tree's branch before the line ("  └ Oct 09 ... kernel:
			// ..."): how a terminal program nests a command's output, as
			// a coding agent's transcript shows a journalctl it ran.
			dst = append(dst, ' ')
			i += 3
			continue
		case c >= 0xc2:
			if n, r := pasteRune(b[i:]); n > 0 {
				if r != 0 {
					dst = append(dst, r)
				}
				i += n
				continue
			}
		}
		dst = append(dst, c)
		i++
	}
	return dst
}

// pasteRune reads a blank, an invisible character or a typographic dash
// at the start of b: its length, and the byte it stands for: a space
// (U+00A0, U+2007, U+202F, U+3000), nothing (0: U+200B, U+2060, U+FEFF,
// and the soft hyphen U+00AD a word processor puts inside words), or '-'
// (the hyphens U+2010 and U+2011, the en dash U+2013 and the minus sign
// U+2212 that a word processor's or a page's typography makes of one: no
// kernel message has them). n is 0 for anything else.
func pasteRune(b []byte) (n int, r byte) {
	switch {
	case bytes.HasPrefix(b, []byte("\u00a0")):
		return 2, ' '
	case bytes.HasPrefix(b, []byte("\u00ad")):
		return 2, 0
	case bytes.HasPrefix(b, []byte("\u2007")), bytes.HasPrefix(b, []byte("\u202f")), bytes.HasPrefix(b, []byte("\u3000")):
		return 3, ' '
	case bytes.HasPrefix(b, []byte("\u200b")), bytes.HasPrefix(b, []byte("\u2060")), bytes.HasPrefix(b, []byte("\ufeff")):
		return 3, 0
	case bytes.HasPrefix(b, []byte("\u2010")), bytes.HasPrefix(b, []byte("\u2011")), bytes.HasPrefix(b, []byte("\u2013")),
		bytes.HasPrefix(b, []byte("\u2212")):
		return 3, '-'
	}
	return 0, 0
}

// entities are the HTML entities a page's source holds for a log's
// characters.
var entities = []struct {
	name string
	r    byte
}{
	{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&#39;", '\''}, {"&#34;", '"'}, {"&apos;", '\''}, {"&nbsp;", ' '},
}

// entity reads an HTML entity at the start of b: the character and the
// entity's length, or 0. A numeric entity counts only for a printable
// ASCII character: a log's text is ASCII.
func entity(b []byte) (byte, int) {
	for _, e := range entities {
		if bytes.HasPrefix(b, []byte(e.name)) {
			return e.r, len(e.name)
		}
	}
	if len(b) < 4 || b[1] != '#' {
		return 0, 0
	}
	base, j := 10, 2
	if b[2] == 'x' || b[2] == 'X' {
		base, j = 16, 3
	}
	v, start := 0, j
	for ; j < len(b) && j < start+4; j++ {
		d := hexDigit(b[j])
		if d < 0 || d >= base {
			break
		}
		v = v*base + d
	}
	if j == start || j >= len(b) || b[j] != ';' || v < ' ' || v > '~' {
		return 0, 0
	}
	return byte(v), j + 1
}

// hexDigit is the value of a hexadecimal digit, or -1.
func hexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// markdownEscape reports whether a backslash before next[0] is a Markdown
// editor's escape, which the paste's reader drops: before brackets and the
// other punctuation Markdown formats, and before an underscore inside a
// word ("PCI\_STATUS", "default\_ps\_max\_latency\_us") or an escaped
// underscore before another ("\_\_nvme\_submit\_sync\_cmd"). An ACPI
// path's "\_SB.PCI0" (a backslash and an underscore after a space or a
// bracket, then a letter) keeps its backslash, as does a backslash before
// anything else. done is what the line has so far.
func markdownEscape(done, next []byte) bool {
	switch next[0] {
	case '[', ']', '(', ')', '*', '#', '>', '|', '~', '`', '-', '+', '!', '{', '}':
		return true
	case '_':
		if len(next) > 1 && next[1] == '\\' {
			return true
		}
		if len(done) == 0 {
			return false
		}
		p := done[len(done)-1]
		return p == '_' || p >= 'a' && p <= 'z' || p >= 'A' && p <= 'Z' || p >= '0' && p <= '9'
	}
	return false
}

// treeGlyph reports whether b starts with a box-drawing branch, U+2514 └,
// U+251C ├ or U+2502 │, followed by a blank.
func treeGlyph(b []byte) bool {
	return len(b) >= 4 && b[0] == 0xe2 && b[1] == 0x94 && (b[2] == 0x94 || b[2] == 0x9c || b[2] == 0x82) && (b[3] == ' ' || b[3] == '\t')
}

// bulletGlyph reports whether b starts with a list's bullet, U+2022 •,
// followed by a blank, as a rich-text paste keeps it before each line.
func bulletGlyph(b []byte) bool {
	return len(b) >= 4 && b[0] == 0xe2 && b[1] == 0x80 && b[2] == 0xa2 && (b[3] == ' ' || b[3] == '\t')
}

// blank reports whether b holds only spaces and tabs.
func blank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}
