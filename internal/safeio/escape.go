package safeio

import (
	"strings"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// EscapeTerminal returns s with everything that could act on a terminal or
// forge a line of output written as a visible escape, and every printable
// character, ASCII or not, left as it is:
//
//   - "\n", "\r", "\t" for LF, CR and TAB;
//   - "\xHH" for the other C0 controls (ESC is "\x1b"), DEL ("\x7f") and
//     every byte that is not part of valid UTF-8 ("\xff");
//   - "\uHHHH" for the C1 controls U+0080 to U+009F, the line and paragraph
//     separators U+2028 and U+2029, and the bidirectional controls (U+061C,
//     U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069) that reorder what
//     a terminal shows;
//   - "\\" for a backslash, so that the escaping is injective: two different
//     strings never give the same output, and the original can be recovered.
//
// The result is valid UTF-8 without a control character. A string that
// needs no escape is returned as it is, without allocating.
func EscapeTerminal(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f || c == '\\' {
				break
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || escapedRune(r) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	b := make([]byte, 0, len(s)+16)
	b = append(b, s[:i]...)
	return string(AppendEscapeTerminal(b, s[i:]))
}

// HasControl reports whether s holds anything [EscapeTerminal] escapes
// other than a backslash: a C0 or C1 control, DEL, a line or paragraph
// separator, a bidirectional control, or a byte that is not part of valid
// UTF-8. A message that does not is safe to print as it is.
func HasControl(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || escapedRune(r) {
			return true
		}
		i += n
	}
	return false
}

// AppendEscapeTerminal appends [EscapeTerminal] of s to dst and returns the
// extended slice.
func AppendEscapeTerminal(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\\':
				dst = append(dst, '\\', '\\')
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c < 0x20 || c == 0x7f:
				dst = append(dst, '\\', 'x', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			dst = append(dst, '\\', 'x', hexDigits[c>>4], hexDigits[c&0xf])
		case escapedRune(r):
			dst = append(dst, '\\', 'u',
				hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
		default:
			dst = append(dst, s[i:i+n]...)
		}
		i += n
	}
	return dst
}

// escapedRune reports whether a valid non-ASCII rune is written as \uHHHH.
// Every such rune is in the Basic Multilingual Plane.
func escapedRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f: // C1 controls
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f: // ALM, LRM, RLM
		return true
	case r == 0x2028, r == 0x2029: // line and paragraph separators
		return true
	case r >= 0x202a && r <= 0x202e: // LRE, RLE, PDF, LRO, RLO
		return true
	case r >= 0x2066 && r <= 0x2069: // LRI, RLI, FSI, PDI
		return true
	}
	return false
}

// CSVCell returns a CSV cell value that no spreadsheet evaluates as a
// formula: a value starting with "=", "+", "-", "@", TAB or CR (the OWASP
// list) gets a leading apostrophe, which spreadsheets hide and treat as
// "text"; so does each such start after a ";", where a spreadsheet whose
// locale separates lists with ";" (German or French Excel) starts a cell.
// Anything else is returned unchanged. Use it on untrusted text cells
// (model, serial, firmware, paths), not on numbers: "-5" becomes "'-5".
// Quoting is left to encoding/csv.
func CSVCell(s string) string {
	n := 0
	for i := range len(s) {
		if csvFormula(s, i) {
			n++
		}
	}
	if n == 0 {
		return s
	}
	b := make([]byte, 0, len(s)+n)
	for i := range len(s) {
		if csvFormula(s, i) {
			b = append(b, '\'')
		}
		b = append(b, s[i])
	}
	return string(b)
}

// csvFormula reports whether a cell starts at s[i] (the start of s, or
// after a ";") with a character that makes it a formula.
func csvFormula(s string, i int) bool {
	return (i == 0 || s[i-1] == ';') && strings.IndexByte("=+-@\t\r", s[i]) >= 0
}

// AppendJSONSafe appends the JSON text src to dst with the characters
// encoding/json leaves as they are but a terminal acts on (DEL, the C1
// controls, the bidirectional controls that reorder what it shows)
// written as \uXXXX escapes: the same JSON value, which a terminal or a
// pager shows as it is. Those characters occur only inside JSON strings,
// where the escape means them; an invalid UTF-8 byte (which encoding/json
// never writes) is copied as it is.
func AppendJSONSafe(dst, src []byte) []byte {
	const hex = "0123456789abcdef"
	start := 0
	for i := 0; i < len(src); {
		c := src[i]
		if c < utf8.RuneSelf {
			if c == 0x7f {
				dst = append(append(dst, src[start:i]...), `\u007f`...)
				start = i + 1
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(src[i:])
		if r != utf8.RuneError && escapedRune(r) {
			dst = append(append(dst, src[start:i]...), '\\', 'u', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
			start = i + n
		}
		i += n
	}
	return append(dst, src[start:]...)
}
